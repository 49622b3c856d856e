//! Merging two tutors' progress: what this tutor changed since it last read or wrote (`base`
//! to `now`) is laid over what is on disk now; everything else is the other tutor's.

use std::collections::BTreeMap;

use super::Progress;

/// `disk` with this tutor's own changes from `base` to `now` on top.
pub fn three_way(base: &Progress, now: &Progress, disk: &Progress) -> Progress {
    let moved = base.lesson != now.lesson || base.section != now.section;
    let (lesson, section) = if moved {
        (now.lesson, now.section)
    } else {
        (disk.lesson, disk.section)
    };
    let mut ticks = disk.ticks.clone();
    let lessons: Vec<_> = base.ticks.keys().chain(now.ticks.keys()).copied().collect();
    for l in lessons {
        let empty = BTreeMap::new();
        let (b, n) = (
            base.ticks.get(&l).unwrap_or(&empty),
            now.ticks.get(&l).unwrap_or(&empty),
        );
        let d = ticks.entry(l).or_default();
        lay_over(b, n, d);
        if d.is_empty() {
            ticks.remove(&l);
        }
    }
    let mut hints = disk.hints.clone();
    lay_over(&base.hints, &now.hints, &mut hints);
    // Hints shown only grow: the more of two tutors' counts is the one seen.
    for (l, n) in &disk.hints {
        hints.entry(*l).and_modify(|h| *h = (*h).max(*n));
    }
    let mut grades = disk.grades.clone();
    lay_over(&base.grades, &now.grades, &mut grades);
    let mut answers = disk.answers.clone();
    lay_over(&base.answers, &now.answers, &mut answers);
    Progress {
        lesson,
        section,
        hints,
        ticks,
        grades,
        answers,
    }
}

/// Puts into `disk` every key whose value this tutor changed from `base` to `now` (removing
/// the ones it removed); keys it did not touch keep the other tutor's value.
fn lay_over<K: Ord + Clone, V: PartialEq + Clone>(
    base: &BTreeMap<K, V>,
    now: &BTreeMap<K, V>,
    disk: &mut BTreeMap<K, V>,
) {
    for k in base.keys().chain(now.keys()) {
        if base.get(k) == now.get(k) {
            continue;
        }
        match now.get(k) {
            Some(v) => disk.insert(k.clone(), v.clone()),
            None => disk.remove(k),
        };
    }
}
