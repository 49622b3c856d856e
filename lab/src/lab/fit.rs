//! Fitting lesson text and plan commands to where the learner is: the lessons say `{src_dir}`,
//! `{bare_dir}` and `{terminate_op APP}` where the lab names a path or a command, and this fills
//! them in with the real values — `/root/capa-src`, `/srv/bare` and `argocd app terminate-op APP
//! --core` on the lab VM (so the text reads exactly as the lab does), the embedded cluster's
//! own folders and `capa-tui app terminate-op APP` (no argocd CLI there) under `--sim`. A line
//! that begins `{if_argocd_cli}` is true only where that CLI is (`--core`'s namespace, say):
//! it is shown there and left out elsewhere, so no line speaks of a command the learner lacks.

use std::path::Path;

use super::paths::LabPaths;

/// The values lesson text is rendered with.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Fit {
    pub src_dir: String,
    pub bare_dir: String,
    /// The argocd CLI is on PATH (else `capa-tui app terminate-op` stands in for it).
    pub argocd_cli: bool,
}

/// Every placeholder the lessons may use, for the test that keeps them honest.
pub const PLACEHOLDERS: [&str; 4] = ["{src_dir}", "{bare_dir}", "{terminate_op ", IF_ARGOCD_CLI];

/// Begins a line that holds only where the argocd CLI is.
const IF_ARGOCD_CLI: &str = "{if_argocd_cli}";

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

    /// `text` with every placeholder filled in, and the lines that do not hold here left out.
    pub fn render(&self, text: &str) -> String {
        let mut out = self
            .lines_that_hold(text)
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

    /// `text` without the lines meant for the argocd CLI where it is not (their markers gone
    /// where it is); every other line, its end included, as it was.
    fn lines_that_hold(&self, text: &str) -> String {
        if !text.contains(IF_ARGOCD_CLI) {
            return text.to_string();
        }
        text.split_inclusive('\n')
            .filter_map(|line| {
                let indent = line.len() - line.trim_start().len();
                match line[indent..].strip_prefix(IF_ARGOCD_CLI) {
                    Some(rest) if self.argocd_cli => Some(format!("{}{rest}", &line[..indent])),
                    Some(_) => None,
                    None => Some(line.to_string()),
                }
            })
            .collect()
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
    fn a_line_for_the_argocd_cli_is_shown_only_where_it_is() {
        let text = "```sh\n{if_argocd_cli}kubectl config set-context --current --namespace=argocd\n{terminate_op src-waves}\n```\n- one\n  {if_argocd_cli}- two\n- three";
        assert_eq!(
            Fit::lab_vm().render(text),
            "```sh\nkubectl config set-context --current --namespace=argocd\nargocd app terminate-op src-waves --core\n```\n- one\n  - two\n- three"
        );
        assert_eq!(
            sim().render(text),
            "```sh\ncapa-tui app terminate-op src-waves\n```\n- one\n- three"
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
                    // Nothing on the embedded cluster names the lab VM's paths or the argocd
                    // CLI, which it does not have.
                    for vm_only in ["/root/capa-src", "/srv/bare", "argocd app", "--core"] {
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
