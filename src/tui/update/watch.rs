//! The watches' messages and what depends on the cluster answering: a list replaces everything
//! its stream held (so what was deleted while the cluster was away disappears), a lost stream
//! marks its panes stale, an action that needs the cluster is refused in plain words while it
//! does not answer, and self-checks asked for meanwhile wait until every stream is live again.

use serde_json::Value;

use super::{Effect, Msg};
use crate::cluster::watch::{StreamId, WatchEvent};
use crate::lab::spec::LessonId;
use crate::tui::keymap::Action;
use crate::tui::state::{Notice, State};

/// What a watch saw, as a message: an Application or another object, or a stream's health.
impl From<WatchEvent> for Msg {
    fn from(e: WatchEvent) -> Msg {
        match e {
            WatchEvent::Applied { key, object } if StreamId::applications().holds(&key) => {
                Msg::App(object)
            }
            WatchEvent::Applied { key, object } => Msg::Object(key, object),
            WatchEvent::Deleted { key } => match key.strip_prefix("argocd/Application/") {
                Some(name) => Msg::AppGone(name.to_string()),
                None => Msg::ObjectGone(key),
            },
            WatchEvent::Listed {
                stream,
                objects,
                at,
            } => Msg::Listed {
                stream,
                objects,
                at,
            },
            WatchEvent::Lost {
                stream,
                problem,
                at,
            } => Msg::StreamLost {
                stream,
                problem,
                at,
            },
            WatchEvent::Expired { stream, at } => Msg::StreamExpired { stream, at },
        }
    }
}

pub fn on_watch(s: &mut State, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Listed {
            stream,
            objects,
            at,
        } => {
            s.live.now = at;
            replace(s, &stream, objects);
            s.live.health.listed(&stream);
            run_deferred(s)
        }
        Msg::StreamLost {
            stream,
            problem,
            at,
        } => {
            s.live.now = at;
            s.live.health.lost(&stream, problem, at);
            Vec::new()
        }
        Msg::StreamExpired { stream, at } => {
            s.live.now = at;
            s.live.health.expired(&stream, at);
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// What `stream` holds now, in place of what it held.
fn replace(s: &mut State, stream: &StreamId, objects: Vec<(String, Value)>) {
    if *stream == StreamId::applications() {
        s.live.apps.clear();
        for (_, json) in objects {
            s.live.insert_app(&json);
        }
    } else {
        s.live.objects.retain(|key, _| !stream.holds(key));
        s.live.objects.extend(objects);
    }
}

/// Self-checks of these lessons, asked for by changed evidence: now when every stream is live
/// (a grade read from a cluster that does not answer would fail for the wrong reason), else
/// once they all are.
pub fn checks(s: &mut State, lessons: impl IntoIterator<Item = LessonId>) -> Vec<Effect> {
    s.lab.deferred_checks.extend(lessons);
    run_deferred(s)
}

fn run_deferred(s: &mut State) -> Vec<Effect> {
    if !s.live.health.all_live() {
        return Vec::new();
    }
    std::mem::take(&mut s.lab.deferred_checks)
        .into_iter()
        .map(Effect::Check)
        .collect()
}

/// Whether `action` must wait for the cluster: it does not answer, so the learner
/// is told so now instead of after the action's timeout.
pub fn refused_while_unreachable(s: &mut State, action: Action) -> bool {
    let Some(problem) = s.live.health.unreachable().cloned() else {
        return false;
    };
    let since = s.live.health.oldest();
    s.ui.notice = Some(Notice::ClusterUnreachable {
        action,
        problem,
        since,
    });
    true
}
