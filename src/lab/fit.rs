//! Fitting lesson text and plan commands to where the learner is: the lessons say `{src_dir}`,
//! `{bare_dir}` and `{terminate_op APP}` where the lab names a path or a command, and this fills
//! them in with the real values — `/root/capa-src`, `/srv/bare` and `argocd app terminate-op APP
//! --core` on the lab VM (so the text reads exactly as the lab does), the embedded cluster's
//! own folders and `capa-tui app terminate-op APP` (no argocd CLI there) under `--sim`.

use std::path::Path;

use super::paths::LabPaths;

/// The values lesson text is rendered with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fit {
    pub src_dir: String,
    pub bare_dir: String,
    /// The argocd CLI is on PATH (else `capa-tui app terminate-op` stands in for it).
    pub argocd_cli: bool,
}

/// Every placeholder the lessons may use, for the test that keeps them honest.
pub const PLACEHOLDERS: [&str; 3] = ["{src_dir}", "{bare_dir}", "{terminate_op "];

impl Fit {
    /// As the lab's own text reads on its VM.
    pub fn lab_vm() -> Fit {
        Fit {
            src_dir: super::paths::DEFAULT_SRC_DIR.into(),
            bare_dir: super::paths::DEFAULT_BARE_DIR.into(),
            argocd_cli: true,
        }
    }

    /// For these folders, with the argocd CLI if it is on PATH.
    pub fn for_paths(paths: &LabPaths) -> Fit {
        Fit {
            src_dir: display(&paths.src_dir),
            bare_dir: display(&paths.bare_dir),
            argocd_cli: which::which("argocd").is_ok(),
        }
    }

    /// The command that ends `app`'s running operation.
    pub fn terminate_op(&self, app: &str) -> String {
        if self.argocd_cli {
            format!("argocd app terminate-op {app} --core")
        } else {
            format!("capa-tui app terminate-op {app}")
        }
    }

    /// `text` with every placeholder filled in.
    pub fn render(&self, text: &str) -> String {
        let mut out = text
            .replace("{src_dir}", &self.src_dir)
            .replace("{bare_dir}", &self.bare_dir);
        while let Some(start) = out.find("{terminate_op ") {
            let Some(len) = out[start..].find('}') else {
                break;
            };
            let app = out[start + "{terminate_op ".len()..start + len]
                .trim()
                .to_string();
            out.replace_range(start..=start + len, &self.terminate_op(&app));
        }
        out
    }
}

fn display(p: &Path) -> String {
    p.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::lab::catalog::{Catalog, Section};
    use strum::IntoEnumIterator;

    fn sim() -> Fit {
        Fit {
            src_dir: "/home/me/.local/state/capa-tui/sim/capa-src".into(),
            bare_dir: "/home/me/.local/state/capa-tui/sim/bare".into(),
            argocd_cli: false,
        }
    }

    #[test]
    fn placeholders_become_the_lab_vms_paths_and_commands_or_the_embedded_clusters() {
        let text = "git clone {bare_dir}/src.git {src_dir}/repo\n{terminate_op src-waves}";
        assert_eq!(
            Fit::lab_vm().render(text),
            "git clone /srv/bare/src.git /root/capa-src/repo\nargocd app terminate-op src-waves --core"
        );
        assert_eq!(
            sim().render(text),
            "git clone /home/me/.local/state/capa-tui/sim/bare/src.git /home/me/.local/state/capa-tui/sim/capa-src/repo\ncapa-tui app terminate-op src-waves"
        );
    }

    #[test]
    fn helm_and_jq_braces_are_left_alone() {
        let text = "{{ .Release.Name }}-web '{replicas: $r}' {.status.resources}";
        assert_eq!(Fit::lab_vm().render(text), text);
    }

    /// Every lesson, every part, both languages: on the lab VM no placeholder is left and the
    /// lab's paths are there; on the embedded cluster no lab VM path is shown at all.
    #[test]
    fn every_lesson_renders_for_the_lab_vm_and_for_the_embedded_cluster() {
        for lesson in Catalog::embedded().unwrap().lessons() {
            for &lang in Lang::all() {
                for section in Section::iter() {
                    let text = lesson.text(lang).section(section);
                    for fit in [Fit::lab_vm(), sim()] {
                        let out = fit.render(&text);
                        for p in PLACEHOLDERS {
                            assert!(
                                !out.contains(p),
                                "lesson {} {lang:?} {section:?}: {p} left in {out}",
                                lesson.spec.number
                            );
                        }
                    }
                    let on_sim = sim().render(&text);
                    for vm_only in ["/root/capa-src", "/srv/bare", "argocd app terminate-op src"] {
                        assert!(
                            !on_sim.contains(vm_only),
                            "lesson {} {lang:?} {section:?} shows {vm_only} on the embedded cluster",
                            lesson.spec.number
                        );
                    }
                }
            }
        }
        let catalog = Catalog::embedded().unwrap();
        let one = catalog.lessons();
        let by_hand = Fit::lab_vm().render(&one[0].text(Lang::FALLBACK).section(Section::ByHand));
        assert!(by_hand.contains("git init --bare -b main /srv/bare/src.git"));
        assert!(by_hand.contains("git clone /srv/bare/src.git /root/capa-src/repo"));
    }
}
