//! Small, shared readings and edits of an object's `metadata`, plus the name rules a real API
//! server enforces. Everything here is pure.

use serde_json::{Map, Value};

/// `metadata.name` (empty when absent).
pub fn name(obj: &Value) -> &str {
    obj["metadata"]["name"].as_str().unwrap_or_default()
}

pub fn namespace(obj: &Value) -> &str {
    obj["metadata"]["namespace"].as_str().unwrap_or_default()
}

pub fn uid(obj: &Value) -> &str {
    obj["metadata"]["uid"].as_str().unwrap_or_default()
}

pub fn labels(obj: &Value) -> Option<&Map<String, Value>> {
    obj["metadata"]["labels"].as_object()
}

pub fn annotation<'a>(obj: &'a Value, key: &str) -> Option<&'a str> {
    obj["metadata"]["annotations"][key].as_str()
}

pub fn is_deleting(obj: &Value) -> bool {
    obj["metadata"]["deletionTimestamp"].is_string()
}

pub fn finalizers(obj: &Value) -> Vec<String> {
    obj["metadata"]["finalizers"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether something still holds the object back from removal once it is deleting:
/// `metadata.finalizers`, or for a Namespace its `spec.finalizers` (the namespace controller's).
pub fn held_by_finalizers(obj: &Value) -> bool {
    !finalizers(obj).is_empty()
        || (obj["kind"] == "Namespace"
            && obj["spec"]["finalizers"]
                .as_array()
                .is_some_and(|f| !f.is_empty()))
}

/// The object's `metadata` map, created if missing or not a map.
pub fn metadata_mut(obj: &mut Value) -> &mut Map<String, Value> {
    map_at(&mut obj["metadata"])
}

/// The map `slot` holds, made an empty one first if it holds anything else.
#[allow(
    clippy::expect_used,
    reason = "the slot holds a map: it was made one on the line above if it did not"
)]
pub fn map_at(slot: &mut Value) -> &mut Map<String, Value> {
    if !slot.is_object() {
        *slot = Value::Object(Map::new());
    }
    slot.as_object_mut().expect("made a map above")
}

/// The owner reference with `controller: true`, if any.
pub fn controller_of(obj: &Value) -> Option<&Value> {
    obj["metadata"]["ownerReferences"]
        .as_array()?
        .iter()
        .find(|r| r["controller"] == Value::Bool(true))
}

/// An owner reference pointing at `owner`, as controllers set it.
pub fn owner_reference(owner: &Value, block_owner_deletion: bool) -> Value {
    serde_json::json!({
        "apiVersion": owner["apiVersion"],
        "kind": owner["kind"],
        "name": owner["metadata"]["name"],
        "uid": owner["metadata"]["uid"],
        "controller": true,
        "blockOwnerDeletion": block_owner_deletion,
    })
}

/// A fresh uid, in the same form as Kubernetes'.
pub fn new_uid() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Five random characters from the alphabet `generateName` suffixes use (no vowels, so no
/// words; no look-alike digits).
pub fn random_suffix(len: usize) -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut rng = rand::rng();
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// Why a name is not a valid DNS-1123 subdomain (most kinds' rule), or `None` when it is.
pub fn subdomain_problem(name: &str) -> Option<&'static str> {
    const WHY: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    if name.len() > 253 {
        return Some("must be no more than 253 characters");
    }
    let ok = !name.is_empty()
        && name.split('.').all(|part| {
            let bytes = part.as_bytes();
            !bytes.is_empty()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
                && bytes[0] != b'-'
                && bytes[bytes.len() - 1] != b'-'
        });
    (!ok).then_some(WHY)
}

/// Why a name is not a valid DNS-1123 label (Namespaces and Services), or `None`.
pub fn label_problem(name: &str) -> Option<&'static str> {
    const WHY: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    if name.len() > 63 {
        return Some("must be no more than 63 characters");
    }
    if name.contains('.') || subdomain_problem(name).is_some() {
        return Some(WHY);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_dns_1123() {
        assert_eq!(subdomain_problem("web-1.example"), None);
        assert!(subdomain_problem("Bad_Name").is_some());
        assert!(subdomain_problem("-web").is_some());
        assert!(subdomain_problem("").is_some());
        assert_eq!(label_problem("src-helm"), None);
        assert!(label_problem("a.b").is_some());
    }

    #[test]
    fn generated_suffixes_have_the_asked_length() {
        let s = random_suffix(5);
        assert_eq!(s.len(), 5);
        assert!(s.chars().all(|c| c.is_ascii_alphanumeric()));
    }
}
