//! One clock for the lab: an embedded cluster run at `--speed N` keeps time N× faster than the
//! wall, and every time it writes (Events, managedFields, operations) is on that clock. So the
//! lab's shells read it too, through libfaketime (Debian's `faketime` package): preloaded into
//! the shell, it gives `date` (and every program the shell starts, and the shell itself) the
//! wall's time plus an offset it reads from a file on every call, and the shell's owner keeps
//! that file at the cluster's offset, ten times a second, for as long as the shell runs. A
//! lesson's own `scaled_at=$(date +%s)` then agrees with the cluster (issue 31: under `--speed
//! 5` it failed the self-check by minutes).
//!
//! Why an offset kept current rather than libfaketime's own speed (`x5`): libfaketime runs a
//! sped-up clock from an anchor that children share through shared memory, and an ordinary
//! `~/.bashrc` (pyenv's, here) loses that anchor, after which every program runs fast only
//! from its own start, so `date` drifts back to the wall's pace. An offset needs no anchor. The
//! cost: `sleep 45` waits 45 of the wall's seconds, longer than the cluster needs, never too
//! short. Programs that read the kernel's clock directly (kubectl and helm are static Go
//! binaries) are not affected: none of the lab's commands takes a time from them.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

pub use crate::cluster::clock::FastClock;
use jiff::{SignedDuration, Timestamp};

/// Where Debian (and others) install the preloaded library, by architecture.
const LIBFAKETIME: &[&str] = &[
    "/usr/lib/{arch}-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/faketime/libfaketime.so.1",
    "/usr/lib64/faketime/libfaketime.so.1",
    "/usr/local/lib/faketime/libfaketime.so.1",
];

/// The installed libfaketime, if any.
pub fn libfaketime() -> Option<std::path::PathBuf> {
    LIBFAKETIME
        .iter()
        .map(|p| std::path::PathBuf::from(p.replace("{arch}", std::env::consts::ARCH)))
        .find(|p| p.is_file())
}

/// `said` (a time taken on the wall's clock, `wall` long), followed by how long that was on the
/// cluster's clock when it runs at another speed: a plan's time beside the cluster's times
/// (checklist ticks, evidence) is never a contradiction. `decimals`: as `said` gives seconds.
pub fn took_on_both_clocks(
    lang: crate::i18n::Lang,
    said: String,
    wall: std::time::Duration,
    clock: Option<&FastClock>,
    decimals: usize,
) -> String {
    match clock
        .map(|c| c.speed)
        .filter(|s| !crate::cluster::clock::is_real_speed(*s))
    {
        Some(speed) => crate::t!(
            lang,
            "plan-took-fast",
            said = said,
            seconds = format!("{:.decimals$}", wall.as_secs_f64() * speed),
            speed = speed
        ),
        None => said,
    }
}

/// What the tutor's shells need of the cluster's clock: libfaketime's settings and a file
/// kept at the cluster's offset. (A trait because `FastClock` is the lab crate's: the shell
/// side of the clock is the tutor's.)
pub trait ClockForShells {
    /// libfaketime's spec for the cluster's clock at wall time `wall`: its offset from the
    /// wall's (`+3600.000s`).
    fn offset_spec(&self, wall: Timestamp) -> String;

    /// The variables that put a shell on this clock, with the library at `lib` reading the
    /// offset from `file` (kept by [`ClockForShells::keep`]); `preload` is the inherited
    /// `LD_PRELOAD`, kept after it.
    fn shell_vars(&self, lib: &Path, preload: Option<&str>, file: &Path) -> Vec<(String, String)>;

    /// The clock anchored again on what the cluster said (`second`, a Date header's whole
    /// second, in a reply asked for at wall time `asked` and read at `answered`), when this one
    /// is plainly off: the embedded cluster was stopped and started again, and its clock stood
    /// still meanwhile. `None` while it still tells the cluster's time. The reply's second and
    /// its latency (which a sped-up clock multiplies) are allowed for: re-anchoring on a slow
    /// reply had put a shell's `date` two seconds behind the cluster under load.
    fn followed(
        &self,
        asked: Timestamp,
        answered: Timestamp,
        second: Timestamp,
    ) -> Option<FastClock>;

    /// Writes the cluster's offset to `file` now and then ten times a second until the
    /// returned keeper is dropped (the shell that reads it has ended). With `follow` (the
    /// kubeconfig of the cluster, read afresh each time: a restarted cluster may serve on
    /// another port), the cluster's clock is read every few seconds and the offset follows it
    /// when it has moved on its own (a shell left open across a restart).
    fn keep(&self, file: PathBuf, follow: Option<PathBuf>) -> std::io::Result<ClockFile>;
}

impl ClockForShells for FastClock {
    fn offset_spec(&self, wall: Timestamp) -> String {
        let offset = self.at(wall).duration_since(wall).as_secs_f64();
        format!("{offset:+.3}s")
    }

    fn shell_vars(&self, lib: &Path, preload: Option<&str>, file: &Path) -> Vec<(String, String)> {
        let preload = match preload.filter(|p| !p.is_empty()) {
            Some(p) => format!("{}:{p}", lib.display()),
            None => lib.display().to_string(),
        };
        vec![
            ("LD_PRELOAD".to_string(), preload),
            (
                "FAKETIME_TIMESTAMP_FILE".to_string(),
                file.display().to_string(),
            ),
            // Read on every call: the offset grows as the cluster runs ahead.
            ("FAKETIME_NO_CACHE".to_string(), "1".to_string()),
            // What `capa-tui` in that shell (and the learner) can read of it.
            ("CAPA_CLOCK_SPEED".to_string(), self.speed.to_string()),
        ]
    }

    fn followed(
        &self,
        asked: Timestamp,
        answered: Timestamp,
        second: Timestamp,
    ) -> Option<FastClock> {
        let (earliest, latest) = (self.at(asked), self.at(answered));
        let next_second = second.checked_add(SignedDuration::from_secs(1)).ok()?;
        let off = if latest < second {
            second.duration_since(latest)
        } else if earliest > next_second {
            earliest.duration_since(next_second)
        } else {
            SignedDuration::ZERO
        };
        let halfway =
            |a: Timestamp, b: Timestamp| a.checked_add(b.duration_since(a) / 2).unwrap_or(a);
        (off > SignedDuration::from_secs(3)).then(|| FastClock {
            speed: self.speed,
            cluster_at: halfway(second, next_second),
            wall_at: halfway(asked, answered),
            runs: self.runs.clone(),
        })
    }

    fn keep(&self, file: PathBuf, follow: Option<PathBuf>) -> std::io::Result<ClockFile> {
        let clock = Arc::new(std::sync::Mutex::new(self.clone()));
        let write = {
            let clock = clock.clone();
            let file = file.clone();
            move || -> std::io::Result<()> {
                let spec = clock
                    .lock()
                    .map_err(|_| std::io::Error::other("clock lock poisoned"))?
                    .offset_spec(Timestamp::now());
                // Under a fresh name, renamed into place: a reader never sees half an offset,
                // and a link left at either name is never written through.
                crate::lab::files::write_private(&file, &spec)
            }
        };
        write()?;
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        std::thread::spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(100));
                if write().is_err() {
                    return;
                }
            }
        });
        // A task, not the writer's thread: it ends with the runtime, never mid-request.
        let follower = follow
            .zip(tokio::runtime::Handle::try_current().ok())
            .map(|(kubeconfig, runtime)| runtime.spawn(follow_the_cluster(kubeconfig, clock)));
        Ok(ClockFile { stop, follower })
    }
}

/// Reads the cluster's clock every few seconds and re-anchors `clock` when it has moved.
async fn follow_the_cluster(kubeconfig: PathBuf, clock: Arc<std::sync::Mutex<FastClock>>) {
    loop {
        tokio::time::sleep(std::time::Duration::from_secs(5)).await;
        let asked = Timestamp::now();
        let Some(second) = cluster_now(&kubeconfig).await else {
            continue;
        };
        let answered = Timestamp::now();
        if let Ok(mut c) = clock.lock()
            && let Some(again) = c.followed(asked, answered, second)
        {
            *c = again;
        }
    }
}

/// The cluster's time, from a client made from `kubeconfig` as it is now; `None` when it does
/// not answer within two seconds.
async fn cluster_now(kubeconfig: &Path) -> Option<Timestamp> {
    let config = kube::config::Kubeconfig::read_from(kubeconfig).ok()?;
    let config = kube::Config::from_custom_kubeconfig(config, &Default::default())
        .await
        .ok()?;
    let client = kube::Client::try_from(config).ok()?;
    tokio::time::timeout(
        std::time::Duration::from_secs(2),
        crate::cluster::now(&client),
    )
    .await
    .ok()?
    .ok()
}

/// Keeps a clock file current while it lives ([`FastClock::keep`]).
#[derive(Debug)]
pub struct ClockFile {
    stop: Arc<AtomicBool>,
    follower: Option<tokio::task::JoinHandle<()>>,
}

impl Drop for ClockFile {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(f) = &self.follower {
            f.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(speed: f64) -> FastClock {
        FastClock {
            speed,
            cluster_at: "2026-12-03T10:00:00Z".parse().unwrap(),
            wall_at: "2026-12-03T09:00:00Z".parse().unwrap(),
            runs: Vec::new(),
        }
    }

    #[test]
    fn the_cluster_time_runs_at_its_speed_from_where_it_was_read() {
        let c = clock(5.0);
        let later: Timestamp = "2026-12-03T09:00:10Z".parse().unwrap();
        assert_eq!(c.at(later).to_string(), "2026-12-03T10:00:50Z");
        assert_eq!(c.offset_spec(later), "+3640.000s");
        let behind = FastClock {
            cluster_at: "2026-12-03T08:00:00Z".parse().unwrap(),
            ..clock(2.5)
        };
        assert_eq!(behind.offset_spec(later), "-3585.000s");
        let vars = c.shell_vars(Path::new("/l.so"), Some("/x.so"), Path::new("/f"));
        assert_eq!(vars[0], ("LD_PRELOAD".into(), "/l.so:/x.so".into()));
    }

    /// A clock that still tells the cluster's time stays; one the cluster has left behind (it
    /// was stopped and started again) is anchored on what the cluster says now.
    #[test]
    fn the_clock_follows_a_cluster_that_moved_on_its_own() {
        let c = clock(5.0);
        let t = |s: &str| -> Timestamp { s.parse().unwrap() };
        // At wall 09:00:10 the clock says 10:00:50; the header's whole second is 10:00:50.
        let (asked, answered) = (t("2026-12-03T09:00:10Z"), t("2026-12-03T09:00:10.100Z"));
        assert_eq!(c.followed(asked, answered, t("2026-12-03T10:00:50Z")), None);
        // A slow reply (half a wall second, 2.5 of the cluster's) to a header written when it
        // was asked: the clock was right, so it stays.
        let slow = t("2026-12-03T09:00:10.500Z");
        assert_eq!(c.followed(asked, slow, t("2026-12-03T10:00:50Z")), None);
        assert_eq!(c.followed(asked, slow, t("2026-12-03T10:00:47Z")), None);
        // A cluster that stood still 30 s of its own: anchored on the middle of its second.
        let again = c
            .followed(asked, answered, t("2026-12-03T10:00:20Z"))
            .unwrap();
        assert_eq!(
            (again.cluster_at, again.wall_at, again.speed),
            (
                t("2026-12-03T10:00:20.5Z"),
                t("2026-12-03T09:00:10.05Z"),
                5.0
            )
        );
        assert_eq!(
            again.at(t("2026-12-03T09:00:12.05Z")).to_string(),
            "2026-12-03T10:00:30.5Z"
        );
    }

    /// The clock file is renamed into place from a fresh name: links left at its name, or
    /// at the name it was once staged under, are never written through (issue 32).
    #[test]
    fn the_clock_file_never_writes_through_a_link_left_at_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        let file = dir.path().join("clock");
        std::os::unix::fs::symlink(outside.join("a"), &file).unwrap();
        std::os::unix::fs::symlink(outside.join("b"), file.with_extension("new")).unwrap();
        let keeper = clock(5.0).keep(file.clone(), None).unwrap();
        let written: Vec<_> = std::fs::read_dir(&outside).unwrap().collect();
        assert!(
            written.is_empty(),
            "the clock went through a link: {written:?}"
        );
        assert!(std::fs::read_to_string(&file).unwrap().ends_with('s'));
        drop(keeper);
    }

    /// The real library, where Debian's package is installed (scripts/test installs it): a
    /// shell on the clock, a program it starts, and one it starts two (real) seconds later,
    /// all read the cluster's time, two hours ahead of the wall's and running five times as
    /// fast.
    #[test]
    fn a_shell_and_what_it_starts_read_the_clusters_clock() {
        let lib = libfaketime().expect(
            "libfaketime is not installed: scripts/debian-packages faketime (scripts/test does it)",
        );
        let dir = tempfile::tempdir().unwrap();
        let wall = Timestamp::now();
        let c = FastClock {
            speed: 5.0,
            cluster_at: wall.checked_add(SignedDuration::from_hours(2)).unwrap(),
            wall_at: wall,
            runs: Vec::new(),
        };
        let file = dir.path().join("clock");
        let keeper = c.keep(file.clone(), None).unwrap();
        let out = std::process::Command::new("bash")
            .args([
                "-c",
                "date +%s.%N; LD_PRELOAD= /bin/sleep 2; date +%s.%N; LD_PRELOAD= date +%s.%N",
            ])
            .envs(c.shell_vars(&lib, None, &file))
            .output()
            .unwrap();
        drop(keeper);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let n: Vec<f64> = text.lines().map(|l| l.trim().parse().unwrap()).collect();
        #[allow(clippy::cast_precision_loss)]
        let cluster = |wall: f64| {
            let w = Timestamp::from_microsecond((wall * 1e6) as i64).unwrap();
            c.at(w).as_microsecond() as f64 / 1e6
        };
        // The second date ran about when the wall read n[2]: the cluster's time then.
        assert!((n[1] - cluster(n[2])).abs() < 1.5, "{text}");
        // Two real seconds between the dates are ten of the cluster's.
        assert!((n[1] - n[0] - 10.0).abs() < 1.5, "{text}");
    }
}
