//! The one writer: `update` turns a message into changes of state and returns the effects the
//! runtime must carry out. No I/O here, so every behaviour is testable without a terminal.

mod checklist;
mod keys;
mod msg;
mod navigate;
mod plan;
mod regrade;
mod shell;
mod snippet;
pub mod state;
pub(super) mod watch;

pub use msg::{Effect, Msg};
pub use regrade::{REGRADE_AT_MOST, REGRADE_QUIET};

use super::layout;
use crate::lab::spec::LessonId;
use state::{Pane, ShellStatus, State};

pub fn update(s: &mut State, msg: Msg) -> Vec<Effect> {
    // One object's change costs what it touches, and nothing when it changed nothing.
    if let object @ (Msg::App(_) | Msg::AppGone(_) | Msg::Object(..) | Msg::ObjectGone(_)) = msg {
        return watch::on_object(s, object);
    }
    // The folder watch reads the lab's files again after any burst of changes; the same facts
    // again change nothing (no judging, no frame).
    if regrade::same_lab_facts(s, &msg) {
        return Vec::new();
    }
    s.version += 1;
    // What the self-checks read: when it changes, the grades shown are re-run.
    let world_changed = matches!(msg, Msg::Listed { .. } | Msg::Git(_));
    let facts_changed = world_changed
        || matches!(
            msg,
            Msg::Evidence(_) | Msg::Graded(_) | Msg::ClusterClock(_)
        );
    let ticked = matches!(msg, Msg::Tick(_));
    // The clock just read is not a reason to read it again at once (that would spin while a
    // step counts down): the next tick is.
    let clock_read = matches!(msg, Msg::ClusterClock(_));
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

fn apply(s: &mut State, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Key(key) => keys::on_key(s, key),
        Msg::Click { column, row } => match layout::pane_at(s, column, row) {
            // A click on the shell types into it (starting it when it is not running).
            Some(Pane::Shell) => shell::enter(s),
            Some(pane) => {
                s.ui.panes.focus = pane;
                s.shell.typing = false;
                Vec::new()
            }
            None => Vec::new(),
        },
        Msg::Wheel { column, row, up } => {
            navigate::wheel(s, (column, row), up);
            Vec::new()
        }
        Msg::LessonShownAt(at) => {
            s.ui.panes.scroll.insert(Pane::Lesson, at);
            Vec::new()
        }
        Msg::ScrollLimits(limits) => {
            for (pane, reach) in &limits {
                if let Some(at) = s.ui.panes.scroll.get_mut(pane) {
                    *at = (*at).min(reach.max);
                }
            }
            s.ui.panes.reach = limits;
            Vec::new()
        }
        Msg::ShellOutput(bytes) => {
            shell::output(s, &bytes);
            snippet::deliver(s)
        }
        Msg::ShellExited(code) => shell::ended(s, ShellStatus::Exited(code)),
        Msg::ShellFailed(why) => shell::ended(s, ShellStatus::Failed(why)),
        job @ (Msg::Job(_) | Msg::JobEnded(_)) => plan::on_job(s, job),
        Msg::Resize(w, h) => {
            s.ui.panes.size = (w, h);
            Vec::new()
        }
        Msg::EvidenceChanged(files) => {
            let lessons: Vec<LessonId> = s
                .lessons()
                .iter()
                .filter(|l| {
                    l.evidence_file()
                        .is_some_and(|f| files.iter().any(|c| c == f))
                })
                .map(|l| l.id())
                .collect();
            watch::checks(s, lessons)
        }
        // Handled by `watch::on_object` before `apply`.
        Msg::App(_) | Msg::AppGone(_) | Msg::Object(..) | Msg::ObjectGone(_) => Vec::new(),
        health @ (Msg::Listed { .. } | Msg::StreamLost { .. } | Msg::StreamExpired { .. }) => {
            watch::on_watch(s, health)
        }
        Msg::Tick(now) => {
            s.live.now = now;
            Vec::new()
        }
        Msg::Evidence(files) => {
            let files: std::collections::BTreeMap<_, _> = files.into_iter().collect();
            // A file written or removed changes what the lesson's checks can say.
            if files != s.lab.evidence {
                s.lab.evidence = files;
                regrade::schedule_regrade(s);
            }
            Vec::new()
        }
        lab @ (Msg::Graded(_) | Msg::ChartValues(_) | Msg::Commits(_) | Msg::Git(_)) => {
            regrade::on_lab(s, lab);
            Vec::new()
        }
        Msg::Retargeted(target) => {
            s.session.target = target;
            Vec::new()
        }
        Msg::ClusterClock(now) => {
            s.live.cluster_now = Some(now);
            s.live.clock_asked = false;
            Vec::new()
        }
        Msg::RegradeDue => regrade::regrade(s),
    }
}

#[cfg(test)]
mod change_tests;
#[cfg(test)]
mod health_tests;
#[cfg(test)]
mod tests;
