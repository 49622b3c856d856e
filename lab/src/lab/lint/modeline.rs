//! A `lesson.yaml`'s modeline (`# yaml-language-server: $schema=PATH`) names a schema file that
//! is there: else the editor says only that it cannot load it, and checks nothing.

use std::path::{Component, Path, PathBuf};

use super::tree::Pos;
use super::{Finding, Problem};

const MARK: &str = "# yaml-language-server:";

/// Reports each modeline of `yaml_path` whose schema file is not there, at the schema's path.
pub fn check(yaml_path: &Path, problems: &mut Vec<Problem>) {
    let Ok(text) = std::fs::read_to_string(yaml_path) else {
        return;
    };
    let dir = yaml_path.parent().unwrap_or(Path::new(""));
    for (n, line) in text.lines().enumerate() {
        let Some((column, schema)) = schema_of(line) else {
            continue;
        };
        // A web address is the editor's to fetch; only files can be known missing here.
        let file = match schema.strip_prefix("file://") {
            Some(path) => PathBuf::from(path),
            None if schema.contains("://") => continue,
            None => dir.join(schema),
        };
        if file.is_file() {
            continue;
        }
        problems.push(Problem {
            file: yaml_path.to_path_buf(),
            at: Pos {
                line: n as u64 + 1,
                column: column as u64 + 1,
            },
            finding: Finding::NoSchema {
                schema: schema.to_string(),
                path: lexical(&file).display().to_string(),
            },
        });
    }
}

/// The schema a modeline names, and the (0-based, in characters) column where it starts.
fn schema_of(line: &str) -> Option<(usize, &str)> {
    let rest = line.trim_start().strip_prefix(MARK)?;
    let (_, after) = rest.split_once("$schema=")?;
    let schema = after.split_whitespace().next()?;
    let start = line.len() - after.len();
    Some((line[..start].chars().count(), schema))
}

/// `lessons/01-x/../lesson.schema.json` as `lessons/lesson.schema.json`, so the path the author
/// is told to write reads as they would write it.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_and_where_it_starts_are_read_from_the_modeline() {
        assert_eq!(
            schema_of("# yaml-language-server: $schema=../lesson.schema.json"),
            Some((32, "../lesson.schema.json"))
        );
        assert_eq!(schema_of("# a comment: $schema=x.json"), None);
        assert_eq!(schema_of("number: 1"), None);
    }

    #[test]
    fn a_path_reads_without_its_dots() {
        assert_eq!(
            lexical(Path::new("lessons/01-x/../lesson.schema.json")),
            Path::new("lessons/lesson.schema.json")
        );
        assert_eq!(
            lexical(Path::new("../lesson.schema.json")),
            Path::new("../lesson.schema.json")
        );
        assert_eq!(
            lexical(Path::new("./a/./b/../../../c.json")),
            Path::new("../c.json")
        );
    }
}
