//! The watches' messages and what depends on the cluster answering: a list replaces everything
//! its stream held (so what was deleted while the cluster was away disappears), a lost stream
//! marks its panes stale, an action that needs the cluster is refused in plain words while it
//! does not answer, and self-checks asked for meanwhile wait until every stream is live again.

use serde_json::Value;

use super::Effect;
use super::checklist::Touched;
use crate::cluster::watch::{ObjectChange, StreamChange, StreamId};
use crate::cluster::{Kind, ObjectKey};
use crate::lab::eval::AppFacts;
use crate::lab::spec::LessonId;
use crate::tui::keymap::Action;
use crate::tui::state::{Notice, State};

/// An Application or object that came or went: kept, and the lessons that read it judged again,
/// only when it changed something the tutor keeps (a lab app's refresh that changed nothing the
/// tutor reads, or an app that is not the lab's, changes no state and draws no frame).
pub fn on_object(s: &mut State, change: ObjectChange) -> Vec<Effect> {
    match change {
        ObjectChange::Applied { key, object } if key.is_app() => {
            let Some(app) = AppFacts::from_json(&object) else {
                return Vec::new();
            };
            let name = app.app.metadata.name.clone();
            let lab_app = s.session.catalog.apps().contains(&name.as_str());
            // An Application a lesson reads as an object (its managedFields, a field a
            // prediction reveals) is kept whole too.
            let object_changed = keep_app_object(s, &key, &object);
            if !lab_app
                || (!object_changed
                    && s.live
                        .apps
                        .get(&name)
                        .is_some_and(|had| same_app(had, &app)))
            {
                return Vec::new();
            }
            s.live.apps.insert(name.clone(), app);
            super::changed(s, Touched::App(&name))
        }
        ObjectChange::Deleted { key } if key.is_app() => {
            if s.live.objects.remove(&key).is_some() {
                remember_gone(s, &key);
            }
            match s.live.apps.remove(&key.name) {
                Some(_) => super::changed(s, Touched::App(&key.name)),
                None => Vec::new(),
            }
        }
        ObjectChange::Applied { key, object } => {
            if s.live
                .objects
                .get(&key)
                .is_some_and(|had| same_object(had, &object))
            {
                return Vec::new();
            }
            let read_as = read_as(&key, &object);
            s.live.gone.remove(&key);
            s.live.objects.insert(key, object);
            super::changed(s, Touched::Object(&read_as))
        }
        ObjectChange::Deleted { key } => match s.live.objects.remove(&key) {
            Some(gone) => {
                remember_gone(s, &key);
                super::changed(s, Touched::Object(&read_as(&key, &gone)))
            }
            None => Vec::new(),
        },
    }
}

/// Objects remembered as deleted, at most: a long session's Pods and Events come and go.
const GONE_KEPT: usize = 256;

/// Remembers that the watches saw `key` deleted now; the oldest memory goes past `GONE_KEPT`.
fn remember_gone(s: &mut State, key: &ObjectKey) {
    s.live.gone.insert(key.clone(), s.session.wall_now());
    if s.live.gone.len() > GONE_KEPT
        && let Some(oldest) = s
            .live
            .gone
            .iter()
            .min_by_key(|(_, at)| **at)
            .map(|(k, _)| k.clone())
    {
        s.live.gone.remove(&oldest);
    }
}

/// Keeps an Application's whole object when a lesson reads it as one; whether it changed.
fn keep_app_object(s: &mut State, key: &ObjectKey, object: &Value) -> bool {
    if !s.session.catalog.named_objects().contains(key) {
        return false;
    }
    if s.live
        .objects
        .get(key)
        .is_some_and(|had| same_object(had, object))
    {
        return false;
    }
    s.live.gone.remove(key);
    s.live.objects.insert(key.clone(), object.clone());
    true
}

/// The key whose readers an object's change concerns: an Event's is the object it is about (a
/// scale Event dates its Deployment's scale, and usually arrives after the Deployment's own
/// change, which was judged without it); any other object's is its own.
fn read_as(key: &ObjectKey, obj: &Value) -> ObjectKey {
    match key.kind {
        Kind::Event => ObjectKey::involved(obj).unwrap_or_else(|| key.clone()),
        _ => key.clone(),
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

/// A stream listed (what it holds replaces what it held), lost the cluster, or must list again.
pub fn on_stream(s: &mut State, change: StreamChange) -> Vec<Effect> {
    match change {
        StreamChange::Listed {
            stream,
            objects,
            at,
        } => {
            s.live.now = at;
            replace(s, &stream, objects);
            s.live.health.listed(&stream);
            run_deferred(s)
        }
        StreamChange::Lost {
            stream,
            problem,
            at,
        } => {
            s.live.now = at;
            s.live.health.lost(&stream, problem, at);
            Vec::new()
        }
        StreamChange::Expired { stream, at } => {
            s.live.now = at;
            s.live.health.expired(&stream, at);
            Vec::new()
        }
    }
}

/// What `stream` holds now, in place of what it held.
fn replace(s: &mut State, stream: &StreamId, objects: Vec<(ObjectKey, Value)>) {
    if stream.is_app() {
        s.live
            .apps
            .retain(|name, _| !stream.holds(&ObjectKey::app(name)));
        s.live.objects.retain(|key, _| !stream.holds(key));
        for (key, json) in objects {
            keep_app_object(s, &key, &json);
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
        let key = |k: &str| k.parse::<ObjectKey>().unwrap();
        assert_eq!(
            read_as(&key("src-kust/Event/prod-api.1"), &event),
            key("src-kust/Deployment/prod-api")
        );
        let cm = json!({"kind": "ConfigMap", "metadata": {"name": "settings"}});
        assert_eq!(
            read_as(&key("src-waves/ConfigMap/settings"), &cm),
            key("src-waves/ConfigMap/settings")
        );
    }
}
