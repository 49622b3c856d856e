//! Where messages come from besides the effects: the lab's watches, the terminal's input
//! thread, and the clock (a tick only while something on screen moves, and the moment a
//! regrade is due).

use std::sync::Arc;

use ratatui::crossterm::event::{self, Event, MouseEventKind};
use tokio::sync::mpsc;

use crate::cluster::watch::{self as lab_watch, lab_streams};
use crate::lab::catalog::Catalog;
use crate::session::Session;
use crate::tui::update::Msg;
use crate::tui::update::{InputMsg, LabMsg};

/// Starts the lab's watches (following the kubeconfig); what they see arrives as messages.
pub(super) fn start_watches(
    session: &Session,
    catalog: &Catalog,
    tx: mpsc::UnboundedSender<Msg>,
) -> Vec<tokio::task::JoinHandle<()>> {
    let (wtx, mut wrx) = mpsc::unbounded_channel();
    let scope = Arc::new(lab_watch::Scope {
        apps: catalog.apps().into_iter().map(String::from).collect(),
        named: catalog.named_objects(),
    });
    let watches = lab_watch::spawn(
        session.client.clone(),
        &lab_streams(&catalog.apps(), &catalog.namespaces()),
        &scope,
        Some(session.kubeconfig_changes()),
        wtx,
    );
    // Attached to an embedded cluster another process serves: when that process is replaced
    // (its kubeconfig rewritten), the header names the one serving now.
    if matches!(
        session.target,
        crate::session::Target::Embedded {
            served_by: Some(_),
            ..
        }
    ) {
        // And when it ends with nobody in its place, this tutor serves the lab itself.
        if let Some(adopt) = session.adopt_when_orphaned() {
            let tx = tx.clone();
            tokio::spawn(async move {
                if let Some(now) = adopt.await {
                    let _ = tx.send(Msg::Retargeted(now));
                }
            });
        }
        let mut changes = session.kubeconfig_changes();
        let (tx, mut target) = (tx.clone(), session.target.clone());
        tokio::spawn(async move {
            while changes.changed().await.is_ok() {
                if let Some(now) = target.as_served_now() {
                    target = now.clone();
                    if tx.send(Msg::Retargeted(now)).is_err() {
                        return;
                    }
                }
            }
        });
    }
    tokio::spawn(async move {
        while let Some(e) = wrx.recv().await {
            if tx.send(Msg::from(e)).is_err() {
                return;
            }
        }
    });
    watches
}

/// The next message; while something on screen moves with the clock, a tick once a second too
/// (and never otherwise: an idle tutor draws nothing); and when the self-checks on show are due
/// to run again, that moment.
pub(super) async fn next_message(
    rx: &mut mpsc::UnboundedReceiver<Msg>,
    clock: &mut tokio::time::Interval,
    clock_running: bool,
    regrade: Option<tokio::time::Instant>,
) -> Option<Msg> {
    let due = async {
        match regrade {
            Some(at) => tokio::time::sleep_until(at).await,
            None => std::future::pending::<()>().await,
        }
    };
    let tick = async {
        if clock_running {
            clock.tick().await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        msg = rx.recv() => msg,
        () = tick => Some(Msg::Tick(jiff::Timestamp::now())),
        () = due => Some(Msg::Lab(LabMsg::RegradeDue)),
    }
}

/// Reads the terminal's keys, clicks, wheel and resizes on a thread of its own, as messages.
pub(super) fn spawn_input_thread(tx: mpsc::UnboundedSender<Msg>) {
    std::thread::spawn(move || {
        loop {
            let msg = match event::read() {
                Ok(Event::Key(k)) => Msg::Input(InputMsg::Key(k)),
                Ok(Event::Mouse(m)) => match m.kind {
                    MouseEventKind::Down(_) => Msg::Input(InputMsg::Click {
                        column: m.column,
                        row: m.row,
                    }),
                    MouseEventKind::ScrollUp | MouseEventKind::ScrollDown => {
                        Msg::Input(InputMsg::Wheel {
                            column: m.column,
                            row: m.row,
                            up: m.kind == MouseEventKind::ScrollUp,
                        })
                    }
                    _ => continue,
                },
                Ok(Event::Resize(w, h)) => Msg::Input(InputMsg::Resize(w, h)),
                Ok(_) => continue,
                Err(_) => return,
            };
            if tx.send(msg).is_err() {
                return;
            }
        }
    });
}
