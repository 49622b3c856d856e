//! Turning rendered YAML into Kubernetes objects as the repo-server does: split on document
//! separators, skip empty documents, require a `kind`, flatten `List`s.

use serde_json::Value;

/// The objects of a multi-document YAML (or JSON) text, in order. On error, the objects read
/// before the bad document come back too (directory sources care about that).
pub(super) fn parse_stream(text: &str) -> (Vec<Value>, Option<String>) {
    let mut objs = Vec::new();
    for doc in split_documents(text) {
        if is_blank(doc) {
            continue;
        }
        let value = match crate::body::repo_yaml(doc) {
            Ok(v) => v,
            Err(e) => {
                let msg = super::source::first_line(&e.to_string()).to_string();
                return (objs, Some(format!("failed to unmarshal manifest: {msg}")));
            }
        };
        match check_object(value) {
            Ok(Some(obj)) => objs.push(obj),
            Ok(None) => {}
            Err(e) => return (objs, Some(format!("failed to unmarshal manifest: {e}"))),
        }
    }
    (objs, None)
}

/// The whole stream or its first error (`kube.SplitYAML`).
pub(super) fn parse_all(text: &str) -> Result<Vec<Value>, String> {
    match parse_stream(text) {
        (objs, None) => Ok(objs),
        (_, Some(e)) => Err(e),
    }
}

/// What decoding into an `Unstructured` accepts: a mapping with a non-empty `kind`
/// (`null` documents are skipped).
fn check_object(v: Value) -> Result<Option<Value>, String> {
    let go_type = match &v {
        Value::Null => return Ok(None),
        Value::Object(m) => {
            let has_kind = m
                .get("kind")
                .and_then(Value::as_str)
                .is_some_and(|k| !k.is_empty());
            if has_kind {
                return Ok(Some(v));
            }
            return Err(format!("Object 'Kind' is missing in '{v}'"));
        }
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "bool",
        Value::Array(_) => "array",
    };
    Err(format!(
        "json: cannot unmarshal {go_type} into Go value of type map[string]interface {{}}"
    ))
}

/// Splits like apimachinery's YAML reader: a line starting with `---` ends a document unless
/// something other than a comment follows the dashes on that line.
fn split_documents(text: &str) -> Vec<&str> {
    let mut docs = Vec::new();
    let mut start = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if let Some(after) = line.strip_prefix("---") {
            let rest = after.trim();
            if rest.is_empty() || rest.starts_with('#') {
                docs.push(&text[start..offset]);
                start = offset + line.len();
            }
        }
        offset += line.len();
    }
    docs.push(&text[start..]);
    docs
}

fn is_blank(doc: &str) -> bool {
    doc.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#')
    })
}

/// Items of `List`-like objects become objects of their own; a list whose `items` is null
/// (and has no spec/status) disappears (`IsList` / `isNullList` in GenerateManifests).
pub(super) fn flatten(objs: Vec<Value>) -> Result<Vec<Value>, String> {
    let mut out = Vec::with_capacity(objs.len());
    for obj in objs {
        match obj.get("items") {
            Some(Value::Array(items)) => {
                for item in items {
                    if !item.is_object() {
                        return Err("resource list item has unexpected type".into());
                    }
                    out.push(item.clone());
                }
            }
            Some(Value::Null) if obj.get("spec").is_none() && obj.get("status").is_none() => {}
            _ => out.push(obj),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn splits_documents_and_skips_empty_ones() {
        let text = "---\n# Source: web/templates/a.yaml\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n--- # tail\n\n---\nkind: Service\nmetadata: {name: b}\n";
        let objs = parse_all(text).unwrap();
        assert_eq!(objs.len(), 2);
        assert_eq!(objs[0]["metadata"]["name"], "a");
        assert_eq!(objs[1]["kind"], "Service");
    }

    /// Any local user can push to the git daemon; an alias bomb in a manifest fails after a
    /// few thousand replayed events instead of building the parser's default million.
    #[test]
    fn an_alias_bomb_in_a_repository_is_refused_early() {
        let mut bomb = String::from("kind: ConfigMap\ndata:\n  a: &a [x,x,x,x,x,x,x,x,x]\n");
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
        for pair in names.windows(2) {
            let (prev, name) = (pair[0], pair[1]);
            bomb.push_str(&format!(
                "  {name}: &{name} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"
            ));
        }
        let (objs, err) = parse_stream(&bomb);
        assert!(objs.is_empty());
        let err = err.unwrap_or_default();
        assert!(err.contains("alias replay limit exceeded"), "{err}");
    }

    #[test]
    fn dashes_followed_by_content_are_not_a_separator() {
        let text = "kind: ConfigMap\ndata:\n  x: |\n    a\n    --- not a separator\n";
        assert_eq!(parse_all(text).unwrap().len(), 1);
    }

    #[test]
    fn kind_is_required() {
        let err = parse_all("apiVersion: v1\nmetadata: {name: a}\n").unwrap_err();
        assert!(err.starts_with("failed to unmarshal manifest: Object 'Kind' is missing in '{"));
        let (objs, err) = parse_stream("kind: A\n---\njust a string\n");
        assert_eq!(objs.len(), 1);
        assert!(err.unwrap().contains("cannot unmarshal string"));
    }

    #[test]
    fn broken_yaml_is_an_error() {
        assert!(
            parse_all("kind: A\nmetadata: [\n")
                .unwrap_err()
                .starts_with("failed to unmarshal manifest: ")
        );
    }

    #[test]
    fn lists_are_flattened() {
        let objs = vec![
            json!({"kind": "List", "items": [{"kind": "A"}, {"kind": "B"}]}),
            json!({"kind": "ConfigMapList", "items": null}),
            json!({"kind": "C"}),
        ];
        let flat = flatten(objs).unwrap();
        let kinds: Vec<_> = flat.iter().map(|o| o["kind"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["A", "B", "C"]);
    }
}
