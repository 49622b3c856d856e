//! Git as a learner uses it: the real git CLI, a bare repo in the cluster's bare dir, a clone,
//! commits pushed to `main`.

use std::path::Path;

use super::Lab;

pub async fn git(dir: &Path, args: &[&str]) -> String {
    let out = tokio::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "Learner")
        .env("GIT_AUTHOR_EMAIL", "learner@example.com")
        .env("GIT_COMMITTER_NAME", "Learner")
        .env("GIT_COMMITTER_EMAIL", "learner@example.com")
        .output()
        .await
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {} failed: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

pub fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

pub async fn commit_and_push(repo: &Path, message: &str) -> String {
    git(repo, &["add", "-A"]).await;
    git(repo, &["commit", "-q", "-m", message]).await;
    git(repo, &["push", "-q", "origin", "main"]).await;
    git(repo, &["rev-parse", "HEAD"]).await
}

/// Creates the bare repo `src.git` in the cluster's bare dir and clones it (on `main`) into
/// the test's folder, as lab step 1 begins.
pub async fn src_repo(lab: &Lab) -> std::path::PathBuf {
    let bare = lab.handle.bare_dir().join("src.git");
    git(
        lab.dir.path(),
        &["init", "-q", "--bare", "-b", "main", bare.to_str().unwrap()],
    )
    .await;
    let repo = lab.dir.path().join("repo");
    git(
        lab.dir.path(),
        &[
            "clone",
            "-q",
            &lab.handle.git_url("src"),
            repo.to_str().unwrap(),
        ],
    )
    .await;
    git(&repo, &["checkout", "-q", "-b", "main"]).await;
    repo
}
