//! The embedded lab cluster end to end, on its own: the real kubectl and helm, kube-rs, raw
//! HTTP and git against a cluster started in-process, one file per topic in `cluster/`. The
//! tutor's lab is tested in the workspace's `tests/lab`.
// Each end-to-end test is one learner's session read top to bottom (start, act, look, act
// again); cutting it into helpers would hide the order that is the point of the test.
#![allow(clippy::too_many_lines)]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]

mod common;

/// One module per topic (the files of `sim/tests/cluster/`).
mod cluster {
    mod api_defaults;
    mod argocd_app_of_apps;
    mod argocd_audit;
    mod argocd_audit2_ops;
    mod argocd_audit2_repo;
    mod argocd_audit2_status;
    mod argocd_audit2_sync;
    mod argocd_audit3;
    mod argocd_audit_engine;
    mod argocd_install;
    mod argocd_rules;
    mod bad_input;
    mod builtin_kinds;
    mod crd;
    mod field_validation;
    mod generated_input;
    mod helm;
    mod k3s;
    mod k3s_argocd;
    mod k3s_autoscaling;
    mod k3s_cluster;
    mod k3s_policy_kinds;
    mod kube_rs;
    mod kubectl;
    mod limits;
    mod list_watch;
    mod managed_fields;
    mod protobuf;
    mod raw_http;
    mod request_errors;
    mod state_dir;
    mod survey;
    mod survey_named;
    mod validation_limits;
}
