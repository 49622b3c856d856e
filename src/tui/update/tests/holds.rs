//! Steps that hold for a time: a scale's hold counts from the scale the cluster recorded, waits
//! for the cluster's clock, and starts again when the replicas move away and back.

use super::*;
use crate::cluster::Kind;
use crate::cluster::watch::ObjectChange;
use crate::tui::update::LabMsg;

/// Lesson 7's hold, ticked at `ticked`, on facts that hold it: the app ignores replicas, prod-api
/// was scaled to 4 by kubectl (`scaled` dates its Event), and the tutor has not read the
/// cluster's clock. `live`: every watch had listed before these facts came (else they are the
/// first a reopened tutor reads).
fn lesson_7_held(ticked: jiff::Timestamp, scaled: &str, live: bool) -> State {
    let mut s = if live {
        builder().lesson(7).live().build()
    } else {
        builder().lesson(7).build()
    };
    let mut earlier = crate::lab::progress::Progress::default();
    for step in 0..3 {
        earlier.ticks.entry(L(7)).or_default().insert(step, ticked);
    }
    s.resume(earlier);
    let app = src_kust_ignoring_replicas();
    main_at_abc(&mut s);
    // The scale is dated (its Event), so only the clock is missing to tell 40 s have passed.
    scale_event(&mut s, 1, "from 2 to 4", scaled);
    update(
        &mut s,
        Msg::Object(ObjectChange::applied(app, Kind::Application)),
    );
    scale_deployment(&mut s, 4);
    s
}

/// Lesson 7's Application as its steps make it, Synced and Healthy at main (`abc`).
fn src_kust_ignoring_replicas() -> serde_json::Value {
    serde_json::json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
        "metadata": {"name": "src-kust", "namespace": "argocd"},
        "spec": {"source": {"repoURL": "git://gitd.gitsrv.svc.cluster.local:9418/src.git", "path": "kust/overlays/prod"},
                 "ignoreDifferences": [{"group": "apps", "kind": "Deployment", "jsonPointers": ["/spec/replicas"]}],
                 "syncPolicy": {"automated": {"selfHeal": true}, "syncOptions": ["RespectIgnoreDifferences=true", "CreateNamespace=true"]}},
        "status": {"sync": {"status": "Synced", "revision": "abc"}, "health": {"status": "Healthy"}}})
}

/// Git's main of `src` read at `abc`.
fn main_at_abc(s: &mut State) {
    let mut git = crate::lab::eval::GitFacts::default();
    git.repos.insert("src".into(), Some("abc".into()));
    update(s, Msg::Lab(LabMsg::Git(git)));
}

/// The deployment controller's Event number `n` for a scale of prod-api's ReplicaSet.
fn scale_event(s: &mut State, n: u32, counts: &str, at: &str) {
    let event = serde_json::json!({"apiVersion": "v1", "kind": "Event",
        "metadata": {"name": format!("prod-api.{n}"), "namespace": "src-kust"},
        "reason": "ScalingReplicaSet", "message": format!("Scaled up replica set prod-api-6b7 {counts}"),
        "lastTimestamp": at,
        "involvedObject": {"kind": "Deployment", "name": "prod-api", "namespace": "src-kust"}});
    update(
        s,
        Msg::Object(ObjectChange::Applied {
            key: format!("src-kust/Event/prod-api.{n}").parse().unwrap(),
            object: event,
        }),
    );
}

/// prod-api as `kubectl scale --replicas=N` leaves it.
fn scale_deployment(s: &mut State, replicas: i64) {
    let deployment = serde_json::json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "prod-api", "namespace": "src-kust", "managedFields": [
            {"manager": "kubectl", "operation": "Update", "subresource": "scale", "apiVersion": "apps/v1",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}}}}]},
        "spec": {"replicas": replicas}});
    update(
        s,
        Msg::Object(ObjectChange::Applied {
            key: "src-kust/Deployment/prod-api".parse().unwrap(),
            object: deployment,
        }),
    );
}

/// Lesson 7 reopened: the 40 s hold was ticked, the cluster still holds it, and the tutor has
/// not read the cluster's clock yet. Not knowing the time undoes nothing (issue 31: it read
/// "✗ 40 s later … undone since: the cluster's clock is not known yet", for minutes, above a
/// passing ignore.json).
#[test]
fn a_held_step_stays_done_while_the_clock_is_not_known() {
    let ticked: jiff::Timestamp = "2026-12-03T08:27:37Z".parse().unwrap();
    let s = lesson_7_held(ticked, "2026-12-03T08:26:57Z", false);
    assert_eq!(s.live.cluster_now, None);
    let states = &s.lab.checklists[&L(7)];
    assert!(
        matches!(states[2], crate::tui::state::ItemState::Done { at } if at == ticked),
        "{states:?}"
    );
}

/// Lesson 7's hold undone (scaled to 5) and redone (scaled back to 4), the clock not read since:
/// it counts the 40 s again from the new scale and ticks with the new time, never again with
/// the old one. Nor does the Deployment's new count, seen before its scale's Event, let the old
/// scale date it (CI saw '✓ 14:17:13 40 s later' a second after the scale back).
#[test]
fn a_hold_scaled_away_and_back_counts_again_from_the_new_scale() {
    use crate::tui::state::ItemState;
    let ticked: jiff::Timestamp = "2026-12-03T08:27:37Z".parse().unwrap();
    let mut s = lesson_7_held(ticked, "2026-12-03T08:26:57Z", true);
    // The clock was read once, long after the first scale.
    update(
        &mut s,
        Msg::Lab(LabMsg::ClusterClock(
            "2026-12-03T08:30:00Z".parse().unwrap(),
        )),
    );
    let hold = |s: &State| s.lab.checklists[&L(7)][2].clone();
    assert!(hold(&s).done(), "{:?}", hold(&s));
    scale_deployment(&mut s, 5);
    scale_event(&mut s, 2, "from 4 to 5", "2026-12-03T08:30:01Z");
    assert!(
        matches!(hold(&s), ItemState::Undone { .. }),
        "{:?}",
        hold(&s)
    );
    // Back at 4, its Event not seen yet: the whole 40 s are still to hold.
    scale_deployment(&mut s, 4);
    assert_eq!(hold(&s), ItemState::Counting { left: 40 });
    scale_event(&mut s, 3, "from 5 to 4", "2026-12-03T08:30:05Z");
    assert!(
        matches!(hold(&s), ItemState::Counting { .. }),
        "{:?}",
        hold(&s)
    );
    update(
        &mut s,
        Msg::Lab(LabMsg::ClusterClock(
            "2026-12-03T08:30:25Z".parse().unwrap(),
        )),
    );
    assert_eq!(hold(&s), ItemState::Counting { left: 20 });
    update(
        &mut s,
        Msg::Lab(LabMsg::ClusterClock(
            "2026-12-03T08:30:46Z".parse().unwrap(),
        )),
    );
    assert_eq!(
        hold(&s),
        ItemState::Done {
            at: "2026-12-03T08:30:45Z".parse().unwrap()
        },
        "ticked again once 40 s of the new scale had passed, not at the old {ticked}"
    );
}

/// Undone, then held again while the tutor has no clock at all: it is not done (with the old
/// time) until the clock is read, and asks for it.
#[test]
fn an_undone_hold_redone_without_a_clock_waits_for_it() {
    let ticked: jiff::Timestamp = "2026-12-03T08:27:37Z".parse().unwrap();
    let mut s = lesson_7_held(ticked, "2026-12-03T08:26:57Z", true);
    scale_deployment(&mut s, 5);
    scale_event(&mut s, 2, "from 4 to 5", "2026-12-03T08:30:01Z");
    scale_event(&mut s, 3, "from 5 to 4", "2026-12-03T08:30:05Z");
    scale_deployment(&mut s, 4);
    // Open for want of the clock, which the tutor then reads (`wants_cluster_clock`).
    assert_eq!(
        s.lab.checklists[&L(7)][2],
        crate::tui::state::ItemState::Open {
            why: Some(crate::lab::eval::Unmet::NoClock)
        }
    );
    assert!(
        s.live.clock_asked,
        "the tutor asks the cluster for its clock"
    );
}

/// Lesson 7 reopened after a scale, before the cluster's scale Events have come: a scale with no
/// Event is one over an hour old only once they are all read. Walked: a reopened tutor ticked
/// "✓ 40 s later" 9 s after the scale, because the Events had not arrived yet.
#[test]
fn a_scale_is_not_called_an_hour_old_before_its_events_are_read() {
    let mut s = builder().lesson(7).build();
    let app = src_kust_ignoring_replicas();
    main_at_abc(&mut s);
    update(
        &mut s,
        Msg::Object(ObjectChange::applied(app, Kind::Application)),
    );
    scale_deployment(&mut s, 4);
    let held = |s: &State| {
        matches!(
            s.lab.checklists[&L(7)][2],
            crate::tui::state::ItemState::Done { .. }
        )
    };
    assert!(!held(&s), "{:?}", s.lab.checklists[&L(7)]);
    // Every watch has listed, Events included, and none dates the scale: it is over an hour old.
    let streams: Vec<_> = s.live.health.streams().cloned().collect();
    assert!(
        streams
            .iter()
            .any(|st| st.kind == crate::cluster::Kind::Event),
        "the tutor watches scale Events: {streams:?}"
    );
    for st in &streams {
        if st.kind == crate::cluster::Kind::Event {
            let at = s.live.now;
            update(
                &mut s,
                Msg::Stream(StreamChange::Listed {
                    stream: st.clone(),
                    objects: Vec::new(),
                    at,
                }),
            );
        } else {
            s.live.health.listed(st);
        }
    }
    assert!(held(&s), "{:?}", s.lab.checklists[&L(7)]);
}
