//! A functional simulator of Intel GPUs behind the i915 and xe kernel uAPI.

pub mod cs;
pub mod device_info;
pub mod gpu;
pub mod mem;
pub mod sync;
#[allow(dead_code)] // used by the personalities (next commit)
mod user;

/// The kernel driver a simulated device file speaks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kmd {
    I915,
    Xe,
}
