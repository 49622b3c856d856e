//! The environment a learner's shell gets, so the lab's commands work as the lesson shows them:
//! `KUBECONFIG` for the cluster in use, the installed `kubectl` and `helm` (and `capa-tui`)
//! first on `PATH`, `CAPA_SRC_DIR`/`CAPA_BARE_DIR`, and a prompt that names the cluster. The
//! tutor's shell pane, `capa-tui shell` and `capa-tui env` all use it.

use std::path::{Path, PathBuf};

use super::clock::{ClockFile, ClockForShells, FastClock, libfaketime};
use crate::i18n::{Lang, Say};
use crate::lab::paths::LabPaths;
use crate::t;

/// What a shell started for the lab gets.
#[derive(Debug, Clone, PartialEq)]
pub struct ShellEnv {
    /// Variables to set, in order.
    pub vars: Vec<(String, String)>,
    /// Where the shell starts: the working copy once it exists, else the source dir.
    pub cwd: PathBuf,
    /// Names the cluster in the prompt: `sim` or the kubeconfig context.
    pub label: String,
    /// The cluster's clock, when it runs faster than the wall's (`--speed`): the shell runs on
    /// it (`session::clock`).
    pub clock: Option<FastClock>,
}

/// Why a lab shell cannot start (in the shell pane or as `capa-tui shell`); said with what to
/// do by [`Say`]. The system's own words are kept as text, so the tutor's state that holds one
/// stays comparable.
#[derive(Debug, Clone, PartialEq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum ShellError {
    NoShell,
    RcFile { path: PathBuf, why: String },
    CreateDir { dir: PathBuf, why: String },
    Terminal { why: String },
    Start { program: PathBuf, why: String },
}

impl ShellError {
    /// A pseudo-terminal that cannot be opened, read or written.
    pub fn terminal(e: impl std::fmt::Display) -> ShellError {
        ShellError::Terminal { why: e.to_string() }
    }
}

impl Say for ShellError {
    fn say(&self, lang: Lang) -> String {
        match self {
            ShellError::NoShell => t!(lang, "shell-error-no-shell"),
            ShellError::RcFile { path, why } => t!(
                lang,
                "shell-error-rc-file",
                path = path.display().to_string(),
                why = why.as_str()
            ),
            ShellError::CreateDir { dir, why } => t!(
                lang,
                "shell-error-create-dir",
                dir = dir.display().to_string(),
                why = why.as_str()
            ),
            ShellError::Terminal { why } => t!(lang, "shell-error-terminal", why = why.as_str()),
            ShellError::Start { program, why } => t!(
                lang,
                "shell-cannot-start",
                program = program.display().to_string(),
                why = why.as_str()
            ),
        }
    }
}

crate::display_says!(ShellError);

impl ShellEnv {
    /// The environment for `paths` on the cluster of `kubeconfig` (inherited when `None`),
    /// labelled `label` in the prompt.
    pub fn new(paths: &LabPaths, kubeconfig: Option<&Path>, label: &str) -> ShellEnv {
        let mut vars = Vec::new();
        if let Some(k) = kubeconfig {
            vars.push(("KUBECONFIG".to_string(), k.display().to_string()));
        }
        vars.push(("PATH".to_string(), search_path()));
        vars.push((
            "CAPA_SRC_DIR".to_string(),
            paths.src_dir.display().to_string(),
        ));
        vars.push((
            "CAPA_BARE_DIR".to_string(),
            paths.bare_dir.display().to_string(),
        ));
        vars.push(("CAPA_CLUSTER".to_string(), label.to_string()));
        let repo = paths.repo();
        ShellEnv {
            vars,
            cwd: if repo.is_dir() {
                repo
            } else {
                paths.src_dir.clone()
            },
            label: label.to_string(),
            clock: None,
        }
    }

    /// The same shell, run on `clock` (the cluster's, when it runs fast).
    pub fn on_clock(mut self, clock: Option<FastClock>) -> ShellEnv {
        self.clock = clock;
        self
    }

    /// The variables of a shell whose helpers live in `rc_dir`: the lab's, and those that put
    /// it on the cluster's clock when that runs fast and libfaketime is installed (the offset
    /// file kept by [`ShellEnv::keep_clock`]).
    pub fn vars_for(&self, rc_dir: &Path) -> Vec<(String, String)> {
        let mut vars = self.vars.clone();
        if let (Some(clock), Some(lib)) = (&self.clock, libfaketime()) {
            let inherited = std::env::var("LD_PRELOAD").ok();
            vars.extend(clock.shell_vars(&lib, inherited.as_deref(), &clock_file(rc_dir)));
        }
        vars
    }

    /// Keeps the clock file of a shell in `rc_dir` current while the keeper lives; `None` when
    /// the cluster keeps the wall's time or its shells cannot follow it.
    pub fn keep_clock(&self, rc_dir: &Path) -> Option<ClockFile> {
        let clock = self.clock.as_ref().filter(|_| libfaketime().is_some())?;
        std::fs::create_dir_all(rc_dir).ok()?;
        // The shell's own kubeconfig: what it reaches is the cluster whose clock it keeps.
        let kubeconfig = self
            .vars
            .iter()
            .find(|(k, _)| k == "KUBECONFIG")
            .map(|(_, v)| PathBuf::from(v));
        clock.keep(clock_file(rc_dir), kubeconfig).ok()
    }

    /// The cluster's clock runs fast and this shell cannot follow it (no libfaketime): `date`
    /// there is the wall's. The speed, when so.
    pub fn off_the_clusters_clock(&self) -> Option<f64> {
        self.clock
            .as_ref()
            .filter(|_| libfaketime().is_none())
            .map(|c| c.speed)
    }

    /// The prompt's marker: `(capa:sim) `.
    pub fn prompt_marker(&self) -> String {
        format!("(capa:{}) ", self.label)
    }

    /// `export NAME='value'` lines for `eval "$(capa-tui env ...)"`. (Not the clock: a shell
    /// already running cannot be put on it.)
    pub fn exports(&self) -> String {
        self.vars
            .iter()
            .map(|(k, v)| format!("export {k}={}\n", quote(v)))
            .collect()
    }

    /// The program and arguments to start: `$SHELL`, else bash; bash reads the learner's own
    /// `~/.bashrc` and then gets the prompt marker from a start-up file kept in `rc_dir`.
    pub fn command(&self, rc_dir: &Path) -> Result<(PathBuf, Vec<String>), ShellError> {
        self.command_with(std::env::var_os("SHELL"), rc_dir)
    }

    /// As [`ShellEnv::command`], with `shell` standing for `$SHELL`.
    pub fn command_with(
        &self,
        shell: Option<std::ffi::OsString>,
        rc_dir: &Path,
    ) -> Result<(PathBuf, Vec<String>), ShellError> {
        let shell = shell
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
            .filter(|p| p.is_file() || which::which(p).is_ok())
            .or_else(|| which::which("bash").ok())
            .ok_or(ShellError::NoShell)?;
        let is_bash = shell.file_name().is_some_and(|n| n == "bash");
        if !is_bash {
            return Ok((shell, Vec::new()));
        }
        let rc = rc_dir.join("bashrc");
        // libfaketime (the shell on a fast clock) names this shell's shared memory in
        // FAKETIME_SHARED, and a forked subshell removes it as it ends (`x=$(…)` in a
        // ~/.bashrc, or pyenv's prompt hook): every program started after that printed
        // "libfaketime: … sem_open failed". The offset file needs no shared memory, so the name
        // is not passed on, before anything runs; each program then keeps its own.
        let text = format!(
            "# Written by capa-tui for its lab shell: your own ~/.bashrc, then the lab's prompt.\nunset FAKETIME_SHARED\n[ -f ~/.bashrc ] && . ~/.bashrc\nPS1={}\"${{PS1:-\\$ }}\"\n",
            quote(&self.prompt_marker())
        );
        // Under a fresh name, renamed into place: a link left at `bashrc` is replaced, never
        // written through (the shell runs this file).
        crate::lab::files::write_private(&rc, &text).map_err(|e| ShellError::RcFile {
            path: rc.clone(),
            why: e.to_string(),
        })?;
        Ok((
            shell,
            vec!["--rcfile".into(), rc.display().to_string(), "-i".into()],
        ))
    }

    /// For shells other than bash, which take the prompt from the environment.
    pub fn prompt_var(&self) -> (String, String) {
        ("PS1".to_string(), format!("{}$ ", self.prompt_marker()))
    }
}

/// Where a shell with helpers in `rc_dir` reads the cluster's offset from the wall's clock.
fn clock_file(rc_dir: &Path) -> PathBuf {
    rc_dir.join("cluster-clock")
}

/// The folder of the installed kubectl and helm (`.tools/bin`) and of this capa-tui, before the
/// inherited PATH.
fn search_path() -> String {
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(tools) =
        capa_sim::tools::find("kubectl").and_then(|k| k.parent().map(Path::to_path_buf))
    {
        dirs.push(tools.canonicalize().unwrap_or(tools));
    }
    if let Some(me) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        dirs.push(me);
    }
    let inherited = std::env::var_os("PATH").unwrap_or_default();
    let mut all: Vec<PathBuf> = Vec::new();
    for d in dirs.into_iter().chain(std::env::split_paths(&inherited)) {
        if !all.contains(&d) {
            all.push(d);
        }
    }
    std::env::join_paths(all)
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| inherited.to_string_lossy().into_owned())
}

/// A value in single quotes for a POSIX shell.
/// `v` as one word for a POSIX shell.
pub fn quote(v: &str) -> String {
    format!("'{}'", v.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(dir: &Path) -> LabPaths {
        LabPaths {
            src_dir: dir.join("capa-src"),
            bare_dir: dir.join("bare"),
        }
    }

    #[test]
    fn the_shell_gets_the_clusters_kubeconfig_the_lab_dirs_and_starts_in_the_working_copy() {
        let dir = tempfile::tempdir().unwrap();
        let p = paths(dir.path());
        let env = ShellEnv::new(&p, Some(&dir.path().join("kubeconfig")), "sim");
        let get = |k: &str| {
            env.vars
                .iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| v.clone())
        };
        assert_eq!(
            get("KUBECONFIG"),
            Some(dir.path().join("kubeconfig").display().to_string())
        );
        assert_eq!(get("CAPA_SRC_DIR"), Some(p.src_dir.display().to_string()));
        assert_eq!(get("CAPA_BARE_DIR"), Some(p.bare_dir.display().to_string()));
        let path = get("PATH").unwrap();
        let first = std::env::split_paths(&path).next().unwrap();
        assert!(
            first.join("kubectl").exists(),
            "kubectl's folder comes first: {path}"
        );
        assert_eq!(env.cwd, p.src_dir);
        std::fs::create_dir_all(p.repo()).unwrap();
        assert_eq!(ShellEnv::new(&p, None, "sim").cwd, p.repo());
        assert_eq!(env.prompt_marker(), "(capa:sim) ");
    }

    #[test]
    fn exports_are_quoted_for_eval() {
        let env = ShellEnv {
            vars: vec![("A".into(), "it's here".into())],
            cwd: PathBuf::new(),
            label: "x".into(),
            clock: None,
        };
        assert_eq!(env.exports(), "export A='it'\\''s here'\n");
    }

    #[test]
    fn bash_reads_the_learners_bashrc_then_gets_the_lab_prompt() {
        let dir = tempfile::tempdir().unwrap();
        let env = ShellEnv::new(&paths(dir.path()), None, "sim");
        let (shell, args) = env
            .command_with(Some("/bin/bash".into()), dir.path())
            .unwrap();
        assert_eq!(shell, PathBuf::from("/bin/bash"));
        assert_eq!(args[0], "--rcfile");
        let rc = std::fs::read_to_string(&args[1]).unwrap();
        assert!(
            rc.contains(". ~/.bashrc") && rc.contains("(capa:sim)"),
            "{rc}"
        );
        // A $SHELL that is not there falls back to bash; another shell gets no bash options.
        let (fallback, _) = env
            .command_with(Some("/nonexistent/shell".into()), dir.path())
            .unwrap();
        assert!(fallback.ends_with("bash"));
        let (sh, args) = env
            .command_with(Some("/bin/sh".into()), dir.path())
            .unwrap();
        assert_eq!((sh, args), (PathBuf::from("/bin/sh"), Vec::<String>::new()));
    }

    /// The shell runs its start-up file: a link left at its name is replaced, never written
    /// through (issue 32).
    #[test]
    fn the_start_up_file_never_writes_through_a_link_left_at_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        std::os::unix::fs::symlink(&outside, dir.path().join("bashrc")).unwrap();
        let env = ShellEnv::new(&paths(dir.path()), None, "sim");
        let (_, args) = env
            .command_with(Some("/bin/bash".into()), dir.path())
            .unwrap();
        assert!(!outside.exists(), "the start-up file went through the link");
        let rc = std::fs::symlink_metadata(&args[1]).unwrap();
        assert!(rc.is_file(), "{rc:?}");
    }

    /// On a fast clock, a lab shell whose ~/.bashrc runs a subshell starts programs without
    /// libfaketime's "sem_open failed" (the shell pane printed it under every `bash -c`).
    #[test]
    fn a_lab_shell_on_a_fast_clock_starts_programs_without_libfaketimes_complaints() {
        use std::io::Write;
        assert!(
            libfaketime().is_some(),
            "libfaketime is not installed: scripts/debian-packages faketime (scripts/test does it)"
        );
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        std::fs::create_dir_all(&home).unwrap();
        // A command substitution: the forked subshell that runs it ends, as most ~/.bashrc
        // files (and pyenv's prompt hook) do.
        std::fs::write(home.join(".bashrc"), "greeting=$(echo hello)\n").unwrap();
        let now = jiff::Timestamp::now();
        let clock = FastClock {
            speed: 5.0,
            cluster_at: now,
            wall_at: now,
            runs: Vec::new(),
        };
        let env = ShellEnv::new(&paths(dir.path()), None, "sim").on_clock(Some(clock));
        let rc_dir = dir.path().join("rc");
        let (shell, args) = env.command_with(Some("/bin/bash".into()), &rc_dir).unwrap();
        let _keeper = env.keep_clock(&rc_dir);
        let mut child = std::process::Command::new(shell)
            .args(args)
            .env("HOME", &home)
            .envs(env.vars_for(&rc_dir))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"bash -c 'date +%Y'\nexit\n")
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(stdout.trim().starts_with("20"), "{stdout}\n{stderr}");
        assert!(!stderr.contains("libfaketime"), "{stderr}");
    }
}
