//! Lesson 3's optional helm block, typed as the lesson shows it, against the embedded cluster
//! the tutor left after lesson 1.

/// Lesson 3's optional block, exactly as the lesson shows it (filled in for this lab's folders),
/// run in bash against the embedded cluster after lesson 1: a real release and its Secret, and
/// none left after; the lab's own namespace never gets one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lesson_three_compares_argo_cd_with_a_real_helm_release() {
    use capa_tui::lab::{catalog, fit::Fit, paths::LabPaths, snippets::snippets};
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let out = super::lessons::capa(&state, &["do", "1", "--yes"]).await;
    assert!(out.status.success(), "{}", super::lessons::text(&out));
    let cluster = crate::common::Independent::start(&state, dir.path()).await;
    let paths = LabPaths {
        src_dir: state.join("capa-src"),
        bare_dir: state.join("bare"),
    };
    let catalog = catalog::Catalog::embedded().unwrap();
    let by_hand = catalog.lessons()[2]
        .text(capa_tui::i18n::Lang::FALLBACK)
        .section(catalog::Section::ByHand);
    // The whole code block, as "type it for me" offers it command by command.
    let block = by_hand
        .split("```")
        .find(|b| b.contains("helm install demo"))
        .expect("lesson 3 shows the helm block")
        .trim_start_matches("sh\n");
    let commands = snippets(&format!("```sh\n{block}```\n"));
    assert!(commands.len() >= 5, "{commands:?}");
    let lines: Vec<String> = commands.into_iter().map(|c| c.text).collect();
    let script = format!(
        "set -e\n{}",
        Fit::for_paths(&paths).render(&lines.join("\n"))
    );
    let out = tokio::process::Command::new("bash")
        .args(["-c", &script])
        .env("KUBECONFIG", &cluster.kubeconfig)
        .env("PATH", super::lessons::tools_path())
        .env("HELM_CACHE_HOME", dir.path().join("helm-cache"))
        .env("HELM_CONFIG_HOME", dir.path().join("helm-config"))
        .env("HELM_DATA_HOME", dir.path().join("helm-data"))
        .output()
        .await
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("STATUS: deployed"), "{said}");
    assert!(
        said.contains("sh.helm.release.v1.demo.v1"),
        "the release Secret: {said}"
    );
    assert!(said.contains("release \"demo\" uninstalled"), "{said}");
    let left = cluster
        .json(&[
            "-n",
            "demo",
            "get",
            "secrets",
            "--field-selector",
            "type=helm.sh/release.v1",
        ])
        .await;
    assert_eq!(
        left["items"].as_array().map(Vec::len),
        Some(0),
        "uninstall removed it"
    );
    let lab_ns = cluster
        .json(&[
            "-n",
            "src-helm",
            "get",
            "secrets",
            "--field-selector",
            "type=helm.sh/release.v1",
        ])
        .await;
    assert_eq!(
        lab_ns["items"].as_array().map(Vec::len),
        Some(0),
        "Argo CD made none"
    );
}
