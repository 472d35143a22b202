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

/// Now on `CLOCK_MONOTONIC`, in nanoseconds: the clock syncobj wait deadlines are on.
pub fn monotonic_now_ns() -> i64 {
    nix::time::clock_gettime(nix::time::ClockId::CLOCK_MONOTONIC)
        .map(|t| t.tv_sec().saturating_mul(1_000_000_000) + t.tv_nsec())
        .unwrap_or(0)
}

/// `DRM_IOCTL_SYNCOBJ_WAIT` on `handles` until the absolute `timeout_nsec`
/// with `flags`.
pub fn syncobj_wait(
    dev: &dyn DeviceFile,
    handles: &[u32],
    timeout_nsec: i64,
    flags: crate::flags::drm::SyncobjWaitFlags,
) -> Result<SyncobjWait> {
    let mut arg = drm_syncobj_wait {
        handles: addr_of(handles),
        timeout_nsec,
        count_handles: to_u32("syncobj handles", handles.len())?,
        flags: flags.bits(),
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

/// `DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD`: exports a syncobj as an fd, or its fence as a sync_file with
/// `DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE`.
pub fn syncobj_handle_to_fd(
    dev: &dyn DeviceFile,
    handle: u32,
    flags: u32,
) -> Result<std::os::fd::OwnedFd> {
    let mut arg = drm_syncobj_handle {
        handle,
        flags,
        fd: -1,
        pad: 0,
    };
    ioctl(dev, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &mut arg)
        .map_err(|e| e.context(|| format!("syncobj {handle}")))?;
    super::gem::take_fd("DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD", arg.fd)
}

/// `DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE`: imports a syncobj fd, or with
/// `DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE` a sync_file into the existing `handle`.
pub fn syncobj_fd_to_handle(
    dev: &dyn DeviceFile,
    fd: std::os::fd::BorrowedFd<'_>,
    flags: u32,
    handle: u32,
) -> Result<u32> {
    let fd = std::os::fd::AsRawFd::as_raw_fd(&fd);
    let mut arg = drm_syncobj_handle {
        handle,
        flags,
        fd,
        pad: 0,
    };
    ioctl(dev, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &mut arg)
        .map_err(|e| e.context(|| format!("fd {fd}")))?;
    Ok(arg.handle)
}

/// `DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL`: signals `points[i]` of `handles[i]`.
pub fn syncobj_timeline_signal(
    dev: &dyn DeviceFile,
    handles: &[u32],
    points: &[u64],
) -> Result<()> {
    if handles.len() != points.len() {
        return Err(crate::Error::Mismatch {
            what: "timeline points per syncobj handle",
            expected: handles.len(),
            got: points.len(),
        });
    }
    let mut arg = drm_syncobj_timeline_array {
        handles: addr_of(handles),
        points: addr_of(points),
        count_handles: to_u32("syncobj handles", handles.len())?,
        flags: 0,
    };
    ioctl(dev, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &mut arg)
        .map_err(|e| e.context(|| format!("handles {handles:?}")))?;
    Ok(())
}

/// `DRM_IOCTL_SYNCOBJ_QUERY`: the last signalled point of each timeline syncobj.
pub fn syncobj_query(dev: &dyn DeviceFile, handles: &[u32]) -> Result<Vec<u64>> {
    let mut points = vec![0u64; handles.len()];
    let mut arg = drm_syncobj_timeline_array {
        handles: addr_of(handles),
        points: crate::call::addr_of_mut(&mut points),
        count_handles: to_u32("syncobj handles", handles.len())?,
        flags: 0,
    };
    ioctl(dev, DRM_IOCTL_SYNCOBJ_QUERY, &mut arg)
        .map_err(|e| e.context(|| format!("handles {handles:?}")))?;
    Ok(points)
}
