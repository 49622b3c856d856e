//! Refreshing an app (docs/sim-behaviour.md §10.1, §16.3): whether a wake-up calls for a
//! refresh and how thorough (`needRefreshAppStatus`), then resolve, render and compare
//! (`CompareAppState`) and write what was found. A repo error on a refresh that does not force
//! resolution is kept back for the grace period, as upstream keeps it.

use std::time::Duration;

use jiff::Timestamp;
use serde_json::{Value, json};

use super::{Controller, JITTER_SECS, Level, RESYNC};
use crate::argocd::app::AppView;
use crate::argocd::compare::{self, Comparison};
use crate::argocd::ctrllog;
use crate::argocd::diff;

/// `--repo-error-grace-period-seconds`: how long a repo error stays hidden from the status
/// when refreshes do not force resolution.
const REPO_ERROR_GRACE: Duration = Duration::from_secs(180);

/// What a refresh compared, for automated sync to decide from.
pub(super) struct Compared {
    pub comparison: Comparison,
    /// The commit compared.
    pub sha: String,
    /// `revisionsMayHaveChanges`; see [`may_have_changes`].
    pub may_have_changes: bool,
    /// The automated sync was decided on this comparison already, before its status was
    /// written (the app had no operation).
    pub auto_synced: bool,
}

/// `evaluateRevisionChanges` without `manifest-generate-paths`: a comparison at `Recent` asks
/// for the revision already shown (`status.sync.revision`), so nothing can have changed; any
/// other asks for `targetRevision`, which may name a new commit, unless it is that very SHA.
fn may_have_changes(app: &Value, level: Level) -> bool {
    let view = AppView::new(app);
    let shown = app["status"]["sync"]["revision"]
        .as_str()
        .unwrap_or_default();
    let asked = match level {
        Level::Nothing | Level::Recent if !shown.is_empty() => shown,
        _ => view.target_revision(),
    };
    asked.is_empty() || asked != shown
}

/// How thoroughly one refresh goes.
#[derive(Debug, Clone)]
pub(super) struct Refresh {
    pub level: Level,
    /// `argocd.argoproj.io/refresh: hard`: render again, bypassing the manifest cache.
    pub hard: bool,
}

impl Level {
    /// The CompareWith number the controller logs.
    fn number(self) -> u8 {
        match self {
            Level::Nothing => 0,
            Level::Recent => 1,
            Level::Latest => 2,
            Level::ForceResolve => 3,
        }
    }
}

impl Controller {
    /// `needRefreshAppStatus`: the refresh this wake-up calls for, if any. The refresh
    /// annotation and a source that differs from the one last compared force resolution; the
    /// periodic refresh, a changed destination or ignoreDifferences refresh at `Latest`; else
    /// what was asked (a resource event's `Recent`), or nothing.
    pub(super) fn refresh_wanted(
        &mut self,
        app: &Value,
        requested: Level,
        now: Timestamp,
    ) -> Option<Refresh> {
        let view = AppView::new(app);
        let name = view.name().to_string();
        let compared = &app["status"]["sync"]["comparedTo"];
        let mem = self.apps.entry(name.clone()).or_default();
        let mut periodic = None;
        if mem.next_periodic.is_none_or(|t| now >= t) {
            let period = RESYNC + Duration::from_secs(rand::random::<u64>() % JITTER_SECS);
            mem.next_periodic = Some(now + period);
            periodic = Some(period);
        }
        let never_resolved = mem.revision.is_none();
        self.arm_periodic(&name, periodic);
        let reconciled = app["status"]["reconciledAt"].as_str().unwrap_or("never");
        let (level, hard, reason) = if let Some(kind) = view.refresh_requested() {
            (
                Level::ForceResolve,
                kind == "hard",
                format!("{kind} refresh requested"),
            )
        } else if compared["source"] != *view.source() {
            (
                Level::ForceResolve,
                false,
                "spec.source differs".to_string(),
            )
        } else if periodic.is_some() || never_resolved {
            let reason = format!(
                "comparison expired, requesting refresh. reconciledAt: {reconciled}, expiry: 2m0s"
            );
            (Level::Latest.max(requested), false, reason)
        } else if compared["destination"] != *view.destination() {
            (
                Level::Latest.max(requested),
                false,
                "spec.destination differs".into(),
            )
        } else if !same_ignore_differences(
            &compared["ignoreDifferences"],
            view.ignore_differences(),
        ) {
            (
                Level::Latest.max(requested),
                false,
                "spec.ignoreDifferences differs".into(),
            )
        } else if requested > Level::Nothing {
            (requested, false, "controller refresh requested".into())
        } else {
            return None;
        };
        ctrllog::info(
            &self.env,
            app,
            &format!(
                "Refreshing app status ({reason}), level ({})",
                level.number()
            ),
        );
        Some(Refresh { level, hard })
    }

    /// Resolves, renders and compares, then writes the status. What was compared comes back
    /// when automated sync may decide from it (no error, nothing held back).
    pub(super) async fn refresh(
        &mut self,
        app: &Value,
        refresh: Refresh,
        now: Timestamp,
    ) -> Option<Compared> {
        let view = AppView::new(app);
        let name = view.name().to_string();
        let level = refresh.level;
        let mut error = None;
        let started = std::time::Instant::now();
        ctrllog::info(
            &self.env,
            app,
            &format!(
                "Comparing app state (cluster: {}, namespace: {})",
                crate::argocd::project::IN_CLUSTER_SERVER,
                view.dest_namespace()
            ),
        );
        if level >= Level::Latest {
            let fresh = level == Level::ForceResolve;
            match self
                .resolve(view.repo_url(), view.target_revision(), fresh)
                .await
            {
                Ok(sha) => self.apps.entry(name.clone()).or_default().revision = Some(sha),
                Err(e) => error = Some(e),
            }
        }
        let revision = self.apps.get(&name).and_then(|m| m.revision.clone());
        let mut manifests = None;
        if let (Some(sha), None) = (&revision, &error) {
            match self.render(app, view.source(), sha, refresh.hard).await {
                Ok(m) => manifests = Some(m),
                Err(e) => error = Some(e),
            }
        }
        if self.hold_back_repo_error(&name, error.is_some(), level, now) {
            return None;
        }
        // A target state that could not be loaded is compared as empty, best effort, as
        // upstream does: the tracked live objects are still listed and health still computed.
        let rules = diff::ignore_rules(view.ignore_differences());
        let app_options = view.sync_options();
        let scope = compare::Scope {
            app: &name,
            dest_namespace: view.dest_namespace(),
            options: &app_options,
            namespace_metadata_changed: view.namespace_metadata_changed(),
        };
        let comparison = compare::compare(
            &self.env.store,
            &scope,
            manifests.as_ref().map(|m| m.objects.as_slice()),
            &rules,
        );
        self.apps.entry(name.clone()).or_default().source_type =
            manifests.as_ref().map(|m| m.source_type.as_str());
        // On a failure the revision shown is the one asked for, unresolved (`revisions[0]`;
        // no manifest revision replaces it); a resource event keeps the last one shown.
        let shown_revision = match (&error, level) {
            (None, _) => revision.clone(),
            (Some(_), Level::Nothing | Level::Recent) => {
                app["status"]["sync"]["revision"].as_str().map(String::from)
            }
            (Some(_), _) => Some(view.target_revision().to_string()),
        };
        let auto_synced = self.auto_sync_first(
            app,
            &comparison,
            (error.is_none(), revision.as_deref()),
            level,
            now,
        );
        self.write_comparison(
            app,
            shown_revision.as_deref(),
            &comparison,
            error.as_deref(),
            level,
        );
        log_completed(&self.env, app, level, started);
        match (error, revision) {
            (None, Some(sha)) => Some(Compared {
                may_have_changes: may_have_changes(app, level),
                comparison,
                sha,
                auto_synced,
            }),
            _ => None,
        }
    }

    /// As upstream's refresh does: the automated sync is decided, and its operation written,
    /// before the status that shows this comparison. A crash between the two then never leaves
    /// a new revision shown with no sync started; restarted, the next comparison would find
    /// that revision "without changes" and only heal the drift (lesson 6's broken commit
    /// synced without its PreSync hook when a plan and its cluster were stopped just after the
    /// hard refresh). Whether it was decided here (the app had no operation, the comparison
    /// loaded).
    fn auto_sync_first(
        &mut self,
        app: &Value,
        comparison: &Comparison,
        (loaded, revision): (bool, Option<&str>),
        level: Level,
        now: Timestamp,
    ) -> bool {
        match revision {
            Some(sha) if loaded && app["operation"].is_null() => {
                self.auto_sync(app, comparison, sha, may_have_changes(app, level), now);
                true
            }
            _ => false,
        }
    }

    /// `ErrCompareStateRepo`: a repo error met by a refresh that did not force resolution is
    /// not written the first time, nor again within the grace period; forced, it always is.
    fn hold_back_repo_error(
        &mut self,
        name: &str,
        failed: bool,
        level: Level,
        now: Timestamp,
    ) -> bool {
        let mem = self.apps.entry(name.to_string()).or_default();
        if !failed {
            mem.repo_error_since = None;
            return false;
        }
        if level == Level::ForceResolve {
            return false;
        }
        match mem.repo_error_since {
            None => {
                mem.repo_error_since = Some(now);
                true
            }
            Some(since) => now.duration_since(since).unsigned_abs() <= REPO_ERROR_GRACE,
        }
    }
}

impl Controller {
    /// The periodic refresh (120 s + jitter), armed once per period: it wakes the app, and
    /// [`Controller::refresh_wanted`] finds the period over.
    fn arm_periodic(&self, name: &str, periodic: Option<Duration>) {
        if let Some(period) = periodic {
            let (tx, name, real) = (
                self.wake.clone(),
                name.to_string(),
                self.env.store.clock.real(period),
            );
            tokio::spawn(async move {
                tokio::time::sleep(real).await;
                let _ = tx.send((name, Level::Nothing));
            });
        }
    }
}

/// The controller's "Reconciliation completed" line for `app`, with how long it took.
fn log_completed(
    env: &crate::controllers::Env,
    app: &Value,
    level: Level,
    started: std::time::Instant,
) {
    let view = AppView::new(app);
    ctrllog::write(
        env,
        Some(app),
        ctrllog::Level::Info,
        "Reconciliation completed",
        &[
            ("comparison-level", json!(level.number())),
            (
                "dest-name",
                json!(view.destination()["name"].as_str().unwrap_or("")),
            ),
            ("dest-namespace", json!(view.dest_namespace())),
            (
                "dest-server",
                json!(view.destination()["server"].as_str().unwrap_or("")),
            ),
            ("time_ms", json!(started.elapsed().as_millis() as u64)),
        ],
    );
}

/// `IgnoreDifferences.Equals`: none and an empty list are the same.
fn same_ignore_differences(compared: &Value, spec: &Value) -> bool {
    let empty = |v: &Value| v.is_null() || v.as_array().is_some_and(Vec::is_empty);
    (empty(compared) && empty(spec)) || compared == spec
}
