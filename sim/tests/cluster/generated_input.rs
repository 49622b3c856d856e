//! Generated bad input: proptest mutates JSON and YAML bodies, paths, query strings and headers
//! and throws them at the API server over TLS on loopback. Whatever it sends, the server answers
//! in time (no panic, no hang), every error is a `Status` with the response's code, and a
//! refused write leaves the store as it was. Bounded in cases and in time.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Value, json};

use super::raw_http::{Client, Request};
use crate::common::Lab;

const CASES: u32 = 256;
/// The whole run stops generating after this long, whatever the case count.
const BUDGET: Duration = Duration::from_secs(90);

/// Objects no controller writes, so a refused request can be checked to have changed nothing.
const QUIET_PLURALS: &[&str] = &["configmaps", "secrets", "serviceaccounts", "appprojects"];

/// A target: its collection path, an existing item's name, and a valid body to mutate.
fn targets() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        (
            "/api/v1/namespaces/default/configmaps",
            "seed",
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "seed", "labels": {"a": "b"}}, "data": {"k": "v"}}),
        ),
        (
            "/api/v1/namespaces/default/secrets",
            "seed",
            json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "seed"}, "data": {"k": "dg=="}, "type": "Opaque"}),
        ),
        (
            "/api/v1/namespaces/default/serviceaccounts",
            "seed",
            json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "seed"}}),
        ),
        (
            "/apis/argoproj.io/v1alpha1/namespaces/argocd/appprojects",
            "seed",
            json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "AppProject", "metadata": {"name": "seed"}, "spec": {"sourceRepos": ["*"], "destinations": [{"server": "*", "namespace": "*"}]}}),
        ),
        // Creates of kinds the controllers act on go to a namespace that does not exist: the
        // body is decoded and checked in full, and nothing is ever stored.
        (
            "/apis/apps/v1/namespaces/nowhere/deployments",
            "seed",
            serde_json::from_str::<Value>(&deployment()).unwrap(),
        ),
        (
            "/apis/argoproj.io/v1alpha1/namespaces/nowhere/applications",
            "seed",
            json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Application", "metadata": {"name": "seed"},
                   "spec": {"project": "default", "source": {"repoURL": "x", "path": "p"}, "destination": {"namespace": "d"},
                            "syncPolicy": {"automated": {"selfHeal": true}}}}),
        ),
    ]
}

fn deployment() -> String {
    let yaml = crate::common::WEB
        .replace("name: web", "name: seed")
        .replace("namespace: default", "namespace: nowhere");
    let v: Value = serde_saphyr::from_str(&yaml).unwrap();
    v.to_string()
}

/// One change to a JSON body, of the kinds a hand-written manifest goes wrong in.
#[derive(Debug, Clone)]
struct Change {
    key: String,
    scalar: Value,
    how: usize,
    seed: u64,
}

impl Change {
    fn apply(&self, v: &mut Value) {
        let spot = pick(v, self.seed);
        match self.how {
            // An unknown field, anywhere.
            0 | 1 => {
                if let Some(o) = spot.as_object_mut() {
                    o.insert(self.key.clone(), self.scalar.clone());
                }
            }
            // A value of another type.
            2 | 3 => *spot = self.scalar.clone(),
            // A field removed.
            4 => {
                if let Some(o) = spot.as_object_mut()
                    && let Some(k) = o.keys().next().cloned()
                {
                    o.shift_remove(&k);
                }
            }
            // Deep nesting.
            _ => {
                let mut deep = self.scalar.clone();
                for _ in 0..40 {
                    deep = json!({ self.key.clone(): deep });
                }
                *spot = deep;
            }
        }
    }
}

fn change() -> impl Strategy<Value = Change> {
    let scalar = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        ".{0,12}".prop_map(Value::String),
        Just(json!([])),
        Just(json!({})),
        Just(json!([[[[[[[[[[]]]]]]]]]])),
    ];
    ("[a-zA-Z$.]{1,8}", scalar, 0usize..6, any::<u64>()).prop_map(|(key, scalar, how, seed)| {
        Change {
            key,
            scalar,
            how,
            seed,
        }
    })
}

/// A spot in the value chosen by `seed`: walks down through objects and arrays.
fn pick(v: &mut Value, mut seed: u64) -> &mut Value {
    let root: *const Value = v;
    let mut here = v;
    loop {
        let len = match &*here {
            Value::Object(o) => o.len(),
            Value::Array(a) => a.len(),
            _ => 0,
        };
        // Never the root itself: a body that is not an object stops at the first check.
        if len == 0 || (seed.is_multiple_of(3) && !std::ptr::eq(here, root)) {
            return here;
        }
        let i = (seed as usize / 3) % len;
        seed /= 7;
        here = match here {
            Value::Object(o) => o.values_mut().nth(i).expect("index in range"),
            Value::Array(a) => &mut a[i],
            other => return other,
        };
    }
}

/// Byte-level damage: flips, inserts, deletions, truncation, a duplicated key.
fn mutate_bytes(body: Vec<u8>, edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut body = body;
    for &(at, byte, how) in edits {
        if body.is_empty() {
            body.push(byte);
            continue;
        }
        let at = at % body.len();
        match how % 5 {
            0 => body[at] = byte,
            1 => body.insert(at, byte),
            2 => {
                body.remove(at);
            }
            3 => body.truncate(at),
            _ => {
                // Repeat the first key of the object that starts here, if any.
                if let Some(open) = body[at..].iter().position(|b| *b == b'{') {
                    let start = at + open + 1;
                    if let Some(comma) = body[start..].iter().position(|b| *b == b',') {
                        let pair = body[start..start + comma + 1].to_vec();
                        body.splice(start..start, pair);
                    }
                }
            }
        }
    }
    body
}

fn percent(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Query parameters, mostly valid (so bodies get as far as decoding), sometimes not.
fn query() -> impl Strategy<Value = String> {
    let garbage = || "[ -~]{0,10}".boxed();
    let pair = prop_oneof![
        4 => prop_oneof![Just("Strict"), Just("Warn"), Just("Ignore")]
            .prop_map(|v| format!("fieldValidation={v}")),
        1 => garbage().prop_map(|v| format!("fieldValidation={}", percent(&v))),
        2 => "[a-z-]{1,12}".prop_map(|v| format!("fieldManager={v}")),
        1 => Just("dryRun=All".to_string()),
        1 => Just("force=true".to_string()),
        1 => garbage().prop_map(|v| format!("labelSelector={}", percent(&v))),
        1 => garbage().prop_map(|v| format!("fieldSelector={}", percent(&v))),
        1 => garbage().prop_map(|v| format!("resourceVersion={}", percent(&v))),
        1 => garbage().prop_map(|v| format!("{}={}", percent(&v), percent(&v))),
    ];
    prop::collection::vec(pair, 0..3).prop_map(|pairs| pairs.join("&"))
}

fn request() -> impl Strategy<Value = Request> {
    let method = prop::sample::select(vec![
        "GET", "POST", "POST", "PUT", "PATCH", "PATCH", "DELETE",
    ]);
    let target = 0usize..6;
    let path_damage = prop::option::weighted(0.1, "[a-zA-Z0-9/%._~-]{0,12}");
    let content_type = prop::sample::select(vec![
        "application/json",
        "application/json",
        "application/yaml",
        "application/merge-patch+json",
        "application/strategic-merge-patch+json",
        "application/json-patch+json",
        "application/apply-patch+yaml",
        "application/vnd.kubernetes.protobuf",
        "text/plain",
        "",
    ]);
    let headers = prop::collection::vec(("[A-Za-z][A-Za-z0-9-]{0,10}", "[ -~]{0,20}"), 0..3);
    let as_yaml = any::<bool>();
    let edits = prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 0..3);
    let damaged = prop::bool::weighted(0.3);
    (
        (method, target, path_damage),
        query(),
        (content_type, headers),
        (prop::collection::vec(change(), 0..3), as_yaml, damaged, edits),
    )
        .prop_map(
            |((method, target, damage), query, (content_type, headers), (changes, as_yaml, damaged, edits))| {
                let (collection, name, mut body) = targets().swap_remove(target);
                let mut path = match method {
                    "POST" | "GET" => collection.to_string(),
                    _ => format!("{collection}/{name}"),
                };
                if let Some(d) = damage {
                    path.push_str(&d);
                }
                for change in &changes {
                    change.apply(&mut body);
                }
                if content_type.contains("json-patch") {
                    body = json!([{"op": "replace", "path": "/metadata/labels", "value": body["metadata"]["labels"].clone()}, {"op": "add", "path": "/data", "value": body}]);
                }
                let text = if as_yaml && !content_type.contains("json") {
                    serde_saphyr::to_string(&body).unwrap_or_default().into_bytes()
                } else {
                    body.to_string().into_bytes()
                };
                Request {
                    method,
                    path,
                    query,
                    content_type: content_type.to_string(),
                    headers: headers
                        .into_iter()
                        .filter(|(k, _)| !matches!(k.to_ascii_lowercase().as_str(), "content-length" | "transfer-encoding" | "host" | "connection" | "authorization" | "content-type" | "expect" | "upgrade" | "te"))
                        .collect(),
                    body: if damaged { mutate_bytes(text, &edits) } else { text },
                }
            },
        )
}

/// The quiet objects' resourceVersions: what a refused request must leave alone.
fn quiet_snapshot(lab: &Lab) -> Vec<(String, String, String, Value)> {
    let mut out: Vec<_> = lab
        .handle
        .objects()
        .into_iter()
        .filter(|o| QUIET_PLURALS.contains(&o.plural))
        .map(|o| {
            (
                o.plural.to_string(),
                o.namespace,
                o.name,
                o.object["metadata"]["resourceVersion"].clone(),
            )
        })
        .collect();
    out.sort_by(|a, b| (&a.0, &a.1, &a.2).cmp(&(&b.0, &b.1, &b.2)));
    out
}

fn check(
    reply: &(u16, Vec<u8>),
    before: &[(String, String, String, Value)],
    after: &[(String, String, String, Value)],
    r: &Request,
) -> Result<(), TestCaseError> {
    let (code, body) = reply;
    if *code < 400 {
        return Ok(());
    }
    let status: Value = serde_json::from_slice(body).map_err(|e| {
        TestCaseError::fail(format!(
            "{code} without a JSON Status ({e}): {:?}",
            String::from_utf8_lossy(body)
        ))
    })?;
    prop_assert_eq!(&status["kind"], "Status", "{}", status);
    prop_assert_eq!(&status["status"], "Failure", "{}", status);
    prop_assert_eq!(
        status["code"].as_u64(),
        Some(u64::from(*code)),
        "{}",
        status
    );
    prop_assert!(
        status["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{}",
        status
    );
    prop_assert!(
        before == after,
        "refused {} {} changed the store:\n{before:?}\n{after:?}",
        r.method,
        r.path
    );
    Ok(())
}

#[test]
fn generated_requests_always_get_a_timely_status_and_refusals_change_nothing() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let lab = rt.block_on(Lab::start());
    let client = Client::new(&lab);
    // The items PUT, PATCH and DELETE aim at.
    for (collection, _, body) in targets()
        .into_iter()
        .filter(|(c, _, _)| !c.contains("nowhere"))
    {
        let r = Request {
            method: "POST",
            path: collection.into(),
            query: String::new(),
            content_type: "application/json".into(),
            headers: vec![],
            body: body.to_string().into_bytes(),
        };
        let (code, body) = rt.block_on(client.send(&r)).unwrap();
        assert_eq!(code, 201, "{}", String::from_utf8_lossy(&body));
    }
    let started = Instant::now();
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        max_shrink_iters: 64,
        ..Config::default()
    });
    let result = runner.run(&request(), |r| {
        if started.elapsed() > BUDGET {
            return Ok(());
        }
        let before = quiet_snapshot(&lab);
        let reply = rt.block_on(client.send(&r)).map_err(TestCaseError::fail)?;
        let after = quiet_snapshot(&lab);
        check(&reply, &before, &after, &r)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    // Still serving after all of that.
    let alive = Request {
        method: "GET",
        path: "/api/v1/namespaces/default/configmaps/seed".into(),
        query: String::new(),
        content_type: String::new(),
        headers: vec![],
        body: vec![],
    };
    let (code, _) = rt.block_on(client.send(&alive)).unwrap();
    assert!(code == 200 || code == 404, "{code}");
}
