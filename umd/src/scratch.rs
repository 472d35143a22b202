//! Scratch space: where IGC spills registers. One buffer per queue (its work runs in order, so
//! its dispatches never run at once) with a slice for every thread slot of the device's topology
//! (`batchbuffer::builder::DeviceLimits`), kept across dispatches and replaced by a bigger one
//! only when a kernel needs larger slices.

use std::sync::Arc;

use batchbuffer::builder::{scratch_slice_bytes, ScratchSpace};

use crate::device::Inner;
use crate::error::Result;
use crate::memory::Bo;

/// The device's current scratch buffer (none until a kernel needs scratch).
#[derive(Debug, Default)]
pub(crate) struct ScratchCache {
    bo: Option<Arc<Bo>>,
    space: Option<ScratchSpace>,
}

impl ScratchCache {
    /// The scratch space in use: None before the first kernel that spills.
    pub(crate) fn space(&self) -> Option<ScratchSpace> {
        self.space
    }

    /// The scratch space for a kernel needing `bytes` per thread (None when it needs none):
    /// the queue's buffer, first allocated or grown here. The returned BO must be part of
    /// the submission.
    pub(crate) fn get(
        &mut self,
        dev: &Arc<Inner>,
        bytes: u32,
    ) -> Result<Option<(Arc<Bo>, ScratchSpace)>> {
        if bytes == 0 {
            return Ok(None);
        }
        let p = dev.info.platform;
        let slice = scratch_slice_bytes(p, bytes)?;
        let slices = dev.info.limits.scratch_slices;
        let cache = self;
        if let (Some(bo), Some(space)) = (&cache.bo, cache.space) {
            if space.slice >= slice && space.slices >= slices {
                return Ok(Some((bo.clone(), space)));
            }
        }
        // Submissions still running keep the old buffer alive until they retire.
        let bo = dev.alloc_bo(u64::from(slice) * u64::from(slices))?;
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
}
