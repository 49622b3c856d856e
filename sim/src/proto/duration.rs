//! `metav1.Duration`: Go's `time.Duration` text in JSON (`15s`, `1m30s`, `250ms`), nanoseconds
//! on the wire (a metrics window, a CRD's `ttl`-like fields).

use super::ProtoError;

const UNITS: &[(&str, i64)] = &[
    ("ns", 1),
    ("us", 1_000),
    ("µs", 1_000),
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
    ("m", 60_000_000_000),
    ("h", 3_600_000_000_000),
];

/// Go's `time.ParseDuration`: signed, a sequence of decimal numbers each with a unit.
pub fn parse(text: &str, path: &str) -> Result<i64, ProtoError> {
    let bad = || ProtoError::field(path, format!("time: invalid duration {text:?}"));
    let (negative, mut rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(bad());
    }
    let mut total: f64 = 0.0;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or_else(bad)?;
        let number: f64 = rest[..digits].parse().map_err(|_| bad())?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = UNITS
            .iter()
            .find(|(u, _)| *u == &rest[..unit_len])
            .ok_or_else(bad)?
            .1;
        total += number * scale as f64;
        rest = &rest[unit_len..];
    }
    let nanos = total.round() as i64;
    Ok(if negative { -nanos } else { nanos })
}

/// Go's `Duration.String`: `1h2m3.5s`, `250ms`, `0s`.
pub fn format(nanos: i64) -> String {
    if nanos == 0 {
        return "0s".into();
    }
    let sign = if nanos < 0 { "-" } else { "" };
    let n = nanos.unsigned_abs();
    let fraction = |value: u64, unit: u64| {
        let whole = value / unit;
        let rest = value % unit;
        if rest == 0 {
            return whole.to_string();
        }
        let digits = unit.ilog10() as usize;
        let text = format!("{rest:0digits$}");
        format!("{whole}.{}", text.trim_end_matches('0'))
    };
    if n < 1_000_000_000 {
        let (unit, name) = if n < 1_000 {
            (1, "ns")
        } else if n < 1_000_000 {
            (1_000, "µs")
        } else {
            (1_000_000, "ms")
        };
        return format!("{sign}{}{name}", fraction(n, unit));
    }
    let hours = n / 3_600_000_000_000;
    let minutes = (n / 60_000_000_000) % 60;
    let seconds = fraction(n % 60_000_000_000, 1_000_000_000);
    match (hours, minutes) {
        (0, 0) => format!("{sign}{seconds}s"),
        (0, m) => format!("{sign}{m}m{seconds}s"),
        (h, m) => format!("{sign}{h}h{m}m{seconds}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_and_print_as_go_does() {
        for (text, nanos) in [
            ("15s", 15_000_000_000),
            ("1m30s", 90_000_000_000),
            ("250ms", 250_000_000),
            ("1h0m0s", 3_600_000_000_000),
            ("10.062s", 10_062_000_000),
            ("0s", 0),
        ] {
            assert_eq!(parse(text, "w").unwrap(), nanos, "{text}");
            assert_eq!(format(nanos), text, "{text}");
        }
        assert!(parse("fast", "w").is_err());
        assert_eq!(format(1_500), "1.5µs");
    }
}
