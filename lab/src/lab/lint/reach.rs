//! Whether a lesson can be done as written: each checklist step has a plan action that can make
//! it true, and whatever the lesson uses but does not make (another lesson's Application,
//! evidence or working copy) comes from a lesson it requires.

use std::collections::BTreeSet;

use super::facts::{TemplateApp, Templates, conditions};
use super::tree::Pos;
use super::{Finding, Folder, Needs, Problem};
use crate::lab::eval::holds;
use crate::lab::spec::{DoneWhen, LessonId, LessonSpec, Rule, Source, Step, Until};

pub fn check(f: &Folder, all: &[&Folder], files: &[(String, String)], out: &mut Vec<Problem>) {
    let (Some(spec), Some(tree)) = (&f.spec, &f.tree) else {
        return;
    };
    let t = Templates { files };
    let mut say = |at: Pos, finding: Finding| {
        out.push(Problem {
            file: f.yaml_path.clone(),
            at,
            finding,
        });
    };
    let specs: Vec<&LessonSpec> = all.iter().filter_map(|o| o.spec.as_ref()).collect();
    let chain = required(spec, &specs);
    let in_chain = |s: &&LessonSpec| s.number == spec.number || chain.contains(&s.number);
    let top = |key: &str| {
        tree.entry(key)
            .map_or(Pos { line: 1, column: 1 }, |(k, _)| k.at)
    };

    evidence_first(spec, &specs, &in_chain, top("requires"), &mut say);
    // Applications the plan waits on or the checks read, that this plan does not apply.
    let all_apps = t.all_apps();
    let applies = |s: &LessonSpec, app: &str| applies(s, app, &all_apps);
    let mut used: BTreeSet<String> = BTreeSet::new();
    for i in &spec.checklist {
        let mut c = Vec::new();
        conditions(&i.done_when, &mut c);
        for d in c {
            if let DoneWhen::Synced { app }
            | DoneWhen::Succeeded { app }
            | DoneWhen::OperationFailed { app } = d
            {
                used.insert(app.clone());
            }
        }
    }
    for a in &spec.actions {
        if let Step::Wait { app, .. } | Step::HardRefresh { app } = &a.step {
            used.insert(app.clone());
        }
    }
    for app in used {
        if applies(spec, &app) {
            continue;
        }
        let maker = specs.iter().find(|s| applies(s, &app));
        if !specs
            .iter()
            .filter(|s| in_chain(s))
            .any(|s| applies(s, &app))
        {
            say(
                top("requires").min(top("app")),
                Finding::NeedsLesson {
                    what: app,
                    lesson: maker.map(|m| m.number.0),
                },
            );
        }
    }
    // The working copy: pushing needs a clone, made here or by a lesson required.
    let pushes = spec
        .actions
        .iter()
        .any(|a| matches!(a.step, Step::CommitPush { .. }));
    let clones = |s: &LessonSpec| {
        s.actions
            .iter()
            .any(|a| matches!(a.step, Step::Clone { .. }))
    };
    if pushes && !specs.iter().filter(|s| in_chain(s)).any(|s| clones(s)) {
        let maker = specs.iter().find(|s| clones(s));
        say(
            top("actions"),
            Finding::NeedsLesson {
                what: "git clone".into(),
                lesson: maker.map(|m| m.number.0),
            },
        );
    }
    steps(spec, tree, &t, &mut say);
}

/// Whether lesson `s` applies Application `app`: from one of its templates' `app-*.yaml`, or
/// by applying the Application that makes it (an app of apps, to any depth).
fn applies(s: &LessonSpec, app: &str, all_apps: &[TemplateApp]) -> bool {
    let mut name = app;
    for _ in 0..=all_apps.len() {
        let applied = s.actions.iter().any(|a| match &a.step {
            Step::ApplyApp { file } => all_apps.iter().any(|x| {
                x.parent.is_none()
                    && s.templates.contains(&x.template)
                    && &x.file == file
                    && x.name == name
            }),
            _ => false,
        });
        if applied {
            return true;
        }
        match all_apps
            .iter()
            .find(|x| x.name == name)
            .and_then(|x| x.parent.as_deref())
        {
            Some(parent) => name = parent,
            None => return false,
        }
    }
    false
}

/// Evidence of other lessons: the lesson that writes it must come first.
fn evidence_first(
    spec: &LessonSpec,
    specs: &[&LessonSpec],
    in_chain: &impl Fn(&&LessonSpec) -> bool,
    at: Pos,
    say: &mut impl FnMut(Pos, Finding),
) {
    let mut evidence: Vec<String> = spec
        .checklist
        .iter()
        .flat_map(|i| i.done_when.evidence_files())
        .map(String::from)
        .collect();
    if let Some(e) = &spec.evidence {
        for r in &e.rules {
            if let Rule::Passes { files, .. } = r {
                evidence.extend(files.iter().cloned());
            }
        }
        for field in &e.fields {
            match &field.from {
                Source::HelmLayer { agrees_with, .. } => evidence.push(agrees_with.file.clone()),
                Source::CommitNotApplied { commit, live, .. } => {
                    evidence.push(commit.file.clone());
                    evidence.push(live.file.clone());
                }
                _ => {}
            }
        }
    }
    evidence.sort();
    evidence.dedup();
    for file in evidence {
        let writer = specs
            .iter()
            .find(|s| s.evidence.as_ref().is_some_and(|e| e.file == file));
        if let Some(w) = writer
            && !in_chain(w)
        {
            say(
                at,
                Finding::NeedsLesson {
                    what: file,
                    lesson: Some(w.number.0),
                },
            );
        }
    }
}

/// Each checklist step: some action of the plan can make each of its conditions true.
fn steps(
    spec: &LessonSpec,
    tree: &super::tree::Node,
    t: &Templates<'_>,
    say: &mut impl FnMut(Pos, Finding),
) {
    let top = |key: &str| {
        tree.entry(key)
            .map_or(Pos { line: 1, column: 1 }, |(k, _)| k.at)
    };
    let items = tree.get("checklist").map(|c| c.items()).unwrap_or_default();
    for (i, item) in spec.checklist.iter().enumerate() {
        let at = items
            .get(i)
            .and_then(|n| n.entry("done_when"))
            .map_or(top("checklist"), |(k, _)| k.at);
        let mut c = Vec::new();
        conditions(&item.done_when, &mut c);
        for d in c {
            if let Some(needs) = unreachable(d, spec, t) {
                say(
                    at,
                    Finding::Unreachable {
                        condition: label(d),
                        needs,
                    },
                );
            }
        }
    }
}

/// The lessons `spec` requires, and theirs, and so on.
fn required(spec: &LessonSpec, all: &[&LessonSpec]) -> BTreeSet<LessonId> {
    let mut out = BTreeSet::new();
    let mut todo: Vec<LessonId> = spec.requires.iter().map(|r| r.lesson).collect();
    while let Some(n) = todo.pop() {
        if out.insert(n)
            && let Some(s) = all.iter().find(|s| s.number == n)
        {
            todo.extend(s.requires.iter().map(|r| r.lesson));
        }
    }
    out
}

/// A condition as the YAML says it: `synced: src-helm`.
fn label(d: &DoneWhen) -> String {
    match d {
        DoneWhen::BareRepo(r) => format!("bare-repo: {r}"),
        DoneWhen::Cloned(r) => format!("cloned: {r}"),
        DoneWhen::Pushed { path, .. } => format!("pushed: {path}"),
        DoneWhen::Removed { path, .. } => format!("removed: {path}"),
        DoneWhen::AppSpec { app, .. } => format!("app-spec: {app}"),
        DoneWhen::Synced { app } => format!("synced: {app}"),
        DoneWhen::Succeeded { app } => format!("succeeded: {app}"),
        DoneWhen::OperationFailed { app } => format!("operation-failed: {app}"),
        DoneWhen::FieldOwner { object, path, .. } => format!("field-owner: {object} {path}"),
        DoneWhen::ObjectField { object, path, .. } => format!("object-field: {object} {path}"),
        DoneWhen::GitValue { file, path, .. } => format!("git-value: {file} {path}"),
        DoneWhen::RolledOut { object, .. } => format!("rolled-out: {object}"),
        DoneWhen::All(_) => "all".into(),
        DoneWhen::HeldAfterScale { object, .. } => format!("held-after-scale: {object}"),
        DoneWhen::EvidenceExists(f) => format!("evidence-exists: {f}"),
        DoneWhen::EvidencePasses(f) => format!("evidence-passes: {f}"),
    }
}

/// The action that would make `d` true, when the plan has none that can.
fn unreachable(d: &DoneWhen, spec: &LessonSpec, t: &Templates<'_>) -> Option<Needs> {
    let steps: Vec<&Step> = spec.actions.iter().map(|a| &a.step).collect();
    let any = |f: &dyn Fn(&Step) -> bool| steps.iter().any(|s| f(s));
    let written: Vec<&str> = steps
        .iter()
        .filter_map(|s| match s {
            Step::WriteTemplates { template } => Some(template.as_str()),
            _ => None,
        })
        .collect();
    let pushes = any(&|s| matches!(s, Step::CommitPush { .. }));
    let syncs = any(&|s| matches!(s, Step::Wait { .. } | Step::Scale { .. }));
    let ok = match d {
        DoneWhen::BareRepo(r) => any(&|s| matches!(s, Step::CreateBareRepo { repo } if repo == r)),
        DoneWhen::Cloned(r) => any(&|s| matches!(s, Step::Clone { repo } if repo == r)),
        DoneWhen::Pushed { path, contains, .. } => {
            pushes
                && written.iter().any(|tpl| {
                    t.file(tpl, &format!("repo/{path}"))
                        .is_some_and(|c| contains.as_ref().is_none_or(|x| c.contains(x.as_str())))
                })
        }
        DoneWhen::GitValue {
            file, path, equals, ..
        } => {
            pushes
                && written
                    .iter()
                    .any(|tpl| t.repo_value(tpl, file, path).as_ref() == Some(equals))
        }
        DoneWhen::Removed { path, .. } => {
            pushes && any(&|s| matches!(s, Step::RemoveFiles { paths } if paths.contains(path)))
        }
        DoneWhen::AppSpec { app, has } => {
            let mine: Vec<_> = t
                .all_apps()
                .into_iter()
                .filter(|a| spec.templates.contains(&a.template) && &a.name == app)
                .collect();
            // Applied by the plan, or made by an Application once the plan pushes the file that
            // holds it.
            let applied = |a: &&TemplateApp| match &a.parent {
                None => any(&|s| matches!(s, Step::ApplyApp { file } if *file == a.file)),
                Some(_) => pushes && written.contains(&a.template.as_str()),
            };
            // The plan applies this Application but no file of it holds has:: the cause is a
            // value in the template, which `refs` reports (AppSpecDiffers) with the field; adding
            // an apply-app would not help.
            let held = |a: &&TemplateApp| holds(&a.spec, has);
            mine.iter().filter(applied).any(|a| held(&a))
                || (mine.iter().any(|a| applied(&a)) && !mine.iter().any(|a| held(&a)))
        }
        DoneWhen::Synced { app } => any(
            &|s| matches!(s, Step::Wait { app: a, until: Until::SyncedHealthy | Until::Succeeded } if a == app),
        ),
        DoneWhen::Succeeded { app } => {
            any(&|s| matches!(s, Step::Wait { app: a, until: Until::Succeeded } if a == app))
        }
        DoneWhen::OperationFailed { app } => {
            any(&|s| matches!(s, Step::Wait { app: a, until: Until::OperationFailed } if a == app))
        }
        DoneWhen::FieldOwner {
            object, manager, ..
        } if manager == "kubectl" => {
            any(&|s| matches!(s, Step::Scale { deployment, .. } if *deployment == object.name))
        }
        DoneWhen::FieldOwner { .. } | DoneWhen::ObjectField { .. } | DoneWhen::RolledOut { .. } => {
            syncs
        }
        DoneWhen::HeldAfterScale {
            object, seconds, ..
        } => any(&|s| {
            matches!(s, Step::HoldAfterScale { deployment, seconds: held, .. }
                if *deployment == object.name && held >= seconds)
        }),
        DoneWhen::EvidenceExists(f) | DoneWhen::EvidencePasses(f) => any(
            &|s| matches!(s, Step::Evidence { file, .. } | Step::EndOperationAndRecord { file, .. } if file == f),
        ),
        DoneWhen::All(_) => true,
    };
    (!ok).then_some(match d {
        DoneWhen::BareRepo(_) => Needs::Action("do: create-bare-repo"),
        DoneWhen::Cloned(_) => Needs::Action("do: clone"),
        DoneWhen::Pushed { .. } | DoneWhen::GitValue { .. } => Needs::WriteAndPush,
        DoneWhen::Removed { .. } => Needs::Action("do: remove-files (then commit-push)"),
        DoneWhen::AppSpec { .. } => Needs::ApplyApp,
        DoneWhen::Synced { .. } => Needs::Action("do: wait (until: synced-healthy)"),
        DoneWhen::Succeeded { .. } => Needs::Action("do: wait (until: succeeded)"),
        DoneWhen::OperationFailed { .. } => Needs::Action("do: wait (until: operation-failed)"),
        DoneWhen::FieldOwner { .. } => Needs::Action("do: scale"),
        DoneWhen::HeldAfterScale { .. } => Needs::Hold,
        DoneWhen::EvidenceExists(_) | DoneWhen::EvidencePasses(_) => Needs::Action("do: evidence"),
        _ => Needs::Action("do: wait"),
    })
}
