//! End-to-end tests of the embedded lab cluster with real clients (kubectl, kube-rs).
mod bad_input;
mod harness;
mod kube_rs;
mod kubectl;
mod managed_fields;
mod serve;
