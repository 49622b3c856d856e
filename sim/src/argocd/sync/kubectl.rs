//! What Argo CD's apply path inherits from kubectl's library (gitops-engine's
//! `kubectlResourceOperations`): each manifest is written to a temp file under `/dev/shm` (the
//! repo of the file's name is in errors), kubectl's stdout and stderr are joined with ". ", and
//! errors are cleaned as `cleanKubectlOutput` cleans them. kubectl sends no `fieldValidation`,
//! so the API server takes its default (Warn): unknown fields are dropped, and the warnings go
//! to the controller's log, not into the result.

use serde_json::Value;

use crate::kinds::ResourceType;
use crate::validation::{self, Directive, Warnings};

/// `os.CreateTemp("/dev/shm", "")`: Go names the file with a random unsigned 32-bit number.
pub fn manifest_file() -> String {
    format!("/dev/shm/{}", rand::random::<u32>())
}

/// `AddSourceToErr(verb, file, err)`: `error when <verb> "<file>": <message>`.
pub fn with_source(verb: &str, file: &str, message: &str) -> String {
    format!("error when {verb} {file:?}: {message}")
}

/// kubectl apply's warning for an object created without its last-applied annotation. Argo CD
/// runs kubectl's code without a command name, so each `kubectl` of the text is empty.
pub fn missing_last_applied_warning(ty: &ResourceType, name: &str) -> String {
    let base = "";
    format!(
        "Warning: resource {}/{name} is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by {base} apply. {base} apply should only be used on resources created declaratively by either {base} create --save-config or {base} apply. The missing annotation will be patched automatically.",
        ty.plural
    )
}

/// `handleLogOutput`: stdout and stderr, each trimmed, joined by ". ".
pub fn output(stdout: &str, stderr: &str) -> String {
    [stdout.trim(), stderr.trim()]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(". ")
}

/// `cleanKubectlOutput`: the file kubectl names in a validation or create error is cut, and so
/// is the dump of a failed patch; every `map[...]` of a line goes (from its first `map[` to the
/// line's last `]`), and so does kubectl's advice to turn validation off.
pub fn clean(message: &str) -> String {
    let mut s = message.trim().to_string();
    s = strip_file_prefix(&s);
    s = s.split('\n').map(strip_maps).collect::<Vec<_>>().join("\n");
    s = strip_patch_dump(&s);
    s.replace(
        "; if you choose to ignore these errors, turn validation off with --validate=false",
        "",
    )
}

/// `^(error: )?(error validating|error when creating) "\S+": `.
fn strip_file_prefix(s: &str) -> String {
    let rest = s.strip_prefix("error: ").unwrap_or(s);
    for verb in ["error validating ", "error when creating "] {
        if let Some(after) = rest.strip_prefix(verb)
            && let Some(tail) = after_quoted_word(after)
        {
            return tail.to_string();
        }
    }
    s.to_string()
}

/// What follows `"\S+": ` at the start of `s`.
fn after_quoted_word(s: &str) -> Option<&str> {
    let inner = s.strip_prefix('"')?;
    // `\S+` is greedy and may take quotes; the match ends at the last `": ` it can reach.
    let word_end = inner.find(char::is_whitespace).unwrap_or(inner.len());
    let candidates = &inner[..word_end.min(inner.len())];
    let close = candidates.rfind('"').filter(|i| *i > 0)?;
    inner[close..].strip_prefix("\": ")
}

/// `map\[.*\]` on one line.
fn strip_maps(line: &str) -> String {
    let Some(start) = line.find("map[") else {
        return line.to_string();
    };
    match line[start + 3..].rfind(']') {
        Some(end) => format!("{}{}", &line[..start], &line[start + 3 + end + 1..]),
        None => line.to_string(),
    }
}

/// `(?s)^error when applying patch:.*\nfor: "\S+": `.
fn strip_patch_dump(s: &str) -> String {
    if !s.starts_with("error when applying patch:") {
        return s.to_string();
    }
    let mut search = s.len();
    while let Some(i) = s[..search].rfind("\nfor: ") {
        if let Some(tail) = after_quoted_word(&s[i + "\nfor: ".len()..]) {
            return tail.to_string();
        }
        search = i;
    }
    s.to_string()
}

/// What the API server keeps of a create's or an update's body (fieldValidation unset: Warn):
/// the object decoded as its kind, unknown fields dropped; a body it cannot decode is refused
/// with its message.
pub fn as_stored(ty: &ResourceType, body: &Value) -> Result<Value, String> {
    let raw = serde_json::to_vec(body).map_err(|e| e.to_string())?;
    validation::decode_object(
        ty,
        &raw,
        "application/json",
        Directive::Warn,
        &Warnings::default(),
    )
    .map_err(|e| e.message)
}

/// The applied configuration of a server-side apply, as the field manager types it (a field
/// the schema lacks refuses the whole apply).
pub fn as_applied(ty: &ResourceType, body: &Value) -> Result<Value, String> {
    let raw = serde_json::to_vec(body).map_err(|e| e.to_string())?;
    validation::check_apply(ty, &raw, Directive::Warn, &Warnings::default()).map_err(|e| e.message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_cleaned_as_gitops_engine_cleans_them() {
        assert_eq!(
            clean("error when creating \"/dev/shm/123\": namespaces \"x\" not found"),
            "namespaces \"x\" not found"
        );
        assert_eq!(
            clean(
                "error: error validating \"/dev/shm/9\": error validating data: x; if you choose to ignore these errors, turn validation off with --validate=false"
            ),
            "error validating data: x"
        );
        let patched = with_source(
            "patching",
            "/dev/shm/42",
            "Job.batch \"smoke\" is invalid: spec.template: Invalid value: x: field is immutable",
        );
        assert_eq!(
            clean(&patched),
            patched,
            "a failed patch keeps its file: the regexp does not know that verb"
        );
        assert_eq!(
            clean("Invalid value: map[string]string{\"a\":\"b\"}: bad, map[x]"),
            "Invalid value: "
        );
        assert_eq!(
            clean(
                "error when applying patch:\n{\"a\":1}\nto:\nResource: x\nfor: \"/dev/shm/7\": boom"
            ),
            "boom"
        );
    }

    #[test]
    fn the_adoption_warning_has_no_command_name() {
        let text = missing_last_applied_warning(&crate::kinds::CONFIG_MAP, "adopt");
        assert_eq!(
            output("configmap/adopt configured\n", &format!("{text}\n")),
            "configmap/adopt configured. Warning: resource configmaps/adopt is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by  apply.  apply should only be used on resources created declaratively by either  create --save-config or  apply. The missing annotation will be patched automatically."
        );
        assert!(manifest_file().starts_with("/dev/shm/"));
    }
}
