//! Container output of simulated Pods, kept beside the store (logs are not API objects), line
//! by line with the time each line was written, as the container runtime's log files keep it:
//! `kubectl logs` reads them with `--timestamps`, `--since`, `--tail` and `-f`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use jiff::Timestamp;
use tokio::sync::watch;

/// (namespace, pod, container)
type LogKey = (String, String, String);

/// One line as the runtime logged it, its newline included (the last may lack one).
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub at: Timestamp,
    pub text: String,
}

#[derive(Default)]
pub struct LogBook {
    entries: Mutex<HashMap<LogKey, Entry>>,
}

struct Entry {
    lines: Vec<Line>,
    finished: bool,
    changed: watch::Sender<usize>,
    repeats: Vec<Repeating>,
}

/// The most lines a repeating source contributes to one read (the kubelet rotates a
/// container's log at 10 MiB, so an old log never holds everything either).
const MAX_REPEATED_LINES: u64 = 10_000;

/// A line a container writes at a steady pace (nginx logging each probe the kubelet sends):
/// written at `first`, then every `every`; kept as a rule, produced when the log is read.
#[derive(Clone)]
pub struct Repeating {
    pub first: Timestamp,
    pub every: Duration,
    pub line: Arc<dyn Fn(Timestamp) -> String + Send + Sync>,
}

impl Repeating {
    /// The times of the lines written up to `now`, at most the last [`MAX_REPEATED_LINES`].
    fn times_until(&self, now: Timestamp) -> impl Iterator<Item = Timestamp> + '_ {
        let every = self.every.as_nanos().max(1) as i128;
        let elapsed = now.as_nanosecond() - self.first.as_nanosecond();
        let count = if elapsed < 0 {
            0
        } else {
            (elapsed / every) as u64 + 1
        };
        let skip = count.saturating_sub(MAX_REPEATED_LINES);
        (skip..count).filter_map(move |i| {
            Timestamp::from_nanosecond(self.first.as_nanosecond() + i as i128 * every).ok()
        })
    }

    /// When the next line after `now` is written.
    pub fn next_after(&self, now: Timestamp) -> Timestamp {
        let every = self.every.as_nanos().max(1) as i128;
        let elapsed = now.as_nanosecond() - self.first.as_nanosecond();
        if elapsed < 0 {
            return self.first;
        }
        let n = elapsed / every + 1;
        Timestamp::from_nanosecond(self.first.as_nanosecond() + n * every).unwrap_or(now)
    }
}

/// A snapshot of one container's log, and a receiver that ticks when it grows.
pub struct LogView {
    pub lines: Vec<Line>,
    pub finished: bool,
    pub changes: watch::Receiver<usize>,
    /// Lines that keep being written after this snapshot's time.
    pub repeats: Vec<Repeating>,
}

impl LogBook {
    fn key(ns: &str, pod: &str, container: &str) -> LogKey {
        (ns.to_string(), pod.to_string(), container.to_string())
    }

    fn with_entry<T>(
        &self,
        ns: &str,
        pod: &str,
        container: &str,
        f: impl FnOnce(&mut Entry) -> T,
    ) -> T {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let entry = entries
            .entry(Self::key(ns, pod, container))
            .or_insert_with(|| Entry {
                lines: Vec::new(),
                finished: false,
                changed: watch::channel(0).0,
                repeats: Vec::new(),
            });
        f(entry)
    }

    /// The container started: its log exists from now on, empty until it prints.
    pub fn start(&self, ns: &str, pod: &str, container: &str) {
        self.with_entry(ns, pod, container, |_| {});
    }

    /// Appends what the container printed at `at`, one log line per line of `text`.
    pub fn append(&self, ns: &str, pod: &str, container: &str, at: Timestamp, text: &str) {
        self.with_entry(ns, pod, container, |e| {
            for piece in text.split_inclusive('\n') {
                e.lines.push(Line {
                    at,
                    text: piece.to_string(),
                });
            }
            e.changed.send_replace(e.lines.len());
        });
    }

    /// A line the container will keep writing at a steady pace.
    pub fn repeat(&self, ns: &str, pod: &str, container: &str, rule: Repeating) {
        self.with_entry(ns, pod, container, |e| {
            e.repeats.push(rule);
            e.changed.send_modify(|n| *n += 1);
        });
    }

    /// Marks the container as exited: a following reader stops here.
    pub fn finish(&self, ns: &str, pod: &str, container: &str) {
        self.with_entry(ns, pod, container, |e| {
            e.finished = true;
            e.changed.send_modify(|n| *n += 1);
        });
    }

    /// The log as written up to `now` (repeating lines included, in time order); `None` if
    /// the container never started.
    pub fn view(&self, ns: &str, pod: &str, container: &str, now: Timestamp) -> Option<LogView> {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries.get(&Self::key(ns, pod, container)).map(|e| {
            let mut lines = e.lines.clone();
            for rule in &e.repeats {
                lines.extend(rule.times_until(now).map(|at| Line {
                    at,
                    text: (rule.line)(at),
                }));
            }
            // Stable: lines written at the same moment keep the order they were written in.
            lines.sort_by_key(|l| l.at);
            LogView {
                lines,
                finished: e.finished,
                changes: e.changed.subscribe(),
                repeats: e.repeats.clone(),
            }
        })
    }

    /// Forgets a deleted Pod's logs.
    pub fn forget_pod(&self, ns: &str, pod: &str) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries.retain(|(n, p, _), _| !(n == ns && p == pod));
    }
}

impl LogView {
    #[cfg(test)]
    /// Everything logged, as plain text.
    pub fn text(&self) -> String {
        self.lines.iter().map(|l| l.text.as_str()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_accumulate_line_by_line_and_finish() {
        let book = LogBook::default();
        let t = Timestamp::UNIX_EPOCH;
        assert!(book.view("lab", "p", "c", t).is_none());
        book.start("lab", "p", "c");
        assert_eq!(book.view("lab", "p", "c", t).unwrap().text(), "");
        book.append("lab", "p", "c", t, "migrate ok\ndone\n");
        let v = book.view("lab", "p", "c", t).unwrap();
        assert_eq!(
            (v.text().as_str(), v.finished),
            ("migrate ok\ndone\n", false)
        );
        assert_eq!(v.lines.len(), 2);
        book.finish("lab", "p", "c");
        assert!(book.view("lab", "p", "c", t).unwrap().finished);
        book.forget_pod("lab", "p");
        assert!(book.view("lab", "p", "c", t).is_none());
    }

    #[test]
    fn repeating_lines_appear_at_their_times_among_the_others() {
        let book = LogBook::default();
        let at = |s: i64| Timestamp::from_second(s).unwrap();
        book.append("lab", "p", "c", at(100), "started\n");
        let rule = Repeating {
            first: at(105),
            every: Duration::from_secs(10),
            line: Arc::new(|t: Timestamp| format!("probe {}\n", t.as_second())),
        };
        book.repeat("lab", "p", "c", rule.clone());
        book.append("lab", "p", "c", at(112), "later\n");
        let v = book.view("lab", "p", "c", at(126)).unwrap();
        assert_eq!(
            v.text(),
            "started\nprobe 105\nlater\nprobe 115\nprobe 125\n"
        );
        assert_eq!(rule.next_after(at(126)), at(135));
        assert_eq!(
            book.view("lab", "p", "c", at(104)).unwrap().text(),
            "started\nlater\n"
        );
    }
}
