//! An app of apps (instructor trial 4, problems 2 and 3): a parent Application applied into
//! `argocd` whose Git path holds a child Application. The child needs no `apply-app` of its own,
//! its name, namespace and objects are known, and lessons that never mention it stay clean.

use super::*;

/// The fixture: lesson 9 as an instructor wrote it, cut to what lint reads (the parent
/// `src-root` makes `src-hello`, which deploys the ConfigMap `hello`), and its template.
fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/app-of-apps")
}

/// Every file under `from`, copied to `to`.
fn copy_tree(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            crate::lab::files::write_atomic(&target, &std::fs::read_to_string(e.path()).unwrap())
                .unwrap();
        }
    }
}

#[test]
fn an_application_made_by_an_application_needs_no_apply_and_troubles_no_other_lesson() {
    let dir = tempfile::tempdir().unwrap();
    let root = lessons(dir.path(), &[]);
    let tpl = templates(dir.path(), &[]);
    copy_tree(&fixture().join("lessons"), &root);
    copy_tree(&fixture().join("templates"), &tpl);
    let nine = root.join("09-app-of-apps");
    let all = said(&lint(&root, Some(&tpl)).unwrap());
    assert!(all.is_empty(), "{all:#?}");

    // The child is known through its parent only: a lesson that waits on an app no Application
    // makes is still told so.
    std::fs::write(
        nine.join("lesson.yaml"),
        std::fs::read_to_string(nine.join("lesson.yaml"))
            .unwrap()
            .replace("{do: wait, app: src-hello,", "{do: wait, app: src-nobody,"),
    )
    .unwrap();
    let all = said(&lint(&root, Some(&tpl)).unwrap()).join("\n");
    assert!(all.contains("src-nobody"), "{all}");
}
