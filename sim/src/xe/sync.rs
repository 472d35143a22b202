//! `struct drm_xe_sync` arrays of VM_BIND and EXEC: parsing, checking and signalling.

use std::sync::Arc;

use kmd_iface::flags::xe::SyncFlags;
use kmd_iface::seam::Errno;
use kmd_iface::xe::uapi::*;

use crate::device::State;
use crate::sync::Fence;
use crate::user;

/// A checked sync entry.
#[derive(Debug, Clone)]
pub(crate) enum Sync {
    /// Wait for this fence (a syncobj in-fence) before starting.
    Wait(Arc<Fence>),
    /// Signal syncobj `handle` (at timeline `point`, 0 for binary).
    Signal { handle: u32, point: u64 },
    /// Write `value` to the user fence at `addr` (a GPU VA for EXEC, a CPU pointer for VM_BIND).
    UserFence { addr: u64, value: u64 },
}

/// Reads and checks `num` syncs at `ptr`. In-fences must already have a fence (the kernel's
/// `drm_syncobj_find_fence` fails with EINVAL otherwise). `lr` forbids syncobj out-fences
/// (long-running VMs signal only user fences).
pub(crate) fn parse(st: &State, ptr: u64, num: u32, lr: bool) -> Result<Vec<Sync>, Errno> {
    if num > DRM_XE_MAX_SYNCS {
        return Err(Errno::EINVAL);
    }
    let raw: Vec<drm_xe_sync> = user::read_array(ptr, num as usize)?;
    let mut out = Vec::new();
    let mut ufences = 0;
    for s in raw {
        let Some(flags) = SyncFlags::from_bits(s.flags) else {
            return Err(Errno::EINVAL);
        };
        if s.extensions != 0 || s.reserved.iter().any(|&r| r != 0) {
            return Err(Errno::EINVAL);
        }
        let signal = flags.contains(SyncFlags::SIGNAL);
        match s.r#type {
            DRM_XE_SYNC_TYPE_SYNCOBJ | DRM_XE_SYNC_TYPE_TIMELINE_SYNCOBJ => {
                let timeline = s.r#type == DRM_XE_SYNC_TYPE_TIMELINE_SYNCOBJ;
                if timeline == (s.timeline_value == 0) {
                    return Err(Errno::EINVAL);
                }
                let handle = s.handle();
                // The union's upper half must be clear for syncobj types.
                if s.addr >> 32 != 0 {
                    return Err(Errno::EINVAL);
                }
                let obj = st.syncobjs.get(handle).ok_or(Errno::ENOENT)?;
                if signal {
                    if lr {
                        return Err(Errno::EOPNOTSUPP);
                    }
                    out.push(Sync::Signal {
                        handle,
                        point: s.timeline_value,
                    });
                } else {
                    let fences = obj.point_fences(s.timeline_value).ok_or(Errno::EINVAL)?;
                    out.extend(fences.into_iter().map(Sync::Wait));
                }
            }
            DRM_XE_SYNC_TYPE_USER_FENCE => {
                if !signal {
                    return Err(Errno::EOPNOTSUPP);
                }
                ufences += 1;
                if s.addr % 8 != 0 || ufences > 1 {
                    return Err(Errno::EINVAL);
                }
                out.push(Sync::UserFence {
                    addr: s.addr,
                    value: s.timeline_value,
                });
            }
            _ => return Err(Errno::EINVAL),
        }
    }
    Ok(out)
}

/// Records `fence` in every signalled syncobj.
pub(crate) fn signal(st: &mut State, syncs: &[Sync], fence: &Arc<Fence>) {
    let outs: Vec<(u32, u64)> = syncs
        .iter()
        .filter_map(|s| match *s {
            Sync::Signal { handle, point } => Some((handle, point)),
            Sync::UserFence { .. } | Sync::Wait(_) => None,
        })
        .collect();
    crate::drm::signal_syncobjs(st, &outs, fence);
}
