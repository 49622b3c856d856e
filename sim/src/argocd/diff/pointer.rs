//! Removing the field an ignoreDifferences `jsonPointers` entry names, as the JSON-patch
//! `remove` operation Argo CD builds from it does (evanphx/json-patch v4).

use serde_json::Value;

/// Removes the field at `pointer` (RFC 6901, `~1` for `/`, `~0` for `~`). Returns false, and
/// leaves `doc` alone, when the path does not exist; Argo CD then skips the pointer quietly.
///
/// As in the library, the text before the first `/` is dropped unread (so `spec/replicas`
/// means `/replicas`), and negative list indexes count from the end.
pub fn remove(doc: &mut Value, pointer: &str) -> bool {
    let mut parts: Vec<String> = pointer.split('/').skip(1).map(unescape).collect();
    let Some(last) = parts.pop() else {
        return false;
    };
    let mut at = doc;
    for part in &parts {
        at = match at {
            Value::Object(map) => match map.get_mut(part) {
                Some(next @ (Value::Object(_) | Value::Array(_))) => next,
                _ => return false,
            },
            Value::Array(items) => match index(part, items.len()).and_then(|i| items.get_mut(i)) {
                Some(next @ (Value::Object(_) | Value::Array(_))) => next,
                _ => return false,
            },
            _ => return false,
        };
    }
    match at {
        Value::Object(map) => map.shift_remove(&last).is_some(),
        Value::Array(items) => match index(&last, items.len()) {
            Some(i) => {
                items.remove(i);
                true
            }
            None => false,
        },
        _ => false,
    }
}

fn unescape(token: &str) -> String {
    // One left-to-right pass, so `~01` becomes `~1`, not `/`.
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('~', Some('1')) => {
                out.push('/');
                chars.next();
            }
            ('~', Some('0')) => {
                out.push('~');
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// A list index as Go's `strconv.Atoi` reads it; negative counts from the end.
fn index(token: &str, len: usize) -> Option<usize> {
    let n: i64 = token.parse().ok()?;
    let len = i64::try_from(len).ok()?;
    let i = if n < 0 { n + len } else { n };
    (0..len)
        .contains(&i)
        .then(|| usize::try_from(i).ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::remove;

    #[test]
    fn removes_fields_and_list_items() {
        let mut doc = json!({"spec": {"replicas": 3, "template": {"spec": {"containers": [
            {"name": "a", "image": "x"}, {"name": "b"}]}}},
            "metadata": {"labels": {"node-role.kubernetes.io/worker": "", "a~b": "1"}}});
        assert!(remove(&mut doc, "/spec/replicas"));
        assert!(remove(&mut doc, "/spec/template/spec/containers/0/image"));
        assert!(remove(&mut doc, "/spec/template/spec/containers/-1"));
        assert!(remove(
            &mut doc,
            "/metadata/labels/node-role.kubernetes.io~1worker"
        ));
        assert!(remove(&mut doc, "/metadata/labels/a~0b"));
        assert_eq!(
            doc,
            json!({"spec": {"template": {"spec": {"containers": [{"name": "a"}]}}},
                   "metadata": {"labels": {}}})
        );
    }

    #[test]
    fn missing_paths_change_nothing() {
        let mut doc = json!({"spec": {"replicas": 3, "list": [1]}});
        let before = doc.clone();
        for pointer in [
            "/spec/nope",
            "/status/x",
            "/spec/list/5",
            "/spec/replicas/x",
            "",
            "/spec/list/-",
        ] {
            assert!(!remove(&mut doc, pointer), "{pointer}");
        }
        assert_eq!(doc, before);
        // The first segment is never read.
        assert!(remove(&mut doc, "spec/spec"));
    }
}
