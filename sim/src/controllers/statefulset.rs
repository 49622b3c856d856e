//! The StatefulSet controller, as far as a one-node lab needs it (docs/sim-behaviour.md §16.8):
//! Pods `<name>-0` … `<name>-(n-1)`, each created once the ones before it are Ready
//! (`OrderedReady`), with the revision and pod-name labels, `hostname` and `subdomain`; a
//! changed template replaces Pods from the highest ordinal down (RollingUpdate); the status
//! `kubectl get sts` and `rollout status` read. No volume claims (PersistentVolumeClaims are not
//! served).

use serde_json::{Value, json};

use super::deployment::template_hash;
use super::queue::{Controller, Next};
use super::replicaset::{drop_zero_counts, status_patch};
use super::{Env, MANAGER, events, owned, owner_key};
use crate::objects;
use crate::ops::{self, Actor, Part};
use crate::store::{Event, Key};

pub struct StatefulSets;

const COMPONENT: &str = "statefulset-controller";

impl Controller for StatefulSets {
    fn keys_for(&self, _env: &Env, event: &Event) -> Vec<Key> {
        match event.key.ty().kind {
            "StatefulSet" => vec![event.key.clone()],
            "Pod" => owner_key(&event.object, &crate::kinds::STATEFUL_SET)
                .into_iter()
                .collect(),
            _ => Vec::new(),
        }
    }

    fn all_keys(&self, env: &Env) -> Vec<Key> {
        let sts = &crate::kinds::STATEFUL_SET;
        env.store
            .list(sts, None)
            .0
            .iter()
            .map(|o| Key::new(sts, objects::namespace(o), objects::name(o)))
            .collect()
    }

    fn reconcile(&mut self, env: &Env, key: &Key) -> Next {
        let Some(sts) = env.store.get(key).filter(|s| !objects::is_deleting(s)) else {
            return Next::Done;
        };
        let pod_ty = &crate::kinds::POD;
        let revision = format!("{}-{}", key.name, template_hash(&sts["spec"]["template"]));
        super::revisions::record(env, &sts, &revision);
        let wanted = sts["spec"]["replicas"].as_u64().unwrap_or(1) as usize;
        let pods = owned(env, pod_ty, &key.namespace, objects::uid(&sts));
        let ordinal = |p: &Value| {
            objects::name(p)
                .rsplit_once('-')
                .and_then(|(_, n)| n.parse::<usize>().ok())
        };
        let current =
            |p: &Value| p["metadata"]["labels"]["controller-revision-hash"] == revision.as_str();
        // Scale down and roll from the highest ordinal, one Pod per pass.
        let mut by_ordinal: Vec<(usize, &Value)> = pods
            .iter()
            .filter_map(|p| Some((ordinal(p)?, p.as_ref())))
            .collect();
        by_ordinal.sort_by_key(|(i, _)| *i);
        let stale = by_ordinal
            .iter()
            .rev()
            .find(|(i, p)| *i >= wanted || !current(p));
        if let Some((_, p)) = stale {
            super::delete_owned_pod(env, &sts, &key.namespace, objects::name(p), COMPONENT);
        } else if let Some(missing) = (0..wanted).find(|i| !by_ordinal.iter().any(|(o, _)| o == i))
        {
            let earlier_ready = by_ordinal
                .iter()
                .filter(|(o, _)| *o < missing)
                .all(|(_, p)| is_ready(p));
            if earlier_ready {
                let name = format!("{}-{missing}", key.name);
                match ops::create(
                    &env.store,
                    pod_ty,
                    &key.namespace,
                    pod(&sts, &name, missing, &revision),
                    &Actor::new(MANAGER),
                ) {
                    Ok(_) => {
                        let message =
                            format!("create Pod {name} in StatefulSet {} successful", key.name);
                        events::record(env, &sts, false, "SuccessfulCreate", &message, COMPONENT);
                    }
                    Err(e) => {
                        let message = format!(
                            "create Pod {name} in StatefulSet {} failed error: {}",
                            key.name, e.message
                        );
                        events::record(env, &sts, true, "FailedCreate", &message, COMPONENT);
                    }
                }
            }
        }
        let pods = owned(env, pod_ty, &key.namespace, objects::uid(&sts));
        let ready = pods.iter().filter(|p| is_ready(p)).count();
        let updated = pods.iter().filter(|p| current(p)).count();
        let mut status = json!({
            "replicas": pods.len(),
            "readyReplicas": ready,
            "currentReplicas": updated,
            "updatedReplicas": updated,
            "availableReplicas": ready,
            "currentRevision": revision,
            "updateRevision": revision,
            "observedGeneration": sts["metadata"]["generation"],
            "collisionCount": 0,
        });
        drop_zero_counts(
            &mut status,
            &["readyReplicas", "currentReplicas", "updatedReplicas"],
        );
        if sts["status"] != status {
            let patch = json!({"status": status_patch(&sts["status"], &status)});
            let _ = ops::merge(&env.store, key, &patch, Part::Status, MANAGER);
        }
        Next::Done
    }
}

fn is_ready(pod: &Value) -> bool {
    pod["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|c| c["type"] == "Ready" && c["status"] == "True")
}

/// Pod `name` (ordinal `index`): the template, the StatefulSet's labels, its stable hostname.
fn pod(sts: &Value, name: &str, index: usize, revision: &str) -> Value {
    let mut pod = super::pod_from_template(sts);
    let meta = objects::metadata_mut(&mut pod);
    meta.remove("generateName");
    meta.insert("name".into(), json!(name));
    let labels = objects::map_at(meta.entry("labels").or_insert_with(|| json!({})));
    labels.insert("controller-revision-hash".into(), json!(revision));
    labels.insert("statefulset.kubernetes.io/pod-name".into(), json!(name));
    labels.insert(
        "apps.kubernetes.io/pod-index".into(),
        json!(index.to_string()),
    );
    pod["spec"]["hostname"] = json!(name);
    if let Some(service) = sts["spec"]["serviceName"]
        .as_str()
        .filter(|s| !s.is_empty())
    {
        pod["spec"]["subdomain"] = json!(service);
    }
    pod
}
