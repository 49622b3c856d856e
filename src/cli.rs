//! Command-line arguments and dispatch. Holds no logic of its own: each subcommand hands off to
//! the module that owns the work (`sim`, `cluster`, `lab`).

mod cluster_commands;
mod lab_commands;
mod lesson_commands;
pub mod out;
mod replay_command;

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::i18n::Say;
use crate::t;
use crate::{errln, out, outln};

#[derive(Debug, Parser)]
#[command(
    name = "capa-tui",
    version,
    about = "A terminal tutor for how Argo CD really decides things"
)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    /// Open the tutor on this lesson (its number or name) [default: where the learner was,
    /// else the first lesson whose checklist is not done].
    #[arg(long)]
    pub lesson: Option<String>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Options every command understands.
#[derive(Debug, Args)]
pub struct Global {
    /// Work on the embedded lab cluster: the one already serving this state dir, else started
    /// here.
    #[arg(long, global = true)]
    pub sim: bool,
    /// With --sim: run the cluster's clock this many times faster than real time [default: 1;
    /// `lesson test`: 10].
    #[arg(long, global = true)]
    pub speed: Option<f64>,
    /// With --sim: keep the cluster and the lab's folders here [default: ~/.local/state/capa-tui/sim].
    #[arg(long, global = true)]
    pub state_dir: Option<PathBuf>,
    /// The kubeconfig to use [default: $KUBECONFIG, then ~/.kube/config, then k3s's
    /// /etc/rancher/k3s/k3s.yaml].
    #[arg(long, global = true)]
    pub kubeconfig: Option<PathBuf>,
    /// The kubeconfig context to use [default: its current context].
    #[arg(long, global = true)]
    pub context: Option<String>,
    /// The tutor: also record the session into FILE as an asciicast v2 file (`asciinema play
    /// FILE` shows it, as does asciinema's web player), and the messages it drew from into
    /// FILE's .replay beside it (`capa-tui replay` plays them again, in any language and size).
    #[arg(long, global = true, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Play a session recorded with --record (its .replay file) instead of opening the tutor:
    /// no cluster needed; with --present, a demo for a room that cannot fail.
    #[arg(long, global = true, value_name = "FILE")]
    pub replay: Option<PathBuf>,
    /// One of many learners on one cluster: the lab's Applications, namespaces and bare repos
    /// get this learner's own names (alice-src-helm, alice-src.git), and the source dir is
    /// their own (/root/capa-src-alice). Lowercase letters, digits and '-'.
    #[arg(long, global = true, env = "CAPA_LEARNER", value_parser = learner_name)]
    pub learner: Option<crate::lab::learner::Learner>,
    /// The learner's source dir (working copy, app-*.yaml, evidence) [default: $CAPA_SRC_DIR or /root/capa-src].
    #[arg(long, global = true)]
    pub src_dir: Option<PathBuf>,
    /// The bare git repos' root [default: $CAPA_BARE_DIR or /srv/bare].
    #[arg(long, global = true)]
    pub bare_dir: Option<PathBuf>,
    /// Present to a room: the projector theme, fewer and larger panes, the last key pressed
    /// shown, and PgDn/space running the next action in step mode (g) [default: $CAPA_PRESENT,
    /// then the config file].
    #[arg(long, global = true, overrides_with = "no_present")]
    pub present: bool,
    /// Do not present, whatever $CAPA_PRESENT or the config file say.
    #[arg(long, global = true)]
    pub no_present: bool,
    /// The colour theme [default: $CAPA_THEME, then the config file, then monochrome when
    /// NO_COLOR is set, projector when presenting].
    #[arg(long, global = true, value_enum)]
    pub theme: Option<crate::config::ThemeName>,
    /// With --sim: start a new lab, moving the old state dir aside under a timestamped name
    /// (nothing is deleted).
    #[arg(long, global = true)]
    pub fresh: bool,
    /// Lesson language: en, zh or ko [default: $CAPA_LANG, then the config file, then the locale].
    #[arg(long, global = true)]
    pub lang: Option<String>,
    /// Take the lesson files from this folder (laid out like repo-template/) instead of the
    /// built-in ones; `builtin` for those. Kept with the lab: later commands on it use it.
    #[arg(long, global = true)]
    pub templates: Option<PathBuf>,
    /// Take the lessons from this folder (laid out like lessons/: one folder per lesson with
    /// lesson.yaml and a <lang>.md per language) instead of the built-in ones; `builtin` for
    /// those. Kept with the lab: later commands on it use it.
    #[arg(long, global = true)]
    pub lessons: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum ClassCommand {
    /// Keep this lab as its self-check reads it now (evidence, progress, working copy, bare
    /// repos, and the cluster's answers) in DIR, to grade after class (with the usual cluster,
    /// --learner and folder options).
    Collect {
        #[arg(long)]
        out: PathBuf,
    },
    /// Grade collected labs with no cluster and print the room: learner × lesson (passed,
    /// failed with the first reason, not started), hints used, predictions right.
    Report {
        /// The collected labs (`class collect --out DIR`); none with --watch.
        #[arg(required_unless_present = "watch")]
        dirs: Vec<PathBuf>,
        /// Keep the table on screen, live on the shared cluster the usual options name: every
        /// learner's lab there, graded again whenever an Application or a learner's folder
        /// changes (for the projector; Ctrl-C ends it).
        #[arg(long, conflicts_with = "dirs")]
        watch: bool,
        /// Also write the table as CSV (a row per learner and lesson).
        #[arg(long)]
        csv: Option<PathBuf>,
        /// Also write it as one self-contained HTML page.
        #[arg(long)]
        html: Option<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The embedded lab cluster (a Kubernetes API server with Argo CD on loopback).
    #[command(subcommand)]
    Sim(SimCommand),
    /// Argo CD Application operations that work on any cluster (no argocd CLI needed).
    App(AppArgs),
    /// Do a lesson (or all) for you: commit and push, apply, wait, and save the evidence.
    Do {
        /// The lesson's number (1–8) or name, or `all`.
        lesson: String,
        /// Do not ask before changing anything.
        #[arg(long)]
        yes: bool,
        /// The longest any single wait may take, in seconds.
        #[arg(long, default_value_t = 600)]
        timeout: u64,
    },
    /// Grade the evidence files against the live cluster, as the lab's grader would.
    Check {
        /// The lesson's number or name, or `all`.
        #[arg(default_value = "all")]
        lesson: String,
        #[arg(long)]
        json: bool,
    },
    /// For instructors: a learner's lab collected after class, and the room's labs graded
    /// with no cluster into one table.
    #[command(subcommand)]
    Class(ClassCommand),
    /// The lab's Applications and progress.
    Status {
        #[arg(long)]
        json: bool,
    },
    /// Check that everything the lab needs is in place.
    Doctor,
    /// A shell with the lab's environment (KUBECONFIG, kubectl and helm on PATH, CAPA_SRC_DIR,
    /// CAPA_BARE_DIR), in the working copy; with --sim the embedded cluster runs until you exit.
    Shell,
    /// Play a session recorded with --record: no cluster needed, in any language (--lang, L) and
    /// size; space plays and pauses, PgDn/PgUp step, ←/→ seek, +/− change the speed (--speed
    /// sets it). --export cast draws it into an asciicast file at --size instead.
    Replay(replay_command::ReplayArgs),
    /// Show the settings in effect (theme, language, presenting), where each came from, and the
    /// config file's path ($CAPA_CONFIG, else capa-tui/config.toml in the XDG config dir).
    Config,
    /// Print a shell completion script: capa-tui completions bash > /etc/bash_completion.d/capa-tui
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): capa-tui man | man -l -
    Man,
    /// For instructors: check, test, start and describe lessons (lesson.yaml folders).
    #[command(subcommand)]
    Lesson(LessonCommand),
    /// Print the lab's environment as export lines: eval "$(capa-tui env --sim)". With --sim it
    /// works while a `capa-tui --sim` tutor or `capa-tui sim serve` runs on the same state dir.
    Env,
}

#[derive(Debug, Subcommand)]
pub enum LessonCommand {
    /// Check lessons without a cluster: every problem at once, each at its file:line:column with
    /// what to do. PATH is a folder of lessons, one lesson folder, or a lesson.yaml; the lesson
    /// files come from --templates (else the built-in ones).
    Lint { path: PathBuf },
    /// Print the JSON Schema of lesson.yaml (editors complete and check a lesson.yaml whose first
    /// line is `# yaml-language-server: $schema=<this schema>`).
    Schema,
    /// Make a lesson folder NAME (NN-slug, e.g. 09-greeting) from a commented skeleton that lints
    /// clean: lesson.yaml and its text in every language.
    New {
        name: String,
        /// Make it in this folder of lessons [default: the current folder].
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Try lessons on a fresh embedded cluster: lint them, run each plan (LESSON with the
    /// lessons it requires, else all), time every step, grade the evidence, then grade broken
    /// copies the rules must refuse (a field of the wrong type, a value one off, a rule crossed).
    /// Exit code 1 on any failure; the lab is then kept for a look.
    Test {
        /// A folder of lessons (laid out like lessons/); the lesson files come from --templates
        /// (else the built-in ones).
        path: PathBuf,
        /// The lesson's number or name [default: all].
        lesson: Option<String>,
        /// The longest any single wait may take, in seconds.
        #[arg(long, default_value_t = 600)]
        timeout: u64,
    },
}

#[derive(Debug, Subcommand)]
pub enum SimCommand {
    /// Serve the lab's embedded cluster until interrupted (Ctrl-C or SIGTERM); `capa-tui --sim`
    /// and the other --sim commands on the same state dir use it.
    Serve(ServeArgs),
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Loopback address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:0")]
    pub listen: SocketAddr,
    /// Write a kubeconfig for the cluster here once it is serving [default: <state-dir>/kubeconfig].
    #[arg(long)]
    pub kubeconfig_out: Option<PathBuf>,
    /// A journal damaged at line N stops the cluster: keep every change before line N (and a
    /// copy of the whole journal beside it), then serve.
    #[arg(long)]
    pub repair_journal: bool,
}

#[derive(Debug, Args)]
pub struct AppArgs {
    /// The namespace Argo CD's Applications live in.
    #[arg(long, short = 'n', default_value = "argocd")]
    pub namespace: String,
    #[command(subcommand)]
    pub command: AppCommand,
}

#[derive(Debug, Subcommand)]
pub enum AppCommand {
    /// Ask Argo CD to compare the Application again now (the refresh annotation).
    Refresh {
        name: String,
        /// Also regenerate the manifests (skip the repo server's cache).
        #[arg(long)]
        hard: bool,
    },
    /// End the Application's running operation, as `argocd app terminate-op --core` does.
    TerminateOp { name: String },
}

impl Global {
    /// The theme, language and presenting in effect: flags, environment, config file.
    pub fn settings(&self) -> Result<crate::config::Settings, crate::config::ConfigError> {
        let flags = crate::config::Flags {
            theme: self.theme,
            lang: self.lang.as_deref(),
            present: if self.no_present {
                Some(false)
            } else {
                self.present.then_some(true)
            },
        };
        crate::config::resolve(
            flags,
            &|k| std::env::var(k).ok(),
            crate::config::path().as_deref(),
        )
    }

    /// Which cluster and folders a lab command works on.
    pub fn session_options(&self) -> crate::session::Options<'_> {
        crate::session::Options {
            sim: self.sim,
            speed: self.speed.unwrap_or(1.0),
            state_dir: self.state_dir.as_deref(),
            kubeconfig: self.kubeconfig.as_deref(),
            context: self.context.as_deref(),
            src_dir: self.src_dir.as_deref(),
            bare_dir: self.bare_dir.as_deref(),
            fresh: self.fresh,
            learner: self.learner.as_ref(),
        }
    }
}

/// `--learner`'s value, or why it is not one (in English: clap says it before any language is
/// chosen).
fn learner_name(s: &str) -> Result<crate::lab::learner::Learner, String> {
    crate::lab::learner::Learner::parse(s).map_err(|e| e.to_string())
}

/// Runs the parsed command; returns the process exit code.
pub async fn run(cli: Cli) -> i32 {
    let mut g = cli.global;
    // `--learner`, then `CAPA_LEARNER` (both through clap), then the config file's `learner`.
    if g.learner.is_none() {
        match crate::config::learner_in_file(crate::config::path().as_deref()) {
            Ok(learner) => g.learner = learner,
            Err(e) => {
                errln!("capa-tui: {}", e.say(lab_commands::lang(&g)));
                return 2;
            }
        }
    }
    match cli.command {
        Some(Command::Sim(SimCommand::Serve(args))) => cluster_commands::serve(&g, args).await,
        Some(Command::App(args)) => cluster_commands::app(&g, args).await,
        Some(Command::Do {
            lesson,
            yes,
            timeout,
        }) => lab_commands::do_lessons(&g, &lesson, yes, timeout).await,
        Some(Command::Check { lesson, json }) => lab_commands::check(&g, &lesson, json).await,
        Some(Command::Status { json }) => lab_commands::status(&g, json).await,
        Some(Command::Class(ClassCommand::Collect { out })) => {
            lab_commands::class::collect(&g, &out).await
        }
        Some(Command::Class(ClassCommand::Report {
            dirs,
            watch,
            csv,
            html,
        })) => match watch {
            true => lab_commands::class_watch::watch(&g, csv.as_deref(), html.as_deref()).await,
            false => lab_commands::class::report(&g, &dirs, csv.as_deref(), html.as_deref()).await,
        },
        Some(Command::Replay(args)) => replay_command::replay(&g, &args.file, Some(&args)),
        Some(Command::Doctor) => lab_commands::doctor(&g).await,
        Some(Command::Shell) => lab_commands::shell(&g).await,
        Some(Command::Env) => lab_commands::env(&g),
        Some(Command::Lesson(command)) => lesson_commands::run(&g, command).await,
        Some(Command::Config) => show_config(&g),
        Some(Command::Completions { shell }) => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            // Into memory first: generate panics on a write error, as on a closed pipe.
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut cmd, "capa-tui", &mut text);
            out!("{}", String::from_utf8_lossy(&text));
            0
        }
        Some(Command::Man) => {
            let cmd = <Cli as clap::CommandFactory>::command();
            let mut page = Vec::new();
            match clap_mangen::Man::new(cmd).render(&mut page) {
                Ok(()) => {
                    out!("{}", String::from_utf8_lossy(&page));
                    0
                }
                Err(e) => {
                    errln!("capa-tui man: {e}");
                    1
                }
            }
        }
        None => match &g.replay {
            Some(file) => replay_command::replay(&g, file, None),
            None => tutor(&g, cli.lesson.as_deref()).await,
        },
    }
}

/// Opens the terminal tutor, on the embedded cluster with `--sim`.
async fn tutor(g: &Global, lesson: Option<&str>) -> i32 {
    use std::io::IsTerminal;
    let lang = lab_commands::lang(g);
    let settings = match g.settings() {
        Ok(s) => s,
        Err(e) => {
            errln!("capa-tui: {}", e.say(lang));
            return 2;
        }
    };
    let Ok((catalog, chosen)) = lab_commands::chosen_catalog(g, lang) else {
        return 1;
    };
    let lesson = match lesson.map(|key| lab_commands::pick_lessons(&catalog, key, lang)) {
        Some(Ok(picked)) => picked.first().map(|l| l.spec.number),
        Some(Err(code)) => return code,
        None => None,
    };
    // A recording that cannot be written is said now, not found missing after the class.
    for path in g.record.iter().flat_map(|r| {
        let (cast, replay) = crate::tui::replay::paths_for(r);
        [cast, replay]
    }) {
        let opened = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path);
        if let Err(e) = opened {
            let (path, why) = (path.display().to_string(), e.to_string());
            errln!(
                "capa-tui: {}",
                t!(lang, "cli-cannot-record", path = path, why = why)
            );
            return 2;
        }
    }
    if !std::io::stdout().is_terminal() {
        errln!("capa-tui: {}", t!(lang, "cli-needs-terminal"));
        return 2;
    }
    let session = match crate::session::Session::open(g.session_options()).await {
        Ok(s) => s,
        Err(e) => {
            errln!("capa-tui: {}", e.say(lang));
            return 1;
        }
    };
    lab_commands::keep_setup(g, &session, lang);
    let log = session
        .paths
        .src_dir
        .parent()
        .map(|p| p.join("capa-tui.log"))
        .unwrap_or_else(|| std::env::temp_dir().join("capa-tui.log"));
    crate::tui::run(
        session,
        catalog,
        crate::tui::Options {
            lang: settings.lang.value,
            present: settings.present.value,
            theme: settings.theme.value,
            kept_setup: chosen.from_the_lab.then(|| chosen.kept_in()),
            lesson,
            record: g.record.clone(),
        },
        &log,
    )
    .await
}

/// `capa-tui config`: each setting, its value and where it came from.
fn show_config(g: &Global) -> i32 {
    let lang = lab_commands::lang(g);
    let file = crate::config::path();
    match &file {
        Some(p) if p.exists() => outln!(
            "{}",
            t!(lang, "config-file", path = p.display().to_string())
        ),
        Some(p) => outln!(
            "{}",
            t!(lang, "config-file-absent", path = p.display().to_string())
        ),
        None => outln!("{}", t!(lang, "config-file-none")),
    }
    match g.settings() {
        Ok(s) => {
            outln!(
                "theme   = {:<10} # {}",
                s.theme.value.name(),
                s.theme.origin.say(lang)
            );
            outln!(
                "lang    = {:<10} # {}",
                s.lang.value.code(),
                s.lang.origin.say(lang)
            );
            outln!(
                "present = {:<10} # {}",
                s.present.value,
                s.present.origin.say(lang)
            );
            0
        }
        Err(e) => {
            errln!("capa-tui config: {}", e.say(lang));
            2
        }
    }
}
