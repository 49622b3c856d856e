//! The headless lab commands: `do`, `check`, `status`, `doctor`, `shell`, `env`. They print what
//! the `lab` engine and checks report, in the learner's language; the work itself lives in `lab`
//! and `session`. What they share is here: the catalog, the language, the session, which
//! lessons a key names.

mod checks;
pub mod class;
pub mod class_watch;
mod doctor;
mod plans;
mod shells;
mod status;

pub use checks::check;
pub use doctor::doctor;
pub use plans::do_lessons;
pub use shells::{env, shell};
pub use status::status;

use std::sync::Arc;

use super::Global;
use crate::errln;
use crate::i18n::{Lang, Say};
use crate::lab::catalog::{Catalog, Lesson};
use crate::lab::setup;
use crate::session::Session;
use crate::t;

/// The language the command speaks: the settings' (flags, environment, config file, locale).
pub fn lang(g: &Global) -> Lang {
    g.settings().map_or_else(
        |_| Lang::from_locale(&|k| std::env::var(k).ok()),
        |s| s.lang.value,
    )
}

/// The lessons and templates to use, or the exit code after saying why they do not load. What
/// the lab kept is said on stderr, so a command never grades another lab than the learner
/// thinks it does.
pub fn catalog(g: &Global, lang: Lang) -> Result<Arc<Catalog>, i32> {
    let (catalog, chosen) = chosen_catalog(g, lang)?;
    if chosen.from_the_lab {
        errln!("capa-tui: {}", chosen.kept_in().say(lang));
    }
    Ok(catalog)
}

/// The lessons and templates to use (the flags', else those the lab was set up with, else
/// the built-in ones) and how they were chosen, for the caller to say; or the exit code after
/// saying why not.
pub fn chosen_catalog(g: &Global, lang: Lang) -> Result<(Arc<Catalog>, setup::Chosen), i32> {
    let src = g.session_options().lab_paths().src_dir;
    let file = setup::file(&src);
    let said = |e: setup::SetupError| {
        errln!("capa-tui: {}", e.say(lang));
        1
    };
    // A fresh lab keeps nothing of the one moved aside.
    let kept = if g.fresh {
        setup::LabSetup::default()
    } else {
        setup::kept(&src).map_err(said)?
    };
    let chosen = setup::choose(
        &kept,
        &file,
        g.lessons.as_deref(),
        g.templates.as_deref(),
        learner(g),
    )
    .map_err(said)?;
    let catalog = Catalog::load_for(
        chosen.setup.lessons.as_deref(),
        chosen.setup.templates.as_deref(),
        chosen
            .setup
            .learner
            .as_deref()
            .and_then(|n| crate::lab::learner::Learner::parse(n).ok())
            .as_ref(),
    )
    .map_err(|e| {
        errln!("capa-tui: {e}");
        1
    })?;
    Ok((Arc::new(catalog), chosen))
}

/// Keeps the lessons and templates this command was given with the lab `s` opened, once the
/// session has started (after `--fresh` moved the old lab aside), and says so.
pub fn keep_setup(g: &Global, s: &Session, lang: Lang) {
    let src = &s.paths.src_dir;
    let file = setup::file(src);
    let Ok(kept) = setup::kept(src) else {
        return;
    };
    let Ok(chosen) = setup::choose(
        &kept,
        &file,
        g.lessons.as_deref(),
        g.templates.as_deref(),
        learner(g),
    ) else {
        return;
    };
    if !chosen.to_keep {
        return;
    }
    match setup::keep(src, &chosen.setup) {
        Ok(()) if chosen.setup.is_adapted() => {
            errln!("capa-tui: {}", chosen.kept_in().say(lang));
        }
        Ok(()) => {}
        Err(e) => errln!(
            "capa-tui: {}",
            t!(
                lang,
                "setup-cannot-keep",
                file = file.display().to_string(),
                why = e.to_string()
            )
        ),
    }
}

/// The learner the command line names (`--learner`, `CAPA_LEARNER`, the config file's).
fn learner(g: &Global) -> Option<&str> {
    g.learner.as_ref().map(crate::lab::learner::Learner::name)
}

/// The session, saying what happened as it started (a lab kept aside, a cluster taken over or
/// attached to); or the exit code after saying why there is none.
pub async fn session(g: &Global, lang: Lang) -> Result<Session, i32> {
    let s = Session::open(g.session_options()).await.map_err(|e| {
        errln!("capa-tui: {}", e.say(lang));
        1
    })?;
    for line in s.started.lines(lang) {
        errln!("capa-tui: {line}");
    }
    keep_setup(g, &s, lang);
    Ok(s)
}

/// The session, once the cluster answers: for the commands that report what it holds (`check`,
/// `status`, `class collect`). The exit code after saying why not, the session closed.
pub async fn answering_session(g: &Global, lang: Lang) -> Result<Session, i32> {
    let s = session(g, lang).await?;
    if let Err(code) = answering(&s, lang).await {
        s.close().await;
        return Err(code);
    }
    Ok(s)
}

/// The progress kept with the lab; a damaged `tutor.json` kept aside is said on stderr, in
/// the learner's language, with where it went.
pub fn progress(s: &Session, lang: Lang) -> crate::lab::progress::Progress {
    let loaded = crate::lab::progress::load(&s.paths.src_dir);
    if let Some(kept) = &loaded.kept_aside {
        errln!(
            "capa-tui: {}",
            t!(
                lang,
                "progress-damaged",
                file = crate::lab::progress::file(&s.paths.src_dir)
                    .display()
                    .to_string(),
                kept = kept.display().to_string()
            )
        );
    }
    loaded.progress
}

/// How long a report waits for the cluster's first answer: a cluster that is down, or that
/// takes the connection and says nothing, is said at once, not after the client's own
/// minutes-long timeout (`status` against a kubeconfig pointing nowhere printed an empty lab
/// and exited 0; against a silent port it hung).
const FIRST_ANSWER: std::time::Duration = std::time::Duration::from_secs(5);

/// The cluster answers, or the command says it does not (and where it looked) and gives the
/// exit code 1. For the commands that report what the cluster holds (`status`, `check`); a
/// plan rides out a cluster that goes away instead.
pub async fn answering(s: &Session, lang: Lang) -> Result<(), i32> {
    use crate::cluster::problem::{Problem, Why};
    use crate::cluster::{self, ClusterError};
    let unanswered = match tokio::time::timeout(FIRST_ANSWER, cluster::now(&s.client)).await {
        Ok(Err(e @ ClusterError::Unreachable(_))) => e,
        // It answered (a missing Date header is still an answer).
        Ok(_) => return Ok(()),
        Err(_) => ClusterError::Unreachable(Problem::Unreachable {
            server: None,
            why: Why::TimedOut,
        }),
    };
    errln!(
        "capa-tui: {} ({})",
        unanswered.say(lang),
        s.target.say(lang)
    );
    Err(1)
}

/// The lessons `key` names (a number, a name, or `all`); or exit code 2 after listing them.
pub fn pick_lessons(catalog: &Catalog, key: &str, lang: Lang) -> Result<Vec<Lesson>, i32> {
    let all = catalog.lessons();
    if key == "all" {
        return Ok(all.to_vec());
    }
    match catalog.find(key) {
        Some(l) => Ok(vec![l.clone()]),
        None => {
            let names: Vec<String> = all
                .iter()
                .map(|l| format!("{} ({})", l.spec.number, l.spec.slug))
                .collect();
            errln!(
                "capa-tui: {}",
                t!(lang, "cli-no-lesson", key = key, lessons = names.join(", "))
            );
            Err(2)
        }
    }
}
