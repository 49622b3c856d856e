//! Judging a checklist condition on the facts: whether it holds, why not ([`Unmet`]), and since
//! when; and the readers of the cluster's objects and of Git it needs.

use crate::cluster::{Application, Kind};
use jiff::Timestamp;
use serde_json::Value;

use super::*;

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
            DoneWhen::Removed { repo, path } => {
                let key = (repo.clone(), path.clone());
                let removed = !f.git.files.contains_key(&key) && f.git.changed.contains_key(&key);
                (!removed).then(|| Unmet::NotRemoved {
                    repo: repo.clone(),
                    path: path.clone(),
                })
            }
            DoneWhen::AppSpec { app, has } => match f.apps.get(app) {
                None => Some(Unmet::NoApp { app: app.clone() }),
                Some(a) => not_held(&a.spec, has).map(|m| Unmet::AppSpecLacks {
                    app: app.clone(),
                    at: m.at,
                    want: serde_json::to_string(&m.want).unwrap_or_default(),
                    have: m
                        .have
                        .map(|h| serde_json::to_string(&h).unwrap_or_default()),
                }),
            },
            DoneWhen::Synced { app }
            | DoneWhen::Succeeded { app }
            | DoneWhen::OperationFailed { app } => self.app_unmet(f, app),
            DoneWhen::FieldOwner {
                object,
                path,
                manager,
            } => match f.objects.get(object) {
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
            } => match f.objects.get(object) {
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
            DoneWhen::RolledOut { object, image } => match f.objects.get(object) {
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
                let scaled = match scale_of(f, object) {
                    Scale::None => {
                        return Some(Unmet::NotScaled {
                            object: object.to_string(),
                        });
                    }
                    // Its Events have expired: the scale is over an hour old. Unless they are
                    // still on their way (a reopened tutor ticked "40 s later" at once).
                    Scale::Undated if f.events_read => return None,
                    Scale::Undated => return Some(Unmet::NotReadYet),
                    // Scaled just now: the whole time is still to hold.
                    Scale::Awaited => return Some(Unmet::Holding { left: *seconds }),
                    Scale::At(t) => t,
                };
                let Some(now) = f.now else {
                    return Some(Unmet::NoClock);
                };
                let left = crate::lab::eval::evidence::seconds_to_go(scaled, *seconds, now);
                (left > 0).then_some(Unmet::Holding { left })
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
        let object = |o: &ObjectKey| f.objects.get(o);
        match self {
            DoneWhen::BareRepo(repo) => f.git.made.get(repo).copied(),
            DoneWhen::Cloned(_) => f.git.cloned_at,
            DoneWhen::Pushed { repo, path, .. } => {
                f.git.changed.get(&(repo.clone(), path.clone())).copied()
            }
            DoneWhen::GitValue { repo, file, .. } => {
                f.git.changed.get(&(repo.clone(), file.clone())).copied()
            }
            DoneWhen::Removed { repo, path } => {
                f.git.changed.get(&(repo.clone(), path.clone())).copied()
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
            } => scale_of(f, o).at().and_then(|t| {
                t.checked_add(jiff::SignedDuration::from_secs(*seconds as i64))
                    .ok()
            }),
            DoneWhen::EvidenceExists(file) => f.evidence.get(file).and_then(|e| e.written),
            DoneWhen::EvidencePasses(file) => f.evidence.get(file).and_then(|e| e.passed),
        }
    }

    /// The Application conditions, judged against `main` of the repo it points at.
    fn app_unmet(&self, f: &Facts<'_>, name: &str) -> Option<Unmet> {
        let Some(facts) = f.apps.get(name) else {
            return Some(Unmet::NoApp {
                app: name.to_string(),
            });
        };
        let app = &facts.app;
        let automated = facts.spec["syncPolicy"]["automated"].is_object();
        let repo = app.source_repo_name().unwrap_or_default();
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
                    why: unsettled(app, automated, &at_main),
                    state,
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

/// Why an Application that is not settled at main is not, from its status: a render error
/// first (nothing else can happen until it is fixed), then an operation (retrying another
/// commit, or syncing main), then what Argo CD has compared.
fn unsettled(
    app: &Application,
    automated: bool,
    at_main: &impl Fn(Option<&str>) -> bool,
) -> Unsettled {
    let rendering = app
        .status
        .conditions
        .iter()
        .find(|c| c.kind == "ComparisonError" || c.kind == "InvalidSpecError");
    if let Some(c) = rendering {
        return Unsettled::CannotRender {
            message: gist(&c.message).to_string(),
        };
    }
    let op = app.status.operation_state.as_ref();
    let failure = sync_failure;
    if app.operation.is_some() || op.is_some_and(|o| o.phase == "Running") {
        let revision = app.running_revision().or(app.operation_revision());
        let retrying = op.filter(|o| {
            o.retry_count.is_some_and(|n| n > 0) || o.message.contains("Retrying attempt")
        });
        return if at_main(revision) {
            match retrying {
                Some(o) => Unsettled::SyncFails {
                    message: failure(o),
                    retrying: true,
                },
                None => Unsettled::Syncing,
            }
        } else {
            Unsettled::RetryingOther {
                at: short(revision),
                attempt: op.and_then(|o| o.retry_count).unwrap_or(0) + 1,
            }
        };
    }
    if !at_main(app.git_revision()) {
        Unsettled::NotCompared
    } else if let Some(o) = op.filter(|o| o.failed() && at_main(app.operation_revision())) {
        Unsettled::SyncFails {
            message: failure(o),
            retrying: false,
        }
    } else if app.status.sync.status != "Synced" {
        Unsettled::OutOfSync { automated }
    } else {
        Unsettled::NotHealthy
    }
}

/// Argo CD's words for a failed sync: the operation's message without the retry's own ("…
/// Retrying attempt #2 at 3:04PM."), then what each failed resource says that the message does
/// not ("one or more synchronization tasks are not valid" names no cause; its tasks do).
fn sync_failure(op: &crate::cluster::application::OperationState) -> String {
    let mut said = op
        .message
        .split(". Retrying attempt")
        .next()
        .unwrap_or_default()
        .trim_end_matches('.')
        .to_string();
    let failed = op
        .sync_result
        .iter()
        .flat_map(|r| &r.resources)
        .filter(|r| {
            r.status == "SyncFailed" || matches!(r.hook_phase.as_deref(), Some("Failed" | "Error"))
        });
    for r in failed {
        if !r.message.is_empty() && !said.contains(&r.message) {
            said.push_str(&format!("; {}/{}: {}", r.kind, r.name, r.message));
        }
    }
    said
}

/// The part of Argo CD's render error that names the cause: the tool's own `Error: …` at the end
/// of the chain of wrappers ("Failed to load target state: … rpc error: … failed running helm:
/// … Error: open …/values-prd.yaml: no such file or directory"), else the whole message.
fn gist(message: &str) -> &str {
    message
        .rsplit_once("Error: ")
        .map_or(message, |(_, cause)| cause)
        .trim()
}

fn not_in_cluster(object: &ObjectKey) -> Unmet {
    Unmet::NotInCluster {
        object: object.to_string(),
    }
}

/// What the facts say of a Deployment's last scale.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Scale {
    /// No write through `/scale` owns its replicas.
    None,
    /// Scaled, and the cluster no longer says when (its Events live an hour).
    Undated,
    /// Scaled just now, its Event not yet seen.
    Awaited,
    At(Timestamp),
}

impl Scale {
    fn at(self) -> Option<Timestamp> {
        match self {
            Scale::At(t) => Some(t),
            Scale::None | Scale::Undated | Scale::Awaited => None,
        }
    }
}

/// The last scale of `object` to the replicas it has now, dated by the scale Events among the
/// facts (`cluster::scaled`).
fn scale_of(f: &Facts<'_>, object: &ObjectKey) -> Scale {
    let Some(d) = f.objects.get(object) else {
        return Scale::None;
    };
    let scaled = d["metadata"]["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|m| m["subresource"] == "scale" && m["fieldsV1"]["f:spec"]["f:replicas"].is_object());
    if !scaled {
        return Scale::None;
    }
    let events = f
        .objects
        .range(ObjectKey::new(&object.namespace, Kind::Event, "")..)
        .take_while(|(k, _)| k.namespace == object.namespace && k.kind == Kind::Event)
        .map(|(_, e)| e);
    match crate::cluster::scaled::last_scale(d, events) {
        crate::cluster::scaled::LastScale::At(t) => Scale::At(t),
        crate::cluster::scaled::LastScale::Awaited => Scale::Awaited,
        crate::cluster::scaled::LastScale::Unknown => Scale::Undated,
    }
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

/// A YAML file's text as JSON, or where it does not parse. Parsed once per text: the checklists
/// are judged again on every change of the lab's facts, and a profile of a long replay found a
/// third of its time parsing the same few files again.
fn parsed(text: &str) -> Result<Value, String> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    /// The files a lab's checks read are a few dozen; past this the cache starts again.
    const MOST: usize = 256;
    thread_local! {
        static PARSED: RefCell<HashMap<String, Result<Value, String>>> = RefCell::new(HashMap::new());
    }
    PARSED.with(|cache| {
        if let Some(known) = cache.borrow().get(text) {
            return known.clone();
        }
        let doc = serde_saphyr::from_str::<Value>(text).map_err(|e| {
            e.location().map_or_else(
                || e.to_string(),
                |l| format!("line {}, column {}", l.line(), l.column()),
            )
        });
        let mut cache = cache.borrow_mut();
        if cache.len() >= MOST {
            cache.clear();
        }
        cache.insert(text.to_string(), doc.clone());
        doc
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
    // A file that does not parse sets nothing: say why it does not, not that a value is missing.
    let doc = match parsed(text) {
        Ok(doc) => doc,
        Err(why) => {
            return Some(Unmet::GitNotYaml {
                repo: repo.clone(),
                file: file.clone(),
                why,
            });
        }
    };
    let have = path.get(&doc).cloned().unwrap_or(Value::Null);
    let (repo, file, path) = (repo.clone(), file.clone(), path.to_string());
    // The lab writes text here; the same digits unquoted are a number, which Kubernetes refuses
    // where it wants a string: it is not done, however alike the two look.
    if equals.is_string() && (have.is_number() || have.is_boolean()) {
        return Some(Unmet::GitNotText {
            repo,
            file,
            path,
            have: shown(&have),
        });
    }
    if same(&have, equals) {
        return None;
    }
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
pub(super) fn rolled_out(object: &ObjectKey, d: &Value, image: &str) -> Option<Unmet> {
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
