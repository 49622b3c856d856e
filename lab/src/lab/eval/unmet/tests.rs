//! How conditions are judged and said, on hand-built facts.
use super::judge::rolled_out;
use super::subset::Missing;
use super::*;
use serde_json::{Value, json};

fn deployment() -> ObjectKey {
    ObjectKey::try_from("ns/Deployment/d".to_string()).unwrap()
}

#[test]
fn the_first_missing_part_is_named_with_its_path() {
    let spec = json!({"source": {"helm": {"parameters": [{"name": "greeting", "value": "x"}]}}});
    let missing = |at: &str, want: Value, have: Option<Value>| {
        Some(Missing {
            at: at.into(),
            want,
            have,
        })
    };
    assert_eq!(
        not_held(
            &spec,
            &json!({"source": {"helm": {"valuesObject": {"replicaCount": 3}}}})
        ),
        missing("source.helm.valuesObject", json!({"replicaCount": 3}), None)
    );
    // The parameter of the same name is there: its value is what differs.
    assert_eq!(
        not_held(
            &spec,
            &json!({"source": {"helm": {"parameters": [{"name": "greeting", "value": "from-parameter"}]}}})
        ),
        missing(
            "source.helm.parameters[0].value",
            json!("from-parameter"),
            Some(json!("x"))
        )
    );
    // Nothing like it in the list: the list lacks it.
    assert_eq!(
        not_held(
            &spec,
            &json!({"source": {"helm": {"parameters": [{"name": "other", "value": "y"}]}}})
        ),
        missing(
            "source.helm.parameters[]",
            json!({"name": "other", "value": "y"}),
            None
        )
    );
    assert!(holds(&json!({"n": 3}), &json!({"n": "3"})));
    assert!(holds(&json!({"n": 3.0}), &json!({"n": 3})));
}

/// A near miss in an Application's spec is named as it stands, not only as missing: lesson 7's
/// pointer written as a field path (a walk's mistake, which the checklist only called absent),
/// an option in other case or spacing, and the entry for another kind.
#[test]
fn a_near_miss_in_a_list_is_named_with_what_stands_there() {
    let want = json!({
        "ignoreDifferences": [{"group": "apps", "kind": "Deployment", "jsonPointers": ["/spec/replicas"]}],
        "syncPolicy": {"syncOptions": ["RespectIgnoreDifferences=true", "CreateNamespace=true"]},
    });
    let spec = |pointers: Value, options: Value| {
        json!({
            "ignoreDifferences": [
                {"group": "", "kind": "Service", "jsonPointers": ["/spec/ports"]},
                {"group": "apps", "kind": "Deployment", "jsonPointers": pointers},
            ],
            "syncPolicy": {"syncOptions": options},
        })
    };
    let good = json!(["RespectIgnoreDifferences=true", "CreateNamespace=true"]);
    let m = not_held(&spec(json!(["spec.replicas"]), good.clone()), &want).unwrap();
    assert_eq!(
        (m.at.as_str(), m.have),
        (
            "ignoreDifferences[1].jsonPointers[0]",
            Some(json!("spec.replicas"))
        )
    );
    let m = not_held(
        &spec(
            json!(["/spec/replicas"]),
            json!(["CreateNamespace=true", "RespectIgnoreDifferences = True"]),
        ),
        &want,
    )
    .unwrap();
    assert_eq!(
        (m.at.as_str(), m.have),
        (
            "syncPolicy.syncOptions[1]",
            Some(json!("RespectIgnoreDifferences = True"))
        )
    );
    let m = not_held(&spec(json!(["/spec/template"]), good.clone()), &want).unwrap();
    assert_eq!(
        (m.at.as_str(), m.have),
        ("ignoreDifferences[1].jsonPointers[]", None),
        "another pointer is not a near miss of this one"
    );
    assert_eq!(
        not_held(&spec(json!(["/spec/replicas"]), good), &want),
        None
    );
    // Said to the learner with both, in every language.
    let unmet = Unmet::AppSpecLacks {
        app: "src-kust".into(),
        at: "ignoreDifferences[1].jsonPointers[0]".into(),
        want: "\"/spec/replicas\"".into(),
        have: Some("\"spec.replicas\"".into()),
    };
    for &lang in crate::i18n::Lang::all() {
        let said = crate::i18n::Say::say(&unmet, lang);
        assert!(
            said.contains("\"spec.replicas\"") && said.contains("\"/spec/replicas\""),
            "{said}"
        );
    }
}

#[test]
fn a_rollout_is_done_only_when_every_replica_is_ready_on_the_image() {
    let d = |image: &str, ready: i64| {
        json!({"metadata": {"generation": 2}, "spec": {"replicas": 2, "template": {"spec": {"containers": [{"image": image}]}}},
               "status": {"observedGeneration": 2, "replicas": 2, "updatedReplicas": 2, "readyReplicas": ready}})
    };
    let o = deployment();
    assert_eq!(
        rolled_out(&o, &d("nginx:1.28-alpine", 2), "nginx:1.28-alpine"),
        None
    );
    assert_eq!(
        rolled_out(&o, &d("nginx:1.28-alpine", 1), "nginx:1.28-alpine")
            .unwrap()
            .to_string(),
        "ns/Deployment/d: 1 of 2 Pods ready on nginx:1.28-alpine (2 updated, 2 in all): wait for the rollout"
    );
    assert_eq!(
        rolled_out(&o, &d("nginx:1.27-alpine", 2), "nginx:1.28-alpine")
            .unwrap()
            .to_string(),
        "ns/Deployment/d: its Pods run nginx:1.27-alpine, not nginx:1.28-alpine"
    );
}

#[test]
fn a_step_that_needs_time_holds_only_once_the_time_has_passed() {
    let scaled = json!({"spec": {"replicas": 4}, "metadata": {"managedFields": [
        {"manager": "kubectl", "operation": "Update", "subresource": "scale",
         "time": "2026-03-01T10:00:00Z", "fieldsV1": {"f:spec": {"f:replicas": {}}}}]}});
    let cond: DoneWhen = serde_saphyr::from_str(
        "held-after-scale: {object: ns/Deployment/d, seconds: 40, condition: {object-field: {object: ns/Deployment/d, path: spec.replicas, equals: 4}}}",
    )
    .unwrap();
    let mut live = super::super::facts::LiveFacts::default();
    live.objects
        .insert("ns/Deployment/d".parse().unwrap(), scaled);
    assert_eq!(cond.unmet(&live.facts()), Some(Unmet::NoClock));
    live.now = "2026-03-01T10:00:17Z".parse().ok();
    assert_eq!(cond.unmet(&live.facts()), Some(Unmet::Holding { left: 23 }));
    assert_eq!(
        cond.unmet(&live.facts()).unwrap().to_string(),
        "holds; 23 s of the wait still to go"
    );
    live.now = "2026-03-01T10:00:41Z".parse().ok();
    assert!(cond.holds(&live.facts()));
    assert_eq!(
        cond.since(&live.facts()),
        "2026-03-01T10:00:40Z".parse().ok()
    );
    live.objects
        .get_mut(&"ns/Deployment/d".parse().unwrap())
        .unwrap()["spec"]["replicas"] = json!(2);
    assert!(
        matches!(cond.unmet(&live.facts()), Some(Unmet::FieldIs { .. })),
        "put back: it no longer holds"
    );
}

/// src-helm with `status`, and an operation on `operation` when there is one.
fn app(status: serde_json::Value, operation: Option<&str>) -> serde_json::Value {
    let mut json = json!({
        "metadata": {"name": "src-helm", "namespace": "argocd"},
        "spec": {"source": {"repoURL": "git://gitd/src.git", "path": "charts/web"}},
        "status": status,
    });
    if let Some(rev) = operation {
        json["operation"] = json!({"sync": {"revision": rev}});
    }
    json
}

/// An app that is not settled at main is said with its cause and the one action that helps:
/// a render error (fix Git), a retry of another commit (end it), a sync of main (wait), main not
/// read yet (hard refresh), OutOfSync with nothing syncing (sync), or health (wait, look).
#[test]
fn an_unsettled_app_names_its_cause_and_the_action_that_fits_it() {
    let main = "a".repeat(40);
    let old = "b".repeat(40);
    let settled_at = |rev: &str| json!({"sync": {"status": "Synced", "revision": rev}, "health": {"status": "Healthy"}});
    let cases = [
        (
            app(
                json!({"sync": {"status": "Unknown", "revision": main}, "health": {"status": "Healthy"},
                "conditions": [{"type": "ComparisonError", "message": "Failed to load target state: rpc error: code = Unknown desc = failed running helm: `helm template .` failed exit status 1: Error: open charts/web/values-prd.yaml: no such file or directory"}]}),
                None,
            ),
            "cannot render it: open charts/web/values-prd.yaml: no such file or directory. Fix what that names",
        ),
        (
            app(
                json!({"sync": {"status": "OutOfSync", "revision": main}, "health": {"status": "Healthy"},
                "operationState": {"phase": "Running", "retryCount": 2,
                    "operation": {"sync": {"revision": old}}}}),
                Some(&old),
            ),
            "keeps retrying commit bbbbbbb (attempt 3)",
        ),
        (
            app(
                json!({"sync": {"status": "OutOfSync", "revision": main}, "health": {"status": "Healthy"},
                "operationState": {"phase": "Running", "operation": {"sync": {"revision": main}}}}),
                Some(&main),
            ),
            "the sync of main runs now: wait for it",
        ),
        // main's own sync fails and is retried: Argo CD's words and the task's, not "wait".
        (
            app(
                json!({"sync": {"status": "OutOfSync", "revision": main}, "health": {"status": "Missing"},
                "operationState": {"phase": "Running", "retryCount": 1,
                    "message": "one or more synchronization tasks are not valid. Retrying attempt #1 at 3:04PM.",
                    "operation": {"sync": {"revision": main}},
                    "syncResult": {"revision": main, "resources": [
                        {"kind": "Deployment", "name": "src-helm-web", "status": "SyncFailed",
                         "message": "namespaces \"src-helm\" not found"}]}}}),
                Some(&main),
            ),
            "the sync of main fails: one or more synchronization tasks are not valid; Deployment/src-helm-web: namespaces \"src-helm\" not found. Argo CD retries it",
        ),
        // ... and once its retries ran out (or there were none).
        (
            app(
                json!({"sync": {"status": "OutOfSync", "revision": main}, "health": {"status": "Missing"},
                "operationState": {"phase": "Failed",
                    "message": "one or more objects failed to apply, reason: boom (retried 5 times).",
                    "operation": {"sync": {"revision": main}}}}),
                None,
            ),
            "the last sync of main failed: one or more objects failed to apply, reason: boom (retried 5 times). Argo CD does not sync a failed commit again by itself",
        ),
        (
            app(settled_at(&old), None),
            "has not read main yet: hard-refresh src-helm",
        ),
        (
            app(
                json!({"sync": {"status": "OutOfSync", "revision": main}, "health": {"status": "Healthy"}}),
                None,
            ),
            "nothing syncs it: give it an automated syncPolicy (spec.syncPolicy.automated)",
        ),
        (
            {
                let mut automated = app(
                    json!({"sync": {"status": "OutOfSync", "revision": main}, "health": {"status": "Healthy"}}),
                    None,
                );
                automated["spec"]["syncPolicy"] = json!({"automated": {}});
                automated
            },
            "its automated sync has not started yet",
        ),
        (
            app(
                json!({"sync": {"status": "Synced", "revision": main}, "health": {"status": "Progressing"}}),
                None,
            ),
            "synced, not Healthy yet",
        ),
    ];
    let cond: DoneWhen = serde_saphyr::from_str("synced: {app: src-helm}").unwrap();
    for (json, said) in cases {
        let mut live = super::super::facts::LiveFacts::default();
        live.git.repos.insert("src".into(), Some(main.clone()));
        live.apps.insert(
            "src-helm".into(),
            super::super::facts::AppFacts::from_json(&json).unwrap(),
        );
        let unmet = cond.unmet(&live.facts()).expect("not settled");
        assert!(matches!(unmet, Unmet::NotSettled { .. }), "{unmet:?}");
        let words = unmet.to_string();
        assert!(words.contains(said), "{said:?} in {words:?}");
        // Only commands the lab's shell has: no argocd CLI there.
        assert!(!words.contains("argocd app"), "{words}");
    }
}

#[test]
fn an_app_settled_at_main_is_settled() {
    let main = "a".repeat(40);
    let settled =
        json!({"sync": {"status": "Synced", "revision": main}, "health": {"status": "Healthy"}});
    let cond: DoneWhen = serde_saphyr::from_str("synced: {app: src-helm}").unwrap();
    let mut live = super::super::facts::LiveFacts::default();
    live.git.repos.insert("src".into(), Some(main.clone()));
    live.apps.insert(
        "src-helm".into(),
        super::super::facts::AppFacts::from_json(&app(settled, None)).unwrap(),
    );
    assert_eq!(cond.unmet(&live.facts()), None, "settled at main");
}

/// A file Git holds that does not parse is said as that, with where, not as a missing value.
#[test]
fn a_file_in_git_that_does_not_parse_is_said_as_not_yaml() {
    let cond: DoneWhen = serde_saphyr::from_str(
        "git-value: {repo: src, file: waves/config.yaml, path: data.mode, equals: green}",
    )
    .unwrap();
    let mut live = super::super::facts::LiveFacts::default();
    let mut with = |text: &str| {
        live.git
            .files
            .insert(("src".into(), "waves/config.yaml".into()), text.into());
        cond.unmet(&live.facts())
    };
    let broken = with("data:\n  mode: green\n mode: blue\n").unwrap();
    assert!(matches!(broken, Unmet::GitNotYaml { .. }), "{broken:?}");
    assert!(
        broken.to_string().contains("is not valid YAML (line"),
        "{broken}"
    );
    assert!(matches!(
        with("data:\n  mode: blue\n"),
        Some(Unmet::GitDiffers { .. })
    ));
    assert_eq!(with("data:\n  mode: green\n"), None);
}

/// A value the lab writes as text, pushed unquoted (`sync-wave: -1`), is not done however alike
/// it looks: YAML reads a number, which Kubernetes refuses in an annotation, so Argo CD cannot
/// sync it (a walk's lesson 5 ticked its first step on exactly this, the lesson's own listed
/// mistake). Quoted, it is done; a number the lab writes as a number may be written as text.
#[test]
fn a_value_written_as_text_must_be_pushed_as_text() {
    let wave = r#"metadata.annotations["argocd.argoproj.io/sync-wave"]"#;
    let cond = |equals: Value| -> DoneWhen {
        serde_json::from_value(serde_json::json!({"git-value": {
            "repo": "src", "file": "waves/config.yaml", "path": wave, "equals": equals,
        }}))
        .unwrap()
    };
    let judged = |cond: &DoneWhen, text: &str| {
        let mut live = super::super::facts::LiveFacts::default();
        live.git
            .files
            .insert(("src".into(), "waves/config.yaml".into()), text.into());
        cond.unmet(&live.facts())
    };
    let annotated =
        |v: &str| format!("metadata:\n  annotations:\n    argocd.argoproj.io/sync-wave: {v}\n");
    let text = cond(Value::from("-1"));
    for unquoted in ["-1", "true"] {
        let unmet = judged(&text, &annotated(unquoted)).unwrap();
        assert!(matches!(unmet, Unmet::GitNotText { .. }), "{unmet:?}");
        for &lang in crate::i18n::Lang::all() {
            let said = crate::i18n::Say::say(&unmet, lang);
            assert!(said.contains(&format!("\"{unquoted}\"")), "{said}");
        }
    }
    assert_eq!(judged(&text, &annotated("\"-1\"")), None);
    assert_eq!(judged(&text, &annotated("'-1'")), None);
    let number = cond(Value::from(2));
    assert_eq!(judged(&number, &annotated("2")), None);
    assert_eq!(judged(&number, &annotated("\"2\"")), None);
}
