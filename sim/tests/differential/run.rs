//! Running the corpus on both clusters at once (a group on each in parallel, a few groups at a
//! time, one that changes discovery alone) and judging what came back against the list of known
//! differences.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use similar::TextDiff;

use super::corpus::Planned;
use super::listed;
use super::mask::mask;
use super::target::{Answer, Target};

/// Groups run at once on each cluster (each in its own namespace, with its own repos).
const GROUPS_AT_ONCE: usize = 4;
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// One probe's two answers, masked.
#[derive(Debug)]
pub struct Outcome {
    pub id: String,
    pub embedded: String,
    pub real: String,
}

impl Outcome {
    pub fn same(&self) -> bool {
        self.embedded == self.real
    }

    fn diff(&self) -> String {
        TextDiff::from_lines(&self.real, &self.embedded)
            .unified_diff()
            .header("real lab", "embedded cluster")
            .to_string()
    }
}

/// Every group on both clusters; outcomes in corpus order.
pub async fn both(groups: Vec<Planned>) -> Vec<Outcome> {
    let real = Arc::new(Target::real());
    let embedded = Arc::new(Target::embedded().await);
    let gate = Arc::new(tokio::sync::Semaphore::new(GROUPS_AT_ONCE));
    // Held shared by every group, and alone by one that changes discovery (a CRD).
    let discovery = Arc::new(tokio::sync::RwLock::new(()));
    let mut tasks = Vec::new();
    for g in groups {
        let (real, embedded, gate) = (real.clone(), embedded.clone(), gate.clone());
        let discovery = discovery.clone();
        tasks.push(tokio::spawn(async move {
            let _turn = gate.acquire().await.unwrap();
            let (_shared, _alone) = if g.group.changes_discovery() {
                (None, Some(discovery.write().await))
            } else {
                (Some(discovery.read().await), None)
            };
            let (r, e) = tokio::join!(group(&real, &g), group(&embedded, &g));
            g.probe_ids()
                .zip(r.into_iter().zip(e))
                .zip(&g.group.probes)
                .map(|((id, (r, e)), p)| {
                    let masks: Vec<_> = g.masks.iter().chain(&p.masks).cloned().collect();
                    Outcome {
                        id,
                        real: mask(&r.text(), &masks),
                        embedded: mask(&e.text(), &masks),
                    }
                })
                .collect::<Vec<_>>()
        }));
    }
    let mut out = Vec::new();
    for t in tasks {
        out.extend(t.await.unwrap());
    }
    out
}

/// One group on one cluster: a fresh namespace, the setup, each probe in order, then the
/// namespace and the group's Applications removed. A setup that fails answers every probe with
/// its output.
async fn group(target: &Target, g: &Planned) -> Vec<Answer> {
    let ns = g.namespace();
    let dir = ns.clone();
    let timeout = g.group.timeout.map_or(DEFAULT_TIMEOUT, Duration::from_secs);
    let fresh = format!(
        "kubectl -n argocd get applications -o json | jq -r '.items[] | select(.spec.destination.namespace == \"{ns}\") | .metadata.name' | \
         while read -r a; do kubectl -n argocd patch application \"$a\" --type merge -p '{{\"metadata\":{{\"finalizers\":null}}}}' >/dev/null; \
         kubectl -n argocd delete application \"$a\" --wait=false >/dev/null; done\n\
         kubectl delete namespace {ns} --ignore-not-found --timeout=90s >/dev/null\n\
         kubectl create namespace {ns} >/dev/null"
    );
    let setup = target
        .run(
            &dir,
            &ns,
            &format!("{fresh}\n{}", g.group.setup),
            Duration::from_secs(180),
        )
        .await;
    let answers = if setup.ok() {
        let mut answers = Vec::new();
        for p in &g.group.probes {
            let t = p.timeout.map_or(timeout, Duration::from_secs);
            answers.push(target.run(&dir, &ns, &p.run, t).await);
        }
        answers
    } else {
        let failed = Answer {
            stdout: format!("the group's setup failed on the {} cluster", target.name),
            ..setup
        };
        vec![failed; g.group.probes.len()]
    };
    let teardown = fresh.replace(&format!("\nkubectl create namespace {ns} >/dev/null"), "");
    target
        .run(&dir, &ns, &teardown, Duration::from_secs(120))
        .await;
    answers
}

pub struct Report {
    pub text: String,
    pub summary: String,
    /// Each difference not listed, and each listed one that no longer differs.
    pub problems: Vec<String>,
}

/// The groups holding a probe whose answers differ and are not listed: each gets a second look.
pub fn unlisted_groups(
    outcomes: &[Outcome],
    listed: &BTreeMap<String, usize>,
) -> std::collections::BTreeSet<String> {
    outcomes
        .iter()
        .filter(|o| !o.same() && listed::lists(listed, &o.id).is_none())
        .filter_map(|o| o.id.rsplit_once('/').map(|(group, _)| group.to_string()))
        .collect()
}

/// Takes the second look's answers for the probes that differed the first time; returns those
/// that answer the same now. A probe whose two clusters differ once and agree when asked again
/// raced something (a watch that started late, a status read a moment early): the report names
/// it, so the probe gets fixed to wait for what it reads, and a difference that holds still
/// fails the suite.
pub fn take_second_look(outcomes: &mut [Outcome], second: Vec<Outcome>) -> Vec<String> {
    let mut settled = Vec::new();
    for s in second {
        if let Some(o) = outcomes.iter_mut().find(|o| o.id == s.id && !o.same()) {
            if s.same() {
                settled.push(s.id.clone());
            }
            *o = s;
        }
    }
    settled
}

pub fn report(
    outcomes: &[Outcome],
    listed: &BTreeMap<String, usize>,
    settled: &[String],
) -> Report {
    let same = outcomes.iter().filter(|o| o.same()).count();
    let summary = format!(
        "{} probes: {same} answer the same on both clusters, {} differ ({} of them listed in docs/sim-fidelity.md)",
        outcomes.len(),
        outcomes.len() - same,
        outcomes
            .iter()
            .filter(|o| !o.same() && listed::lists(listed, &o.id).is_some())
            .count()
    );
    let summary = if settled.is_empty() {
        summary
    } else {
        format!(
            "{summary}\n{} differed at first and answer the same on a second look (a race in the probe: make it wait for what it reads): {}",
            settled.len(),
            settled.join(", ")
        )
    };
    let mut problems = Vec::new();
    let mut text =
        format!("# The differential suite: embedded cluster against the real lab\n\n{summary}\n\n");
    for o in outcomes {
        let known = listed::lists(listed, &o.id);
        match (o.same(), known) {
            (true, Some(id)) if id == o.id => problems.push(format!(
                "{}: listed in docs/sim-fidelity.md as a difference, but both clusters answer the same now: remove its row",
                o.id
            )),
            (false, None) => problems.push(format!(
                "{}: the clusters differ, and docs/sim-fidelity.md does not list it: fix the embedded cluster or list it with its reason\n{}",
                o.id,
                o.diff()
            )),
            _ => {}
        }
        let verdict = match (o.same(), known) {
            (true, _) => "same".to_string(),
            (false, Some(id)) => format!("differs (listed as `{id}`)"),
            (false, None) => "DIFFERS, not listed".to_string(),
        };
        text.push_str(&format!("## `{}`: {verdict}\n\n", o.id));
        if !o.same() {
            text.push_str(&format!("```diff\n{}```\n\n", o.diff()));
        }
    }
    Report {
        text,
        summary,
        problems,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(id: &str, real: &str, embedded: &str) -> Outcome {
        Outcome {
            id: id.into(),
            real: real.into(),
            embedded: embedded.into(),
        }
    }

    /// Only a group with an unlisted difference is asked again; a difference that holds on the
    /// second look still fails the suite, and one that was a race is named in the summary.
    #[test]
    fn a_difference_that_holds_fails_and_a_race_is_named() {
        let mut first = vec![
            outcome("f/g/a", "1", "2"),
            outcome("f/g/b", "1", "2"),
            outcome("f/h/c", "x", "x"),
            outcome("f/k/d", "1", "2"),
        ];
        let listed: BTreeMap<String, usize> = [("f/k/d".to_string(), 9)].into();
        assert_eq!(unlisted_groups(&first, &listed), ["f/g".to_string()].into());
        let second = vec![outcome("f/g/a", "1", "1"), outcome("f/g/b", "1", "3")];
        let settled = take_second_look(&mut first, second);
        assert_eq!(settled, ["f/g/a"]);
        let r = report(&first, &listed, &settled);
        assert_eq!(r.problems.len(), 1, "{:?}", r.problems);
        assert!(r.problems[0].starts_with("f/g/b:"), "{:?}", r.problems);
        assert!(
            r.summary.contains("second look") && r.summary.contains("f/g/a"),
            "{}",
            r.summary
        );
    }
}
