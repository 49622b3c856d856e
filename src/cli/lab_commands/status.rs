//! `capa-tui status`: the lab's Applications, its evidence files, and each lesson's checklist as
//! it stands now — judged live on the cluster and Git, as the tutor judges it, with the steps
//! undone and why — then where the learner was and their predictions.

use serde_json::{Value, json};

use super::{Global, chosen_catalog, lang};
use crate::cluster::argocd;
use crate::i18n::{Lang, Say};
use crate::lab::catalog::Lesson;
use crate::lab::eval::checklist::judge;
use crate::lab::eval::{EvidenceFacts, ItemState, LiveFacts};
use crate::lab::progress::Progress;
use crate::lab::spec::DoneWhen;
use crate::outln;
use crate::t;

pub async fn status(g: &Global, as_json: bool) -> i32 {
    let lang = lang(g);
    let Ok((catalog, chosen)) = chosen_catalog(g, lang) else {
        return 1;
    };
    let s = match super::answering_session(g, lang).await {
        Ok(s) => s,
        Err(code) => return code,
    };
    let lessons = catalog.lessons();
    let mut apps = Vec::new();
    for name in catalog.apps() {
        let row = match argocd::application(s.client.clone(), argocd::NAMESPACE, name).await {
            Ok(a) => json!({
                "name": name,
                "sync": a.status.sync.status,
                "health": a.status.health.status,
                "revision": a.git_revision(),
                "operation": a.status.operation_state.as_ref().map(|o| &o.phase),
                "message": a.status.operation_state.as_ref().map(|o| &o.message),
            }),
            Err(_) => json!({"name": name, "missing": true}),
        };
        apps.push(row);
    }
    let evidence: Vec<Value> = lessons
        .iter()
        .filter_map(|l| l.evidence_file().map(|f| json!({"lesson": l.spec.number, "file": f, "present": s.paths.evidence(f).exists()})))
        .collect();
    let progress = super::progress(&s, lang);
    let checklists = judged(&s, lessons, &progress).await;
    let summary = checklist_summary(lessons, &checklists, lang);
    if as_json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "target": s.target.say(lang),
                // Where the lessons and templates come from (null: capa-tui's own).
                "setup": {
                    "lessons": chosen.setup.lessons,
                    "templates": chosen.setup.templates,
                    "kept_in": chosen.setup.is_adapted().then_some(&chosen.file),
                },
                "applications": apps,
                "evidence": evidence,
                "progress": {"lesson": progress.lesson, "section": progress.section, "checklists": summary, "answers": progress.answers},
            }))
            .unwrap_or_default()
        );
    } else {
        outln!("{}", s.target.say(lang));
        if chosen.setup.is_adapted() {
            outln!("{}", chosen.kept_in().say(lang));
        }
        print_apps(&apps, lang);
        for e in &evidence {
            outln!(
                "  {} {}",
                if e["present"] == true { "✓" } else { "·" },
                e["file"].as_str().unwrap_or_default()
            );
        }
        print_progress(lessons, &progress, &checklists, lang);
    }
    s.close().await;
    0
}

fn print_apps(apps: &[Value], lang: Lang) {
    for a in apps {
        let name = a["name"].as_str().unwrap_or_default();
        if a["missing"] == true {
            outln!("  {name:<10} {}", t!(lang, "status-not-created"));
            continue;
        }
        let rev = a["revision"]
            .as_str()
            .map(|r| &r[..r.len().min(7)])
            .unwrap_or("-");
        outln!(
            "  {name:<10} {:<10} {:<12} {rev:<8} {}",
            a["sync"].as_str().unwrap_or("-"),
            a["health"].as_str().unwrap_or("-"),
            a["operation"].as_str().unwrap_or("")
        );
    }
}

/// Each lesson's checklist as it stands now: read once from the cluster, Git and the source dir,
/// with the times progress kept of the steps first seen done (the moments that are over).
async fn judged(
    s: &crate::session::Session,
    lessons: &[Lesson],
    progress: &Progress,
) -> Vec<Vec<ItemState>> {
    let conditions: Vec<&DoneWhen> = lessons
        .iter()
        .flat_map(|l| l.spec.checklist.iter().map(|i| &i.done_when))
        .collect();
    let mut live = LiveFacts::read(&s.client, &s.paths, &conditions)
        .await
        .unwrap_or_default();
    let clock = s.fast_clock();
    let on_the_cluster = |t| clock.map_or(t, |c| c.at(t));
    live = live.file_times_on(on_the_cluster);
    // A passing grade kept with the progress proves its lesson's moments, as in the tutor.
    for (file, grade) in &progress.grades {
        if let Some(e) = live.evidence.get_mut(file)
            && e.written.is_some()
            && grade.passed()
        {
            e.passed = grade.checked_at.or(e.written);
        }
    }
    let evidence: std::collections::BTreeMap<String, EvidenceFacts> = live.evidence.clone();
    let facts = live.facts();
    let now = on_the_cluster(jiff::Timestamp::now());
    lessons
        .iter()
        .map(|l| {
            let ticks = progress.ticks.get(&l.id());
            judge(l, &facts, (ticks, None), now, &evidence)
        })
        .collect()
}

/// Each lesson's checklist as it stands now: steps done (with when) of all.
fn checklist_summary(lessons: &[Lesson], judged: &[Vec<ItemState>], lang: Lang) -> Vec<Value> {
    lessons
        .iter()
        .zip(judged)
        .filter(|(l, _)| !l.spec.checklist.is_empty())
        .map(|(l, states)| {
            let steps: Vec<Value> = l
                .spec
                .checklist
                .iter()
                .zip(states)
                .map(|(item, st)| {
                    let done_at = match st {
                        ItemState::Done { at } => Some(at.to_string()),
                        _ => None,
                    };
                    let why = match st {
                        ItemState::Undone { why, .. } | ItemState::Open { why: Some(why) } => {
                            Some(why.say(lang))
                        }
                        _ => None,
                    };
                    json!({"step": item.step.get(lang), "done_at": done_at, "why_not": why})
                })
                .collect();
            let done = states.iter().filter(|s| s.done()).count();
            json!({"lesson": l.spec.number, "done": done, "of": l.spec.checklist.len(), "steps": steps})
        })
        .collect()
}

fn print_progress(lessons: &[Lesson], progress: &Progress, judged: &[Vec<ItemState>], lang: Lang) {
    match progress.lesson {
        Some(n) => outln!(
            "{}",
            t!(
                lang,
                "status-on-lesson",
                lesson = n.to_string(),
                part = progress.section.say(lang)
            )
        ),
        None => outln!("{}", t!(lang, "status-not-opened")),
    }
    for (l, states) in lessons.iter().zip(judged) {
        if l.spec.checklist.is_empty() {
            continue;
        }
        let done = states.iter().filter(|s| s.done()).count();
        outln!(
            "  {}",
            t!(
                lang,
                "status-checklist",
                lesson = l.spec.number.to_string(),
                done = done.to_string(),
                of = l.spec.checklist.len().to_string()
            )
        );
        // What the cluster or Git undid since it was done, and why.
        for (item, st) in l.spec.checklist.iter().zip(states) {
            if let ItemState::Undone { why, .. } = st {
                outln!(
                    "{}",
                    t!(
                        lang,
                        "status-undone",
                        step = item.step.get(lang),
                        why = why.say(lang)
                    )
                );
            }
        }
    }
    for (question, answer) in &progress.answers {
        // Kept as "lesson:action" (the action's index): said as the lesson and the action's
        // number, as step mode counts them.
        let (lesson, action) = question.split_once(':').unwrap_or((question.as_str(), "0"));
        let action = action
            .parse::<usize>()
            .map_or_else(|_| action.to_string(), |i| (i + 1).to_string());
        outln!(
            "  {}",
            t!(
                lang,
                "status-prediction",
                lesson = lesson,
                action = action,
                answer = answer.as_str()
            )
        );
    }
}
