//! The self-check against a lab state made once by `do all`: a table of wrong evidence that
//! must fail with a message naming its field and its fix, and right evidence (in any JSON
//! number or time format) that must pass; then faults in the cluster the lessons' steps left.

use std::path::{Path, PathBuf};

use capa_tui::i18n::{Lang, Say};
use capa_tui::lab::catalog::Catalog;
use capa_tui::lab::eval::check::{self, Grade};
use capa_tui::lab::eval::context::Context;
use capa_tui::lab::spec::LessonId;
use serde_json::{Value, json};

use super::lessons::{capa, text};
use crate::common::{Independent, client_for};

struct Lab {
    client: kube::Client,
    src: PathBuf,
    bare: PathBuf,
    catalog: Catalog,
    cluster: Independent,
}

impl Lab {
    async fn grade(&self, lesson: u8) -> Grade {
        let ctx = Context {
            client: &self.client,
            catalog: &self.catalog,
            src_dir: &self.src,
            bare_dir: &self.bare,
            clock: None,
        };
        let l = self.catalog.lesson(LessonId(lesson)).unwrap();
        check::grade_lesson(l, &ctx).await
    }

    fn evidence(&self, file: &str) -> Value {
        serde_json::from_str(&std::fs::read_to_string(self.src.join(file)).unwrap()).unwrap()
    }

    /// Grades lesson `lesson` with `file` changed by `edit`, then puts the file back.
    async fn grade_with(&self, lesson: u8, file: &str, edit: impl FnOnce(&mut Value)) -> Grade {
        let path = self.src.join(file);
        let original = std::fs::read_to_string(&path).unwrap();
        let mut v: Value = serde_json::from_str(&original).unwrap();
        edit(&mut v);
        std::fs::write(&path, v.to_string()).unwrap();
        let grade = self.grade(lesson).await;
        std::fs::write(&path, original).unwrap();
        grade
    }

    async fn kubectl(&self, args: &[&str]) {
        self.cluster.kubectl(args).await;
    }

    /// Waits (up to a minute of real time) until lesson `n` passes again after a fault.
    async fn passes_again(&self, n: u8) {
        let mut last = None;
        for _ in 0..120 {
            let g = self.grade(n).await;
            if g.passed() {
                return;
            }
            last = Some(g);
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        }
        panic!("lesson {n} does not pass again: {last:#?}");
    }
}

/// The failures of a grade, one per line.
fn failures(g: &Grade) -> String {
    g.findings
        .iter()
        .filter(|f| !f.ok)
        .map(|f| f.what.say(Lang::FALLBACK))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The grade fails, and some failure says each of `words`.
fn fails_saying(g: &Grade, case: &str, words: &[&str]) {
    assert!(!g.passed(), "{case}: passed but must fail: {g:#?}");
    let all = failures(g);
    assert!(
        g.findings
            .iter()
            .any(|f| !f.ok && words.iter().all(|w| f.what.say(Lang::FALLBACK).contains(w))),
        "{case}: no failure says {words:?}:\n{all}"
    );
}

fn passes(g: &Grade, case: &str) {
    assert!(g.passed(), "{case}: must pass:\n{}", failures(g));
}

async fn lab(dir: &Path) -> Lab {
    let state = dir.join("state");
    let out = capa(&state, &["do", "all", "--yes"]).await;
    assert!(out.status.success(), "do all failed:\n{}", text(&out));
    let cluster = Independent::start(&state, dir).await;
    Lab {
        client: client_for(&cluster.kubeconfig).await,
        src: state.join("capa-src"),
        bare: state.join("bare"),
        catalog: Catalog::embedded().unwrap(),
        cluster,
    }
}

/// The bare repo's `main` history, oldest first, with each commit's `waves/migrate.yaml`.
fn history(bare: &Path) -> Vec<(String, String)> {
    let repo = git2::Repository::open(bare.join("src.git")).unwrap();
    let mut walk = repo.revwalk().unwrap();
    walk.push_ref("refs/heads/main").unwrap();
    let mut out: Vec<(String, String)> = walk
        .flatten()
        .map(|oid| {
            let tree = repo.find_commit(oid).unwrap().tree().unwrap();
            let migrate = tree
                .get_path(Path::new("waves/migrate.yaml"))
                .ok()
                .and_then(|e| e.to_object(&repo).ok())
                .and_then(|o| {
                    o.as_blob()
                        .map(|b| String::from_utf8_lossy(b.content()).into_owned())
                })
                .unwrap_or_default();
            (oid.to_string(), migrate)
        })
        .collect();
    out.reverse();
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_evidence_fails_with_its_fix_and_right_evidence_passes_in_any_format() {
    let dir = tempfile::tempdir().unwrap();
    let lab = lab(dir.path()).await;
    for n in 1..=8 {
        passes(&lab.grade(n).await, &format!("lesson {n} after do all"));
    }

    // Lesson 6: the commit is the one that broke the migration, whole, in main's history.
    let commits = history(&lab.bare);
    let broken = commits
        .iter()
        .find(|(_, m)| m.contains("exit 1"))
        .unwrap()
        .0
        .clone();
    let fix = commits.last().unwrap().0.clone();
    assert_eq!(lab.evidence("failed-hook.json")["commit"], broken.as_str());
    let g = lab
        .grade_with(6, "failed-hook.json", |v| v["commit"] = json!(fix))
        .await;
    fails_saying(
        &g,
        "the fix commit",
        &["commit", &fix[..7], "broke the migration", &broken],
    );
    for (case, commit) in [("HEAD", "HEAD"), ("main", "main"), ("short", &broken[..7])] {
        let g = lab
            .grade_with(6, "failed-hook.json", |v| v["commit"] = json!(commit))
            .await;
        fails_saying(&g, case, &["commit", "40-character SHA"]);
    }
    let g = lab
        .grade_with(6, "failed-hook.json", |v| v["commit"] = json!(commits[0].0))
        .await;
    fails_saying(
        &g,
        "an older commit",
        &["sets data.mode", "broke the migration"],
    );
    for mode in ["", "green"] {
        let g = lab
            .grade_with(6, "failed-hook.json", |v| v["live_mode"] = json!(mode))
            .await;
        fails_saying(
            &g,
            "live_mode",
            &["live_mode", "blue", "while the operation is failing"],
        );
    }
    let g = lab
        .grade_with(6, "failed-hook.json", |v| v["phase"] = json!("Error"))
        .await;
    fails_saying(&g, "phase Error", &["phase", "Failed"]);
    let g = lab
        .grade_with(6, "failed-hook.json", |v| v["phase"] = json!("Running"))
        .await;
    fails_saying(
        &g,
        "phase Running",
        &["phase is Running", "record phase once it reads Failed"],
    );

    // Lesson 5: the hook Job's own name and time; times are instants in any offset.
    let waves = lab.evidence("waves.json");
    let g = lab
        .grade_with(5, "waves.json", |v| v["hook_job"] = json!("x"))
        .await;
    fails_saying(&g, "hook_job x", &["hook_job", "syncResult.resources"]);
    let g = lab
        .grade_with(5, "waves.json", |v| {
            v["hook_created"] = json!("2000-01-01T00:00:00Z");
        })
        .await;
    fails_saying(
        &g,
        "hook_created 2000",
        &["hook_created", "creationTimestamp"],
    );
    let plus = |field: &str| {
        let t: jiff::Timestamp = waves[field].as_str().unwrap().parse().unwrap();
        t.to_zoned(jiff::tz::TimeZone::fixed(jiff::tz::offset(8)))
            .strftime("%Y-%m-%dT%H:%M:%S%:z")
            .to_string()
    };
    let g = lab
        .grade_with(5, "waves.json", |v| {
            v["settings_created"] = json!(
                waves["settings_created"]
                    .as_str()
                    .unwrap()
                    .replace('Z', "+00:00")
            );
            v["hook_created"] = json!(plus("hook_created"));
        })
        .await;
    passes(&g, "times with +00:00 and +08:00");

    // Lesson 7: Unix seconds right after kubectl's scale, 40 s before the check.
    let ignore = lab.evidence("ignore.json");
    let g = lab
        .grade_with(7, "ignore.json", |v| {
            *v = json!({"scaled_at": 0, "checked_at": 40, "replicas": 4, "sync_status": "Synced"});
        })
        .await;
    fails_saying(&g, "scaled_at 0", &["scaled_at", "Unix seconds"]);
    let g = lab
        .grade_with(7, "ignore.json", |v| {
            v["scaled_at"] = json!(ignore["scaled_at"].as_i64().unwrap() * 1000);
            v["checked_at"] = json!(ignore["checked_at"].as_i64().unwrap() * 1000);
        })
        .await;
    fails_saying(&g, "milliseconds", &["scaled_at", "not milliseconds"]);
    let g = lab
        .grade_with(7, "ignore.json", |v| {
            v["scaled_at"] = json!(ignore["scaled_at"].as_i64().unwrap() - 600);
        })
        .await;
    fails_saying(
        &g,
        "scaled_at made up",
        &[
            "scaled_at",
            "kubectl wrote spec.replicas",
            "right after the scale",
        ],
    );
    let g = lab
        .grade_with(7, "ignore.json", |v| {
            v["checked_at"] = json!(ignore["checked_at"].as_i64().unwrap() + 86_400);
        })
        .await;
    fails_saying(&g, "checked_at tomorrow", &["checked_at", "in the future"]);
    let g = lab
        .grade_with(7, "ignore.json", |v| {
            v["replicas"] = json!(4.0);
            v["scaled_at"] = json!(ignore["scaled_at"].as_f64().unwrap());
        })
        .await;
    passes(&g, "replicas 4.0");

    // Lesson 2: numbers by value, strings against the cluster.
    let g = lab
        .grade_with(2, "precedence.json", |v| v["replicas"] = json!(3.0))
        .await;
    passes(&g, "replicas 3.0");
    let g = lab
        .grade_with(2, "precedence.json", |v| {
            v["greeting"] = json!("from-values-object")
        })
        .await;
    fails_saying(&g, "greeting guessed", &["greeting", "from-parameter"]);

    // Lesson 8 builds on earlier files that pass, and on the live facts.
    let g = lab.grade_with(6, "failed-hook.json", |_| {}).await;
    passes(&g, "unchanged");
    let path = lab.src.join("failed-hook.json");
    let original = std::fs::read_to_string(&path).unwrap();
    let mut bad: Value = serde_json::from_str(&original).unwrap();
    bad["live_mode"] = json!("green");
    std::fs::write(&path, bad.to_string()).unwrap();
    let g = lab
        .grade_with(8, "report.json", |v| v["hook_blocked_sync"] = json!(false))
        .await;
    fails_saying(
        &g,
        "report on a wrong failed-hook.json",
        &["failed-hook.json", "does not pass its own check"],
    );
    // What to do names the earlier lesson, not a detail of the cluster.
    let says_lesson = |g: &Grade, words: &[&str]| {
        g.findings.iter().any(|f| {
            !f.ok
                && f.what.say(Lang::FALLBACK).contains("failed-hook.json")
                && f.help
                    .as_ref()
                    .map(|h| h.say(Lang::FALLBACK))
                    .as_deref()
                    .is_some_and(|h| words.iter().all(|w| h.contains(w)))
        })
    };
    assert!(
        says_lesson(&g, &["fix lesson 6 first", "capa-tui check 6"]),
        "{}",
        failures(&g)
    );
    std::fs::remove_file(&path).unwrap();
    let g = lab.grade_with(8, "report.json", |_| {}).await;
    std::fs::write(&path, original).unwrap();
    fails_saying(
        &g,
        "report without failed-hook.json",
        &["failed-hook.json (lesson 6) is not written yet"],
    );
    assert!(
        says_lesson(&g, &["do lesson 6 first", "capa-tui do 6"]),
        "{}",
        failures(&g)
    );
    let g = lab
        .grade_with(8, "report.json", |v| {
            v["helm_winner"] = json!("valuesObject")
        })
        .await;
    fails_saying(
        &g,
        "helm_winner",
        &["helm_winner", "the cluster shows \"parameters\""],
    );

    // A wrong value gets its own field's hint (a walk saw a tracking annotation without its
    // empty group advised with the hint about the tracking method, and lesson 8's image source
    // and replicas owner with the one about Helm layers).
    for (lesson, file, field, wrong, hint) in [
        (
            3,
            "tracking.json",
            "tracking_annotation",
            json!("src-helm:ConfigMap:src-helm/src-helm-greeting"),
            3,
        ),
        (8, "report.json", "image_source", json!("git"), 3),
        (
            8,
            "report.json",
            "replicas_owner",
            json!("argocd-controller"),
            4,
        ),
        (8, "report.json", "helm_winner", json!("chart"), 2),
    ] {
        let g = lab
            .grade_with(lesson, file, |v| v[field] = wrong.clone())
            .await;
        let differs = g
            .findings
            .iter()
            .find(|f| {
                !f.ok
                    && f.what.say(Lang::FALLBACK).contains(field)
                    && f.what.say(Lang::FALLBACK).contains("the cluster shows")
            })
            .unwrap_or_else(|| panic!("{field}: {}", failures(&g)));
        assert_eq!(differs.hint, Some(hint), "{field}: {differs:?}");
    }

    // A recorded value that differs from the cluster's gets advice by its cause: written after
    // the sync ended, the value itself is wrong (the lesson's hint); written before the sync
    // ended, it was read too early (write it again), whatever field it is.
    for (case, age, hint, help) in [
        ("written now", 0, Some(2), None),
        (
            "written an hour before the sync ended",
            3600,
            None,
            Some("read too early"),
        ),
    ] {
        let path = lab.src.join("precedence.json");
        let original = std::fs::read_to_string(&path).unwrap();
        let mut v: Value = serde_json::from_str(&original).unwrap();
        v["replicas"] = json!(2);
        std::fs::write(&path, v.to_string()).unwrap();
        let then = std::time::SystemTime::now() - std::time::Duration::from_secs(age);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(then)
            .unwrap();
        let g = lab.grade(2).await;
        std::fs::write(&path, original).unwrap();
        let differs = g
            .findings
            .iter()
            .find(|f| {
                !f.ok
                    && f.what
                        .say(Lang::FALLBACK)
                        .contains("replicas is 2 but the cluster shows 3")
            })
            .unwrap_or_else(|| panic!("{case}: {}", failures(&g)));
        assert_eq!(differs.hint, hint, "{case}: {differs:?}");
        assert_eq!(
            differs
                .help
                .as_ref()
                .map(|h| h.say(Lang::FALLBACK))
                .as_deref()
                .map(|h| h.contains(help.unwrap_or_default())),
            help.map(|_| true),
            "{case}: {differs:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_steps_each_lesson_left_in_the_cluster_are_checked_and_a_check_that_cannot_decide_fails()
 {
    let dir = tempfile::tempdir().unwrap();
    let lab = lab(dir.path()).await;

    // Lesson 2 without parameters: the app spec says what is missing, and lesson 8 fails too.
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "app",
        "src-helm",
        "--type",
        "json",
        "-p",
        r#"[{"op": "remove", "path": "/spec/source/helm/parameters"}]"#,
    ])
    .await;
    fails_saying(
        &lab.grade(2).await,
        "no parameters",
        &[
            "src-helm's spec.source.helm.parameters",
            "from-parameter",
            "kubectl apply",
        ],
    );
    fails_saying(
        &lab.grade(8).await,
        "report without parameters",
        &["precedence.json", "does not pass"],
    );
    lab.kubectl(&["-n", "argocd", "patch", "app", "src-helm", "--type", "json", "-p",
        r#"[{"op": "add", "path": "/spec/source/helm/parameters", "value": [{"name": "greeting", "value": "from-parameter"}]}]"#]).await;
    lab.passes_again(2).await;

    // Lesson 7 without selfHeal.
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "app",
        "src-kust",
        "--type",
        "merge",
        "-p",
        r#"{"spec": {"syncPolicy": {"automated": {"selfHeal": false}}}}"#,
    ])
    .await;
    fails_saying(
        &lab.grade(7).await,
        "no selfHeal",
        &["spec.syncPolicy.automated.selfHeal", "true"],
    );
    // Lesson 4 without the image override: the Pods go back to Git's image.
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "app",
        "src-kust",
        "--type",
        "json",
        "-p",
        r#"[{"op": "remove", "path": "/spec/source/kustomize"}]"#,
    ])
    .await;
    fails_saying(
        &lab.grade(4).await,
        "no image override",
        &[
            "src-kust's spec.source.kustomize",
            "nginx=nginx:1.28-alpine",
        ],
    );
    lab.kubectl(&["-n", "argocd", "patch", "app", "src-kust", "--type", "merge", "-p",
        r#"{"spec": {"source": {"kustomize": {"images": ["nginx=nginx:1.28-alpine"]}}, "syncPolicy": {"automated": {"selfHeal": true}}}}"#]).await;
    lab.passes_again(4).await;
    lab.passes_again(7).await;

    // Lesson 7 with its syncOptions replaced rather than added to (a listed mistake): a walk
    // dropped CreateNamespace=true and passed every check.
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "app",
        "src-kust",
        "--type",
        "merge",
        "-p",
        r#"{"spec": {"syncPolicy": {"syncOptions": ["RespectIgnoreDifferences=true"]}}}"#,
    ])
    .await;
    fails_saying(
        &lab.grade(7).await,
        "no CreateNamespace",
        &["spec.syncPolicy.syncOptions", "CreateNamespace=true"],
    );
    lab.kubectl(&["-n", "argocd", "patch", "app", "src-kust", "--type", "merge", "-p",
        r#"{"spec": {"syncPolicy": {"syncOptions": ["RespectIgnoreDifferences=true", "CreateNamespace=true"]}}}"#]).await;
    lab.passes_again(7).await;

    // Lesson 1 with src-helm broken: a values file that is not there.
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "app",
        "src-helm",
        "--type",
        "merge",
        "-p",
        r#"{"spec": {"source": {"helm": {"valueFiles": ["values-missing.yaml"]}}}}"#,
    ])
    .await;
    fails_saying(
        &lab.grade(1).await,
        "broken src-helm",
        &["spec.source.helm.valueFiles", "values-prod.yaml"],
    );

    // The hook Job gone: its time cannot be confirmed, and the check says so.
    let hook = lab.evidence("waves.json")["hook_job"]
        .as_str()
        .unwrap()
        .to_string();
    lab.kubectl(&["-n", "src-waves", "delete", "job", &hook])
        .await;
    fails_saying(
        &lab.grade(5).await,
        "hook gone",
        &[&hook, "cannot be checked", "record the new hook Job"],
    );

    // The cluster unreachable: nothing passes.
    let nowhere =
        kube::Client::try_from(kube::Config::new("http://127.0.0.1:1".parse().unwrap())).unwrap();
    let ctx = Context {
        client: &nowhere,
        catalog: &lab.catalog,
        src_dir: &lab.src,
        bare_dir: &lab.bare,
        clock: None,
    };
    for l in lab.catalog.lessons() {
        let g = check::grade_lesson(l, &ctx).await;
        fails_saying(
            &g,
            &format!("lesson {} unreachable", l.spec.number),
            &["cannot"],
        );
    }
}

/// Lesson 7's plan scales with `kubectl scale`, as the lab says; without kubectl it stops and
/// says what to do, instead of scaling some other way that leaves another manager as owner.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lesson_7_without_kubectl_stops_and_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    for lesson in ["1", "4"] {
        let out = capa(&state, &["do", lesson, "--yes"]).await;
        assert!(out.status.success(), "do {lesson}:\n{}", text(&out));
    }
    // A PATH with git and nothing else.
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(which::which("git").unwrap(), bin.join("git")).unwrap();
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(["do", "7", "--yes", "--sim", "--speed", "10", "--state-dir"])
        .arg(&state)
        .env("PATH", &bin)
        .kill_on_drop(true)
        .output()
        .await
        .unwrap();
    let said = text(&out);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("kubectl is not on PATH") && said.contains("scripts/install-tools"),
        "{said}"
    );
    assert!(!state.join("capa-src/ignore.json").exists(), "{said}");
    let cluster = Independent::start(&state, dir.path()).await;
    let api = cluster
        .json(&["-n", "src-kust", "get", "deploy", "prod-api"])
        .await;
    assert_eq!(
        api["spec"]["replicas"], 2,
        "prod-api was not scaled some other way"
    );
}
