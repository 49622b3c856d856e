//! Field validation as the real API server does it while decoding a write: unknown and
//! duplicate fields (`fieldValidation=Strict|Warn|Ignore`), values of the wrong type, and the
//! pruning of unknown fields from custom resources.

mod builtin;
mod shape;
mod argocd;
mod doc;
