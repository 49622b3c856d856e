//! The commands that work on a cluster itself rather than on a lab: `sim serve` (the embedded
//! cluster, served until interrupted, its journal repaired when asked) and `app` (Argo CD
//! Application operations on any cluster).

use super::{AppArgs, AppCommand, Global, ServeArgs, lab_commands};
use crate::i18n::Say;
use crate::t;
use crate::{errln, outln};

pub(super) async fn app(g: &Global, args: AppArgs) -> i32 {
    use crate::cluster;
    let lang = lab_commands::lang(g);
    // With --sim, the lab's embedded cluster (the one serving the state dir, else started here).
    let session = if g.sim {
        match lab_commands::session(g, lang).await {
            Ok(s) => Some(s),
            Err(code) => return code,
        }
    } else {
        None
    };
    let client = match &session {
        Some(s) => s.client.clone(),
        None => match cluster::connect(g.kubeconfig.as_deref(), g.context.as_deref()).await {
            Ok(c) => c,
            Err(e) => {
                errln!("capa-tui app: {}", e.say(lang));
                return 1;
            }
        },
    };
    let (result, done) = match &args.command {
        AppCommand::Refresh { name, hard } => (
            cluster::argocd::refresh(client, &args.namespace, name, *hard).await,
            if *hard {
                t!(lang, "app-refresh-hard", name = name.as_str())
            } else {
                t!(lang, "app-refresh", name = name.as_str())
            },
        ),
        AppCommand::TerminateOp { name } => (
            cluster::argocd::terminate_op(client, &args.namespace, name).await,
            t!(lang, "app-terminating", name = name.as_str()),
        ),
    };
    let code = match result {
        Ok(()) => {
            outln!("{done}");
            0
        }
        Err(e) => {
            errln!("capa-tui app: {}", e.say(lang));
            1
        }
    };
    if let Some(s) = session {
        s.close().await;
    }
    code
}

/// `--repair-journal`: the journal of `state` cut back to before its damage, under the state
/// dir's lock (never while another process serves it).
fn repair_journal(state: &std::path::Path, lang: crate::i18n::Lang) -> Result<(), i32> {
    use crate::session::serving::{Claim, claim};
    let owner = match claim(state) {
        Ok(Claim::Owner { owner, .. }) => owner,
        Ok(Claim::Taken) => {
            errln!(
                "capa-tui sim serve: {}",
                t!(lang, "repair-served", state = state.display().to_string())
            );
            return Err(1);
        }
        Err(e) => {
            errln!("capa-tui sim serve: {e}");
            return Err(1);
        }
    };
    let repaired = capa_sim::repair_journal(state);
    drop(owner);
    match repaired {
        Ok(None) => errln!("capa-tui sim serve: {}", t!(lang, "repair-nothing")),
        Ok(Some(r)) => errln!(
            "capa-tui sim serve: {}",
            t!(
                lang,
                "repair-done",
                line = r.damaged_line,
                kept = r.kept,
                aside = r.set_aside,
                copy = r.copy.display().to_string()
            )
        ),
        Err(e) => {
            errln!("capa-tui sim serve: {e}");
            return Err(1);
        }
    }
    Ok(())
}

/// Where `sim serve` logs, in its state dir.
pub const SERVE_LOG: &str = "serve.log";

/// `capa-tui sim serve`: serves the lab's embedded cluster (the same state dir as `--sim`)
/// until interrupted; the other `--sim` commands attach to it.
pub(super) async fn serve(g: &Global, args: ServeArgs) -> i32 {
    let lang = lab_commands::lang(g);
    let mut options = g.session_options();
    options.sim = true;
    if args.repair_journal
        && let Err(code) = repair_journal(&options.place().state, lang)
    {
        return code;
    }
    let serve = crate::session::Serve {
        listen: args.listen,
        kubeconfig_out: args.kubeconfig_out.as_deref(),
    };
    let session = match crate::session::Session::serve(options, serve).await {
        Ok(s) => s,
        Err(e) => {
            errln!("capa-tui sim serve: {}", e.say(lang));
            return 1;
        }
    };
    // Logged in the state dir once it is known to be ours: a failed journal append or a
    // refused request is written down somewhere (it once went nowhere: reliability-4 D1).
    let log = g.session_options().place().state.join(SERVE_LOG);
    crate::session::logfile::init(&log);
    tracing::info!("serving at {}", session.sim_url().unwrap_or_default());
    let kubeconfig = session
        .kubeconfig
        .as_deref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let bare = session.paths.bare_dir.display().to_string();
    outln!(
        "{}",
        t!(
            lang,
            "serve-serving",
            url = session.sim_url().unwrap_or_default()
        )
    );
    outln!(
        "{}",
        t!(lang, "serve-kubeconfig", path = kubeconfig.as_str())
    );
    outln!("{}", t!(lang, "serve-bare", bare = bare.as_str()));
    outln!(
        "{}",
        t!(
            lang,
            "serve-git",
            url = session.sim_git_url("src").unwrap_or_default(),
            host = capa_sim::GITD_HOST
        )
    );
    outln!(
        "{}",
        t!(lang, "serve-try", kubeconfig = kubeconfig.as_str())
    );
    outln!(
        "{}",
        t!(
            lang,
            "serve-state",
            state = g.session_options().place().state.display().to_string()
        )
    );
    outln!(
        "{}",
        t!(lang, "serve-log", path = log.display().to_string())
    );
    wait_for_stop_signal().await;
    outln!("{}", t!(lang, "serve-stopping"));
    session.close().await;
    0
}

pub(crate) async fn wait_for_stop_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).ok();
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = async { match term.as_mut() { Some(t) => { t.recv().await; } None => std::future::pending::<()>().await } } => {}
    }
}
