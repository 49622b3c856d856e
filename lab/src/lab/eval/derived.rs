//! Evidence values that are derived rather than read: which Helm layer decided a value (from
//! the Application's spec and the chart files in Git at the synced commit), where a live image
//! came from, who owns a field, and values of earlier evidence files. Never known in advance.

use serde_json::Value;

use super::context::{Context, EarlierProblem, EvidenceError};
use crate::cluster::Application;
use crate::cluster::derive::provenance;
use crate::lab::spec::{EvidenceRef, FieldPath, Reveal};

/// A field of an earlier evidence file, or what to do when it is not there.
pub fn evidence_field(ctx: &Context<'_>, r: &EvidenceRef) -> Result<Value, EvidenceError> {
    let path = crate::lab::paths::inside(ctx.src_dir, &r.file).map_err(EvidenceError::Outside)?;
    // Bounded, and never a FIFO: an earlier file is read as carefully as the one checked.
    let bytes = crate::lab::files::read_bounded(&path, crate::lab::files::MAX_LEARNER_FILE)
        .map_err(|e| match e {
            crate::lab::files::ReadError::Missing { .. } => {
                earlier(ctx, &r.file, EarlierProblem::Missing)
            }
            other => earlier(ctx, &r.file, EarlierProblem::NotJson(other.to_string())),
        })?;
    let v: Value = serde_json::from_slice(&bytes)
        .map_err(|e| earlier(ctx, &r.file, EarlierProblem::NotJson(e.to_string())))?;
    Ok(v.get(&r.field).cloned().unwrap_or(Value::Null))
}

/// What is wrong with an earlier evidence file, and the lesson that writes it.
pub fn earlier(ctx: &Context<'_>, file: &str, problem: EarlierProblem) -> EvidenceError {
    EvidenceError::Earlier {
        file: file.to_string(),
        problem,
        lesson: ctx.catalog.lesson_for_evidence(file).map(|l| l.id()),
    }
}

/// A YAML file in the working copy at a commit, as JSON (`Null` when absent).
pub fn yaml_at(ctx: &Context<'_>, revision: &str, path: &str) -> Value {
    let repo = match crate::git::open(&ctx.src_dir.join("repo")) {
        Ok(r) => r,
        Err(_) => return Value::Null,
    };
    crate::git::file_at(&repo, revision, path)
        .and_then(|text| serde_saphyr::from_str::<Value>(&text).ok())
        .unwrap_or(Value::Null)
}

/// The layer that decides Helm value `key` of Application `app` at its synced revision; it must
/// agree with `recorded`, the value an earlier evidence file read from the cluster.
pub fn helm_layer(
    ctx: &Context<'_>,
    app: &Application,
    key: &str,
    recorded: &Value,
) -> Result<&'static str, EvidenceError> {
    let source = app.spec.source.clone().unwrap_or_default();
    let helm = source.helm.clone().unwrap_or_default();
    let revision = app.git_revision().unwrap_or("HEAD");
    let chart_dir = source.path.trim_matches('/');
    let chart = yaml_at(ctx, revision, &format!("{chart_dir}/values.yaml"));
    let value_files: Vec<Value> = helm
        .value_files
        .iter()
        .map(|f| match f.strip_prefix('/') {
            Some(from_root) => yaml_at(ctx, revision, from_root),
            None => yaml_at(ctx, revision, &format!("{chart_dir}/{f}")),
        })
        .collect();
    let p = provenance(key, &chart, &value_files, &helm);
    let (layer, value) = p
        .winner()
        .ok_or_else(|| EvidenceError::NoLayer(key.to_string()))?;
    // A parameter is a string ("3") where the live value may be a number (3).
    let render = |v: &Value| v.as_str().map_or_else(|| v.to_string(), String::from);
    if render(value) != render(recorded) {
        return Err(EvidenceError::LayerDisagrees {
            key: key.to_string(),
            layer: layer.to_string(),
            value: render(value),
            recorded: render(recorded),
        });
    }
    Ok(layer)
}

/// `application` when one of the Application's kustomize image overrides is the live object's
/// first container image, else `git`.
pub fn image_source(app: &Application, live: &Value) -> &'static str {
    let overrides = app
        .spec
        .source
        .as_ref()
        .and_then(|s| s.kustomize.as_ref())
        .map(|k| k.images.clone())
        .unwrap_or_default();
    let live_image = live["spec"]["template"]["spec"]["containers"][0]["image"]
        .as_str()
        .unwrap_or_default();
    let from_app = overrides.iter().any(|o| {
        let target = o.split_once('=').map_or(o.as_str(), |(_, t)| t);
        target == live_image || live_image.ends_with(&format!("/{target}"))
    });
    if from_app { "application" } else { "git" }
}

/// The answer a prediction's reveal names, as the live objects show it.
pub fn revealed(
    reveal: &Reveal,
    objects: &std::collections::BTreeMap<crate::cluster::ObjectKey, Value>,
) -> Option<String> {
    match reveal {
        Reveal::Field { object, path } => objects
            .get(object)
            .and_then(|o| path.get(o))
            .map(|v| v.as_str().map_or_else(|| v.to_string(), String::from)),
        Reveal::Owner { object, path } => objects.get(object).and_then(|o| field_owner(o, path)),
    }
}

/// The manager of the latest managedFields entry that owns `path` of `obj`.
pub fn field_owner(obj: &Value, path: &FieldPath) -> Option<String> {
    writes_of(obj, path)
        .filter_map(|m| m["manager"].as_str())
        .next_back()
        .map(String::from)
}

/// The managedFields entries of `obj` that hold `path`, in the order the object lists them.
pub fn writes_of<'a>(
    obj: &'a Value,
    path: &FieldPath,
) -> impl DoubleEndedIterator<Item = &'a Value> {
    let keys = path.managed_fields_keys();
    obj["metadata"]["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(move |m| {
            keys.iter()
                .try_fold(&m["fieldsV1"], |v, k| v.get(k))
                .is_some_and(Value::is_object)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::application::{Kustomize, Source, Spec};
    use serde_json::json;

    #[test]
    fn an_image_override_on_the_application_is_told_apart_from_git() {
        let app = Application {
            spec: Spec {
                source: Some(Source {
                    kustomize: Some(Kustomize {
                        images: vec!["nginx=nginx:1.28-alpine".into()],
                    }),
                    ..Source::default()
                }),
                ..Spec::default()
            },
            ..Application::default()
        };
        let live = |image: &str| json!({"spec": {"template": {"spec": {"containers": [{"image": image}]}}}});
        assert_eq!(
            image_source(&app, &live("nginx:1.28-alpine")),
            "application"
        );
        assert_eq!(image_source(&app, &live("nginx:1.27-alpine")), "git");
    }

    #[test]
    fn the_owner_of_a_field_is_the_latest_entry_that_holds_it() {
        let obj = json!({"metadata": {"managedFields": [
            {"manager": "argocd-controller", "fieldsV1": {"f:spec": {"f:replicas": {}}}},
            {"manager": "kubectl", "fieldsV1": {"f:spec": {"f:replicas": {}}}},
            {"manager": "other", "fieldsV1": {"f:metadata": {}}}
        ]}});
        let path = FieldPath::try_from("spec.replicas".to_string()).unwrap();
        assert_eq!(field_owner(&obj, &path).as_deref(), Some("kubectl"));
    }
}
