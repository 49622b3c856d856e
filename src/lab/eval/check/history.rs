//! Rules that Git proves: a recorded commit is a whole SHA of `main`'s history and is the commit
//! the lab describes (its content and its parent's), and a hook Job's name carries a commit and
//! the operation's start, so its recorded creation time can be checked even once it is gone.

use git2::{Oid, Repository};
use serde_json::Value;

use super::{Finding, expect, fail, pass};
use crate::cluster::argocd;
use crate::lab::eval::evidence::Context;
use crate::lab::spec::{CommitCheck, FieldPath, Rule};

fn is_full_sha(s: &str) -> bool {
    s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

fn short(s: &str) -> &str {
    &s[..s.len().min(7)]
}

pub fn full_sha(v: &Value, field: &str, hint: usize) -> Finding {
    let found = &v[field];
    expect(
        found.as_str().is_some_and(is_full_sha),
        format!("{field} is a whole commit SHA"),
        format!(
            "{field} is {found}: write the whole 40-character SHA (git rev-parse HEAD), not a branch, HEAD or a short SHA"
        ),
        hint,
    )
}

fn bare(ctx: &Context<'_>, name: &str) -> Option<Repository> {
    crate::git::open(&ctx.bare_dir.join(format!("{name}.git"))).ok()
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
fn describes(repo: &Repository, commit: &str, c: &CommitCheck) -> Option<String> {
    let set = value_at(repo, commit, &c.file, &c.path);
    if set != c.value {
        return Some(format!(
            "commit {} sets {} in {} to {}, not {}",
            short(commit),
            c.path,
            c.file,
            set,
            c.value
        ));
    }
    if let Some(b) = &c.breaks {
        let text = crate::git::file_at(repo, commit, &b.file).unwrap_or_default();
        if !text.contains(&b.contains) {
            return Some(format!(
                "commit {} does not have {:?} in {} (it is not the commit that broke it)",
                short(commit),
                b.contains,
                b.file
            ));
        }
    }
    let parent = parent_of(repo, commit)?;
    let before = value_at(repo, &parent, &c.file, &c.path);
    (before == c.value).then(|| {
        format!(
            "commit {} did not change {}: its parent already has {}; the lab changes it in the same commit that breaks {}",
            short(commit),
            c.path,
            before,
            c.breaks.as_ref().map_or("the file", |b| b.file.as_str())
        )
    })
}

fn parent_of(repo: &Repository, commit: &str) -> Option<String> {
    let oid = Oid::from_str(commit).ok()?;
    let c = repo.find_commit(oid).ok()?;
    c.parent_ids().next().map(|p| p.to_string())
}

/// The recorded commit is the one the lab describes, in `main`'s history, and the live value
/// recorded beside it is the value from before it: the change was not applied.
pub fn commit_not_applied(v: &Value, c: &CommitCheck, ctx: &Context<'_>) -> Vec<Finding> {
    let commit = v[&c.commit].as_str().unwrap_or_default();
    let Some(repo) = bare(ctx, &c.repo) else {
        return vec![fail(
            format!(
                "cannot open the bare repo {}/{}.git to look at the commit",
                ctx.bare_dir.display(),
                c.repo
            ),
            1,
        )];
    };
    let suggest = || {
        the_breaking_commit(&repo, c).map_or_else(String::new, |oid| format!(" (that is {oid})"))
    };
    let in_main = Oid::from_str(commit)
        .ok()
        .filter(|_| is_full_sha(commit))
        .is_some_and(|oid| crate::git::main_history(&repo).contains(&oid));
    if !in_main {
        return vec![fail(
            format!(
                "{} {commit:?} is not a commit of {}.git's main: write the SHA of the commit you pushed that broke the migration{}",
                c.commit,
                c.repo,
                suggest()
            ),
            c.hint,
        )];
    }
    let mut out = vec![match describes(&repo, commit, c) {
        None => pass(format!(
            "commit {} sets {} {} and breaks {}",
            short(commit),
            c.path,
            c.value,
            c.breaks
                .as_ref()
                .map_or("nothing else", |b| b.file.as_str())
        )),
        Some(why) => fail(
            format!(
                "{why}: write the SHA of the commit that broke the migration{}",
                suggest()
            ),
            c.hint,
        ),
    }];
    let before = parent_of(&repo, commit)
        .map(|p| value_at(&repo, &p, &c.file, &c.path))
        .unwrap_or(Value::Null);
    let live = &v[c.live.as_str()];
    out.push(expect(
        live.is_string() && *live == before,
        format!("{} {live} is the value from before the commit: it was not applied", c.live),
        format!(
            "{} is {live}, but while the hook failed the cluster still had the value from before the commit, {before}: record {} from the live object while the operation is failing",
            c.live, c.live
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
            format!(
                "{name} {job:?} is not the name Argo CD gives a {phase} hook with generateName {generate_name} ({generate_name}<commit>{suffix}<time>): copy it from status.operationState.syncResult.resources"
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
        format!("{name} names commit {rev} of {repo}.git"),
        format!("{name} names commit {rev}, which is not in {repo}.git's main: record the hook of your own sync"),
        hint,
    ));
    let recorded = v[created.as_str()].as_str().and_then(super::rules::time_of);
    let path = format!("/apis/batch/v1/namespaces/{namespace}/jobs/{job}");
    match argocd::raw_get_if_any(ctx.client.clone(), &path).await {
        Ok(Some(live)) => out.extend(live_hook(&live, (name, created), phase, recorded, hint)),
        Ok(None) => out.push(fail(
            format!(
                "Job {job} is not in {namespace} any more, so {created} cannot be checked against it: sync again and record the new hook Job"
            ),
            hint,
        )),
        Err(e) => out.push(fail(format!("cannot read Job {job}: {e}"), 2)),
    }
    // Argo CD names the hook when the operation starts and creates it right after.
    out.push(match recorded {
        Some(t) => expect(
            t.as_second() >= started,
            format!("{created} is after the operation that named {job} started"),
            format!(
                "{created} ({t}) is before the operation that created {job} started ({}): record that Job's creationTimestamp",
                jiff::Timestamp::from_second(started).map_or_else(|_| started.to_string(), |s| s.to_string())
            ),
            hint,
        ),
        None => fail(format!("{created} must be an RFC 3339 time"), 1),
    });
    out
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
        .and_then(super::rules::time_of);
    vec![
        expect(
            hooks.split(',').any(|h| h.trim() == phase) && succeeded,
            format!("{name} is a {phase} hook that succeeded"),
            format!(
                "{name} is not a {phase} hook Job that succeeded: record the succeeded {phase} hook"
            ),
            hint,
        ),
        expect(
            recorded.is_some() && recorded == real,
            format!("{created} is that Job's creationTimestamp"),
            format!(
                "{created} is {}, but that Job was created at {}: copy its metadata.creationTimestamp",
                recorded.map_or_else(|| "not a time".into(), |t| t.to_string()),
                real.map_or_else(|| "an unknown time".into(), |t| t.to_string())
            ),
            hint,
        ),
    ]
}
