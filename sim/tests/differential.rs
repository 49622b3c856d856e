//! The differential suite: one corpus of probes (`sim/tests/differential/*.yaml`) run against
//! the embedded cluster and against the real lab (`scripts/real-lab`: Kubernetes and Argo CD
//! built from their own modules), their answers compared after masking what always differs
//! (`differential/mask.rs`). Every difference is either fixed in the embedded cluster or listed
//! with its reason in `docs/sim-fidelity.md` ("Measured against the real lab"); the suite fails
//! on any other, and on a listed one that no longer differs. It writes what it saw to
//! `target/differential/report.md`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]

// The shared harness: this suite uses only the cluster start-up and kubectl's path.
#[allow(dead_code, unused_imports)]
mod common;

mod differential {
    pub mod corpus;
    pub mod listed;
    pub mod mask;
    pub mod run;
    pub mod target;
}

use differential::{corpus, listed, run};

/// Runs without the real lab: the corpus loads, its ids are unique, and every listed difference
/// names a probe that exists.
#[test]
fn the_corpus_loads_and_every_listed_difference_names_a_probe() {
    let groups = corpus::load();
    assert!(!groups.is_empty(), "no probes in sim/tests/differential");
    let mut ids = std::collections::BTreeSet::new();
    for g in &groups {
        for id in g.probe_ids() {
            assert!(ids.insert(id.clone()), "probe {id} is defined twice");
        }
    }
    // The groups that make a CRD run alone: discovery by the others would race them.
    let alone: Vec<&str> = groups
        .iter()
        .filter(|g| g.group.changes_discovery())
        .map(|g| g.id.as_str())
        .collect();
    for crd_group in [
        "survey-named/crd",
        "survey-helm/chart-crds",
        "survey-argocd/crd-in-app",
    ] {
        assert!(
            alone.contains(&crd_group),
            "{crd_group} runs alone: {alone:?}"
        );
    }
    assert!(
        !alone.contains(&"survey-clients/kr8s"),
        "only the groups that change discovery run alone: {alone:?}"
    );
    let groups_ids: std::collections::BTreeSet<String> =
        groups.iter().map(|g| format!("{}/*", g.id)).collect();
    let listed = listed::read();
    for (id, line) in &listed {
        assert!(
            ids.contains(id) || groups_ids.contains(id),
            "docs/sim-fidelity.md:{line} lists `{id}`, which no probe or group of sim/tests/differential is"
        );
    }
    // The README's counts are the corpus's: every probe not listed answers the same (the run
    // against the real lab fails otherwise).
    let differing = ids
        .iter()
        .filter(|id| listed::lists(&listed, id).is_some())
        .count();
    let readme = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"),
    )
    .unwrap();
    let number_before = |marker: &str| -> usize {
        let at = readme
            .find(marker)
            .unwrap_or_else(|| panic!("README.md says {marker:?} after the probe count"));
        let digits: String = readme[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit() || *c == ',')
            .filter(char::is_ascii_digit)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        digits.parse().unwrap()
    };
    assert_eq!(
        (
            number_before(" probes**"),
            number_before("** answer the same")
        ),
        (ids.len(), ids.len() - differing),
        "README.md's differential counts (probes, same) are not the corpus's"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs the real lab: scripts/real-lab up; scripts/test runs it"]
async fn the_embedded_cluster_answers_as_the_real_lab_does() {
    // CAPA_DIFF_ONLY=prefix runs the groups whose id starts with it (while writing probes).
    let only = std::env::var("CAPA_DIFF_ONLY").unwrap_or_default();
    let groups: Vec<_> = corpus::load()
        .into_iter()
        .filter(|g| g.id.starts_with(&only))
        .collect();
    let listed = listed::read();
    let mut outcomes = run::both(groups.clone()).await;
    // A difference not listed gets a second look: its group runs again on both clusters.
    let again = run::unlisted_groups(&outcomes, &listed);
    let settled = if again.is_empty() {
        Vec::new()
    } else {
        let second = run::both(
            groups
                .into_iter()
                .filter(|g| again.contains(&g.id))
                .collect(),
        )
        .await;
        run::take_second_look(&mut outcomes, second)
    };
    let report = run::report(&outcomes, &listed, &settled);
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/differential");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("report.md"), &report.text).unwrap();
    println!("{}", report.summary);
    // Listed differences whose probes did not run this time are not judged stale.
    assert!(
        report.problems.is_empty(),
        "{}\n\n{}\n(the whole report: target/differential/report.md)",
        report.summary,
        report.problems.join("\n\n")
    );
}
