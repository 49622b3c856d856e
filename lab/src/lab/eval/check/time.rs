//! Times as the evidence records them: RFC 3339 strings, compared as instants; and how early
//! a time taken in the lab's shell may read against one the cluster wrote.

use crate::cluster::clock::FastClock;

/// An RFC 3339 time, as an instant.
pub fn time_of(s: &str) -> Option<jiff::Timestamp> {
    s.parse().ok()
}

/// A JSON value holding an RFC 3339 time, as an instant.
pub fn time(v: &serde_json::Value) -> Option<jiff::Timestamp> {
    v.as_str().and_then(time_of)
}

/// How many of the cluster's seconds a `date +%s` taken right after a write may read before
/// it: one, for the seconds both sides truncate to, or one of the wall's under `--speed`. The
/// lab shell's `date` is on the cluster's clock through an offset refreshed ten times a
/// second, which a sped-up clock multiplies; on a loaded machine it read two cluster seconds
/// behind a write at `--speed 5` that it had followed.
pub fn shell_allowance(clock: Option<&FastClock>) -> f64 {
    clock.map_or(1.0, |c| c.speed.max(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_allowance_is_one_wall_second_at_any_speed() {
        assert_eq!(shell_allowance(None), 1.0);
        let fast = |speed| FastClock {
            speed,
            cluster_at: jiff::Timestamp::UNIX_EPOCH,
            wall_at: jiff::Timestamp::UNIX_EPOCH,
            runs: Vec::new(),
        };
        assert_eq!(shell_allowance(Some(&fast(5.0))), 5.0);
        assert_eq!(shell_allowance(Some(&fast(0.5))), 1.0);
    }
}
