//! What a lesson names, checked against what exists: its templates and the files it applies, the
//! Applications and namespaces the templates define, evidence files and fields, the lessons it
//! requires, and the values its checks state against the values its own templates hold.

use serde_json::Value;

use super::facts::{Templates, conditions};
use super::tree::{Node, Pos};
use super::{Finding, Folder, Problem};
use crate::lab::eval::{holds, not_held, shown};
use crate::lab::spec::{DoneWhen, Kind, LessonSpec, ObjectKey, Rule, Source, Step};

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
    let within = |key: &str, text: &str| {
        tree.get(key)
            .and_then(|n| n.find_scalar(text))
            .or_else(|| tree.find_scalar(text))
            .unwrap_or(Pos { line: 1, column: 1 })
    };
    templates(spec, &t, &within, &mut say);
    apps_and_namespaces(spec, tree, &t, &mut say);
    evidence(spec, all, &within, &mut say);
    for r in &spec.requires {
        let known = all
            .iter()
            .any(|o| o.spec.as_ref().is_some_and(|s| s.number == r.lesson));
        if !known {
            say(
                within("requires", &r.lesson.0.to_string()),
                Finding::NoLesson { number: r.lesson.0 },
            );
        }
    }
    values(spec, tree, &t, &mut say);
}

fn templates(
    spec: &LessonSpec,
    t: &Templates<'_>,
    within: &impl Fn(&str, &str) -> Pos,
    say: &mut impl FnMut(Pos, Finding),
) {
    for name in &spec.templates {
        if !t.exists(name) {
            say(
                within("templates", name),
                Finding::NoTemplate {
                    template: name.clone(),
                },
            );
        }
    }
    for a in &spec.actions {
        match &a.step {
            Step::WriteTemplates { template } if !t.exists(template) => say(
                within("actions", template),
                Finding::NoTemplate {
                    template: template.clone(),
                },
            ),
            Step::WriteTemplates { template } if !spec.templates.contains(template) => say(
                within("actions", template),
                Finding::TemplateNotListed {
                    template: template.clone(),
                },
            ),
            Step::ApplyApp { file }
                if !spec.templates.iter().any(|tpl| t.file(tpl, file).is_some()) =>
            {
                say(
                    within("actions", file),
                    Finding::NoAppFile { file: file.clone() },
                );
            }
            _ => {}
        }
    }
}

/// Every Application and object a lesson names, with the node to look for it in.
fn named(spec: &LessonSpec) -> (Vec<String>, Vec<ObjectKey>, Vec<String>) {
    let mut apps = vec![spec.app.clone()];
    let mut objects: Vec<ObjectKey> = spec.focus.iter().cloned().collect();
    let mut namespaces = Vec::new();
    let cond = |d: &DoneWhen, apps: &mut Vec<String>, objects: &mut Vec<ObjectKey>| {
        let mut all = Vec::new();
        conditions(d, &mut all);
        for c in all {
            match c {
                DoneWhen::AppSpec { app, .. }
                | DoneWhen::Synced { app }
                | DoneWhen::Succeeded { app }
                | DoneWhen::OperationFailed { app } => apps.push(app.clone()),
                _ => {}
            }
            objects.extend(c.objects().into_iter().cloned());
        }
    };
    for i in &spec.checklist {
        cond(&i.done_when, &mut apps, &mut objects);
    }
    for r in &spec.requires {
        cond(&r.done_when, &mut apps, &mut objects);
    }
    for a in &spec.actions {
        if let Some(d) = &a.done_when {
            cond(d, &mut apps, &mut objects);
        }
        match &a.step {
            Step::HardRefresh { app }
            | Step::Wait { app, .. }
            | Step::EndBlockingOperation { app }
            | Step::EndOperation { app }
            | Step::EndOperationAndRecord { app, .. } => apps.push(app.clone()),
            Step::Scale { namespace, .. } | Step::HoldAfterScale { namespace, .. } => {
                namespaces.push(namespace.clone());
            }
            _ => {}
        }
    }
    if let Some(v) = &spec.values {
        apps.push(v.app.clone());
        objects.extend(v.keys.iter().map(|k| k.live.clone()));
    }
    for field in spec.evidence.iter().flat_map(|e| &e.fields) {
        match &field.from {
            Source::Field { object, .. }
            | Source::ScaleTime { object }
            | Source::FieldOwner { object, .. } => objects.push(object.clone()),
            Source::Count { namespace, .. } | Source::Exists { namespace, .. } => {
                namespaces.push(namespace.clone());
            }
            Source::HelmLayer { app, .. } => apps.push(app.clone()),
            Source::ImageSource { app, object } => {
                apps.push(app.clone());
                objects.push(object.clone());
            }
            Source::ClusterTime | Source::CommitNotApplied { .. } | Source::GitCommit { .. } => {}
        }
    }
    for r in spec.evidence.iter().flat_map(|e| &e.rules) {
        match r {
            Rule::BeforeCondition { object, .. } | Rule::RightAfterWrite { object, .. } => {
                objects.push(object.clone());
            }
            Rule::CreatedAfterCondition { object, after, .. } => {
                objects.push(object.clone());
                objects.push(after.clone());
            }
            Rule::HookJob { namespace, .. } => namespaces.push(namespace.clone()),
            Rule::LivedBetween { object, .. } => objects.push(object.clone()),
            _ => {}
        }
    }
    for o in &objects {
        if o.kind == Kind::Application {
            apps.push(o.name.clone());
        }
        namespaces.push(o.namespace.clone());
    }
    apps.sort();
    apps.dedup();
    namespaces.sort();
    namespaces.dedup();
    (apps, objects, namespaces)
}

/// Each Application, object and namespace a lesson names that the templates do not define,
/// reported at every place it is written: renaming a namespace in the templates leaves it in
/// several places of a lesson, and the author fixes them all from one run.
fn apps_and_namespaces(
    spec: &LessonSpec,
    tree: &Node,
    t: &Templates<'_>,
    say: &mut impl FnMut(Pos, Finding),
) {
    let mut defined: Vec<String> = t.all_apps().into_iter().map(|a| a.name).collect();
    defined.sort();
    defined.dedup();
    let known_ns = t.namespaces();
    let (apps, objects, namespaces) = named(spec);
    // Where an object is written: its `namespace/Kind/name`, wherever it stands.
    let written_objects = |wanted: &dyn Fn(&ObjectKey) -> bool| -> Vec<Pos> {
        let mut keys: Vec<String> = objects
            .iter()
            .filter(|o| wanted(o))
            .map(|o| o.to_string())
            .collect();
        keys.sort();
        keys.dedup();
        keys.iter().flat_map(|k| tree.find_scalars(k)).collect()
    };
    // Every place, sorted; else the first scalar reading `text`, else the file's top.
    let places = |mut found: Vec<Pos>, text: &str| {
        found.sort();
        found.dedup();
        if found.is_empty() {
            found.push(tree.find_scalar(text).unwrap_or(Pos { line: 1, column: 1 }));
        }
        found
    };
    for app in apps {
        if !defined.contains(&app) {
            let mut found = tree.find_values_of("app", &app);
            found.extend(written_objects(&|o| {
                o.kind == Kind::Application && o.name == app
            }));
            for pos in places(found, &app) {
                say(
                    pos,
                    Finding::UnknownApp {
                        app: app.clone(),
                        known: defined.join(", "),
                    },
                );
            }
        }
    }
    let deployed = super::objects::deployed(t);
    let mut reported: Vec<String> = Vec::new();
    for o in spec.objects() {
        let key = o.to_string();
        let (ns, kind) = (o.namespace.as_str(), o.kind.name());
        // Only where the templates deploy objects of this kind in this namespace can a name be
        // known wrong; a name filled in from evidence (`{hook_job}`) is not known until then.
        let same_kind: Vec<&str> = deployed
            .iter()
            .filter(|k| k.starts_with(&format!("{ns}/{kind}/")))
            .map(String::as_str)
            .collect();
        if key.contains('{')
            || same_kind.is_empty()
            || deployed.contains(&key)
            || reported.contains(&key)
        {
            continue;
        }
        for pos in places(tree.find_scalars(&key), &o.name) {
            say(
                pos,
                Finding::UnknownObject {
                    object: key.clone(),
                    known: same_kind.join(", "),
                },
            );
        }
        reported.push(key);
    }
    for ns in namespaces {
        if !known_ns.contains(&ns) {
            let mut found = tree.find_values_of("namespace", &ns);
            found.extend(written_objects(&|o| o.namespace == ns));
            for pos in places(found, &ns) {
                say(
                    pos,
                    Finding::UnknownNamespace {
                        namespace: ns.clone(),
                        known: known_ns.join(", "),
                    },
                );
            }
        }
    }
}

fn evidence(
    spec: &LessonSpec,
    all: &[&Folder],
    within: &impl Fn(&str, &str) -> Pos,
    say: &mut impl FnMut(Pos, Finding),
) {
    let own = spec.evidence.as_ref().map(|e| e.file.clone());
    let evidence_of = |file: &str| {
        all.iter()
            .filter_map(|o| o.spec.as_ref()?.evidence.as_ref())
            .find(|e| e.file == file)
    };
    let mut files: Vec<String> = Vec::new();
    for d in spec
        .checklist
        .iter()
        .map(|i| &i.done_when)
        .chain(spec.requires.iter().map(|r| &r.done_when))
        .chain(spec.actions.iter().filter_map(|a| a.done_when.as_ref()))
    {
        files.extend(d.evidence_files().into_iter().map(String::from));
    }
    if let Some(e) = &spec.evidence {
        let names: Vec<&str> = e.fields.iter().map(|f| f.name.as_str()).collect();
        for r in &e.rules {
            for field in r.fields() {
                if !names.contains(&field) {
                    say(
                        within("evidence", field),
                        Finding::NoEvidenceField {
                            field: field.to_string(),
                            file: e.file.clone(),
                        },
                    );
                }
            }
            if let Rule::Passes { files: f, .. } = r {
                files.extend(f.iter().cloned());
            }
        }
        for (i, field) in e.fields.iter().enumerate() {
            let object = match &field.from {
                Source::Field { object, .. }
                | Source::ScaleTime { object }
                | Source::FieldOwner { object, .. } => Some(object),
                _ => None,
            };
            if let Some(o) = object {
                for name in super::super::catalog::names_in(&o.name.replace('{', "${")) {
                    if !names[..i].contains(&name.as_str()) {
                        say(
                            within("evidence", &o.to_string()),
                            Finding::NoEvidenceField {
                                field: name,
                                file: e.file.clone(),
                            },
                        );
                    }
                }
            }
            let refs = match &field.from {
                Source::HelmLayer { agrees_with, .. } => vec![agrees_with],
                Source::CommitNotApplied { commit, live, .. } => vec![commit, live],
                _ => Vec::new(),
            };
            for r in refs {
                let text = format!("{}#{}", r.file, r.field);
                match evidence_of(&r.file) {
                    None => say(
                        within("evidence", &text),
                        Finding::NoEvidenceFile {
                            file: r.file.clone(),
                        },
                    ),
                    Some(other) if !other.fields.iter().any(|f| f.name == r.field) => say(
                        within("evidence", &text),
                        Finding::NoEvidenceField {
                            field: r.field.clone(),
                            file: r.file.clone(),
                        },
                    ),
                    Some(_) => {}
                }
            }
        }
    }
    for file in files {
        if evidence_of(&file).is_none() {
            say(within("checklist", &file), Finding::NoEvidenceFile { file });
        }
    }
    evidence_actions(spec, own.as_deref(), &evidence_of, within, say);
}

/// The plan's evidence actions write the lesson's own file, and record only fields it has (a
/// typo would record nothing, and the check would wait for it forever).
fn evidence_actions<'e>(
    spec: &LessonSpec,
    own: Option<&str>,
    evidence_of: &impl Fn(&str) -> Option<&'e crate::lab::spec::EvidenceSpec>,
    within: &impl Fn(&str, &str) -> Pos,
    say: &mut impl FnMut(Pos, Finding),
) {
    for a in &spec.actions {
        if let Step::Evidence { file, fields } = &a.step
            && let Some(e) = evidence_of(file)
        {
            for field in fields
                .iter()
                .filter(|f| !e.fields.iter().any(|x| x.name == **f))
            {
                say(
                    within("actions", field),
                    Finding::NoEvidenceField {
                        field: field.clone(),
                        file: file.clone(),
                    },
                );
            }
        }
        if let Step::Evidence { file, .. } | Step::EndOperationAndRecord { file, .. } = &a.step
            && own != Some(file.as_str())
        {
            say(
                within("actions", file),
                Finding::NotOwnEvidence {
                    file: file.clone(),
                    own: own.unwrap_or("-").to_string(),
                },
            );
        }
    }
}

/// A value a check states against the value the lesson's own templates hold: a literal the
/// templates disagree with is what `let:` is for.
fn values(spec: &LessonSpec, tree: &Node, t: &Templates<'_>, say: &mut impl FnMut(Pos, Finding)) {
    let apps = t.apps();
    let checks = spec
        .checklist
        .iter()
        .map(|i| &i.done_when)
        .chain(spec.actions.iter().filter_map(|a| a.done_when.as_ref()));
    for (n, d) in checks.enumerate() {
        let node = tree
            .get("checklist")
            .and_then(|c| c.items().get(n))
            .or_else(|| {
                let done_whens: Vec<&Node> = tree
                    .get("actions")
                    .map(|a| {
                        a.items()
                            .iter()
                            .filter(|i| i.get("done_when").is_some())
                            .collect()
                    })
                    .unwrap_or_default();
                done_whens.get(n - spec.checklist.len().min(n)).copied()
            });
        let at = |text: &str| {
            node.and_then(|x| x.find_scalar(text))
                .or_else(|| node.map(|x| x.at))
                .unwrap_or(Pos { line: 1, column: 1 })
        };
        let mut all = Vec::new();
        conditions(d, &mut all);
        for c in all {
            match c {
                DoneWhen::GitValue {
                    file, path, equals, ..
                } => {
                    let found: Vec<Value> = spec
                        .templates
                        .iter()
                        .filter_map(|tpl| t.repo_value(tpl, file, path))
                        .collect();
                    if !found.is_empty() && !found.contains(equals) {
                        say(
                            at(&path.to_string()),
                            Finding::ValueDiffers {
                                file: file.clone(),
                                path: path.to_string(),
                                found: found
                                    .iter()
                                    .map(Value::to_string)
                                    .collect::<Vec<_>>()
                                    .join(", "),
                            },
                        );
                    }
                }
                DoneWhen::AppSpec { app, has } => {
                    let mine: Vec<_> = apps
                        .iter()
                        .filter(|a| &a.name == app && spec.templates.contains(&a.template))
                        .collect();
                    let lacks = mine.first().and_then(|a| not_held(&a.spec, has));
                    if let Some(lacks) = lacks
                        && !mine.iter().any(|a| holds(&a.spec, has))
                    {
                        say(
                            at(app),
                            Finding::AppSpecDiffers {
                                app: app.clone(),
                                at: mine
                                    .iter()
                                    .map(|a| format!("{}/{}", a.template, a.file))
                                    .collect::<Vec<_>>()
                                    .join(", "),
                                field: lacks.at,
                                wants: shown(&lacks.want),
                            },
                        );
                    }
                }
                _ => {}
            }
        }
    }
}
