//! Running helm and kubectl with Argo CD's exec timeout, and reporting failures in the form of
//! Argo CD's `util/exec` CmdError: "`<command>` failed <cause>: <stderr>".

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// `ARGOCD_EXEC_TIMEOUT`'s default.
pub(super) const EXEC_TIMEOUT: Duration = Duration::from_secs(90);

/// One tool invocation. `shown` is the argv as Argo CD would log it (e.g. `kustomize build …`
/// even though `kubectl kustomize` does the work here).
pub(super) struct Invocation<'a> {
    pub program: &'a Path,
    pub args: &'a [String],
    pub shown: &'a [String],
    pub cwd: &'a Path,
    pub env: &'a [(String, String)],
}

#[derive(Debug)]
pub(super) enum ExecError {
    /// The program could not be started at all.
    Spawn(std::io::Error),
    /// It ran and failed; the text is Argo CD's CmdError wording.
    Failed(String),
}

/// Runs the invocation to completion and returns its stdout.
pub(super) fn run(inv: &Invocation<'_>) -> Result<String, ExecError> {
    let mut child = Command::new(inv.program)
        .args(inv.args)
        .current_dir(inv.cwd)
        .envs(inv.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(ExecError::Spawn)?;
    let stdout = reader(child.stdout.take());
    let stderr = reader(child.stderr.take());
    let status = wait(&mut child, EXEC_TIMEOUT);
    let out = collect(stdout);
    let err = collect(stderr);
    let shown = command_line(inv.shown);
    match status {
        Some(s) if s.success() => Ok(out),
        Some(s) => Err(ExecError::Failed(cmd_error(
            &shown,
            &exit_cause(s),
            err.trim(),
        ))),
        // On timeout Argo CD reports no stderr, only the timeout.
        None => Err(ExecError::Failed(cmd_error(
            &shown,
            &format!("timeout after {}", go_duration(EXEC_TIMEOUT)),
            "",
        ))),
    }
}

fn reader<R: Read + Send + 'static>(pipe: Option<R>) -> Option<JoinHandle<String>> {
    pipe.map(|mut p| {
        thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = p.read_to_end(&mut buf);
            String::from_utf8_lossy(&buf).into_owned()
        })
    })
}

fn collect(handle: Option<JoinHandle<String>>) -> String {
    handle.and_then(|h| h.join().ok()).unwrap_or_default()
}

/// Waits for the child, killing it at the deadline; `None` means it timed out.
fn wait(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// "`args` failed cause[: stderr]", as `CmdError.Error()` prints it.
pub(super) fn cmd_error(shown: &str, cause: &str, stderr: &str) -> String {
    if stderr.is_empty() {
        format!("`{shown}` failed {cause}")
    } else {
        format!("`{shown}` failed {cause}: {stderr}")
    }
}

/// Go's `*exec.ExitError` text.
fn exit_cause(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    if let Some(code) = status.code() {
        return format!("exit status {code}");
    }
    let name = match status.signal() {
        Some(libc::SIGKILL) => "killed",
        Some(libc::SIGTERM) => "terminated",
        Some(libc::SIGSEGV) => "segmentation fault",
        Some(libc::SIGABRT) => "aborted",
        Some(libc::SIGINT) => "interrupt",
        Some(n) => return format!("signal: signal {n}"),
        None => return "exit status -1".into(),
    };
    format!("signal: {name}")
}

/// The command as `GetCommandArgsToLog` prints it: empty args as `""`, args with whitespace
/// Go-quoted, the rest bare.
pub(super) fn command_line(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            if a.is_empty() {
                "\"\"".to_string()
            } else if a.chars().any(char::is_whitespace) {
                go_quote(a)
            } else {
                a.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Go's `time.Duration.String()` for whole seconds ("1m30s").
fn go_duration(d: Duration) -> String {
    let secs = d.as_secs();
    match (secs / 3600, secs % 3600 / 60, secs % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m{s}s"),
        (h, m, s) => format!("{h}h{m}m{s}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_args_like_argo() {
        let args: Vec<String> = ["helm", "template", "", "a b", "x\"y z"]
            .map(String::from)
            .to_vec();
        assert_eq!(command_line(&args), r#"helm template "" "a b" "x\"y z""#);
    }

    #[test]
    fn formats_failures() {
        assert_eq!(
            cmd_error("helm template .", "exit status 1", "Error: boom"),
            "`helm template .` failed exit status 1: Error: boom"
        );
        assert_eq!(go_duration(EXEC_TIMEOUT), "1m30s");
    }

    #[test]
    fn reports_exit_status_and_stderr() {
        let sh = Path::new("/bin/sh");
        let args = vec!["-c".to_string(), "echo oops >&2; exit 3".to_string()];
        let shown = vec!["sh".to_string()];
        let inv = Invocation {
            program: sh,
            args: &args,
            shown: &shown,
            cwd: Path::new("/"),
            env: &[],
        };
        match run(&inv) {
            Err(ExecError::Failed(m)) => assert_eq!(m, "`sh` failed exit status 3: oops"),
            other => panic!("unexpected {other:?}"),
        }
    }
}
