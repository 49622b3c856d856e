//! What people expect of a tool they install: completions, a man page, and a config file that
//! flags and the environment override, with a malformed line named.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]

use std::process::Output;

fn capa(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_capa-tui"));
    cmd.args(args)
        .env_remove("CAPA_THEME")
        .env_remove("CAPA_LANG")
        .env_remove("CAPA_PRESENT");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("capa-tui runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn bash_completes_subcommands_and_flags_from_the_same_definitions() {
    let out = capa(&["completions", "bash"], &[]);
    assert!(out.status.success());
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("capa-tui.bash");
    std::fs::write(&script, &out.stdout).unwrap();
    // What bash does on `capa-tui ch<TAB>` and `capa-tui --th<TAB>`.
    let complete = |words: &str, cword: usize| {
        let probe = format!(
            "source {}; f=$(complete -p capa-tui | sed -E 's/.*-F ([^ ]+).*/\\1/'); COMP_WORDS=({words}); COMP_CWORD={cword}; COMP_LINE='{words}'; COMP_POINT=${{#COMP_LINE}}; \"$f\" capa-tui \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            script.display()
        );
        let o = std::process::Command::new("bash")
            .args(["-c", &probe])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let said = complete("capa-tui ch", 1);
    assert!(said.lines().any(|l| l == "check"), "{said}");
    let said = complete("capa-tui --th", 1);
    assert!(said.lines().any(|l| l == "--theme"), "{said}");
    for (shell, mark) in [
        ("zsh", "#compdef capa-tui"),
        ("fish", "complete -c capa-tui"),
    ] {
        let out = capa(&["completions", shell], &[]);
        assert!(
            out.status.success() && stdout(&out).contains(mark),
            "{shell}"
        );
    }
}

#[test]
fn the_man_page_documents_every_command() {
    let out = capa(&["man"], &[]);
    assert!(out.status.success());
    let page = stdout(&out);
    assert!(page.contains(".TH capa-tui 1"), "{page}");
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH OPTIONS", ".SH SUBCOMMANDS"] {
        assert!(page.contains(section), "{section}");
    }
    for cmd in [
        "capa\\-tui\\-do(1)",
        "capa\\-tui\\-check(1)",
        "capa\\-tui\\-config(1)",
        "capa\\-tui\\-completions(1)",
    ] {
        assert!(page.contains(cmd), "{cmd} missing:\n{page}");
    }
    assert!(page.contains("\\-\\-theme"), "the global flags are there");
}

#[test]
fn the_config_file_sets_defaults_that_the_environment_and_flags_override() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("config.toml");
    let path = file.to_str().unwrap();
    std::fs::write(
        &file,
        "# my defaults\ntheme = \"projector\"\nlang = \"zh\"\n",
    )
    .unwrap();
    let out = capa(&["config"], &[("CAPA_CONFIG", path)]);
    let said = stdout(&out);
    assert!(out.status.success(), "{said}");
    // The file's language is every command's: `config` itself speaks Chinese now.
    assert!(said.contains(&format!("配置文件：{path}")), "{said}");
    assert!(
        said.contains(&format!("theme   = projector  # {path}")),
        "{said}"
    );
    assert!(
        said.contains(&format!("lang    = zh         # {path}")),
        "{said}"
    );
    assert!(
        said.contains("present = false      # 除非指定，否则不进入演示模式"),
        "{said}"
    );
    let out = capa(
        &["config", "--theme", "monochrome"],
        &[("CAPA_CONFIG", path), ("CAPA_LANG", "en")],
    );
    let said = stdout(&out);
    assert!(
        said.contains("theme   = monochrome # the --theme flag"),
        "{said}"
    );
    assert!(said.contains("lang    = en         # $CAPA_LANG"), "{said}");

    std::fs::write(&file, "lang = \"zh\"\ntheme = \"neon\"\n").unwrap();
    let out = capa(&["config"], &[("CAPA_CONFIG", path)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("{path}, line 2: unknown variant `neon`")),
        "{err}"
    );
    assert!(err.contains("Fix or remove that line"), "{err}");
    // Lesson commands read the same settings and refuse the same way? They fall back to the
    // locale; only the tutor and `config` stop on a malformed file (checked in the tmux test).
}

/// `capa-tui lesson`: lint names a broken lesson's file, line and column and exits 1, in the
/// user's language; new makes a lesson that lints clean; schema is the committed one.
#[test]
fn lesson_lint_new_and_schema_work_as_an_author_uses_them() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = capa(
        &["lesson", "lint", root.join("lessons").to_str().unwrap()],
        &[],
    );
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("8 lessons, no problems"),
        "{}",
        stdout(&out)
    );

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let out = capa(&["lesson", "new", "09-greeting", "--dir", d], &[]);
    assert!(out.status.success(), "{}", stdout(&out));
    // Every file it wrote is said, the schema the modeline names too (instructor-4 problem 10).
    let said = stdout(&out);
    for file in [
        "09-greeting/lesson.yaml",
        "09-greeting/en.md",
        "09-greeting/zh.md",
        "09-greeting/ko.md",
        "lesson.schema.json",
    ] {
        let path = dir.path().join(file);
        assert!(path.is_file(), "{file}");
        assert!(
            said.contains(&format!("  {}", path.display())),
            "{file}: {said}"
        );
    }
    let yaml = dir.path().join("09-greeting/lesson.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    assert!(text.starts_with("# yaml-language-server: $schema=../lesson.schema.json"));
    let out = capa(&["lesson", "lint", d], &[]);
    assert!(out.status.success(), "{}", stdout(&out));
    // Without the schema, lint says so at the modeline, with the command that writes it.
    let schema = dir.path().join("lesson.schema.json");
    std::fs::remove_file(&schema).unwrap();
    let out = capa(&["lesson", "lint", d], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).contains(&format!(
            "{}:1:33: the modeline names the schema ../lesson.schema.json, and there is no file {}: write it with capa-tui lesson schema > {}",
            yaml.display(),
            schema.display(),
            schema.display()
        )),
        "{}",
        stdout(&out)
    );
    std::fs::write(&schema, stdout(&capa(&["lesson", "schema"], &[]))).unwrap();
    let out = capa(&["lesson", "lint", d], &[]);
    assert!(out.status.success(), "{}", stdout(&out));
    std::fs::write(
        &yaml,
        text.replace("until: synced-healthy", "until: synced"),
    )
    .unwrap();
    let out = capa(&["lesson", "lint", d, "--lang", "zh"], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let said = stdout(&out);
    assert!(
        said.contains(&format!("{}:", yaml.display())) && said.contains("无法读取"),
        "{said}"
    );
    let out = capa(&["lesson", "new", "greeting", "--dir", d], &[]);
    assert_eq!(out.status.code(), Some(2));

    let out = capa(&["lesson", "schema"], &[]);
    assert_eq!(
        stdout(&out),
        std::fs::read_to_string(root.join("lessons/lesson.schema.json")).unwrap()
    );
}

/// `capa-tui … | head`: once the reader has gone, every command drops what it would have said
/// and ends as it would have (its exit code), instead of panicking mid-work on a closed pipe.
#[test]
fn a_reader_who_stops_reading_ends_no_command_early() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let lessons = root.join("lessons");
    let (src, bare, kubeconfig) = (
        dir.path().join("src"),
        dir.path().join("bare"),
        dir.path().join("no-kubeconfig"),
    );
    let lab = [
        "--src-dir",
        src.to_str().unwrap(),
        "--bare-dir",
        bare.to_str().unwrap(),
        "--kubeconfig",
        kubeconfig.to_str().unwrap(),
    ];
    let commands: Vec<Vec<&str>> = vec![
        vec!["completions", "bash"],
        vec!["man"],
        vec!["config"],
        vec!["lesson", "schema"],
        vec!["lesson", "lint", lessons.to_str().unwrap()],
        [&["check", "all"][..], &lab].concat(),
        [&["status"][..], &lab].concat(),
        [&["env"][..], &lab].concat(),
    ];
    for args in commands {
        let read = capa(&args, &[]);
        assert!(
            !read.stdout.is_empty() || !read.stderr.is_empty(),
            "{args:?} says something when read"
        );
        // A pipe whose reading end is closed before the command starts: its first write fails.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let unread = std::process::Command::new(env!("CARGO_BIN_EXE_capa-tui"))
            .args(&args)
            .env_remove("CAPA_LANG")
            .stdout(writer)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&unread.stderr);
        assert!(!err.contains("panicked"), "{args:?}:\n{err}");
        assert!(!err.contains("Broken pipe"), "{args:?}:\n{err}");
        assert_eq!(
            unread.status.code(),
            read.status.code(),
            "{args:?} ends as it would have:\n{err}"
        );
    }
}

/// A kubeconfig for a cluster at `server`.
fn kubeconfig_for(dir: &std::path::Path, server: &str) -> std::path::PathBuf {
    let path = dir.join("kubeconfig");
    std::fs::write(
        &path,
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- cluster: {{server: \"{server}\"}}\n  name: c\ncontexts:\n- context: {{cluster: c, user: u}}\n  name: c\ncurrent-context: c\nusers:\n- name: u\n  user: {{token: x}}\n"
        ),
    )
    .unwrap();
    path
}

/// `status` and `check` against a cluster that is not there, or that takes the connection and
/// says nothing, say so and fail within seconds (issue 31: `status` printed an empty lab and
/// exited 0; against a silent port it hung).
#[test]
fn status_and_check_say_when_the_cluster_does_not_answer_and_fail_fast() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    // A port nobody listens on, and one that accepts and never answers.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let refused = format!("https://{}", closed.local_addr().unwrap());
    drop(closed);
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let silent_url = format!("https://{}", silent.local_addr().unwrap());
    for (server, says) in [(refused, "connection refused"), (silent_url, "timed out")] {
        let kubeconfig = kubeconfig_for(dir.path(), &server);
        for command in [&["status"][..], &["check", "1"][..]] {
            let started = std::time::Instant::now();
            let out = capa(
                command,
                &[
                    ("KUBECONFIG", kubeconfig.to_str().unwrap()),
                    ("CAPA_SRC_DIR", src.to_str().unwrap()),
                    ("LANG", "en_US.UTF-8"),
                ],
            );
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{command:?} on {server}: {err}");
            assert!(
                err.contains(says) && err.contains("Is the cluster running"),
                "{command:?} on {server}: {err}"
            );
            assert!(
                stdout(&out).is_empty(),
                "nothing is reported of a cluster that did not answer: {}",
                stdout(&out)
            );
            assert!(
                started.elapsed() < std::time::Duration::from_secs(15),
                "{command:?} on {server} took {:?}",
                started.elapsed()
            );
        }
    }
}

/// `--lesson` names a lesson by number or name; an unknown one says which there are, before
/// anything starts (and outside a terminal, the tutor says it needs one).
#[test]
fn the_tutor_opens_on_a_lesson_named_and_refuses_an_unknown_one() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let state = state.to_str().unwrap();
    let out = capa(&["--sim", "--state-dir", state, "--lesson", "99"], &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("99") && err.contains("6 (failed-hook)"),
        "{err}"
    );
    assert!(!std::path::Path::new(state).exists(), "nothing started");
    let out = capa(
        &["--sim", "--state-dir", state, "--lesson", "failed-hook"],
        &[],
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("terminal"),
        "{out:?}"
    );
}

#[test]
fn a_recording_that_cannot_be_written_is_said_before_the_tutor_opens() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let state = state.to_str().unwrap();
    let nowhere = dir.path().join("no-such-folder/lesson6.cast");
    let out = capa(
        &[
            "--sim",
            "--state-dir",
            state,
            "--record",
            nowhere.to_str().unwrap(),
        ],
        &[("LANG", "en_US.UTF-8")],
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot record into")
            && err.contains("lesson6.cast")
            && err.contains("--record"),
        "{err}"
    );
    assert!(!std::path::Path::new(state).exists(), "nothing started");
}
