//! `report.json` (lab step 8), derived — never known in advance — from the earlier evidence,
//! the Applications' specs, the chart files in Git at the synced commit, and the live
//! managedFields of prod-api.

use serde_json::{Value, json};

use super::evidence::Context;
use crate::cluster::argocd;

/// The Helm layers, lowest precedence first (§1.4).
pub const LAYERS: [&str; 4] = ["chart", "valueFiles", "valuesObject", "parameters"];

/// Where a Helm value was decided: the highest layer that sets it, with that layer's value.
pub fn winner(
    key: &str,
    chart: &Value,
    value_files: &[Value],
    app_helm: &Value,
) -> Option<(&'static str, Value)> {
    let param = app_helm["parameters"]
        .as_array()
        .into_iter()
        .flatten()
        .rev()
        .find(|p| p["name"] == key);
    if let Some(p) = param {
        return Some(("parameters", p["value"].clone()));
    }
    let object = match &app_helm["valuesObject"] {
        Value::Object(_) => app_helm["valuesObject"].clone(),
        _ => app_helm["values"]
            .as_str()
            .and_then(|v| serde_saphyr::from_str::<Value>(v).ok())
            .unwrap_or(Value::Null),
    };
    if !object[key].is_null() {
        return Some(("valuesObject", object[key].clone()));
    }
    if let Some(v) = value_files.iter().rev().find(|f| !f[key].is_null()) {
        return Some(("valueFiles", v[key].clone()));
    }
    (!chart[key].is_null()).then(|| ("chart", chart[key].clone()))
}

fn read_json(ctx: &Context<'_>, file: &str, lesson: &str) -> Result<Value, String> {
    let path = ctx.src_dir.join(file);
    let text = std::fs::read_to_string(&path)
        .map_err(|_| format!("{} is missing: do {lesson} first", path.display()))?;
    serde_json::from_str(&text).map_err(|e| {
        format!(
            "{} is not valid JSON ({e}): fix it or re-run {lesson}",
            path.display()
        )
    })
}

/// A YAML file in the working copy at a commit, as JSON (`Null` when absent).
fn yaml_at(ctx: &Context<'_>, revision: &str, path: &str) -> Value {
    let repo = match crate::git::open(&ctx.src_dir.join("repo")) {
        Ok(r) => r,
        Err(_) => return Value::Null,
    };
    crate::git::file_at(&repo, revision, path)
        .and_then(|text| serde_saphyr::from_str::<Value>(&text).ok())
        .unwrap_or(Value::Null)
}

pub async fn derive(ctx: &Context<'_>) -> Result<Value, String> {
    let precedence = read_json(ctx, "precedence.json", "lesson 2")?;
    let tracking = read_json(ctx, "tracking.json", "lesson 3")?;
    let failed = read_json(ctx, "failed-hook.json", "lesson 6")?;
    let client = ctx.client.clone();
    let helm_app = argocd::application(client.clone(), argocd::NAMESPACE, "src-helm")
        .await
        .map_err(|e| e.to_string())?;
    let source = &helm_app["spec"]["source"];
    let revision = helm_app["status"]["sync"]["revision"]
        .as_str()
        .unwrap_or("HEAD")
        .to_string();
    let chart_dir = source["path"]
        .as_str()
        .unwrap_or_default()
        .trim_matches('/')
        .to_string();
    let chart = yaml_at(ctx, &revision, &format!("{chart_dir}/values.yaml"));
    let value_files: Vec<Value> = source["helm"]["valueFiles"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|f| match f.strip_prefix('/') {
            Some(from_root) => yaml_at(ctx, &revision, from_root),
            None => yaml_at(ctx, &revision, &format!("{chart_dir}/{f}")),
        })
        .collect();
    let decide = |key: &str, live: &Value| -> Result<&'static str, String> {
        let (layer, value) = winner(key, &chart, &value_files, &source["helm"])
            .ok_or_else(|| format!("no layer sets {key}"))?;
        // A parameter is a string ("3") where the live value may be a number (3).
        let render = |v: &Value| v.as_str().map_or_else(|| v.to_string(), String::from);
        let same = render(&value) == render(live);
        if !same {
            return Err(format!(
                "{key}: the {layer} layer says {value} but precedence.json recorded {live}; re-run lesson 2 so the evidence matches the cluster"
            ));
        }
        Ok(layer)
    };
    let helm_winner = decide("greeting", &precedence["greeting"])?;
    let replicas_winner = decide("replicaCount", &precedence["replicas"])?;

    let kust_app = argocd::application(client.clone(), argocd::NAMESPACE, "src-kust")
        .await
        .map_err(|e| e.to_string())?;
    let overrides = kust_app["spec"]["source"]["kustomize"]["images"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let deploy = argocd::raw_get(
        client.clone(),
        "/apis/apps/v1/namespaces/src-kust/deployments/prod-api",
    )
    .await
    .map_err(|e| e.to_string())?;
    let live_image = deploy["spec"]["template"]["spec"]["containers"][0]["image"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let from_app = overrides.iter().filter_map(Value::as_str).any(|o| {
        let target = o.split_once('=').map_or(o, |(_, t)| t);
        target == live_image || live_image.ends_with(&format!("/{target}"))
    });
    let replicas_owner = deploy["metadata"]["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["fieldsV1"]["f:spec"]["f:replicas"].is_object())
        .filter_map(|m| m["manager"].as_str())
        .next_back()
        .ok_or("nobody owns prod-api's spec.replicas yet: do lesson 7 first")?
        .to_string();
    let failed_commit = failed["commit"]
        .as_str()
        .ok_or("failed-hook.json has no commit: re-run lesson 6")?;
    let committed_mode = yaml_at(ctx, failed_commit, "waves/config.yaml")["data"]["mode"].clone();
    Ok(json!({
        "helm_winner": helm_winner,
        "replicas_winner": replicas_winner,
        "helm_installed": tracking["helm_release_secrets"].as_u64().unwrap_or(0) > 0,
        "image_source": if from_app { "application" } else { "git" },
        "hook_blocked_sync": !committed_mode.is_null() && failed["live_mode"] != committed_mode,
        "replicas_owner": replicas_owner,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_highest_layer_that_sets_a_key_wins() {
        let chart = json!({"replicaCount": 1, "greeting": "chart-default"});
        let files = [json!({"replicaCount": 2, "greeting": "from-values-file"})];
        let helm = json!({"valuesObject": {"replicaCount": 3, "greeting": "from-values-object"}, "parameters": [{"name": "greeting", "value": "from-parameter"}]});
        assert_eq!(
            winner("greeting", &chart, &files, &helm),
            Some(("parameters", json!("from-parameter")))
        );
        assert_eq!(
            winner("replicaCount", &chart, &files, &helm),
            Some(("valuesObject", json!(3)))
        );
        assert_eq!(
            winner("replicaCount", &chart, &files, &json!({})),
            Some(("valueFiles", json!(2)))
        );
        assert_eq!(
            winner("replicaCount", &chart, &[], &json!({})),
            Some(("chart", json!(1)))
        );
        assert_eq!(winner("other", &chart, &[], &json!({})), None);
    }

    #[test]
    fn values_as_a_string_count_when_there_is_no_values_object() {
        let helm = json!({"values": "greeting: from-values\n"});
        assert_eq!(
            winner("greeting", &json!({}), &[], &helm),
            Some(("valuesObject", json!("from-values")))
        );
    }
}
