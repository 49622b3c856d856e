//! A request body as the API server's decoder reads it, before anything is thrown away: every
//! key of an object in order, duplicates included, and numbers as written (`2.0` and `2` are
//! different things to Go's decoder: one fits an `int32`, the other does not).

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// One JSON value as written.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Null,
    Bool(bool),
    /// The number's text, e.g. `2`, `2.0`, `1e3`.
    Number(String),
    String(String),
    Array(Vec<Node>),
    Object(Vec<Entry>),
}

/// One key of an object and its value; `line` (from 1) is where a YAML key was written, 0 for
/// JSON, whose decoder does not count lines.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: String,
    pub line: usize,
    pub value: Node,
}

impl Node {
    /// The plain value a non-strict decoder keeps: the last of duplicate keys wins (in the
    /// place of the first).
    pub fn to_value(&self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(*b),
            Node::Number(text) => number(text).map_or(Value::Null, Value::Number),
            Node::String(s) => Value::String(s.clone()),
            Node::Array(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Node::Object(entries) => {
                let mut map = Map::new();
                for e in entries {
                    map.insert(e.key.clone(), e.value.to_value());
                }
                Value::Object(map)
            }
        }
    }

    /// The JSON word Go's decoder uses for this value in type errors.
    pub fn json_kind(&self) -> &'static str {
        match self {
            Node::Null => "null",
            Node::Bool(_) => "bool",
            Node::Number(_) => "number",
            Node::String(_) => "string",
            Node::Array(_) => "array",
            Node::Object(_) => "object",
        }
    }
}

fn number(text: &str) -> Option<Number> {
    serde_json::from_str(text).ok()
}

/// Reads a JSON body that `serde_json` has already accepted as valid; `None` if it is not.
pub fn parse_json(bytes: &[u8]) -> Option<Node> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut p = JsonReader { text, at: 0 };
    let node = p.value(0)?;
    p.skip_space();
    (p.at == text.len()).then_some(node)
}

/// The deepest nesting read; serde_json refuses deeper documents before we get here.
const MAX_DEPTH: usize = 256;

struct JsonReader<'a> {
    text: &'a str,
    at: usize,
}

impl JsonReader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        self.skip_space();
        (self.peek()? == byte).then(|| self.at += 1)
    }

    fn value(&mut self, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.skip_space();
        match self.peek()? {
            b'{' => self.object(depth),
            b'[' => self.array(depth),
            b'"' => self.string().map(Node::String),
            b't' => self.word("true", Node::Bool(true)),
            b'f' => self.word("false", Node::Bool(false)),
            b'n' => self.word("null", Node::Null),
            _ => self.number(),
        }
    }

    fn word(&mut self, word: &str, node: Node) -> Option<Node> {
        self.text[self.at..].starts_with(word).then(|| {
            self.at += word.len();
            node
        })
    }

    fn number(&mut self) -> Option<Node> {
        let start = self.at;
        while matches!(
            self.peek(),
            Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
        ) {
            self.at += 1;
        }
        (self.at > start).then(|| Node::Number(self.text[start..self.at].to_string()))
    }

    fn string(&mut self) -> Option<String> {
        let start = self.at;
        self.at += 1;
        loop {
            match self.peek()? {
                b'\\' => self.at += 2,
                b'"' => break,
                _ => self.at += 1,
            }
        }
        self.at += 1;
        serde_json::from_str(self.text.get(start..self.at)?).ok()
    }

    fn array(&mut self, depth: usize) -> Option<Node> {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_space();
        if self.peek()? == b']' {
            self.at += 1;
            return Some(Node::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.skip_space();
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some(Node::Array(items));
                }
                _ => return None,
            }
        }
    }

    fn object(&mut self, depth: usize) -> Option<Node> {
        self.at += 1;
        let mut entries = Vec::new();
        self.skip_space();
        if self.peek()? == b'}' {
            self.at += 1;
            return Some(Node::Object(entries));
        }
        loop {
            self.skip_space();
            if self.peek()? != b'"' {
                return None;
            }
            let key = self.string()?;
            self.eat(b':')?;
            let value = self.value(depth + 1)?;
            entries.push(Entry {
                key,
                line: 0,
                value,
            });
            self.skip_space();
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Some(Node::Object(entries));
                }
                _ => return None,
            }
        }
    }
}

/// Reads a YAML body (JSON is YAML too), keeping duplicate keys and the line of each key.
pub fn parse_yaml(bytes: &[u8]) -> Result<Node, String> {
    let mut options = crate::body::client_yaml_options(bytes.len());
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::PassThrough;
    serde_saphyr::from_slice_with_options::<Node>(bytes, options).map_err(|e| e.to_string())
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        Node::deserialize(d)
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Node, E> {
        Ok(Node::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Node, E> {
        Ok(Node::Number(n.to_string()))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Node, E> {
        Ok(Node::Number(n.to_string()))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Node, E> {
        // YAML numbers reach the decoder re-encoded as JSON by Go: `2.0` becomes `2`.
        let text = serde_json::Number::from_f64(n)
            .map(|n| crate::argocd::apply::go_json(&Value::Number(n)))
            .unwrap_or_else(|| "null".into());
        Ok(Node::Number(text.trim_end().to_string()))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Node, E> {
        Ok(Node::String(s.to_string()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Node, E> {
        Ok(Node::String(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Node>()? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<serde_saphyr::Spanned<KeyText>>()? {
            let value = map.next_value::<Node>()?;
            entries.push(Entry {
                key: key.value.0,
                line: key.referenced.line() as usize,
                value,
            });
        }
        Ok(Node::Object(entries))
    }
}

/// A mapping key as the YAML-to-JSON conversion writes it: scalars become their text.
struct KeyText(String);

impl<'de> Deserialize<'de> for KeyText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<KeyText, D::Error> {
        match Node::deserialize(d)? {
            Node::String(s) | Node::Number(s) => Ok(KeyText(s)),
            Node::Bool(b) => Ok(KeyText(b.to_string())),
            Node::Null => Ok(KeyText("null".into())),
            _ => Err(de::Error::custom("a mapping key must be a scalar")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_keeps_duplicates_and_number_text() {
        let node = parse_json(br#"{"a": 2.0, "b": [1e3, "x\"y"], "a": null}"#).unwrap();
        let Node::Object(entries) = &node else {
            panic!("{node:?}")
        };
        let keys: Vec<&str> = entries.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["a", "b", "a"]);
        assert_eq!(entries[0].value, Node::Number("2.0".into()));
        assert_eq!(
            entries[1].value,
            Node::Array(vec![
                Node::Number("1e3".into()),
                Node::String("x\"y".into())
            ])
        );
        assert_eq!(
            node.to_value(),
            serde_json::json!({"a": null, "b": [1000.0, "x\"y"]})
        );
    }

    #[test]
    fn broken_json_is_none_not_a_panic() {
        for text in [
            "{",
            "{\"a\"",
            "[1,",
            "\"abc",
            "{\"a\":1,}",
            "tru",
            "{} x",
            "\"\\",
        ] {
            assert_eq!(parse_json(text.as_bytes()), None, "{text}");
        }
    }

    #[test]
    fn yaml_keeps_duplicates_with_their_lines() {
        let node = parse_yaml(b"a: 1\nb:\n  c: x\na: 2.0\n").unwrap();
        let Node::Object(entries) = &node else {
            panic!("{node:?}")
        };
        let keys: Vec<(&str, usize)> = entries.iter().map(|e| (e.key.as_str(), e.line)).collect();
        assert_eq!(keys, [("a", 1), ("b", 2), ("a", 4)]);
        assert_eq!(entries[2].value, Node::Number("2".into()));
        assert_eq!(node.to_value()["a"], 2);
    }
}
