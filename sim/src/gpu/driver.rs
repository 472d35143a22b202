//! What the GPU model needs from the kernel driver that drives it: the rule that resets an
//! engine stuck on a request, and where a captured error is published. Each personality
//! implements it; a bare simulated GPU has none (only the simulator's backstops apply, and
//! errors stay in the log).

use crate::cs::HangRule;
use crate::device_info::EngineDesc;
use crate::gpu_error::GpuErrorRecord;

/// The kernel driver's side of the GPU's reset path.
pub trait KernelDriver: Send + Sync {
    /// The rule for a request on `engine` of a context whose own job timeout is
    /// `job_timeout_ms`: `None` when the context has none (long-running), `Some(0)` when it
    /// left it to the driver's default, `Some(ms)` when it set one. Read at each request, so
    /// a change of the driver's settings takes effect at the next one.
    fn hang_rule(&self, engine: &EngineDesc, job_timeout_ms: Option<u64>) -> HangRule;

    /// Publishes error `rec` where the driver's users read it. A capture that cannot be
    /// written leaves the reader with "no capture", which it reports as such: the error itself
    /// is still signalled on the fence.
    fn publish_error(&self, rec: &GpuErrorRecord);
}
