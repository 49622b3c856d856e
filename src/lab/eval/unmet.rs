//! Why a checklist condition does not hold, typed ([`Unmet`]) and said in the learner's words
//! with what to do — the one judgement the ticking checklist, the self-check and a plan's
//! prerequisites all use — and, when it holds, since when ([`DoneWhen::since`]).

use jiff::Timestamp;
use serde_json::Value;

use super::derived::{field_owner, writes_of};
use super::facts::Facts;
use crate::cluster::Application;
use crate::i18n::{Lang, Say};
use crate::lab::spec::{DoneWhen, FieldPath, ObjectRef};
use crate::t;

/// The bare repo an Application's source is (the URL's last part without `.git`).
fn repo_of(app: &Application) -> Option<String> {
    let url = &app.spec.source.as_ref()?.repo_url;
    let last = url.trim_end_matches('/').rsplit('/').next()?;
    Some(last.trim_end_matches(".git").to_string())
}

fn short(rev: Option<&str>) -> String {
    rev.map_or_else(|| "-".into(), |r| r[..r.len().min(7)].to_string())
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

/// An Application's state as a reason names it.
#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    pub app: String,
    pub sync: String,
    pub health: String,
    pub at: String,
    pub main: String,
}

/// Why a condition does not hold.
#[derive(Debug, Clone, PartialEq)]
pub enum Unmet {
    NoBareRepo {
        repo: String,
    },
    NotCloned {
        repo: String,
    },
    NotPushed {
        repo: String,
        path: String,
    },
    PushedWithout {
        repo: String,
        path: String,
        contains: String,
    },
    GitSetsUnwanted {
        repo: String,
        file: String,
        path: String,
        have: String,
    },
    GitLacks {
        repo: String,
        file: String,
        path: String,
        want: String,
    },
    GitDiffers {
        repo: String,
        file: String,
        path: String,
        have: String,
        want: String,
    },
    NoApp {
        app: String,
    },
    AppSpecLacks {
        app: String,
        at: String,
        want: String,
    },
    /// Not Synced/Healthy at `main` yet (or an operation runs).
    NotSettled {
        state: AppState,
        running: bool,
    },
    NotSucceeded {
        app: String,
        phase: String,
        at: String,
        main: String,
    },
    NotFailed {
        app: String,
        main: String,
        phase: String,
        at: String,
    },
    NotInCluster {
        object: String,
    },
    OwnedBy {
        object: String,
        path: String,
        owner: String,
        manager: String,
    },
    NoOwner {
        object: String,
        path: String,
    },
    FieldIs {
        object: String,
        path: String,
        have: String,
        want: String,
    },
    FieldMissing {
        object: String,
        path: String,
        want: String,
    },
    RunsOtherImage {
        object: String,
        images: String,
        image: String,
    },
    NotRolledOut {
        object: String,
        image: String,
        ready: i64,
        want: i64,
        updated: i64,
        total: i64,
    },
    NoEvidence {
        file: String,
    },
    EvidenceFails {
        file: String,
    },
    NotScaled {
        object: String,
    },
    /// It holds, and has to go on holding this many more seconds of cluster time.
    Holding {
        left: u64,
    },
    /// The cluster's clock is not known yet, so the time that passed cannot be told.
    NoClock,
}

impl Unmet {
    /// Seconds still to pass when the condition holds and only time is missing.
    pub fn countdown(&self) -> Option<u64> {
        match self {
            Unmet::Holding { left } => Some(*left),
            _ => None,
        }
    }
}

impl Say for Unmet {
    // One arm per message: split, the messages would only be scattered.
    #[allow(clippy::too_many_lines)]
    fn say(&self, lang: Lang) -> String {
        match self {
            Unmet::NoBareRepo { repo } => t!(lang, "unmet-no-bare-repo", repo = repo.as_str()),
            Unmet::NotCloned { repo } => t!(lang, "unmet-not-cloned", repo = repo.as_str()),
            Unmet::NotPushed { repo, path } => t!(
                lang,
                "unmet-not-pushed",
                repo = repo.as_str(),
                path = path.as_str()
            ),
            Unmet::PushedWithout {
                repo,
                path,
                contains,
            } => t!(
                lang,
                "unmet-pushed-without",
                repo = repo.as_str(),
                path = path.as_str(),
                contains = contains.as_str()
            ),
            Unmet::GitSetsUnwanted {
                repo,
                file,
                path,
                have,
            } => t!(
                lang,
                "unmet-git-sets-unwanted",
                repo = repo.as_str(),
                file = file.as_str(),
                path = path.as_str(),
                have = have.as_str()
            ),
            Unmet::GitLacks {
                repo,
                file,
                path,
                want,
            } => t!(
                lang,
                "unmet-git-lacks",
                repo = repo.as_str(),
                file = file.as_str(),
                path = path.as_str(),
                want = want.as_str()
            ),
            Unmet::GitDiffers {
                repo,
                file,
                path,
                have,
                want,
            } => t!(
                lang,
                "unmet-git-differs",
                repo = repo.as_str(),
                file = file.as_str(),
                path = path.as_str(),
                have = have.as_str(),
                want = want.as_str()
            ),
            Unmet::NoApp { app } => t!(lang, "unmet-no-app", app = app.as_str()),
            Unmet::AppSpecLacks { app, at, want } => t!(
                lang,
                "unmet-app-spec-lacks",
                app = app.as_str(),
                at = at.as_str(),
                want = want.as_str()
            ),
            Unmet::NotSettled { state, running } => {
                let now = t!(
                    lang,
                    "unmet-app-state",
                    app = state.app.as_str(),
                    sync = state.sync.as_str(),
                    health = state.health.as_str(),
                    at = state.at.as_str(),
                    main = state.main.as_str()
                );
                if *running {
                    t!(lang, "unmet-not-settled-running", state = now)
                } else {
                    t!(lang, "unmet-not-settled", state = now)
                }
            }
            Unmet::NotSucceeded {
                app,
                phase,
                at,
                main,
            } => t!(
                lang,
                "unmet-not-succeeded",
                app = app.as_str(),
                phase = phase.as_str(),
                at = at.as_str(),
                main = main.as_str()
            ),
            Unmet::NotFailed {
                app,
                main,
                phase,
                at,
            } => t!(
                lang,
                "unmet-not-failed",
                app = app.as_str(),
                main = main.as_str(),
                phase = phase.as_str(),
                at = at.as_str()
            ),
            Unmet::NotInCluster { object } => {
                t!(lang, "unmet-not-in-cluster", object = object.as_str())
            }
            Unmet::OwnedBy {
                object,
                path,
                owner,
                manager,
            } => t!(
                lang,
                "unmet-owned-by",
                object = object.as_str(),
                path = path.as_str(),
                owner = owner.as_str(),
                manager = manager.as_str()
            ),
            Unmet::NoOwner { object, path } => t!(
                lang,
                "unmet-no-owner",
                object = object.as_str(),
                path = path.as_str()
            ),
            Unmet::FieldIs {
                object,
                path,
                have,
                want,
            } => t!(
                lang,
                "unmet-field-is",
                object = object.as_str(),
                path = path.as_str(),
                have = have.as_str(),
                want = want.as_str()
            ),
            Unmet::FieldMissing { object, path, want } => t!(
                lang,
                "unmet-field-missing",
                object = object.as_str(),
                path = path.as_str(),
                want = want.as_str()
            ),
            Unmet::RunsOtherImage {
                object,
                images,
                image,
            } => t!(
                lang,
                "unmet-runs-other-image",
                object = object.as_str(),
                images = images.as_str(),
                image = image.as_str()
            ),
            Unmet::NotRolledOut {
                object,
                image,
                ready,
                want,
                updated,
                total,
            } => t!(
                lang,
                "unmet-not-rolled-out",
                object = object.as_str(),
                image = image.as_str(),
                ready = ready.to_string(),
                want = want.to_string(),
                updated = updated.to_string(),
                total = total.to_string()
            ),
            Unmet::NoEvidence { file } => t!(lang, "unmet-no-evidence", file = file.as_str()),
            Unmet::EvidenceFails { file } => {
                t!(lang, "unmet-evidence-fails", file = file.as_str())
            }
            Unmet::NotScaled { object } => t!(lang, "unmet-not-scaled", object = object.as_str()),
            Unmet::Holding { left } => t!(lang, "unmet-holding", seconds = left.to_string()),
            Unmet::NoClock => t!(lang, "unmet-no-clock"),
        }
    }
}

crate::display_says!(Unmet);

impl DoneWhen {
    /// Whether the condition holds on these facts.
    pub fn holds(&self, f: &Facts<'_>) -> bool {
        self.unmet(f).is_none()
    }

    /// `None` when the condition holds; else what is wrong and what to do.
    // One arm per kind of condition, each short: the judgement reads as one table.
    #[allow(clippy::too_many_lines)]
    pub fn unmet(&self, f: &Facts<'_>) -> Option<Unmet> {
        match self {
            DoneWhen::BareRepo(repo) => {
                (!f.git.repos.contains_key(repo)).then(|| Unmet::NoBareRepo { repo: repo.clone() })
            }
            DoneWhen::Cloned(repo) => {
                (!f.git.cloned.contains(repo)).then(|| Unmet::NotCloned { repo: repo.clone() })
            }
            DoneWhen::Pushed {
                repo,
                path,
                contains,
            } => match (f.git.files.get(&(repo.clone(), path.clone())), contains) {
                (None, _) => Some(Unmet::NotPushed {
                    repo: repo.clone(),
                    path: path.clone(),
                }),
                (Some(text), Some(c)) if !text.contains(c.as_str()) => Some(Unmet::PushedWithout {
                    repo: repo.clone(),
                    path: path.clone(),
                    contains: c.clone(),
                }),
                _ => None,
            },
            DoneWhen::GitValue {
                repo,
                file,
                path,
                equals,
            } => git_value(f, (repo, file), path, equals),
            DoneWhen::AppSpec { app, has } => match f.apps.get(app) {
                None => Some(Unmet::NoApp { app: app.clone() }),
                Some(a) => first_missing(&a.spec, has, "").map(|(at, want)| Unmet::AppSpecLacks {
                    app: app.clone(),
                    at,
                    want: serde_json::to_string(&want).unwrap_or_default(),
                }),
            },
            DoneWhen::Synced { app }
            | DoneWhen::Succeeded { app }
            | DoneWhen::OperationFailed { app } => self.app_unmet(f, app),
            DoneWhen::FieldOwner {
                object,
                path,
                manager,
            } => match f.objects.get(&object.key()) {
                None => Some(not_in_cluster(object)),
                Some(o) => match field_owner(o, path) {
                    Some(m) if m == *manager => None,
                    Some(m) => Some(Unmet::OwnedBy {
                        object: object.to_string(),
                        path: path.to_string(),
                        owner: m,
                        manager: manager.clone(),
                    }),
                    None => Some(Unmet::NoOwner {
                        object: object.to_string(),
                        path: path.to_string(),
                    }),
                },
            },
            DoneWhen::ObjectField {
                object,
                path,
                equals,
            } => match f.objects.get(&object.key()) {
                None => Some(not_in_cluster(object)),
                Some(o) => match path.get(o) {
                    Some(v) if holds(v, equals) => None,
                    Some(v) => Some(Unmet::FieldIs {
                        object: object.to_string(),
                        path: path.to_string(),
                        have: shown(v),
                        want: shown(equals),
                    }),
                    None => Some(Unmet::FieldMissing {
                        object: object.to_string(),
                        path: path.to_string(),
                        want: shown(equals),
                    }),
                },
            },
            DoneWhen::RolledOut { object, image } => match f.objects.get(&object.key()) {
                None => Some(not_in_cluster(object)),
                Some(o) => rolled_out(object, o, image),
            },
            DoneWhen::All(all) => all.iter().find_map(|c| c.unmet(f)),
            DoneWhen::HeldAfterScale {
                object,
                seconds,
                condition,
            } => {
                if let Some(why) = condition.unmet(f) {
                    return Some(why);
                }
                let Some(scaled) = f.objects.get(&object.key()).and_then(scaled_at) else {
                    return Some(Unmet::NotScaled {
                        object: object.to_string(),
                    });
                };
                let Some(now) = f.now else {
                    return Some(Unmet::NoClock);
                };
                let passed = now.duration_since(scaled).as_secs().max(0).unsigned_abs();
                (passed < *seconds).then(|| Unmet::Holding {
                    left: seconds - passed,
                })
            }
            DoneWhen::EvidenceExists(file) => f
                .evidence
                .get(file)
                .and_then(|e| e.written)
                .is_none()
                .then(|| Unmet::NoEvidence { file: file.clone() }),
            DoneWhen::EvidencePasses(file) => f
                .evidence
                .get(file)
                .and_then(|e| e.passed)
                .is_none()
                .then(|| Unmet::EvidenceFails { file: file.clone() }),
        }
    }

    /// When the condition became true, as the facts record it (a commit's time, an operation's
    /// end, a managedFields entry, a file's write): what a tick shows. `None` when the facts do
    /// not say, or it does not hold.
    pub fn since(&self, f: &Facts<'_>) -> Option<Timestamp> {
        if !self.holds(f) {
            return None;
        }
        let object = |o: &ObjectRef| f.objects.get(&o.key());
        match self {
            DoneWhen::BareRepo(repo) => f.git.made.get(repo).copied(),
            DoneWhen::Cloned(_) => f.git.cloned_at,
            DoneWhen::Pushed { repo, path, .. } => {
                f.git.changed.get(&(repo.clone(), path.clone())).copied()
            }
            DoneWhen::GitValue { repo, file, .. } => {
                f.git.changed.get(&(repo.clone(), file.clone())).copied()
            }
            DoneWhen::AppSpec { app, .. } => f.apps.get(app).and_then(|a| a.applied_at),
            DoneWhen::Synced { app }
            | DoneWhen::Succeeded { app }
            | DoneWhen::OperationFailed { app } => {
                let op = f.apps.get(app)?.app.status.operation_state.clone()?;
                op.finished_at
                    .or(op.started_at)
                    .and_then(|t| t.parse().ok())
            }
            DoneWhen::FieldOwner {
                object: o,
                path,
                manager,
            } => object(o).and_then(|obj| {
                writes_of(obj, path)
                    .filter(|m| m["manager"] == manager.as_str())
                    .filter_map(|m| m["time"].as_str()?.parse().ok())
                    .max()
            }),
            DoneWhen::ObjectField {
                object: o, path, ..
            } => object(o).and_then(|obj| written_at(obj, path)),
            DoneWhen::RolledOut { object: o, .. } => object(o).and_then(|d| {
                d["status"]["conditions"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|c| c["type"] == "Available" || c["type"] == "Progressing")
                    .filter_map(|c| {
                        c["lastUpdateTime"]
                            .as_str()
                            .or(c["lastTransitionTime"].as_str())
                    })
                    .filter_map(|t| t.parse::<Timestamp>().ok())
                    .max()
            }),
            DoneWhen::All(all) => all.iter().filter_map(|c| c.since(f)).max(),
            DoneWhen::HeldAfterScale {
                object: o, seconds, ..
            } => object(o).and_then(scaled_at).and_then(|t| {
                t.checked_add(jiff::SignedDuration::from_secs(*seconds as i64))
                    .ok()
            }),
            DoneWhen::EvidenceExists(file) => f.evidence.get(file).and_then(|e| e.written),
            DoneWhen::EvidencePasses(file) => f.evidence.get(file).and_then(|e| e.passed),
        }
    }

    /// The Application conditions, judged against `main` of the repo it points at.
    fn app_unmet(&self, f: &Facts<'_>, name: &str) -> Option<Unmet> {
        let Some(app) = f.apps.get(name).map(|a| &a.app) else {
            return Some(Unmet::NoApp {
                app: name.to_string(),
            });
        };
        let repo = repo_of(app).unwrap_or_default();
        let main = f.git.repos.get(&repo).cloned().flatten();
        let path = app.spec.source.as_ref().map_or("", |s| s.path.as_str());
        let at_main = |rev: Option<&str>| f.git.current(&repo, rev, path);
        let state = AppState {
            app: name.to_string(),
            sync: app.status.sync.status.clone(),
            health: app.status.health.status.clone(),
            at: short(app.git_revision()),
            main: short(main.as_deref()),
        };
        let settled = app.operation.is_none()
            && app.status.sync.status == "Synced"
            && app.status.health.status == "Healthy"
            && at_main(app.git_revision());
        let op = app.status.operation_state.as_ref();
        let phase = op.map_or_else(|| "-".to_string(), |o| o.phase.clone());
        match self {
            DoneWhen::Synced { .. } | DoneWhen::Succeeded { .. } if !settled => {
                Some(Unmet::NotSettled {
                    state,
                    running: app.operation.is_some(),
                })
            }
            DoneWhen::Succeeded { .. }
                if !(op.is_some_and(|o| o.phase == "Succeeded")
                    && at_main(app.result_revision())) =>
            {
                Some(Unmet::NotSucceeded {
                    app: name.to_string(),
                    phase,
                    at: short(app.result_revision()),
                    main: short(main.as_deref()),
                })
            }
            DoneWhen::OperationFailed { .. }
                if !(op.is_some_and(|o| o.failed() || o.message.contains("Retrying attempt"))
                    && at_main(app.operation_revision())) =>
            {
                Some(Unmet::NotFailed {
                    app: name.to_string(),
                    main: short(main.as_deref()),
                    phase,
                    at: short(app.operation_revision()),
                })
            }
            _ => None,
        }
    }
}

fn not_in_cluster(object: &ObjectRef) -> Unmet {
    Unmet::NotInCluster {
        object: object.to_string(),
    }
}

/// When `kubectl scale` last wrote the object's replicas (its scale subresource entry).
pub fn scaled_at(obj: &Value) -> Option<Timestamp> {
    obj["metadata"]["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| {
            m["subresource"] == "scale" && m["fieldsV1"]["f:spec"]["f:replicas"].is_object()
        })
        .filter_map(|m| m["time"].as_str()?.parse().ok())
        .max()
}

/// When the field was last written (its newest managedFields entry), else when the object was
/// made.
fn written_at(obj: &Value, path: &FieldPath) -> Option<Timestamp> {
    writes_of(obj, path)
        .filter_map(|m| m["time"].as_str()?.parse().ok())
        .max()
        .or_else(|| {
            obj["metadata"]["creationTimestamp"]
                .as_str()
                .and_then(|t| t.parse().ok())
        })
}

fn git_value(
    f: &Facts<'_>,
    (repo, file): (&String, &String),
    path: &FieldPath,
    equals: &Value,
) -> Option<Unmet> {
    let Some(text) = f.git.files.get(&(repo.clone(), file.clone())) else {
        return Some(Unmet::NotPushed {
            repo: repo.clone(),
            path: file.clone(),
        });
    };
    let doc = serde_saphyr::from_str::<Value>(text).unwrap_or(Value::Null);
    let have = path.get(&doc).cloned().unwrap_or(Value::Null);
    if same(&have, equals) {
        return None;
    }
    let (repo, file, path) = (repo.clone(), file.clone(), path.to_string());
    Some(if equals.is_null() {
        Unmet::GitSetsUnwanted {
            repo,
            file,
            path,
            have: shown(&have),
        }
    } else if have.is_null() {
        Unmet::GitLacks {
            repo,
            file,
            path,
            want: shown(equals),
        }
    } else {
        Unmet::GitDiffers {
            repo,
            file,
            path,
            have: shown(&have),
            want: shown(equals),
        }
    })
}

/// Why a Deployment has not rolled out on `image`, if it has not.
fn rolled_out(object: &ObjectRef, d: &Value, image: &str) -> Option<Unmet> {
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
        return Some(Unmet::RunsOtherImage {
            object: object.to_string(),
            images: if images.is_empty() {
                "-".to_string()
            } else {
                images.join(", ")
            },
            image: image.to_string(),
        });
    }
    let observed = d["status"]["observedGeneration"] == d["metadata"]["generation"];
    (!(observed && ready == want && updated == want && total == want)).then(|| {
        Unmet::NotRolledOut {
            object: object.to_string(),
            image: image.to_string(),
            ready,
            want,
            updated,
            total,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn deployment() -> ObjectRef {
        ObjectRef::try_from("ns/Deployment/d".to_string()).unwrap()
    }

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
        let o = deployment();
        assert_eq!(
            rolled_out(&o, &d("nginx:1.28-alpine", 2), "nginx:1.28-alpine"),
            None
        );
        assert_eq!(
            rolled_out(&o, &d("nginx:1.28-alpine", 1), "nginx:1.28-alpine")
                .unwrap()
                .to_string(),
            "ns/Deployment/d: 1 of 2 Pods ready on nginx:1.28-alpine (2 updated, 2 in all): wait for the rollout"
        );
        assert_eq!(
            rolled_out(&o, &d("nginx:1.27-alpine", 2), "nginx:1.28-alpine")
                .unwrap()
                .to_string(),
            "ns/Deployment/d: its Pods run nginx:1.27-alpine, not nginx:1.28-alpine"
        );
    }

    #[test]
    fn a_step_that_needs_time_holds_only_once_the_time_has_passed() {
        let scaled = json!({"spec": {"replicas": 4}, "metadata": {"managedFields": [
            {"manager": "kubectl", "operation": "Update", "subresource": "scale",
             "time": "2026-03-01T10:00:00Z", "fieldsV1": {"f:spec": {"f:replicas": {}}}}]}});
        let cond: DoneWhen = serde_saphyr::from_str(
            "held-after-scale: {object: ns/Deployment/d, seconds: 40, condition: {object-field: {object: ns/Deployment/d, path: spec.replicas, equals: 4}}}",
        )
        .unwrap();
        let mut live = super::super::facts::LiveFacts::default();
        live.objects.insert("ns/Deployment/d".into(), scaled);
        assert_eq!(cond.unmet(&live.facts()), Some(Unmet::NoClock));
        live.now = "2026-03-01T10:00:17Z".parse().ok();
        assert_eq!(cond.unmet(&live.facts()), Some(Unmet::Holding { left: 23 }));
        assert_eq!(
            cond.unmet(&live.facts()).unwrap().to_string(),
            "holds; 23 s of the wait still to go"
        );
        live.now = "2026-03-01T10:00:41Z".parse().ok();
        assert!(cond.holds(&live.facts()));
        assert_eq!(
            cond.since(&live.facts()),
            "2026-03-01T10:00:40Z".parse().ok()
        );
        live.objects.get_mut("ns/Deployment/d").unwrap()["spec"]["replicas"] = json!(2);
        assert!(
            matches!(cond.unmet(&live.facts()), Some(Unmet::FieldIs { .. })),
            "put back: it no longer holds"
        );
    }
}
