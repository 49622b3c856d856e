//! End-to-end tests of the repo-server: bare repos built with git2, served over file:// (and
//! once over git:// by the real git daemon), rendered with the real helm and kubectl.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use git2::{Oid, Repository, Signature};
use serde_json::{Value, json};

use super::*;
use crate::gitd::GitDaemon;

/// A bare repo in a temp dir plus a repo-server with its own cache.
struct Lab {
    _tmp: tempfile::TempDir,
    bare: PathBuf,
    url: String,
    server: RepoServer,
}

impl Lab {
    fn new() -> Lab {
        let tmp = tempfile::tempdir().unwrap();
        let bare = tmp.path().join("bare/src.git");
        let repo = Repository::init_bare(&bare).unwrap();
        repo.set_head("refs/heads/main").unwrap();
        let url = format!("file://{}", bare.display());
        let server =
            RepoServer::new(tmp.path().join("cache"), HostMap::default()).reading_local_paths();
        Lab {
            _tmp: tmp,
            bare,
            url,
            server,
        }
    }

    /// Commits exactly `files` (a full snapshot) on `branch`; returns the commit SHA.
    fn commit(&self, branch: &str, files: &[(&str, &str)]) -> String {
        let repo = Repository::open_bare(&self.bare).unwrap();
        let mut root = Node::default();
        for (path, body) in files {
            root.insert(path, body.as_bytes());
        }
        let tree = root.write(&repo);
        let tree = repo.find_tree(tree).unwrap();
        let sig = Signature::now("learner", "learner@example.com").unwrap();
        let refname = format!("refs/heads/{branch}");
        let parent = repo
            .find_reference(&refname)
            .ok()
            .and_then(|r| r.peel_to_commit().ok());
        let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
        repo.commit(Some(&refname), &sig, &sig, "commit", &tree, &parents)
            .unwrap()
            .to_string()
    }

    fn tag(&self, name: &str, sha: &str, annotated: bool) {
        let repo = Repository::open_bare(&self.bare).unwrap();
        let obj = repo.find_object(Oid::from_str(sha).unwrap(), None).unwrap();
        if annotated {
            let sig = Signature::now("learner", "learner@example.com").unwrap();
            repo.tag(name, &obj, &sig, "release", false).unwrap();
        } else {
            repo.tag_lightweight(name, &obj, false).unwrap();
        }
    }

    fn source(&self, extra: Value) -> Value {
        let mut src = json!({"repoURL": self.url, "targetRevision": "main"});
        if let (Some(s), Some(e)) = (src.as_object_mut(), extra.as_object()) {
            s.extend(e.clone());
        }
        src
    }

    fn render(&self, app: &str, ns: &str, extra: Value) -> Result<Manifests, RepoError> {
        let src = self.source(extra);
        let sha = self.server.resolve(&self.url, "main")?;
        self.server.generate(app, ns, &src, &sha)
    }
}

#[derive(Default)]
struct Node {
    files: BTreeMap<String, Vec<u8>>,
    dirs: BTreeMap<String, Node>,
}

impl Node {
    fn insert(&mut self, path: &str, body: &[u8]) {
        match path.split_once('/') {
            Some((dir, rest)) => self.dirs.entry(dir.into()).or_default().insert(rest, body),
            None => {
                self.files.insert(path.into(), body.to_vec());
            }
        }
    }

    fn write(&self, repo: &Repository) -> Oid {
        let mut tb = repo.treebuilder(None).unwrap();
        for (name, body) in &self.files {
            let blob = repo.blob(body).unwrap();
            tb.insert(name, blob, 0o100644).unwrap();
        }
        for (name, node) in &self.dirs {
            tb.insert(name, node.write(repo), 0o040000).unwrap();
        }
        tb.write().unwrap()
    }
}

fn have_tools() -> bool {
    let ok = tools::find("helm").is_some() && tools::find("kubectl").is_some();
    if !ok {
        eprintln!("skipping: helm/kubectl not installed (scripts/install-tools)");
    }
    ok
}

fn find<'a>(objs: &'a [Value], kind: &str, name: &str) -> &'a Value {
    objs.iter()
        .find(|o| o["kind"] == kind && o["metadata"]["name"] == name)
        .unwrap_or_else(|| panic!("no {kind} {name} in {objs:#?}"))
}

// ---- the lab's chart (step 1) --------------------------------------------------------------

const CHART_YAML: &str = "apiVersion: v2\nname: web\nversion: 0.1.0\n";
const VALUES: &str = "replicaCount: 1\ngreeting: chart-default\n";
const VALUES_PROD: &str = "replicaCount: 2\ngreeting: from-values-file\n";
const CM_TPL: &str = r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-greeting
  labels:
    release-namespace: {{ .Release.Namespace }}
data:
  greeting: {{ .Values.greeting | quote }}
  greetingKind: {{ kindOf .Values.greeting | quote }}
"#;
const DEPLOY_TPL: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-web
spec:
  replicas: {{ .Values.replicaCount }}
  selector:
    matchLabels: {app: {{ .Release.Name }}-web}
  template:
    metadata:
      labels: {app: {{ .Release.Name }}-web}
    spec:
      containers:
      - name: web
        image: nginx:1.27-alpine
"#;
const CRD: &str = r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object}
"#;

fn chart_files() -> Vec<(&'static str, &'static str)> {
    vec![
        ("charts/web/Chart.yaml", CHART_YAML),
        ("charts/web/values.yaml", VALUES),
        ("charts/web/values-prod.yaml", VALUES_PROD),
        ("charts/web/templates/configmap.yaml", CM_TPL),
        ("charts/web/templates/deployment.yaml", DEPLOY_TPL),
        ("charts/web/crds/widget.yaml", CRD),
        ("common/extra.yaml", "greeting: from-root-file\n"),
    ]
}

fn helm(extra: Value) -> Value {
    let mut src = json!({"path": "charts/web"});
    if let (Some(s), Some(e)) = (src.as_object_mut(), extra.as_object()) {
        s.extend(e.clone());
    }
    src
}

// ---- revisions -----------------------------------------------------------------------------

#[test]
fn resolves_branches_head_tags_and_shas() {
    let lab = Lab::new();
    let first = lab.commit("main", &[("a.yaml", "x: 1\n")]);
    let second = lab.commit("main", &[("a.yaml", "x: 2\n")]);
    let dev = lab.commit("dev", &[("b.yaml", "x: 3\n")]);
    lab.tag("v1.0.0", &first, true);
    lab.tag("light", &dev, false);
    let s = &lab.server;
    assert_eq!(s.resolve(&lab.url, "main").unwrap(), second);
    assert_eq!(s.resolve(&lab.url, "HEAD").unwrap(), second);
    assert_eq!(s.resolve(&lab.url, "").unwrap(), second);
    assert_eq!(s.resolve(&lab.url, "refs/heads/dev").unwrap(), dev);
    assert_eq!(s.resolve(&lab.url, "dev").unwrap(), dev);
    // An annotated tag resolves to the commit it tags, not the tag object.
    assert_eq!(s.resolve(&lab.url, "v1.0.0").unwrap(), first);
    assert_eq!(s.resolve(&lab.url, "light").unwrap(), dev);
    assert_eq!(s.resolve(&lab.url, &first[..7]).unwrap(), first);
    assert_eq!(s.resolve(&lab.url, &first.to_uppercase()).unwrap(), first);
    // A moved branch is seen on the next resolve (every resolve fetches).
    let third = lab.commit("main", &[("a.yaml", "x: 3\n")]);
    assert_eq!(s.resolve(&lab.url, "main").unwrap(), third);
}

#[test]
fn unknown_revisions_are_clear_errors() {
    let lab = Lab::new();
    lab.commit("main", &[("a.yaml", "x: 1\n")]);
    let err = lab.server.resolve(&lab.url, "nope").unwrap_err();
    assert_eq!(
        err.to_string(),
        "Failed to load target state: failed to generate manifest for source 1 of 1: rpc error: code = Unknown desc = unable to resolve 'nope' to a commit SHA"
    );
    let err = lab.server.resolve(&lab.url, "abcdef1").unwrap_err();
    assert_eq!(err.code(), RpcCode::Internal);
    assert!(err.detail().contains("Failed to checkout revision abcdef1"));

    let missing = "0123456789abcdef0123456789abcdef01234567";
    let err = lab
        .server
        .generate("a", "ns", &lab.source(json!({})), missing)
        .unwrap_err();
    assert_eq!(
        err.detail(),
        format!(
            "Failed to checkout revision {missing}: `git fetch origin {missing} --tags --force --prune` failed exit status 128: fatal: remote error: upload-pack: not our ref {missing}"
        )
    );
}

#[test]
fn unreachable_repo_is_reported() {
    let lab = Lab::new();
    let err = lab
        .server
        .resolve("file:///nonexistent/capa/x.git", "main")
        .unwrap_err();
    assert_eq!(err.detail(), "failed to list refs: repository not found");
    let empty = Lab::new();
    let err = empty.server.resolve(&empty.url, "main").unwrap_err();
    assert_eq!(
        err.detail(),
        "failed to list refs: remote repository is empty"
    );
}

/// The repo server is a container of the cluster: a repoURL that is a path (or `file://`)
/// names its own disk, where there are no repositories, so it is never found — even when this
/// machine has one there. A scheme go-git has no client for is refused.
#[test]
fn local_paths_are_never_read_and_unknown_schemes_are_refused() {
    let lab = Lab::new();
    let sha = lab.commit(
        "main",
        &[(
            "app/cm.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
        )],
    );
    let cache = tempfile::tempdir().unwrap();
    let server = RepoServer::new(cache.path().to_path_buf(), HostMap::default());
    let path = lab.bare.display().to_string();
    for url in [lab.url.clone(), path.clone(), "src.git".to_string()] {
        let err = server.resolve(&url, "main").unwrap_err();
        assert_eq!(
            err.detail(),
            "failed to list refs: repository not found",
            "{url}"
        );
    }
    let source = json!({"repoURL": path, "path": "app", "targetRevision": sha});
    let err = server.generate("local", "ns", &source, &sha).unwrap_err();
    assert!(
        err.detail().contains(&format!(
            "fatal: '{path}' does not appear to be a git repository"
        )),
        "{}",
        err.detail()
    );
    let err = server
        .resolve("ftp://example.com/src.git", "main")
        .unwrap_err();
    assert_eq!(
        err.detail(),
        "failed to list refs: unsupported scheme \"ftp\""
    );
    assert_eq!(
        git::transport("git@github.com:org/repo.git"),
        git::Transport::Remote
    );
    assert_eq!(
        git::transport("HTTPS://example.com/x.git"),
        git::Transport::Remote
    );
    assert_eq!(
        git::transport("file:///srv/bare/x.git"),
        git::Transport::Local("/srv/bare/x.git".into())
    );
    assert_eq!(
        git::transport("./a:b"),
        git::Transport::Local("./a:b".into()),
        "a / before the first : is a path"
    );
}

// ---- directory, detection, tracking ---------------------------------------------------------

const HOOK: &str = r#"apiVersion: batch/v1
kind: Job
metadata:
  generateName: migrate-
  annotations:
    argocd.argoproj.io/hook: PreSync
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: m, image: busybox:1.36, command: [echo, ok]}]
"#;

#[test]
fn directory_sources() {
    let lab = Lab::new();
    lab.commit(
        "main",
        &[
            ("waves/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata: {mode: blue}\n"),
            ("waves/migrate.yaml", HOOK),
            ("waves/list.json", r#"{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Service","metadata":{"name":"svc","namespace":"other"}}]}"#),
            ("waves/README.md", "# not a manifest"),
            ("waves/nested/extra.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nested}\n"),
        ],
    );
    let m = lab
        .render("src-waves", "src-waves", json!({"path": "waves"}))
        .unwrap();
    assert_eq!(m.source_type, SourceType::Directory);
    let ids: Vec<&str> = m
        .objects
        .iter()
        .map(|o| o["metadata"]["annotations"][TRACKING_ID].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "src-waves:/ConfigMap:src-waves/settings",
            "src-waves:/Service:other/svc",
            "src-waves:batch/Job:src-waves/",
        ]
    );
    let m = lab
        .render(
            "src-waves",
            "src-waves",
            json!({"path": "waves", "directory": {"recurse": true}}),
        )
        .unwrap();
    assert_eq!(m.objects.len(), 4);
}

#[test]
fn explicit_directory_on_a_chart_path() {
    let lab = Lab::new();
    lab.commit("main", &chart_files());
    // Chart.yaml and values.yaml are not manifests and are skipped, templates are not read.
    let m = lab
        .render(
            "a",
            "ns",
            json!({"path": "charts/web", "directory": {"recurse": false, "include": "*.yaml"}}),
        )
        .unwrap();
    assert_eq!(m.source_type, SourceType::Directory);
    assert!(m.objects.is_empty());
}

#[test]
fn app_path_and_source_errors() {
    let lab = Lab::new();
    lab.commit("main", &[("a/x.yaml", "kind: A\n")]);
    let err = lab.render("a", "ns", json!({"path": "nope"})).unwrap_err();
    assert_eq!(err.detail(), "nope: app path does not exist");
    let err = lab
        .render("a", "ns", json!({"path": "a/x.yaml"}))
        .unwrap_err();
    assert_eq!(err.detail(), "a/x.yaml: app path is not a directory");
    let err = lab.render("a", "ns", json!({"path": "../.."})).unwrap_err();
    assert_eq!(err.detail(), "../..: app path outside root");
    let both = json!({"path": "a", "helm": {"releaseName": "r"}, "directory": {"recurse": true}});
    let err = lab.render("a", "ns", both).unwrap_err();
    assert_eq!(
        err.detail(),
        "error getting app source type: multiple application sources defined: Helm,Directory"
    );
}

#[test]
fn argocd_source_file_overrides_parameters() {
    if !have_tools() {
        return;
    }
    let lab = Lab::new();
    let mut files = chart_files();
    files.push((
        "charts/web/.argocd-source-web.yaml",
        "helm:\n  parameters:\n  - name: greeting\n    value: from-source-file\n",
    ));
    lab.commit("main", &files);
    let m = lab.render("web", "ns", helm(json!({}))).unwrap();
    assert_eq!(
        find(&m.objects, "ConfigMap", "web-greeting")["data"]["greeting"],
        "from-source-file"
    );
}

#[test]
fn renders_leave_no_checkout_behind() {
    let lab = Lab::new();
    lab.commit(
        "main",
        &[(
            "a/x.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
        )],
    );
    lab.render("a", "ns", json!({"path": "a"})).unwrap();
    let work = lab.server.cache_dir.join("work");
    assert_eq!(std::fs::read_dir(work).unwrap().count(), 0);
}

// ---- over the real git daemon --------------------------------------------------------------

fn git_cli(dir: &Path, args: &[&str]) {
    let git = tools::find("git").unwrap();
    let out = std::process::Command::new(git)
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "learner")
        .env("GIT_AUTHOR_EMAIL", "learner@example.com")
        .env("GIT_COMMITTER_NAME", "learner")
        .env("GIT_COMMITTER_EMAIL", "learner@example.com")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn through_git_daemon_with_host_rewrite() {
    if tools::find("git").is_none() {
        return;
    }
    let lab = Lab::new();
    let srv = lab.bare.parent().unwrap().to_path_buf();
    let daemon = GitDaemon::start(&srv).unwrap();
    let hosts = HostMap::new(vec![(
        "gitd.gitsrv.svc.cluster.local:9418".into(),
        format!("127.0.0.1:{}", daemon.port()),
    )]);
    let url = "git://gitd.gitsrv.svc.cluster.local:9418/src.git";

    // A learner's push over git:// (receive-pack is enabled).
    let work = tempfile::tempdir().unwrap();
    let real = format!("git://127.0.0.1:{}/src.git", daemon.port());
    git_cli(work.path(), &["init", "-q", "-b", "main", "."]);
    std::fs::create_dir(work.path().join("app")).unwrap();
    std::fs::write(
        work.path().join("app/cm.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: pushed}\n",
    )
    .unwrap();
    git_cli(work.path(), &["add", "."]);
    git_cli(work.path(), &["commit", "-q", "-m", "first"]);
    git_cli(work.path(), &["push", "-q", &real, "main"]);

    let cache = tempfile::tempdir().unwrap();
    let server = RepoServer::new(cache.path().to_path_buf(), hosts);
    let sha = server.resolve(url, "main").unwrap();
    let m = server
        .generate(
            "net",
            "ns",
            &json!({"repoURL": url, "path": "app", "targetRevision": "main"}),
            &sha,
        )
        .unwrap();
    assert_eq!(m.revision, sha);
    assert_eq!(
        m.objects[0]["metadata"]["annotations"][TRACKING_ID],
        "net:/ConfigMap:ns/pushed"
    );

    let err = server
        .resolve(
            "git://gitd.gitsrv.svc.cluster.local:9418/absent.git",
            "main",
        )
        .unwrap_err();
    assert_eq!(err.detail(), "failed to list refs: repository not found");
    let port = daemon.port();
    drop(daemon);
    let err = server.resolve(url, "main").unwrap_err();
    assert_eq!(
        err.detail(),
        "failed to list refs: dial tcp gitd.gitsrv.svc.cluster.local:9418: connect: connection refused",
        "port {port}"
    );
}

#[test]
fn kube_versions_parse_generically() {
    assert_eq!(kube_version(""), Ok(None));
    assert_eq!(kube_version("v1.35.2+k3s1"), Ok(Some("1.35.2".into())));
    assert_eq!(kube_version("1.35"), Ok(Some("1.35".into())));
    assert!(kube_version("v1").is_err());
    assert!(kube_version("latest").is_err());
}

mod helm;
mod kustomize;
