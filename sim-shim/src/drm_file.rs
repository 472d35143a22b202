//! The DRM core's per-file rules that depend on the node a file was opened through, which the
//! simulator (one render file per GPU) does not model: DRM master (`drm_auth.c`) and the
//! render-node permission check (`drm_ioctl_permit` in `drm_ioctl.c`).
//!
//! Every `open` here is its GPU's first, so a primary-node file is its GPU's master from the
//! start (`drm_master_open`), with `was_master` set: SET_MASTER by its own process needs no
//! CAP_SYS_ADMIN (`drm_master_check_perm`). A render-node file is never a master, and the two
//! ioctls, not flagged `DRM_RENDER_ALLOW`, fail on it with EACCES before their handler runs.

use std::sync::atomic::Ordering;

use kmd_iface::drm_core::uapi::{DRM_IOCTL_DROP_MASTER, DRM_IOCTL_SET_MASTER};
use kmd_iface::seam::Errno;

use crate::paths::Minor;
use crate::state::DrmFile;

/// Answers `request` if it is one of the master ioctls; `None` for every other request.
pub fn ioctl(file: &DrmFile, request: u64) -> Option<Result<i32, Errno>> {
    let set = request == DRM_IOCTL_SET_MASTER;
    if !set && request != DRM_IOCTL_DROP_MASTER {
        return None;
    }
    if file.minor == Minor::Render {
        return Some(Err(Errno::EACCES));
    }
    // drm_setmaster_ioctl: already master, or no other master (there is none) → master, 0.
    // drm_dropmaster_ioctl: EINVAL unless the file is the current master.
    let was = file.master.swap(set, Ordering::SeqCst);
    Some(if set || was {
        Ok(0)
    } else {
        Err(Errno::EINVAL)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primary_file_is_master_and_can_drop_and_retake_it() {
        let f = DrmFile::new(Minor::Primary);
        assert_eq!(ioctl(&f, DRM_IOCTL_SET_MASTER), Some(Ok(0)));
        assert_eq!(ioctl(&f, DRM_IOCTL_DROP_MASTER), Some(Ok(0)));
        assert_eq!(ioctl(&f, DRM_IOCTL_DROP_MASTER), Some(Err(Errno::EINVAL)));
        assert_eq!(ioctl(&f, DRM_IOCTL_SET_MASTER), Some(Ok(0)));
        assert_eq!(ioctl(&f, DRM_IOCTL_DROP_MASTER), Some(Ok(0)));
    }

    #[test]
    fn render_file_gets_eacces() {
        let f = DrmFile::new(Minor::Render);
        assert_eq!(ioctl(&f, DRM_IOCTL_SET_MASTER), Some(Err(Errno::EACCES)));
        assert_eq!(ioctl(&f, DRM_IOCTL_DROP_MASTER), Some(Err(Errno::EACCES)));
        assert_eq!(
            ioctl(&f, kmd_iface::drm_core::uapi::DRM_IOCTL_VERSION),
            None
        );
    }
}
