//! Tests of decoding with Go's JSON decoder's rules.

use super::*;
use crate::kinds::by_kind;
use crate::validation::{builtin, doc::parse_json};

fn run(kind: (&str, &str), body: &str, strict: bool) -> Result<Decoded, String> {
    let schema = builtin::schema(by_kind(kind.0, kind.1).unwrap()).unwrap();
    decode(schema, &parse_json(body.as_bytes()).unwrap(), strict)
}

const DEPLOY: (&str, &str) = ("apps/v1", "Deployment");

#[test]
fn unknown_and_duplicate_fields_have_full_paths() {
    let d = run(
        DEPLOY,
        r#"{"spec": {"replica": 3, "replicas": 1, "replicas": 2,
            "template": {"spec": {"containers": [{"name": "a", "imagee": "x"}]}}},
            "metadata": {"labels": {"a": "1", "a": "2"}}}"#,
        true,
    )
    .unwrap();
    assert_eq!(
        d.strict,
        [
            r#"unknown field "spec.replica""#,
            r#"duplicate field "spec.replicas""#,
            r#"unknown field "spec.template.spec.containers[0].imagee""#,
            r#"duplicate field "metadata.labels.a""#,
        ]
    );
    assert!(d.value["spec"].get("replica").is_none());
    assert_eq!(d.value["spec"]["replicas"], 2);
    assert!(
        run(DEPLOY, r#"{"spec": {"replica": 3}}"#, false)
            .unwrap()
            .strict
            .is_empty()
    );
}

#[test]
fn type_errors_name_the_innermost_struct_and_the_field_path() {
    assert_eq!(
        run(DEPLOY, r#"{"spec": {"replicas": "two"}}"#, true).unwrap_err(),
        "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"
    );
    assert_eq!(
        run(DEPLOY, r#"{"metadata": {"annotations": {"a": 1}}}"#, false).unwrap_err(),
        "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.annotations of type string"
    );
    assert_eq!(
        run(
            DEPLOY,
            r#"{"spec": {"template": {"spec": {"containers": [{"env": [{"name": "A", "value": 8080}]}]}}}}"#,
            true
        )
        .unwrap_err(),
        "json: cannot unmarshal number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string"
    );
    assert_eq!(
        run(DEPLOY, r#"{"spec": {"replicas": 2.0}}"#, true).unwrap_err(),
        "json: cannot unmarshal number 2.0 into Go struct field DeploymentSpec.spec.replicas of type int32"
    );
    assert_eq!(
        run(DEPLOY, r#"{"spec": "x"}"#, true).unwrap_err(),
        "json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec"
    );
}

#[test]
fn the_first_type_error_wins_over_strict_errors_and_nulls_pass() {
    let err = run(
        DEPLOY,
        r#"{"spec": {"bogus": 1, "paused": "yes", "replicas": "x"}}"#,
        true,
    )
    .unwrap_err();
    assert!(
        err.contains("DeploymentSpec.spec.paused of type bool"),
        "{err}"
    );
    assert!(
        run(
            DEPLOY,
            r#"{"spec": {"replicas": null}, "status": null}"#,
            true
        )
        .is_ok()
    );
}

#[test]
fn special_types_decode_as_their_go_types_do() {
    let svc = ("v1", "Service");
    assert!(
        run(
            svc,
            r#"{"spec": {"ports": [{"targetPort": "http"}, {"targetPort": 80}]}}"#,
            true
        )
        .is_ok()
    );
    assert_eq!(
        run(svc, r#"{"spec": {"ports": [{"targetPort": true}]}}"#, true).unwrap_err(),
        "json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32"
    );
    let secret = ("v1", "Secret");
    assert!(run(secret, r#"{"data": {"a": "aGk="}}"#, true).is_ok());
    assert_eq!(
        run(secret, r#"{"data": {"a": "hi!"}}"#, true).unwrap_err(),
        "illegal base64 data at input byte 2"
    );
    let pod = ("v1", "Pod");
    assert_eq!(
        run(
            pod,
            r#"{"spec": {"containers": [{"resources": {"limits": {"cpu": "lots"}}}]}}"#,
            true
        )
        .unwrap_err(),
        quantity::FORMAT_WRONG
    );
    assert!(run(pod, r#"{"metadata": {"creationTimestamp": null}}"#, true).is_ok());
    assert_eq!(
        run(pod, r#"{"metadata": {"creationTimestamp": 5}}"#, true).unwrap_err(),
        "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string"
    );
}

#[test]
fn go_quote_escapes_like_strconv_quote() {
    assert_eq!(go_quote("a\"b\\c\n\u{1}"), r#""a\"b\\c\n\x01""#);
    assert_eq!(go_quote("é"), "\"é\"");
}
