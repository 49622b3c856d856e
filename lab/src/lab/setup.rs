//! How a lab was set up: the lessons and templates it was started with (and the learner whose
//! names it uses, on a shared cluster), kept in its source dir
//! (`capa-lab.json`) so every later command on that lab uses them without the flags. `check 2`
//! on an adapted lab once graded against the original values because `--templates` was not
//! typed again (instructor-4).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::i18n::{Lang, Say};
use crate::t;

/// The file in the source dir that keeps the setup.
pub const FILE: &str = "capa-lab.json";

/// What a flag may say instead of a folder: the lessons or templates built into capa-tui.
pub const BUILTIN: &str = "builtin";

/// Where a lab's lessons and templates come from; `None` is the built-in ones.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabSetup {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lessons: Option<PathBuf>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub templates: Option<PathBuf>,
    /// The learner whose names the lab uses (`--learner`), on a cluster many share.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub learner: Option<String>,
}

impl LabSetup {
    /// Whether anything is not built in.
    pub fn is_adapted(&self) -> bool {
        self.lessons.is_some() || self.templates.is_some() || self.learner.is_some()
    }
}

/// The setup a command uses, and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    pub setup: LabSetup,
    /// Some of it was kept with the lab rather than given on this command line: say so.
    pub from_the_lab: bool,
    /// The flags set it up differently from what the lab kept: keep the new one once it loads.
    pub to_keep: bool,
    /// The file that keeps the lab's setup.
    pub file: PathBuf,
}

impl Chosen {
    /// The setup with the file that keeps it, as a command says it.
    pub fn kept_in(&self) -> KeptIn {
        KeptIn {
            setup: self.setup.clone(),
            file: self.file.clone(),
        }
    }
}

/// Why the kept setup cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SetupError {
    /// The kept file does not read.
    #[error("{} does not read: {why}", file.display())]
    Damaged { file: PathBuf, why: String },
    /// A folder the lab was set up with is not there any more.
    #[error("{} is not there", dir.display())]
    Gone { file: PathBuf, dir: PathBuf },
}

/// The setup for a lab that kept `kept` (in `file`): each flag given wins (`builtin` for the
/// built-in files); each one not given is what the lab kept, else built in.
pub fn choose(
    kept: &LabSetup,
    file: &Path,
    lessons_flag: Option<&Path>,
    templates_flag: Option<&Path>,
    learner_flag: Option<&str>,
) -> Result<Chosen, SetupError> {
    let pick = |flag: Option<&Path>, kept: &Option<PathBuf>| match flag {
        Some(f) if f == Path::new(BUILTIN) => (None, false),
        Some(f) => (Some(absolute(f)), false),
        None => (kept.clone(), kept.is_some()),
    };
    let (lessons, lessons_kept) = pick(lessons_flag, &kept.lessons);
    let (templates, templates_kept) = pick(templates_flag, &kept.templates);
    let kept_dirs = [(&lessons, lessons_kept), (&templates, templates_kept)];
    for (dir, was_kept) in kept_dirs {
        if let Some(dir) = dir.as_ref().filter(|d| was_kept && !d.is_dir()) {
            return Err(SetupError::Gone {
                file: file.to_path_buf(),
                dir: dir.clone(),
            });
        }
    }
    let (learner, learner_kept) = match learner_flag {
        Some(l) => (Some(l.to_string()), false),
        None => (kept.learner.clone(), kept.learner.is_some()),
    };
    let setup = LabSetup {
        lessons,
        templates,
        learner,
    };
    Ok(Chosen {
        to_keep: setup != *kept,
        from_the_lab: lessons_kept || templates_kept || learner_kept,
        setup,
        file: file.to_path_buf(),
    })
}

/// The file that keeps the setup of the lab in `src_dir`.
pub fn file(src_dir: &Path) -> PathBuf {
    src_dir.join(FILE)
}

/// What the lab in `src_dir` kept; all built in when it kept nothing.
pub fn kept(src_dir: &Path) -> Result<LabSetup, SetupError> {
    let file = file(src_dir);
    let damaged = |why: String| SetupError::Damaged {
        file: file.clone(),
        why,
    };
    match super::files::read_bounded(&file, 64 * 1024) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| damaged(e.to_string())),
        Err(super::files::ReadError::Missing { .. }) => Ok(LabSetup::default()),
        // No source dir there (a file where a folder would be): nothing was kept; making the
        // lab says what is wrong with the folder.
        Err(super::files::ReadError::Io { source, .. })
            if source.kind() == std::io::ErrorKind::NotADirectory =>
        {
            Ok(LabSetup::default())
        }
        Err(e) => Err(damaged(e.to_string())),
    }
}

/// Keeps `setup` with the lab in `src_dir` (the file is removed when all is built in).
pub fn keep(src_dir: &Path, setup: &LabSetup) -> std::io::Result<()> {
    let file = file(src_dir);
    if !setup.is_adapted() {
        return match std::fs::remove_file(&file) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        };
    }
    let text = serde_json::to_string_pretty(setup).map_err(std::io::Error::other)?;
    super::files::write_atomic(&file, &format!("{text}\n"))
}

/// A lab's setup and the file that keeps it: what a command says it uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptIn {
    pub setup: LabSetup,
    pub file: PathBuf,
}

impl Say for KeptIn {
    fn say(&self, lang: Lang) -> String {
        let lessons = match &self.setup.lessons {
            None => t!(lang, "setup-lessons-builtin"),
            Some(d) => t!(lang, "setup-lessons-in", dir = d.display().to_string()),
        };
        let templates = match &self.setup.templates {
            None => t!(lang, "setup-templates-builtin"),
            Some(d) => t!(lang, "setup-templates-in", dir = d.display().to_string()),
        };
        let of_the_lab = t!(
            lang,
            "setup-of-the-lab",
            lessons = lessons,
            templates = templates,
            file = self.file.display().to_string()
        );
        match &self.setup.learner {
            Some(name) => t!(
                lang,
                "setup-as-learner",
                setup = of_the_lab,
                learner = name.as_str()
            ),
            None => of_the_lab,
        }
    }
}

impl Say for SetupError {
    fn say(&self, lang: Lang) -> String {
        match self {
            SetupError::Gone { file, dir } => t!(
                lang,
                "setup-gone",
                dir = dir.display().to_string(),
                file = file.display().to_string()
            ),
            SetupError::Damaged { file, why } => t!(
                lang,
                "setup-damaged",
                file = file.display().to_string(),
                why = why.clone()
            ),
        }
    }
}

/// `path` from the root, so the lab finds it from any working directory later.
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `choose` on what the lab in `src` kept.
    fn chosen(
        src: &Path,
        lessons: Option<&Path>,
        templates: Option<&Path>,
    ) -> Result<Chosen, SetupError> {
        choose(&kept(src)?, &file(src), lessons, templates, None)
    }

    fn dirs() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let root = tempfile::tempdir().unwrap();
        let src = root.path().join("capa-src");
        let lessons = root.path().join("my-lessons");
        std::fs::create_dir_all(&lessons).unwrap();
        (root, src, lessons)
    }

    /// Flags given once are kept; later commands without them use what was kept and say so.
    #[test]
    fn a_setup_given_once_is_used_by_later_commands_without_flags() {
        let (_root, src, lessons) = dirs();
        let first = chosen(&src, Some(&lessons), None).unwrap();
        assert!(first.to_keep && !first.from_the_lab);
        keep(&src, &first.setup).unwrap();
        let later = chosen(&src, None, None).unwrap();
        assert_eq!(later.setup.lessons.as_deref(), Some(lessons.as_path()));
        assert!(later.from_the_lab && !later.to_keep);
    }

    /// `builtin` goes back to the built-in files, and nothing is left kept.
    #[test]
    fn builtin_goes_back_to_the_built_in_files() {
        let (_root, src, lessons) = dirs();
        keep(&src, &chosen(&src, Some(&lessons), None).unwrap().setup).unwrap();
        let back = chosen(&src, Some(Path::new(BUILTIN)), None).unwrap();
        assert_eq!(back.setup, LabSetup::default());
        assert!(back.to_keep);
        keep(&src, &back.setup).unwrap();
        assert!(!src.join(FILE).exists());
        assert_eq!(chosen(&src, None, None).unwrap().setup, LabSetup::default());
    }

    /// A lab started as one learner's stays that learner's: a later command without
    /// `--learner` uses their names, and says so.
    #[test]
    fn a_learners_lab_is_theirs_for_later_commands_too() {
        let (_root, src, _) = dirs();
        let first = choose(&kept(&src).unwrap(), &file(&src), None, None, Some("alice")).unwrap();
        assert!(first.to_keep && !first.from_the_lab);
        keep(&src, &first.setup).unwrap();
        let later = choose(&kept(&src).unwrap(), &file(&src), None, None, None).unwrap();
        assert_eq!(later.setup.learner.as_deref(), Some("alice"));
        assert!(later.from_the_lab && !later.to_keep);
        assert!(
            later
                .kept_in()
                .say(Lang::FALLBACK)
                .contains("learner alice")
        );
    }

    /// A kept folder that was removed, or a kept file that does not read, is said, not
    /// silently replaced by the built-in lessons (which would grade the wrong lab).
    #[test]
    fn a_kept_folder_gone_or_a_damaged_file_is_refused() {
        let (_root, src, lessons) = dirs();
        keep(&src, &chosen(&src, Some(&lessons), None).unwrap().setup).unwrap();
        std::fs::remove_dir(&lessons).unwrap();
        assert!(matches!(
            chosen(&src, None, None),
            Err(SetupError::Gone { dir, .. }) if dir == lessons
        ));
        // A flag for it is the learner's choice, and needs nothing the lab kept.
        assert!(chosen(&src, Some(Path::new(BUILTIN)), None).is_ok());
        std::fs::write(src.join(FILE), "{not json").unwrap();
        assert!(matches!(
            chosen(&src, None, None),
            Err(SetupError::Damaged { .. })
        ));
    }
}
