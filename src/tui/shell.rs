//! The shell pane's process: a real shell on a pseudo-terminal, started with the lab's
//! environment. Its output arrives as messages (the screen is kept in `State` by `update`);
//! keys reach it as bytes through an effect. Ending the tutor ends the shell's whole session:
//! no process it started is left behind.

use std::io::{Read, Write};
use std::path::Path;

use portable_pty::{ChildKiller, CommandBuilder, MasterPty, PtySize, native_pty_system};
use tokio::sync::mpsc;

use super::update::Msg;
use crate::session::jobs;
use crate::session::shell_env::{ShellEnv, ShellError};
use crate::tui::update::ShellMsg;

/// A running shell: where keys go, how to resize and end it.
pub struct ShellProcess {
    master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    killer: Box<dyn ChildKiller + Send + Sync>,
    /// The shell is a session leader: its pid is the session's (and process group's) id.
    session: Option<i32>,
    /// The mark its processes carry (`session::jobs`): a job that left the session still ends.
    mark: String,
}

/// Starts the lab shell on a `rows`×`cols` terminal; its output and its end come back as
/// `Msg::Shell(ShellMsg::Output)` and `Msg::Shell(ShellMsg::Exited)`.
pub fn spawn(
    env: &ShellEnv,
    rc_dir: &Path,
    (rows, cols): (u16, u16),
    tx: mpsc::UnboundedSender<Msg>,
) -> Result<ShellProcess, ShellError> {
    let (program, args) = env.command(rc_dir)?;
    std::fs::create_dir_all(&env.cwd).map_err(|e| ShellError::CreateDir {
        dir: env.cwd.clone(),
        why: e.to_string(),
    })?;
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: rows.max(2),
            cols: cols.max(10),
            pixel_width: 0,
            pixel_height: 0,
        })
        .map_err(ShellError::terminal)?;
    // The cluster's clock, kept current for the shell until it ends (`session::clock`).
    let clock = env.keep_clock(rc_dir);
    let mut cmd = CommandBuilder::new(&program);
    cmd.args(&args);
    cmd.cwd(&env.cwd);
    for (k, v) in &env.vars_for(rc_dir) {
        cmd.env(k, v);
    }
    let (ps1, value) = env.prompt_var();
    cmd.env(ps1, value);
    cmd.env("TERM", "xterm-256color");
    let mark = jobs::new_mark();
    cmd.env(jobs::MARK_VAR, &mark);
    let mut child = pair
        .slave
        .spawn_command(cmd)
        .map_err(|e| ShellError::Start {
            program: program.clone(),
            why: e.to_string(),
        })?;
    drop(pair.slave);
    let session = child.process_id().and_then(|p| i32::try_from(p).ok());
    let killer = child.clone_killer();
    let mut reader = pair
        .master
        .try_clone_reader()
        .map_err(ShellError::terminal)?;
    let writer = pair.master.take_writer().map_err(ShellError::terminal)?;
    std::thread::spawn(move || {
        let mut chunk = [0u8; 8192];
        loop {
            match reader.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx
                        .send(Msg::Shell(ShellMsg::Output(chunk[..n].to_vec())))
                        .is_err()
                    {
                        return;
                    }
                }
            }
        }
        let code = child.wait().ok().map(|s| s.exit_code());
        drop(clock);
        let _ = tx.send(Msg::Shell(ShellMsg::Exited(code)));
    });
    Ok(ShellProcess {
        master: pair.master,
        writer,
        killer,
        session,
        mark,
    })
}

impl ShellProcess {
    pub fn write(&mut self, bytes: &[u8]) {
        if let Err(e) = self
            .writer
            .write_all(bytes)
            .and_then(|()| self.writer.flush())
        {
            tracing::warn!("writing to the shell failed: {e}");
        }
    }

    pub fn resize(&self, rows: u16, cols: u16) {
        let _ = self.master.resize(PtySize {
            rows,
            cols,
            pixel_width: 0,
            pixel_height: 0,
        });
    }

    /// Ends the shell and everything in its session: a hangup first (as closing a terminal
    /// does), then a kill for anything still there.
    pub fn end(mut self) {
        // The session is signalled only while its leader is still this shell: once the shell
        // has gone, its pid (the session's id) may be another process's, a test's or the
        // learner's (CI once lost a `setsid` job of another test this way).
        let sid = match self.session {
            Some(sid) if jobs::carries(sid, &self.mark) => sid,
            // Gone: what is left of it carries the mark.
            Some(_) => return jobs::end_marked(&self.mark),
            None => {
                let _ = self.killer.kill();
                return jobs::end_marked(&self.mark);
            }
        };
        // SAFETY: killpg only sends a signal to the group the shell leads; no memory is touched.
        unsafe {
            libc::killpg(sid, libc::SIGHUP);
        }
        drop(self.writer);
        drop(self.master);
        std::thread::sleep(std::time::Duration::from_millis(150));
        for pid in session_members(sid) {
            // SAFETY: as above; the pids are members of the shell's own session.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        // A job that moved to a session of its own (`setsid`) still carries the mark.
        jobs::end_marked(&self.mark);
    }
}

/// The processes whose session is `sid` (from /proc), including jobs the shell put in
/// process groups of their own.
fn session_members(sid: i32) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|stat| {
                    // Fields after the command's closing parenthesis: state ppid pgrp session.
                    let rest = &stat[stat.rfind(')')? + 1..];
                    rest.split_whitespace().nth(3)?.parse::<i32>().ok()
                })
                == Some(sid)
        })
        .collect()
}
