//! `capa-tui doctor`: checks that everything the lab needs is in place — the cluster and its
//! API, Argo CD and its tracking method, a writable bare dir, kubectl and jq — each in words.

use super::{Global, catalog, lang};
use crate::cluster::argocd;
use crate::i18n::Say;
use crate::lab::spec::Step;
use crate::outln;
use crate::session::Session;
use crate::t;

pub async fn doctor(g: &Global) -> i32 {
    let lang = lang(g);
    let mut ok = true;
    let mut line = |good: bool, what: String| {
        ok &= good;
        outln!("{} {what}", if good { "✓" } else { "✗" });
    };
    let s = match Session::open(g.session_options()).await {
        Ok(s) => s,
        Err(e) => {
            line(false, t!(lang, "doctor-no-cluster", why = e.say(lang)));
            return 1;
        }
    };
    line(true, t!(lang, "doctor-target", target = s.target.say(lang)));
    match s.client.apiserver_version().await {
        Ok(v) => line(true, t!(lang, "doctor-api", version = v.git_version)),
        Err(e) => line(
            false,
            t!(
                lang,
                "doctor-no-api",
                why = crate::cluster::explain(e).say(lang)
            ),
        ),
    }
    let crd = argocd::raw_get(
        s.client.clone(),
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/applications.argoproj.io",
    )
    .await;
    line(
        crd.is_ok(),
        if crd.is_ok() {
            t!(lang, "doctor-crd")
        } else {
            t!(lang, "doctor-no-crd")
        },
    );
    let cm = argocd::raw_get(
        s.client.clone(),
        "/api/v1/namespaces/argocd/configmaps/argocd-cm",
    )
    .await;
    match &cm {
        Ok(cm) => {
            let method = cm["data"]["application.resourceTrackingMethod"]
                .as_str()
                .map_or_else(|| t!(lang, "doctor-tracking-unset"), String::from);
            line(true, t!(lang, "doctor-argocd", method = method));
        }
        Err(e) => line(false, t!(lang, "doctor-no-argocd", why = e.say(lang))),
    }
    let bare = &s.paths.bare_dir;
    let writable = std::fs::create_dir_all(bare).is_ok() && tempfile::tempfile_in(bare).is_ok();
    let path = bare.display().to_string();
    line(
        writable,
        if writable {
            t!(lang, "doctor-bare", path = path.as_str())
        } else {
            t!(lang, "doctor-no-bare", path = path.as_str())
        },
    );
    line_tools(g, lang, &mut line);
    s.close().await;
    if ok { 0 } else { 1 }
}

/// jq (a hint, not a failure: the lab shells put it on PATH) and kubectl.
fn line_tools(g: &Global, lang: crate::i18n::Lang, line: &mut dyn FnMut(bool, String)) {
    // Not a failure: the tutor's shell and `capa-tui shell` put it first on PATH.
    let jq = which::which("jq").is_ok();
    outln!(
        "{} {}",
        if jq { "✓" } else { "·" },
        if jq {
            t!(lang, "doctor-jq")
        } else {
            t!(lang, "doctor-no-jq")
        }
    );
    let kubectl = which::which("kubectl").is_ok();
    // The lesson whose plan runs `kubectl scale`, named from the lessons.
    let scales = catalog(g, lang).ok().and_then(|c| {
        c.lessons()
            .iter()
            .find(|l| {
                l.spec
                    .actions
                    .iter()
                    .any(|a| matches!(a.step, Step::Scale { .. }))
            })
            .map(|l| l.id().to_string())
    });
    line(
        kubectl,
        if kubectl {
            t!(lang, "doctor-kubectl")
        } else {
            t!(
                lang,
                "doctor-no-kubectl",
                lesson = scales.unwrap_or_else(|| "-".into())
            )
        },
    );
}
