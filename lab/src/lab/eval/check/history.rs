//! Rules that Git proves: a recorded commit is a whole SHA of `main`'s history and is the commit
//! the lab describes (its content and its parent's), and a hook Job's name carries a commit and
//! the operation's start, so its recorded creation time can be checked even once it is gone.

use crate::git::{Oid, Repository};
use serde_json::Value;

use super::time::time_of;
use super::{Finding, expect, fail, fail_with, pass};
use crate::cluster::argocd;
use crate::i18n::Words;
use crate::lab::eval::context::Context;
use crate::lab::spec::{CommitCheck, FieldPath, Rule};
use crate::words;

fn is_full_sha(s: &str) -> bool {
    s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

use crate::lab::short_commit as short;

pub fn full_sha(v: &Value, field: &str, hint: usize) -> Finding {
    let found = &v[field];
    expect(
        found.as_str().is_some_and(is_full_sha),
        words!("rule-full-sha-ok", field = field),
        words!(
            "rule-full-sha-not",
            field = field,
            found = found.to_string()
        ),
        hint,
    )
}

pub(super) fn bare(ctx: &Context<'_>, name: &str) -> Option<Repository> {
    crate::git::open(&ctx.bare_dir.join(format!("{name}.git"))).ok()
}

/// The bare repo a rule names is not in the bare dir: nothing of Git can be proved.
pub(super) fn no_bare_repo(ctx: &Context<'_>, repo: &str) -> Finding {
    fail_with(
        words!(
            "rule-no-bare-repo",
            bare = ctx.bare_dir.display().to_string(),
            repo = repo
        ),
        words!("rule-no-bare-repo-help"),
    )
}

/// `path` of the YAML `file` at `commit` (`Null` when absent).
fn value_at(repo: &Repository, commit: &str, file: &str, path: &FieldPath) -> Value {
    crate::git::file_at(repo, commit, file)
        .and_then(|t| serde_saphyr::from_str::<Value>(&t).ok())
        .and_then(|d| path.get(&d).cloned())
        .unwrap_or(Value::Null)
}

/// The commit of `main` the lab describes: it sets the value and breaks the other file, and
/// its parent did not set the value.
fn the_breaking_commit(repo: &Repository, c: &CommitCheck) -> Option<Oid> {
    crate::git::main_history(repo)
        .into_iter()
        .rev()
        .find(|oid| describes(repo, &oid.to_string(), c).is_none())
}

/// Why `commit` is not the commit the lab describes, if it is not.
fn describes(repo: &Repository, commit: &str, c: &CommitCheck) -> Option<Words> {
    let set = value_at(repo, commit, &c.file, &c.path);
    if set != c.value {
        return Some(words!(
            "rule-commit-sets-other",
            commit = short(commit),
            path = c.path.to_string(),
            file = c.file.as_str(),
            set = set.to_string(),
            value = c.value.to_string()
        ));
    }
    if let Some(b) = &c.breaks {
        let text = crate::git::file_at(repo, commit, &b.file).unwrap_or_default();
        if !text.contains(&b.contains) {
            return Some(words!(
                "rule-commit-does-not-break",
                commit = short(commit),
                contains = b.contains.as_str(),
                file = b.file.as_str()
            ));
        }
    }
    let parent = parent_of(repo, commit)?;
    let before = value_at(repo, &parent, &c.file, &c.path);
    (before == c.value).then(|| {
        words!(
            "rule-commit-did-not-change",
            commit = short(commit),
            path = c.path.to_string(),
            before = before.to_string(),
            breaks = c.breaks.as_ref().map_or("-", |b| b.file.as_str())
        )
    })
}

use crate::git::parent_of;

/// The recorded commit is the one the lab describes, in `main`'s history, and the live value
/// recorded beside it is the value from before it: the change was not applied.
pub fn commit_not_applied(v: &Value, c: &CommitCheck, ctx: &Context<'_>) -> Vec<Finding> {
    let commit = v[&c.commit].as_str().unwrap_or_default();
    let Some(repo) = bare(ctx, &c.repo) else {
        return vec![no_bare_repo(ctx, &c.repo)];
    };
    let suggest = || {
        the_breaking_commit(&repo, c).map_or_else(
            || Words::text(""),
            |oid| words!("rule-that-is", commit = oid.to_string()),
        )
    };
    let in_main = Oid::from_str(commit)
        .ok()
        .filter(|_| is_full_sha(commit))
        .is_some_and(|oid| crate::git::main_history(&repo).contains(&oid));
    if !in_main {
        return vec![fail(
            words!(
                "rule-commit-not-in-main",
                field = c.commit.as_str(),
                commit = commit,
                repo = c.repo.as_str(),
                suggest = suggest()
            ),
            c.hint,
        )];
    }
    let mut out = vec![match describes(&repo, commit, c) {
        None => pass(words!(
            "rule-commit-ok",
            commit = short(commit),
            path = c.path.to_string(),
            value = c.value.to_string(),
            breaks = c.breaks.as_ref().map_or("-", |b| b.file.as_str())
        )),
        Some(why) => fail(
            words!("rule-commit-not", why = why, suggest = suggest()),
            c.hint,
        ),
    }];
    let before = parent_of(&repo, commit)
        .map(|p| value_at(&repo, &p, &c.file, &c.path))
        .unwrap_or(Value::Null);
    let live = &v[c.live.as_str()];
    out.push(expect(
        live.is_string() && *live == before,
        words!(
            "rule-not-applied-ok",
            field = c.live.as_str(),
            live = live.to_string()
        ),
        words!(
            "rule-not-applied-not",
            field = c.live.as_str(),
            live = live.to_string(),
            before = before.to_string()
        ),
        c.live_hint,
    ));
    out
}

/// A hook Job Argo CD named from `generateName`: `<prefix><rev7>-<phase>-<startedAtUnix>`.
pub async fn hook_job(rule: &Rule, v: &Value, ctx: &Context<'_>) -> Vec<Finding> {
    let Rule::HookJob {
        name,
        created,
        namespace,
        generate_name,
        phase,
        repo,
        hint,
    } = rule
    else {
        return Vec::new();
    };
    let hint = *hint;
    let job = v[name.as_str()].as_str().unwrap_or_default();
    let suffix = format!("-{}-", phase.to_lowercase());
    let parsed = job
        .strip_prefix(generate_name.as_str())
        .and_then(|rest| rest.split_once(&suffix))
        .filter(|(rev, _)| rev.len() == 7 && rev.bytes().all(|b| b.is_ascii_hexdigit()))
        .and_then(|(rev, at)| Some((rev, at.parse::<i64>().ok()?)));
    let Some((rev, started)) = parsed else {
        return vec![fail(
            words!(
                "rule-hook-name-not",
                field = name.as_str(),
                job = job,
                phase = phase.as_str(),
                generate_name = generate_name.as_str(),
                shape = format!("{generate_name}<commit>{suffix}<time>")
            ),
            hint,
        )];
    };
    let mut out = Vec::new();
    let known = bare(ctx, repo).is_some_and(|r| {
        crate::git::main_history(&r)
            .iter()
            .any(|oid| oid.to_string().starts_with(rev))
    });
    out.push(expect(
        known,
        words!(
            "rule-hook-commit-ok",
            field = name.as_str(),
            rev = rev,
            repo = repo.as_str()
        ),
        words!(
            "rule-hook-commit-not",
            field = name.as_str(),
            rev = rev,
            repo = repo.as_str()
        ),
        hint,
    ));
    let recorded = v[created.as_str()].as_str().and_then(time_of);
    out.extend(
        the_live_hook(
            ctx,
            (job, namespace),
            (name, created),
            phase,
            recorded,
            hint,
        )
        .await
        .into_iter()
        .map(Finding::live),
    );
    // Argo CD names the hook when the operation starts and creates it right after. A field
    // that is not a time is said by the type check.
    if let Some(t) = recorded {
        out.push(expect(
            t.as_second() >= started,
            words!(
                "rule-hook-after-start-ok",
                field = created.as_str(),
                job = job
            ),
            words!(
                "rule-hook-after-start-not",
                field = created.as_str(),
                at = t.to_string(),
                job = job,
                started = jiff::Timestamp::from_second(started)
                    .map_or_else(|_| started.to_string(), |s| s.to_string())
            ),
            hint,
        ));
    }
    out
}

/// The live hook Job, when it is still there: that phase's hook, succeeded, created when
/// recorded; or why it cannot be checked.
async fn the_live_hook(
    ctx: &Context<'_>,
    (job, namespace): (&str, &str),
    (name, created): (&str, &str),
    phase: &str,
    recorded: Option<jiff::Timestamp>,
    hint: usize,
) -> Vec<Finding> {
    let path = format!("/apis/batch/v1/namespaces/{namespace}/jobs/{job}");
    match argocd::raw_get_if_any(ctx.client.clone(), &path).await {
        Ok(Some(live)) => live_hook(&live, (name, created), phase, recorded, hint),
        Ok(None) => vec![fail(
            words!(
                "rule-hook-gone",
                job = job,
                namespace = namespace,
                field = created
            ),
            hint,
        )],
        Err(e) => vec![fail_with(
            words!(
                "rule-cannot-read",
                object = format!("Job {job}"),
                why = Words::of(e)
            ),
            words!("check-cluster-help"),
        )],
    }
}

/// The live hook Job is that phase's hook, it succeeded, and was created when recorded.
fn live_hook(
    live: &Value,
    (name, created): (&str, &str),
    phase: &str,
    recorded: Option<jiff::Timestamp>,
    hint: usize,
) -> Vec<Finding> {
    let hooks = live["metadata"]["annotations"]["argocd.argoproj.io/hook"]
        .as_str()
        .unwrap_or_default();
    let succeeded = live["status"]["succeeded"].as_i64().unwrap_or(0) > 0;
    let real = live["metadata"]["creationTimestamp"]
        .as_str()
        .and_then(time_of);
    let mut out = vec![expect(
        hooks.split(',').any(|h| h.trim() == phase) && succeeded,
        words!("rule-hook-succeeded-ok", field = name, phase = phase),
        words!("rule-hook-succeeded-not", field = name, phase = phase),
        hint,
    )];
    // A field that is not a time is said by the type check.
    if let Some(recorded) = recorded {
        out.push(expect(
            Some(recorded) == real,
            words!("rule-hook-created-ok", field = created),
            words!(
                "rule-hook-created-not",
                field = created,
                recorded = recorded.to_string(),
                real = real.map_or_else(|| "-".into(), |t| t.to_string())
            ),
            hint,
        ));
    }
    out
}
