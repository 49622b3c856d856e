//! The plan's steps one kind at a time, as a controller's reconcile is tested (kube-rs'
//! controller fixtures): on the embedded cluster and a Git of its own, each kind does its work,
//! does nothing when the work is already done, says what it waits on while it waits, and fails
//! with a typed error whose source is what failed below. Cancelling at every step of every
//! lesson, and running again after it, is `lesson_faults`.

use std::error::Error as _;
use std::sync::Mutex;
use std::time::Duration;

use capa_tui::i18n::{Lang, Say, Words};
use capa_tui::lab::engine::{self, Runner, StepError};
use capa_tui::lab::spec::{Localized, Step, Until};

use super::lesson_faults::runner_on;
use crate::common::Lab;

/// What the step said it waited on, and how it ended.
struct Ran {
    waited_on: Vec<Words>,
    ended: Result<Words, StepError>,
}

impl Ran {
    /// The message id of what it did (its summary), failing the test with its error.
    fn did(&self) -> &'static str {
        match &self.ended {
            Ok(words) => words.id().unwrap_or("(text)"),
            Err(e) => panic!("the step failed: {}", e.say(Lang::FALLBACK)),
        }
    }

    fn failed(self) -> StepError {
        match self.ended {
            Ok(words) => panic!("the step did {}", words.say(Lang::FALLBACK)),
            Err(e) => e,
        }
    }

    fn waited_for(&self, id: &str) -> bool {
        self.waited_on.iter().any(|w| w.id() == Some(id))
    }
}

async fn run(runner: &Runner, step: &Step) -> Ran {
    let seen = Mutex::new(Vec::new());
    let blocker = |w: Words| seen.lock().unwrap().push(w);
    let ended = runner.run_one(step, &blocker).await;
    Ran {
        waited_on: seen.into_inner().unwrap(),
        ended,
    }
}

/// The steps of the lab's `n`th lesson (from 1): the lessons' own data, not ours.
fn plan_of(runner: &Runner, n: usize) -> Vec<Step> {
    engine::plan(&runner.catalog.lessons()[n - 1]).unwrap()
}

/// The first step of lesson 1's plan that `pick` chooses.
fn lesson_one_step(runner: &Runner, pick: impl Fn(&Step) -> bool) -> Step {
    plan_of(runner, 1)
        .into_iter()
        .find(|s| pick(s))
        .expect("lesson 1's plan has the step")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_kind_of_step_does_skips_waits_and_fails_in_its_own_way() {
    let lab = Lab::start().await;
    let (runner, paths, _) = runner_on(&lab).await;
    let repo = "src".to_string();

    // create-bare-repo: made, then there; a file where the bare dir should be is said.
    let bare = Step::CreateBareRepo { repo: repo.clone() };
    assert_eq!(run(&runner, &bare).await.did(), "did-create-bare");
    assert_eq!(run(&runner, &bare).await.did(), "did-bare-there");
    let mut blocked = runner.clone();
    let not_a_dir = lab.dir.path().join("a-file");
    std::fs::write(&not_a_dir, "").unwrap();
    blocked.paths.bare_dir = not_a_dir;
    assert!(matches!(
        run(&blocked, &bare).await.failed(),
        StepError::BareDir { .. }
    ));

    // clone: cloned, then already that clone; a bare repo that is not there is named.
    let clone = Step::Clone { repo: repo.clone() };
    assert_eq!(run(&runner, &clone).await.did(), "did-clone");
    assert_eq!(run(&runner, &clone).await.did(), "did-clone-there");
    let mut elsewhere = runner.clone();
    elsewhere.paths.src_dir = lab.dir.path().join("another-src");
    let missing = Step::Clone {
        repo: "no-such-repo".into(),
    };
    assert!(matches!(
        run(&elsewhere, &missing).await.failed(),
        StepError::NoBareRepo { .. }
    ));

    // write-templates: written, then there; a template no lesson has is named.
    let write = lesson_one_step(&runner, |s| matches!(s, Step::WriteTemplates { .. }));
    assert_eq!(run(&runner, &write).await.did(), "did-write-files");
    assert_eq!(run(&runner, &write).await.did(), "did-files-there");
    let no_template = Step::WriteTemplates {
        template: "no-such-template".into(),
    };
    assert!(matches!(
        run(&runner, &no_template).await.failed(),
        StepError::NoTemplate(_)
    ));

    // commit-push: committed and pushed, then nothing to commit; with no working copy the
    // error's source is Git's own.
    let push = Step::CommitPush {
        message: Localized::from_fn(|_| "step kinds".into()),
    };
    assert_eq!(run(&runner, &push).await.did(), "did-commit-push");
    assert_eq!(run(&runner, &push).await.did(), "did-nothing-to-commit");
    let failed = run(&elsewhere, &push).await.failed();
    assert!(
        matches!(failed, StepError::Git(_))
            && failed
                .source()
                .and_then(|s| s.source())
                .is_some_and(|git| git.is::<git2::Error>()),
        "{failed:?}"
    );

    // remove-files: a file Git holds as it is goes, then there is nothing to remove; a file
    // changed and not committed is the learner's and stops the step, kept as it was.
    let chart = paths.repo().join("charts/web/Chart.yaml");
    let values = paths.repo().join("charts/web/values.yaml");
    let (chart_was, values_was) = (
        std::fs::read_to_string(&chart).unwrap(),
        std::fs::read_to_string(&values).unwrap(),
    );
    let remove = |p: &str| Step::RemoveFiles {
        paths: vec![p.into()],
    };
    assert_eq!(
        run(&runner, &remove("charts/web/Chart.yaml")).await.did(),
        "did-remove-files"
    );
    assert!(!chart.exists());
    assert_eq!(
        run(&runner, &remove("charts/web/Chart.yaml")).await.did(),
        "did-remove-none"
    );
    let mine = format!("{values_was}# mine\n");
    std::fs::write(&values, &mine).unwrap();
    let failed = run(&runner, &remove("charts/web/values.yaml"))
        .await
        .failed();
    assert!(
        matches!(&failed, StepError::WouldLoseChanges { path } if *path == values),
        "{failed:?}"
    );
    assert_eq!(std::fs::read_to_string(&values).unwrap(), mine);
    let outside = run(&runner, &remove("../app-src-helm.yaml")).await.failed();
    assert!(matches!(outside, StepError::WouldLoseChanges { .. }));
    assert!(paths.src_dir.join("app-src-helm.yaml").exists());
    // The working copy back as lesson 1 left it, for the steps below.
    std::fs::write(&chart, chart_was).unwrap();
    std::fs::write(&values, values_was).unwrap();

    // apply-app: applied; a missing file and a file that is not YAML keep their causes typed.
    let apply = lesson_one_step(&runner, |s| matches!(s, Step::ApplyApp { .. }));
    assert_eq!(run(&runner, &apply).await.did(), "did-apply");
    let missing_file = Step::ApplyApp {
        file: "no-such-app.yaml".into(),
    };
    let failed = run(&runner, &missing_file).await.failed();
    assert!(
        matches!(&failed, StepError::CannotRead { source, .. } if source.kind() == std::io::ErrorKind::NotFound),
        "{failed:?}"
    );
    std::fs::write(paths.src_dir.join("not-yaml.yaml"), "a: [unclosed").unwrap();
    let not_yaml = Step::ApplyApp {
        file: "not-yaml.yaml".into(),
    };
    let failed = run(&runner, &not_yaml).await.failed();
    assert!(
        matches!(failed, StepError::NotYaml { .. })
            && failed
                .source()
                .is_some_and(|s| s.is::<Box<serde_saphyr::Error>>()),
        "{failed:?}"
    );

    // wait: says what it waits on until the app is synced and healthy; waiting again finds it
    // so at once; an app that never comes gives up with what it last saw.
    let wait = lesson_one_step(&runner, |s| {
        matches!(
            s,
            Step::Wait {
                until: Until::SyncedHealthy,
                ..
            }
        )
    });
    let waited = run(&runner, &wait).await;
    waited.did();
    assert!(
        !waited.waited_on.is_empty(),
        "a wait right after the app is applied says what it waits on"
    );
    let again = run(&runner, &wait).await;
    again.did();
    let mut impatient = runner.clone();
    impatient.deadline = Duration::from_secs(3);
    let never = Step::Wait {
        app: "no-such-app".into(),
        until: Until::SyncedHealthy,
    };
    let gave_up = run(&impatient, &never).await;
    assert!(
        gave_up.waited_for("plan-waiting-no-app"),
        "{:?}",
        gave_up.waited_on
    );
    let failed = gave_up.failed();
    assert!(
        matches!(failed, StepError::GaveUp { seconds: 3, .. }),
        "{failed:?}"
    );

    // hard-refresh: the annotation is taken and answered.
    let Step::Wait { app, .. } = &wait else {
        unreachable!()
    };
    let refresh = Step::HardRefresh { app: app.clone() };
    assert_eq!(run(&runner, &refresh).await.did(), "did-hard-refresh");

    // end-blocking-operation: nothing blocks a synced app, so there is nothing to end.
    let end = Step::EndBlockingOperation { app: app.clone() };
    let ended = run(&runner, &end).await;
    assert!(
        matches!(ended.did(), "did-nothing-blocks" | "did-already-targets"),
        "{}",
        ended.did()
    );

    // scale: kubectl's own words when the Deployment is not there.
    let scale = Step::Scale {
        namespace: "src-helm".into(),
        deployment: "no-such-deployment".into(),
        replicas: 2,
    };
    assert!(matches!(
        run(&runner, &scale).await.failed(),
        StepError::KubectlFailed(_)
    ));

    // evidence: lesson 2's steps up to its evidence, then the file written from the cluster and
    // passing its check; a file no lesson writes is refused as not the lab's.
    let two = plan_of(&runner, 2);
    let (before, evidence) = two.split_at(
        two.iter()
            .position(|s| matches!(s, Step::Evidence { .. }))
            .expect("lesson 2 writes evidence"),
    );
    for step in before {
        run(&runner, step).await.did();
    }
    let evidence = &evidence[0];
    run(&runner, evidence).await.did();
    let Step::Evidence { file, .. } = evidence else {
        unreachable!()
    };
    assert!(paths.evidence(file).is_file());
    let theirs = Step::Evidence {
        file: "not-a-lesson-file.json".into(),
        fields: Vec::new(),
    };
    assert!(matches!(
        run(&runner, &theirs).await.failed(),
        StepError::Evidence(_)
    ));
}
