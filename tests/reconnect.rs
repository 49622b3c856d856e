//! The tutor keeps telling the truth when the cluster goes away and comes back. In tmux at
//! 120×40 on `capa-tui sim serve --state-dir S --kubeconfig-out K`: the server is stopped, and
//! the header must say stale with a clock time that moves and the panes marked "as of"; it is
//! started again (on the same port, or on a new one with a rewritten kubeconfig), objects are
//! created, deleted and annotated, and within 5 s of it serving the header must say live and
//! the panes show the changes. And a plan interrupted by a server restart completes after it.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::tmux::Tmux;

/// Within this long of the cluster serving again, every pane matches it.
const RECOVERY: Duration = Duration::from_secs(5);

/// `capa-tui sim serve` on a state dir, stopped with SIGTERM when dropped.
struct Served {
    child: Child,
    /// `https://127.0.0.1:PORT`, once it serves.
    url: String,
    /// When it said it serves.
    serving: Instant,
}

impl Served {
    fn start(state: &Path, kubeconfig: &Path, listen: &str) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_capa-tui"))
            .args(["sim", "serve", "--speed", "10", "--listen", listen])
            .arg("--state-dir")
            .arg(state)
            .arg("--kubeconfig-out")
            .arg(kubeconfig)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("capa-tui runs");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let first = lines.next().unwrap().unwrap();
        let url = first
            .strip_prefix("embedded lab cluster serving at ")
            .unwrap_or_else(|| panic!("not serving: {first}"))
            .to_string();
        // The rest of what it prints is read (and dropped) so it never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        Served {
            child,
            url,
            serving: Instant::now(),
        }
    }

    fn port(&self) -> &str {
        self.url.rsplit(':').next().unwrap()
    }

    fn stop(mut self) {
        self.terminate();
    }

    fn terminate(&mut self) {
        let pid = i32::try_from(self.child.id()).unwrap();
        unsafe { libc::kill(pid, libc::SIGTERM) };
        let _ = self.child.wait();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.terminate();
        }
    }
}

fn kubectl(dir: &Path, kubeconfig: &Path, args: &[&str], stdin: Option<&str>) {
    use std::io::Write;
    let mut child = Command::new(capa_sim::tools::find("kubectl").expect("scripts/install-tools"))
        .args(args)
        .env("KUBECONFIG", kubeconfig)
        .env("KUBECACHEDIR", dir.join("kube-cache"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "kubectl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn application(name: &str) -> String {
    format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {{name: {name}, namespace: argocd}}\nspec:\n  project: default\n  source: {{repoURL: \"git://gitd.gitsrv.svc.cluster.local:9418/none.git\", path: \".\", targetRevision: main}}\n  destination: {{server: \"https://kubernetes.default.svc\", namespace: src-helm}}\n"
    )
}

/// Two of the lab's Applications (the tutor watches those by name) and lesson 3's focus
/// ConfigMap, which the managedFields pane shows.
fn seed(dir: &Path, kubeconfig: &Path) {
    let objects = format!(
        "{}---\n{}---\napiVersion: v1\nkind: Namespace\nmetadata: {{name: src-helm}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: src-helm-greeting, namespace: src-helm}}\ndata: {{greeting: hi}}\n",
        application("src-helm"),
        application("src-kust")
    );
    kubectl(dir, kubeconfig, &["apply", "-f", "-"], Some(&objects));
}

/// While the tutor cannot see: one Application deleted, one created, the ConfigMap annotated.
fn change_while_away(dir: &Path, kubeconfig: &Path) {
    kubectl(
        dir,
        kubeconfig,
        &["-n", "argocd", "delete", "application", "src-kust"],
        None,
    );
    kubectl(
        dir,
        kubeconfig,
        &["apply", "-f", "-"],
        Some(&application("src-waves")),
    );
    kubectl(
        dir,
        kubeconfig,
        &[
            "-n",
            "src-helm",
            "annotate",
            "configmap",
            "src-helm-greeting",
            "note=back",
        ],
        None,
    );
}

/// The tutor on `kubeconfig` in tmux at 120×40, on lesson 3 (managedFields and Applications),
/// live and showing the seeded objects.
fn open_tutor(dir: &Path, kubeconfig: &Path, name: &str) -> Tmux {
    let t = Tmux {
        socket: format!("capa-reconnect-{name}-{}", std::process::id()),
    };
    let cmd = format!(
        "{} --lesson 3 --kubeconfig {} --src-dir {} --bare-dir {}",
        env!("CARGO_BIN_EXE_capa-tui"),
        kubeconfig.display(),
        dir.join("src").display(),
        dir.join("bare").display()
    );
    t.start(120, 40, &cmd);
    t.wait_for("✓ live", Duration::from_secs(30));
    t.wait_for("3 · helm list shows nothing", Duration::from_secs(10));
    let screen = t.wait_for("src-kust", Duration::from_secs(10));
    assert!(screen.contains("src-helm"), "{screen}");
    assert!(
        screen.contains("src-helm/ConfigMap/src-helm-greeting"),
        "{screen}"
    );
    t
}

/// The clock time after `prefix` (`HH:MM:SS`).
fn clock_after(screen: &str, prefix: &str) -> String {
    let at = screen
        .find(prefix)
        .unwrap_or_else(|| panic!("no {prefix:?} on the screen:\n{screen}"));
    screen[at + prefix.len()..].chars().take(8).collect()
}

/// The seconds in `(N s ago)` of the header.
fn age_seconds(screen: &str) -> u64 {
    let header = screen.lines().next().unwrap_or_default();
    let open = header.find('(').expect("an age in the header");
    header[open + 1..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no age in {header:?}"))
}

/// Stopped: the header says stale since a clock time, with an age that moves, and why; both
/// panes are marked as of that time.
fn read_stale(t: &Tmux, url: &str) {
    // Streams fail one by one as each notices; once all have, the header says so in one line.
    t.wait_for("✗ stale since", Duration::from_secs(10));
    let screen = t.wait_for("all watches: cannot reach", Duration::from_secs(10));
    let since = clock_after(&screen, "✗ stale since ");
    assert!(
        since.len() == 8 && since.chars().filter(|c| *c == ':').count() == 2,
        "a clock time: {since:?}"
    );
    assert!(
        screen.contains(&format!(
            "all watches: cannot reach {url}: connection refused"
        )),
        "{screen}"
    );
    // Each pane is as of its own streams' last news: streams notice the stop one by one, so a
    // pane may be a second or two later than the header's first failure, never earlier.
    let seconds = |clock: &str| -> i64 {
        clock
            .split(':')
            .map(|p| p.parse::<i64>().unwrap())
            .fold(0, |acc, p| acc * 60 + p)
    };
    for pane in ["managedFields", "Applications"] {
        let marker = format!("{pane} · as of ");
        assert!(screen.contains(&marker), "{pane} is marked old:\n{screen}");
        let as_of = clock_after(&screen, &marker);
        let late = (seconds(&as_of) - seconds(&since)).rem_euclid(24 * 3600);
        assert!(
            late <= 2,
            "{pane} as of {as_of}, the header stale since {since}:\n{screen}"
        );
    }
    let before = age_seconds(&screen);
    std::thread::sleep(Duration::from_millis(2500));
    let later = t.screen();
    assert!(
        age_seconds(&later) >= before + 2,
        "the age moves without a key: {before} s, then:\n{later}"
    );
}

/// Back: within 5 s of `since`, live, nothing marked old, and the changes on screen.
fn read_recovered(t: &Tmux, since: Instant) {
    loop {
        let screen = t.screen();
        let header = screen.lines().next().unwrap_or_default().to_string();
        let done = header.contains("✓ live")
            && screen.contains("src-waves")
            && !screen.contains("src-kust")
            && screen.contains("kubectl-annotate")
            && !screen.contains("as of");
        if done {
            return;
        }
        assert!(
            since.elapsed() < RECOVERY,
            "not recovered within {RECOVERY:?} of the cluster serving again:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn stopped_and_started_again_on_the_same_port_the_tutor_says_stale_then_live_with_the_changes() {
    let dir = tempfile::tempdir().unwrap();
    let (state, kc) = (dir.path().join("state"), dir.path().join("kubeconfig"));
    let server = Served::start(&state, &kc, "127.0.0.1:0");
    let (url, port) = (server.url.clone(), server.port().to_string());
    seed(dir.path(), &kc);
    let t = open_tutor(dir.path(), &kc, "same");

    server.stop();
    read_stale(&t, &url);

    let server = Served::start(&state, &kc, &format!("127.0.0.1:{port}"));
    change_while_away(dir.path(), &kc);
    read_recovered(&t, server.serving);
    t.keys(&["q"]);
}

#[test]
fn restarted_on_another_port_the_tutor_follows_the_rewritten_kubeconfig() {
    let dir = tempfile::tempdir().unwrap();
    let (state, kc) = (dir.path().join("state"), dir.path().join("kubeconfig"));
    let server = Served::start(&state, &kc, "127.0.0.1:0");
    let url = server.url.clone();
    seed(dir.path(), &kc);
    let t = open_tutor(dir.path(), &kc, "moved");

    server.stop();
    read_stale(&t, &url);

    // The cluster serves elsewhere; the tutor's kubeconfig still names the old address.
    let elsewhere: PathBuf = dir.path().join("elsewhere.kubeconfig");
    let _server = Served::start(&state, &elsewhere, "127.0.0.1:0");
    change_while_away(dir.path(), &elsewhere);
    std::thread::sleep(Duration::from_secs(1));
    let screen = t.screen();
    assert!(
        screen.contains("✗ stale since"),
        "nothing tells it yet:\n{screen}"
    );
    assert!(screen.contains("src-kust"), "{screen}");
    // The kubeconfig is rewritten as tools do: a new file renamed over the old.
    let staged = dir.path().join("kubeconfig.new");
    std::fs::copy(&elsewhere, &staged).unwrap();
    std::fs::rename(&staged, &kc).unwrap();
    read_recovered(&t, Instant::now());
    t.keys(&["q"]);
}

/// "Do it for me" on lesson 1 with the cluster stopped as the plan pushes and started again
/// (same port, same state dir) a few seconds later: the step that needs the cluster says it
/// does not answer, waits, and the plan completes — with one commit, not two.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plan_interrupted_by_a_server_restart_completes_after_it() {
    use capa_tui::lab::engine::{self, Progress, Runner};
    let dir = tempfile::tempdir().unwrap();
    let (state, kc) = (dir.path().join("state"), dir.path().join("kubeconfig"));
    let paths = capa_tui::lab::paths::LabPaths {
        src_dir: dir.path().join("capa-src"),
        bare_dir: dir.path().join("bare"),
    };
    let config = |listen| capa_sim::Config {
        listen,
        state_dir: Some(state.clone()),
        speed: 10.0,
        bare_dir: Some(paths.bare_dir.clone()),
    };
    let sim = capa_sim::start(config("127.0.0.1:0".parse().unwrap()))
        .await
        .unwrap();
    let addr = sim.addr;
    sim.write_kubeconfig(&kc).unwrap();
    let followed = capa_tui::cluster::follow::connect(&kc, None).await.unwrap();
    let catalog = std::sync::Arc::new(capa_tui::lab::catalog::Catalog::embedded().unwrap());
    let runner = Runner {
        client: followed.client.clone(),
        catalog: catalog.clone(),
        commit_lang: capa_tui::i18n::Lang::FALLBACK,
        fit: capa_tui::lab::fit::Fit::for_paths(&paths),
        paths: paths.clone(),
        kubeconfig: Some(kc.clone()),
        context: None,
        deadline: Duration::from_secs(120),
        clock: None,
    };
    let lesson = catalog.lessons()[0].clone();
    let steps = engine::plan(&lesson).unwrap();
    let push = 1 + steps
        .iter()
        .position(|s| matches!(s, capa_tui::lab::spec::Step::CommitPush { .. }))
        .unwrap();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let (_cancel, cancel_rx) = tokio::sync::watch::channel(false);
    let plan =
        tokio::spawn(async move { runner.run(lesson.spec.number, &steps, tx, cancel_rx).await });

    let mut sim = Some(sim);
    let mut restarted = None;
    let mut said_away = false;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    while let Some(p) = tokio::time::timeout_at(deadline, rx.recv()).await.unwrap() {
        match &p {
            Progress::Started { step, .. } if *step == push => {
                sim.take().unwrap().shutdown().await;
                // Back a few seconds later, where it was.
                let restart = config(addr);
                restarted = Some(tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_secs(3)).await;
                    capa_sim::start(restart).await.unwrap()
                }));
            }
            Progress::Blocker { line, .. } if line.id() == Some("plan-waiting-cluster") => {
                said_away = true;
            }
            Progress::Failed { error, .. } => panic!(
                "a step failed: {}",
                capa_tui::i18n::Say::say(error, capa_tui::i18n::Lang::FALLBACK)
            ),
            _ => {}
        }
    }
    let result = plan.await.unwrap();
    restarted.unwrap().await.unwrap().shutdown().await;
    assert!(result.is_ok(), "{result:?}");
    assert!(
        said_away,
        "a step said the cluster does not answer while it was away"
    );
    let bare = capa_tui::git::open(&paths.bare_repo("src")).unwrap();
    let mut walk = bare.revwalk().unwrap();
    walk.push_ref("refs/heads/main").unwrap();
    assert_eq!(walk.count(), 1, "one commit, pushed once");
}

/// A tutor shows a lab another process serves (the learner opened it twice, or `sim serve` runs
/// beside it); that process ends and nothing takes its place: this tutor serves the lab itself,
/// at the same kubeconfig, live within seconds and with what the lab held, instead of saying
/// "reconnecting" until it is restarted. Quitting it then frees the lab for the next command.
#[test]
fn a_tutor_attached_to_a_lab_whose_server_ends_serves_it_itself() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let kc = state.join("kubeconfig");
    let server = Served::start(&state, &kc, "127.0.0.1:0");
    let old_url = server.url.clone();
    seed(dir.path(), &kc);
    let t = Tmux {
        socket: format!("capa-reconnect-adopt-{}", std::process::id()),
    };
    t.start(
        120,
        40,
        &format!(
            "{} --sim --state-dir {} --lesson 3",
            env!("CARGO_BIN_EXE_capa-tui"),
            state.display()
        ),
    );
    // Attached: the header names the address the other process serves at.
    t.wait_for(&old_url, Duration::from_secs(30));
    t.wait_for(
        "src-helm/ConfigMap/src-helm-greeting",
        Duration::from_secs(10),
    );

    server.stop();
    let screen = t.wait_until("serving the lab itself", Duration::from_secs(30), |s| {
        s.contains("✓ live") && !s.contains(&old_url) && s.contains("the embedded lab cluster at")
    });
    assert!(
        screen.contains("src-helm/ConfigMap/src-helm-greeting"),
        "what the lab held:\n{screen}"
    );
    // The kubeconfig the tutor followed now names the cluster it serves.
    kubectl(dir.path(), &kc, &["get", "namespace", "src-helm"], None);

    // It says it took the lab over; the first key puts that notice away, the next quits.
    assert!(screen.contains("is gone; this one serves it"), "{screen}");
    t.keys(&["Escape"]);
    t.keys(&["q"]);
    // Once it has quit, the next command serves the lab itself: nothing holds it.
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let out = Command::new(env!("CARGO_BIN_EXE_capa-tui"))
            .args(["--sim", "--state-dir"])
            .arg(&state)
            .arg("status")
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr).to_string();
        if out.status.success() && !said.contains("Using the embedded cluster that process") {
            break;
        }
        assert!(Instant::now() < deadline, "the lab is still held: {said}");
        std::thread::sleep(Duration::from_millis(500));
    }
}
