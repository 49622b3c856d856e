//! `let:` in a `lesson.yaml`: the values a lesson states more than once, each named once and read
//! from the file that defines it (a template the lesson writes), so the checks and the text that
//! say `${name}` follow an adapted lab's own files. `catalog` resolves them when it loads.

use serde::Deserialize;
use serde_json::Value;

use super::FieldPath;

/// One named value: read from a template file (`file`, with `path` into its YAML, then the text
/// between `after` and `before`), or given here (`value`) when the lesson itself is its source.
#[derive(Debug, Clone, PartialEq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LetValue {
    /// The template folder (under `repo-template/` or `--templates DIR`); when left out, the
    /// lesson's only entry in `templates:`.
    #[serde(default)]
    pub template: Option<String>,
    /// The file, relative to the template folder: `repo/charts/web/values.yaml`.
    #[serde(default)]
    pub file: Option<String>,
    /// Where in the file's YAML (a Helm template's `{{ … }}` read as text); when left out, the
    /// file's whole text.
    #[serde(default)]
    pub path: Option<FieldPath>,
    /// Keep only what follows the first occurrence of this text (which must be there).
    #[serde(default)]
    pub after: Option<String>,
    /// Then cut at the first occurrence of this text, when there is one.
    #[serde(default)]
    pub before: Option<String>,
    /// The value itself, when the lesson (not a file) is where it comes from.
    #[serde(default)]
    pub value: Option<Value>,
}
