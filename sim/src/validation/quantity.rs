//! Whether a text is a Kubernetes quantity (`500m`, `1Gi`, `1e3`), with the errors of
//! apimachinery's `resource.ParseQuantity`: its own JSON decoding fails a whole request with
//! one of these three texts, no field path attached.

pub const FORMAT_WRONG: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
pub const NUMERIC: &str = "unable to parse numeric part of quantity";
pub const SUFFIX: &str = "unable to parse quantity's suffix";

/// Reads `text` the way `ParseQuantity` scans it: sign, digits, an optional fraction, then a
/// suffix made of the suffix letters and an optionally signed exponent.
pub fn parse(text: &str) -> Result<(), String> {
    if text.is_empty() {
        return Err(FORMAT_WRONG.into());
    }
    let bytes = text.as_bytes();
    let mut pos = usize::from(matches!(bytes[0], b'-' | b'+'));
    let digits = |from: usize| {
        from + bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let number_start = pos;
    pos = digits(pos);
    if pos == bytes.len() {
        return Ok(());
    }
    if bytes[pos] == b'.' {
        pos = digits(pos + 1);
        if pos == bytes.len() {
            return numeric(&text[number_start..pos]);
        }
    }
    let number_end = pos;
    let suffix_start = pos;
    while pos < bytes.len() && b"eEinumkKMGTP".contains(&bytes[pos]) {
        pos += 1;
    }
    if pos < bytes.len() {
        if matches!(bytes[pos], b'-' | b'+') {
            pos += 1;
        }
        if digits(pos) != bytes.len() {
            return Err(FORMAT_WRONG.into());
        }
    }
    if !known_suffix(&text[suffix_start..]) {
        return Err(SUFFIX.into());
    }
    numeric(&text[number_start..number_end])
}

fn numeric(number: &str) -> Result<(), String> {
    let has_digit = number.bytes().any(|b| b.is_ascii_digit());
    if has_digit || number.is_empty() {
        Ok(())
    } else {
        Err(NUMERIC.into())
    }
}

fn known_suffix(suffix: &str) -> bool {
    const DECIMAL: &[&str] = &["", "n", "u", "m", "k", "M", "G", "T", "P", "E"];
    const BINARY: &[&str] = &["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
    if DECIMAL.contains(&suffix) || BINARY.contains(&suffix) {
        return true;
    }
    suffix.len() > 1
        && matches!(suffix.as_bytes()[0], b'e' | b'E')
        && suffix[1..].parse::<i64>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities_parse_or_fail_as_parse_quantity_does() {
        for ok in [
            "0", "1", "500m", "1Gi", "0.5", "1e3", "-2k", "+1.5Mi", "2E-3", "1.",
        ] {
            assert_eq!(parse(ok), Ok(()), "{ok}");
        }
        assert_eq!(parse("lots").unwrap_err(), FORMAT_WRONG);
        assert_eq!(parse("1Gx").unwrap_err(), FORMAT_WRONG);
        assert_eq!(parse("1.2.3").unwrap_err(), FORMAT_WRONG);
        assert_eq!(parse("").unwrap_err(), FORMAT_WRONG);
        assert_eq!(parse("1GG").unwrap_err(), SUFFIX);
        assert_eq!(parse(".").unwrap_err(), NUMERIC);
    }
}
