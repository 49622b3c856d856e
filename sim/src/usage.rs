//! The simulated resource usage of containers, one model for `kubectl top` (metrics.k8s.io) and
//! the HPA controller, so what a learner reads and what scales agree. A container uses a few
//! millicores and a few MiB, stable and different per container (derived from the Pod's uid),
//! unless its Pod carries the annotation `capa-sim/cpu`: a CPU quantity (`250m`, `1`) each of
//! its containers then uses. That is how a lab makes load: annotate the Pods, or the
//! Deployment's Pod template (docs/sim-fidelity.md).

use serde_json::Value;

use crate::amount;
use crate::objects;

/// The annotation that sets a Pod's simulated CPU use per container.
pub const CPU_ANNOTATION: &str = "capa-sim/cpu";

/// A container's (CPU in nanocores, memory in KiB).
pub fn container(pod: &Value, container: &str) -> (u64, u64) {
    let seed = objects::uid(pod)
        .bytes()
        .chain(container.bytes())
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    let idle_cpu = 400_000 + seed % 2_600_000;
    let memory_ki = 3_000 + (seed >> 20) % 9_000;
    let cpu = pod["metadata"]["annotations"][CPU_ANNOTATION]
        .as_str()
        .and_then(millicores)
        .map_or(idle_cpu, |m| m * 1_000_000);
    (cpu, memory_ki)
}

/// A CPU quantity in whole millicores (`250m` → 250, `1` → 1000, `1.5` → 1500).
pub fn millicores(q: &str) -> Option<u64> {
    u64::try_from(amount::milli(q)?).ok()
}
