//! Kubernetes Events, recorded as the real components word, name and correlate them
//! (docs/sim-behaviour.md §15.7): named `<object>.<creation time in Unix nanoseconds, hex>` so
//! that an object's Events list in time order; a repeat of the same Event within the recorder's
//! memory bumps its `count` and `lastTimestamp` instead of creating another; the 10th distinct
//! message of the same reason about the same object within 10 minutes starts a
//! `(combined from similar events): ...` Event. Argo CD's audit Events are never correlated.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use jiff::Timestamp;
use serde_json::{Value, json};

use super::node::NODE_NAME;
use super::{Env, MANAGER};
use crate::clock::rfc3339;
use crate::objects;
use crate::ops::{self, Actor, Part};
use crate::store::Key;

/// Distinct messages of one reason about one object before they are combined.
const MAX_SIMILAR: usize = 10;
/// How long similar Events are remembered for combining.
const SIMILAR_WINDOW_SECS: i64 = 600;
const COMBINED: &str = "(combined from similar events): ";

/// The recorders' memory: which Event each key was last written as, and the distinct
/// messages seen per object and reason.
#[derive(Default)]
pub struct Correlator {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Event key (everything but the time) → (namespace, Event name, count).
    observed: HashMap<String, (String, String, i64)>,
    /// Aggregate key (no message) → (messages, last seen).
    similar: HashMap<String, (HashSet<String>, Timestamp)>,
}

/// Who reports an Event.
#[derive(Clone, Copy)]
struct Source<'a> {
    component: &'a str,
    /// The node, for the kubelet's Events.
    host: Option<&'a str>,
}

/// Records a `Normal` or `Warning` Event about `involved` from a Kubernetes component, with the
/// legacy recorder's correlation.
pub fn record(
    env: &Env,
    involved: &Value,
    warning: bool,
    reason: &str,
    message: &str,
    component: &str,
) {
    let host = (component == "kubelet").then_some(NODE_NAME);
    correlated(
        env,
        involved,
        None,
        (warning, reason, message),
        Source { component, host },
    );
}

/// A kubelet Event about one container of a Pod (`involvedObject.fieldPath`
/// `spec.containers{<name>}`, as `kubectl describe` shows under From/Subobject).
pub fn record_container(env: &Env, pod: &Value, container: &str, reason: &str, message: &str) {
    let source = Source {
        component: "kubelet",
        host: Some(NODE_NAME),
    };
    let field_path = format!("spec.containers{{{container}}}");
    correlated(
        env,
        pod,
        Some(&field_path),
        (false, reason, message),
        source,
    );
}

/// The scheduler's Event: written through events.k8s.io/v1, so read as a core Event it has an
/// `eventTime` and `action` instead of first/last timestamps and a count, and its source is the
/// reporting controller (`default-scheduler`, instance `default-scheduler-<node>`).
pub fn record_scheduled(env: &Env, pod: &Value, message: &str) {
    let now = env.store.clock.now();
    let source = Source {
        component: "default-scheduler",
        host: None,
    };
    let mut event = build(pod, None, (false, "Scheduled", message), source, now);
    if let Some(o) = event.as_object_mut() {
        o.remove("count");
        o.insert("source".into(), json!({}));
        o.insert("action".into(), json!("Binding"));
        o.insert("eventTime".into(), json!(crate::clock::rfc3339_micro(now)));
        o.insert("firstTimestamp".into(), Value::Null);
        o.insert("lastTimestamp".into(), Value::Null);
        o.insert(
            "reportingInstance".into(),
            json!(format!("default-scheduler-{NODE_NAME}")),
        );
    }
    create(env, pod, event);
}

/// An Event as Argo CD's audit logger writes it: created as is, never correlated.
pub fn audit(
    env: &Env,
    involved: &Value,
    warning: bool,
    reason: &str,
    message: &str,
    component: &str,
) {
    let now = env.store.clock.now();
    let event = build(
        involved,
        None,
        (warning, reason, message),
        Source {
            component,
            host: None,
        },
        now,
    );
    create(env, involved, event);
}

fn correlated(
    env: &Env,
    involved: &Value,
    field_path: Option<&str>,
    (warning, reason, message): (bool, &str, &str),
    source: Source,
) {
    let now = env.store.clock.now();
    let aggregate = format!(
        "{}|{}|{}|{}|{}|{}|{}|{}",
        source.component,
        source.host.unwrap_or_default(),
        involved["kind"].as_str().unwrap_or_default(),
        objects::namespace(involved),
        objects::name(involved),
        objects::uid(involved),
        if warning { "Warning" } else { "Normal" },
        reason,
    );
    let (key, message) = {
        let mut state = env.events.state.lock().unwrap_or_else(|p| p.into_inner());
        let entry = state
            .similar
            .entry(aggregate.clone())
            .or_insert_with(|| (HashSet::new(), now));
        if now.as_second() - entry.1.as_second() > SIMILAR_WINDOW_SECS {
            entry.0.clear();
        }
        entry.0.insert(message.to_string());
        entry.1 = now;
        if entry.0.len() < MAX_SIMILAR {
            let path = field_path.unwrap_or_default();
            (format!("{aggregate}|{path}|{message}"), message.to_string())
        } else {
            // Keep the set from growing past the threshold, as the aggregator does.
            if let Some(any) = entry.0.iter().next().cloned() {
                entry.0.remove(&any);
            }
            (aggregate, format!("{COMBINED}{message}"))
        }
    };
    let seen = {
        let state = env.events.state.lock().unwrap_or_else(|p| p.into_inner());
        state.observed.get(&key).cloned()
    };
    if let Some((ns, name, count)) = seen
        && bump(env, &ns, &name, count + 1, &message, now)
    {
        let mut state = env.events.state.lock().unwrap_or_else(|p| p.into_inner());
        state.observed.insert(key, (ns, name, count + 1));
        return;
    }
    let event = build(
        involved,
        field_path,
        (warning, reason, &message),
        source,
        now,
    );
    let (ns, name) = (
        event["metadata"]["namespace"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        event["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    );
    if create(env, involved, event) {
        let mut state = env.events.state.lock().unwrap_or_else(|p| p.into_inner());
        state.observed.insert(key, (ns, name, 1));
    }
}

/// The repeat of an Event: its count, last time and message move on. False if it is gone.
fn bump(env: &Env, ns: &str, name: &str, count: i64, message: &str, now: Timestamp) -> bool {
    let ty = &crate::kinds::EVENT;
    let patch = json!({"count": count, "lastTimestamp": rfc3339(now), "message": message});
    ops::merge(
        &env.store,
        &Key::new(ty, ns, name),
        &patch,
        Part::Main,
        MANAGER,
    )
    .is_ok()
}

fn build(
    involved: &Value,
    field_path: Option<&str>,
    (warning, reason, message): (bool, &str, &str),
    source: Source,
    now: Timestamp,
) -> Value {
    let ns = match objects::namespace(involved) {
        "" => "default",
        ns => ns,
    };
    let name = format!("{}.{:x}", objects::name(involved), now.as_nanosecond());
    let mut involved_object = json!({
        "apiVersion": involved["apiVersion"],
        "kind": involved["kind"],
        "name": involved["metadata"]["name"],
        "uid": involved["metadata"]["uid"],
        "resourceVersion": involved["metadata"]["resourceVersion"],
    });
    if involved["metadata"]["namespace"].is_string() {
        involved_object["namespace"] = involved["metadata"]["namespace"].clone();
    }
    if let Some(path) = field_path {
        involved_object["fieldPath"] = json!(path);
    }
    let mut source_json = json!({"component": source.component});
    if let Some(host) = source.host {
        source_json["host"] = json!(host);
    }
    let time = rfc3339(now);
    // Argo CD's audit logger (`logEvent`) fills no reporting fields and names the app's
    // destination in annotations.
    let argocd = source.component == "argocd-application-controller";
    let mut metadata = json!({"name": name, "namespace": ns});
    if argocd {
        let dest = &involved["spec"]["destination"];
        metadata["annotations"] = json!({
            "dest-server": dest["server"].as_str().unwrap_or_default(),
            "dest-namespace": dest["namespace"].as_str().unwrap_or_default(),
        });
    }
    let (reporting, instance) = if argocd {
        ("", "")
    } else {
        (source.component, source.host.unwrap_or_default())
    };
    json!({
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": metadata,
        "involvedObject": involved_object,
        "reason": reason,
        "message": message,
        "type": if warning { "Warning" } else { "Normal" },
        "source": source_json,
        "reportingComponent": reporting,
        "reportingInstance": instance,
        "firstTimestamp": time,
        "lastTimestamp": time,
        "eventTime": null,
        "count": 1,
    })
}

fn create(env: &Env, involved: &Value, event: Value) -> bool {
    let ty = &crate::kinds::EVENT;
    let ns = event["metadata"]["namespace"]
        .as_str()
        .unwrap_or("default")
        .to_string();
    match ops::create(&env.store, ty, &ns, event, &Actor::new(MANAGER)) {
        Ok(_) => true,
        Err(e) => {
            tracing::debug!(
                "event about {} not recorded: {}",
                objects::name(involved),
                e.message
            );
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn env() -> Env {
        let store = crate::store::Store::in_memory(1.0);
        crate::bootstrap::seed(&store);
        Env {
            store,
            logs: Arc::new(crate::logs::LogBook::default()),
            events: Arc::new(Correlator::default()),
        }
    }

    /// The time an Event's name encodes.
    fn name_time(name: &str) -> Option<Timestamp> {
        let hex = name.rsplit('.').next()?;
        let nanos = i128::from_str_radix(hex, 16).ok()?;
        Timestamp::from_nanosecond(nanos).ok()
    }

    fn events(env: &Env) -> Vec<Arc<Value>> {
        env.store.list(&crate::kinds::EVENT, Some("default")).0
    }

    #[test]
    fn names_end_in_the_time_in_hex_so_they_list_in_time_order() {
        let env = env();
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default", "uid": "u"}});
        for reason in ["Scheduled", "Pulled", "Created", "Started"] {
            record(&env, &pod, false, reason, reason, "kubelet");
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        let reasons: Vec<String> = events(&env)
            .iter()
            .map(|e| e["reason"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(reasons, ["Scheduled", "Pulled", "Created", "Started"]);
        let first = &events(&env)[0];
        let at = name_time(first["metadata"]["name"].as_str().unwrap()).unwrap();
        assert_eq!(rfc3339(at), first["firstTimestamp"].as_str().unwrap());
    }

    #[test]
    fn repeats_are_counted_and_many_similar_messages_combined() {
        let env = env();
        let d = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "default", "uid": "u"}});
        for _ in 0..3 {
            record(
                &env,
                &d,
                true,
                "FailedCreate",
                "quota exceeded",
                "deployment-controller",
            );
        }
        let all = events(&env);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0]["count"], 3);
        for i in 0..12 {
            record(
                &env,
                &d,
                false,
                "ScalingReplicaSet",
                &format!("Scaled to {i}"),
                "deployment-controller",
            );
        }
        let all = events(&env);
        let combined: Vec<&Arc<Value>> = all
            .iter()
            .filter(|e| e["message"].as_str().unwrap().starts_with(COMBINED))
            .collect();
        assert_eq!(combined.len(), 1, "{all:#?}");
        assert_eq!(combined[0]["count"], 3);
        assert_eq!(combined[0]["message"], format!("{COMBINED}Scaled to 11"));
        assert_eq!(all.len(), 1 + 9 + 1);
    }
}
