//! `DRM_IOCTL_I915_REG_READ`: the whitelisted registers, used for the GPU timestamp.

use super::device::I915;
use super::uapi::*;
use crate::call::ioctl;
use crate::error::Result;

/// The render engine's MMIO base (the kernel's `RENDER_RING_BASE`).
pub const RENDER_RING_BASE: u32 = 0x2000;
/// `RING_TIMESTAMP` as an offset from an engine's MMIO base (the kernel's
/// `RING_TIMESTAMP(base)`); its low dword. The high dword follows.
pub const RING_TIMESTAMP: u32 = 0x358;
/// `RING_TIMESTAMP_UDW`: the timestamp's high dword.
pub const RING_TIMESTAMP_UDW: u32 = RING_TIMESTAMP + 4;
/// The render engine's `RING_TIMESTAMP`, the register `DRM_IOCTL_I915_REG_READ` whitelists
/// (Mesa's and NEO's `TIMESTAMP_LOW_REG`, 0x2358).
pub const RENDER_RING_TIMESTAMP: u64 = (RENDER_RING_BASE + RING_TIMESTAMP) as u64;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_timestamp_is_mesa_and_neos_timestamp_low_reg() {
        // TIMESTAMP_LOW_REG / TIMESTAMP_HIGH_REG in Mesa and NEO.
        assert_eq!(RENDER_RING_TIMESTAMP, 0x2358);
        assert_eq!(u64::from(RENDER_RING_BASE + RING_TIMESTAMP_UDW), 0x235c);
    }
}
