//! The cluster's clock. An embedded cluster run at `--speed N` keeps time N× faster than the
//! wall: every time it writes (Events, managedFields, operations) is on its clock, while the file
//! system dates files by the wall's. Whoever compares the two says one on the other's clock.

use jiff::{SignedDuration, Timestamp};

/// A cluster clock that runs `speed` times as fast as the wall clock: at wall time `wall_at`
/// it read `cluster_at`.
#[derive(Debug, Clone, PartialEq)]
pub struct FastClock {
    pub speed: f64,
    pub cluster_at: Timestamp,
    pub wall_at: Timestamp,
}

impl FastClock {
    /// The clock of a cluster that runs at `speed`, read from it once; `None` when it is the
    /// wall's (real speed, and not ahead) or the cluster does not say its time. An embedded
    /// cluster once run faster and restarted at real speed stays ahead (its clock never goes
    /// back): that clock runs at the wall's pace from a later time, and is said so too.
    pub async fn read(client: &kube::Client, speed: f64) -> Option<FastClock> {
        let cluster_at = crate::cluster::now(client).await.ok()?;
        FastClock::if_not_the_walls(speed, cluster_at, Timestamp::now())
    }

    /// The clock that read `cluster_at` at wall time `wall_at`, unless it is the wall's: at real
    /// speed and within the two seconds the cluster's whole-second Date header can be off.
    pub fn if_not_the_walls(
        speed: f64,
        cluster_at: Timestamp,
        wall_at: Timestamp,
    ) -> Option<FastClock> {
        let real_speed = (speed - 1.0).abs() < f64::EPSILON;
        let ahead = cluster_at.duration_since(wall_at).abs();
        if real_speed && ahead < SignedDuration::from_secs(2) {
            return None;
        }
        Some(FastClock {
            speed,
            cluster_at,
            wall_at,
        })
    }

    /// How far ahead of the wall a clock at real speed is; `None` when it runs faster.
    pub fn ahead_at_real_speed(&self) -> Option<SignedDuration> {
        ((self.speed - 1.0).abs() < f64::EPSILON)
            .then(|| self.cluster_at.duration_since(self.wall_at))
    }

    /// The cluster's time when the wall clock says `wall`.
    pub fn at(&self, wall: Timestamp) -> Timestamp {
        let passed = wall.duration_since(self.wall_at).as_secs_f64() * self.speed;
        self.cluster_at
            .checked_add(SignedDuration::from_secs_f64(passed))
            .unwrap_or(self.cluster_at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn a_cluster_at_real_speed_on_the_walls_time_has_no_clock_of_its_own() {
        let wall = t("2026-03-01T10:00:00Z");
        assert_eq!(
            FastClock::if_not_the_walls(1.0, t("2026-03-01T10:00:01Z"), wall),
            None
        );
    }

    /// A lab run at `--speed 10`, then reopened at real speed: its clock is an hour ahead, and
    /// a file written a minute ago was written a minute before the cluster's now.
    #[test]
    fn a_cluster_ahead_at_real_speed_is_said_on_its_own_clock() {
        let wall = t("2026-03-01T10:00:00Z");
        let clock = FastClock::if_not_the_walls(1.0, t("2026-03-01T11:00:00Z"), wall).unwrap();
        assert_eq!(
            clock.at(t("2026-03-01T10:01:00Z")),
            t("2026-03-01T11:01:00Z")
        );
        let fast = FastClock::if_not_the_walls(10.0, t("2026-03-01T10:00:00Z"), wall).unwrap();
        assert_eq!(
            fast.at(t("2026-03-01T10:01:00Z")),
            t("2026-03-01T10:10:00Z")
        );
    }
}
