//! `DRM_IOCTL_I915_REG_READ`: the whitelisted registers, used for the GPU timestamp.

use super::device::I915;
use super::uapi::*;
use crate::call::ioctl;
use crate::error::Result;

/// The render engine's `RING_TIMESTAMP` (low dword; the 64-bit read spans the high dword at
/// 0x235C). Register offset from Mesa and NEO (`TIMESTAMP_LOW_REG`).
pub const RENDER_RING_TIMESTAMP: u64 = 0x2358;

impl I915 {
    /// Reads a whitelisted register (`offset` may carry `I915_REG_READ_8B_WA`).
    pub fn reg_read(&self, offset: u64) -> Result<u64> {
        let mut arg = drm_i915_reg_read { offset, val: 0 };
        ioctl(self.file(), DRM_IOCTL_I915_REG_READ, &mut arg)
            .map_err(|e| e.context(|| format!("register {offset:#x}")))?;
        Ok(arg.val)
    }

    /// The render command streamer's timestamp, in `cs_timestamp_frequency` ticks. Uses the
    /// 8-byte-read workaround flag, which makes the kernel read both dwords consistently.
    pub fn gpu_timestamp(&self) -> Result<u64> {
        self.reg_read(RENDER_RING_TIMESTAMP | I915_REG_READ_8B_WA)
    }
}
