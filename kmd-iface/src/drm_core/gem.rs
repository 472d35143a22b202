//! Driver-independent GEM calls: closing handles and PRIME (dma-buf) import/export.

use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd};

use super::uapi::*;
use crate::call::ioctl;
use crate::error::{Error, Result};
use crate::seam::DeviceFile;

/// The new descriptor a successful fd-exporting ioctl returned, owned.
pub(crate) fn take_fd(op: &'static str, fd: i32) -> Result<OwnedFd> {
    if fd < 0 {
        return Err(Error::Malformed {
            what: op,
            offset: 0,
            detail: format!("succeeded with file descriptor {fd}"),
        });
    }
    // SAFETY: the ioctl succeeded, so `fd` is a descriptor the kernel (or the device file,
    // under `DeviceFile::ioctl`'s contract) just installed for this process and handed to the
    // caller; nothing else owns it.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// `DRM_IOCTL_GEM_CLOSE`: releases a GEM handle.
pub fn gem_close(dev: &dyn DeviceFile, handle: u32) -> Result<()> {
    let mut arg = drm_gem_close { handle, pad: 0 };
    ioctl(dev, DRM_IOCTL_GEM_CLOSE, &mut arg)
        .map_err(|e| e.context(|| format!("handle {handle}")))?;
    Ok(())
}

/// `DRM_IOCTL_PRIME_HANDLE_TO_FD`: exports a BO as a dma-buf fd (`flags`: `DRM_CLOEXEC`,
/// `DRM_RDWR`).
pub fn prime_handle_to_fd(dev: &dyn DeviceFile, handle: u32, flags: u32) -> Result<OwnedFd> {
    let mut arg = drm_prime_handle {
        handle,
        flags,
        fd: -1,
    };
    ioctl(dev, DRM_IOCTL_PRIME_HANDLE_TO_FD, &mut arg)
        .map_err(|e| e.context(|| format!("handle {handle}")))?;
    take_fd("DRM_IOCTL_PRIME_HANDLE_TO_FD", arg.fd)
}

/// `DRM_IOCTL_PRIME_FD_TO_HANDLE`: imports a dma-buf fd as a GEM handle.
pub fn prime_fd_to_handle(dev: &dyn DeviceFile, fd: BorrowedFd<'_>) -> Result<u32> {
    let fd = fd.as_raw_fd();
    let mut arg = drm_prime_handle {
        handle: 0,
        flags: 0,
        fd,
    };
    ioctl(dev, DRM_IOCTL_PRIME_FD_TO_HANDLE, &mut arg)
        .map_err(|e| e.context(|| format!("fd {fd}")))?;
    Ok(arg.handle)
}
