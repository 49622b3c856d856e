//! Why a recorded value differs from what the cluster shows now, so the advice fits the cause:
//! the lesson's app still syncing (check again once it ends), the file written before the last
//! sync ended (read too early: write it again), or else a value the lesson's hint is about.

use jiff::Timestamp;

use super::super::context::Context;
use crate::cluster::clock::FastClock;
use crate::cluster::{self, Application};
use crate::lab::spec::EvidenceSpec;

/// The cause of a live field that differs.
#[derive(Debug, Clone, PartialEq)]
pub enum LiveDiffers {
    /// The lesson's app has an operation running: the cluster is still moving.
    Syncing { app: String },
    /// The file was written (on the cluster's clock) before the app's last operation ended.
    ReadTooEarly {
        app: String,
        written: Timestamp,
        ended: Timestamp,
    },
    /// Neither: the value itself is what the lesson's hint is about.
    Value,
}

/// Finds the cause from the app of the lesson that writes the file, the file's time and the
/// cluster's clock (under `--speed` it runs ahead of the file system's); any of them unknown,
/// the value itself is taken to be the cause.
pub async fn why_live_differs(spec: &EvidenceSpec, ctx: &Context<'_>) -> LiveDiffers {
    let Some(lesson) = ctx
        .catalog
        .lessons()
        .iter()
        .find(|l| l.evidence_file() == Some(spec.file.as_str()))
    else {
        return LiveDiffers::Value;
    };
    let name = lesson.spec.app.clone();
    let api = cluster::application::api(ctx.client.clone(), "argocd");
    let Some(app) = api
        .get_opt(&name)
        .await
        .ok()
        .flatten()
        .and_then(|o| serde_json::to_value(o).ok())
        .and_then(|v| Application::from_json(&v))
    else {
        return LiveDiffers::Value;
    };
    let op = app.status.operation_state.as_ref();
    if app.operation.is_some() || op.is_some_and(|o| o.phase == "Running") {
        return LiveDiffers::Syncing { app: name };
    }
    let ended = op
        .and_then(|o| o.finished_at.as_deref())
        .and_then(|t| t.parse::<Timestamp>().ok());
    let (Some(ended), Some(written), Ok(cluster_now)) = (
        ended,
        crate::lab::eval::facts::modified(&ctx.src_dir.join(&spec.file)),
        cluster::now(ctx.client).await,
    ) else {
        return LiveDiffers::Value;
    };
    let written = on_the_clusters_clock(written, ctx.clock, Timestamp::now(), cluster_now);
    // The Date header says whole seconds: a file written in the second the sync ended is not
    // called early.
    if written.as_second() < ended.as_second() {
        LiveDiffers::ReadTooEarly {
            app: name,
            written,
            ended,
        }
    } else {
        LiveDiffers::Value
    }
}

/// A time of the local clock said on the cluster's: by its `clock` when it runs fast and that
/// is known, else moved by how far the cluster's runs ahead now (exact at real speed).
fn on_the_clusters_clock(
    local: Timestamp,
    clock: Option<&FastClock>,
    local_now: Timestamp,
    cluster_now: Timestamp,
) -> Timestamp {
    if let Some(clock) = clock {
        return clock.at(local);
    }
    let ahead = cluster_now.duration_since(local_now);
    local.checked_add(ahead).unwrap_or(local)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_local_time_is_moved_by_how_far_the_clusters_clock_runs_ahead() {
        let t = |s: &str| s.parse::<Timestamp>().unwrap();
        assert_eq!(
            on_the_clusters_clock(
                t("2026-03-01T10:00:00Z"),
                None,
                t("2026-03-01T10:01:00Z"),
                t("2026-03-01T10:05:00Z")
            ),
            t("2026-03-01T10:04:00Z")
        );
        assert_eq!(
            on_the_clusters_clock(
                t("2026-03-01T10:00:00Z"),
                None,
                t("2026-03-01T10:01:00Z"),
                t("2026-03-01T10:01:00Z")
            ),
            t("2026-03-01T10:00:00Z")
        );
    }

    /// Under `--speed 5`, a file written a wall minute ago was written five cluster minutes
    /// ago: said by the offset alone it would look written after a sync that ended in between,
    /// and a value read too early would be blamed on the value.
    #[test]
    fn at_speed_a_local_time_is_said_on_the_clusters_clock_at_its_pace() {
        let t = |s: &str| s.parse::<Timestamp>().unwrap();
        let clock = FastClock {
            speed: 5.0,
            cluster_at: t("2026-03-01T12:00:00Z"),
            wall_at: t("2026-03-01T10:01:00Z"),
            runs: Vec::new(),
        };
        assert_eq!(
            on_the_clusters_clock(
                t("2026-03-01T10:00:00Z"),
                Some(&clock),
                t("2026-03-01T10:01:00Z"),
                t("2026-03-01T12:00:00Z")
            ),
            t("2026-03-01T11:55:00Z")
        );
    }
}
