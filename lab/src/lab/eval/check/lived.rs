//! An object's past, proved: Git says which commit added its manifest and which later one
//! removed it, the cluster's Events name the object by the uid the learner recorded while it
//! lived (a uid cannot be guessed, so it was seen), and no object with that uid is there now.

use serde_json::Value;

use super::{Finding, expect, fail, fail_with, pass};
use crate::cluster::argocd;
use crate::git::{FileChange, Repository};
use crate::i18n::Words;
use crate::lab::eval::context::Context;
use crate::lab::short_commit as short;
use crate::lab::spec::{ObjectKey, Rule};
use crate::words;

/// What the rule names, as `lesson.yaml` states it.
struct Lived<'a> {
    object: &'a ObjectKey,
    uid: &'a str,
    repo: &'a str,
    file: &'a str,
    added: &'a str,
    removed: &'a str,
    hint: usize,
}

pub async fn lived_between(rule: &Rule, v: &Value, ctx: &Context<'_>) -> Vec<Finding> {
    let Rule::LivedBetween {
        object,
        uid,
        repo,
        file,
        added,
        removed,
        hint,
    } = rule
    else {
        return Vec::new();
    };
    let l = &Lived {
        object,
        uid,
        repo,
        file,
        added,
        removed,
        hint: *hint,
    };
    let Some(repo) = super::history::bare(ctx, l.repo) else {
        return vec![super::history::no_bare_repo(ctx, l.repo)];
    };
    let history: Vec<String> = crate::git::main_history(&repo)
        .iter()
        .map(ToString::to_string)
        .collect();
    let added = v[l.added].as_str().unwrap_or_default();
    let removed = v[l.removed].as_str().unwrap_or_default();
    let mut out = vec![
        change(&repo, &history, (l.added, added), FileChange::Added, l),
        change(
            &repo,
            &history,
            (l.removed, removed),
            FileChange::Removed,
            l,
        ),
    ];
    // Newest first: the removal comes before the addition in the list.
    let at = |c: &str| history.iter().position(|h| h == c);
    if let (Some(a), Some(r)) = (at(added), at(removed)) {
        out.push(expect(
            r < a,
            words!(
                "rule-lived-order-ok",
                added = short(added),
                removed = short(removed)
            ),
            words!(
                "rule-lived-order-not",
                added_field = l.added,
                removed_field = l.removed,
                added = short(added),
                removed = short(removed)
            ),
            l.hint,
        ));
    }
    let uid = v[l.uid].as_str().unwrap_or_default();
    out.extend(seen(l, uid, ctx).await.into_iter().map(Finding::live));
    out
}

/// The recorded commit `sha` (field `field`) is on `main` and made `wanted` to the file.
fn change(
    repo: &Repository,
    history: &[String],
    (field, sha): (&str, &str),
    wanted: FileChange,
    l: &Lived<'_>,
) -> Finding {
    let on_main = sha.len() == 40 && history.iter().any(|h| h == sha);
    let made = on_main && crate::git::file_change_at(repo, sha, l.file) == Some(wanted);
    let suggest = crate::git::newest_file_change(repo, l.file, wanted, usize::MAX)
        .map_or_else(|| Words::text(""), |c| words!("rule-that-is", commit = c));
    let (commit, file, repo) = (short(sha), l.file, l.repo);
    match wanted {
        FileChange::Added => expect(
            made,
            words!(
                "rule-lived-added-ok",
                field = field,
                commit = commit,
                file = file
            ),
            words!(
                "rule-lived-added-not",
                field = field,
                commit = sha,
                file = file,
                repo = repo,
                suggest = suggest
            ),
            l.hint,
        ),
        FileChange::Removed => expect(
            made,
            words!(
                "rule-lived-removed-ok",
                field = field,
                commit = commit,
                file = file
            ),
            words!(
                "rule-lived-removed-not",
                field = field,
                commit = sha,
                file = file,
                repo = repo,
                suggest = suggest
            ),
            l.hint,
        ),
    }
}

/// The cluster's Events name the object by `uid`, and no object with that uid is there now.
async fn seen(l: &Lived<'_>, uid: &str, ctx: &Context<'_>) -> Vec<Finding> {
    let (kind, name, ns) = (
        l.object.kind.name(),
        l.object.name.as_str(),
        l.object.namespace.as_str(),
    );
    let events = format!("/api/v1/namespaces/{ns}/events?fieldSelector=involvedObject.uid%3D{uid}");
    let cannot = |e: crate::cluster::ClusterError| {
        fail_with(
            words!(
                "rule-cannot-read",
                object = format!("{kind} {name}"),
                why = Words::of(e)
            ),
            words!("check-cluster-help"),
        )
    };
    let listed = match argocd::raw_get(ctx.client.clone(), &events).await {
        Ok(list) => list["items"].as_array().cloned().unwrap_or_default(),
        Err(e) => return vec![cannot(e)],
    };
    // The server filtered by uid; the kind and name must be the object's too.
    let named = listed
        .iter()
        .filter(|e| {
            let o = &e["involvedObject"];
            !uid.is_empty() && o["uid"] == uid && o["kind"] == kind && o["name"] == name
        })
        .count();
    let mut out = vec![expect(
        named > 0,
        words!(
            "rule-lived-seen-ok",
            kind = kind,
            name = name,
            uid = uid,
            count = named
        ),
        words!(
            "rule-lived-seen-not",
            field = l.uid,
            kind = kind,
            name = name,
            uid = uid
        ),
        l.hint,
    )];
    let now = match argocd::raw_get_if_any(ctx.client.clone(), &l.object.path(&Default::default()))
        .await
    {
        Ok(now) => now,
        Err(e) => return vec![cannot(e)],
    };
    let still = now.is_some_and(|o| o["metadata"]["uid"] == uid);
    out.push(if still {
        fail(
            words!(
                "rule-lived-gone-not",
                kind = kind,
                name = name,
                file = l.file
            ),
            l.hint,
        )
    } else {
        pass(words!("rule-lived-gone-ok", kind = kind, name = name))
    });
    out
}
