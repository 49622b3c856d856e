//! Container output of simulated Pods, kept beside the store (logs are not API objects), line
//! by line with the time each line was written, as the container runtime's log files keep it:
//! `kubectl logs` reads them with `--timestamps`, `--since`, `--tail` and `-f`.

use std::collections::HashMap;
use std::sync::Mutex;

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
}

/// A snapshot of one container's log, and a receiver that ticks when it grows.
pub struct LogView {
    pub lines: Vec<Line>,
    pub finished: bool,
    pub changes: watch::Receiver<usize>,
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

    /// Marks the container as exited: a following reader stops here.
    pub fn finish(&self, ns: &str, pod: &str, container: &str) {
        self.with_entry(ns, pod, container, |e| {
            e.finished = true;
            e.changed.send_modify(|n| *n += 1);
        });
    }

    /// The log as it is now; `None` if the container never started.
    pub fn view(&self, ns: &str, pod: &str, container: &str) -> Option<LogView> {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries
            .get(&Self::key(ns, pod, container))
            .map(|e| LogView {
                lines: e.lines.clone(),
                finished: e.finished,
                changes: e.changed.subscribe(),
            })
    }

    /// Forgets a deleted Pod's logs.
    pub fn forget_pod(&self, ns: &str, pod: &str) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries.retain(|(n, p, _), _| !(n == ns && p == pod));
    }
}

impl LogView {
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
        assert!(book.view("lab", "p", "c").is_none());
        book.start("lab", "p", "c");
        assert_eq!(book.view("lab", "p", "c").unwrap().text(), "");
        book.append("lab", "p", "c", t, "migrate ok\ndone\n");
        let v = book.view("lab", "p", "c").unwrap();
        assert_eq!(
            (v.text().as_str(), v.finished),
            ("migrate ok\ndone\n", false)
        );
        assert_eq!(v.lines.len(), 2);
        book.finish("lab", "p", "c");
        assert!(book.view("lab", "p", "c").unwrap().finished);
        book.forget_pod("lab", "p");
        assert!(book.view("lab", "p", "c").is_none());
    }
}
