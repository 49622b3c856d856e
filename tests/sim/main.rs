//! End-to-end tests of the embedded lab cluster with real clients (kubectl, kube-rs).
mod argocd_rules;
mod bad_input;
mod harness;
mod kube_rs;
mod kubectl;
mod lab;
mod lab_waves;
mod lesson_faults;
mod lessons;
mod managed_fields;
mod serve;
