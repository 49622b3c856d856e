//! A hard refresh that ends once Argo CD has read the app again. Its controller writes the new
//! comparison and then removes the refresh annotation (`persistReconciliationStatus` in
//! `controller/appcontroller.go`), so the annotation gone means the app on screen is the app
//! as refreshed: narration that says what the refresh shows ("the banner says the new commit
//! waits") is true when the next action is shown, on a busy machine too.

use super::StepResult;
use crate::cluster::argocd;
use crate::i18n::Words;
use crate::lab::engine::app_watch::{next_app, watch_app};
use crate::lab::engine::{Runner, StepError, reach};
use crate::words;

/// The annotation that asks for a refresh, and that the controller removes once it has one.
const REFRESH: &str = "argocd.argoproj.io/refresh";

pub async fn hard_refresh(r: &Runner, name: &str, blocker: &(dyn Fn(Words) + Sync)) -> StepResult {
    argocd::refresh(r.client.clone(), argocd::NAMESPACE, name, true).await?;
    let deadline = tokio::time::Instant::now() + r.deadline;
    // Watched after the annotation is written: the first list holds it, or, when the controller
    // was quicker, already does not.
    let mut changes = watch_app(r, name);
    let waiting = words!("plan-waiting-refresh", app = name);
    blocker(waiting.clone());
    let mut away: Option<crate::cluster::problem::Problem> = None;
    loop {
        match tokio::time::timeout_at(deadline, next_app(&mut changes, name)).await {
            Err(_) => {
                return Err(match &away {
                    Some(why) => reach::gave_up(why, r.deadline),
                    None => StepError::GaveUp {
                        seconds: r.deadline.as_secs(),
                        last: Some(waiting),
                    },
                });
            }
            Ok(Ok(None)) => return Err(StepError::WatchEnded),
            Ok(Err(problem)) => {
                if problem.unreachable() {
                    blocker(reach::waiting_line(&problem));
                }
                away = problem.unreachable().then_some(problem);
            }
            Ok(Ok(Some(None))) => {
                away = None;
                blocker(words!("plan-waiting-no-app", app = name));
            }
            Ok(Ok(Some(Some(app)))) => {
                away = None;
                if app["metadata"]["annotations"][REFRESH].is_null() {
                    return Ok(words!("did-hard-refresh", app = name));
                }
            }
        }
    }
}
