//! Container output of simulated Pods, kept beside the store (logs are not API objects), so
//! `kubectl logs` and `kubectl logs -f` show what a Job's command echoed.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::watch;

/// (namespace, pod, container)
type LogKey = (String, String, String);

#[derive(Default)]
pub struct LogBook {
    entries: Mutex<HashMap<LogKey, Entry>>,
}

struct Entry {
    text: String,
    finished: bool,
    changed: watch::Sender<usize>,
}

/// A snapshot of one container's log, and a receiver that ticks when it grows.
pub struct LogView {
    pub text: String,
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
                text: String::new(),
                finished: false,
                changed: watch::channel(0).0,
            });
        f(entry)
    }

    /// Appends output (what `echo` printed).
    pub fn append(&self, ns: &str, pod: &str, container: &str, text: &str) {
        self.with_entry(ns, pod, container, |e| {
            e.text.push_str(text);
            e.changed.send_replace(e.text.len());
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
                text: e.text.clone(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_accumulate_and_finish() {
        let book = LogBook::default();
        assert!(book.view("lab", "p", "c").is_none());
        book.append("lab", "p", "c", "migrate ok\n");
        let v = book.view("lab", "p", "c").unwrap();
        assert_eq!((v.text.as_str(), v.finished), ("migrate ok\n", false));
        book.finish("lab", "p", "c");
        assert!(book.view("lab", "p", "c").unwrap().finished);
        book.forget_pod("lab", "p");
        assert!(book.view("lab", "p", "c").is_none());
    }
}
