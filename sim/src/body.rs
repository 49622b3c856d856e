//! Decoding a request body by its content type (JSON, YAML, protobuf): one place for the API's
//! handlers and for field validation, which reads the same bytes before they are stored.

use serde_json::Value;

use crate::status::ApiError;

/// The largest request body accepted, as on a real API server (3 MiB).
pub const MAX_BODY_BYTES: usize = 3 * 1024 * 1024;

/// The media type without its parameters (`application/json; charset=utf-8` → `application/json`).
fn essence(content_type: &str) -> &str {
    content_type.split(';').next().unwrap_or_default().trim()
}

/// The parser options for a YAML body of `len` bytes from a client: aliases may replay no
/// more events than the body itself holds (at least 4,096), and the node count is scaled to
/// the body. A "billion laughs" body then fails after a few thousand nodes instead of
/// building hundreds of thousands (about 50 MiB kept after its 400 with the parser's
/// defaults; reliability review 4, L4), while no document without aliases comes near it:
/// each of its nodes takes at least one byte of the body.
pub fn client_yaml_options(len: usize) -> serde_saphyr::Options {
    const FLOOR: usize = 4_096;
    let defaults = serde_saphyr::Budget::default();
    let scaled = |cap: usize| len.saturating_mul(2).saturating_add(FLOOR).min(cap);
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_nodes: scaled(defaults.max_nodes),
            max_events: scaled(defaults.max_events),
        },
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: len.max(FLOOR).min(defaults.max_events),
        },
    }
}

/// A YAML text from a repository (a manifest, a kustomization, `.argocd-source.yaml`), read
/// with the same budgets as a client's body: any local user can push to the git daemon.
pub fn repo_yaml(text: &str) -> Result<Value, serde_saphyr::Error> {
    serde_saphyr::from_str_with_options(text, client_yaml_options(text.len()))
}

/// A YAML body (`application/yaml`, `application/apply-patch+yaml`).
pub fn is_yaml(content_type: &str) -> bool {
    essence(content_type).ends_with("yaml")
}

/// A JSON body; a request without a content type is read as JSON, as the real server does.
pub fn is_json(content_type: &str) -> bool {
    let essence = essence(content_type);
    essence.is_empty() || essence.ends_with("json")
}

/// Decodes a request body by its content type. A protobuf body of a kind with no protobuf form
/// (a custom resource) is refused as the real server refuses it: 400, not decodable.
pub fn decode_body(bytes: &[u8], content_type: &str) -> Result<Value, ApiError> {
    if bytes.is_empty() {
        return Ok(Value::Null);
    }
    let essence = essence(content_type);
    if essence == crate::proto::MEDIA_TYPE {
        return crate::proto::decode(bytes).map_err(|e| ApiError::bad_request(e.to_string()));
    }
    if essence.ends_with("yaml") {
        let options = client_yaml_options(bytes.len());
        return serde_saphyr::from_slice_with_options::<Value>(bytes, options).map_err(|e| {
            let said = go_yaml_error(&e);
            // The apply patcher unmarshals with sigs.k8s.io/yaml and says so; other bodies
            // reach the decoder, whose words the caller wraps.
            ApiError::bad_request(if essence.starts_with("application/apply-patch") {
                format!("error decoding YAML: error converting YAML to JSON: {said}")
            } else {
                said
            })
        });
    }
    serde_json::from_slice(bytes).map_err(|e| {
        // Go's encoding/json names a truncated body this way; other errors keep serde's words.
        let why = if e.is_eof() {
            "unexpected end of JSON input".to_string()
        } else {
            e.to_string()
        };
        ApiError::bad_request(format!(
            "couldn't get version/kind; json parse error: {why}"
        ))
    })
}

/// A YAML syntax error in go-yaml's words (`yaml: line 4: did not find expected key`): the
/// problem without its context, on the line go-yaml counts. Its parser names the 0-based line
/// of the problem, its scanner the 1-based one (go-yaml's `fail` adds one only for scanner
/// errors), and a problem on the first line has no line at all.
pub fn go_yaml_error(e: &serde_saphyr::Error) -> String {
    let text = e.to_string();
    let first = text.lines().next().unwrap_or_default();
    // "error: line 5 column 2: while parsing a block mapping, did not find expected key"
    let said = first
        .split_once(": ")
        .filter(|(head, _)| *head == "error")
        .map_or(first, |(_, rest)| rest);
    let said = match said.split_once(": ") {
        Some((place, rest)) if place.starts_with("line ") && place.contains(" column ") => rest,
        _ => said,
    };
    let (context, problem) = match said.split_once(", ") {
        Some((context, problem)) if context.starts_with("while ") => (context, problem),
        _ => ("", said),
    };
    let scanner = context.starts_with("while scanning")
        || !(context.starts_with("while parsing") || problem.starts_with("did not find expected "));
    let line = e.location().map_or(0, |l| l.line() as usize);
    let line = if scanner {
        line
    } else {
        line.saturating_sub(1)
    };
    if line == 0 {
        format!("yaml: {problem}")
    } else {
        format!("yaml: line {line}: {problem}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Review 4, L4: a billion-laughs body got its 400 only after building ~50 MiB of nodes.
    #[test]
    fn an_alias_bomb_is_refused_after_a_few_thousand_nodes() {
        let mut bomb = String::from(
            "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
        );
        for (i, name) in ["b", "c", "d", "e", "f", "g", "h", "i"].iter().enumerate() {
            let prev = ["a", "b", "c", "d", "e", "f", "g", "h"][i];
            bomb.push_str(&format!(
                "{name}: &{name} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"
            ));
        }
        let started = std::time::Instant::now();
        let e = decode_body(bomb.as_bytes(), "application/yaml").unwrap_err();
        assert_eq!(e.code, 400);
        // Stopped by the alias budget after 4,096 replayed events, not after the parser's
        // default 250,000 nodes.
        assert!(e.message.contains("alias replay limit exceeded"), "{e:?}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(2),
            "{e:?}"
        );
        // Aliases within the body's own size still work.
        let fine = b"base: &base {app: web, tier: front}\none: *base\ntwo: *base\n";
        assert_eq!(
            decode_body(fine, "application/yaml").unwrap()["two"]["app"],
            "web"
        );
    }

    #[test]
    fn yaml_syntax_errors_are_go_yamls_words() {
        let bad = b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\n data: 1\n";
        assert_eq!(
            decode_body(bad, "application/yaml").unwrap_err().message,
            "yaml: line 4: did not find expected key"
        );
        assert_eq!(
            decode_body(bad, "application/apply-patch+yaml")
                .unwrap_err()
                .message,
            "error decoding YAML: error converting YAML to JSON: yaml: line 4: did not find expected key"
        );
    }

    #[test]
    fn bodies_decode_from_json_yaml_and_protobuf() {
        assert_eq!(
            decode_body(b"{\"a\":1}", "application/json").unwrap()["a"],
            1
        );
        assert_eq!(
            decode_body(b"a: 1\n", "application/apply-patch+yaml").unwrap()["a"],
            1
        );
        let pb = crate::proto::encode(&serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}})).unwrap();
        assert_eq!(
            decode_body(&pb, "application/vnd.kubernetes.protobuf").unwrap()["metadata"]["name"],
            "x"
        );
        assert_eq!(
            decode_body(b"k8s\0", "application/vnd.kubernetes.protobuf")
                .unwrap_err()
                .code,
            400
        );
        assert_eq!(
            decode_body(b"{nope", "application/json").unwrap_err().code,
            400
        );
    }
}
