//! Progress: saved and resumed, a damaged file kept aside whatever its bytes, two tutors merged.

use super::*;

fn at(s: &str) -> jiff::Timestamp {
    s.parse().unwrap()
}

#[test]
fn progress_is_saved_and_resumed_and_a_damaged_file_is_kept_aside() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(load(dir.path()).progress, Progress::default());
    let mut p = Progress {
        lesson: Some(LessonId(2)),
        section: Section::ByHand,
        ..Progress::default()
    };
    p.hints.insert(LessonId(2), 1);
    p.ticks
        .entry(LessonId(1))
        .or_default()
        .insert(0, at("2026-12-01T03:00:00Z"));
    save(dir.path(), &Progress::default(), &p).unwrap();
    let loaded = load(dir.path());
    assert_eq!((loaded.progress, loaded.kept_aside), (p, None));
    std::fs::write(file(dir.path()), "{not json").unwrap();
    let loaded = load(dir.path());
    assert_eq!(loaded.progress, Progress::default());
    let kept = loaded.kept_aside.unwrap();
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "{not json");
}

#[test]
fn random_bytes_are_kept_as_damaged_and_a_second_damage_never_replaces_the_first() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(file(dir.path()).parent().unwrap()).unwrap();
    let random: Vec<u8> = (0..2000u32).map(|i| (i * 7919 % 256) as u8).collect();
    assert!(std::str::from_utf8(&random).is_err());
    std::fs::write(file(dir.path()), &random).unwrap();
    let first = load(dir.path()).kept_aside.unwrap();
    assert_eq!(std::fs::read(&first).unwrap(), random);
    assert!(first.to_string_lossy().ends_with("tutor.json.damaged"));
    std::fs::write(file(dir.path()), b"\xff\xfe").unwrap();
    let second = load(dir.path()).kept_aside.unwrap();
    assert_ne!(first, second);
    assert_eq!(std::fs::read(&first).unwrap(), random);
    assert_eq!(std::fs::read(&second).unwrap(), b"\xff\xfe");
}

#[test]
fn two_tutors_interleaved_keep_both_ticks_and_hints() {
    let dir = tempfile::tempdir().unwrap();
    // Both open the same lab.
    let a_base = load(dir.path()).progress;
    let b_base = load(dir.path()).progress;
    let mut a = a_base.clone();
    a.ticks
        .entry(LessonId(1))
        .or_default()
        .insert(0, at("2026-12-01T03:00:00Z"));
    a.hints.insert(LessonId(3), 2);
    let a_saved = save(dir.path(), &a_base, &a).unwrap();
    let mut b = b_base.clone();
    b.lesson = Some(LessonId(5));
    b.ticks
        .entry(LessonId(2))
        .or_default()
        .insert(1, at("2026-12-01T03:05:00Z"));
    save(dir.path(), &b_base, &b).unwrap();
    // A saves again (it unticked nothing): B's work must survive that too.
    let mut a2 = a_saved.clone();
    a2.ticks
        .entry(LessonId(1))
        .or_default()
        .insert(1, at("2026-12-01T03:06:00Z"));
    save(dir.path(), &a_saved, &a2).unwrap();
    let both = load(dir.path()).progress;
    assert_eq!(both.ticks[&LessonId(1)].len(), 2, "{both:?}");
    assert_eq!(both.ticks[&LessonId(2)].len(), 1, "{both:?}");
    assert_eq!(both.hints[&LessonId(3)], 2, "{both:?}");
    assert_eq!(both.lesson, Some(LessonId(5)), "{both:?}");
}

#[test]
fn a_step_one_tutor_unticks_is_unticked_and_the_others_stay() {
    let dir = tempfile::tempdir().unwrap();
    let mut start = Progress::default();
    start.ticks.entry(LessonId(1)).or_default().extend([
        (0, at("2026-12-01T03:00:00Z")),
        (1, at("2026-12-01T03:01:00Z")),
    ]);
    save(dir.path(), &Progress::default(), &start).unwrap();
    let mut other = start.clone();
    other.answers.insert("1:2".into(), "b".into());
    save(dir.path(), &start, &other).unwrap();
    let mut mine = start.clone();
    mine.ticks.get_mut(&LessonId(1)).unwrap().remove(&1);
    save(dir.path(), &start, &mine).unwrap();
    let now = load(dir.path()).progress;
    assert_eq!(now.ticks[&LessonId(1)].len(), 1, "{now:?}");
    assert_eq!(now.answers["1:2"], "b");
}

#[test]
fn many_saves_from_two_threads_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let writers: Vec<_> = [1u8, 2]
        .into_iter()
        .map(|lesson| {
            let d = dir.path().to_path_buf();
            std::thread::spawn(move || {
                let mut base = Progress::default();
                for step in 0..40 {
                    let mut now = base.clone();
                    now.ticks
                        .entry(LessonId(lesson))
                        .or_default()
                        .insert(step, at("2026-12-01T03:00:00Z"));
                    // Like the tutor: what it wrote is its base; the merged file is not re-read.
                    save(&d, &base, &now).unwrap();
                    base = now;
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    let all = load(dir.path()).progress;
    assert_eq!(all.ticks[&LessonId(1)].len(), 40);
    assert_eq!(all.ticks[&LessonId(2)].len(), 40);
}

/// Links left at the names the tutor keeps progress under are never followed for a write:
/// the lock opens only a file of its own, and the progress replaces a link (issue 32).
#[test]
fn progress_never_writes_through_a_link_left_in_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let folder = file(dir.path()).parent().unwrap().to_path_buf();
    std::fs::create_dir_all(&folder).unwrap();
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    for name in ["tutor.lock", "tutor.json"] {
        std::os::unix::fs::symlink(outside.join(name), folder.join(name)).unwrap();
    }
    let p = Progress {
        lesson: Some(LessonId(3)),
        ..Progress::default()
    };
    save(dir.path(), &Progress::default(), &p).unwrap();
    assert_eq!(load(dir.path()).progress, p);
    let written: Vec<_> = std::fs::read_dir(&outside).unwrap().collect();
    assert!(
        written.is_empty(),
        "a write went through a link: {written:?}"
    );
}
