//! The state dir as a careful server keeps it (reliability review 4, D1, D2, S1, S2, S5): a
//! write is acknowledged only once the journal holds it, even on a full disk; a damaged
//! journal stops the start and is kept; every file is the owner's alone.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

use capa_sim as sim;
use serde_json::json;

use super::raw_http::{Client, Request};
use crate::common::Lab;

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

async fn lab_in(state: &Path) -> Result<Lab, sim::SimError> {
    let handle = sim::start(sim::Config {
        speed: 10.0,
        state_dir: Some(state.to_path_buf()),
        ..sim::Config::default()
    })
    .await?;
    let dir = tempfile::tempdir().unwrap();
    handle
        .write_kubeconfig(&dir.path().join("kubeconfig"))
        .unwrap();
    Ok(Lab {
        handle,
        dir,
        speed: 10.0,
    })
}

/// Creates a ConfigMap of about 1 KB; the answer's code and body.
async fn create(client: &Client, name: &str) -> (u16, String) {
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": name}, "data": {"pad": "x".repeat(1024)}});
    let (code, body) = client
        .send(&Request {
            method: "POST",
            path: "/api/v1/namespaces/default/configmaps".into(),
            query: String::new(),
            content_type: "application/json".into(),
            headers: vec![],
            body: serde_json::to_vec(&cm).unwrap(),
        })
        .await
        .unwrap();
    (code, String::from_utf8_lossy(&body).into_owned())
}

fn configmaps(lab: &Lab) -> Vec<String> {
    lab.handle
        .objects()
        .into_iter()
        .filter(|o| o.kind == "ConfigMap" && o.namespace == "default")
        .map(|o| o.name)
        .collect()
}

/// Stops a cluster as kill -9 does: nothing flushed, the journal as it is.
async fn crash(lab: Lab) {
    drop(lab);
    tokio::time::sleep(Duration::from_millis(200)).await;
}

/// A small tmpfs, unmounted when dropped (root only).
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(at: &Path, size: &str) -> Tmpfs {
        std::fs::create_dir_all(at).unwrap();
        let ok = std::process::Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=0700"),
                "tmpfs",
            ])
            .arg(at)
            .status()
            .unwrap()
            .success();
        assert!(ok, "mount a tmpfs at {at:?}");
        Tmpfs(at.to_path_buf())
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.0)
            .status();
    }
}

/// Waits until a just-started cluster's controllers have written what they write at first
/// (the journal stops growing for half a second), so the space left is the test's.
async fn settle(journal: &Path) {
    let size = || std::fs::metadata(journal).map_or(0, |m| m.len());
    let mut last = size();
    for _ in 0..20 {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let now = size();
        if now == last {
            return;
        }
        last = now;
    }
}

/// Fills the disk under `dir`, then frees `leave` bytes.
fn fill(dir: &Path, leave: u64) -> PathBuf {
    use std::io::Write;
    let path = dir.join("filler");
    let mut f = std::fs::File::create(&path).unwrap();
    let chunk = vec![0u8; 64 * 1024];
    while f.write_all(&chunk).is_ok() {}
    let _ = f.sync_all();
    let len = f.metadata().unwrap().len();
    f.set_len(len.saturating_sub(leave)).unwrap();
    path
}

/// Review 4, D1: on a full disk every create got 201 and a restart lost 9,815 of 11,109 of
/// them, including those made after space came back. Now a create the journal cannot take is
/// refused (507), and every acknowledged one survives a crash.
#[tokio::test]
async fn on_a_full_disk_no_acknowledged_write_is_lost() {
    if !is_root() {
        eprintln!("skipped: mounting a small tmpfs needs root");
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let disk = Tmpfs::mount(&root.path().join("tfs"), "16m");
    let state = disk.0.join("st");
    let lab = lab_in(&state).await.unwrap();
    let client = Client::new(&lab);
    settle(&state.join("journal.jsonl")).await;
    let filler = fill(&disk.0, 256 * 1024);
    let mut acknowledged = Vec::new();
    let mut refusal = None;
    for i in 0..400 {
        let name = format!("full-{i}");
        match create(&client, &name).await {
            (201, _) => acknowledged.push(name),
            (code, body) => {
                refusal = Some((code, body));
                break;
            }
        }
    }
    let (code, body) = refusal.expect("the disk never filled");
    eprintln!(
        "full disk: {} creates acknowledged, then {code}",
        acknowledged.len()
    );
    assert_eq!(code, 507, "{body}");
    assert!(
        body.contains("\"kind\":\"Status\"") && body.contains("No space left"),
        "{body}"
    );
    // Space comes back: writes are taken again.
    std::fs::remove_file(&filler).unwrap();
    for i in 0..5 {
        let name = format!("after-{i}");
        assert_eq!(create(&client, &name).await.0, 201);
        acknowledged.push(name);
    }
    crash(lab).await;
    let lab = lab_in(&state).await.unwrap();
    let kept = configmaps(&lab);
    let lost: Vec<&String> = acknowledged.iter().filter(|n| !kept.contains(n)).collect();
    assert!(lost.is_empty(), "acknowledged and lost: {lost:?}");
    let refused_but_kept: Vec<&String> = kept
        .iter()
        .filter(|n| n.starts_with("full-") && !acknowledged.contains(n))
        .collect();
    assert!(refused_but_kept.is_empty(), "{refused_but_kept:?}");
}

/// Review 4, D2: one damaged line dropped every later record and the next start emptied the
/// journal. Now the start stops, naming the line; the journal is kept; the repair keeps
/// what came before the damage.
#[tokio::test]
async fn a_damaged_journal_stops_the_start_and_the_repair_keeps_what_it_can() {
    let root = tempfile::tempdir().unwrap();
    let state = root.path().join("lab");
    let lab = lab_in(&state).await.unwrap();
    let client = Client::new(&lab);
    for i in 1..=6 {
        assert_eq!(create(&client, &format!("j-{i}")).await.0, 201);
    }
    crash(lab).await;
    let journal = state.join("journal.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let line = text.lines().position(|l| l.contains("\"j-3\"")).unwrap();
    let damaged: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == line {
                format!("X{l}\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    std::fs::write(&journal, &damaged).unwrap();
    let Err(e) = lab_in(&state).await else {
        panic!("a damaged journal was served");
    };
    let said = e.to_string();
    assert!(
        said.contains(&format!("journal.jsonl is damaged at line {}", line + 1)),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), damaged);
    let repaired = sim::repair_journal(&state).unwrap().unwrap();
    assert_eq!(repaired.damaged_line, line + 1);
    assert_eq!(std::fs::read_to_string(&repaired.copy).unwrap(), damaged);
    let lab = lab_in(&state).await.unwrap();
    let mut kept: Vec<String> = configmaps(&lab)
        .into_iter()
        .filter(|n| n.starts_with("j-"))
        .collect();
    kept.sort();
    assert_eq!(kept, ["j-1", "j-2"]);
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().mode() & 0o7777
}

/// Review 4, S1, S2 and S5: the snapshot and journal (every Secret) were 0644 in a 0755
/// folder, a kubeconfig went through a predictable temporary name in a shared folder, and a
/// state dir another user owned was used without a word.
#[tokio::test]
async fn the_state_dir_and_kubeconfig_are_the_owners_alone() {
    let root = tempfile::tempdir().unwrap();
    let state = root.path().join("lab");
    let lab = lab_in(&state).await.unwrap();
    lab.handle
        .write_kubeconfig(&state.join("kubeconfig"))
        .unwrap();
    let client = Client::new(&lab);
    assert_eq!(create(&client, "a").await.0, 201);
    assert_eq!(mode(&state), 0o700);
    for name in [
        "snapshot.json",
        "journal.jsonl",
        "credentials.json",
        "kubeconfig",
    ] {
        assert_eq!(mode(&state.join(name)), 0o600, "{name}");
    }
    // A shared folder: refused without the sticky bit, used (0600) with it, as /tmp.
    let shared = root.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
    let refused = lab
        .handle
        .write_kubeconfig(&shared.join("capa.kubeconfig"))
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("can be written by other users"),
        "{refused}"
    );
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
    lab.handle
        .write_kubeconfig(&shared.join("capa.kubeconfig"))
        .unwrap();
    assert_eq!(mode(&shared.join("capa.kubeconfig")), 0o600);
    assert_eq!(std::fs::read_dir(&shared).unwrap().count(), 1);
    // A state dir others may write, or (as root) another user's, does not start.
    let open = root.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let said = lab_in(&open).await.err().unwrap().to_string();
    assert!(said.contains("chmod go-w"), "{said}");
    // The tutor checks the same before it writes its lock file there.
    assert!(sim::check_state_dir(&open).is_err());
    let fresh = root.path().join("fresh");
    sim::check_state_dir(&fresh).unwrap();
    assert_eq!(mode(&fresh), 0o700);
    if is_root() {
        let theirs = root.path().join("theirs");
        std::fs::create_dir(&theirs).unwrap();
        std::os::unix::fs::chown(&theirs, Some(65_534), Some(65_534)).unwrap();
        let said = lab_in(&theirs).await.err().unwrap().to_string();
        assert!(said.contains("belongs to another user"), "{said}");
    }
}
