//! A lesson's "do it for me" plan: typed steps, the `actions:` list of its `lesson.yaml` (data,
//! not code), each able to say the command it stands for.

use serde::Deserialize;

use super::Localized;
use crate::i18n::{Lang, Say, Words};
use crate::lab::fit::Fit;
use crate::{t, words};

/// When a wait is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Until {
    /// Synced and Healthy, no operation running.
    SyncedHealthy,
    /// Synced, Healthy, and the last operation Succeeded on the current revision.
    Succeeded,
    /// The operation on the current revision has failed (and may be retrying).
    OperationFailed,
}

#[derive(Debug, Clone, PartialEq, Deserialize, schemars::JsonSchema)]
#[serde(tag = "do", rename_all = "kebab-case")]
pub enum Step {
    /// `git init --bare` under the bare dir (skipped when it exists).
    CreateBareRepo {
        repo: String,
    },
    /// Clone the bare repo into `<src-dir>/repo` (skipped when it is already that clone).
    Clone {
        repo: String,
    },
    /// Write `repo-template/<template>/`: `repo/**` into the working copy, `app-*.yaml` into the
    /// source dir.
    WriteTemplates {
        template: String,
    },
    /// Commit everything and push (no commit when nothing changed); the commit message is
    /// written in the learner's language.
    CommitPush {
        message: Localized,
    },
    /// Server-side apply of `<src-dir>/<file>` (field manager `capa-tui`).
    ApplyApp {
        file: String,
    },
    /// The refresh annotation, `hard`.
    HardRefresh {
        app: String,
    },
    Wait {
        app: String,
        until: Until,
    },
    /// The step-6 trap: end an operation still retrying a revision that is not the target.
    EndBlockingOperation {
        app: String,
    },
    /// End the app's running (failing, retrying) operation and wait until it reads Failed.
    EndOperation {
        app: String,
    },
    /// End the app's running operation and write the evidence file as of that moment: the
    /// Application as it read Failed, the other objects as they were while it still ran (a
    /// newer commit waiting behind it syncs right after, and must not leak into the record).
    EndOperationAndRecord {
        app: String,
        file: String,
    },
    /// `kubectl scale` (the real kubectl when on PATH).
    Scale {
        namespace: String,
        deployment: String,
        #[schemars(schema_with = "super::schema::number_or_let")]
        replicas: i32,
    },
    /// Let this many seconds of cluster time pass since the last `kubectl scale` of it.
    HoldAfterScale {
        namespace: String,
        deployment: String,
        #[schemars(schema_with = "super::schema::number_or_let")]
        seconds: u64,
    },
    /// Read the evidence from the cluster and write it. With `fields`, only those are read now
    /// and written beside what the file already holds: evidence recorded at two moments (an
    /// object's uid while it lives, the commit that removed it later).
    Evidence {
        #[serde(deserialize_with = "super::evidence_file")]
        file: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        fields: Vec<String>,
    },
    /// Remove files from the working copy (paths relative to it), for the next `commit-push`.
    RemoveFiles {
        paths: Vec<String>,
    },
}

impl Step {
    /// The Application the step acts on or waits for, if any.
    pub fn app(&self) -> Option<&str> {
        match self {
            Step::HardRefresh { app }
            | Step::Wait { app, .. }
            | Step::EndBlockingOperation { app }
            | Step::EndOperation { app }
            | Step::EndOperationAndRecord { app, .. } => Some(app),
            _ => None,
        }
    }

    /// What the step does, in a few words, said where it is drawn.
    pub fn title(&self) -> Words {
        match self {
            Step::CreateBareRepo { repo } => words!("step-create-bare-repo", repo = repo),
            Step::Clone { repo } => words!("step-clone", repo = repo),
            Step::WriteTemplates { template } => {
                words!("step-write-templates", template = template)
            }
            Step::CommitPush { message } => {
                words!("step-commit-push", message = message.clone())
            }
            Step::ApplyApp { file } => words!("step-apply-app", file = file),
            Step::HardRefresh { app } => words!("step-hard-refresh", app = app),
            Step::Wait { app, until } => match until {
                Until::SyncedHealthy => words!("step-wait-synced-healthy", app = app),
                Until::Succeeded => words!("step-wait-succeeded", app = app),
                Until::OperationFailed => words!("step-wait-operation-failed", app = app),
            },
            Step::EndBlockingOperation { app } => {
                words!("step-end-blocking-operation", app = app)
            }
            Step::EndOperation { app } => words!("step-end-operation", app = app),
            Step::EndOperationAndRecord { app, file } => {
                words!("step-end-operation-and-record", app = app, file = file)
            }
            Step::Scale {
                deployment,
                replicas,
                ..
            } => words!("step-scale", deployment = deployment, replicas = replicas),
            Step::HoldAfterScale {
                deployment,
                seconds,
                ..
            } => words!(
                "step-hold-after-scale",
                deployment = deployment,
                seconds = seconds
            ),
            Step::Evidence { file, fields } if fields.is_empty() => {
                words!("step-evidence", file = file)
            }
            Step::Evidence { file, fields } => words!(
                "step-evidence-fields",
                file = file,
                fields = fields.join(", ")
            ),
            Step::RemoveFiles { paths } => words!("step-remove-files", paths = paths.join(" ")),
        }
    }

    /// Whether a cancel may stop the step midway. Git and file steps are short and run on a
    /// blocking thread that cannot be stopped: they finish, and the cancel takes effect after.
    pub fn interruptible(&self) -> bool {
        matches!(
            self,
            Step::Wait { .. }
                | Step::EndBlockingOperation { .. }
                | Step::EndOperation { .. }
                | Step::EndOperationAndRecord { .. }
                | Step::HoldAfterScale { .. }
        )
    }

    /// The command a learner would type for this step where they are (`fit`), its comments and
    /// commit message said in the language it is shown in.
    pub fn command<'a>(&'a self, fit: &'a Fit) -> Command<'a> {
        Command { step: self, fit }
    }
}

/// A step as the command a learner would type where they are.
pub struct Command<'a> {
    step: &'a Step,
    fit: &'a Fit,
}

impl Say for Command<'_> {
    fn say(&self, lang: Lang) -> String {
        let fit = self.fit;
        let src = &fit.src_dir;
        let bare = &fit.bare_dir;
        let repo_dir = format!("{src}/repo");
        match self.step {
            Step::CreateBareRepo { repo } => format!("git init --bare -b main {bare}/{repo}.git"),
            Step::Clone { repo } => format!("git clone {bare}/{repo}.git {repo_dir}"),
            Step::WriteTemplates { template } => format!(
                "# {}",
                t!(
                    lang,
                    "command-write-templates",
                    template = template.as_str(),
                    repo = repo_dir.as_str(),
                    src = src.as_str()
                )
            ),
            Step::CommitPush { message } => format!(
                "git -C {repo_dir} add -A && git -C {repo_dir} commit -m {:?} && git -C {repo_dir} push origin main",
                message.get(lang)
            ),
            Step::ApplyApp { file } => {
                format!("kubectl apply --server-side --field-manager=capa-tui -f {src}/{file}")
            }
            Step::HardRefresh { app } => format!(
                "kubectl -n argocd annotate app {app} argocd.argoproj.io/refresh=hard --overwrite"
            ),
            Step::Wait { app, until } => match until {
                Until::OperationFailed => format!(
                    "kubectl -n argocd get app {app} -o jsonpath='{{.status.operationState.message}}' -w"
                ),
                _ => format!(
                    "kubectl -n argocd wait app/{app} --for=jsonpath='{{.status.health.status}}'=Healthy --timeout=5m"
                ),
            },
            Step::EndBlockingOperation { app }
            | Step::EndOperation { app }
            | Step::EndOperationAndRecord { app, .. } => fit.terminate_op(app),
            Step::Scale {
                namespace,
                deployment,
                replicas,
            } => format!("kubectl -n {namespace} scale deploy/{deployment} --replicas={replicas}"),
            Step::HoldAfterScale { seconds, .. } => format!("sleep {seconds}"),
            Step::Evidence { file, fields } if fields.is_empty() => format!(
                "# {}",
                t!(lang, "command-evidence", path = format!("{src}/{file}"))
            ),
            Step::Evidence { file, fields } => format!(
                "# {}",
                t!(
                    lang,
                    "command-evidence-fields",
                    path = format!("{src}/{file}"),
                    fields = fields.join(", ")
                )
            ),
            Step::RemoveFiles { paths } => {
                format!("git -C {repo_dir} rm -r -q -- {}", paths.join(" "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_read_from_yaml() {
        let yaml = "- {do: create-bare-repo, repo: src}\n- {do: wait, app: src-helm, until: synced-healthy}\n- {do: scale, namespace: src-kust, deployment: prod-api, replicas: 4}\n";
        let actions: Vec<Step> = serde_saphyr::from_str(yaml).unwrap();
        assert_eq!(actions[0], Step::CreateBareRepo { repo: "src".into() });
        assert_eq!(
            actions[1],
            Step::Wait {
                app: "src-helm".into(),
                until: Until::SyncedHealthy
            }
        );
        let paths = Fit::lab_vm();
        assert_eq!(
            actions[2].command(&paths).say(Lang::FALLBACK),
            "kubectl -n src-kust scale deploy/prod-api --replicas=4"
        );
        assert_eq!(
            actions[0].command(&paths).say(Lang::FALLBACK),
            "git init --bare -b main /srv/bare/src.git"
        );
    }
}
