//! How every kind of reason is said: its fact first, and the fact alone gives no advice.
use super::*;
use crate::lab::engine::RunError;
use crate::lab::spec::LessonId;

/// One reason of each kind (the match in `every_kind_is_here` fails to compile when a kind is
/// added and not listed there).
fn one_of_each() -> Vec<Unmet> {
    [git_reasons(), app_reasons(), cluster_reasons()].concat()
}

/// Why Git or the working copy is not as the lab wants.
fn git_reasons() -> Vec<Unmet> {
    let s = |v: &str| v.to_string();
    vec![
        Unmet::NoBareRepo {
            repo: s("capa-src"),
        },
        Unmet::NotCloned {
            repo: s("capa-src"),
        },
        Unmet::NotPushed {
            repo: s("capa-src"),
            path: s("waves/job.yaml"),
        },
        Unmet::PushedWithout {
            repo: s("capa-src"),
            path: s("values.yaml"),
            contains: s("tag"),
        },
        Unmet::NotRemoved {
            repo: s("capa-src"),
            path: s("apps/hello.yaml"),
        },
        Unmet::GitSetsUnwanted {
            repo: s("r"),
            file: s("f.yaml"),
            path: s("a.b"),
            have: s("1"),
        },
        Unmet::GitLacks {
            repo: s("r"),
            file: s("f.yaml"),
            path: s("a.b"),
            want: s("1"),
        },
        Unmet::GitDiffers {
            repo: s("r"),
            file: s("f.yaml"),
            path: s("a.b"),
            have: s("2"),
            want: s("1"),
        },
        Unmet::GitNotText {
            repo: s("r"),
            file: s("f.yaml"),
            path: s("a.b"),
            have: s("-1"),
        },
        Unmet::GitNotYaml {
            repo: s("r"),
            file: s("f.yaml"),
            why: s("bad indent"),
        },
    ]
}

/// Why an Application is not as the lab wants.
fn app_reasons() -> Vec<Unmet> {
    let s = |v: &str| v.to_string();
    let state = AppState {
        app: s("src-waves"),
        sync: s("OutOfSync"),
        health: s("Healthy"),
        at: s("abc1234"),
        main: s("def5678"),
    };
    let settled = |why| Unmet::NotSettled {
        state: state.clone(),
        why,
    };
    let mut all = vec![
        Unmet::NoApp {
            app: s("src-waves"),
        },
        Unmet::AppSpecLacks {
            app: s("a"),
            at: s("source.path"),
            want: s("waves"),
            have: None,
        },
        Unmet::AppSpecLacks {
            app: s("a"),
            at: s("source.path"),
            want: s("waves"),
            have: Some(s("x")),
        },
        Unmet::NotSucceeded {
            app: s("a"),
            phase: s("Failed"),
            at: s("abc"),
            main: s("def"),
        },
        Unmet::NotFailed {
            app: s("a"),
            main: s("def"),
            phase: s("Succeeded"),
            at: s("abc"),
        },
    ];
    all.extend(
        [
            Unsettled::CannotRender { message: s("boom") },
            Unsettled::RetryingOther {
                at: s("abc"),
                attempt: 2,
            },
            Unsettled::SyncFails {
                message: s("boom"),
                retrying: true,
            },
            Unsettled::SyncFails {
                message: s("boom"),
                retrying: false,
            },
            Unsettled::Syncing,
            Unsettled::NotCompared,
            Unsettled::OutOfSync { automated: false },
            Unsettled::OutOfSync { automated: true },
            Unsettled::NotHealthy,
        ]
        .into_iter()
        .map(settled),
    );
    all
}

/// Why the cluster or the evidence is not as the lab wants.
fn cluster_reasons() -> Vec<Unmet> {
    let s = |v: &str| v.to_string();
    vec![
        Unmet::NotInCluster {
            object: s("ns/Job/j"),
        },
        Unmet::OwnedBy {
            object: s("o"),
            path: s("spec.replicas"),
            owner: s("kubectl"),
            manager: s("argocd-controller"),
        },
        Unmet::NoOwner {
            object: s("o"),
            path: s("spec.replicas"),
        },
        Unmet::FieldIs {
            object: s("o"),
            path: s("p"),
            have: s("1"),
            want: s("2"),
        },
        Unmet::FieldMissing {
            object: s("o"),
            path: s("p"),
            want: s("2"),
        },
        Unmet::RunsOtherImage {
            object: s("o"),
            images: s("nginx:1"),
            image: s("nginx:2"),
        },
        Unmet::NotRolledOut {
            object: s("o"),
            image: s("nginx:2"),
            ready: 1,
            want: 2,
            updated: 1,
            total: 3,
        },
        Unmet::NoEvidence {
            file: s("waves.json"),
        },
        Unmet::EvidenceFails {
            file: s("waves.json"),
        },
        Unmet::NotScaled {
            object: s("prod-api"),
        },
        Unmet::Holding { left: 3 },
        Unmet::NoClock,
        Unmet::NotReadYet,
    ]
}

#[test]
fn every_kind_is_here() {
    for u in one_of_each() {
        match u {
            Unmet::NoBareRepo { .. }
            | Unmet::NotCloned { .. }
            | Unmet::NotPushed { .. }
            | Unmet::PushedWithout { .. }
            | Unmet::NotRemoved { .. }
            | Unmet::GitSetsUnwanted { .. }
            | Unmet::GitLacks { .. }
            | Unmet::GitDiffers { .. }
            | Unmet::GitNotText { .. }
            | Unmet::GitNotYaml { .. }
            | Unmet::NoApp { .. }
            | Unmet::AppSpecLacks { .. }
            | Unmet::NotSettled { .. }
            | Unmet::NotSucceeded { .. }
            | Unmet::NotFailed { .. }
            | Unmet::NotInCluster { .. }
            | Unmet::OwnedBy { .. }
            | Unmet::NoOwner { .. }
            | Unmet::FieldIs { .. }
            | Unmet::FieldMissing { .. }
            | Unmet::RunsOtherImage { .. }
            | Unmet::NotRolledOut { .. }
            | Unmet::NoEvidence { .. }
            | Unmet::EvidenceFails { .. }
            | Unmet::NotScaled { .. }
            | Unmet::Holding { .. }
            | Unmet::NoClock
            | Unmet::NotReadYet => {}
        }
    }
}

/// A reason's fact comes first in every language, and alone it gives no advice: a message that
/// adds its own (a prerequisite's "do lesson 5 first") would otherwise give two.
#[test]
fn a_reasons_fact_leads_its_message_and_alone_gives_no_advice() {
    let advice = [
        "kubectl apply",
        "git push",
        "git clone",
        "git init",
        "wait for",
        "wait,",
        "hard-refresh",
        "terminate-op",
        "kubectl scale",
        "fix ",
        "Fix ",
        "commit it",
        "commit and",
        "commit the",
    ];
    let mut with_advice = 0;
    for u in one_of_each() {
        for &lang in Lang::all() {
            let (fact, whole) = (u.fact(lang), u.say(lang));
            assert!(
                !fact.is_empty() && whole.starts_with(&fact),
                "{lang}: {whole:?} / {fact:?}"
            );
            assert!(
                !fact.contains('{'),
                "{lang}: a placeable left unfilled: {fact:?}"
            );
        }
        let fact = u.fact(Lang::FALLBACK);
        let told: Vec<_> = advice.iter().filter(|a| fact.contains(*a)).collect();
        assert!(told.is_empty(), "{fact:?} advises {told:?}");
        if fact != u.say(Lang::FALLBACK) {
            with_advice += 1;
        }
    }
    assert!(
        with_advice >= 20,
        "the reasons that advise keep a fact apart: {with_advice}"
    );
}

/// A missing prerequisite names what is missing and gives one piece of advice: do that lesson.
#[test]
fn a_missing_prerequisite_gives_one_piece_of_advice() {
    for u in one_of_each() {
        for &lang in Lang::all() {
            let error = RunError::Prerequisite {
                lesson: LessonId(6),
                needs: LessonId(5),
                why: Box::new(u.clone()),
            };
            let said = error.say(lang);
            assert!(said.contains(&u.fact(lang)), "{said}");
            if u.fact(lang) != u.say(lang) {
                assert!(!said.contains(&u.say(lang)), "{lang}: advice twice: {said}");
            }
        }
    }
    let en = RunError::Prerequisite {
        lesson: LessonId(6),
        needs: LessonId(5),
        why: Box::new(Unmet::NoApp {
            app: "src-waves".into(),
        }),
    }
    .say(Lang::FALLBACK);
    assert!(
        en.starts_with(
            "lesson 6 needs lesson 5 first: there is no Application src-waves in argocd."
        ) && !en.contains("kubectl apply"),
        "{en}"
    );
}
