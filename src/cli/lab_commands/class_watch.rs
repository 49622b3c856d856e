//! `capa-tui class report --watch`: the room's table kept live on the shared cluster, for the
//! projector. Every learner whose lab is there (an Application named `<learner>-<the lab's>`, or
//! a source dir of theirs beside the lab's) is collected and graded as `class collect` and
//! `class report` do, again whenever an Application or a learner's folder changes.

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use futures::StreamExt;
use kube::runtime::watcher;

use super::{Global, lang};
use crate::cluster::{Kind, argocd};
use crate::i18n::Lang;
use crate::lab::catalog::Catalog;
use crate::lab::class::{self, LabRow};
use crate::lab::learner::Learner;
use crate::{errln, out, t};

/// How long the room must be quiet after a change before it is graded again (a sync changes
/// an Application many times in a second).
const QUIET: Duration = Duration::from_secs(1);

/// Keeps the room's table on screen until Ctrl-C; `csv` and `html` are written anew each time.
pub async fn watch(g: &Global, csv: Option<&Path>, html: Option<&Path>) -> i32 {
    let lang = lang(g);
    // The lab's own names, whose learner's copies are looked for.
    let lab = match Catalog::load(g.lessons.as_deref(), g.templates.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            errln!("capa-tui: {e}");
            return 1;
        }
    };
    let s = match super::answering_session(g, lang).await {
        Ok(s) => s,
        Err(code) => return code,
    };
    let shared = paths_of(g, None);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<()>();
    let apps = crate::cluster::watch::api(&s.client, argocd::NAMESPACE, Kind::Application);
    let app_changes = tx.clone();
    let apps_watch = tokio::spawn(async move {
        let mut events = std::pin::pin!(watcher(apps, watcher::Config::default()));
        while events.next().await.is_some() {
            if app_changes.send(()).is_err() {
                return;
            }
        }
    });
    // The bare repos and each learner's source dir, never the folder around them: an embedded
    // cluster's state dir is written on every write to the cluster (its journal), and the
    // table would be graded again all the time.
    let mut watched: (Vec<PathBuf>, Option<crate::lab::fswatch::FolderWatch>) = (Vec::new(), None);
    // Each learner's lab, read once: a change regrades the room, it does not reload the lessons.
    let mut labs: BTreeMap<String, Catalog> = BTreeMap::new();
    let code = loop {
        let learners = learners(&s.client, &lab, &shared.src_dir).await;
        let folders: Vec<PathBuf> = std::iter::once(shared.bare_dir.clone())
            .chain(learners.iter().map(|l| paths_of(g, Some(l)).src_dir))
            // Only folders that are there: a learner known by their Application alone may work
            // on another machine, and a folder made here in their name would be the watcher's.
            .filter(|d| d.is_dir())
            .collect();
        if folders != watched.0 {
            let tx = tx.clone();
            let watch = crate::lab::fswatch::watch(&folders, move || {
                let _ = tx.send(());
            })
            .map_err(|e| tracing::warn!("{e}; the table follows the Applications only"))
            .ok();
            watched = (folders, watch);
        }
        let rows = match graded(g, &s.client, &learners, &mut labs).await {
            Ok(rows) => rows,
            Err(why) => {
                errln!("capa-tui: {why}");
                break 1;
            }
        };
        draw(&rows, lang);
        if let Err(code) = super::class::write_tables(&rows, lang, csv, html) {
            break code;
        }
        tokio::select! {
            changed = rx.recv() => if changed.is_none() { break 0 },
            _ = tokio::signal::ctrl_c() => break 0,
        }
        tokio::time::sleep(QUIET).await;
        while rx.try_recv().is_ok() {}
    };
    apps_watch.abort();
    s.close().await;
    code
}

/// The learners with a lab on the cluster or a source dir beside the lab's, by name.
async fn learners(client: &kube::Client, lab: &Catalog, src: &Path) -> Vec<Learner> {
    let mut names = BTreeSet::new();
    let apps = crate::cluster::watch::api(client, argocd::NAMESPACE, Kind::Application);
    if let Ok(list) = apps.list(&Default::default()).await {
        for app in list.items {
            let name = app.metadata.name.unwrap_or_default();
            for own in lab.apps() {
                if let Some(learner) = name.strip_suffix(&format!("-{own}")) {
                    names.insert(learner.to_string());
                }
            }
        }
    }
    // `/root/capa-src-alice` beside `/root/capa-src`; `alice-capa-src` in a sim's state dir.
    let base = src
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let beside = src.parent().and_then(|p| std::fs::read_dir(p).ok());
    for entry in beside.into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let learner = name
            .strip_prefix(&format!("{base}-"))
            .or_else(|| name.strip_suffix(&format!("-{base}")));
        if let Some(learner) = learner.filter(|_| entry.path().is_dir()) {
            names.insert(learner.to_string());
        }
    }
    names
        .iter()
        .filter_map(|n| Learner::parse(n).ok())
        .collect()
}

/// Each learner's lab collected into a folder of its own and graded from it: the verdicts
/// `class report` gives for a lab collected now.
async fn graded(
    g: &Global,
    client: &kube::Client,
    learners: &[Learner],
    labs: &mut BTreeMap<String, Catalog>,
) -> Result<Vec<LabRow>, String> {
    let kept = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for learner in learners {
        let catalog = match labs.entry(learner.name().to_string()) {
            Entry::Occupied(known) => known.into_mut(),
            Entry::Vacant(new) => new.insert(
                Catalog::load_for(g.lessons.as_deref(), g.templates.as_deref(), Some(learner))
                    .map_err(|e| e.to_string())?,
            ),
        };
        let dir = kept.path().join(learner.name());
        let paths = paths_of(g, Some(learner));
        class::collect(client, catalog, &paths, Some(learner.name()), &dir)
            .await
            .map_err(|e| e.to_string())?;
        rows.push(
            class::report(&dir, catalog)
                .await
                .map_err(|e| e.to_string())?,
        );
    }
    Ok(rows)
}

/// Where `learner`'s lab lives with the usual options (`None`: the lab's own, unnamed).
fn paths_of(g: &Global, learner: Option<&Learner>) -> crate::lab::paths::LabPaths {
    let mut options = g.session_options();
    options.learner = learner;
    options.lab_paths()
}

/// The table from the top of the screen, with when it was graded.
fn draw(rows: &[LabRow], lang: Lang) {
    let now = jiff::Zoned::now().strftime("%H:%M:%S").to_string();
    let mut text = String::from("\x1b[2J\x1b[H");
    text.push_str(&t!(
        lang,
        "class-watch-heading",
        learners = rows.len(),
        at = now
    ));
    text.push('\n');
    text.push_str(&super::class::table(rows, lang));
    out!("{text}");
}
