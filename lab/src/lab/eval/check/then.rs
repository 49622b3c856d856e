//! What was true then is judged as of then: an evidence file records a moment, and the lab
//! itself moves the cluster on (lesson 6 re-syncs src-waves and replaces the hook Job lesson 5's
//! `waves.json` names, as the lab warns it will). A file that passed its check, checked again
//! unchanged, fails now only where the check reads the cluster as it is now (`Finding::live`):
//! it still passes, as of when it passed, and says what has changed since, instead of telling
//! the learner to "check again" or redo a lesson they did right. A file changed since, or
//! failing on what the file itself says, is judged anew.

use super::Grade;

/// `now`, the grade just made, judged with `before`, the last grade of the same file, given
/// when the file was last written (`written`; `None` when it is not there).
pub fn as_of_then(now: Grade, before: Option<&Grade>, written: Option<jiff::Timestamp>) -> Grade {
    if now.passed() {
        return now;
    }
    let Some(before) = before.filter(|b| b.passed() && b.key() == now.key()) else {
        return now;
    };
    // The same version of the file: it passed after it was last written.
    let same_file = match (written, before.checked_at) {
        (Some(w), Some(checked)) => checked >= w,
        _ => false,
    };
    let only_the_cluster_moved = now.findings.iter().all(|f| f.ok || f.live);
    if !same_file || !only_the_cluster_moved {
        return now;
    }
    Grade {
        changed_since: now.findings.into_iter().filter(|f| !f.ok).collect(),
        ..before.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Finding;
    use super::*;
    use crate::i18n::{Lang, Say};
    use crate::lab::spec::LessonId;

    fn finding(ok: bool, live: bool, what: &str) -> Finding {
        Finding {
            ok,
            what: what.into(),
            hint: None,
            help: None,
            live,
        }
    }

    fn grade(findings: Vec<Finding>, checked_at: &str) -> Grade {
        Grade {
            file: "waves.json".into(),
            lesson: LessonId(5),
            findings,
            checked_at: Some(checked_at.parse().unwrap()),
            changed_since: Vec::new(),
        }
    }

    fn at(t: &str) -> Option<jiff::Timestamp> {
        Some(t.parse().unwrap())
    }

    #[test]
    fn a_file_that_passed_stays_passed_when_only_the_cluster_moved_on() {
        let passed = grade(vec![finding(true, true, "hook ok")], "2026-12-03T10:00:00Z");
        let now = grade(
            vec![
                finding(true, false, "types ok"),
                finding(false, true, "Job migrate-x is gone"),
            ],
            "2026-12-03T11:00:00Z",
        );
        let judged = as_of_then(now, Some(&passed), at("2026-12-03T09:59:00Z"));
        assert!(judged.passed());
        assert_eq!(judged.checked_at, passed.checked_at, "passed as of then");
        assert_eq!(judged.changed_since.len(), 1);
        assert_eq!(
            judged.changed_since[0].what.say(Lang::FALLBACK),
            "Job migrate-x is gone"
        );
    }

    #[test]
    fn a_changed_file_or_a_fault_of_the_file_itself_is_judged_anew() {
        let passed = grade(vec![finding(true, true, "hook ok")], "2026-12-03T10:00:00Z");
        let live_only = || {
            grade(
                vec![finding(false, true, "Job migrate-x is gone")],
                "2026-12-03T11:00:00Z",
            )
        };
        // Written again after it passed.
        let judged = as_of_then(live_only(), Some(&passed), at("2026-12-03T10:30:00Z"));
        assert!(!judged.passed());
        // Not there any more.
        assert!(!as_of_then(live_only(), Some(&passed), None).passed());
        // A fault of what the file says.
        let own = grade(
            vec![finding(false, false, "scaled_at is not a number")],
            "2026-12-03T11:00:00Z",
        );
        assert!(!as_of_then(own, Some(&passed), at("2026-12-03T09:00:00Z")).passed());
        // It never passed.
        let failed = grade(vec![finding(false, true, "x")], "2026-12-03T10:00:00Z");
        assert!(!as_of_then(live_only(), Some(&failed), at("2026-12-03T09:00:00Z")).passed());
    }
}
