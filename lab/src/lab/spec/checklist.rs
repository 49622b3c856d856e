//! A lesson's checklist as `lesson.yaml` states it: each step and the observable condition that
//! shows it done. Only the types and what they name; `lab::eval` judges them.

use serde::Deserialize;
use serde_json::Value;

use super::{FieldPath, Localized, ObjectKey};

/// One step of a lesson's checklist.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChecklistItem {
    pub step: Localized,
    pub done_when: DoneWhen,
    /// A step that happens and passes (a failure seen once, a file pushed and later changed):
    /// the self-check does not ask for it to hold still; the evidence proves it instead.
    #[serde(default)]
    pub moment: bool,
    /// The lesson hint (1-based) that helps when the self-check finds it undone.
    #[serde(default)]
    pub hint: Option<usize>,
}

/// What shows a step is done.
#[derive(Debug, Clone, PartialEq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum DoneWhen {
    /// The bare repo `<bare-dir>/<name>.git` exists.
    BareRepo(String),
    /// The working copy `<src-dir>/repo` is a clone of that bare repo.
    Cloned(String),
    /// `main` of the bare repo has a file at `path` (containing `contains`, when given).
    Pushed {
        repo: String,
        path: String,
        #[serde(default)]
        contains: Option<String>,
    },
    /// `main` of the bare repo no longer has a file at `path`: a commit removed it.
    Removed { repo: String, path: String },
    /// The Application exists and its spec holds `has` (every key and value given).
    AppSpec { app: String, has: Value },
    /// Synced and Healthy, no operation running, at the revision `main` is at now.
    Synced { app: String },
    /// As `Synced`, and the last operation Succeeded on that revision.
    Succeeded { app: String },
    /// The operation on `main`'s revision has failed (or is retrying after a failure).
    OperationFailed { app: String },
    /// The latest managedFields entry owning `path` of the object is `manager`'s.
    FieldOwner {
        object: ObjectKey,
        path: FieldPath,
        manager: String,
    },
    /// A live object's field has this value.
    ObjectField {
        object: ObjectKey,
        path: FieldPath,
        equals: Value,
    },
    /// `main` of the bare repo has the YAML `file` with `path` equal to `equals` (`null`: the
    /// file does not set it).
    GitValue {
        repo: String,
        file: String,
        path: FieldPath,
        equals: Value,
    },
    /// The Deployment has rolled out: as many ready, updated replicas as it asks for, and
    /// every container of its Pod template on `image`.
    RolledOut { object: ObjectKey, image: String },
    /// Every one of these conditions holds.
    All(Vec<DoneWhen>),
    /// `condition` holds, and `seconds` of cluster time have passed since `kubectl scale` last
    /// wrote the object's replicas: a step whose point is that time passes (selfHeal leaves a
    /// hand-scaled Deployment alone). Until then the tutor counts down.
    HeldAfterScale {
        object: ObjectKey,
        #[schemars(schema_with = "super::schema::number_or_let")]
        seconds: u64,
        condition: Box<DoneWhen>,
    },
    /// The evidence file exists.
    EvidenceExists(String),
    /// The evidence file passes its self-check.
    EvidencePasses(String),
}

impl DoneWhen {
    /// The bare repo and the file at `main` this condition reads, if any.
    pub fn git_needs(&self) -> Vec<(&str, Option<&str>)> {
        match self {
            DoneWhen::BareRepo(r) | DoneWhen::Cloned(r) => vec![(r, None)],
            DoneWhen::Pushed { repo, path, .. } | DoneWhen::Removed { repo, path } => {
                vec![(repo, Some(path))]
            }
            DoneWhen::GitValue { repo, file, .. } => vec![(repo, Some(file))],
            DoneWhen::All(all) => all.iter().flat_map(DoneWhen::git_needs).collect(),
            DoneWhen::HeldAfterScale { condition, .. } => condition.git_needs(),
            _ => Vec::new(),
        }
    }

    /// The files of a bare repo's `main` this condition wants removed: (repo, path).
    pub fn removals(&self) -> Vec<(&str, &str)> {
        match self {
            DoneWhen::Removed { repo, path } => vec![(repo, path)],
            DoneWhen::All(all) => all.iter().flat_map(DoneWhen::removals).collect(),
            DoneWhen::HeldAfterScale { condition, .. } => condition.removals(),
            _ => Vec::new(),
        }
    }

    /// The evidence files this condition reads.
    pub fn evidence_files(&self) -> Vec<&str> {
        match self {
            DoneWhen::EvidenceExists(f) | DoneWhen::EvidencePasses(f) => vec![f],
            DoneWhen::All(all) => all.iter().flat_map(DoneWhen::evidence_files).collect(),
            DoneWhen::HeldAfterScale { condition, .. } => condition.evidence_files(),
            _ => Vec::new(),
        }
    }

    /// The Applications this condition reads.
    pub fn apps(&self) -> Vec<&str> {
        match self {
            DoneWhen::AppSpec { app, .. }
            | DoneWhen::Synced { app }
            | DoneWhen::Succeeded { app }
            | DoneWhen::OperationFailed { app } => vec![app],
            DoneWhen::All(all) => all.iter().flat_map(DoneWhen::apps).collect(),
            DoneWhen::HeldAfterScale { condition, .. } => condition.apps(),
            _ => Vec::new(),
        }
    }

    /// The Deployments whose last scale the condition dates (`held-after-scale`): their scale
    /// Events are read with them.
    pub fn scaled_objects(&self) -> Vec<&ObjectKey> {
        match self {
            DoneWhen::HeldAfterScale { object, .. } => vec![object],
            DoneWhen::All(all) => all.iter().flat_map(DoneWhen::scaled_objects).collect(),
            _ => Vec::new(),
        }
    }

    /// The live objects this condition reads.
    pub fn objects(&self) -> Vec<&ObjectKey> {
        match self {
            DoneWhen::FieldOwner { object, .. }
            | DoneWhen::ObjectField { object, .. }
            | DoneWhen::RolledOut { object, .. } => vec![object],
            DoneWhen::All(all) => all.iter().flat_map(DoneWhen::objects).collect(),
            DoneWhen::HeldAfterScale {
                object, condition, ..
            } => {
                let mut all = vec![object];
                all.extend(condition.objects());
                all
            }
            _ => Vec::new(),
        }
    }
}

/// What must hold before a lesson's plan runs, and the lesson that makes it so.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Requirement {
    pub lesson: super::LessonId,
    pub done_when: DoneWhen,
}
