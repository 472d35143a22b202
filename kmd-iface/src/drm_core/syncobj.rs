//! DRM sync objects: the fences i915's fence arrays and xe's syncs signal and wait on.

use super::uapi::*;
use crate::call::{addr_of, ioctl, to_u32};
use crate::error::Result;
use crate::seam::{DeviceFile, Errno};

/// `DRM_IOCTL_SYNCOBJ_CREATE` (`flags`: `DRM_SYNCOBJ_CREATE_SIGNALED`).
pub fn syncobj_create(dev: &dyn DeviceFile, flags: u32) -> Result<u32> {
    let mut arg = drm_syncobj_create { handle: 0, flags };
    ioctl(dev, DRM_IOCTL_SYNCOBJ_CREATE, &mut arg)?;
    Ok(arg.handle)
}

/// `DRM_IOCTL_SYNCOBJ_DESTROY`.
pub fn syncobj_destroy(dev: &dyn DeviceFile, handle: u32) -> Result<()> {
    let mut arg = drm_syncobj_destroy { handle, pad: 0 };
    ioctl(dev, DRM_IOCTL_SYNCOBJ_DESTROY, &mut arg)
        .map_err(|e| e.context(|| format!("syncobj {handle}")))?;
    Ok(())
}

/// What a syncobj wait came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncobjWait {
    /// Signalled; with `WAIT_ALL` unset, `first_signaled` is the index of the first one.
    Signaled { first_signaled: u32 },
    /// `timeout_nsec` (absolute, CLOCK_MONOTONIC) passed first.
    TimedOut,
}

/// `DRM_IOCTL_SYNCOBJ_WAIT` on `handles` until the absolute `timeout_nsec`
/// (`flags`: `DRM_SYNCOBJ_WAIT_FLAGS_*`).
pub fn syncobj_wait(
    dev: &dyn DeviceFile,
    handles: &[u32],
    timeout_nsec: i64,
    flags: u32,
) -> Result<SyncobjWait> {
    let mut arg = drm_syncobj_wait {
        handles: addr_of(handles),
        timeout_nsec,
        count_handles: to_u32("syncobj handles", handles.len())?,
        flags,
        ..Default::default()
    };
    match ioctl(dev, DRM_IOCTL_SYNCOBJ_WAIT, &mut arg) {
        Ok(_) => Ok(SyncobjWait::Signaled {
            first_signaled: arg.first_signaled,
        }),
        Err(e) if e.errno() == Some(Errno::ETIME) => Ok(SyncobjWait::TimedOut),
        Err(e) => Err(e.context(|| format!("handles {handles:?}"))),
    }
}

fn array_op(dev: &dyn DeviceFile, request: u64, handles: &[u32]) -> Result<()> {
    let mut arg = drm_syncobj_array {
        handles: addr_of(handles),
        count_handles: to_u32("syncobj handles", handles.len())?,
        pad: 0,
    };
    ioctl(dev, request, &mut arg).map_err(|e| e.context(|| format!("handles {handles:?}")))?;
    Ok(())
}

/// `DRM_IOCTL_SYNCOBJ_SIGNAL`.
pub fn syncobj_signal(dev: &dyn DeviceFile, handles: &[u32]) -> Result<()> {
    array_op(dev, DRM_IOCTL_SYNCOBJ_SIGNAL, handles)
}

/// `DRM_IOCTL_SYNCOBJ_RESET`.
pub fn syncobj_reset(dev: &dyn DeviceFile, handles: &[u32]) -> Result<()> {
    array_op(dev, DRM_IOCTL_SYNCOBJ_RESET, handles)
}
