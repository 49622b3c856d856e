//! Times as the evidence records them: RFC 3339 strings, compared as instants.

/// An RFC 3339 time, as an instant.
pub fn time_of(s: &str) -> Option<jiff::Timestamp> {
    s.parse().ok()
}

/// A JSON value holding an RFC 3339 time, as an instant.
pub fn time(v: &serde_json::Value) -> Option<jiff::Timestamp> {
    v.as_str().and_then(time_of)
}
