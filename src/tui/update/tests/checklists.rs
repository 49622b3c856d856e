//! Checklists and progress: steps tick in order and untick with their reason, moments that are
//! over tick once their evidence passes, and progress resumes where the learner was.

use super::*;
use crate::cluster::Kind;
use crate::cluster::watch::ObjectChange;
use crate::tui::state::EvidenceStanding;
use crate::tui::update::{JobMsg, LabMsg};

#[test]
fn a_checklist_ticks_in_order_and_unticks_with_the_reason_when_the_facts_change() {
    use crate::lab::eval::GitFacts;
    let mut s = builder().live().build();
    // The Application and the chart exactly as lesson 1 writes them.
    let files = catalog().template_files("01-helm-chart");
    let manifest = &files
        .iter()
        .find(|(p, _)| p == "app-src-helm.yaml")
        .unwrap()
        .1;
    let mut app: serde_json::Value = serde_saphyr::from_str(manifest).unwrap();
    app["status"] = serde_json::json!({"sync": {"status": "Synced", "revision": "abc"}, "health": {"status": "Healthy"}});
    // The Application alone ticks nothing: the steps before it are not done.
    update(
        &mut s,
        Msg::Object(ObjectChange::applied(app.clone(), Kind::Application)),
    );
    assert!(!s.lab.ticks.contains_key(&L(1)));
    let mut git = GitFacts::default();
    git.repos.insert("src".into(), Some("abc".into()));
    git.cloned.push("src".into());
    update(&mut s, Msg::Lab(LabMsg::Git(git.clone())));
    assert_eq!(
        s.lab.ticks[&L(1)].len(),
        2,
        "bare repo and clone; nothing pushed yet"
    );
    for (path, text) in &files {
        if let Some(in_repo) = path.strip_prefix("repo/") {
            git.files
                .insert(("src".into(), in_repo.to_string()), text.clone());
        }
    }
    update(&mut s, Msg::Lab(LabMsg::Git(git.clone())));
    assert_eq!(
        s.lab.ticks[&L(1)].len(),
        5,
        "pushed, applied and synced at main"
    );
    // A new push moves main on: the app is no longer synced at main, and the step says so; what
    // still holds stays done, with the time it was done.
    let first_done = s.lab.ticks[&L(1)].clone();
    git.repos.insert("src".into(), Some("def".into()));
    update(&mut s, Msg::Lab(LabMsg::Git(git.clone())));
    let states = &s.lab.checklists[&L(1)];
    assert!(
        matches!(&states[4], crate::tui::state::ItemState::Undone { why, .. } if why.to_string().contains("main is at def")),
        "{states:?}"
    );
    assert_eq!(s.lab.ticks[&L(1)].len(), 4, "the undone step lost its tick");
    assert_eq!(s.lab.ticks[&L(1)][&0], first_done[&0]);
    // Argo CD catches up: done again.
    app["status"]["sync"]["revision"] = serde_json::json!("def");
    update(
        &mut s,
        Msg::Object(ObjectChange::applied(app, Kind::Application)),
    );
    assert!(s.lab.checklists[&L(1)][4].done());
}

#[test]
fn moments_that_are_over_tick_once_the_evidence_that_proves_them_passes() {
    use crate::lab::eval::check::{Finding, Grade};
    let mut s = state();
    // Lesson 6 done elsewhere, yesterday: the broken push and the failed sync are long gone.
    let written = jiff::Timestamp::now() - jiff::SignedDuration::from_hours(24);
    update(
        &mut s,
        Msg::Lab(LabMsg::Evidence(vec![(
            "failed-hook.json".into(),
            Some(written),
        )])),
    );
    update(
        &mut s,
        Msg::Lab(LabMsg::Graded(vec![Grade {
            file: "failed-hook.json".into(),
            lesson: L(6),
            findings: vec![Finding {
                ok: true,
                what: "commit is the broken one".into(),
                hint: None,
                help: None,
                live: false,
            }],
            checked_at: None,
            changed_since: Vec::new(),
        }])),
    );
    let ticked: Vec<usize> = s.lab.ticks[&L(6)].keys().copied().collect();
    // The two moments, the file is there, and it passes: that came after the last step before
    // it that is done, so it ticks though the steps between are not known.
    assert_eq!(ticked, [0, 1, 2, 6]);
    for moment in [0, 1] {
        assert_eq!(
            s.lab.ticks[&L(6)][&moment],
            written,
            "a moment happened by the time its evidence was written, not when it was checked"
        );
    }
    update(&mut s, Msg::Lab(LabMsg::Graded(vec![waves_failing()])));
    assert!(
        !s.lab.ticks.contains_key(&L(5)),
        "a failing file proves nothing"
    );
}

#[test]
fn progress_taken_from_the_tutor_resumes_the_same_place() {
    let mut s = state();
    let mut earlier = crate::lab::progress::Progress::default();
    earlier
        .ticks
        .entry(L(1))
        .or_default()
        .insert(0, "2026-12-01T03:00:00Z".parse().unwrap());
    s.resume(earlier);
    key(&mut s, KeyCode::Char('n'));
    key(&mut s, KeyCode::Char('h'));
    let kept = s.progress();
    assert_eq!(kept.lesson, Some(L(2)));
    let mut again = state();
    again.resume(kept);
    assert_eq!(
        (
            again.ui.place.lesson,
            again.ui.place.section,
            again.ui.place.hints_shown
        ),
        (L(2), Section::Hints, 1)
    );
    assert_eq!(again.lab.ticks[&L(1)].len(), 1);
}

/// On a small screen the checklist is one line; a step that needs time to pass says how much
/// is left there too (lesson 7's 40 s showed only "next: after 40 s …" while it counted).
#[test]
fn the_one_line_checklist_counts_down_a_step_that_needs_time() {
    use crate::tui::state::ItemState;
    let mut s = builder().lesson(7).size(80, 24).build();
    let at = jiff::Timestamp::now();
    let mut states = vec![
        ItemState::Done { at },
        ItemState::Done { at },
        ItemState::Counting { left: 32 },
    ];
    states.resize(
        s.current().unwrap().spec.checklist.len(),
        ItemState::Open { why: None },
    );
    s.lab.checklists.insert(L(7), states);
    let screen = crate::tui::view::text_of_screen(&s, 80, 24);
    assert!(screen.contains("Checklist 2/"), "{screen}");
    assert!(screen.contains("⧗ 32 s to go"), "{screen}");
}

/// Lesson 5's waves.json passed; lesson 6's sync then replaced the hook Job it names, so the
/// next check fails only where it reads the cluster now: the file stands as passed then, and
/// the pane says what has changed since instead of turning red (issue 31).
#[test]
fn a_passed_file_stays_passed_as_of_then_when_only_the_cluster_moved_on() {
    use crate::lab::eval::check::{Finding, Grade};
    let mut s = builder().lesson(5).live().build();
    let written: jiff::Timestamp = "2026-12-03T10:00:00Z".parse().unwrap();
    update(
        &mut s,
        Msg::Lab(LabMsg::Evidence(vec![("waves.json".into(), Some(written))])),
    );
    let grade = |ok: bool, at: &str| Grade {
        file: "waves.json".into(),
        lesson: L(5),
        findings: vec![Finding {
            ok,
            what: if ok {
                "hook_created matches the Job"
            } else {
                "Job migrate-abc is not in src-waves any more"
            }
            .into(),
            hint: Some(3),
            help: None,
            live: true,
        }],
        checked_at: Some(at.parse().unwrap()),
        changed_since: Vec::new(),
    };
    update(
        &mut s,
        Msg::Lab(LabMsg::Graded(vec![grade(true, "2026-12-03T10:01:00Z")])),
    );
    update(
        &mut s,
        Msg::Lab(LabMsg::Graded(vec![grade(false, "2026-12-03T10:20:00Z")])),
    );
    let g = &s.lab.grades["waves.json"];
    assert!(g.passed(), "{g:?}");
    assert_eq!(g.checked_at, Some("2026-12-03T10:01:00Z".parse().unwrap()));
    let screen = crate::tui::view::text_of_screen(&s, 160, 50);
    assert!(
        screen.contains("✓ waves.json passes the self-check"),
        "{screen}"
    );
    assert!(screen.contains("it passed as of then"), "{screen}");
    assert!(!screen.contains("check again"), "{screen}");
    // Written again since: judged anew.
    update(
        &mut s,
        Msg::Lab(LabMsg::Evidence(vec![(
            "waves.json".into(),
            Some("2026-12-03T10:30:00Z".parse().unwrap()),
        )])),
    );
    update(
        &mut s,
        Msg::Lab(LabMsg::Graded(vec![grade(false, "2026-12-03T10:31:00Z")])),
    );
    assert!(!s.lab.grades["waves.json"].passed());
}

/// The next step says what it lacks, with the cause's advice (after a reopen, a step undone
/// while the tutor was closed is not ticked, and this is where its cause shows); not knowing
/// the clock is not a cause to show.
#[test]
fn the_next_step_says_what_it_lacks() {
    use crate::lab::eval::Unmet;
    use crate::tui::state::ItemState;
    let mut s = builder().lesson(1).size(120, 40).build();
    let at = jiff::Timestamp::now();
    let count = s.current().unwrap().spec.checklist.len();
    let with = |s: &mut State, why: Unmet| {
        let mut states = vec![ItemState::Done { at }, ItemState::Done { at }];
        states.push(ItemState::Open { why: Some(why) });
        states.resize(count, ItemState::Open { why: None });
        s.lab.checklists.insert(L(1), states);
        crate::tui::view::text_of_screen(s, 120, 40)
    };
    let screen = with(
        &mut s,
        Unmet::NotPushed {
            repo: "src".into(),
            path: "charts/web/Chart.yaml".into(),
        },
    );
    assert!(
        screen.contains("to main — charts/web/Chart.yaml is")
            && screen.contains("commit it and git"),
        "{screen}"
    );
    let screen = with(&mut s, Unmet::NoClock);
    assert!(!screen.contains("clock is not known"), "{screen}");
}

/// Under --speed the file system and this process date things on the wall's clock: a
/// repo made or an evidence file written is said on the cluster's, so a checklist never shows
/// an evidence file written half an hour before the sync it records (a walk at --speed 5).
#[test]
fn file_times_are_said_on_the_clusters_clock() {
    let wall: jiff::Timestamp = "2026-12-04T10:00:00Z".parse().unwrap();
    let clock = crate::session::clock::FastClock {
        speed: 5.0,
        cluster_at: "2026-12-04T11:00:00Z".parse().unwrap(),
        wall_at: wall,
        runs: Vec::new(),
    };
    let mut s = builder().live().build();
    s.session.clock = Some(clock.clone());
    let later = wall
        .checked_add(jiff::SignedDuration::from_secs(10))
        .unwrap();
    let mut git = crate::lab::eval::GitFacts::default();
    git.made.insert("src".into(), later);
    git.cloned_at = Some(later);
    update(&mut s, Msg::Lab(LabMsg::Git(git.clone())));
    let on_the_cluster: jiff::Timestamp = "2026-12-04T11:00:50Z".parse().unwrap();
    assert_eq!(s.lab.git.made["src"], on_the_cluster);
    assert_eq!(s.lab.git.cloned_at, Some(on_the_cluster));
    // The same facts again are the same facts (no regrade for nothing).
    assert!(super::super::regrade::same_lab_facts(&s, &LabMsg::Git(git)));
    update(
        &mut s,
        Msg::Lab(LabMsg::Evidence(vec![(
            "precedence.json".into(),
            Some(later),
        )])),
    );
    assert_eq!(
        s.evidence_facts()["precedence.json"].written,
        Some(on_the_cluster)
    );
}

/// Lesson 6 as its plan does it: the failed sync ticked, then the fix pushed before
/// failed-hook.json is written (to show the trap). The fix is done, said as done, though a step
/// before it is not; a fix that was in Git before the failed sync (left over) is not.
#[test]
fn a_step_done_after_the_last_done_step_ticks_out_of_order() {
    use crate::lab::eval::GitFacts;
    use crate::tui::state::ItemState;
    let failed: jiff::Timestamp = "2026-12-03T08:00:00Z".parse().unwrap();
    let pushed = |at: &str| {
        let mut s = builder().lesson(6).live().build();
        let mut earlier = crate::lab::progress::Progress::default();
        for step in 0..2 {
            earlier.ticks.entry(L(6)).or_default().insert(step, failed);
        }
        s.resume(earlier);
        let mut git = GitFacts::default();
        git.repos.insert("src".into(), Some("fix".into()));
        for template in ["06-failed-hook", "06-failed-hook-fix"] {
            for (path, text) in catalog().template_files(template) {
                if let Some(in_repo) = path.strip_prefix("repo/") {
                    git.files.insert(("src".into(), in_repo.to_string()), text);
                    git.changed
                        .insert(("src".into(), in_repo.to_string()), at.parse().unwrap());
                }
            }
        }
        update(&mut s, Msg::Lab(LabMsg::Git(git)));
        s.lab.checklists[&L(6)].clone()
    };
    let after = pushed("2026-12-03T08:01:00Z");
    assert!(
        matches!(after[2], ItemState::Open { .. }),
        "failed-hook.json is not written: {after:?}"
    );
    assert_eq!(
        after[3],
        ItemState::Done {
            at: "2026-12-03T08:01:00Z".parse().unwrap()
        },
        "the fix, pushed after the failed sync"
    );
    let before = pushed("2026-12-03T07:59:00Z");
    assert!(
        matches!(before[3], ItemState::Open { .. }),
        "a fix older than the failure is not this lesson's: {before:?}"
    );
}

/// Under --speed the checklist's times are the cluster's, so the time a plan took is said on
/// both clocks: 66 s of the wall beside five minutes of ticks read as a contradiction.
#[test]
fn a_plans_time_is_said_on_both_clocks_when_the_cluster_runs_fast() {
    let done_in = |clock: Option<crate::session::clock::FastClock>| {
        let mut s = builder().lesson(6).size(200, 50).build();
        s.session.clock = clock;
        s.run.job = Some(JobView::new(L(6), Vec::new(), jiff::Timestamp::now()));
        update(&mut s, Msg::Job(JobMsg::Ended(Ok(()))));
        s.run.job.as_mut().unwrap().took = Some(std::time::Duration::from_secs(66));
        crate::tui::view::text_of_screen(&s, 200, 50)
    };
    let wall: jiff::Timestamp = "2026-12-04T10:00:00Z".parse().unwrap();
    let fast = done_in(Some(crate::session::clock::FastClock {
        speed: 5.0,
        cluster_at: wall,
        wall_at: wall,
        runs: Vec::new(),
    }));
    assert!(
        fast.contains("✓ done in 66s (330s on the cluster's ×5 clock)"),
        "{fast}"
    );
    let real = done_in(None);
    assert!(
        real.contains("✓ done in 66s") && !real.contains("cluster's ×"),
        "{real}"
    );
}

/// A lesson's plan writes its evidence a moment at a time and checks it once whole: while it
/// runs, a part that fails the check reads as being written, not as failing; once the plan has
/// ended, a file that fails, fails.
#[test]
fn a_file_its_plan_is_still_writing_is_not_called_failing() {
    let mut s = builder().lesson(5).build();
    let written: jiff::Timestamp = "2026-12-05T03:00:00Z".parse().unwrap();
    s.lab.evidence.insert("waves.json".into(), Some(written));
    update(&mut s, Msg::Lab(LabMsg::Graded(vec![waves_failing()])));
    let screen = crate::tui::view::text_of_screen(&s, 120, 40);
    assert!(screen.contains("fails the self-check"), "{screen}");
    assert_eq!(s.evidence_standing("waves.json"), EvidenceStanding::Fails);

    s.run.job = Some(JobView::new(L(5), Vec::new(), jiff::Timestamp::now()));
    assert_eq!(
        s.evidence_standing("waves.json"),
        EvidenceStanding::BeingWritten
    );
    // The lesson's verdict says the same: no failure yet.
    let screen = crate::tui::view::text_of_screen(&s, 120, 40);
    assert!(
        screen.contains("waves.json being written") && !screen.contains("fails the self-check"),
        "{screen}"
    );
    // Another lesson's plan writes another file: this one still fails.
    s.run.job = Some(JobView::new(L(6), Vec::new(), jiff::Timestamp::now()));
    assert_eq!(s.evidence_standing("waves.json"), EvidenceStanding::Fails);

    let mut ended = JobView::new(L(5), Vec::new(), jiff::Timestamp::now());
    ended.finished = Some(Ok(()));
    s.run.job = Some(ended);
    assert_eq!(s.evidence_standing("waves.json"), EvidenceStanding::Fails);
}

/// Lesson 5's file, failing one finding (its hook Job).
fn waves_failing() -> crate::lab::eval::check::Grade {
    use crate::lab::eval::check::{Finding, Grade};
    Grade {
        file: "waves.json".into(),
        lesson: L(5),
        findings: vec![Finding {
            ok: false,
            what: "hook_job".into(),
            hint: Some(3),
            help: None,
            live: false,
        }],
        checked_at: None,
        changed_since: Vec::new(),
    }
}
