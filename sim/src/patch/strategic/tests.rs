//! Unit tests of `strategic`.

use serde_json::json;

use super::*;

fn patched(live: Value, patch: Value) -> Value {
    apply_strategic_merge(&live, &patch).expect("the patch applies")
}

fn refusal(live: &Value, patch: Value) -> String {
    apply_strategic_merge(live, &patch)
        .expect_err("the patch is refused")
        .to_string()
}

fn deployment(containers: Value) -> Value {
    json!({"metadata": {"name": "web", "labels": {"app": "web", "tier": "front"}},
           "spec": {"replicas": 1, "template": {"spec": {"containers": containers}}}})
}

/// A patch body for the pod template's spec, as kubectl nests it for a Deployment.
fn template_patch(pod_spec: Value) -> Value {
    json!({"spec": {"template": {"spec": pod_spec}}})
}

fn containers(obj: &Value) -> &Value {
    &obj["spec"]["template"]["spec"]["containers"]
}

#[test]
fn kubectl_set_image_changes_only_that_image() {
    let live = deployment(json!([{"name": "web", "image": "nginx:1.27", "args": ["-v"]}]));
    // Byte for byte what kubectl sends.
    let body = json!({"spec":{"template":{"spec":{
        "$setElementOrder/containers":[{"name":"web"}],
        "containers":[{"image":"nginx:1.28","name":"web"}]}}}});
    let want = json!([{"name": "web", "image": "nginx:1.28", "args": ["-v"]}]);
    assert_eq!(containers(&patched(live, body)), &want);
}

#[test]
fn client_side_apply_sets_replicas_and_env_and_drops_a_label() {
    let live = deployment(json!([{"name": "web", "image": "nginx",
        "env": [{"name": "MODE", "value": "dev"}, {"name": "LOG", "value": "info"}]}]));
    let body = json!({"metadata":{"labels":{"tier":null}},"spec":{"replicas":3,"template":{
        "spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{
        "$setElementOrder/env":[{"name":"MODE"},{"name":"LOG"}],
        "env":[{"name":"MODE","value":"prod"}],"name":"web"}]}}}});
    let out = patched(live, body);
    assert_eq!(out["metadata"]["labels"], json!({"app": "web"}));
    assert_eq!(out["spec"]["replicas"], json!(3));
    let env = json!([{"name": "MODE", "value": "prod"}, {"name": "LOG", "value": "info"}]);
    assert_eq!(containers(&out)[0]["env"], env);
}

#[test]
fn patch_delete_removes_a_container_and_patch_replace_a_whole_list() {
    let live = deployment(json!([{"name": "web"}, {"name": "sidecar"}, {"name": "debug"}]));
    let body = template_patch(json!({
        "$setElementOrder/containers": [{"name": "web"}, {"name": "debug"}],
        "containers": [{"$patch": "delete", "name": "sidecar"}]}));
    let want = json!([{"name": "web"}, {"name": "debug"}]);
    assert_eq!(containers(&patched(live.clone(), body)), &want);
    let body = template_patch(json!({"containers": [{"name": "only"}, {"$patch": "replace"}]}));
    assert_eq!(containers(&patched(live, body)), &json!([{"name": "only"}]));
}

#[test]
fn retain_keys_switches_a_volume_source_and_a_deployment_strategy() {
    let live = json!({"spec": {
        "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}},
        "template": {"spec": {"volumes": [
            {"name": "data", "emptyDir": {}}, {"name": "tmp", "emptyDir": {}}]}}}});
    let body = json!({"spec":{
        "strategy":{"$retainKeys":["type"],"rollingUpdate":null,"type":"Recreate"},
        "template":{"spec":{"$setElementOrder/volumes":[{"name":"data"},{"name":"tmp"}],
        "volumes":[{"$retainKeys":["configMap","name"],"configMap":{"name":"cfg"},
        "name":"data"}]}}}});
    let out = patched(live, body);
    assert_eq!(out["spec"]["strategy"], json!({"type": "Recreate"}));
    let volumes = json!([{"name": "data", "configMap": {"name": "cfg"}},
                         {"name": "tmp", "emptyDir": {}}]);
    assert_eq!(out["spec"]["template"]["spec"]["volumes"], volumes);
}

#[test]
fn finalizers_merge_as_a_set_and_delete_from_primitive_list() {
    let live = json!({"metadata": {"finalizers": ["a", "b"]}});
    let added = patched(
        live.clone(),
        json!({"metadata": {"finalizers": ["b", "c"]}}),
    );
    assert_eq!(added, json!({"metadata": {"finalizers": ["a", "b", "c"]}}));
    // What client-side apply sends when a finalizer leaves the manifest.
    let body = json!({"metadata": {"$setElementOrder/finalizers": ["a"],
        "$deleteFromPrimitiveList/finalizers": ["b"]}});
    assert_eq!(
        patched(live.clone(), body),
        json!({"metadata": {"finalizers": ["a"]}})
    );
    let body = json!({"metadata": {"$deleteFromPrimitiveList/other": ["b"]}});
    assert_eq!(
        patched(live.clone(), body),
        live,
        "a missing list stays missing"
    );
}

#[test]
fn service_ports_merge_by_port_and_command_is_replaced() {
    let live = json!({"spec": {
        "ports": [{"port": 80, "targetPort": 8080}, {"port": 443, "targetPort": 8443}],
        "containers": [{"name": "web", "command": ["nginx", "-g", "daemon off;"]}]}});
    let body = json!({"spec": {"ports": [{"port": 443, "targetPort": 9443}],
        "containers": [{"name": "web", "command": ["httpd"]}]}});
    let out = patched(live, body);
    let ports = json!([{"port": 80, "targetPort": 8080}, {"port": 443, "targetPort": 9443}]);
    assert_eq!(out["spec"]["ports"], ports);
    assert_eq!(out["spec"]["containers"][0]["command"], json!(["httpd"]));
}

#[test]
fn list_order_follows_the_real_server() {
    let names = |obj: &Value| -> Vec<Value> {
        let items = containers(obj).as_array().cloned().unwrap_or_default();
        items.iter().map(|c| c["name"].clone()).collect()
    };
    // Without $setElementOrder an added item lands before the server's own items, as
    // `kubectl patch` shows on a real cluster; named items follow the patch's order.
    let live = deployment(json!([{"name": "a"}, {"name": "b"}, {"name": "c"}]));
    let add = template_patch(json!({"containers": [{"name": "new"}]}));
    assert_eq!(names(&patched(live.clone(), add)), ["new", "a", "b", "c"]);
    let swap = template_patch(json!({"containers": [{"name": "c"}, {"name": "a"}]}));
    assert_eq!(names(&patched(live, swap)), ["b", "c", "a"]);
    // A server-only item stays before the ordered items it preceded (an upstream case).
    let live = deployment(json!([{"name": "1"}, {"name": "2"}, {"name": "9"},
                                 {"name": "3"}, {"name": "4"}]));
    let order = template_patch(json!({"$setElementOrder/containers":
        [{"name": "2"}, {"name": "1"}, {"name": "4"}, {"name": "3"}]}));
    assert_eq!(names(&patched(live, order)), ["2", "1", "9", "4", "3"]);
}

#[test]
fn map_directives_replace_and_delete() {
    let live = json!({"spec": {"selector": {"app": "web", "tier": "front"},
                               "strategy": {"type": "RollingUpdate"}}});
    let body = json!({"spec": {"selector": {"$patch": "replace", "app": "api"},
        "strategy": {"$patch": "delete"}, "absent": {"$patch": "delete"}}});
    // Like the real server, a deleted map is left empty rather than removed.
    let want = json!({"spec": {"selector": {"app": "api"}, "strategy": {}}});
    assert_eq!(patched(live, body), want);
}

#[test]
fn added_values_carry_no_directives_or_nulls() {
    let live = deployment(json!([{"name": "web"}]));
    let body = template_patch(json!({
        "containers": [{"name": "log", "resources": null,
            "$setElementOrder/env": [{"name": "A"}],
            "env": [{"name": "A", "value": "1"}, {"$patch": "delete", "name": "B"}]}],
        "volumes": [{"name": "v", "$retainKeys": ["emptyDir", "name"], "emptyDir": {}}]}));
    let spec = &patched(live, body)["spec"]["template"]["spec"];
    let log = json!({"name": "log", "env": [{"name": "A", "value": "1"}]});
    assert_eq!(spec["containers"], json!([log, {"name": "web"}]));
    assert_eq!(spec["volumes"], json!([{"name": "v", "emptyDir": {}}]));
}

#[test]
fn malformed_patches_are_refused_with_a_reason() {
    let live = deployment(json!([{"name": "web"}]));
    let cases = [
        (json!([1]), "must be a JSON object"),
        (json!({"$fancy": 1}), r#"unknown directive "$fancy""#),
        (
            json!({"spec": {"$patch": "merge"}}),
            "unknown patch type: merge in map: map[$patch:merge]",
        ),
        (
            template_patch(json!({"containers": [{"image": "x"}]})),
            r#"map: {"image":"x"} does not contain declared merge key: name"#,
        ),
        (
            template_patch(json!({"containers": [{"$patch": "delete"}]})),
            "merge key: name",
        ),
        (
            template_patch(
                json!({"$setElementOrder/containers": [{"name": "a"}, {"name": "b"}],
                "containers": [{"name": "b"}, {"name": "a"}]}),
            ),
            "doesn't match $setElementOrder/containers",
        ),
        (
            json!({"spec": {"strategy": {"$retainKeys": ["type"], "rollingUpdate": {}}}}),
            "doesn't match retainKeys list in spec.strategy",
        ),
        (
            json!({"spec": {"selector": {"$retainKeys": []}}}),
            "not allowed in spec.selector",
        ),
        (
            json!({"spec": {"$setElementOrder/replicas": [], "replicas": 2}}),
            "must be a list",
        ),
        (
            json!({"metadata": {"$deleteFromPrimitiveList/finalizers": "a"}}),
            "must be a list",
        ),
    ];
    for (body, reason) in cases {
        let refused = refusal(&live, body.clone());
        assert!(
            refused.contains(reason),
            "{body} was refused with {refused:?}"
        );
    }
    let live = json!({"metadata": {"finalizers": ["a"]}});
    let set_of_maps = json!({"metadata": {"finalizers": [{"a": 1}]}});
    assert!(refusal(&live, set_of_maps).contains("cannot merge list metadata.finalizers"));
}

#[test]
fn odd_shapes_let_the_patch_win() {
    let live = json!({"spec": {"containers": {"name": "web"}, "selector": "app=web"}});
    let body = json!({"spec": {"containers": [{"name": "web"}], "selector": {"app": "web"}}});
    assert_eq!(patched(live, body.clone()), body);
    let fresh = patched(json!("not an object"), json!({"a": {"b": null, "c": 1}}));
    assert_eq!(fresh, json!({"a": {"c": 1}}));
    // Live items without the merge key are kept, never matched.
    let live = json!({"spec": {"containers": ["stray", {"image": "x"}, {"name": "web"}]}});
    let body = json!({"spec": {"containers": [{"name": "web", "image": "y"}]}});
    let want = json!([{"name": "web", "image": "y"}, "stray", {"image": "x"}]);
    assert_eq!(patched(live, body)["spec"]["containers"], want);
    // Go decodes every number as float64, so port 80 finds port 80.0.
    let live = json!({"spec": {"ports": [{"port": 80.0, "name": "http"}]}});
    let body = json!({"spec": {"ports": [{"port": 80, "name": "web"}]}});
    assert_eq!(
        patched(live, body)["spec"]["ports"],
        json!([{"port": 80, "name": "web"}])
    );
}

#[test]
fn no_shape_panics_or_leaks_a_directive() {
    fn leaks(v: &Value) -> bool {
        match v {
            Value::Object(m) => m.iter().any(|(k, v)| k.starts_with('$') || leaks(v)),
            Value::Array(items) => items.iter().any(leaks),
            _ => false,
        }
    }
    let shapes = [
        json!(null),
        json!(1),
        json!("s"),
        json!([]),
        json!([1, "a", null]),
        json!([{"name": 1}, {}, [2]]),
        json!({}),
        json!({"name": "x", "$patch": "delete"}),
        json!([{"$patch": "replace"}, {"name": "y", "a": null}]),
        json!({"$retainKeys": "x"}),
        json!([{"name": "z", "$patch": "delete"}]),
        json!({"$patch": 3}),
    ];
    let fields = [
        "containers",
        "finalizers",
        "command",
        "strategy",
        "$retainKeys",
        "$setElementOrder/containers",
        "$deleteFromPrimitiveList/finalizers",
    ];
    for field in fields {
        // The field name (without a directive prefix) stays the same in live and patch.
        let live_field = field
            .rsplit('/')
            .next()
            .unwrap_or(field)
            .trim_start_matches('$');
        for live in &shapes {
            let live = json!({"metadata": {live_field: live}, "spec": {live_field: live}});
            // Live objects never hold directives; only the patch can bring them.
            if leaks(&live) {
                continue;
            }
            for patch in &shapes {
                let patch = json!({"metadata": {field: patch}, "spec": {field: patch}});
                if let Ok(out) = apply_strategic_merge(&live, &patch) {
                    assert!(!leaks(&out), "{patch} on {live} gave {out}");
                }
            }
        }
    }
}
