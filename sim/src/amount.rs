//! The numeric value of a Kubernetes quantity (`250m`, `1.5`, `64Mi`, `1e3`), in thousandths of
//! the unit, and the canonical text of a sum: what the HPA controller, quota accounting and
//! LimitRange defaults compute with. (Validation of the text is `validation::quantity`.)

/// The value in milli-units (`250m` → 250, `2` → 2000, `1Ki` → 1_024_000), or `None` for text
/// that is not a quantity or too large.
pub fn milli(text: &str) -> Option<i128> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
        .unwrap_or(text.len());
    let (number, suffix) = text.split_at(split);
    let value: f64 = number.parse().ok()?;
    let scale: f64 = match suffix {
        "" => 1.0,
        "m" => 1e-3,
        "u" => 1e-6,
        "n" => 1e-9,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "E" => 1e18,
        "Ki" => 1024.0,
        "Mi" => 1024f64.powi(2),
        "Gi" => 1024f64.powi(3),
        "Ti" => 1024f64.powi(4),
        "Pi" => 1024f64.powi(5),
        "Ei" => 1024f64.powi(6),
        s if s.starts_with(['e', 'E']) => 10f64.powi(s[1..].parse().ok()?),
        _ => return None,
    };
    let milli = (value * scale * 1000.0).ceil();
    (milli.is_finite() && milli.abs() < 1e30).then_some(milli as i128)
}

/// Canonical text of a value in milli-units, as apimachinery writes a sum: whole units when
/// whole (binary suffixes for memory-sized multiples of 1024), else millis (`1500m`).
pub fn format_milli(milli: i128) -> String {
    if milli % 1000 != 0 {
        return format!("{milli}m");
    }
    let whole = milli / 1000;
    for (suffix, size) in [("Gi", 1i128 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10)] {
        if whole != 0 && whole % size == 0 {
            return format!("{}{suffix}", whole / size);
        }
    }
    whole.to_string()
}

/// A quantity's text as apimachinery's `Quantity.String()` writes it: binary-suffixed values
/// (`Ki`..`Ei`) with the largest binary suffix that divides them, other values with the largest
/// decimal suffix (`m`, `k`, `M`, `G`, `T`, `P`) that leaves a whole number (`0.2` → `200m`,
/// `2000` → `2k`, `1500` → `1500`). Text that is not a quantity is returned as it is.
pub fn canonical(text: &str) -> String {
    let Some(milli) = milli(text) else {
        return text.to_string();
    };
    if text.trim_end().ends_with('i') && milli % 1000 == 0 {
        let whole = milli / 1000;
        for (suffix, size) in [
            ("Ei", 1i128 << 60),
            ("Pi", 1 << 50),
            ("Ti", 1 << 40),
            ("Gi", 1 << 30),
            ("Mi", 1 << 20),
            ("Ki", 1 << 10),
        ] {
            if whole != 0 && whole % size == 0 {
                return format!("{}{suffix}", whole / size);
            }
        }
        return whole.to_string();
    }
    if milli == 0 {
        return "0".into();
    }
    for (suffix, size) in [
        ("P", 10i128.pow(18)),
        ("T", 10i128.pow(15)),
        ("G", 10i128.pow(12)),
        ("M", 10i128.pow(9)),
        ("k", 10i128.pow(6)),
        ("", 1000),
    ] {
        if milli % size == 0 {
            return format!("{}{suffix}", milli / size);
        }
    }
    format!("{milli}m")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities_read_in_thousandths() {
        assert_eq!(milli("250m"), Some(250));
        assert_eq!(milli("1.5"), Some(1500));
        assert_eq!(milli("64Mi"), Some(64 * 1024 * 1024 * 1000));
        assert_eq!(milli("1e3"), Some(1_000_000));
        assert_eq!(milli("lots"), None);
    }

    #[test]
    fn quantities_are_written_as_go_writes_them() {
        assert_eq!(canonical("0.2"), "200m");
        assert_eq!(canonical("100m"), "100m");
        assert_eq!(canonical("1000m"), "1");
        assert_eq!(canonical("2000"), "2k");
        assert_eq!(canonical("1500"), "1500");
        assert_eq!(canonical("128Mi"), "128Mi");
        assert_eq!(canonical("1024Ki"), "1Mi");
        assert_eq!(canonical("0.1Gi"), "107374182400m");
    }

    #[test]
    fn sums_are_written_canonically() {
        assert_eq!(format_milli(3000), "3");
        assert_eq!(format_milli(150), "150m");
        assert_eq!(format_milli(128 * 1024 * 1024 * 1000), "128Mi");
    }
}
