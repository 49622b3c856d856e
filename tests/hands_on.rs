//! The lab done by hand inside the tutor, as a learner does it: in tmux at 120×40 on the
//! embedded cluster, lessons 1 and 2 typed into the shell pane with "type it for me" and Enter
//! — only the commands the lesson shows — while the screen is read for the checklist ticking,
//! src-helm turning Synced and Healthy, and `capa-tui check 2` passing. Ctrl-] hands the keys
//! back, `q` in the shell types `q`, and quitting leaves no shell behind.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use capa_tui::i18n::Lang;
use capa_tui::lab::catalog::{Catalog, Section};
use capa_tui::lab::snippets::snippets;

mod common;
use common::tmux::Tmux;

/// Processes whose command line names `needle` (the test's own state dir).
fn processes_naming(needle: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            text.contains(needle).then_some(text)
        })
        .collect()
}

/// A tutor on a new embedded lab at speed 10, `size` in tmux, once its panes are live: the
/// lab's folder (kept while the test runs), its state dir and the tmux session.
fn tutor_on_a_new_lab(
    name: &str,
    (w, h): (u16, u16),
) -> (tempfile::TempDir, std::path::PathBuf, Tmux) {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let t = Tmux {
        socket: format!("{name}-{}", std::process::id()),
    };
    let cmd = format!(
        "{} --sim --speed 10 --state-dir {}",
        env!("CARGO_BIN_EXE_capa-tui"),
        state.display()
    );
    t.start(w, h, &cmd);
    t.wait_for("✓ live", Duration::from_secs(30));
    (dir, state, t)
}

/// Types the commands of a lesson part after the first `done` with Ctrl-] `]` `y` Enter.
fn type_rest(t: &Tmux, lesson: usize, section: Section, done: usize) {
    let catalog = Catalog::embedded().unwrap();
    let count = snippets(
        &catalog.lessons()[lesson]
            .text(Lang::FALLBACK)
            .section(section),
    )
    .len();
    for _ in done..count {
        t.keys(&["C-]", "]", "y"]);
        // The command is typed, not run: the learner presses Enter.
        std::thread::sleep(Duration::from_millis(500));
        t.keys(&["Enter"]);
        std::thread::sleep(Duration::from_millis(700));
    }
}

#[test]
fn lessons_one_and_two_done_by_hand_in_the_shell_pane_tick_their_checklists() {
    let (_dir, state, t) = tutor_on_a_new_lab("capa-hands-on", (120, 40));

    // Lesson 1: the first command selected and typed starts the shell; nothing runs yet.
    t.keys(&["]", "y"]);
    // The lesson pane shows the selected command too: wait for it at the shell's prompt.
    let typed = t.wait_until("the command at the prompt", Duration::from_secs(20), |s| {
        s.contains("# git ini") || s.contains("$ git ini")
    });
    assert!(
        typed.contains("typing · Ctrl-] back to capa-tui"),
        "{typed}"
    );
    assert!(
        !Path::new(&state.join("bare/src.git")).exists(),
        "typed, not run: the learner presses Enter"
    );
    t.keys(&["Enter"]);
    std::thread::sleep(Duration::from_millis(700));
    type_rest(&t, 0, Section::ByHand, 1);
    let screen = t.wait_for("Checklist 6/6", Duration::from_secs(90));
    assert!(
        screen.contains("src-helm   ✓ Synced  ✓ Healthy"),
        "{screen}"
    );

    // In the shell, q is just a letter.
    t.keys(&["q"]);
    t.wait_until("q at the shell's prompt", Duration::from_secs(10), |s| {
        s.contains("# q") || s.contains("$ q")
    });
    t.keys(&["C-u"]);

    // Lesson 2: Ctrl-] hands the keys back; n is then the tutor's "next lesson".
    t.keys(&["C-]", "n"]);
    t.wait_for("2 · The values file says 2", Duration::from_secs(10));
    let catalog = Catalog::embedded().unwrap();
    let by_hand = snippets(
        &catalog.lessons()[1]
            .text(Lang::FALLBACK)
            .section(Section::ByHand),
    );
    // The first block applies the Application; the second reads the cluster once it synced.
    let first_block = by_hand
        .iter()
        .take_while(|s| !s.text.starts_with("replicas="))
        .count();
    for i in 0..by_hand.len() {
        if i == first_block {
            t.wait_for("Checklist 3/5", Duration::from_secs(90));
        }
        t.keys(&["C-]", "]", "y"]);
        std::thread::sleep(Duration::from_millis(500));
        t.keys(&["Enter"]);
        std::thread::sleep(Duration::from_millis(700));
    }
    let screen = t.wait_for("Checklist 5/5", Duration::from_secs(90));
    assert!(
        screen.contains("src-helm   ✓ Synced  ✓ Healthy"),
        "{screen}"
    );

    // The self-check, run where the learner is: in the shell, against the same cluster.
    t.run(&[
        "send-keys",
        "-t",
        "t",
        "-l",
        "capa-tui check 2; echo CHECK=$((100 + $?))",
    ]);
    t.keys(&["Enter"]);
    // The typed line shows "CHECK=$((…", the output "CHECK=100" on success: wait for the output.
    let screen = t.wait_for("CHECK=1", Duration::from_secs(60));
    assert!(screen.contains("CHECK=100"), "{screen}");
    assert!(screen.contains("✓ PASS precedence.json"), "{screen}");

    // Quit from the tutor: no shell of this lab is left running.
    t.keys(&["C-]", "q"]);
    let needle = state.display().to_string();
    let start = Instant::now();
    while !processes_naming(&needle).is_empty() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(
        processes_naming(&needle),
        Vec::<String>::new(),
        "processes left behind"
    );
}

/// At 80×24 the shell opens under the lesson: each command of lesson 1's By hand part is read,
/// marked, in the lesson pane while it stands typed at the shell's prompt, on one screen.
#[test]
fn at_80x24_the_chosen_command_and_the_shell_share_the_screen() {
    let (_dir, state, t) = tutor_on_a_new_lab("capa-hands-80", (80, 24));
    let catalog = Catalog::embedded().unwrap();
    let commands = snippets(
        &catalog.lessons()[0]
            .text(Lang::FALLBACK)
            .section(Section::ByHand),
    );
    // With --sim the lab's folders are in the state dir.
    let fit = capa_tui::lab::fit::Fit::for_paths(&capa_tui::lab::paths::LabPaths {
        src_dir: state.join("capa-src"),
        bare_dir: state.join("bare"),
    });
    for (i, command) in commands.iter().enumerate() {
        let text = fit.render(&command.text);
        let first: String = text.lines().next().unwrap().chars().take(40).collect();
        // The shell wraps what is typed anywhere: its end is looked for without spaces.
        let last: Vec<char> = text
            .lines()
            .last()
            .unwrap()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let last: String = last[last.len().saturating_sub(24)..].iter().collect();
        t.keys(if i == 0 {
            &["]", "y"][..]
        } else {
            &["C-]", "]", "y"][..]
        });
        let screen = t.wait_until(
            &format!("command {} beside the shell ({first:?} … {last:?})", i + 1),
            Duration::from_secs(20),
            |s| {
                let rows: Vec<&str> = s.lines().collect();
                let shell_top = rows.iter().position(|r| r.contains("Shell (capa:sim)"));
                shell_top.is_some_and(|top| {
                    rows[..top]
                        .iter()
                        .any(|r| r.contains(&format!("▌ {first}")))
                        && rows[top + 1..]
                            .iter()
                            .flat_map(|r| r.chars())
                            .filter(|c| !c.is_whitespace() && *c != '┃' && *c != '█')
                            .collect::<String>()
                            .contains(&last)
                })
            },
        );
        assert!(screen.lines().count() <= 24, "{screen}");
        t.keys(&["Enter"]);
        std::thread::sleep(Duration::from_millis(600));
    }
    // The last command's output: the chart's objects, live.
    t.wait_for("configmap/src-helm-greeting", Duration::from_secs(90));
    t.keys(&["C-]", "q"]);
}

#[test]
fn on_a_cluster_that_is_not_the_embedded_one_r_shows_the_plan_and_changes_nothing_until_y() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("served");
    let kubeconfig = dir.path().join("kubeconfig");
    let mut serve = Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(["sim", "serve", "--speed", "10", "--state-dir"])
        .arg(&state)
        .arg("--kubeconfig-out")
        .arg(&kubeconfig)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !kubeconfig.exists() && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(100));
    }
    let bare = dir.path().join("bare");
    let t = Tmux {
        socket: format!("capa-confirm-{}", std::process::id()),
    };
    let cmd = format!(
        "{} --kubeconfig {} --src-dir {} --bare-dir {}",
        env!("CARGO_BIN_EXE_capa-tui"),
        kubeconfig.display(),
        dir.path().join("src").display(),
        bare.display()
    );
    t.start(120, 40, &cmd);
    t.wait_for("✓ live", Duration::from_secs(30));
    t.keys(&["r"]);
    let screen = t.wait_for("Look before you change", Duration::from_secs(10));
    assert!(
        screen.contains("is about to change the cluster of context"),
        "{screen}"
    );
    assert!(screen.contains("git init --bare -b main"), "{screen}");
    std::thread::sleep(Duration::from_secs(2));
    assert!(!bare.join("src.git").exists(), "nothing changes before y");
    t.keys(&["n"]);
    std::thread::sleep(Duration::from_secs(1));
    assert!(!t.screen().contains("Look before you change"));
    assert!(!bare.join("src.git").exists(), "n changes nothing");
    t.keys(&["r", "y"]);
    let start = Instant::now();
    while !bare.join("src.git").exists() && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(bare.join("src.git").exists(), "y goes ahead");
    t.keys(&["x", "q"]);
    let _ = serve.kill();
    let _ = serve.wait();
}

/// Presenting lesson 6 one action at a time, as an instructor would: after lessons 1–5 are done
/// headless, `--present` at 120×40, `g` and then the clicker's PgDn. The screen shows the hook
/// failing, then the banner with the fix waiting behind the retrying operation — before the
/// action that ends it — and then the fix synced; the evidence passes `check 6`.
#[test]
fn lesson_six_in_step_mode_stages_the_trap_before_ending_the_operation() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let capa = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_capa-tui"))
            .args(args)
            .args(["--sim", "--speed", "5", "--state-dir"])
            .arg(&state)
            .output()
            .unwrap()
    };
    for n in ["1", "2", "3", "4", "5"] {
        let out = capa(&["do", n, "--yes"]);
        assert!(
            out.status.success(),
            "do {n}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let t = Tmux {
        socket: format!("capa-step-{}", std::process::id()),
    };
    let cmd = format!(
        "{} --sim --speed 5 --present --lesson 6 --state-dir {}",
        env!("CARGO_BIN_EXE_capa-tui"),
        state.display()
    );
    t.start(120, 40, &cmd);
    t.wait_for("✓ live", Duration::from_secs(30));
    t.wait_for("6 · After a hook failure", Duration::from_secs(10));
    t.keys(&["g"]);
    t.wait_for("Step mode · 0/9", Duration::from_secs(10));
    let step = |done: usize| {
        t.keys(&["PageDown"]);
        t.wait_for(&format!("Step mode · {done}/9"), Duration::from_secs(120))
    };
    step(1);
    step(2);
    // Before the third action (the hard refresh that starts the failing sync), the room is
    // asked to predict, while nothing on screen shows the answer yet (the question covers the
    // narration, so it is what the screen is read for).
    t.keys(&["PageDown"]);
    let asked = t.wait_for("Predict, then watch", Duration::from_secs(60));
    assert!(
        asked.contains("When the hook fails, what will the live settings ConfigMap say?"),
        "{asked}"
    );
    t.keys(&["PageDown"]);
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        t.screen().contains("Predict, then watch"),
        "the action waits for the vote"
    );
    t.keys(&["2"]);
    step(3);
    let failing = step(4);
    assert!(
        failing.contains("The hook failed. settings is still blue"),
        "{failing}"
    );
    assert!(
        failing.contains("you said: mode: blue · live: blue"),
        "{failing}"
    );
    // The key is drawn large beside the panes (quadrant blocks), not as a footer cell.
    let big = failing
        .lines()
        .rev()
        .take(8)
        .any(|l| l.chars().filter(|c| "▘▝▀▖▌▞▛▗▚▐▜▄▙▟█".contains(*c)).count() >= 4);
    assert!(
        big && !failing.contains("⌨ PgDn"),
        "the room sees the key, large: {failing}"
    );
    step(5);
    step(6);
    let trap = step(7);
    assert!(
        trap.contains("An operation is still retrying"),
        "the banner is on screen before the operation is ended:\n{trap}"
    );
    assert!(trap.contains("▶ End the operation"), "{trap}");
    step(8);
    let synced = step(9);
    assert!(
        synced.contains("Synced, Healthy and Succeeded on the fix"),
        "{synced}"
    );
    t.keys(&["q"]);
    std::thread::sleep(Duration::from_secs(2));
    let out = capa(&["check", "6"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// The config file sets the tutor's theme and language; a malformed line stops it before the
/// terminal is taken, naming the file and the line.
#[test]
fn a_config_file_sets_theme_and_language_and_a_bad_line_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "theme = \"monochrome\"\nlang = \"zh\"\n").unwrap();
    let t = Tmux {
        socket: format!("capa-config-{}", std::process::id()),
    };
    let cmd = format!(
        "sh -c 'CAPA_CONFIG={} {} --sim --state-dir {}; echo exit=$?; sleep 60'",
        config.display(),
        env!("CARGO_BIN_EXE_capa-tui"),
        dir.path().join("state").display()
    );
    t.start(160, 40, &cmd);
    let screen = t.wait_for("主题 monochrome", Duration::from_secs(30));
    assert!(
        screen.contains("课程"),
        "the chrome is in Chinese: {screen}"
    );
    t.keys(&["q"]);
    t.wait_for("exit=0", Duration::from_secs(10));

    std::fs::write(&config, "lang = \"zh\"\ntheme = \"neon\"\n").unwrap();
    let t = Tmux {
        socket: format!("capa-config-bad-{}", std::process::id()),
    };
    t.start(160, 40, &cmd);
    let screen = t.wait_for("exit=2", Duration::from_secs(30));
    let joined = screen.replace('\n', "");
    assert!(
        joined.contains("config.toml, line 2: unknown variant `neon`"),
        "{screen}"
    );
    assert!(joined.contains("Fix or remove that line"), "{screen}");
}
