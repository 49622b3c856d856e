//! Why a checklist condition does not hold, in words that name what is wrong and what to do:
//! the one judgement both the ticking checklist and the self-check use.

use serde_json::Value;

use super::Facts;
use super::derived::field_owner;
use crate::cluster::Application;
use crate::lab::spec::DoneWhen;

/// The bare repo an Application's source is (the URL's last part without `.git`).
fn repo_of(app: &Application) -> Option<String> {
    let url = &app.spec.source.as_ref()?.repo_url;
    let last = url.trim_end_matches('/').rsplit('/').next()?;
    Some(last.trim_end_matches(".git").to_string())
}

fn short(rev: Option<&str>) -> String {
    rev.map_or_else(|| "no revision".into(), |r| r[..r.len().min(7)].to_string())
}

/// A value as a person reads it: strings bare, the rest as JSON.
pub fn shown(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), String::from)
}

/// Whether `value` holds every key and value of `subset` (lists: each given item is found).
pub fn holds(value: &Value, subset: &Value) -> bool {
    first_missing(value, subset, "").is_none()
}

/// The first part of `subset` that `value` lacks: its path and what it should be.
fn first_missing(value: &Value, subset: &Value, at: &str) -> Option<(String, Value)> {
    match (value, subset) {
        (Value::Object(v), Value::Object(s)) => s.iter().find_map(|(k, want)| {
            let here = if at.is_empty() {
                k.clone()
            } else {
                format!("{at}.{k}")
            };
            match v.get(k) {
                Some(have) => first_missing(have, want, &here),
                None => Some((here, want.clone())),
            }
        }),
        (Value::Array(v), Value::Array(s)) => s
            .iter()
            .find(|want| !v.iter().any(|have| first_missing(have, want, "").is_none()))
            .map(|want| (format!("{at}[]"), want.clone())),
        (v, s) if same(v, s) => None,
        (_, s) => Some((at.to_string(), s.clone())),
    }
}

/// Equal as the lab means it: a number written as a string in YAML ("3") matches the number
/// the API returns, and 3.0 is 3.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Number(n), Value::String(s)) | (Value::String(s), Value::Number(n)) => {
            s.parse::<f64>().ok() == n.as_f64()
        }
        (a, b) => a == b,
    }
}

impl DoneWhen {
    /// Whether the condition holds on these facts.
    pub fn holds(&self, f: &Facts<'_>) -> bool {
        self.unmet(f).is_none()
    }

    /// `None` when the condition holds; else what is wrong and what to do, in plain words.
    pub fn unmet(&self, f: &Facts<'_>) -> Option<String> {
        match self {
            DoneWhen::BareRepo(repo) => (!f.git.repos.contains_key(repo)).then(|| {
                format!("there is no bare repo {repo}.git yet: create it with git init --bare")
            }),
            DoneWhen::Cloned(repo) => (!f.git.cloned.contains(repo)).then(|| {
                format!("the working copy is not a clone of {repo}.git yet: git clone it")
            }),
            DoneWhen::Pushed {
                repo,
                path,
                contains,
            } => match (f.git.files.get(&(repo.clone(), path.clone())), contains) {
                (None, _) => Some(format!(
                    "{path} is not on main of {repo}.git yet: commit it and git push"
                )),
                (Some(text), Some(c)) if !text.contains(c.as_str()) => Some(format!(
                    "{path} on main of {repo}.git does not contain {c:?}: commit the change and git push"
                )),
                _ => None,
            },
            DoneWhen::GitValue {
                repo,
                file,
                path,
                equals,
            } => git_value(f, (repo, file), path, equals),
            DoneWhen::AppSpec { app, has } => match f.app_specs.get(app) {
                None => Some(format!("Application {app} does not exist yet: kubectl apply it")),
                Some(spec) => first_missing(spec, has, "").map(|(at, want)| {
                    format!(
                        "{app}'s spec.{at} should hold {}: edit the Application and kubectl apply it again",
                        serde_json::to_string(&want).unwrap_or_default()
                    )
                }),
            },
            DoneWhen::Synced { app } => self.app_unmet(f, app),
            DoneWhen::Succeeded { app } => self.app_unmet(f, app),
            DoneWhen::OperationFailed { app } => self.app_unmet(f, app),
            DoneWhen::FieldOwner {
                object,
                path,
                manager,
            } => match f.objects.get(&object.key()) {
                None => Some(format!("{object} is not in the cluster")),
                Some(o) => match field_owner(o, path) {
                    Some(m) if m == *manager => None,
                    Some(m) => Some(format!("{path} of {object} is owned by {m}, not {manager}")),
                    None => Some(format!("no manager owns {path} of {object}")),
                },
            },
            DoneWhen::ObjectField {
                object,
                path,
                equals,
            } => match f.objects.get(&object.key()) {
                None => Some(format!("{object} is not in the cluster")),
                Some(o) => match path.get(o) {
                    Some(v) if holds(v, equals) => None,
                    Some(v) => Some(format!(
                        "{object} has {path} {}, not {}",
                        shown(v),
                        shown(equals)
                    )),
                    None => Some(format!("{object} has no {path} (expected {})", shown(equals))),
                },
            },
            DoneWhen::RolledOut { object, image } => match f.objects.get(&object.key()) {
                None => Some(format!("{object} is not in the cluster")),
                Some(o) => rolled_out(o, image).map(|why| format!("{object}: {why}")),
            },
            DoneWhen::All(all) => all.iter().find_map(|c| c.unmet(f)),
            DoneWhen::EvidenceExists(file) => (!f.evidence_present.get(file).copied().unwrap_or(false))
                .then(|| format!("{file} is not written yet")),
            DoneWhen::EvidencePasses(file) => (!f.evidence_passed.get(file).copied().unwrap_or(false))
                .then(|| format!("{file} does not pass the self-check yet")),
        }
    }

    /// The Application conditions, judged against `main` of the repo it points at.
    fn app_unmet(&self, f: &Facts<'_>, name: &str) -> Option<String> {
        let Some(app) = f.apps.get(name) else {
            return Some(format!(
                "Application {name} does not exist yet: kubectl apply it"
            ));
        };
        let repo = repo_of(app).unwrap_or_default();
        let main = f.git.repos.get(&repo).cloned().flatten();
        let path = app.spec.source.as_ref().map_or("", |s| s.path.as_str());
        let at_main = |rev: Option<&str>| f.git.current(&repo, rev, path);
        let state = format!(
            "{name} is {}/{} at {} (main is at {})",
            app.status.sync.status,
            app.status.health.status,
            short(app.git_revision()),
            short(main.as_deref())
        );
        let settled = app.operation.is_none()
            && app.status.sync.status == "Synced"
            && app.status.health.status == "Healthy"
            && at_main(app.git_revision());
        let op = app.status.operation_state.as_ref();
        match self {
            DoneWhen::Synced { .. } if !settled => Some(format!(
                "{state}{}: wait for the sync, or hard-refresh it",
                if app.operation.is_some() {
                    ", an operation is running"
                } else {
                    ""
                }
            )),
            DoneWhen::Succeeded { .. } if !settled => Some(format!(
                "{state}: wait for the sync to finish, or hard-refresh it"
            )),
            DoneWhen::Succeeded { .. }
                if !(op.is_some_and(|o| o.phase == "Succeeded")
                    && at_main(app.synced_revision())) =>
            {
                Some(format!(
                    "{name}'s last operation is {} on {}, not Succeeded on main ({})",
                    op.map_or("none", |o| o.phase.as_str()),
                    short(app.synced_revision()),
                    short(main.as_deref())
                ))
            }
            DoneWhen::OperationFailed { .. }
                if !(op.is_some_and(|o| o.failed() || o.message.contains("Retrying attempt"))
                    && at_main(app.operation_revision())) =>
            {
                Some(format!(
                    "{name}'s operation on main ({}) has not failed: its last operation is {} on {}",
                    short(main.as_deref()),
                    op.map_or("none", |o| o.phase.as_str()),
                    short(app.operation_revision())
                ))
            }
            _ => None,
        }
    }
}

fn git_value(
    f: &Facts<'_>,
    (repo, file): (&String, &String),
    path: &crate::lab::spec::FieldPath,
    equals: &Value,
) -> Option<String> {
    let Some(text) = f.git.files.get(&(repo.clone(), file.clone())) else {
        return Some(format!(
            "{file} is not on main of {repo}.git yet: commit it and git push"
        ));
    };
    let doc = serde_saphyr::from_str::<Value>(text).unwrap_or(Value::Null);
    let have = path.get(&doc).cloned().unwrap_or(Value::Null);
    if same(&have, equals) {
        return None;
    }
    Some(if equals.is_null() {
        format!(
            "{file} on main of {repo}.git sets {path} to {}; the lab keeps it out of Git",
            shown(&have)
        )
    } else if have.is_null() {
        format!(
            "{file} on main of {repo}.git does not set {path}; it should be {}",
            shown(equals)
        )
    } else {
        format!(
            "{file} on main of {repo}.git sets {path} to {}, not {}",
            shown(&have),
            shown(equals)
        )
    })
}

/// Why a Deployment has not rolled out on `image`, if it has not.
fn rolled_out(d: &Value, image: &str) -> Option<String> {
    let count = |v: &Value| v.as_i64().unwrap_or(0);
    let want = d["spec"]["replicas"].as_i64().unwrap_or(1);
    let ready = count(&d["status"]["readyReplicas"]);
    let updated = count(&d["status"]["updatedReplicas"]);
    let total = count(&d["status"]["replicas"]);
    let images: Vec<&str> = d["spec"]["template"]["spec"]["containers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["image"].as_str())
        .collect();
    if images.is_empty() || images.iter().any(|i| *i != image) {
        return Some(format!(
            "its Pods run {}, not {image}",
            if images.is_empty() {
                "no image".to_string()
            } else {
                images.join(", ")
            }
        ));
    }
    let observed = d["status"]["observedGeneration"] == d["metadata"]["generation"];
    (!(observed && ready == want && updated == want && total == want)).then(|| {
        format!("{ready} of {want} Pods ready on {image} ({updated} updated, {total} in all): wait for the rollout")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_missing_part_is_named_with_its_path() {
        let spec =
            json!({"source": {"helm": {"parameters": [{"name": "greeting", "value": "x"}]}}});
        assert_eq!(
            first_missing(
                &spec,
                &json!({"source": {"helm": {"valuesObject": {"replicaCount": 3}}}}),
                ""
            ),
            Some((
                "source.helm.valuesObject".into(),
                json!({"replicaCount": 3})
            ))
        );
        assert_eq!(
            first_missing(
                &spec,
                &json!({"source": {"helm": {"parameters": [{"name": "greeting", "value": "from-parameter"}]}}}),
                ""
            ),
            Some((
                "source.helm.parameters[]".into(),
                json!({"name": "greeting", "value": "from-parameter"})
            ))
        );
        assert!(holds(&json!({"n": 3}), &json!({"n": "3"})));
        assert!(holds(&json!({"n": 3.0}), &json!({"n": 3})));
    }

    #[test]
    fn a_rollout_is_done_only_when_every_replica_is_ready_on_the_image() {
        let d = |image: &str, ready: i64| {
            json!({"metadata": {"generation": 2}, "spec": {"replicas": 2, "template": {"spec": {"containers": [{"image": image}]}}},
                   "status": {"observedGeneration": 2, "replicas": 2, "updatedReplicas": 2, "readyReplicas": ready}})
        };
        assert_eq!(
            rolled_out(&d("nginx:1.28-alpine", 2), "nginx:1.28-alpine"),
            None
        );
        assert_eq!(
            rolled_out(&d("nginx:1.28-alpine", 1), "nginx:1.28-alpine").unwrap(),
            "1 of 2 Pods ready on nginx:1.28-alpine (2 updated, 2 in all): wait for the rollout"
        );
        assert_eq!(
            rolled_out(&d("nginx:1.27-alpine", 2), "nginx:1.28-alpine").unwrap(),
            "its Pods run nginx:1.27-alpine, not nginx:1.28-alpine"
        );
    }
}
