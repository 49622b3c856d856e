//! The loop every controller runs: turn store events into keys to reconcile, de-duplicate them,
//! reconcile one at a time, and honour "look again after N cluster seconds" requests. A key
//! waits on one timer at most, the earliest asked for (client-go's delaying queue), so extra
//! passes never multiply a controller's schedule.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, mpsc};
use tokio::task::JoinHandle;

use super::Env;
use crate::store::{Event, Key};

/// What a reconcile asks for next.
pub enum Next {
    Done,
    /// Reconcile this key again after this much cluster time.
    After(Duration),
}

pub trait Controller: Send + 'static {
    /// Keys to reconcile because of this change (often the object itself, or its owner).
    fn keys_for(&self, env: &Env, event: &Event) -> Vec<Key>;
    /// Every key this controller looks after (a resync after missed events).
    fn all_keys(&self, env: &Env) -> Vec<Key>;
    fn reconcile(&mut self, env: &Env, key: &Key) -> Next;
    /// Keys this change asks to reconcile later rather than now (a rate-limited queue's
    /// `AddRateLimited`), with the cluster time to wait.
    fn later_for(&self, _env: &Env, _event: &Event) -> Vec<(Key, Duration)> {
        Vec::new()
    }
}

/// The keys waiting on a timer, each with when it is due; a later request for a key already
/// due sooner is dropped, an earlier one replaces it.
struct Timers {
    due: HashMap<Key, tokio::time::Instant>,
    tx: mpsc::UnboundedSender<(Key, tokio::time::Instant)>,
}

impl Timers {
    fn after(&mut self, env: &Env, key: Key, wait: Duration) {
        let at = tokio::time::Instant::now() + env.store.clock.real(wait);
        if self.due.get(&key).is_some_and(|due| *due <= at) {
            return;
        }
        self.due.insert(key.clone(), at);
        let tx = self.tx.clone();
        tokio::spawn(async move {
            tokio::time::sleep_until(at).await;
            let _ = tx.send((key, at));
        });
    }

    /// A timer fired: the key is due if this was its current timer.
    fn fired(&mut self, key: Key, at: tokio::time::Instant) -> Option<Key> {
        if self.due.get(&key) == Some(&at) {
            self.due.remove(&key);
            Some(key)
        } else {
            None
        }
    }
}

pub fn run(env: Env, mut controller: impl Controller) -> JoinHandle<()> {
    let mut events = env.store.subscribe();
    tokio::spawn(async move {
        let (later_tx, mut later_rx) = mpsc::unbounded_channel();
        let mut timers = Timers {
            due: HashMap::new(),
            tx: later_tx,
        };
        let mut pending: BTreeSet<Key> = controller.all_keys(&env).into_iter().collect();
        loop {
            // Drain everything already queued before working, so bursts coalesce.
            while let Some(key) = pending.pop_first() {
                if let Next::After(wait) = controller.reconcile(&env, &key) {
                    timers.after(&env, key, wait);
                }
                while let Ok((key, at)) = later_rx.try_recv() {
                    pending.extend(timers.fired(key, at));
                }
                drain_events(&env, &controller, &mut events, &mut pending, &mut timers);
            }
            tokio::select! {
                event = events.recv() => match event {
                    Ok(event) => take_event(&env, &controller, &event, &mut pending, &mut timers),
                    Err(broadcast::error::RecvError::Lagged(_)) => pending.extend(controller.all_keys(&env)),
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                Some((key, at)) = later_rx.recv() => pending.extend(timers.fired(key, at)),
            }
        }
    })
}

fn take_event(
    env: &Env,
    controller: &impl Controller,
    event: &Event,
    pending: &mut BTreeSet<Key>,
    timers: &mut Timers,
) {
    pending.extend(controller.keys_for(env, event));
    for (key, wait) in controller.later_for(env, event) {
        timers.after(env, key, wait);
    }
}

fn drain_events(
    env: &Env,
    controller: &impl Controller,
    events: &mut broadcast::Receiver<Arc<Event>>,
    pending: &mut BTreeSet<Key>,
    timers: &mut Timers,
) {
    loop {
        match events.try_recv() {
            Ok(event) => take_event(env, controller, &event, pending, timers),
            Err(broadcast::error::TryRecvError::Lagged(_)) => {
                pending.extend(controller.all_keys(env))
            }
            Err(_) => return,
        }
    }
}
