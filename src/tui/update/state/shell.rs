//! The shell pane's part of the state: the vt100 screen its output draws on, where the shell
//! is, and whether keys go to it.

/// Lines of shell output kept above the screen, to scroll back through.
pub const SHELL_SCROLLBACK_LINES: usize = 5_000;

/// Where the shell pane's shell is.
#[derive(Debug, Clone, PartialEq)]
pub enum ShellStatus {
    NotStarted,
    Running,
    /// It ended, with its exit code when it had one.
    Exited(Option<u32>),
    /// It could not start (no shell, no pseudo-terminal): why, in plain words.
    Failed(crate::session::shell_env::ShellError),
}

/// The shell pane: the terminal screen the shell's output draws on, and whether keys go to it.
pub struct ShellView {
    pub screen: vt100::Parser,
    pub status: ShellStatus,
    /// Keys go to the shell (the pane is focused and the learner has not pressed Ctrl-]).
    pub typing: bool,
    /// The prompt's marker (`(capa:sim) `), where it starts and its KUBECONFIG, for the pane's
    /// first words.
    pub about: ShellAbout,
    /// A command waiting for the shell to be ready ("type it for me" on a shell just started).
    pub pending_input: Option<String>,
    /// Keys pressed while that command waits: they follow it, in order.
    pub pending_keys: Vec<u8>,
    /// The shell has drawn its prompt at least once.
    pub seen_prompt: bool,
    /// A command typed for the learner is taller than the shell pane: said until the learner
    /// presses Enter, zooms or lets go of it.
    pub tall_command: Option<TallCommand>,
}

/// A command taller than the shell pane: its lines, and whether the pane zoomed would show it
/// whole (a longer one is read whole only in the lesson pane).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TallCommand {
    pub lines: usize,
    pub fits_zoomed: bool,
}

/// What the shell pane says of the shell it starts.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ShellAbout {
    /// `(capa:sim) `
    pub marker: String,
    pub cwd: String,
    /// The kubeconfig it gets; empty when it inherits the tutor's.
    pub kubeconfig: String,
    /// The cluster's clock runs fast (`--speed`): how fast, and whether the shell keeps it.
    pub clock: Option<ShellClock>,
}

impl ShellAbout {
    /// What the pane says of a shell started with `env`.
    pub fn of(env: &crate::session::shell_env::ShellEnv) -> ShellAbout {
        ShellAbout {
            marker: env.prompt_marker(),
            cwd: env.cwd.display().to_string(),
            kubeconfig: env
                .vars
                .iter()
                .find(|(k, _)| k == "KUBECONFIG")
                .map(|(_, v)| v.clone())
                .unwrap_or_default(),
            clock: env.clock.as_ref().map(|c| ShellClock {
                speed: c.speed,
                ahead_seconds: c.ahead_at_real_speed().map(|d| d.as_secs()),
                follows: env.off_the_clusters_clock().is_none(),
            }),
        }
    }
}

/// A shell on a cluster whose clock runs fast.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ShellClock {
    pub speed: f64,
    /// At real speed, how far the cluster's clock is ahead (it ran faster before).
    pub ahead_seconds: Option<i64>,
    /// `date` and `sleep` in the shell keep the cluster's time (libfaketime is installed).
    pub follows: bool,
}

impl ShellView {
    pub(super) fn new() -> ShellView {
        ShellView {
            screen: vt100::Parser::new(24, 80, SHELL_SCROLLBACK_LINES),
            status: ShellStatus::NotStarted,
            typing: false,
            about: ShellAbout::default(),
            pending_input: None,
            pending_keys: Vec::new(),
            seen_prompt: false,
            tall_command: None,
        }
    }

    pub fn running(&self) -> bool {
        self.status == ShellStatus::Running
    }
}
