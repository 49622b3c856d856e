//! The tutor's lab end to end against the embedded cluster: the lessons done for the learner
//! and by hand, their evidence and self-check, a made-up ninth lesson, and `capa-tui sim serve`
//! and `capa-tui app` as processes; one file per topic in `lab/`.
// Each end-to-end test is one learner's session read top to bottom (start, act, look, act
// again); cutting it into helpers would hide the order that is the point of the test.
#![allow(clippy::too_many_lines)]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]

mod common;

/// One module per topic (the files of `tests/lab/`).
mod lab {
    mod app_commands;
    mod app_of_apps;
    mod by_hand;
    mod class;
    mod lab_setup;
    mod lab_waves;
    mod learners;
    mod lesson_faults;
    mod lesson_languages;
    mod lesson_pack;
    mod lesson_text;
    mod lesson_three_helm;
    mod lesson_trial;
    mod lessons;
    mod ninth_lesson;
    mod one_clock;
    mod self_check;
    mod serve;
    mod step_kinds;
    mod watch_scope;
}
