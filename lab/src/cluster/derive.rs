//! Pure derivations the tutor's panes show, from objects as the API returns them: the last
//! operation as lanes by phase and wave, who owns which field, and which Helm layer set a value.

use serde_json::Value;

use super::application::{Application, Helm, OperationState};

/// One resource in a sync lane.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneItem {
    pub kind: String,
    pub name: String,
    /// A hook's hookPhase (Running, Succeeded, Failed); for any other resource what applying it
    /// did (Synced, SyncFailed, Pruned): Argo CD records `hookPhase: Running` on those too, and
    /// never moves it on, so it says nothing about them.
    pub phase: String,
    pub hook: Option<String>,
    pub message: String,
    /// Seconds from the operation's start: created, and became healthy (Available, Complete)
    /// or failed — `None` when unknown (a hook Job that is gone keeps its phase only).
    pub created_at: Option<i64>,
    pub healthy_at: Option<i64>,
    pub failed_at: Option<i64>,
    /// When Argo CD last changed it (its `argocd-controller` managedFields entry's time): the
    /// one time an object older than the operation has in it. The API server moves an entry's
    /// time only when the request changed the object, so an apply that changed nothing leaves
    /// the older time.
    pub changed_at: Option<i64>,
}

/// A (phase, wave) group of the last operation, in the order the engine runs them.
#[derive(Debug, Clone, PartialEq)]
pub struct Lane {
    pub phase: String,
    pub wave: i64,
    pub items: Vec<LaneItem>,
}

/// The field manager Argo CD's controller applies as (client-side or server-side).
const ARGO_CD_MANAGER: &str = "argocd-controller";

/// The last operation of an Application as lanes: from `operationState.syncResult.resources`
/// and the waves in `status.resources` (a hook's wave is 0 unless recorded), with times read off
/// the live objects `live(namespace, kind, name)` finds.
pub fn timeline(app: &Application, live: &dyn Fn(&str, &str, &str) -> Option<Value>) -> Vec<Lane> {
    let state = app.status.operation_state.clone().unwrap_or_default();
    let started = state
        .started_at
        .as_deref()
        .and_then(|t| t.parse::<jiff::Timestamp>().ok());
    let since = |t: &Value| -> Option<i64> {
        let t = t.as_str()?.parse::<jiff::Timestamp>().ok()?;
        Some(t.as_second() - started?.as_second())
    };
    let condition_time = |obj: &Value, kind: &str| {
        obj["status"]["conditions"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|c| c["type"] == kind && c["status"] == "True")
            .map(|c| c["lastTransitionTime"].clone())
    };
    let wave_of = |kind: &str, name: &str| {
        app.status
            .resources
            .iter()
            .find(|r| r.kind == kind && r.name == name)
            .and_then(|r| r.sync_wave)
            .unwrap_or(0)
    };
    let order = |p: &str| match p {
        "PreSync" => 0,
        "Sync" => 1,
        "PostSync" => 2,
        "SyncFail" => 3,
        _ => 4,
    };
    let mut lanes: Vec<Lane> = Vec::new();
    for r in state.sync_result.iter().flat_map(|s| &s.resources) {
        let phase = r.sync_phase.clone().unwrap_or_else(|| "Sync".into());
        let wave = wave_of(&r.kind, &r.name);
        let obj = live(&r.namespace, &r.kind, &r.name);
        let changed_at = obj.as_ref().and_then(|o| {
            o["metadata"]["managedFields"]
                .as_array()?
                .iter()
                .filter(|m| m["manager"] == ARGO_CD_MANAGER && m["subresource"].is_null())
                .filter_map(|m| since(&m["time"]))
                .max()
        });
        let (created_at, healthy_at, failed_at) = match &obj {
            Some(o) => (
                since(&o["metadata"]["creationTimestamp"]),
                condition_time(o, "Available")
                    .or_else(|| condition_time(o, "Complete"))
                    .and_then(|t| since(&t)),
                condition_time(o, "Failed").and_then(|t| since(&t)),
            ),
            None => (None, None, None),
        };
        let item = LaneItem {
            created_at,
            healthy_at,
            failed_at,
            changed_at,
            phase: if r.hook_type.is_some() {
                r.hook_phase.clone().unwrap_or_default()
            } else {
                r.status.clone()
            },
            hook: r.hook_type.clone(),
            message: r.message.clone(),
            kind: r.kind.clone(),
            name: r.name.clone(),
        };
        match lanes
            .iter_mut()
            .find(|l| l.phase == phase && l.wave == wave)
        {
            Some(l) => l.items.push(item),
            None => lanes.push(Lane {
                phase,
                wave,
                items: vec![item],
            }),
        }
    }
    place_prune_last(&state, &mut lanes);
    lanes.sort_by_key(|l| (order(&l.phase), l.wave));
    lanes
}

/// With `PruneLast=true` the engine prunes after every other Sync-phase task: in a wave of its
/// own, one after the Sync phase's last (at least 1; gitops-engine's `syncPhaseLastWave`).
/// The pruned objects' own waves are gone with them, so without this they read as wave 0.
fn place_prune_last(state: &OperationState, lanes: &mut Vec<Lane>) {
    let prune_last = state
        .operation
        .sync
        .as_ref()
        .is_some_and(|s| s.has_option("PruneLast=true"));
    if !prune_last {
        return;
    }
    let last_wave = lanes
        .iter()
        .filter(|l| l.phase == "Sync")
        .map(|l| l.wave)
        .fold(0, i64::max)
        + 1;
    let mut pruned = Vec::new();
    for lane in lanes.iter_mut().filter(|l| l.phase == "Sync") {
        let (gone, kept): (Vec<LaneItem>, Vec<LaneItem>) = std::mem::take(&mut lane.items)
            .into_iter()
            .partition(|i| i.hook.is_none() && i.phase == "Pruned");
        lane.items = kept;
        pruned.extend(gone);
    }
    lanes.retain(|l| !l.items.is_empty());
    if !pruned.is_empty() {
        lanes.push(Lane {
            phase: "Sync".into(),
            wave: last_wave,
            items: pruned,
        });
    }
}

/// One managedFields entry, with its fields as readable paths.
#[derive(Debug, Clone, PartialEq)]
pub struct Owner {
    pub manager: String,
    pub operation: String,
    pub subresource: String,
    pub time: String,
    pub fields: Vec<String>,
}

/// managedFields grouped by manager, fields written as `.spec.replicas`.
pub fn owners(obj: &Value) -> Vec<Owner> {
    obj["metadata"]["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| {
            let mut fields = Vec::new();
            walk(&m["fieldsV1"], String::new(), &mut fields);
            Owner {
                manager: m["manager"].as_str().unwrap_or_default().to_string(),
                operation: m["operation"].as_str().unwrap_or_default().to_string(),
                subresource: m["subresource"].as_str().unwrap_or_default().to_string(),
                time: m["time"].as_str().unwrap_or_default().to_string(),
                fields,
            }
        })
        .collect()
}

fn walk(v: &Value, path: String, out: &mut Vec<String>) {
    let Some(map) = v.as_object() else { return };
    let children: Vec<_> = map.iter().filter(|(k, _)| *k != ".").collect();
    if children.is_empty() {
        if !path.is_empty() {
            out.push(path);
        }
        return;
    }
    for (k, child) in children {
        let segment = if let Some(f) = k.strip_prefix("f:") {
            format!(".{f}")
        } else if let Some(key) = k.strip_prefix("k:") {
            format!("[{key}]")
        } else if let Some(val) = k.strip_prefix("v:") {
            format!("[={val}]")
        } else {
            format!(".{k}")
        };
        walk(child, format!("{path}{segment}"), out);
    }
}

/// Who owns `.spec.replicas` (the last listed owner, if several share it).
pub fn replicas_owner(obj: &Value) -> Option<Owner> {
    owners(obj)
        .into_iter()
        .rfind(|o| o.fields.iter().any(|f| f == ".spec.replicas"))
}

/// The Helm layers, lowest precedence first (docs/sim-behaviour.md §1.4).
pub const HELM_LAYERS: [&str; 4] = ["chart", "valueFiles", "valuesObject", "parameters"];

/// A Helm value across the layers, lowest precedence first, and which one won.
#[derive(Debug, Clone, PartialEq)]
pub struct Provenance {
    pub key: String,
    /// (layer, value) for chart, valueFiles, valuesObject, parameters (`null` when unset).
    pub layers: Vec<(&'static str, Value)>,
    pub winner: Option<&'static str>,
}

impl Provenance {
    /// The winning layer and the value it sets.
    pub fn winner(&self) -> Option<(&'static str, &Value)> {
        let w = self.winner?;
        self.layers
            .iter()
            .find(|(l, _)| *l == w)
            .map(|(l, v)| (*l, v))
    }
}

/// Where `key` is set for the Application's `helm` source, given the chart's `values.yaml`
/// and the value files in order: the one account of Helm precedence, for the pane and the
/// evidence alike.
pub fn provenance(key: &str, chart: &Value, value_files: &[Value], helm: &Helm) -> Provenance {
    let file_value = value_files
        .iter()
        .rev()
        .find(|f| !f[key].is_null())
        .map(|f| f[key].clone())
        .unwrap_or(Value::Null);
    let object = helm.inline_values()[key].clone();
    let param = helm
        .parameter(key)
        .map_or(Value::Null, |v| Value::String(v.into()));
    let layers: Vec<(&'static str, Value)> = HELM_LAYERS
        .into_iter()
        .zip([chart[key].clone(), file_value, object, param])
        .collect();
    let winner = layers
        .iter()
        .rev()
        .find(|(_, v)| !v.is_null())
        .map(|(l, _)| *l);
    Provenance {
        key: key.to_string(),
        layers,
        winner,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lanes_follow_phase_then_wave() {
        let app = json!({"status": {
            "resources": [{"kind": "ConfigMap", "name": "settings", "syncWave": -1}, {"kind": "Job", "name": "smoke", "syncWave": 1}],
            "operationState": {"syncResult": {"resources": [
                {"kind": "Job", "name": "smoke", "syncPhase": "Sync", "hookPhase": "Running"},
                {"kind": "ConfigMap", "name": "settings", "syncPhase": "Sync", "hookPhase": "Succeeded"},
                {"kind": "Job", "name": "migrate-x", "syncPhase": "PreSync", "hookType": "PreSync", "hookPhase": "Succeeded"}]}}}});
        let lanes = timeline(&Application::from_json(&app).unwrap(), &|_, _, _| None);
        let order: Vec<(String, i64)> = lanes.iter().map(|l| (l.phase.clone(), l.wave)).collect();
        assert_eq!(
            order,
            [
                ("PreSync".into(), 0),
                ("Sync".into(), -1),
                ("Sync".into(), 1)
            ]
        );
        assert_eq!(lanes[0].items[0].hook.as_deref(), Some("PreSync"));
    }

    /// PruneLast: what was pruned shows in a wave after the Sync phase's last, not in wave 0
    /// where its lost annotation would leave it; without the option it stays where it was.
    #[test]
    fn prune_last_prunes_after_the_last_sync_wave() {
        let app = |options: serde_json::Value| {
            json!({"status": {
                "resources": [{"kind": "ConfigMap", "name": "settings", "syncWave": 2}],
                "operationState": {"operation": {"sync": {"syncOptions": options}},
                    "syncResult": {"resources": [
                    {"kind": "ConfigMap", "name": "settings", "syncPhase": "Sync", "status": "Synced"},
                    {"kind": "ConfigMap", "name": "old", "syncPhase": "Sync", "status": "Pruned", "message": "pruned"},
                    {"kind": "Job", "name": "migrate", "syncPhase": "PreSync", "hookType": "PreSync", "hookPhase": "Succeeded"}]}}}})
        };
        let waves = |a: serde_json::Value| -> Vec<(String, i64, Vec<String>)> {
            timeline(&Application::from_json(&a).unwrap(), &|_, _, _| None)
                .into_iter()
                .map(|l| {
                    (
                        l.phase,
                        l.wave,
                        l.items.into_iter().map(|i| i.name).collect(),
                    )
                })
                .collect()
        };
        assert_eq!(
            waves(app(json!(["PruneLast=true"]))),
            [
                ("PreSync".into(), 0, vec!["migrate".to_string()]),
                ("Sync".into(), 2, vec!["settings".into()]),
                ("Sync".into(), 3, vec!["old".into()]),
            ]
        );
        // Argo CD matches options exactly: a lower-case value is not the option.
        assert_eq!(
            waves(app(json!(["PruneLast=True"])))[1],
            ("Sync".into(), 0, vec!["old".to_string()])
        );
    }

    /// An object older than the operation is dated by Argo CD's own managedFields entry: not
    /// kubectl's, not the status subresource's.
    #[test]
    fn an_older_object_is_dated_by_argo_cds_managed_fields_entry() {
        let app = json!({"status": {"operationState": {"startedAt": "2026-12-05T03:15:49Z",
            "syncResult": {"resources": [{"kind": "ConfigMap", "namespace": "w", "name": "settings",
                "syncPhase": "Sync", "status": "Synced", "message": "configmap/settings configured"}]}}}});
        let settings = json!({"metadata": {"creationTimestamp": "2026-12-05T03:09:37Z", "managedFields": [
            {"manager": "kubectl", "operation": "Update", "time": "2026-12-05T03:15:58Z"},
            {"manager": "argocd-controller", "operation": "Update", "subresource": "status", "time": "2026-12-05T03:15:57Z"},
            {"manager": "argocd-controller", "operation": "Update", "time": "2026-12-05T03:15:51Z"}]}});
        let lanes = timeline(&Application::from_json(&app).unwrap(), &|_, _, _| {
            Some(settings.clone())
        });
        let item = &lanes[0].items[0];
        assert_eq!((item.created_at, item.changed_at), (Some(-372), Some(2)));
    }

    #[test]
    fn field_paths_read_like_the_lab_writes_them() {
        let d = json!({"metadata": {"managedFields": [
            {"manager": "argocd-controller", "operation": "Update", "fieldsV1": {"f:spec": {"f:template": {"f:spec": {"f:containers": {"k:{\"name\":\"api\"}": {".": {}, "f:image": {}}}}}}}},
            {"manager": "kubectl", "operation": "Update", "subresource": "scale", "fieldsV1": {"f:spec": {"f:replicas": {}}}}]}});
        let owners = owners(&d);
        assert_eq!(
            owners[0].fields,
            [".spec.template.spec.containers[{\"name\":\"api\"}].image"]
        );
        assert_eq!(replicas_owner(&d).unwrap().manager, "kubectl");
    }

    fn helm(v: Value) -> Helm {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn provenance_marks_the_highest_layer_that_sets_the_key() {
        let p = provenance(
            "greeting",
            &json!({"greeting": "chart-default"}),
            &[json!({"greeting": "from-values-file"})],
            &helm(
                json!({"valuesObject": {"greeting": "obj"}, "parameters": [{"name": "greeting", "value": "param"}]}),
            ),
        );
        assert_eq!(p.winner, Some("parameters"));
        assert_eq!(p.layers[1].1, "from-values-file");
    }

    #[test]
    fn the_highest_layer_that_sets_a_key_wins() {
        let chart = json!({"replicaCount": 1, "greeting": "chart-default"});
        let files = [json!({"replicaCount": 2, "greeting": "from-values-file"})];
        let app = helm(
            json!({"valuesObject": {"replicaCount": 3, "greeting": "from-values-object"}, "parameters": [{"name": "greeting", "value": "from-parameter"}]}),
        );
        let won = |key: &str, files: &[Value], h: &Helm| {
            provenance(key, &chart, files, h)
                .winner()
                .map(|(l, v)| (l, v.clone()))
        };
        assert_eq!(
            won("greeting", &files, &app),
            Some(("parameters", json!("from-parameter")))
        );
        assert_eq!(
            won("replicaCount", &files, &app),
            Some(("valuesObject", json!(3)))
        );
        assert_eq!(
            won("replicaCount", &files, &Helm::default()),
            Some(("valueFiles", json!(2)))
        );
        assert_eq!(
            won("replicaCount", &[], &Helm::default()),
            Some(("chart", json!(1)))
        );
        assert_eq!(won("other", &[], &Helm::default()), None);
    }

    #[test]
    fn values_as_a_string_count_when_there_is_no_values_object() {
        let h = helm(json!({"values": "greeting: from-values\n"}));
        assert_eq!(
            provenance("greeting", &json!({}), &[], &h)
                .winner()
                .map(|(l, v)| (l, v.clone())),
            Some(("valuesObject", json!("from-values")))
        );
    }
}
