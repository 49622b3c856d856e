//! The headless lab commands: `do`, `check`, `status`, `doctor`. They print what the `lab`
//! engine and checks report; the work itself lives in `lab`.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};

use std::sync::Arc;

use super::Global;
use crate::cluster::argocd;
use crate::i18n::Lang;
use crate::lab::catalog::{Catalog, Lesson};
use crate::lab::engine::{self, Progress};
use crate::lab::eval::{check as grading, evidence};
use crate::lab::fit::Fit;
use crate::lab::spec::Step;
use crate::session::Session;
use crate::session::shell_env::ShellEnv;

async fn session(g: &Global) -> Result<Session, i32> {
    let options = g.session_options();
    Session::open(options).await.map_err(|e| {
        eprintln!("capa-tui: {e}");
        1
    })
}

/// The lessons and templates to use, or the exit code after saying why they do not load.
fn catalog(g: &Global) -> Result<Arc<Catalog>, i32> {
    g.catalog().map_err(|e| {
        eprintln!("capa-tui: {e}");
        1
    })
}

/// The language the command speaks: the settings' (flags, environment, config file, locale).
fn lang(g: &Global) -> Lang {
    g.settings().map_or_else(
        |_| Lang::from_locale(&|k| std::env::var(k).ok()),
        |s| s.lang.value,
    )
}

fn pick_lessons(catalog: &Catalog, key: &str) -> Result<Vec<Lesson>, i32> {
    let all = catalog.lessons();
    if key == "all" {
        return Ok(all.to_vec());
    }
    match catalog.find(key) {
        Some(l) => Ok(vec![l.clone()]),
        None => {
            let names: Vec<String> = all
                .iter()
                .map(|l| format!("{} ({})", l.spec.number, l.spec.slug))
                .collect();
            eprintln!(
                "capa-tui: no lesson {key:?}; the lessons are: {}, or all",
                names.join(", ")
            );
            Err(2)
        }
    }
}

pub async fn do_lessons(g: &Global, key: &str, yes: bool, timeout: u64) -> i32 {
    let catalog = match catalog(g) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let lessons = match pick_lessons(&catalog, key) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let lang = lang(g);
    let mut plans = Vec::new();
    for lesson in &lessons {
        match engine::plan(lesson) {
            Ok(steps) => plans.push((lesson, steps)),
            Err(e) => {
                eprintln!("capa-tui: {e}");
                return 1;
            }
        }
    }
    let s = match session(g).await {
        Ok(s) => s,
        Err(code) => return code,
    };
    print_plans(&s, &plans, lang);
    let code = match confirm(&s, yes) {
        Ok(()) => {
            let runner = s.runner(catalog.clone(), lang, Duration::from_secs(timeout));
            run_plans(&runner, &plans, lang).await
        }
        Err(code) => code,
    };
    s.close().await;
    code
}

/// The target, the folders and every step with its command, before anything changes.
fn print_plans(s: &Session, plans: &[(&Lesson, Vec<Step>)], lang: Lang) {
    let fit = Fit::for_paths(&s.paths);
    println!("capa-tui is about to change {}.", s.target);
    println!(
        "Source dir: {}   Bare repos: {}",
        s.paths.src_dir.display(),
        s.paths.bare_dir.display()
    );
    for (lesson, steps) in plans {
        println!("\nLesson {} · {}", lesson.spec.number, lesson.title(lang));
        for (i, step) in steps.iter().enumerate() {
            println!(
                "  {:>2}. {}\n      $ {}",
                i + 1,
                step.title(lang),
                step.command(&fit)
            );
        }
    }
}

/// Asks before changing anything (unless `--yes`) and makes sure the source dir can be written;
/// `Err` carries the exit code.
fn confirm(s: &Session, yes: bool) -> Result<(), i32> {
    if !yes {
        if !std::io::stdin().is_terminal() {
            eprintln!("\ncapa-tui: not asking on a non-interactive input; add --yes to go ahead");
            return Err(2);
        }
        print!("\nGo ahead? [y/N] ");
        let _ = std::io::stdout().flush();
        let mut answer = String::new();
        let _ = std::io::stdin().read_line(&mut answer);
        if !matches!(answer.trim(), "y" | "Y" | "yes") {
            println!("Nothing was changed.");
            return Err(1);
        }
    }
    std::fs::create_dir_all(&s.paths.src_dir).map_err(|e| {
        eprintln!(
            "capa-tui: cannot create the source dir {}: {e}. Pass a writable --src-dir.",
            s.paths.src_dir.display()
        );
        1
    })
}

/// Runs the plans in order, printing progress, until one fails or Ctrl-C; the exit code.
async fn run_plans(runner: &engine::Runner, plans: &[(&Lesson, Vec<Step>)], lang: Lang) -> i32 {
    let (cancel_tx, cancel_rx) = watch::channel(false);
    tokio::spawn(async move {
        super::wait_for_stop_signal().await;
        let _ = cancel_tx.send(true);
    });
    for (lesson, steps) in plans {
        println!(
            "\n== Lesson {} · {}",
            lesson.spec.number,
            lesson.title(lang)
        );
        let (tx, mut rx) = mpsc::unbounded_channel();
        let started = Instant::now();
        let printer = tokio::spawn(async move {
            while let Some(p) = rx.recv().await {
                match p {
                    Progress::Started {
                        step,
                        title,
                        command,
                    } => println!("[{step}] {title}\n    $ {command}"),
                    Progress::Blocker { line, .. } => println!("    … {line}"),
                    Progress::Done { summary, .. } => println!("    ✓ {summary}"),
                    Progress::Failed { error, .. } => println!("    ✗ {error}"),
                }
            }
        });
        let result = runner
            .run(lesson.spec.number, steps, tx, cancel_rx.clone())
            .await;
        let _ = printer.await;
        if let Err(e) = result {
            eprintln!("capa-tui: lesson {}: {e}", lesson.spec.number);
            return if matches!(e, engine::RunError::Cancelled { .. }) {
                130
            } else {
                1
            };
        }
        println!(
            "== lesson {} done in {:.1}s",
            lesson.spec.number,
            started.elapsed().as_secs_f64()
        );
    }
    0
}

pub async fn check(g: &Global, key: &str, as_json: bool) -> i32 {
    let catalog = match catalog(g) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let lessons = match pick_lessons(&catalog, key) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let s = match session(g).await {
        Ok(s) => s,
        Err(code) => return code,
    };
    let lang = lang(g);
    let ctx = evidence::Context {
        client: &s.client,
        catalog: &catalog,
        lang,
        src_dir: &s.paths.src_dir,
        bare_dir: &s.paths.bare_dir,
    };
    // Hints are shown with this lab's paths and commands.
    let fit = Fit::for_paths(&s.paths);
    let mut grades = Vec::new();
    for lesson in &lessons {
        grades.push((lesson, grading::grade_lesson(lesson, &ctx).await));
    }
    let passed = grades.iter().all(|(_, g)| g.passed());
    if as_json {
        let out: Vec<Value> = grades.iter().map(|(l, g)| json!({"lesson": l.spec.number, "file": (!g.file.is_empty()).then_some(&g.file), "passed": g.passed(), "findings": g.findings})).collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({"passed": passed, "files": out}))
                .unwrap_or_default()
        );
    } else {
        for (lesson, grade) in &grades {
            println!(
                "{} {} (lesson {} · {})",
                if grade.passed() {
                    "✓ PASS"
                } else {
                    "✗ FAIL"
                },
                if grade.file.is_empty() {
                    "steps"
                } else {
                    &grade.file
                },
                lesson.spec.number,
                lesson.title(lang)
            );
            for f in &grade.findings {
                if f.ok {
                    println!("    ✓ {}", f.what);
                } else {
                    let hint = f
                        .hint
                        .and_then(|h| lesson.text(lang).hints.get(h - 1).map(|t| (h, t)));
                    println!("    ✗ {}", f.what);
                    if let Some((n, text)) = hint {
                        println!("      hint {n}: {}", fit.render(text));
                    }
                }
            }
        }
    }
    s.close().await;
    if passed { 0 } else { 1 }
}

pub async fn status(g: &Global, as_json: bool) -> i32 {
    let s = match session(g).await {
        Ok(s) => s,
        Err(code) => return code,
    };
    let catalog = match catalog(g) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let lang = lang(g);
    let lessons = catalog.lessons();
    let mut apps = Vec::new();
    for name in catalog.apps() {
        let row = match argocd::application(s.client.clone(), argocd::NAMESPACE, name).await {
            Ok(a) => json!({
                "name": name,
                "sync": a.status.sync.status,
                "health": a.status.health.status,
                "revision": a.git_revision(),
                "operation": a.status.operation_state.as_ref().map(|o| &o.phase),
                "message": a.status.operation_state.as_ref().map(|o| &o.message),
            }),
            Err(_) => json!({"name": name, "missing": true}),
        };
        apps.push(row);
    }
    let evidence: Vec<Value> = lessons
        .iter()
        .filter_map(|l| l.evidence_file().map(|f| json!({"lesson": l.spec.number, "file": f, "present": s.paths.evidence(f).exists()})))
        .collect();
    let progress = crate::lab::progress::load(&s.paths.src_dir);
    let checklists = checklist_summary(lessons, &progress, lang);
    if as_json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "target": s.target,
                "applications": apps,
                "evidence": evidence,
                "progress": {"lesson": progress.lesson, "section": progress.section, "checklists": checklists, "answers": progress.answers},
            }))
            .unwrap_or_default()
        );
    } else {
        println!("{}", s.target);
        for a in &apps {
            if a["missing"] == true {
                println!(
                    "  {:<10} (not created yet)",
                    a["name"].as_str().unwrap_or_default()
                );
            } else {
                let rev = a["revision"]
                    .as_str()
                    .map(|r| &r[..r.len().min(7)])
                    .unwrap_or("-");
                println!(
                    "  {:<10} {:<10} {:<12} {rev:<8} {}",
                    a["name"].as_str().unwrap_or_default(),
                    a["sync"].as_str().unwrap_or("-"),
                    a["health"].as_str().unwrap_or("-"),
                    a["operation"].as_str().unwrap_or("")
                );
            }
        }
        for e in &evidence {
            println!(
                "  {} {}",
                if e["present"] == true { "✓" } else { "·" },
                e["file"].as_str().unwrap_or_default()
            );
        }
        print_progress(&progress, &checklists, lang);
    }
    s.close().await;
    0
}

/// Each lesson's checklist as kept with the lab: steps done (with when) of all.
fn checklist_summary(
    lessons: &[Lesson],
    progress: &crate::lab::progress::Progress,
    lang: Lang,
) -> Vec<Value> {
    lessons
        .iter()
        .filter(|l| !l.spec.checklist.is_empty())
        .map(|l| {
            let ticks = progress.ticks.get(&l.id());
            let steps: Vec<Value> = l
                .spec
                .checklist
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    json!({"step": item.step.get(lang), "done_at": ticks.and_then(|t| t.get(&i)).map(|t| t.to_string())})
                })
                .collect();
            json!({"lesson": l.spec.number, "done": ticks.map_or(0, |t| t.len()), "of": l.spec.checklist.len(), "steps": steps})
        })
        .collect()
}

fn print_progress(progress: &crate::lab::progress::Progress, checklists: &[Value], lang: Lang) {
    match progress.lesson {
        Some(n) => println!("Progress: on lesson {n}, {}", progress.section.name(lang)),
        None => println!("Progress: the tutor has not been opened on this lab yet"),
    }
    for c in checklists {
        println!(
            "  lesson {}: {}/{} steps done",
            c["lesson"], c["done"], c["of"]
        );
    }
    for (question, answer) in &progress.answers {
        println!("  prediction {question}: {answer}");
    }
}

pub async fn doctor(g: &Global) -> i32 {
    let mut ok = true;
    let mut line = |good: bool, what: String| {
        ok &= good;
        println!("{} {what}", if good { "✓" } else { "✗" });
    };
    let s = match session(g).await {
        Ok(s) => s,
        Err(_) => {
            line(
                false,
                "no cluster: pass --kubeconfig/--context, set KUBECONFIG, or use --sim".into(),
            );
            return 1;
        }
    };
    line(true, format!("target: {}", s.target));
    match s.client.apiserver_version().await {
        Ok(v) => line(true, format!("API reachable: Kubernetes {}", v.git_version)),
        Err(e) => line(
            false,
            format!("API not reachable: {}", crate::cluster::explain(e)),
        ),
    }
    let crd = argocd::raw_get(
        s.client.clone(),
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/applications.argoproj.io",
    )
    .await;
    line(
        crd.is_ok(),
        if crd.is_ok() {
            "the Application CRD is installed".into()
        } else {
            "the Application CRD is missing: is Argo CD installed?".into()
        },
    );
    let cm = argocd::raw_get(
        s.client.clone(),
        "/api/v1/namespaces/argocd/configmaps/argocd-cm",
    )
    .await;
    match &cm {
        Ok(cm) => {
            let method = cm["data"]["application.resourceTrackingMethod"]
                .as_str()
                .unwrap_or("(unset: annotation, the 3.x default)");
            line(
                true,
                format!(
                    "Argo CD is in namespace argocd; application.resourceTrackingMethod: {method}"
                ),
            );
        }
        Err(e) => line(
            false,
            format!(
                "argocd-cm not readable in namespace argocd ({e}): is Argo CD installed there?"
            ),
        ),
    }
    let bare = &s.paths.bare_dir;
    let writable = std::fs::create_dir_all(bare).is_ok() && tempfile::tempfile_in(bare).is_ok();
    line(
        writable,
        format!(
            "bare dir {} {}",
            bare.display(),
            if writable {
                "is writable"
            } else {
                "is not writable: pass --bare-dir"
            }
        ),
    );
    let kubectl = which::which("kubectl").is_ok();
    // Not a failure: the tutor's shell and `capa-tui shell` put it first on PATH.
    println!(
        "{} jq is {}",
        if which::which("jq").is_ok() {
            "✓"
        } else {
            "·"
        },
        if which::which("jq").is_ok() {
            "on PATH (the lessons' by-hand commands write evidence with it)"
        } else {
            "not on PATH: the lessons' by-hand commands write evidence with it (apt-get install jq)"
        }
    );
    line(
        kubectl,
        if kubectl {
            "kubectl is on PATH".into()
        } else {
            "kubectl is not on PATH: lesson 7 stops at its kubectl scale step (run scripts/install-tools and add .tools/bin to PATH)".into()
        },
    );
    s.close().await;
    if ok { 0 } else { 1 }
}

/// `capa-tui env`: export lines for the lab's environment, without starting anything.
pub fn env(g: &Global) -> i32 {
    let options = g.session_options();
    let env = if g.sim {
        let place = options.place();
        ShellEnv::new(&place.paths, Some(&place.kubeconfig), "sim")
    } else {
        let paths = crate::lab::paths::LabPaths::resolve(options.src_dir, options.bare_dir);
        ShellEnv::new(
            &paths,
            options.kubeconfig,
            options.context.unwrap_or("cluster"),
        )
    };
    print!("{}", env.exports());
    println!(
        "# eval \"$(capa-tui env{})\" puts these in your shell",
        if g.sim { " --sim" } else { "" }
    );
    0
}

/// `capa-tui shell`: a subshell with the lab's environment; returns its exit code.
pub async fn shell(g: &Global) -> i32 {
    let s = match session(g).await {
        Ok(s) => s,
        Err(code) => return code,
    };
    let env = s.shell_env();
    let code = match run_subshell(&env, &s.paths.src_dir.join(".capa-tui")).await {
        Ok(code) => code,
        Err(e) => {
            eprintln!("capa-tui shell: {e}");
            1
        }
    };
    s.close().await;
    code
}

async fn run_subshell(env: &ShellEnv, rc_dir: &std::path::Path) -> Result<i32, String> {
    std::fs::create_dir_all(&env.cwd)
        .map_err(|e| format!("cannot create {}: {e}", env.cwd.display()))?;
    let (program, args) = env.command(rc_dir).map_err(|e| e.to_string())?;
    eprintln!(
        "capa-tui: a shell for the lab on {} in {} (exit it to come back)",
        env.label,
        env.cwd.display()
    );
    let (ps1, ps1_value) = env.prompt_var();
    let status = tokio::process::Command::new(&program)
        .args(&args)
        .envs(env.vars.iter().map(|(k, v)| (k, v)))
        .env(ps1, ps1_value)
        .current_dir(&env.cwd)
        .status()
        .await
        .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
    Ok(status.code().unwrap_or(1))
}
