//! The codec against objects of every served built-in kind, a body kubectl 1.35 really sent,
//! and broken input (which must come back as an error, never a panic).

use serde_json::{Value, json};

use super::envelope::MAGIC;
use super::{ProtoError, can_encode, decode, encode, watch_frame};
use crate::kinds::TYPES;

mod cluster_fixtures;
mod fixtures;
mod more_fixtures;
mod policy_fixtures;
mod storage_fixtures;

/// The object as a Go client reads it: a null field and a missing one are the same zero value,
/// so the encoder leaves nulls out.
fn without_nulls(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

fn round_trip(obj: &Value) -> Value {
    let bytes = encode(obj).unwrap_or_else(|e| panic!("encode {}: {e}", obj["kind"]));
    assert!(bytes.starts_with(&MAGIC));
    decode(&bytes).unwrap_or_else(|e| panic!("decode {}: {e}", obj["kind"]))
}

#[test]
fn every_built_in_kind_survives_a_round_trip_unchanged() {
    let all = fixtures::objects();
    for ty in TYPES.iter().filter(|t| t.builtin) {
        let obj = all
            .iter()
            .find(|o| o["kind"] == ty.kind && o["apiVersion"] == ty.api_version())
            .unwrap_or_else(|| panic!("no fixture for {} {}", ty.api_version(), ty.kind));
        assert_eq!(round_trip(obj), without_nulls(obj), "{}", ty.kind);
    }
    for obj in all.iter().filter(|o| {
        !TYPES
            .iter()
            .any(|t| o["kind"] == t.kind && o["apiVersion"] == t.api_version())
    }) {
        assert_eq!(round_trip(obj), without_nulls(obj), "{}", obj["kind"]);
    }
}

#[test]
fn lists_round_trip_with_their_items() {
    let all = fixtures::objects();
    let pods: Vec<&Value> = all.iter().filter(|o| o["kind"] == "Pod").collect();
    let list = json!({"kind": "PodList", "apiVersion": "v1", "metadata": {"resourceVersion": "42"}, "items": pods});
    let back = round_trip(&list);
    assert_eq!(back["metadata"]["resourceVersion"], "42");
    // Items carry no type fields on the wire, as on a real server.
    let mut expected = without_nulls(pods[0]);
    expected.as_object_mut().unwrap().remove("kind");
    expected.as_object_mut().unwrap().remove("apiVersion");
    assert_eq!(back["items"][0], expected);
}

#[test]
fn custom_resources_and_tables_have_no_protobuf_form() {
    for ty in TYPES {
        assert_eq!(
            can_encode(&ty.api_version(), ty.kind),
            ty.builtin,
            "{}",
            ty.kind
        );
        // Reviews are answered one at a time: they have no list.
        let list = format!("{}List", ty.kind);
        let listed = ty.builtin && !ty.create_only;
        assert_eq!(can_encode(&ty.api_version(), &list), listed, "{list}");
    }
    assert!(can_encode("v1", "Status"));
    assert!(can_encode("meta.k8s.io/v1", "PartialObjectMetadataList"));
    assert!(can_encode("autoscaling/v1", "Scale"));
    assert!(!can_encode("meta.k8s.io/v1", "Table"));
    assert!(!can_encode("v1", "../etc"));
    let app = json!({"kind": "Application", "apiVersion": "argoproj.io/v1alpha1", "metadata": {"name": "a"}});
    assert!(matches!(encode(&app), Err(ProtoError::UnknownKind { .. })));
}

/// `kubectl create namespace demo`, as kubectl 1.35.2 sent it (from `kubectl -v=8`): every
/// non-pointer field written even when empty, the zero creationTimestamp included.
const KUBECTL_CREATE_NAMESPACE: &[u8] = &[
    0x6b, 0x38, 0x73, 0x00, 0x0a, 0x0f, 0x0a, 0x02, 0x76, 0x31, 0x12, 0x09, 0x4e, 0x61, 0x6d, 0x65,
    0x73, 0x70, 0x61, 0x63, 0x65, 0x12, 0x1c, 0x0a, 0x14, 0x0a, 0x04, 0x64, 0x65, 0x6d, 0x6f, 0x12,
    0x00, 0x1a, 0x00, 0x22, 0x00, 0x2a, 0x00, 0x32, 0x00, 0x38, 0x00, 0x42, 0x00, 0x12, 0x00, 0x1a,
    0x02, 0x0a, 0x00, 0x1a, 0x00, 0x22, 0x00,
];

#[test]
fn a_body_kubectl_sent_reads_as_the_json_kubectl_would_have_sent() {
    let ns = decode(KUBECTL_CREATE_NAMESPACE).unwrap();
    // What `kubectl create namespace demo -o json --dry-run=client` prints.
    assert_eq!(
        ns,
        json!({"kind": "Namespace", "apiVersion": "v1",
               "metadata": {"name": "demo"},
               "spec": {}, "status": {}})
    );
}

#[test]
fn zero_values_a_client_set_on_purpose_are_kept() {
    let d = json!({"kind": "Deployment", "apiVersion": "apps/v1", "metadata": {"name": "d"},
        "spec": {"replicas": 0, "minReadySeconds": 0, "paused": false,
                 "template": {"spec": {"automountServiceAccountToken": false,
                     "containers": [{"name": "c", "ports": [{"containerPort": 80, "hostPort": 0}]}]}}}});
    let back = round_trip(&d);
    assert_eq!(back["spec"]["replicas"], 0, "a pointer: zero is meant");
    assert!(back["spec"].get("minReadySeconds").is_none(), "omitempty");
    assert!(back["spec"].get("paused").is_none(), "omitempty");
    assert_eq!(
        back["spec"]["template"]["spec"]["automountServiceAccountToken"],
        false
    );
    assert!(
        back["spec"]["template"]["spec"]["containers"][0]["ports"][0]
            .get("hostPort")
            .is_none()
    );
}

#[test]
fn watch_frames_are_length_prefixed_events_around_an_enveloped_object() {
    let cm = json!({"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "x"}, "data": {"a": "b"}});
    let frame = watch_frame("ADDED", &cm).unwrap();
    let len = u32::from_be_bytes(frame[..4].try_into().unwrap()) as usize;
    assert_eq!(len, frame.len() - 4);
    // WatchEvent: field 1 "ADDED", field 2 RawExtension { raw: k8s\0... }.
    assert_eq!(&frame[4..11], b"\x0a\x05ADDED");
    let raw_start = frame.windows(4).position(|w| w == MAGIC).unwrap();
    assert_eq!(decode(&frame[raw_start..]).unwrap(), cm);
}

#[test]
fn broken_bodies_are_errors_with_the_servers_words() {
    assert_eq!(decode(b""), Err(ProtoError::Empty));
    assert_eq!(decode(b"k8s\0"), Err(ProtoError::Empty));
    assert_eq!(
        decode(b"{\"kind\":\"ConfigMap\"}"),
        Err(ProtoError::NoPrefix)
    );
    assert!(matches!(decode(b"k8s\0\x0a\xff"), Err(ProtoError::Wire(_))));
    // An envelope with no type.
    assert_eq!(decode(b"k8s\0\x12\x00"), Err(ProtoError::MissingKind));
    // A kind no served group has.
    let mut foo = b"k8s\0\x0a\x09\x0a\x02v1\x12\x03Foo".to_vec();
    foo.extend(b"\x12\x00");
    assert!(matches!(decode(&foo), Err(ProtoError::UnknownKind { .. })));
    // gzip-compressed contents are not something Kubernetes clients send.
    let mut gz = b"k8s\0\x0a\x0f\x0a\x02v1\x12\x09Namespace\x1a\x04gzip".to_vec();
    gz.extend(b"\x12\x00");
    assert!(matches!(decode(&gz), Err(ProtoError::ContentEncoding(_))));
    let bad_time = json!({"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "x", "creationTimestamp": "soon"}});
    let err = encode(&bad_time).unwrap_err();
    assert!(
        err.to_string().starts_with("metadata.creationTimestamp: "),
        "{err}"
    );
    let bad_bytes = json!({"kind": "Secret", "apiVersion": "v1", "metadata": {"name": "x"}, "data": {"k": "%%%"}});
    assert!(
        encode(&bad_bytes)
            .unwrap_err()
            .to_string()
            .starts_with("data.k: illegal base64")
    );
}

#[test]
fn deeply_nested_bodies_are_refused_not_overflowing_the_stack() {
    // A JSONSchemaProps whose `not` nests 1,000 deep: prost's recursion limit stops it.
    let mut inner: Vec<u8> = Vec::new();
    for _ in 0..1_000 {
        let mut outer = vec![0xba, 0x01]; // field 23 (`not`), length-delimited
        push_varint(&mut outer, inner.len() as u64);
        outer.extend(&inner);
        inner = outer;
    }
    let mut body =
        b"k8s\0\x0a\x2a\x0a\x17apiextensions.k8s.io/v1\x12\x0fJSONSchemaProps\x12".to_vec();
    push_varint(&mut body, inner.len() as u64);
    body.extend(inner);
    assert!(decode(&body).is_err());
}

fn push_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

#[test]
fn mutated_bodies_never_panic() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(10);
    let bodies: Vec<Vec<u8>> = fixtures::objects()
        .iter()
        .map(|o| encode(o).unwrap())
        .collect();
    for round in 0..3000 {
        let mut body = bodies[round % bodies.len()].clone();
        for _ in 0..rng.random_range(1..6) {
            let at = rng.random_range(4..body.len());
            match rng.random_range(0..3) {
                0 => body[at] = rng.random(),
                1 => body.truncate(at),
                _ => body.insert(at, rng.random()),
            }
            if body.len() <= 4 {
                break;
            }
        }
        // Either reading is fine; what matters is an answer.
        if let Ok(obj) = decode(&body) {
            let _ = encode(&obj);
        }
    }
}
