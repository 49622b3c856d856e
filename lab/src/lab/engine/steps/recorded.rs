//! Reading what a controller records a moment after the write it reports: the step waits for
//! the record (saying so) instead of failing on the first look.
//!
//! `kubectl scale` returns once the API server has the new replicas; the deployment
//! controller's `ScalingReplicaSet` Event, which dates the scale, comes after it — at once on
//! an idle cluster, seconds later on a busy one (the real lab's CI run on two cores read it
//! before it existed and failed lesson 7's hold).

use std::future::Future;
use std::time::Duration;

use crate::i18n::Words;
use crate::lab::eval::context::EvidenceError;

/// How long a step waits for a record that follows a write before it reports it missing.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// How often a step looks again for the record.
const LOOK_AGAIN: Duration = Duration::from_millis(500);

/// What `read` returns once the record it needs is there: while `read` says it is not there
/// yet, `waiting` goes to `blocker` and `read` runs again, for up to `patience`; then the
/// last answer stands. Any other error ends the wait at once.
pub async fn once_recorded<T, Fut>(
    mut read: impl FnMut() -> Fut,
    patience: Duration,
    waiting: &Words,
    blocker: &(dyn Fn(Words) + Sync),
) -> Result<T, EvidenceError>
where
    Fut: Future<Output = Result<T, EvidenceError>>,
{
    let started = tokio::time::Instant::now();
    loop {
        match read().await {
            Err(EvidenceError::NotYet { .. }) if started.elapsed() < patience => {
                blocker(waiting.clone());
                tokio::time::sleep(LOOK_AGAIN).await;
            }
            answer => return answer,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::eval::context::Missing;
    use crate::words;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicU32, Ordering};

    fn not_yet() -> EvidenceError {
        EvidenceError::NotYet {
            what: Missing::Scale {
                deployment: "prod-api".into(),
            },
            hint: None,
        }
    }

    #[tokio::test]
    async fn a_record_that_comes_late_is_waited_for_and_the_wait_is_said() {
        let looks = AtomicU32::new(0);
        let said = Mutex::new(Vec::new());
        let waiting = words!("plan-waiting-scale-record", deployment = "prod-api");
        let answer = once_recorded(
            || async {
                // The Event is there on the third look.
                if looks.fetch_add(1, Ordering::SeqCst) < 2 {
                    Err(not_yet())
                } else {
                    Ok(1_000)
                }
            },
            PATIENCE,
            &waiting,
            &|w| said.lock().unwrap().push(w),
        )
        .await;
        assert_eq!(answer.unwrap(), 1_000);
        assert_eq!(looks.load(Ordering::SeqCst), 3);
        assert_eq!(*said.lock().unwrap(), vec![waiting.clone(), waiting]);
    }

    #[tokio::test]
    async fn a_record_that_never_comes_is_reported_missing_after_the_patience() {
        let looks = AtomicU32::new(0);
        let started = tokio::time::Instant::now();
        let answer: Result<u32, _> = once_recorded(
            || async {
                looks.fetch_add(1, Ordering::SeqCst);
                Err(not_yet())
            },
            Duration::from_millis(1_200),
            &words!("plan-waiting-scale-record", deployment = "prod-api"),
            &|_| {},
        )
        .await;
        assert!(matches!(answer, Err(EvidenceError::NotYet { .. })));
        assert!(started.elapsed() >= Duration::from_millis(1_200));
        // Every half second while within the patience, then once more.
        assert!(looks.load(Ordering::SeqCst) >= 2, "{looks:?}");
    }

    #[tokio::test]
    async fn another_error_ends_the_wait_at_once() {
        let looks = AtomicU32::new(0);
        let answer: Result<u32, _> = once_recorded(
            || async {
                looks.fetch_add(1, Ordering::SeqCst);
                Err(EvidenceError::NotOurs("x.json".into()))
            },
            PATIENCE,
            &words!("plan-waiting-scale-record", deployment = "prod-api"),
            &|_| {},
        )
        .await;
        assert!(matches!(answer, Err(EvidenceError::NotOurs(_))));
        assert_eq!(looks.load(Ordering::SeqCst), 1);
    }
}
