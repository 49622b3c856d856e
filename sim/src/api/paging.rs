//! `limit` and `continue`: a list cut into pages, as the storage layer cuts it. The continue
//! token is the real one's shape (`{"v":"meta.k8s.io/v1","rv":N,"start":"<key>\u0000"}`,
//! base64url without padding), so a later page lists the state the first one came from, and
//! a broken token is refused with the storage layer's words.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

/// The 410 of a page whose snapshot the server no longer keeps.
pub const TOO_OLD: &str = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

/// Where the next page starts, and how many items are left from there.
pub struct Next {
    pub start: String,
    pub remaining: usize,
}

/// An item's key below the list's prefix: `name` in a namespace, `namespace/name` across all.
fn key_of(obj: &Value, namespaced_list: bool) -> String {
    let meta = &obj["metadata"];
    let name = meta["name"].as_str().unwrap_or_default();
    match meta["namespace"].as_str() {
        Some(ns) if !namespaced_list && !ns.is_empty() => format!("{ns}/{name}"),
        _ => name.to_string(),
    }
}

/// Keeps the page of `items` (each the stored object and what the client sees) that starts at
/// `start` and holds at most `limit`; the next page's start when items are left over.
pub fn cut<T>(
    items: &mut Vec<(&Value, T)>,
    start: Option<&str>,
    limit: Option<usize>,
    namespaced_list: bool,
) -> Option<Next> {
    items.sort_by_key(|(s, _)| key_of(s, namespaced_list));
    if let Some(start) = start {
        items.retain(|(s, _)| key_of(s, namespaced_list).as_str() >= start);
    }
    let limit = limit?;
    if items.len() <= limit {
        return None;
    }
    let remaining = items.len() - limit;
    items.truncate(limit);
    let last = items.last().map(|(s, _)| key_of(s, namespaced_list))?;
    Some(Next {
        start: format!("{last}\u{0}"),
        remaining,
    })
}

/// The token for the page starting at `start` of the list at `rv`.
pub fn encode(start: &str, rv: u64) -> String {
    let token = json!({"v": "meta.k8s.io/v1", "rv": rv, "start": start});
    URL_SAFE_NO_PAD.encode(token.to_string())
}

/// A token's start key and resourceVersion, or why it is not one (`DecodeContinue`'s words).
pub fn decode(token: &str) -> Result<(String, u64), String> {
    const INVALID: &str = "continue key is not valid";
    let bytes = URL_SAFE_NO_PAD.decode(token).map_err(|e| {
        let at = match e {
            base64::DecodeError::InvalidByte(i, _)
            | base64::DecodeError::InvalidLastSymbol(i, _) => i,
            // An incomplete last group: Go names the byte where it starts.
            _ => token.len() / 4 * 4,
        };
        format!("{INVALID}: illegal base64 data at input byte {at}")
    })?;
    let value: Value = serde_json::from_slice(&bytes).map_err(|e| format!("{INVALID}: {e}"))?;
    if value["v"] != "meta.k8s.io/v1" {
        return Err(format!(
            "{INVALID}: server does not recognize this encoded version {}",
            value["v"].as_str().unwrap_or_default()
        ));
    }
    let rv = value["rv"].as_u64().unwrap_or(0);
    if rv == 0 {
        return Err(format!(
            "{INVALID}: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"
        ));
    }
    let start = value["start"].as_str().unwrap_or_default();
    if start.is_empty() {
        return Err(format!(
            "{INVALID}: encoded start key empty (version meta.k8s.io/v1)"
        ));
    }
    Ok((start.to_string(), rv))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_cut_into_pages_that_go_on_where_the_last_stopped() {
        let objs: Vec<Value> = ["c", "a", "kube-root-ca.crt", "b"]
            .iter()
            .map(|n| json!({"metadata": {"name": n, "namespace": "ns"}}))
            .collect();
        let mut page: Vec<(&Value, ())> = objs.iter().map(|o| (o, ())).collect();
        let next = cut(&mut page, None, Some(2), true).unwrap();
        let names = |p: &[(&Value, ())]| -> Vec<String> {
            p.iter()
                .map(|(o, _)| o["metadata"]["name"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(names(&page), ["a", "b"]);
        assert_eq!(next.remaining, 2);
        let token = encode(&next.start, 7);
        let (start, rv) = decode(&token).unwrap();
        assert_eq!((start.as_str(), rv), ("b\u{0}", 7));
        let mut rest: Vec<(&Value, ())> = objs.iter().map(|o| (o, ())).collect();
        assert!(cut(&mut rest, Some(&start), Some(2), true).is_none());
        assert_eq!(names(&rest), ["c", "kube-root-ca.crt"]);
    }

    #[test]
    fn a_broken_token_is_refused_in_the_storage_layers_words() {
        assert_eq!(
            decode("bogus").unwrap_err(),
            "continue key is not valid: illegal base64 data at input byte 4"
        );
        let wrong = URL_SAFE_NO_PAD.encode(r#"{"v":"x","rv":1,"start":"a"}"#);
        assert_eq!(
            decode(&wrong).unwrap_err(),
            "continue key is not valid: server does not recognize this encoded version x"
        );
    }
}
