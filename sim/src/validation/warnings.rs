//! The `Warning` headers a response carries (`299 - "unknown field \"spec.replica\""`), which
//! kubectl prints as `Warning: ...`: deduplicated, and cut down as the real server's recorder
//! does once they pass 4096 characters in all (each to 256 characters).

use std::sync::Mutex;

use axum::http::HeaderValue;

const TRUNCATE_AT_TOTAL: usize = 4 * 1024;
const TRUNCATE_ITEM: usize = 256;

/// The two ways a YAML strict error starts; each line after it is a warning of its own.
const YAML_PREFIXES: [&str; 2] = [
    "yaml: unmarshal errors:\n",
    "error converting YAML to JSON: yaml: unmarshal errors:\n",
];

#[derive(Debug, Default)]
pub struct Warnings {
    texts: Mutex<Vec<String>>,
}

impl Warnings {
    /// Adds one strict decoding error as warnings (a YAML error is one warning a line).
    pub fn add_strict(&self, error: &str) {
        match YAML_PREFIXES.iter().find_map(|p| error.strip_prefix(p)) {
            Some(lines) => lines.split('\n').for_each(|l| self.add(l.trim())),
            None => self.add(error),
        }
    }

    pub fn add(&self, text: &str) {
        let mut texts = self.texts.lock().unwrap_or_else(|e| e.into_inner());
        if !text.is_empty() && !texts.iter().any(|t| t == text) {
            texts.push(text.to_string());
        }
    }

    pub fn texts(&self) -> Vec<String> {
        self.texts.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The header values, in the order the warnings were added. Texts with control
    /// characters are left out, as the real server cannot send them either.
    pub fn headers(&self) -> Vec<HeaderValue> {
        let texts: Vec<String> = self
            .texts()
            .into_iter()
            .filter(|t| !t.chars().any(char::is_control))
            .collect();
        let total: usize = texts.iter().map(|t| t.chars().count()).sum();
        let truncate = total > TRUNCATE_AT_TOTAL;
        let mut written = 0;
        let mut out = Vec::new();
        for text in texts {
            if truncate && written >= TRUNCATE_AT_TOTAL {
                break;
            }
            let text: String = if truncate {
                text.chars().take(TRUNCATE_ITEM).collect()
            } else {
                text
            };
            written += text.chars().count();
            let mut quoted = String::from("299 - \"");
            for c in text.chars() {
                if matches!(c, '"' | '\\') {
                    quoted.push('\\');
                }
                quoted.push(c);
            }
            quoted.push('"');
            if let Ok(v) = HeaderValue::from_bytes(quoted.as_bytes()) {
                out.push(v);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_quoted_deduplicated_and_yaml_errors_split() {
        let w = Warnings::default();
        w.add_strict("unknown field \"spec.replica\"");
        w.add_strict("unknown field \"spec.replica\"");
        w.add_strict("yaml: unmarshal errors:\n  line 3: key \"a\" already set in map\n  line 4: key \"b\" already set in map");
        let headers: Vec<String> = w
            .headers()
            .iter()
            .map(|h| h.to_str().unwrap().to_string())
            .collect();
        assert_eq!(
            headers,
            [
                r#"299 - "unknown field \"spec.replica\"""#,
                r#"299 - "line 3: key \"a\" already set in map""#,
                r#"299 - "line 4: key \"b\" already set in map""#,
            ]
        );
    }

    #[test]
    fn many_warnings_are_cut_short() {
        let w = Warnings::default();
        for i in 0..100 {
            w.add(&format!("{i:03} {}", "x".repeat(300)));
        }
        let headers = w.headers();
        assert!(
            headers.iter().all(|h| h.len() <= 256 + 9),
            "{}",
            headers[0].len()
        );
        assert!(headers.len() < 100);
    }
}
