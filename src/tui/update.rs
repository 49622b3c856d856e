//! The one writer: `update` turns a message into changes of state and returns the effects the
//! runtime must carry out. No I/O here, so every behaviour is testable without a terminal.

mod checklist;
mod input;
mod keys;
mod msg;
mod navigate;
mod plan;
mod regrade;
mod shell;
mod snippet;
pub mod state;
pub(super) mod watch;

pub use msg::{DrawnMsg, Effect, InputMsg, JobMsg, LabMsg, Msg, ReplayMsg, ShellMsg};
pub use regrade::{REGRADE_AT_MOST, REGRADE_QUIET};

use crate::cluster::watch::StreamChange;
use state::State;

pub fn update(s: &mut State, msg: Msg) -> Vec<Effect> {
    // One object's change costs what it touches, and nothing when it changed nothing.
    if let Msg::Object(change) = msg {
        return watch::on_object(s, change);
    }
    // The folder watch reads the lab's files again after any burst of changes; the same facts
    // again change nothing (no judging, no frame).
    if let Msg::Lab(lab) = &msg
        && regrade::same_lab_facts(s, lab)
    {
        return Vec::new();
    }
    s.version += 1;
    // What the self-checks read: when it changes, the grades shown are re-run.
    let world_changed = matches!(
        msg,
        Msg::Stream(StreamChange::Listed { .. }) | Msg::Lab(LabMsg::Git(_))
    );
    let facts_changed = world_changed
        || matches!(
            msg,
            Msg::Lab(LabMsg::Evidence(_) | LabMsg::Graded(_) | LabMsg::ClusterClock(_))
        );
    let ticked = matches!(msg, Msg::Tick(_));
    // The clock just read is not a reason to read it again at once (that would spin while a
    // step counts down): the next tick is.
    let clock_read = matches!(msg, Msg::Lab(LabMsg::ClusterClock(_)));
    let shown = s.ui.place.lesson;
    let mut effects = apply(s, msg);
    // A lesson comes on screen as it stands now: its steps were judged when their facts last
    // changed, and a step that counts down may have been waiting for the clock since. (Not
    // before every stream has listed: half the facts would untick what is done.)
    let arrived = s.ui.place.lesson != shown && s.live.health.all_live();
    if facts_changed {
        checklist::refresh(s);
    } else if arrived {
        // Only the lesson that came on screen: nothing the others read has changed.
        checklist::refresh_touched(s, checklist::Touched::Lesson(s.ui.place.lesson));
    }
    if world_changed {
        regrade::schedule_regrade(s);
    }
    if ((facts_changed && !clock_read) || ticked || arrived)
        && wants_cluster_clock(s)
        && !s.live.clock_asked
    {
        s.live.clock_asked = true;
        effects.push(Effect::ReadClusterClock);
    }
    effects.extend(shell::follow_size(s));
    effects
}

/// An Application or object changed (`watch::on_object`): the screen is redrawn, the lessons
/// that read it are judged again, and the self-checks shown run again after a quiet moment.
fn changed(s: &mut State, touched: checklist::Touched<'_>) -> Vec<Effect> {
    s.version += 1;
    checklist::refresh_touched(s, touched);
    regrade::schedule_regrade(s);
    if wants_cluster_clock(s) && !s.live.clock_asked {
        s.live.clock_asked = true;
        return vec![Effect::ReadClusterClock];
    }
    Vec::new()
}

/// A step of the lesson on screen needs the cluster's clock: it counts down, or it holds and
/// only the clock is missing.
fn wants_cluster_clock(s: &State) -> bool {
    use crate::lab::eval::Unmet;
    use crate::tui::state::ItemState;
    s.lab
        .checklists
        .get(&s.ui.place.lesson)
        .is_some_and(|items| {
            items.iter().any(|i| {
                matches!(
                    i,
                    ItemState::Counting { .. }
                        | ItemState::Open {
                            why: Some(Unmet::NoClock)
                        }
                )
            })
        })
}

/// Each owner's messages to the file of `update/` that handles them.
fn apply(s: &mut State, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Input(input) => input::on_input(s, input),
        Msg::Object(change) => watch::on_object(s, change),
        Msg::Stream(change) => watch::on_stream(s, change),
        Msg::Job(job) => plan::on_job(s, job),
        Msg::Lab(lab) => regrade::on_lab(s, lab),
        Msg::Shell(shell) => shell::on_shell(s, shell),
        Msg::Drawn(drawn) => {
            navigate::on_drawn(s, drawn);
            Vec::new()
        }
        Msg::Retargeted(target) => {
            // The process this tutor was attached to ended and this one serves the lab now:
            // say so, as a tutor that starts by taking a lab over does.
            if let (
                crate::session::Target::Embedded {
                    served_by: Some(pid),
                    ..
                },
                crate::session::Target::Embedded {
                    served_by: None, ..
                },
            ) = (&s.session.target, &target)
            {
                s.ui.notice = Some(state::Notice::LabStarted(crate::session::Started {
                    took_over_from: Some(*pid),
                    ..crate::session::Started::default()
                }));
            }
            s.session.target = target;
            Vec::new()
        }
        Msg::Tick(now) => {
            s.live.now = now;
            Vec::new()
        }
        Msg::Replaying(replaying) => {
            on_replaying(s, replaying);
            Vec::new()
        }
    }
}

/// A replay's moment on show, and the language it is watched in.
fn on_replaying(s: &mut State, msg: ReplayMsg) {
    match msg {
        ReplayMsg::At(at) => s.session.replaying_at = Some(at),
        ReplayMsg::Lang(lang) => s.session.lang = lang,
    }
}

#[cfg(test)]
mod change_tests;
#[cfg(test)]
mod health_tests;
#[cfg(test)]
mod tests;
