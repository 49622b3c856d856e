//! Decoding a body into a kind's Go types as the API server's JSON decoder (`sigs.k8s.io/json`,
//! a fork of Go's `encoding/json`) does: keys match field names exactly; unknown fields are
//! dropped, and with strict decoding reported with their path (`unknown field "spec.replica"`),
//! as are duplicates; a value of the wrong type is an error naming the innermost Go struct and
//! the field path (`json: cannot unmarshal string into Go struct field
//! DeploymentSpec.spec.replicas of type int32`). Only the first type error is reported, and it
//! wins over strict errors.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::doc::{Entry, Node};
use super::quantity;
use super::shape::{Leaf, Schema, Shape};

/// What decoding kept and what strict decoding found.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The body without its unknown fields.
    pub value: Value,
    /// `unknown field "..."` and `duplicate field "..."`, in the order met (at most 100).
    pub strict: Vec<String>,
}

/// The strict errors a decoder keeps at most, as `sigs.k8s.io/json` does.
const MAX_STRICT_ERRORS: usize = 100;

/// Decodes `node` as a value of `schema`'s root; `Err` is the decoder's error text.
pub fn decode(schema: &Schema, node: &Node, strict: bool) -> Result<Decoded, String> {
    let mut walk = Walk {
        schema,
        strict,
        errors: Vec::new(),
        seen: HashSet::new(),
        saved: None,
        context: None,
        fields: Vec::new(),
        path: Vec::new(),
    };
    let value = walk.value(node, &schema.root).map_err(|fatal| fatal.0)?;
    if let Some(saved) = walk.saved {
        return Err(saved);
    }
    Ok(Decoded {
        value,
        strict: walk.errors,
    })
}

/// An error that stops decoding at once (from a type with its own JSON decoding).
struct Fatal(String);

struct Walk<'s> {
    schema: &'s Schema,
    strict: bool,
    errors: Vec<String>,
    seen: HashSet<String>,
    /// The first ordinary type error; decoding goes on, and it is reported at the end.
    saved: Option<String>,
    /// The innermost Go struct a field of which is being decoded, and the field names down to
    /// here (map keys and list indexes are not part of it, as in Go's error context).
    context: Option<String>,
    fields: Vec<String>,
    /// The strict-error path: field names, map keys and `[i]`.
    path: Vec<String>,
}

impl Walk<'_> {
    fn type_error(&self, value: &str, shape: &Shape) -> String {
        let ty = self.schema.go_type(shape);
        match &self.context {
            Some(name) => format!(
                "json: cannot unmarshal {value} into Go struct field {name}.{} of type {ty}",
                self.fields.join(".")
            ),
            None => format!("json: cannot unmarshal {value} into Go value of type {ty}"),
        }
    }

    fn save(&mut self, error: String) {
        if self.saved.is_none() {
            self.saved = Some(error);
        }
    }

    fn strict_error(&mut self, what: &str, key: &str) {
        let path = if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path.concat())
        };
        let error = format!("{what} {}", go_quote(&path));
        if self.errors.len() < MAX_STRICT_ERRORS && self.seen.insert(error.clone()) {
            self.errors.push(error);
        }
    }

    fn value(&mut self, node: &Node, shape: &Shape) -> Result<Value, Fatal> {
        match shape {
            Shape::Leaf(leaf) => self.leaf(node, *leaf, shape),
            _ if matches!(node, Node::Null) => Ok(Value::Null),
            Shape::Struct(id) => match node {
                Node::Object(entries) => self.object(entries, *id),
                other => {
                    self.save(self.type_error(other.json_kind(), shape));
                    Ok(Value::Null)
                }
            },
            Shape::Map(inner) => match node {
                Node::Object(entries) => self.map(entries, inner),
                other => {
                    self.save(self.type_error(other.json_kind(), shape));
                    Ok(Value::Null)
                }
            },
            Shape::List(inner) => match node {
                Node::Array(items) => {
                    let mut out = Vec::with_capacity(items.len());
                    for (i, item) in items.iter().enumerate() {
                        self.path.push(format!("[{i}]"));
                        let v = self.value(item, inner);
                        self.path.pop();
                        out.push(v?);
                    }
                    Ok(Value::Array(out))
                }
                other => {
                    self.save(self.type_error(other.json_kind(), shape));
                    Ok(Value::Null)
                }
            },
        }
    }

    fn object(&mut self, entries: &[Entry], id: usize) -> Result<Value, Fatal> {
        let schema = self.schema;
        let def = schema.def(id);
        let mut out = Map::new();
        let mut met = HashSet::new();
        for entry in entries {
            let Some(field) = def.field(&entry.key) else {
                if self.strict {
                    self.strict_error("unknown field", &entry.key);
                }
                continue;
            };
            if self.strict && !met.insert(entry.key.as_str()) {
                self.strict_error("duplicate field", &entry.key);
            }
            let outer = self.context.replace(def.name.clone());
            self.fields.push(entry.key.clone());
            self.path.push(if self.path.is_empty() {
                entry.key.clone()
            } else {
                format!(".{}", entry.key)
            });
            let v = self.value(&entry.value, field);
            self.path.pop();
            self.fields.pop();
            self.context = outer;
            out.insert(entry.key.clone(), v?);
        }
        Ok(Value::Object(out))
    }

    fn map(&mut self, entries: &[Entry], inner: &Shape) -> Result<Value, Fatal> {
        let mut out = Map::new();
        let mut met = HashSet::new();
        for entry in entries {
            if self.strict && !met.insert(entry.key.as_str()) {
                self.strict_error("duplicate field", &entry.key);
            }
            self.path.push(if self.path.is_empty() {
                entry.key.clone()
            } else {
                format!(".{}", entry.key)
            });
            let v = self.value(&entry.value, inner);
            self.path.pop();
            out.insert(entry.key.clone(), v?);
        }
        Ok(Value::Object(out))
    }

    fn leaf(&mut self, node: &Node, leaf: Leaf, shape: &Shape) -> Result<Value, Fatal> {
        let kept = node.to_value();
        match (leaf, node) {
            (Leaf::Any, _) | (_, Node::Null) => {}
            (Leaf::String, Node::String(_)) | (Leaf::Bool, Node::Bool(_)) => {}
            (Leaf::Int32 | Leaf::Int64 | Leaf::Float64, Node::Number(text)) => {
                if !fits(leaf, text) {
                    self.save(self.type_error(&format!("number {text}"), shape));
                }
            }
            (Leaf::Bytes, Node::String(s)) => {
                if let Err(at) = base64_check(s) {
                    self.save(format!("illegal base64 data at input byte {at}"));
                }
            }
            (Leaf::Bytes, Node::Array(items)) => {
                for item in items {
                    match item {
                        Node::Number(text) if text.parse::<u8>().is_ok() => {}
                        Node::Number(text) => self.save(
                            self.type_error(&format!("number {text}"), &Shape::Leaf(Leaf::Int32)),
                        ),
                        Node::Null => {}
                        other => {
                            let e = self.type_error(other.json_kind(), &Shape::Leaf(Leaf::Int32));
                            self.save(e);
                        }
                    }
                }
            }
            (Leaf::Time | Leaf::MicroTime, Node::String(s)) => {
                if let Some(e) = time_error(s, leaf == Leaf::MicroTime) {
                    return Err(Fatal(e));
                }
            }
            (Leaf::Time | Leaf::MicroTime, other) => {
                return Err(Fatal(self.type_error(other.json_kind(), shape)));
            }
            (Leaf::IntOrString, Node::String(_)) => {}
            (Leaf::IntOrString, Node::Number(text)) if fits(Leaf::Int32, text) => {}
            (Leaf::IntOrString, Node::Number(text)) => {
                return Err(Fatal(self.type_error(&format!("number {text}"), shape)));
            }
            (Leaf::IntOrString, other) => {
                return Err(Fatal(self.type_error(other.json_kind(), shape)));
            }
            (Leaf::Quantity, Node::String(text) | Node::Number(text)) => {
                quantity::parse(text.trim()).map_err(Fatal)?;
            }
            (Leaf::Quantity, _) => return Err(Fatal(quantity::FORMAT_WRONG.to_string())),
            (_, other) => self.save(self.type_error(other.json_kind(), shape)),
        }
        Ok(kept)
    }
}

/// Duplicate keys anywhere in a free-form document, as a strict read into
/// `map[string]interface{}` reports them (`duplicate field "metadata.labels.a"`).
pub fn duplicates(node: &Node, path: &mut Vec<String>, out: &mut Vec<String>) {
    match node {
        Node::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(format!("[{i}]"));
                duplicates(item, path, out);
                path.pop();
            }
        }
        Node::Object(entries) => {
            for (i, e) in entries.iter().enumerate() {
                let here = if path.is_empty() {
                    e.key.clone()
                } else {
                    format!("{}.{}", path.concat(), e.key)
                };
                if entries[..i].iter().any(|p| p.key == e.key) {
                    let error = format!("duplicate field {}", go_quote(&here));
                    if out.len() < MAX_STRICT_ERRORS && !out.contains(&error) {
                        out.push(error);
                    }
                }
                path.push(if path.is_empty() {
                    e.key.clone()
                } else {
                    format!(".{}", e.key)
                });
                duplicates(&e.value, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// Whether a JSON number's text decodes into this Go numeric type (`strconv.ParseInt` with the
/// type's size: no fraction, no exponent, in range).
fn fits(leaf: Leaf, text: &str) -> bool {
    match leaf {
        Leaf::Int32 => text.parse::<i32>().is_ok(),
        Leaf::Int64 => text.parse::<i64>().is_ok(),
        Leaf::Float64 => text.parse::<f64>().is_ok_and(f64::is_finite),
        _ => false,
    }
}

/// Go's `base64.StdEncoding` check: the offset of the first bad byte (CR and LF are skipped).
fn base64_check(s: &str) -> Result<(), usize> {
    use base64::Engine;
    let clean: Vec<(usize, u8)> = s
        .bytes()
        .enumerate()
        .filter(|(_, b)| *b != b'\r' && *b != b'\n')
        .collect();
    let bytes: Vec<u8> = clean.iter().map(|(_, b)| *b).collect();
    match base64::engine::general_purpose::STANDARD.decode(&bytes) {
        Ok(_) => Ok(()),
        Err(base64::DecodeError::InvalidByte(at, _))
        | Err(base64::DecodeError::InvalidLastSymbol(at, _)) => {
            Err(clean.get(at).map_or(s.len(), |(i, _)| *i))
        }
        Err(_) => Err(s.len() - s.len() % 4),
    }
}

/// `metav1.Time` takes RFC 3339 (`MicroTime` with microseconds); Go's `time.Parse` error when
/// the text is not one.
fn time_error(text: &str, micro: bool) -> Option<String> {
    if text.parse::<jiff::Timestamp>().is_ok() && text.contains('T') {
        return None;
    }
    let layout = if micro {
        "2006-01-02T15:04:05.000000Z07:00"
    } else {
        "2006-01-02T15:04:05Z07:00"
    };
    Some(format!(
        "parsing time {} as {}: cannot parse {} as \"2006\"",
        go_quote(text),
        go_quote(layout),
        go_quote(text)
    ))
}

/// Go's `strconv.Quote`: double quotes, backslash escapes for quotes, backslashes and
/// control characters.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests;
