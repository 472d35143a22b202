//! GETPARAM and REG_READ.

use kmd_iface::i915::uapi::*;
use kmd_iface::seam::Errno;

use crate::device::SimDevice;
use crate::device_info::DeviceInfo;
use crate::regs::{RING_TIMESTAMP, RING_TIMESTAMP_UDW};
use crate::user;

/// i915's `INTEL_PPGTT_FULL` (full 48-bit per-process GTT).
const PPGTT_FULL: i32 = 2;
/// `I915_SCHEDULER_CAP_ENABLED`.
const SCHEDULER_ENABLED: i32 = 1;
/// `I915_PARAM_MMAP_GTT_VERSION` of current kernels.
const MMAP_GTT_VERSION: i32 = 4;

/// A parameter's value, or None for parameters the simulated driver does not know (EINVAL).
pub(crate) fn value(info: &DeviceInfo, param: i32) -> Option<i32> {
    let t = &info.topology;
    let sat = |v: u64| i32::try_from(v).unwrap_or(i32::MAX);
    Some(match param {
        I915_PARAM_CHIPSET_ID => i32::from(info.pci_id),
        I915_PARAM_REVISION => i32::from(info.revision),
        I915_PARAM_HAS_ALIASING_PPGTT => PPGTT_FULL,
        I915_PARAM_EU_TOTAL => sat(t.eu_total().into()),
        I915_PARAM_SUBSLICE_TOTAL => sat(t.subslice_total().into()),
        I915_PARAM_SLICE_MASK => sat(t.slice_mask()),
        // The subslice mask of slice 0, as an int (all 32 bits set reads as -1).
        I915_PARAM_SUBSLICE_MASK => t.subslices_of(0) as u32 as i32,
        I915_PARAM_CS_TIMESTAMP_FREQUENCY => sat(info.timestamp_hz),
        I915_PARAM_HAS_BLT
        | I915_PARAM_HAS_EXEC_SOFTPIN
        | I915_PARAM_HAS_EXEC_NO_RELOC
        | I915_PARAM_HAS_EXEC_HANDLE_LUT
        | I915_PARAM_HAS_EXEC_BATCH_FIRST
        | I915_PARAM_HAS_EXEC_FENCE_ARRAY
        | I915_PARAM_HAS_CONTEXT_ISOLATION
        | I915_PARAM_HAS_EXEC_FENCE => 1,
        // Timeline fences (execbuf extensions) are not simulated.
        I915_PARAM_HAS_EXEC_TIMELINE_FENCES => 0,
        I915_PARAM_HAS_EXEC_CAPTURE => 1,
        I915_PARAM_HAS_SCHEDULER => SCHEDULER_ENABLED,
        I915_PARAM_MMAP_GTT_VERSION => MMAP_GTT_VERSION,
        I915_PARAM_HAS_USERPTR_PROBE => 1,
        // EU pooling exists only on Broxton (HAS_POOLED_EU, sseu->min_eu_in_pool).
        I915_PARAM_HAS_POOLED_EU | I915_PARAM_MIN_EU_IN_POOL => 0,
        _ => return None,
    })
}

pub(crate) fn getparam(dev: &SimDevice, a: &mut drm_i915_getparam) -> Result<i32, Errno> {
    let v = value(dev.info(), a.param).ok_or(Errno::EINVAL)?;
    user::write_val(a.value, &v)?;
    Ok(0)
}

/// REG_READ: only the render engine's RING_TIMESTAMP is whitelisted, read as 64 bits (with or
/// without I915_REG_READ_8B_WA in the offset's low bit).
pub(crate) fn reg_read(dev: &SimDevice, a: &mut drm_i915_reg_read) -> Result<i32, Errno> {
    let base = u64::from(dev.info().engines[0].mmio_base);
    let flags = a.offset & 7;
    if a.offset & !7 != base + u64::from(RING_TIMESTAMP) || flags & !I915_REG_READ_8B_WA != 0 {
        return Err(Errno::EINVAL);
    }
    debug_assert_eq!(RING_TIMESTAMP_UDW, RING_TIMESTAMP + 4);
    a.val = dev.lock().gpu.clock.ticks();
    Ok(0)
}
