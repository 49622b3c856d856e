//! Ending every process a lab shell started, its background and `nohup` jobs included: each
//! carries a mark in its environment, which jobs inherit whatever process group or session
//! they move to, so they are found in /proc after the shell has gone (`capa-tui shell --sim`
//! once left `sleep &` and `nohup` jobs running after every kind of exit).

use std::time::Duration;

/// The variable that marks a lab shell's processes.
pub const MARK_VAR: &str = "CAPA_SHELL_MARK";

/// A mark no other shell has: this process, and the time it was made.
pub fn new_mark() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{}-{nanos}", std::process::id())
}

/// Ends the processes that carry `mark`: a hangup first (what closing a terminal sends, so an
/// interactive shell and its jobs end as they would), then a kill for whatever ignored it.
pub fn end_marked(mark: &str) {
    let first = marked(mark);
    if first.is_empty() {
        return;
    }
    for pid in &first {
        // SAFETY: kill only sends a signal; the pids carry this shell's mark.
        unsafe {
            libc::kill(*pid, libc::SIGHUP);
            libc::kill(*pid, libc::SIGCONT);
        }
    }
    std::thread::sleep(Duration::from_millis(200));
    for pid in marked(mark) {
        // SAFETY: as above.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// Whether process `pid` runs now and carries `mark`. A pid is a number the kernel hands out
/// again once its process is gone (every 32,768 here): a pid kept from earlier names whoever
/// has it now, so it is signalled only while it still carries the mark.
pub fn carries(pid: i32, mark: &str) -> bool {
    let wanted = format!("{MARK_VAR}={mark}");
    std::fs::read(format!("/proc/{pid}/environ"))
        .is_ok_and(|env| env.split(|b| *b == 0).any(|var| var == wanted.as_bytes()))
}

/// The processes (other than this one) whose environment holds `MARK_VAR=mark`.
pub fn marked(mark: &str) -> Vec<i32> {
    let me = i32::try_from(std::process::id()).unwrap_or(0);
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| *pid != me)
        .filter(|pid| carries(*pid, mark))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pid is signalled only while it still names a process with the mark: a shell's pid
    /// after the shell is gone (reaped, so the kernel may give the number to anyone) is not.
    #[test]
    fn a_pid_carries_the_mark_only_while_its_process_runs_with_it() {
        let mark = new_mark();
        let mut ours = std::process::Command::new("sleep")
            .arg("30")
            .env(MARK_VAR, &mark)
            .spawn()
            .unwrap();
        let mut other = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let (ours_pid, other_pid) = (ours.id() as i32, other.id() as i32);
        // The exec may not have happened yet: the mark is in the environment from then on.
        let start = std::time::Instant::now();
        while !carries(ours_pid, &mark) && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(carries(ours_pid, &mark));
        assert!(!carries(other_pid, &mark), "another process does not");
        assert!(!carries(ours_pid, "another-mark"));
        ours.kill().unwrap();
        ours.wait().unwrap();
        other.kill().unwrap();
        other.wait().unwrap();
        assert!(
            !carries(ours_pid, &mark),
            "a reaped process's pid names no one of ours"
        );
    }

    #[test]
    fn background_and_nohup_jobs_of_a_marked_shell_are_ended() {
        let mark = new_mark();
        let status = std::process::Command::new("sh")
            .arg("-c")
            .arg("sleep 9101 & nohup sleep 9102 >/dev/null 2>&1 & setsid sleep 9103 & exit 0")
            .env(MARK_VAR, &mark)
            .status()
            .unwrap();
        assert!(status.success());
        // What the marked processes run, sorted. On the way there are other processes with
        // the mark (`setsid` and `nohup` before they exec `sleep`, a `setsid` that forks and
        // leaves): counting pids once saw three, then two a moment later. So it waits for the
        // three sleeps themselves. Generous: on a loaded two-core machine an exec can wait.
        let running = || {
            let mut commands: Vec<String> = marked(&mark)
                .iter()
                .map(|pid| {
                    std::fs::read(format!("/proc/{pid}/cmdline"))
                        .map(|c| {
                            String::from_utf8_lossy(&c)
                                .trim_end_matches('\0')
                                .replace('\0', " ")
                        })
                        .unwrap_or_default()
                })
                .collect();
            commands.sort();
            commands
        };
        let jobs = ["sleep 9101", "sleep 9102", "sleep 9103"];
        let start = std::time::Instant::now();
        while running() != jobs && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert_eq!(running(), jobs, "the shell's three jobs run on");
        end_marked(&mark);
        let start = std::time::Instant::now();
        // Killed processes are reaped by whoever adopted them; wait until /proc drops them.
        while !marked(&mark).is_empty() && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert_eq!(marked(&mark), Vec::<i32>::new());
    }
}
