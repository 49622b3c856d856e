//! The glob engine against the cases Argo CD (gobwas/glob) and doublestar decide.
/// The ignoreDifferences tests (from `argocd/diff/glob.rs`): Argo CD's `glob.Match`.
mod plain {
    use super::super::matches;

    #[test]
    fn globs_match_like_argo_cd() {
        assert!(matches("*", ""));
        assert!(matches("*", "apps"));
        assert!(matches("", ""));
        assert!(!matches("", "apps"));
        assert!(matches("apps", "apps"));
        assert!(matches("*.k8s.io", "networking.k8s.io"));
        assert!(matches("Deploy?ent", "Deployment"));
        assert!(matches("{Deployment,StatefulSet}", "StatefulSet"));
        assert!(matches("[A-Z]*", "Job"));
        assert!(!matches("[!A-Z]*", "Job"));
        assert!(matches("a\\*", "a*"));
        assert!(!matches("a\\*", "ab"));
        // Broken patterns match nothing.
        assert!(!matches("[abc", "a"));
        assert!(!matches("{a,b", "a"));
    }

    #[test]
    fn pathological_patterns_finish() {
        let stars = "*a".repeat(40);
        assert!(!matches(&format!("{stars}b"), &"a".repeat(60)));
        assert!(!matches(&"{a,b}".repeat(20), "ab"));
    }
}

/// The directory include/exclude and valueFiles tests (from `argocd/repo/glob.rs`).
mod paths {
    use std::path::PathBuf;

    use super::super::{Options, expand, matches_with};

    /// The old engine's form: gobwas with an optional separator.
    fn matches(pattern: &str, text: &str, separator: Option<char>) -> bool {
        let options = Options {
            separator,
            ..Options::GOBWAS
        };
        matches_with(pattern, text, options)
    }

    #[test]
    fn gobwas_style() {
        assert!(matches("*.yaml", "a.yaml", None));
        assert!(matches("*.yaml", "sub/a.yaml", None));
        assert!(!matches("*.yaml", "a.yml", None));
        assert!(matches("*.{yaml,yml}", "a.yml", None));
        assert!(matches("a?c", "abc", None));
        assert!(matches("[a-c]x", "bx", None));
        assert!(!matches("[!a-c]x", "bx", None));
        assert!(matches("\\*", "*", None));
        assert!(matches("*", "", None));
        assert!(!matches("", "x", None));
        assert!(matches("{a,b{c,d}}", "bd", None));
        assert!(matches("{oops", "{oops", None));
        let deep = format!("{}x{}", "{".repeat(5000), "}".repeat(5000));
        assert!(!matches(&deep, "x", None));
    }

    #[test]
    fn separator_aware() {
        assert!(!matches("*.yaml", "sub/a.yaml", Some('/')));
        assert!(matches("*/a.yaml", "sub/a.yaml", Some('/')));
    }

    #[test]
    fn expands_on_disk() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        for f in [
            "envs/b.yaml",
            "envs/a.yaml",
            "envs/x.txt",
            "envs/deep/c.yaml",
        ] {
            std::fs::create_dir_all(root.join(f).parent().unwrap()).unwrap();
            std::fs::write(root.join(f), "").unwrap();
        }
        let names = |v: Vec<PathBuf>| {
            v.iter()
                .map(|p| p.strip_prefix(root).unwrap().display().to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(expand(&root.join("envs/*.yaml"))),
            ["envs/a.yaml", "envs/b.yaml"]
        );
        assert_eq!(
            names(expand(&root.join("envs/**/*.yaml"))),
            ["envs/a.yaml", "envs/b.yaml", "envs/deep/c.yaml"]
        );
        assert!(expand(&root.join("nope/*.yaml")).is_empty());
    }
}

/// Where the callers' options differ, and gobwas's own cases.
mod options {
    use super::super::{Options, matches, matches_with};

    #[test]
    fn double_star_crosses_the_separator_only_in_gobwas() {
        let slash = Options {
            separator: Some('/'),
            ..Options::GOBWAS
        };
        assert!(matches_with("**.yaml", "sub/a.yaml", slash));
        assert!(matches_with("**/*.yaml", "a/b/c.yaml", slash));
        assert!(!matches_with("a?b", "a/b", slash));
        assert!(matches("a?b", "a/b"));
        let segment = Options::DOUBLESTAR_SEGMENT;
        assert!(!matches_with("**.yaml", "sub/a.yaml", segment));
        assert!(matches_with("**.yaml", "a.yaml", segment));
    }

    #[test]
    fn classes_follow_each_dialect() {
        let segment = Options::DOUBLESTAR_SEGMENT;
        // gobwas: one range or one list; `!` alone negates.
        assert!(matches("[^x]", "^"));
        assert!(!matches("[^x]", "a"));
        assert!(!matches("[a-cx]", "x"));
        assert!(!matches("[c-a]", "b"));
        assert!(!matches("[]", "]"));
        assert!(matches("[\\]]", "]"));
        assert!(matches("[ab-]", "-"));
        // doublestar: `^` negates too, ranges and characters mix.
        assert!(matches_with("[^x]", "a", segment));
        assert!(!matches_with("[^x]", "x", segment));
        assert!(matches_with("[a-cx]", "x", segment));
        assert!(matches_with("[a-]", "-", segment));
        assert!(!matches_with("[]", "]", segment));
        assert!(!matches_with("[abc", "a", segment));
    }

    #[test]
    fn gobwas_cases() {
        assert!(matches("{abc,abcd}a", "abcda"));
        assert!(matches("{a,ab}{bc,f}", "abc"));
        assert!(matches("{*,**}{a,b}", "ab"));
        assert!(!matches("{*,**}{a,b}", "ac"));
        assert!(matches("*//{,*.}example.com", "https://www.example.com"));
        assert!(!matches("*//{,*.}example.com", "http://example.com.net"));
        let dot = Options {
            separator: Some('.'),
            ..Options::GOBWAS
        };
        assert!(matches_with(
            "{*.google.*,*.yandex.*}",
            "www.google.com",
            dot
        ));
        assert!(!matches_with("{*.google.*,*.yandex.*}", "yandex.com", dot));
        // Unpaired braces are literal; a trailing `\` is dropped; `{}` is empty.
        assert!(matches("a}b", "a}b"));
        assert!(matches("a,b", "a,b"));
        assert!(matches("{a,{b}", "{a,b"));
        assert!(matches("ab\\", "ab"));
        assert!(matches("a{}b", "ab"));
        assert!(matches("{[,]}", ","));
    }
}
