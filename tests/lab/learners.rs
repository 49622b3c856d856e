//! Many learners, one cluster (`--learner`): three learners do the whole lab at once on one
//! embedded cluster, each with their own Applications, namespaces, bare repo and source dir,
//! and each one's self-check passes on their own lab alone.

use std::sync::Arc;
use std::time::Duration;

use capa_tui::cluster::Kind;
use capa_tui::i18n::{Lang, Say};
use capa_tui::lab::catalog::Catalog;
use capa_tui::lab::engine::{self, Runner};
use capa_tui::lab::eval::check;
use capa_tui::lab::eval::context::Context;
use capa_tui::lab::learner::Learner;
use capa_tui::lab::paths::LabPaths;
use kube::api::ListParams;
use tokio::sync::{mpsc, watch};

use crate::common::Lab;

/// `learner`'s lab on `lab`'s cluster: their own names and source dir, the shared bare dir.
pub(super) async fn learners_lab(lab: &Lab, learner: &str) -> Runner {
    let learner = Learner::parse(learner).unwrap();
    let paths = LabPaths {
        src_dir: lab.dir.path().join(learner.own("capa-src")),
        bare_dir: lab.handle.bare_dir().to_path_buf(),
    };
    let catalog = Arc::new(Catalog::load_for(None, None, Some(&learner)).unwrap());
    Runner {
        client: lab.client().await,
        paths: paths.clone(),
        kubeconfig: Some(lab.kubeconfig()),
        context: None,
        deadline: Duration::from_secs(180),
        fit: capa_tui::lab::fit::Fit::for_paths(&paths),
        catalog,
        commit_lang: Lang::FALLBACK,
        clock: None,
    }
}

/// Every lesson's plan, in order; the first that fails, said.
pub(super) async fn do_all(runner: &Runner) -> Result<(), String> {
    for lesson in runner.catalog.lessons() {
        let steps = engine::plan(lesson).unwrap();
        let (tx, _rx) = mpsc::unbounded_channel();
        runner
            .run(lesson.id(), &steps, tx, watch::channel(false).1)
            .await
            .map_err(|e| format!("lesson {}: {}", lesson.id(), e.say(Lang::FALLBACK)))?;
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_learners_do_the_whole_lab_at_once_on_one_cluster_and_each_passes() {
    let lab = Lab::start().await;
    let names = ["alice", "bob", "carol"];
    let mut runners = Vec::new();
    for name in names {
        runners.push(learners_lab(&lab, name).await);
    }
    let (a, b, c) = tokio::join!(
        do_all(&runners[0]),
        do_all(&runners[1]),
        do_all(&runners[2])
    );
    for (name, done) in names.iter().zip([a, b, c]) {
        assert_eq!(done, Ok(()), "{name}'s do all");
    }

    for (name, runner) in names.iter().zip(&runners) {
        let ctx = Context {
            client: &runner.client,
            catalog: &runner.catalog,
            src_dir: &runner.paths.src_dir,
            bare_dir: &runner.paths.bare_dir,
            clock: None,
        };
        for lesson in runner.catalog.lessons() {
            let grade = check::grade_lesson(lesson, &ctx).await;
            assert!(
                grade.passed(),
                "{name}'s lesson {}: {:?}",
                lesson.id(),
                grade.findings
            );
        }
        assert!(
            runner.paths.bare_repo(&format!("{name}-src")).is_dir(),
            "{name} has a bare repo of their own"
        );
    }

    // Each learner's Applications are theirs alone: named for them, deploying only into their
    // own namespaces, from their own repo.
    let apps = capa_tui::cluster::watch::api(&runners[0].client, "argocd", Kind::Application)
        .list(&ListParams::default())
        .await
        .unwrap();
    let mut names_seen: Vec<String> = apps
        .items
        .iter()
        .filter_map(|a| a.metadata.name.clone())
        .collect();
    names_seen.sort();
    let mut wanted: Vec<String> = names
        .iter()
        .flat_map(|n| ["src-helm", "src-kust", "src-waves"].map(|a| format!("{n}-{a}")))
        .collect();
    wanted.sort();
    assert_eq!(names_seen, wanted);
    for app in &apps.items {
        let owner = app.metadata.name.as_deref().unwrap_or_default();
        let learner = owner.split('-').next().unwrap_or_default();
        let spec = &app.data["spec"];
        assert!(
            spec["destination"]["namespace"]
                .as_str()
                .is_some_and(|ns| ns.starts_with(&format!("{learner}-"))),
            "{owner} deploys into {}",
            spec["destination"]["namespace"]
        );
        assert!(
            spec["source"]["repoURL"]
                .as_str()
                .is_some_and(|u| u.ends_with(&format!("/{learner}-src.git"))),
            "{owner} reads {}",
            spec["source"]["repoURL"]
        );
    }
}
