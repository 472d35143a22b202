//! xe submission (`DRM_IOCTL_XE_EXEC`), syncs, and waiting on user fences.

use super::device::Xe;
use super::uapi::*;
use crate::call::{addr_of, ioctl, to_u32};
use crate::error::Result;
use crate::flags::xe::UfenceWaitFlags;
use crate::seam::Errno;

/// Constructors for `drm_xe_sync` entries.
pub mod sync {
    use super::super::uapi::*;
    use crate::flags::xe::SyncFlags;

    /// A binary syncobj to wait on (`signal` false) or signal.
    pub fn syncobj(handle: u32, signal: bool) -> drm_xe_sync {
        let mut s = drm_xe_sync {
            r#type: DRM_XE_SYNC_TYPE_SYNCOBJ,
            flags: if signal {
                SyncFlags::SIGNAL
            } else {
                SyncFlags::empty()
            }
            .bits(),
            ..Default::default()
        };
        s.set_handle(handle);
        s
    }

    /// A timeline syncobj point to wait on or signal.
    pub fn timeline(handle: u32, point: u64, signal: bool) -> drm_xe_sync {
        let mut s = syncobj(handle, signal);
        s.r#type = DRM_XE_SYNC_TYPE_TIMELINE_SYNCOBJ;
        s.timeline_value = point;
        s
    }

    /// A user fence: on completion the GPU writes `value` to the 8-byte-aligned GPU/CPU
    /// address `addr` (always a signal).
    pub fn user_fence(addr: u64, value: u64) -> drm_xe_sync {
        drm_xe_sync {
            r#type: DRM_XE_SYNC_TYPE_USER_FENCE,
            flags: SyncFlags::SIGNAL.bits(),
            addr,
            timeline_value: value,
            ..Default::default()
        }
    }
}

/// A `DRM_IOCTL_XE_WAIT_USER_FENCE` request: wait until `(*addr & mask) <op> value`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UserFenceWait {
    pub addr: u64,
    /// `DRM_XE_UFENCE_WAIT_OP_*`.
    pub op: u16,
    pub value: u64,
    pub mask: u64,
    /// Nanoseconds (negative: forever); absolute CLOCK_MONOTONIC with `abstime`.
    pub timeout: i64,
    pub abstime: bool,
    /// The queue whose failure ends the wait early (0: none).
    pub exec_queue_id: u32,
}

impl Xe {
    /// `DRM_IOCTL_XE_EXEC`: runs the batch at GPU address `batch` on `exec_queue_id`.
    pub fn exec(&self, exec_queue_id: u32, batch: u64, syncs: &[drm_xe_sync]) -> Result<()> {
        let mut arg = drm_xe_exec {
            exec_queue_id,
            num_syncs: to_u32("syncs", syncs.len())?,
            syncs: addr_of(syncs),
            address: batch,
            num_batch_buffer: 1,
            ..Default::default()
        };
        ioctl(self.file(), DRM_IOCTL_XE_EXEC, &mut arg)
            .map_err(|e| e.context(|| format!("exec queue {exec_queue_id}, batch {batch:#x}")))?;
        Ok(())
    }

    /// Waits on a user fence: `true` when the condition holds, `false` on timeout.
    pub fn wait_user_fence(&self, w: &UserFenceWait) -> Result<bool> {
        let mut arg = drm_xe_wait_user_fence {
            addr: w.addr,
            op: w.op,
            flags: if w.abstime {
                UfenceWaitFlags::ABSTIME
            } else {
                UfenceWaitFlags::empty()
            }
            .bits(),
            value: w.value,
            mask: w.mask,
            timeout: w.timeout,
            exec_queue_id: w.exec_queue_id,
            ..Default::default()
        };
        match ioctl(self.file(), DRM_IOCTL_XE_WAIT_USER_FENCE, &mut arg) {
            Ok(_) => Ok(true),
            Err(e) if e.errno() == Some(Errno::ETIME) => Ok(false),
            Err(e) => Err(e.context(|| format!("fence at {:#x}", w.addr))),
        }
    }
}
