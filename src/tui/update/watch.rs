//! The watches' messages and what depends on the cluster answering: a list replaces everything
//! its stream held (so what was deleted while the cluster was away disappears), a lost stream
//! marks its panes stale, an action that needs the cluster is refused in plain words while it
//! does not answer, and self-checks asked for meanwhile wait until every stream is live again.

use serde_json::Value;

use super::checklist::Touched;
use super::{Effect, Msg};
use crate::cluster::watch::{StreamId, WatchEvent};
use crate::lab::eval::AppFacts;
use crate::lab::spec::LessonId;
use crate::tui::keymap::Action;
use crate::tui::state::{Notice, State};

/// The keys of Applications: they are kept typed, apart from the other objects.
const APP_KEY_PREFIX: &str = "argocd/Application/";

/// What a watch saw, as a message: an Application or another object, or a stream's health.
impl From<WatchEvent> for Msg {
    fn from(e: WatchEvent) -> Msg {
        match e {
            WatchEvent::Applied { key, object } if key.starts_with(APP_KEY_PREFIX) => {
                Msg::App(object)
            }
            WatchEvent::Applied { key, object } => Msg::Object(key, object),
            WatchEvent::Deleted { key } => match key.strip_prefix(APP_KEY_PREFIX) {
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

/// An Application or object that came or went: kept, and the lessons that read it judged again,
/// only when it changed something the tutor keeps (a lab app's refresh that changed nothing the
/// tutor reads, or an app that is not the lab's, changes no state and draws no frame).
pub fn on_object(s: &mut State, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::App(json) => {
            let Some(app) = AppFacts::from_json(&json) else {
                return Vec::new();
            };
            let name = app.app.metadata.name.clone();
            let lab_app = s.session.catalog.apps().contains(&name.as_str());
            if !lab_app
                || s.live
                    .apps
                    .get(&name)
                    .is_some_and(|had| same_app(had, &app))
            {
                return Vec::new();
            }
            s.live.apps.insert(name.clone(), app);
            super::changed(s, Touched::App(&name))
        }
        Msg::AppGone(name) => match s.live.apps.remove(&name) {
            Some(_) => super::changed(s, Touched::App(&name)),
            None => Vec::new(),
        },
        Msg::Object(key, obj) => {
            if s.live
                .objects
                .get(&key)
                .is_some_and(|had| same_object(had, &obj))
            {
                return Vec::new();
            }
            let read_as = read_as(&key, &obj);
            s.live.objects.insert(key, obj);
            super::changed(s, Touched::Object(&read_as))
        }
        Msg::ObjectGone(key) => match s.live.objects.remove(&key) {
            Some(gone) => super::changed(s, Touched::Object(&read_as(&key, &gone))),
            None => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The key whose readers an object's change concerns: an Event's is the object it is about (a
/// scale Event dates its Deployment's scale, and usually arrives after the Deployment's own
/// change, which was judged without it); any other object's is its own.
fn read_as(key: &str, obj: &Value) -> String {
    let about = &obj["involvedObject"];
    match (
        key.split('/').nth(1),
        about["kind"].as_str(),
        about["name"].as_str(),
    ) {
        (Some("Event"), Some(kind), Some(name)) => {
            let ns = about["namespace"]
                .as_str()
                .or_else(|| key.split('/').next())
                .unwrap_or_default();
            format!("{ns}/{kind}/{name}")
        }
        _ => key.to_string(),
    }
}

/// The same Application, as far as anything the tutor reads goes.
fn same_app(a: &AppFacts, b: &AppFacts) -> bool {
    a.app == b.app && a.spec == b.spec && a.applied_at == b.applied_at
}

/// The same object but for its resourceVersion (which every write moves).
fn same_object(had: &Value, now: &Value) -> bool {
    let version = |o: &Value| o["metadata"]["resourceVersion"].clone();
    if version(had) == version(now) {
        return had == now;
    }
    let (Some(a), Some(b)) = (had.as_object(), now.as_object()) else {
        return had == now;
    };
    a.len() == b.len()
        && a.iter().all(|(k, v)| match (k.as_str(), b.get(k)) {
            ("metadata", Some(w)) => {
                let (Some(m), Some(n)) = (v.as_object(), w.as_object()) else {
                    return v == w;
                };
                m.len() == n.len()
                    && m.iter()
                        .all(|(k, v)| k == "resourceVersion" || n.get(k) == Some(v))
            }
            (_, w) => w == Some(v),
        })
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
    if stream.is_app() {
        s.live
            .apps
            .retain(|name, _| !stream.holds(&format!("{APP_KEY_PREFIX}{name}")));
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_scale_event_concerns_the_deployment_it_dates_and_other_objects_themselves() {
        let event = json!({"kind": "Event", "involvedObject": {"kind": "Deployment", "name": "prod-api", "namespace": "src-kust"}});
        assert_eq!(
            read_as("src-kust/Event/prod-api.1", &event),
            "src-kust/Deployment/prod-api"
        );
        let cm = json!({"kind": "ConfigMap", "metadata": {"name": "settings"}});
        assert_eq!(
            read_as("src-waves/ConfigMap/settings", &cm),
            "src-waves/ConfigMap/settings"
        );
    }
}
