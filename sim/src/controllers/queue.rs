//! The loop every controller runs: turn store events into keys to reconcile, de-duplicate them,
//! reconcile one at a time, and honour "look again after N cluster seconds" requests.

use std::collections::BTreeSet;
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
}

pub fn run(env: Env, mut controller: impl Controller) -> JoinHandle<()> {
    let mut events = env.store.subscribe();
    tokio::spawn(async move {
        let (later_tx, mut later_rx) = mpsc::unbounded_channel::<Key>();
        let mut pending: BTreeSet<Key> = controller.all_keys(&env).into_iter().collect();
        loop {
            // Drain everything already queued before working, so bursts coalesce.
            while let Some(key) = pending.pop_first() {
                if let Next::After(wait) = controller.reconcile(&env, &key) {
                    let tx = later_tx.clone();
                    let real = env.store.clock.real(wait);
                    tokio::spawn(async move {
                        tokio::time::sleep(real).await;
                        let _ = tx.send(key);
                    });
                }
                while let Ok(key) = later_rx.try_recv() {
                    pending.insert(key);
                }
                drain_events(&env, &controller, &mut events, &mut pending);
            }
            tokio::select! {
                event = events.recv() => match event {
                    Ok(event) => pending.extend(controller.keys_for(&env, &event)),
                    Err(broadcast::error::RecvError::Lagged(_)) => pending.extend(controller.all_keys(&env)),
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                Some(key) = later_rx.recv() => { pending.insert(key); }
            }
        }
    })
}

fn drain_events(
    env: &Env,
    controller: &impl Controller,
    events: &mut broadcast::Receiver<Arc<Event>>,
    pending: &mut BTreeSet<Key>,
) {
    loop {
        match events.try_recv() {
            Ok(event) => pending.extend(controller.keys_for(env, &event)),
            Err(broadcast::error::TryRecvError::Lagged(_)) => {
                pending.extend(controller.all_keys(env))
            }
            Err(_) => return,
        }
    }
}
