//! The settings' precedence and the config file's errors.

use super::*;

fn zh() -> Lang {
    Lang::parse("zh").unwrap()
}

fn file(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("config.toml");
    std::fs::write(&p, text).unwrap();
    (dir, p)
}

fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
    move |k| {
        pairs
            .iter()
            .find(|(n, _)| *n == k)
            .map(|(_, v)| (*v).to_string())
    }
}

#[test]
fn flags_beat_the_environment_which_beats_the_file() {
    let (_d, p) = file("theme = \"monochrome\"\nlang = \"zh\"\npresent = true\n");
    let s = resolve(Flags::default(), &env_of(&[]), Some(&p)).unwrap();
    assert_eq!(s.theme.value, ThemeName::Monochrome);
    assert_eq!(s.lang.value, zh());
    assert!(s.present.value);
    assert_eq!(s.theme.origin, Origin::File(p.clone()));
    let s = resolve(
        Flags::default(),
        &env_of(&[
            ("CAPA_THEME", "projector"),
            ("CAPA_LANG", "en"),
            ("CAPA_PRESENT", "0"),
        ]),
        Some(&p),
    )
    .unwrap();
    assert_eq!(
        (s.theme.value, s.lang.value, s.present.value),
        (ThemeName::Projector, Lang::FALLBACK, false)
    );
    assert_eq!(s.lang.origin, Origin::Env("CAPA_LANG"));
    let flags = Flags {
        theme: Some(ThemeName::Default),
        lang: Some("zh"),
        present: Some(true),
    };
    let s = resolve(flags, &env_of(&[("CAPA_THEME", "projector")]), Some(&p)).unwrap();
    assert_eq!(s.theme.value, ThemeName::Default);
    assert_eq!(s.theme.origin, Origin::Flag("--theme"));
}

#[test]
fn with_nothing_set_no_color_and_presenting_choose_the_theme() {
    let s = resolve(Flags::default(), &env_of(&[("NO_COLOR", "1")]), None).unwrap();
    assert_eq!(s.theme.value, ThemeName::Monochrome);
    let presenting = Flags {
        present: Some(true),
        ..Flags::default()
    };
    let s = resolve(presenting, &env_of(&[]), None).unwrap();
    assert_eq!(s.theme.value, ThemeName::Projector);
    // A theme the learner chose wins over NO_COLOR, as no-color.org asks of config files.
    let (_d, p) = file("theme = \"default\"\n");
    let s = resolve(Flags::default(), &env_of(&[("NO_COLOR", "1")]), Some(&p)).unwrap();
    assert_eq!(s.theme.value, ThemeName::Default);
    let s = resolve(
        Flags::default(),
        &env_of(&[]),
        Some(Path::new("/nonexistent/c.toml")),
    );
    assert_eq!(
        s.unwrap().theme.value,
        ThemeName::Default,
        "no file is no error"
    );
}

#[test]
fn a_malformed_file_is_named_with_its_line_and_what_to_do() {
    for (text, line, says) in [
        (
            "lang = \"zh\"\ntheme = \"neon\"\n",
            2,
            "unknown variant `neon`",
        ),
        ("# mine\n\ncolour = \"red\"\n", 3, "unknown field `colour`"),
        ("theme = projector\n", 1, "string values must be quoted"),
        (
            "lang = \"en\"\npresent = \"yes\"\n",
            2,
            "expected a boolean",
        ),
        ("lang = \"fr\"\n", 1, "lang = \"fr\": use one of en"),
    ] {
        let (_d, p) = file(text);
        let e = resolve(Flags::default(), &env_of(&[]), Some(&p)).unwrap_err();
        let said = e.to_string();
        assert!(
            said.contains(&format!("config.toml, line {line}:")),
            "{text:?}: {said}"
        );
        assert!(said.contains(says), "{text:?}: {said}");
        assert!(said.contains("Fix or remove that line"), "{said}");
    }
    let e = resolve(Flags::default(), &env_of(&[("CAPA_THEME", "neon")]), None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "$CAPA_THEME is \"neon\": use default, projector or monochrome"
    );
}

/// The config file may name the learner (`--learner` and `CAPA_LEARNER` come first, on the
/// command line); a name that is not one is refused with its line and what to use.
#[test]
fn the_file_names_the_learner_or_says_what_a_name_may_be() {
    let (_d, p) = file("lang = \"en\"\nlearner = \"alice\"\n");
    assert_eq!(
        learner_in_file(Some(&p))
            .unwrap()
            .map(|l| l.name().to_string()),
        Some("alice".to_string())
    );
    assert_eq!(learner_in_file(None).unwrap(), None);
    let (_d, p) = file("learner = \"Alice Smith\"\n");
    let said = learner_in_file(Some(&p)).unwrap_err().to_string();
    assert!(
        said.contains("line 1") && said.contains("lowercase letters"),
        "{said}"
    );
}
