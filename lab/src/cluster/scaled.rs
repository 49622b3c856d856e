//! When a Deployment's replicas were last set, as a real cluster records it. A write through
//! the `/scale` subresource (what `kubectl scale` sends) leaves its managedFields entry without
//! a `time`: the API server's scale handler carries over the time the manager's entry already
//! had on the Deployment, and a new one has none (checked on Kubernetes v1.35 from the real lab;
//! the embedded cluster does the same). What a cluster does record is the deployment
//! controller's `ScalingReplicaSet` Event ("Scaled up replica set web-7d9 from 2 to 4") with
//! its time. Events live an hour (the API server's `--event-ttl`), so once they are gone the
//! moment of the scale is simply not known.

use jiff::Timestamp;
use serde_json::Value;

/// The Events the tutor reads, as a field selector: the deployment controller's record of each
/// scale.
pub const SCALE_EVENTS_SELECTOR: &str = "reason=ScalingReplicaSet";

/// The API path that lists the scale Events of Deployment `name` in `namespace`.
pub fn events_path(namespace: &str, name: &str) -> String {
    format!(
        "/api/v1/namespaces/{namespace}/events?fieldSelector={SCALE_EVENTS_SELECTOR},involvedObject.kind=Deployment,involvedObject.name={name}"
    )
}

/// When an Event last happened: `lastTimestamp` (core/v1 Events), else its series' last
/// observation or `eventTime` (events.k8s.io-style writers), else when it first happened.
fn event_time(e: &Value) -> Option<Timestamp> {
    [
        &e["lastTimestamp"],
        &e["series"]["lastObservedTime"],
        &e["eventTime"],
        &e["firstTimestamp"],
    ]
    .into_iter()
    .find_map(|t| t.as_str()?.parse().ok())
}

/// One record of the deployment controller scaling a ReplicaSet of the Deployment.
struct ScaleEvent {
    at: Timestamp,
    replica_set: String,
    to: i64,
}

/// `e` as a scale of one of `deployment`'s ReplicaSets ("Scaled up replica set web-7d9 from 2
/// to 4"), if it is one.
fn scale_event(e: &Value, deployment: &Value) -> Option<ScaleEvent> {
    let about = &e["involvedObject"];
    let meta = &deployment["metadata"];
    let same_uid = match (about["uid"].as_str(), meta["uid"].as_str()) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    };
    if e["reason"] != "ScalingReplicaSet"
        || about["kind"] != "Deployment"
        || about["name"] != meta["name"]
        || !same_uid
    {
        return None;
    }
    let message = e["message"].as_str()?;
    let rest = message
        .strip_prefix("Scaled up replica set ")
        .or_else(|| message.strip_prefix("Scaled down replica set "))?;
    let (replica_set, counts) = rest.split_once(" from ")?;
    let to = counts.rsplit_once(" to ")?.1.trim().parse().ok()?;
    Some(ScaleEvent {
        at: event_time(e)?,
        replica_set: replica_set.to_string(),
        to,
    })
}

/// Within this of a scale of another ReplicaSet, a scale is a step of a rollout, not a scale of
/// the Deployment.
const ROLLOUT_STEP: jiff::SignedDuration = jiff::SignedDuration::from_secs(10);

/// What a cluster says of a Deployment's last scale to the replicas it has now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LastScale {
    /// Scaled to them at this time.
    At(Timestamp),
    /// Scaled to them just now: the deployment controller has not yet recorded it (the newest
    /// scale of the same ReplicaSet still reaches another count). A watcher sees the
    /// Deployment's new replicas before the Event, so for a moment the last Event is the scale
    /// *away* from the count, and the count's older Event would date the new scale.
    Awaited,
    /// Nothing says (no scale, or its Events have expired).
    Unknown,
}

/// When `deployment` was last scaled to the replicas it has now: the newest of its scale
/// Events that reached that count outside a rollout (a rollout scales two ReplicaSets within
/// seconds of each other, and its last step also reaches the count), or the time of a `/scale`
/// managedFields entry where a server records one; `Awaited` while the scale's own Event has
/// not come.
pub fn last_scale<'a>(
    deployment: &Value,
    events: impl IntoIterator<Item = &'a Value>,
) -> LastScale {
    let to = deployment["spec"]["replicas"].as_i64().unwrap_or(1);
    let all: Vec<ScaleEvent> = events
        .into_iter()
        .filter_map(|e| scale_event(e, deployment))
        .collect();
    let in_rollout = |s: &ScaleEvent| {
        all.iter().any(|other| {
            other.replica_set != s.replica_set
                && other.at.duration_since(s.at).abs() <= ROLLOUT_STEP
        })
    };
    let by_entry = deployment["metadata"]["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| {
            m["subresource"] == "scale" && m["fieldsV1"]["f:spec"]["f:replicas"].is_object()
        })
        .filter_map(|m| m["time"].as_str()?.parse().ok())
        .max();
    let by_event = all
        .iter()
        .filter(|s| s.to == to && !in_rollout(s))
        .max_by_key(|s| s.at);
    let moved_since = by_event.is_some_and(|last| {
        all.iter().any(|s| {
            s.replica_set == last.replica_set && s.at > last.at && s.to != to && !in_rollout(s)
        })
    });
    if moved_since && by_entry.is_none() {
        return LastScale::Awaited;
    }
    by_event
        .map(|s| s.at)
        .max(by_entry)
        .map_or(LastScale::Unknown, LastScale::At)
}

/// The time of `last_scale`, when there is one to read now.
pub fn scaled_at<'a>(
    deployment: &Value,
    events: impl IntoIterator<Item = &'a Value>,
) -> Option<Timestamp> {
    match last_scale(deployment, events) {
        LastScale::At(t) => Some(t),
        LastScale::Awaited | LastScale::Unknown => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;
    use serde_json::json;

    fn deployment(replicas: i64, scale_time: Option<&str>) -> Value {
        let mut entry = json!({"manager": "kubectl", "operation": "Update", "subresource": "scale",
            "fieldsV1": {"f:spec": {"f:replicas": {}}}});
        if let Some(t) = scale_time {
            entry["time"] = json!(t);
        }
        json!({"metadata": {"name": "prod-api", "uid": "u1", "managedFields": [entry]},
               "spec": {"replicas": replicas}})
    }

    fn event(message: &str, last: &str) -> Value {
        json!({"reason": "ScalingReplicaSet", "message": message, "lastTimestamp": last,
               "involvedObject": {"kind": "Deployment", "name": "prod-api", "uid": "u1"}})
    }

    #[test]
    fn a_real_clusters_scale_is_dated_by_the_deployment_controllers_event() {
        // As Kubernetes v1.35 answered in the real lab: the /scale entry has no time.
        let d = deployment(4, None);
        let events = [
            event(
                "Scaled up replica set prod-api-669b47fb65 from 0 to 2",
                "2026-12-03T07:59:19Z",
            ),
            event(
                "Scaled up replica set prod-api-669b47fb65 from 2 to 4",
                "2026-12-03T08:00:56Z",
            ),
        ];
        assert_eq!(
            scaled_at(&d, &events).unwrap().to_string(),
            "2026-12-03T08:00:56Z"
        );
        // Back at 2 after the scale to 4, the scale back is awaited: the older scale to 2 does
        // not date it.
        assert_eq!(
            last_scale(&deployment(2, None), &events),
            LastScale::Awaited
        );
    }

    /// A rollout after the scale (lesson 4's image override taken away and put back) also ends
    /// with a ReplicaSet scaled to the count: the scale is still the one that counts.
    #[test]
    fn a_rollout_after_the_scale_does_not_move_it() {
        let d = deployment(4, None);
        let events = [
            event(
                "Scaled up replica set prod-api-abc from 0 to 2",
                "2026-12-03T07:59:19Z",
            ),
            event(
                "Scaled up replica set prod-api-abc from 2 to 4",
                "2026-12-03T08:00:56Z",
            ),
            event(
                "Scaled up replica set prod-api-def from 0 to 1",
                "2026-12-03T08:05:00Z",
            ),
            event(
                "Scaled down replica set prod-api-abc from 4 to 3",
                "2026-12-03T08:05:01Z",
            ),
            event(
                "Scaled up replica set prod-api-def from 1 to 4",
                "2026-12-03T08:05:03Z",
            ),
            event(
                "Scaled down replica set prod-api-abc from 3 to 0",
                "2026-12-03T08:05:04Z",
            ),
        ];
        assert_eq!(
            scaled_at(&d, &events).unwrap().to_string(),
            "2026-12-03T08:00:56Z"
        );
    }

    /// Scaled away and back (lesson 7: to 5, then to 4 again): until the scale back has its
    /// Event, the count's older Event must not date it (the hold would tick at once).
    #[test]
    fn a_scale_back_whose_event_has_not_come_is_awaited_then_dated_by_it() {
        let d = deployment(4, None);
        let mut events = vec![
            event(
                "Scaled up replica set prod-api-abc from 2 to 4",
                "2026-12-03T08:00:56Z",
            ),
            event(
                "Scaled up replica set prod-api-abc from 4 to 5",
                "2026-12-03T08:02:00Z",
            ),
        ];
        assert_eq!(last_scale(&d, &events), LastScale::Awaited);
        assert_eq!(scaled_at(&d, &events), None);
        // At 5, the scale to 5 is the one that counts.
        assert_eq!(
            scaled_at(&deployment(5, None), &events)
                .unwrap()
                .to_string(),
            "2026-12-03T08:02:00Z"
        );
        events.push(event(
            "Scaled down replica set prod-api-abc from 5 to 4",
            "2026-12-03T08:02:04Z",
        ));
        assert_eq!(
            scaled_at(&d, &events).unwrap().to_string(),
            "2026-12-03T08:02:04Z"
        );
    }

    #[test]
    fn no_event_and_no_dated_entry_say_nothing_and_another_deployments_events_do_not_count() {
        assert_eq!(scaled_at(&deployment(4, None), &[]), None);
        let mut other = event(
            "Scaled up replica set x from 2 to 4",
            "2026-12-03T08:00:56Z",
        );
        other["involvedObject"]["uid"] = json!("an-older-prod-api");
        assert_eq!(scaled_at(&deployment(4, None), &[other]), None);
        // A server that dates the /scale entry is believed.
        assert_eq!(
            scaled_at(&deployment(4, Some("2026-12-03T08:01:00Z")), &[])
                .unwrap()
                .to_string(),
            "2026-12-03T08:01:00Z"
        );
    }
}
