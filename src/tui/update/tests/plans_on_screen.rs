//! Plans on a small screen, presenting or not: what the next press will do, what a running step
//! waits for and why a step failed stay on screen, and step mode left behind leaves nothing
//! running.

use super::plans::{lesson_words, plan_shown, started, step_failed};
use super::*;
use crate::tui::update::JobMsg;

/// Presenting on a small screen, a running step shows what it waits for: the log's copies of it
/// and the lines said before it give way, never the live line (lesson 6 at 80×24 showed only
/// "running…" for four minutes while the wait's reason was below the pane's edge).
#[test]
fn presenting_a_running_step_keeps_what_it_waits_for_on_screen() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut s = builder().lesson(6).present(true).size(w, h).build();
        key(&mut s, KeyCode::Char('g'));
        assert!(
            matches!(
                key(&mut s, KeyCode::Char('g')).as_slice(),
                [Effect::RunStep { .. }]
            ),
            "the step runs"
        );
        let title = "write the broken migration";
        plan_shown(&mut s, L(6), |_| title.into());
        started(&mut s, 1, title);
        for _ in 0..5 {
            update(
                &mut s,
                Msg::Job(JobMsg::Progress(Progress::Blocker {
                    step: 1,
                    line: "waiting: the operation to end (phase Running)".into(),
                })),
            );
        }
        let screen = crate::tui::view::text_of_screen(&s, w, h);
        assert!(
            screen.contains("waiting: the operation to end (phase Running)"),
            "{w}x{h}:\n{screen}"
        );
        assert!(screen.contains("Step mode"), "{w}x{h}:\n{screen}");
    }
}

/// Presenting on a small screen, a step that failed with a long reason shows it once and
/// whole, under the whole heading: the plan keeps whole lines, never a line from its middle
/// (lesson 6 replayed on a finished lab showed the heading cut off, then the middle of the
/// failure, then the failure again from the log).
#[test]
fn presenting_a_failed_step_says_its_reason_once_and_whole() {
    use crate::lab::engine::StepError;
    for (w, h) in [(80, 24), (120, 40)] {
        let mut s = builder().lesson(6).present(true).size(w, h).build();
        key(&mut s, KeyCode::Char('g'));
        key(&mut s, KeyCode::Char('g'));
        let title = "wait for src-waves's operation to fail";
        plan_shown(&mut s, L(6), |_| title.into());
        started(&mut s, 1, title);
        let said = step_failed(
            &mut s,
            1,
            title,
            StepError::NothingToSync {
                app: "src-waves".into(),
                commit: "962e9c1".into(),
            },
        );
        let screen = crate::tui::view::text_of_screen(&s, w, h);
        let lesson_words = lesson_words(&s, w, h);
        let heading = crate::t!(
            Lang::FALLBACK,
            "step-mode-heading",
            at = 0,
            of = s.current().unwrap().spec.actions.len(),
            now = crate::t!(Lang::FALLBACK, "step-mode-clicker-runs-it")
        );
        assert!(
            lesson_words.contains(&heading),
            "{w}x{h}, no whole {heading:?}:\n{screen}"
        );
        let end = said.split_whitespace().rev().take(6).collect::<Vec<_>>();
        let end: String = end.into_iter().rev().collect::<Vec<_>>().join(" ");
        assert_eq!(
            lesson_words.matches(&end).count(),
            1,
            "{w}x{h}: the reason's end {end:?} once:\n{screen}"
        );
    }
}

/// Step mode left between two actions (another lesson, or x) leaves no plan "running" behind:
/// r then runs the lesson shown, and a key refused while a plan runs says which plan and how
/// to cancel it, instead of nothing.
#[test]
fn leaving_step_mode_leaves_nothing_running_and_a_refused_key_says_why() {
    for leave in [KeyCode::Char('n'), KeyCode::Char('x')] {
        let mut s = builder().lesson(5).build();
        key(&mut s, KeyCode::Char('g'));
        key(&mut s, KeyCode::Char('g'));
        update(&mut s, Msg::Job(JobMsg::Ended(Ok(()))));
        assert!(!s.run.running(), "between two actions nothing runs");
        key(&mut s, leave);
        assert!(s.run.step_mode.is_none(), "{leave:?} leaves step mode");
        assert!(
            s.run.job.is_none(),
            "{leave:?}: the stepped plan is not left running"
        );
        key(&mut s, KeyCode::Char('n'));
        let shown = s.ui.place.lesson;
        assert_eq!(key(&mut s, KeyCode::Char('r')), [Effect::RunLesson(shown)]);
    }
    // A plan runs: r and g on another lesson say so.
    let mut s = builder().lesson(5).build();
    assert_eq!(key(&mut s, KeyCode::Char('r')), [Effect::RunLesson(L(5))]);
    s.run.job = Some(JobView::new(
        L(5),
        vec![PlanStep::todo("a")],
        jiff::Timestamp::now(),
    ));
    key(&mut s, KeyCode::Char('n'));
    for refused in [KeyCode::Char('r'), KeyCode::Char('g')] {
        assert!(key(&mut s, refused).is_empty());
        assert!(
            matches!(
                s.ui.notice,
                Some(crate::tui::state::Notice::PlanRunning { lesson, .. }) if lesson == L(5)
            ),
            "{refused:?}: {:?}",
            s.ui.notice
        );
        let screen = crate::tui::view::text_of_screen(&s, 120, 40);
        assert!(
            screen.contains("lesson 5's plan is running") && screen.contains("press x"),
            "{screen}"
        );
        key(&mut s, KeyCode::Esc);
    }
}

/// Presenting on a small screen, what the next press will do, and what the last one showed,
/// are on screen before and after each action: blank lines, the log and the steps that ran
/// give way first (at 80×24 lesson 6 showed "waiting for the next press" but not the action
/// the presenter was about to run, then lost the wait's outcome to the step's own title).
#[test]
fn presenting_at_80x24_the_next_action_and_the_last_outcome_stay_on_screen() {
    let first_words = |text: &str| {
        text.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    };
    for lesson in [2, 5, 6, 7] {
        let mut s = builder().lesson(lesson).present(true).size(80, 24).build();
        key(&mut s, KeyCode::Char('g'));
        let actions = s.current().unwrap().spec.actions.clone();
        plan_shown(&mut s, L(lesson), |_| "a step of the plan".into());
        for (i, action) in actions.iter().enumerate() {
            let screen = crate::tui::view::text_of_screen(&s, 80, 24);
            let words = lesson_words(&s, 80, 24);
            let say = action.say.as_ref().map_or_else(
                || action.step.title().say(Lang::FALLBACK),
                |l| l.get(Lang::FALLBACK).to_string(),
            );
            let next = format!("▶ {}", first_words(&say));
            assert!(
                words.contains(&next),
                "lesson {lesson}, before action {i}: no {next:?} in\n{screen}"
            );
            if let Some(then) = i.checked_sub(1).and_then(|p| actions[p].then.as_ref()) {
                let then = format!("✓ {}", first_words(then.get(Lang::FALLBACK)));
                assert!(
                    words.contains(&then),
                    "lesson {lesson}, after action {}: no {then:?} in\n{screen}",
                    i - 1
                );
            }
            // The room answers, the action runs and is done.
            if let Some((answer, _)) = s.pending_question() {
                s.lab.answers.insert(answer, "x".into());
            }
            key(&mut s, KeyCode::Char('g'));
            update(
                &mut s,
                Msg::Job(JobMsg::Progress(Progress::Started {
                    step: i + 1,
                    title: "a step of the plan".into(),
                })),
            );
            update(
                &mut s,
                Msg::Job(JobMsg::Progress(Progress::Done {
                    step: i + 1,
                    summary: "did what this step of the lesson's plan does".into(),
                })),
            );
            update(&mut s, Msg::Job(JobMsg::Ended(Ok(()))));
        }
    }
}

/// A learner's "do it for me" on a small screen shows the step running and what it waits
/// for: the plan's map of steps and its log give way (at 80×24 the wait's reason was below
/// the pane's edge, and only `z` showed it).
#[test]
fn a_learners_running_plan_keeps_what_it_waits_for_on_screen() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut s = builder().lesson(5).size(w, h).build();
        assert_eq!(key(&mut s, KeyCode::Char('r')), [Effect::RunLesson(L(5))]);
        plan_shown(&mut s, L(5), |i| format!("step number {i} of the plan"));
        for step in 1..=3 {
            started(
                &mut s,
                step,
                &format!("step number {} of the plan", step - 1),
            );
            if step < 3 {
                update(
                    &mut s,
                    Msg::Job(JobMsg::Progress(Progress::Done {
                        step,
                        summary: "did it".into(),
                    })),
                );
            }
        }
        update(
            &mut s,
            Msg::Job(JobMsg::Progress(Progress::Blocker {
                step: 3,
                line: "waiting for completion of hook batch/Job/migrate".into(),
            })),
        );
        let screen = crate::tui::view::text_of_screen(&s, w, h);
        let words = lesson_words(&s, w, h);
        for must in [
            "waiting for completion of hook batch/Job/migrate",
            "step number 2 of the plan",
            "Do it for me · lesson 5",
        ] {
            assert!(words.contains(must), "{w}x{h}: no {must:?} in\n{screen}");
        }
    }
}
