//! capa-tui: a terminal tutor for how Argo CD really decides things.
//!
//! Modules:
//! - `sim`: the embedded lab cluster (Kubernetes API server + controllers on loopback). It
//!   imports nothing else of this crate.
//! - `cli`: command-line arguments and dispatch.
pub mod cli;
pub mod sim;
