//! A `lesson.yaml` as a tree that remembers where each node was written (line and column), so
//! `lint` can point at the very key or value a problem is about; and the same tree as plain JSON,
//! for the typed parse.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use serde_saphyr::Spanned;

/// A place in a file: 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, PartialOrd, Ord)]
pub struct Pos {
    pub line: u64,
    pub column: u64,
}

#[derive(Debug, Clone)]
pub struct Node {
    pub at: Pos,
    pub value: Tree,
}

#[derive(Debug, Clone)]
pub enum Tree {
    Scalar(Value),
    Seq(Vec<Node>),
    Map(Vec<(Key, Node)>),
}

#[derive(Debug, Clone)]
pub struct Key {
    pub at: Pos,
    pub name: String,
}

impl Node {
    /// Parses YAML text; else the parser's reason and where it points.
    pub fn parse(text: &str) -> Result<Node, (Pos, String)> {
        serde_saphyr::from_str::<Spanned<Tree>>(text)
            .map(node)
            .map_err(|e| {
                let at = e.location().map_or(Pos::default(), |l| Pos {
                    line: l.line(),
                    column: l.column(),
                });
                (at, e.to_string())
            })
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|(_, n)| n)
    }

    pub fn entry(&self, key: &str) -> Option<(&Key, &Node)> {
        match &self.value {
            Tree::Map(entries) => entries
                .iter()
                .find(|(k, _)| k.name == key)
                .map(|(k, n)| (k, n)),
            _ => None,
        }
    }

    pub fn items(&self) -> &[Node] {
        match &self.value {
            Tree::Seq(items) => items,
            _ => &[],
        }
    }

    pub fn entries(&self) -> &[(Key, Node)] {
        match &self.value {
            Tree::Map(entries) => entries,
            _ => &[],
        }
    }

    /// The same tree with every `${name}` in its scalars said as `values` has it, each node
    /// where it was written: a problem about what a reference says (`${helm_ns}/ConfigMap/…`)
    /// is pointed at where the reference is written.
    pub fn substituted(&self, values: &std::collections::BTreeMap<String, Value>) -> Node {
        let value = match &self.value {
            Tree::Scalar(Value::String(s)) if s.contains("${") => {
                let mut v = Value::String(s.clone());
                let _ = crate::lab::catalog::substitute(&mut v, values);
                Tree::Scalar(v)
            }
            Tree::Scalar(v) => Tree::Scalar(v.clone()),
            Tree::Seq(items) => Tree::Seq(items.iter().map(|n| n.substituted(values)).collect()),
            Tree::Map(entries) => Tree::Map(
                entries
                    .iter()
                    .map(|(k, n)| (k.clone(), n.substituted(values)))
                    .collect(),
            ),
        };
        Node { at: self.at, value }
    }

    /// The node as plain JSON.
    pub fn to_value(&self) -> Value {
        match &self.value {
            Tree::Scalar(v) => v.clone(),
            Tree::Seq(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Tree::Map(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, n)| (k.name.clone(), n.to_value()))
                    .collect(),
            ),
        }
    }

    /// Where the key `name` is written in this subtree (the first, depth first).
    pub fn find_key(&self, name: &str) -> Option<Pos> {
        match &self.value {
            Tree::Scalar(_) => None,
            Tree::Seq(items) => items.iter().find_map(|n| n.find_key(name)),
            Tree::Map(entries) => entries.iter().find_map(|(k, n)| {
                if k.name == name {
                    Some(k.at)
                } else {
                    n.find_key(name)
                }
            }),
        }
    }

    /// Where a scalar reading `text` is written in this subtree.
    pub fn find_scalar(&self, text: &str) -> Option<Pos> {
        match &self.value {
            Tree::Scalar(Value::String(s)) if s == text => Some(self.at),
            Tree::Scalar(v)
                if !v.is_string()
                    && serde_json::from_str::<Value>(text).ok().as_ref() == Some(v) =>
            {
                Some(self.at)
            }
            Tree::Scalar(_) => None,
            Tree::Seq(items) => items.iter().find_map(|n| n.find_scalar(text)),
            Tree::Map(entries) => entries.iter().find_map(|(_, n)| n.find_scalar(text)),
        }
    }

    /// Every place a scalar reading `text` is written in this subtree, in the file's order: a
    /// name written wrong in several places is reported at each, not only at the first.
    pub fn find_scalars(&self, text: &str) -> Vec<Pos> {
        self.find_scalars_where(None, text)
    }

    /// Every place a scalar reading `text` is written as the value of a key `key` (so
    /// `namespace: src-helm` is found, `app: src-helm` is not).
    pub fn find_values_of(&self, key: &str, text: &str) -> Vec<Pos> {
        self.find_scalars_where(Some(key), text)
    }

    fn find_scalars_where(&self, key: Option<&str>, text: &str) -> Vec<Pos> {
        let mut out = Vec::new();
        self.collect_scalars(key, None, text, &mut out);
        out
    }

    fn collect_scalars(
        &self,
        key: Option<&str>,
        under: Option<&str>,
        text: &str,
        out: &mut Vec<Pos>,
    ) {
        match &self.value {
            Tree::Scalar(_) => {
                if key.is_none_or(|k| under == Some(k)) && self.find_scalar(text).is_some() {
                    out.push(self.at);
                }
            }
            Tree::Seq(items) => items
                .iter()
                .for_each(|n| n.collect_scalars(key, under, text, out)),
            Tree::Map(entries) => entries
                .iter()
                .for_each(|(k, n)| n.collect_scalars(key, Some(&k.name), text, out)),
        }
    }

    /// Every string scalar in this subtree, with where it is.
    pub fn strings(&self, out: &mut Vec<(Pos, String)>) {
        match &self.value {
            Tree::Scalar(Value::String(s)) => out.push((self.at, s.clone())),
            Tree::Scalar(_) => {}
            Tree::Seq(items) => items.iter().for_each(|n| n.strings(out)),
            Tree::Map(entries) => entries.iter().for_each(|(_, n)| n.strings(out)),
        }
    }
}

fn pos<T>(s: &Spanned<T>) -> Pos {
    Pos {
        line: s.referenced.line(),
        column: s.referenced.column(),
    }
}

fn node(s: Spanned<Tree>) -> Node {
    Node {
        at: pos(&s),
        value: s.value,
    }
}

/// A mapping key as text, whatever scalar it is written as.
struct KeyText(String);

impl<'de> Deserialize<'de> for KeyText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) => Ok(KeyText(s)),
            other => Ok(KeyText(other.to_string())),
        }
    }
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TreeVisitor)
    }
}

struct TreeVisitor;

impl<'de> Visitor<'de> for TreeVisitor {
    type Value = Tree;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("YAML")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Tree, E> {
        Ok(Tree::Scalar(Value::Bool(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Tree, E> {
        Ok(Tree::Scalar(Value::from(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Tree, E> {
        Ok(Tree::Scalar(Value::from(v)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Tree, E> {
        Ok(Tree::Scalar(Value::from(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Tree, E> {
        Ok(Tree::Scalar(Value::String(v.to_string())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Tree, E> {
        Ok(Tree::Scalar(Value::String(v)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Tree, E> {
        Ok(Tree::Scalar(Value::Null))
    }
    fn visit_none<E: de::Error>(self) -> Result<Tree, E> {
        Ok(Tree::Scalar(Value::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Tree, D::Error> {
        Tree::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tree, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Tree>>()? {
            items.push(node(item));
        }
        Ok(Tree::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tree, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Spanned<KeyText>>()? {
            let at = pos(&key);
            let value = map.next_value::<Spanned<Tree>>()?;
            entries.push((
                Key {
                    at,
                    name: key.value.0,
                },
                node(value),
            ));
        }
        Ok(Tree::Map(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_and_value_knows_its_line_and_column() {
        let n = Node::parse("a: 1\nlist:\n  - {do: wait, app: x}\n  - b\n").unwrap();
        assert_eq!(n.entry("list").unwrap().0.at, Pos { line: 2, column: 1 });
        assert_eq!(
            n.find_key("app"),
            Some(Pos {
                line: 3,
                column: 16
            })
        );
        assert_eq!(n.find_scalar("b"), Some(Pos { line: 4, column: 5 }));
        assert_eq!(n.to_value()["list"][0]["do"], "wait");
        assert_eq!(n.to_value()["a"], 1);
        let (at, _) = Node::parse("a: [1\n").unwrap_err();
        assert!(at.line >= 1, "{at:?}");
    }
}
