//! Riding out a cluster that does not answer in the middle of a plan. A step that failed only
//! because the cluster gave no answer waits for it — saying so, and cancellable — and then runs
//! again from its start: every step reads before it writes and skips what is done, and the git
//! steps never touch the cluster, so nothing happens twice. A cluster that stays away past the
//! deadline fails the step with what to do.

use std::time::Duration;

use tokio::time::Instant;

use super::Runner;
use super::StepError;
use crate::cluster::problem::Problem;
use crate::cluster::{self, ClusterError};
use crate::i18n::Words;
use crate::lab::eval::context::EvidenceError;

/// How often a cluster that does not answer is asked again.
const PROBE_INTERVAL: Duration = Duration::from_secs(1);

/// Why, when a step failed only because the cluster did not answer.
pub fn unreachable(e: &StepError) -> Option<Problem> {
    let cluster = match e {
        StepError::Cluster(c) | StepError::Evidence(EvidenceError::Cluster(c)) => c,
        _ => return None,
    };
    match cluster {
        ClusterError::Unreachable(problem) => Some(problem.clone()),
        _ => None,
    }
}

/// What a step says while the cluster is away.
pub fn waiting_line(why: &Problem) -> Words {
    crate::words!("plan-waiting-cluster", why = why.clone())
}

/// What to do when the cluster stayed away until the deadline.
pub fn gave_up(why: &Problem, waited: Duration) -> StepError {
    StepError::ClusterAway {
        seconds: waited.as_secs(),
        why: why.clone(),
    }
}

/// Waits until the cluster answers again, saying what it waits for; fails at `deadline`.
pub async fn until_answers(
    r: &Runner,
    why: Problem,
    since: Instant,
    deadline: Instant,
    blocker: &(dyn Fn(Words) + Sync),
) -> Result<(), StepError> {
    let mut why = why;
    let mut said: Option<Problem> = None;
    loop {
        // Said when it changes, not each time the cluster is asked again.
        if said.as_ref() != Some(&why) {
            blocker(waiting_line(&why));
            said = Some(why.clone());
        }
        if Instant::now() >= deadline {
            return Err(gave_up(&why, since.elapsed()));
        }
        tokio::time::sleep(PROBE_INTERVAL.min(deadline - Instant::now())).await;
        match cluster::now(&r.client).await {
            Ok(_) => return Ok(()),
            Err(ClusterError::Unreachable(problem)) => why = problem,
            // It answered, even if not as hoped: the step finds out for itself.
            Err(_) => return Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Lang, Say};
    use crate::lab::paths::LabPaths;
    use std::sync::Mutex;

    #[tokio::test]
    async fn a_cluster_that_stays_away_fails_the_step_at_the_deadline_with_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        let kc = dir.path().join("kubeconfig");
        // Port 1 on loopback: nothing listens, every connection is refused.
        std::fs::write(
            &kc,
            "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: 'https://127.0.0.1:1', insecure-skip-tls-verify: true}\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\nusers:\n- name: u\n  user: {token: t}\n",
        )
        .unwrap();
        let followed = cluster::follow::connect(&kc, None).await.unwrap();
        let paths = LabPaths {
            src_dir: dir.path().join("src"),
            bare_dir: dir.path().join("bare"),
        };
        let r = Runner {
            client: followed.client.clone(),
            catalog: std::sync::Arc::new(crate::lab::catalog::Catalog::embedded().unwrap()),
            commit_lang: crate::i18n::Lang::FALLBACK,
            fit: crate::lab::fit::Fit::for_paths(&paths),
            paths,
            kubeconfig: Some(kc),
            context: None,
            deadline: Duration::from_secs(2),
            clock: None,
        };
        let err = cluster::now(&r.client).await.unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot reach https://127.0.0.1:1: connection refused. Is the cluster running, and is this the right kubeconfig/context?"
        );
        let lines = Mutex::new(Vec::new());
        let blocker = |l: Words| lines.lock().unwrap().push(l.say(Lang::FALLBACK));
        let since = Instant::now();
        let first = Problem::Other("first words".into());
        let gave_up = until_answers(&r, first, since, since + r.deadline, &blocker)
            .await
            .unwrap_err()
            .to_string();
        assert!(
            gave_up.starts_with("the cluster did not answer for 2 s (cannot reach https://127.0.0.1:1: connection refused). Start it again"),
            "{gave_up}"
        );
        let lines = lines.into_inner().unwrap();
        assert_eq!(
            lines.first().map(String::as_str),
            Some(
                "waiting: the cluster does not answer (first words); the step carries on when it is back"
            )
        );
        assert_eq!(
            lines.get(1).map(String::as_str),
            Some(
                "waiting: the cluster does not answer (cannot reach https://127.0.0.1:1: connection refused); the step carries on when it is back"
            ),
            "then why, once: {lines:?}"
        );
        assert_eq!(lines.len(), 2, "{lines:?}");
    }
}
