//! EXEC and WAIT_USER_FENCE.

use std::time::Duration;

use kmd_iface::flags::xe::UfenceWaitFlags;
use kmd_iface::seam::Errno;
use kmd_iface::xe::uapi::*;

use super::sync::{self, Sync};
use super::vm_read;
use crate::device::{Deadline, SimDevice, State};
use crate::gpu::Job;
use crate::user;

pub(crate) fn exec(dev: &SimDevice, a: &mut drm_xe_exec) -> Result<i32, Errno> {
    if a.extensions != 0 || a.pad.iter().any(|&p| p != 0) || a.reserved.iter().any(|&r| r != 0) {
        return Err(Errno::EINVAL);
    }
    let mut guard = dev.lock();
    let st = &mut *guard;
    let q = st.xe.queues.get(&a.exec_queue_id).ok_or(Errno::ENOENT)?;
    // Every queue has width 1.
    if a.num_batch_buffer != 1 {
        return Err(Errno::EINVAL);
    }
    if q.hw.banned() {
        return Err(Errno::ECANCELED);
    }
    let syncs = sync::parse(st, a.syncs, a.num_syncs, q.lr)?;
    let job = Job {
        engine: q.engine,
        vm: vm_read(&q.vm).clone(),
        batch: a.address,
        after: syncs
            .iter()
            .filter_map(|s| match s {
                Sync::Wait(f) => Some(f.clone()),
                _ => None,
            })
            .collect(),
        with: Vec::new(),
        user_fence: syncs.iter().find_map(|s| match *s {
            Sync::UserFence { addr, value } => Some((addr, value)),
            _ => None,
        }),
    };
    let State { gpu, xe, .. } = st;
    let q = xe.queues.get_mut(&a.exec_queue_id).ok_or(Errno::ENOENT)?;
    let fence = gpu.submit(&mut q.hw, job);
    sync::signal(st, &syncs, &fence);
    drop(guard);
    dev.notify();
    Ok(0)
}

/// How often a user-fence wait re-reads memory the CPU may write without telling anyone.
const USER_FENCE_POLL: Duration = Duration::from_millis(1);

pub(crate) fn wait_user_fence(
    dev: &SimDevice,
    a: &mut drm_xe_wait_user_fence,
) -> Result<i32, Errno> {
    let Some(flags) = UfenceWaitFlags::from_bits(a.flags) else {
        return Err(Errno::EINVAL);
    };
    if a.extensions != 0
        || a.op > DRM_XE_UFENCE_WAIT_OP_LTE
        || a.pad != 0
        || a.pad2 != 0
        || a.reserved.iter().any(|&r| r != 0)
        || !a.addr.is_multiple_of(8)
    {
        return Err(Errno::EINVAL);
    }
    let abs = flags.contains(UfenceWaitFlags::ABSTIME);
    if a.exec_queue_id != 0 && !dev.lock().xe.queues.contains_key(&a.exec_queue_id) {
        return Err(Errno::ENOENT);
    }
    let deadline = if abs {
        Deadline::monotonic_ns(a.timeout)
    } else {
        Deadline::relative_ns(a.timeout)
    };
    let (value, mask) = (a.value & a.mask, a.mask);
    let r = dev.wait_until(deadline, Some(USER_FENCE_POLL), |st, _| {
        let cur: u64 = user::read_val(a.addr)?;
        let cur = cur & mask;
        let passed = match a.op {
            DRM_XE_UFENCE_WAIT_OP_EQ => cur == value,
            DRM_XE_UFENCE_WAIT_OP_NEQ => cur != value,
            DRM_XE_UFENCE_WAIT_OP_GT => cur > value,
            DRM_XE_UFENCE_WAIT_OP_GTE => cur >= value,
            DRM_XE_UFENCE_WAIT_OP_LT => cur < value,
            _ => cur <= value,
        };
        if passed {
            return Ok(Some(0));
        }
        // A queue that was reset will never write the fence.
        match st.xe.queues.get(&a.exec_queue_id) {
            Some(q) if q.hw.banned() => Err(Errno::EIO),
            _ => Ok(None),
        }
    });
    if !abs {
        a.timeout = if r == Err(Errno::ETIME) {
            0
        } else {
            deadline.remaining_ns().min(a.timeout.max(0))
        };
    }
    r
}
