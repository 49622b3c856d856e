//! End-to-end tests of the embedded lab cluster with real clients (kubectl, kube-rs).
// Each end-to-end test is one learner's session read top to bottom (start, act, look, act
// again); cutting it into helpers would hide the order that is the point of the test.
#![allow(clippy::too_many_lines)]
mod argocd_audit;
mod argocd_audit_engine;
mod argocd_rules;
mod bad_input;
mod conventions;
mod field_validation;
mod generated_input;
mod harness;
mod helm;
mod k3s;
mod k3s_argocd;
mod k3s_cluster;
mod kube_rs;
mod kubectl;
mod lab;
mod lab_waves;
mod lesson_faults;
mod lessons;
mod managed_fields;
mod ninth_lesson;
mod protobuf;
mod raw_http;
mod self_check;
mod serve;
