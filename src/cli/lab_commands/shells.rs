//! `capa-tui shell` and `capa-tui env`: the lab's environment (KUBECONFIG, the installed kubectl
//! and helm first on PATH, the lab's folders) as a subshell, or as export lines.

use super::{Global, lang, session};
use crate::session::ending::Ending;
use crate::session::shell_env::{ShellEnv, ShellError, quote};
use crate::session::{jobs, serving};
use crate::t;
use crate::{errln, out, outln};

/// `capa-tui env`: export lines for the lab's environment, without starting anything; with
/// `--sim`, the kubeconfig of the cluster serving the state dir.
pub fn env(g: &Global) -> i32 {
    let lang = lang(g);
    let options = g.session_options();
    let env = if g.sim {
        let place = options.place();
        let served = serving::live(&place.state);
        if served.is_none() {
            // The exports still name where it will serve; say that nothing answers there yet.
            errln!(
                "{}",
                t!(
                    lang,
                    "env-nothing-serves",
                    state = place.state.display().to_string()
                )
            );
        }
        if let Some(speed) = served
            .as_ref()
            .and_then(|s| s.speed)
            .filter(|v| !crate::cluster::clock::is_real_speed(*v))
        {
            errln!("{}", t!(lang, "env-clock-fast", speed = speed.to_string()));
        }
        let kubeconfig = served.map_or(place.kubeconfig, |s| s.kubeconfig);
        ShellEnv::new(&place.paths, Some(&kubeconfig), "sim")
    } else {
        ShellEnv::new(
            &options.lab_paths(),
            options.kubeconfig,
            options.context.unwrap_or("cluster"),
        )
    };
    out!("{}", env.exports());
    // The command as typed (its --state-dir and all), so the line can be copied as it is.
    let command = std::iter::once("capa-tui".to_string())
        .chain(std::env::args().skip(1).map(|a| quote_if_needed(&a)))
        .collect::<Vec<_>>()
        .join(" ");
    outln!("{}", t!(lang, "env-eval", command = command));
    0
}

/// `capa-tui shell`: a subshell with the lab's environment; returns its exit code.
pub async fn shell(g: &Global) -> i32 {
    let lang = lang(g);
    let s = match session(g, lang).await {
        Ok(s) => s,
        Err(code) => return code,
    };
    let env = s.shell_env();
    let code = match run_subshell(&env, &s.paths.tutor_dir(), lang).await {
        Ok(code) => code,
        Err(e) => {
            errln!("capa-tui shell: {}", crate::i18n::Say::say(&e, lang));
            1
        }
    };
    s.close().await;
    code
}

async fn run_subshell(
    env: &ShellEnv,
    rc_dir: &std::path::Path,
    lang: crate::i18n::Lang,
) -> Result<i32, ShellError> {
    std::fs::create_dir_all(&env.cwd).map_err(|e| ShellError::CreateDir {
        dir: env.cwd.clone(),
        why: e.to_string(),
    })?;
    let (program, args) = env.command(rc_dir)?;
    errln!(
        "capa-tui: {}",
        t!(
            lang,
            "shell-opening",
            label = env.label.as_str(),
            cwd = env.cwd.display().to_string()
        )
    );
    if let Some(clock) = &env.clock {
        let speed = clock.speed.to_string();
        match env.off_the_clusters_clock() {
            None => errln!(
                "capa-tui: {}",
                t!(lang, "shell-clock-follows", speed = speed)
            ),
            Some(_) => errln!("capa-tui: {}", t!(lang, "shell-clock-wall", speed = speed)),
        }
    }
    let (ps1, ps1_value) = env.prompt_var();
    // Kept current while the subshell runs.
    let _clock = env.keep_clock(rc_dir);
    // Every process the subshell starts carries the mark, so its jobs end with it.
    let mark = jobs::new_mark();
    // Listening before the subshell starts: a signal that comes while it runs ends its jobs
    // and the cluster, instead of leaving the subshell orphaned on the learner's terminal.
    let mut ending = Ending::listen();
    let mut child = tokio::process::Command::new(&program)
        .args(&args)
        .envs(env.vars_for(rc_dir))
        .env(ps1, ps1_value)
        .env(jobs::MARK_VAR, &mark)
        .current_dir(&env.cwd)
        .spawn()
        .map_err(|e| ShellError::Start {
            program: program.clone(),
            why: e.to_string(),
        })?;
    let code = tokio::select! {
        status = child.wait() => status.ok().and_then(|s| s.code()).unwrap_or(1),
        code = ending.next() => code,
    };
    // On exit too: `sleep &` and `nohup` jobs outlived the subshell (reliability-4 L2).
    let _ = tokio::task::spawn_blocking(move || jobs::end_marked(&mark)).await;
    let _ = child.wait().await;
    Ok(code)
}

/// A word as typed when it needs no quoting, else quoted for the shell.
fn quote_if_needed(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c));
    if plain { word.to_string() } else { quote(word) }
}
