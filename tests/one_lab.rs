//! The lab stays one lab: one embedded cluster per state dir (a second `--sim` command attaches
//! to the one serving, and leaves it serving), a working copy where a bare `git push` works, and
//! lessons that name their prerequisite and converge when run in any order. Driven with the
//! `capa-tui` binary, the real git and kubectl, and a tutor in tmux.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]
mod common;
use common::{lab_cli, tmux};

use lab_cli::{capa, text, tools_path, tutor_command};

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn git(dir: &Path, args: &[&str]) -> Output {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "learner")
        .env("GIT_AUTHOR_EMAIL", "l@lab")
        .env("GIT_COMMITTER_NAME", "learner")
        .env("GIT_COMMITTER_EMAIL", "l@lab")
        .output()
        .expect("git runs")
}

/// `capa-tui sim serve` on `state`, until killed.
struct Served {
    child: Child,
}

impl Served {
    fn start(state: &Path) -> Served {
        let child = Command::new(env!("CARGO_BIN_EXE_capa-tui"))
            .args(["sim", "serve", "--speed", "10", "--state-dir"])
            .arg(state)
            .env("LANG", "en_US.UTF-8")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("capa-tui sim serve runs");
        wait_serving(state, child.id());
        Served { child }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `<state>/serving.json` as the process `pid` wrote it, once it serves.
fn wait_serving(state: &Path, pid: u32) -> serde_json::Value {
    let start = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(state.join("serving.json"))
            && let Ok(v) = serde_json::from_str::<serde_json::Value>(&text)
            && v["pid"] == pid
        {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "process {pid} never said it serves {}",
            state.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `check LESSON` passes within a minute (a rollout may still be finishing).
fn passes_soon(state: &Path, lesson: &str) {
    let start = Instant::now();
    loop {
        let out = capa(state, &["check", lesson]);
        if out.status.success() {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "check {lesson} never passes:\n{}",
            text(&out)
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// The cluster behind a kubeconfig answers.
fn answers(kubeconfig: &Path) -> bool {
    Command::new(capa_sim::tools::find("kubectl").unwrap())
        .args(["get", "--raw", "/version"])
        .env("KUBECONFIG", kubeconfig)
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn commands_on_a_served_lab_attach_to_its_cluster_and_leave_it_serving() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let served = Served::start(&state);
    let serving = wait_serving(&state, served.child.id());
    let kubeconfig = PathBuf::from(serving["kubeconfig"].as_str().unwrap());
    assert_eq!(
        kubeconfig,
        state.join("kubeconfig"),
        "sim serve writes it there by default"
    );
    let before = std::fs::read_to_string(&kubeconfig).unwrap();

    let out = capa(&state, &["status"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains(&format!("served by process {}", served.child.id())),
        "{}",
        text(&out)
    );
    let out = capa(&state, &["do", "1", "--yes"]);
    assert!(out.status.success(), "{}", text(&out));
    // The served cluster's clock runs ×10: the lesson's time is said on both clocks.
    assert!(
        text(&out).contains("s on the cluster's ×10 clock)"),
        "{}",
        text(&out)
    );
    passes_soon(&state, "1");
    let out = capa(&state, &["env"]);
    assert!(
        text(&out).contains(&format!("KUBECONFIG='{}'", kubeconfig.display())),
        "{}",
        text(&out)
    );
    // Every command came and went: the cluster and its kubeconfig are as they were.
    assert_eq!(std::fs::read_to_string(&kubeconfig).unwrap(), before);
    assert!(answers(&kubeconfig), "the served cluster still answers");
    assert_eq!(
        wait_serving(&state, served.child.id())["url"],
        serving["url"]
    );

    // Serving it twice, or moving it aside under the server, is refused with who serves it.
    let out = Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(["sim", "serve", "--state-dir"])
        .arg(&state)
        .env("LANG", "en_US.UTF-8")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains(&format!("process {} serves this lab", served.child.id())),
        "{}",
        text(&out)
    );
    let out = capa(&state, &["status", "--fresh"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(state.join("capa-src/repo").exists(), "nothing moved");

    // The server is killed outright: the next command takes the lab over, and says so.
    drop(served);
    let out = capa(&state, &["status"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("is gone; this one serves it now"),
        "{}",
        text(&out)
    );
    passes_soon(&state, "1");
}

#[test]
fn a_bare_git_push_works_in_every_working_copy_the_lab_makes() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let out = capa(&state, &["do", "1", "--yes"]);
    assert!(out.status.success(), "{}", text(&out));
    let repo = state.join("capa-src/repo");
    let merge = git(&repo, &["config", "--get", "branch.main.merge"]);
    assert_eq!(text(&merge).trim(), "refs/heads/main");
    assert!(
        !git(&repo, &["config", "--get", "branch.master.merge"])
            .status
            .success()
    );
    std::fs::write(repo.join("notes.txt"), "mine\n").unwrap();
    assert!(git(&repo, &["add", "notes.txt"]).status.success());
    assert!(git(&repo, &["commit", "-qm", "notes"]).status.success());
    let push = git(&repo, &["push"]);
    assert!(push.status.success(), "{}", text(&push));
    let pull = git(&repo, &["pull", "--ff-only"]);
    assert!(pull.status.success(), "{}", text(&pull));

    // The learner's own clone of an empty bare repo tracks nothing until capa-tui sees it.
    let own = dir.path().join("own");
    let bare = own.join("bare");
    let capa_src = own.join("capa-src");
    let init = Command::new("git")
        .args(["init", "-q", "--bare", "-b", "main"])
        .arg(bare.join("src.git"))
        .output()
        .unwrap();
    assert!(init.status.success());
    std::fs::create_dir_all(&capa_src).unwrap();
    let clone = Command::new("git")
        .args(["clone", "-q"])
        .arg(bare.join("src.git"))
        .arg(capa_src.join("repo"))
        .output()
        .unwrap();
    assert!(clone.status.success(), "{}", text(&clone));
    let work = capa_src.join("repo");
    std::fs::write(work.join("a.txt"), "a\n").unwrap();
    assert!(git(&work, &["add", "a.txt"]).status.success());
    assert!(git(&work, &["commit", "-qm", "a"]).status.success());
    // Any lab command opens the lab, and with it the working copy's upstream.
    let out = Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(["status", "--sim", "--speed", "10", "--state-dir"])
        .arg(own.join("state"))
        .arg("--src-dir")
        .arg(&capa_src)
        .arg("--bare-dir")
        .arg(&bare)
        .env("LANG", "en_US.UTF-8")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let push = git(&work, &["push"]);
    assert!(push.status.success(), "{}", text(&push));
    let status = git(&work, &["status", "-sb"]);
    assert!(
        String::from_utf8_lossy(&status.stdout).contains("main...origin/main"),
        "{}",
        text(&status)
    );
}

#[test]
fn lessons_name_their_prerequisite_and_converge_in_any_order() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let out = capa(&state, &["do", "7", "--yes"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("lesson 7 needs lesson 4 first")
            && text(&out).contains("do lesson 4 first"),
        "{}",
        text(&out)
    );
    assert!(
        !state.join("capa-src/app-src-kust.yaml").exists(),
        "nothing was changed"
    );
    for (lesson, ok) in [("1", true), ("7", false), ("4", true), ("7", true)] {
        let out = capa(&state, &["do", lesson, "--yes"]);
        assert_eq!(out.status.success(), ok, "do {lesson}:\n{}", text(&out));
    }
    let out = capa(&state, &["check", "7"]);
    assert!(out.status.success(), "{}", text(&out));
    // Lesson 4 again undoes what lesson 7 added to src-kust; lesson 7 again puts it back.
    for lesson in ["4", "7"] {
        let out = capa(&state, &["do", lesson, "--yes"]);
        assert!(out.status.success(), "do {lesson}:\n{}", text(&out));
    }
    let out = capa(&state, &["check", "7"]);
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn a_short_command_on_the_tutors_lab_leaves_the_tutor_live() {
    let t = tmux::Tmux {
        socket: format!("capa-one-lab-{}", std::process::id()),
    };
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    t.start(120, 40, &tutor_command(&state, "en_US.UTF-8"));
    t.wait_for("✓ live", Duration::from_secs(30));
    let kubeconfig = state.join("kubeconfig");
    let before = std::fs::read_to_string(&kubeconfig).unwrap();
    // `shell` reads commands from stdin: with none, it starts, attaches and ends.
    // `app --sim` acts on the lab's cluster too.
    let refresh = ["app", "refresh", "src-helm", "--hard"];
    for args in [
        &["status"][..],
        &["check", "1"],
        &["do", "1", "--yes"],
        &refresh,
        &["shell"],
    ] {
        let out = capa(&state, args);
        assert!(
            text(&out).contains("Using the embedded cluster that process"),
            "{args:?}: {}",
            text(&out)
        );
    }
    let env = capa(&state, &["env"]);
    assert!(
        text(&env).contains(&format!("KUBECONFIG='{}'", kubeconfig.display()))
            && !text(&env).contains("no embedded cluster serves"),
        "{}",
        text(&env)
    );
    // A command that ends takes nothing with it: the tutor's cluster still serves.
    std::thread::sleep(Duration::from_secs(2));
    let screen = t.screen();
    assert!(screen.contains("✓ live"), "{screen}");
    assert!(!screen.contains("stale"), "{screen}");
    assert_eq!(std::fs::read_to_string(&kubeconfig).unwrap(), before);
    t.keys(&["q"]);
}

/// A lab that is not the one the learner left is said in the tutor before anything else: moved
/// aside by `--fresh`, or taken over from a process that was killed.
#[test]
fn the_tutor_says_when_the_lab_was_moved_aside_or_taken_over() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let out = capa(&state, &["do", "1", "--yes"]);
    assert!(out.status.success(), "{}", text(&out));

    let t = tmux::Tmux {
        socket: format!("capa-one-lab-fresh-{}", std::process::id()),
    };
    t.start(
        120,
        40,
        &format!("{} --fresh", tutor_command(&state, "en_US.UTF-8")),
    );
    let screen = t.wait_for(
        "A new lab: the previous one is kept in",
        Duration::from_secs(30),
    );
    assert!(screen.contains("Any key closes this."), "{screen}");
    t.keys(&["Space"]);
    t.wait_until("the notice closed", Duration::from_secs(5), |s| {
        !s.contains("A new lab") && s.contains("Checklist")
    });
    t.keys(&["q"]);
    drop(t);

    let mut served = Served::start(&state);
    let _ = served.child.kill(); // SIGKILL: serving.json stays behind
    let _ = served.child.wait();
    let t = tmux::Tmux {
        socket: format!("capa-one-lab-takeover-{}", std::process::id()),
    };
    t.start(120, 40, &tutor_command(&state, "en_US.UTF-8"));
    t.wait_for("is gone; this one serves it", Duration::from_secs(30));
    t.keys(&["q"]);
}

/// `capa-tui do 1 --yes | head -1`: the reader leaves after one line, and the lesson is still
/// done to the end (a panic on the closed pipe would stop it between a commit and its push);
/// `status` and `check` end as they would have too.
#[test]
fn a_command_whose_reader_stops_reading_still_does_its_work() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let unread = |args: &[&str]| {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_capa-tui"))
            .args(args)
            .args(["--sim", "--speed", "10", "--state-dir"])
            .arg(&state)
            .env("PATH", lab_cli::tools_path())
            .env("LANG", "en_US.UTF-8")
            .env_remove("CAPA_LANG")
            .stdin(Stdio::null())
            .stdout(writer)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!err.contains("panicked"), "{args:?}:\n{err}");
        (out.status.code(), err)
    };
    let (code, err) = unread(&["do", "1", "--yes"]);
    assert_eq!(code, Some(0), "do 1 went on to the end:\n{err}");
    let read = capa(&state, &["check", "1"]);
    assert!(read.status.success(), "{}", text(&read));
    for args in [&["check", "1"][..], &["status"]] {
        let read = capa(&state, args);
        assert_eq!(unread(args).0, read.status.code(), "{args:?}");
    }
}

/// The self-check says when it ran by the cluster's clock, the one its panes and evidence times
/// read: on a lab served at ten times real speed that clock runs well ahead of this machine's.
#[test]
fn the_self_check_says_when_it_ran_by_the_clusters_clock() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let _served = Served::start(&state);
    let started = jiff::Timestamp::now();
    std::thread::sleep(Duration::from_secs(4));
    let out = capa(&state, &["check", "1", "--json"]);
    let said: serde_json::Value = serde_json::from_slice(&out.stdout).expect("check --json");
    let checked: jiff::Timestamp = said["files"][0]["checked_at"]
        .as_str()
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("a time: {said}"));
    let wall = jiff::Timestamp::now();
    // Four seconds at speed 10 put the cluster 36 s ahead; this machine's clock is not.
    assert!(
        checked.duration_since(wall).as_secs() >= 20,
        "checked at {checked}, this machine says {wall} (served since {started})"
    );
}

#[test]
fn the_rooms_table_follows_every_learner_live_on_the_shared_cluster() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let out = capa(&state, &["do", "1", "--yes", "--learner", "alice"]);
    assert!(out.status.success(), "{}", text(&out));
    let t = tmux::Tmux {
        socket: format!("class-watch-{}", std::process::id()),
    };
    t.start(
        120,
        30,
        &format!(
            "env LANG=en_US.UTF-8 PATH={} {} class report --watch --sim --speed 10 --state-dir {}; sleep 600",
            tools_path(),
            env!("CARGO_BIN_EXE_capa-tui"),
            state.display()
        ),
    );
    t.wait_until(
        "alice's lesson 1 passed, and no one else",
        Duration::from_secs(60),
        |s| s.contains("one learner ·") && s.contains("alice  1 ✓  2 ·"),
    );
    // Nothing changes, nothing is graded again: the cluster's own writes (its journal in the
    // state dir) are not the room's (it once graded every 3 s, idle). Argo CD's periodic refresh
    // may come once in the window.
    let graded_at = |s: &str| {
        s.lines()
            .next()
            .and_then(|l| l.split("graded ").nth(1))
            .map(|r| r.chars().take(8).collect::<String>())
    };
    let mut times = std::collections::BTreeSet::new();
    for _ in 0..7 {
        times.insert(graded_at(&t.screen()));
        std::thread::sleep(Duration::from_millis(1500));
    }
    assert!(times.len() <= 2, "graded again while idle: {times:?}");
    // Bob starts while the table is up (his command attaches to the cluster it serves): the
    // table follows with no key pressed.
    let out = capa(&state, &["do", "1", "--yes", "--learner", "bob"]);
    assert!(out.status.success(), "{}", text(&out));
    // The lessons' columns line up under each other.
    t.wait_until("bob's lesson 1 passed too", Duration::from_secs(60), |s| {
        s.contains("2 learners") && s.contains("alice  1 ✓  2 ·") && s.contains("bob    1 ✓  2 ·")
    });
    t.keys(&["C-c"]);
}
