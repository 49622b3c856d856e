//! The lab: the lessons catalog (from `lessons/`, embedded in the binary), the templates a
//! lesson writes (`repo-template/`), and the lab's paths. Never imports ratatui.

pub mod catalog;
pub mod check;
pub mod checklist;
pub mod derived;
pub mod engine;
pub mod evidence;
pub mod files;
pub mod fit;
pub mod fswatch;
pub mod paths;
pub mod plan;
pub mod progress;
pub mod session;
pub mod shell_env;
pub mod snippets;
pub mod spec;
