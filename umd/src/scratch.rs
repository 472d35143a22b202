//! Scratch space: where IGC spills registers. One buffer per device with a slice for every
//! hardware thread the device can run (EUs × threads per EU, as NEO sizes it), kept across
//! dispatches and replaced by a bigger one only when a kernel needs larger slices.

use std::sync::Arc;

use batchbuffer::builder::{scratch_slice_bytes, scratch_slices, ScratchSpace};

use crate::device::Device;
use crate::error::Result;
use crate::memory::Bo;

/// The device's current scratch buffer (none until a kernel needs scratch).
#[derive(Debug, Default)]
pub(crate) struct ScratchCache {
    bo: Option<Arc<Bo>>,
    space: Option<ScratchSpace>,
}

impl Device {
    /// The scratch space for a kernel needing `bytes` per thread (None when it needs none):
    /// the device's buffer, first allocated or grown here. The returned BO must be part of
    /// the submission.
    pub(crate) fn scratch_for(&self, bytes: u32) -> Result<Option<(Arc<Bo>, ScratchSpace)>> {
        if bytes == 0 {
            return Ok(None);
        }
        let p = self.platform();
        let slice = scratch_slice_bytes(p, bytes)?;
        let slices = scratch_slices(p, self.info().eu_count);
        let mut cache = self.scratch.lock().unwrap_or_else(|e| e.into_inner());
        if let (Some(bo), Some(space)) = (&cache.bo, cache.space) {
            if space.slice >= slice && space.slices >= slices {
                return Ok(Some((bo.clone(), space)));
            }
        }
        // Dispatches wait for completion, so the old buffer is idle: dropping our reference
        // frees it once no submission of ours holds it.
        let bo = self.alloc_bo(u64::from(slice) * u64::from(slices))?;
        let space = ScratchSpace {
            address: bo.gpu_address,
            slice,
            slices,
        };
        *cache = ScratchCache {
            bo: Some(bo.clone()),
            space: Some(space),
        };
        Ok(Some((bo, space)))
    }

    /// The scratch space dispatches use now: None before the first kernel that spills.
    pub fn scratch_space(&self) -> Option<ScratchSpace> {
        self.scratch.lock().unwrap_or_else(|e| e.into_inner()).space
    }
}
