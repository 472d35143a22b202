//! Driver-independent GEM calls: closing handles and PRIME (dma-buf) import/export.

use super::uapi::*;
use crate::call::ioctl;
use crate::error::Result;
use crate::seam::DeviceFile;

/// `DRM_IOCTL_GEM_CLOSE`: releases a GEM handle.
pub fn gem_close(dev: &dyn DeviceFile, handle: u32) -> Result<()> {
    let mut arg = drm_gem_close { handle, pad: 0 };
    ioctl(dev, DRM_IOCTL_GEM_CLOSE, &mut arg)
        .map_err(|e| e.context(|| format!("handle {handle}")))?;
    Ok(())
}

/// `DRM_IOCTL_PRIME_HANDLE_TO_FD`: exports a BO as a dma-buf fd (`flags`: `DRM_CLOEXEC`,
/// `DRM_RDWR`).
pub fn prime_handle_to_fd(dev: &dyn DeviceFile, handle: u32, flags: u32) -> Result<i32> {
    let mut arg = drm_prime_handle {
        handle,
        flags,
        fd: -1,
    };
    ioctl(dev, DRM_IOCTL_PRIME_HANDLE_TO_FD, &mut arg)
        .map_err(|e| e.context(|| format!("handle {handle}")))?;
    Ok(arg.fd)
}

/// `DRM_IOCTL_PRIME_FD_TO_HANDLE`: imports a dma-buf fd as a GEM handle.
pub fn prime_fd_to_handle(dev: &dyn DeviceFile, fd: i32) -> Result<u32> {
    let mut arg = drm_prime_handle {
        handle: 0,
        flags: 0,
        fd,
    };
    ioctl(dev, DRM_IOCTL_PRIME_FD_TO_HANDLE, &mut arg)
        .map_err(|e| e.context(|| format!("fd {fd}")))?;
    Ok(arg.handle)
}
