//! The probes, as data: each `*.yaml` beside this file is a list of groups, a group a setup and
//! probes run in order in a namespace of its own on both clusters (`probe.id` is
//! `<file>/<group>/<probe>`). A probe is a bash script: kubectl, helm, git and the prelude's
//! helpers (`prelude.sh`), so a new probe is a few lines of YAML and no Rust.

use std::path::{Path, PathBuf};

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    /// Extra masks for every probe of the file: regex → replacement.
    #[serde(default)]
    pub masks: Vec<Mask>,
    pub groups: Vec<Group>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mask {
    pub regex: String,
    pub with: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Group {
    pub group: String,
    /// Run first (not compared); a failure fails the group on that cluster.
    #[serde(default)]
    pub setup: String,
    pub probes: Vec<Probe>,
    /// Seconds each probe may take (default 60: an Argo CD scenario waits on its controller).
    #[serde(default)]
    pub timeout: Option<u64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Probe {
    pub id: String,
    pub run: String,
    /// Masks for this probe only.
    #[serde(default)]
    pub masks: Vec<Mask>,
    #[serde(default)]
    pub timeout: Option<u64>,
}

impl Group {
    /// Whether the group makes or removes a CustomResourceDefinition: while it does, another
    /// group's discovery (`/apis`, then each group version) can list a group whose version is
    /// already gone, on either cluster (kr8s warned "the server could not find the requested
    /// resource" on one and not the other). Such a group runs alone.
    pub fn changes_discovery(&self) -> bool {
        std::iter::once(&self.setup)
            .chain(self.probes.iter().map(|p| &p.run))
            .any(|text| text.contains("CustomResourceDefinition") || text.contains("delete crd"))
    }
}

/// One group ready to run: its id prefix and the masks that apply to it.
#[derive(Debug, Clone)]
pub struct Planned {
    /// `<file>/<group>`.
    pub id: String,
    pub group: Group,
    pub masks: Vec<Mask>,
}

impl Planned {
    /// The namespace the group runs in: `diff-` and its id, as a DNS label.
    pub fn namespace(&self) -> String {
        let mut ns: String = format!("diff-{}", self.id)
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        ns.truncate(63);
        ns.trim_end_matches('-').to_string()
    }

    pub fn probe_ids(&self) -> impl Iterator<Item = String> + '_ {
        self.group
            .probes
            .iter()
            .map(|p| format!("{}/{}", self.id, p.id))
    }
}

pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/differential")
}

/// Every group of every corpus file, in file and then group order.
pub fn load() -> Vec<Planned> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("the corpus folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let file: File =
            serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for group in file.groups {
            out.push(Planned {
                id: format!("{stem}/{}", group.group),
                group,
                masks: file.masks.clone(),
            });
        }
    }
    out
}
