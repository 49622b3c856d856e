//! The application controller's log (docs/sim-behaviour.md §16.8): what the embedded controller
//! really does, written as Argo CD 3.5 writes it — logrus JSON lines (the install's default
//! `--logformat json`), keys sorted, the app's `application`, `app-namespace` and `project`
//! fields — into the container log of Pod `argocd-application-controller-0`, so
//! `kubectl -n argocd logs argocd-application-controller-0` shows the lab's refreshes and syncs.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::bootstrap::NAMESPACE;
use super::install::{CONTROLLER_CONTAINER, CONTROLLER_POD};
use crate::controllers::Env;
use crate::store::Key;

/// A logrus level.
#[derive(Clone, Copy)]
pub enum Level {
    Info,
    Warn,
}

/// Writes one line about `app` (or the controller itself), with `fields` beside the app's own.
pub fn write(env: &Env, app: Option<&Value>, level: Level, msg: &str, fields: &[(&str, Value)]) {
    let pod = Key::new(&crate::kinds::POD, NAMESPACE, CONTROLLER_POD);
    // No controller Pod, nobody to print (it is recreated with an empty log).
    if env.store.get(&pod).is_none() {
        return;
    }
    let now = env.store.clock.now();
    let mut line: BTreeMap<&str, Value> = BTreeMap::new();
    if let Some(app) = app {
        line.insert("application", app["metadata"]["name"].clone());
        line.insert("app-namespace", app["metadata"]["namespace"].clone());
        line.insert("project", app["spec"]["project"].clone());
    }
    for (k, v) in fields {
        line.insert(k, v.clone());
    }
    line.insert(
        "level",
        json!(match level {
            Level::Info => "info",
            Level::Warn => "warning",
        }),
    );
    line.insert("msg", json!(msg));
    line.insert("time", json!(crate::clock::rfc3339(now)));
    let text = format!("{}\n", json!(line));
    env.logs
        .append(NAMESPACE, CONTROLLER_POD, CONTROLLER_CONTAINER, now, &text);
}

/// Info about an app.
pub fn info(env: &Env, app: &Value, msg: &str) {
    write(env, Some(app), Level::Info, msg, &[]);
}
