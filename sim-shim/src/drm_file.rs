//! The DRM core's per-file rules that depend on the node a file was opened through, which the
//! simulator (it answers every file as an authenticated one) does not model: DRM master
//! (`drm_auth.c`) and the permission check (`drm_ioctl_permit` in `drm_ioctl.c`).
//!
//! Every `open` of a node is a new file of the process's simulated GPU. The first file opened
//! through the primary node while the GPU has no master becomes master (`drm_master_open`),
//! with `was_master` set and authenticated; a later primary file is authenticated only with
//! CAP_SYS_ADMIN (`drm_file_alloc`). A render-node file is never a master: the master ioctls
//! and the `DRM_AUTH` ones without `DRM_RENDER_ALLOW` (GEM_FLINK, GEM_OPEN) fail on it with
//! EACCES before their handler runs, and on an unauthenticated primary file too.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use kmd_iface::drm_core::uapi::{
    DRM_IOCTL_DROP_MASTER, DRM_IOCTL_GEM_FLINK, DRM_IOCTL_GEM_OPEN, DRM_IOCTL_SET_MASTER,
};
use kmd_iface::seam::Errno;

use crate::paths::Minor;

/// Which file of a GPU is its master (`drm_device.master`), shared by the GPU's files.
#[derive(Default)]
pub struct MasterSlot(Mutex<Option<u64>>);

impl MasterSlot {
    fn lock(&self) -> MutexGuard<'_, Option<u64>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The DRM file an `open` made, shared by its `dup`s.
pub struct DrmFile {
    pub minor: Minor,
    id: u64,
    master: Arc<MasterSlot>,
    was_master: AtomicBool,
    authenticated: AtomicBool,
}

/// Whether the process has CAP_SYS_ADMIN (`capable()`): bit 21 of `CapEff` in
/// `/proc/self/status`. Read once, on the first `open` of a node, before any lock is held.
pub fn cap_sys_admin() -> bool {
    static CAP: OnceLock<bool> = OnceLock::new();
    *CAP.get_or_init(|| {
        const CAP_SYS_ADMIN: u32 = 21;
        std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("CapEff:"))
                    .and_then(|v| u64::from_str_radix(v.trim(), 16).ok())
            })
            .is_some_and(|caps| caps >> CAP_SYS_ADMIN & 1 == 1)
    })
}

impl DrmFile {
    /// A new file of the GPU whose master slot is `master`; `admin` is [`cap_sys_admin`].
    pub fn new(minor: Minor, master: Arc<MasterSlot>, admin: bool) -> DrmFile {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        let mut became = false;
        if minor == Minor::Primary {
            let mut slot = master.lock();
            if slot.is_none() {
                *slot = Some(id);
                became = true;
            }
        }
        DrmFile {
            minor,
            id,
            master,
            was_master: became.into(),
            authenticated: (became || admin).into(),
        }
    }

    fn is_master(&self, slot: &Option<u64>) -> bool {
        *slot == Some(self.id)
    }
}

impl Drop for DrmFile {
    /// `drm_master_release`: the GPU has no master once its master's file is closed.
    fn drop(&mut self) {
        let mut slot = self.master.lock();
        if self.is_master(&slot) {
            *slot = None;
        }
    }
}

/// Answers `request` if the node's rules decide it (the master ioctls, or a refused DRM_AUTH
/// one); `None` for a request the simulator answers.
pub fn ioctl(file: &DrmFile, request: u64, admin: bool) -> Option<Result<i32, Errno>> {
    if request == DRM_IOCTL_GEM_FLINK || request == DRM_IOCTL_GEM_OPEN {
        let allowed = file.minor == Minor::Primary && file.authenticated.load(Ordering::SeqCst);
        return (!allowed).then_some(Err(Errno::EACCES));
    }
    let set = request == DRM_IOCTL_SET_MASTER;
    if !set && request != DRM_IOCTL_DROP_MASTER {
        return None;
    }
    if file.minor == Minor::Render {
        return Some(Err(Errno::EACCES));
    }
    let mut slot = file.master.lock();
    // drm_master_check_perm: a file that was master (in the process that opened it), or
    // CAP_SYS_ADMIN.
    let permitted = file.was_master.load(Ordering::SeqCst) || admin;
    Some(if set {
        // drm_setmaster_ioctl
        if file.is_master(&slot) {
            Ok(0)
        } else if slot.is_some() {
            Err(Errno::EBUSY)
        } else if !permitted {
            Err(Errno::EACCES)
        } else {
            *slot = Some(file.id);
            file.was_master.store(true, Ordering::SeqCst);
            file.authenticated.store(true, Ordering::SeqCst);
            Ok(0)
        }
    } else if !permitted {
        // drm_dropmaster_ioctl checks the permission first
        Err(Errno::EACCES)
    } else if file.is_master(&slot) {
        *slot = None;
        Ok(0)
    } else {
        Err(Errno::EINVAL)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gpu() -> Arc<MasterSlot> {
        Arc::default()
    }

    #[test]
    fn first_primary_file_is_master_and_can_drop_and_retake_it() {
        let g = gpu();
        let f = DrmFile::new(Minor::Primary, g.clone(), false);
        assert_eq!(ioctl(&f, DRM_IOCTL_SET_MASTER, false), Some(Ok(0)));
        assert_eq!(ioctl(&f, DRM_IOCTL_DROP_MASTER, false), Some(Ok(0)));
        assert_eq!(
            ioctl(&f, DRM_IOCTL_DROP_MASTER, false),
            Some(Err(Errno::EINVAL))
        );
        assert_eq!(ioctl(&f, DRM_IOCTL_SET_MASTER, false), Some(Ok(0)));
        assert_eq!(ioctl(&f, DRM_IOCTL_DROP_MASTER, false), Some(Ok(0)));
    }

    #[test]
    fn a_second_primary_file_is_not_master_nor_authenticated_without_the_capability() {
        let g = gpu();
        let first = DrmFile::new(Minor::Primary, g.clone(), false);
        let second = DrmFile::new(Minor::Primary, g.clone(), false);
        assert_eq!(
            ioctl(&second, DRM_IOCTL_SET_MASTER, false),
            Some(Err(Errno::EBUSY))
        );
        assert_eq!(
            ioctl(&second, DRM_IOCTL_GEM_OPEN, false),
            Some(Err(Errno::EACCES))
        );
        assert_eq!(ioctl(&first, DRM_IOCTL_GEM_FLINK, false), None);
        // Closing the master leaves the GPU without one; the second may not take it
        // without having been master or the capability.
        drop(first);
        assert_eq!(
            ioctl(&second, DRM_IOCTL_SET_MASTER, false),
            Some(Err(Errno::EACCES))
        );
        assert_eq!(ioctl(&second, DRM_IOCTL_SET_MASTER, true), Some(Ok(0)));
        assert_eq!(ioctl(&second, DRM_IOCTL_GEM_OPEN, false), None);
        let admin = DrmFile::new(Minor::Primary, g, true);
        assert_eq!(ioctl(&admin, DRM_IOCTL_GEM_FLINK, true), None);
    }

    #[test]
    fn render_file_gets_eacces() {
        let f = DrmFile::new(Minor::Render, gpu(), true);
        assert_eq!(
            ioctl(&f, DRM_IOCTL_SET_MASTER, true),
            Some(Err(Errno::EACCES))
        );
        assert_eq!(
            ioctl(&f, DRM_IOCTL_DROP_MASTER, true),
            Some(Err(Errno::EACCES))
        );
        assert_eq!(
            ioctl(&f, DRM_IOCTL_GEM_FLINK, true),
            Some(Err(Errno::EACCES))
        );
        assert_eq!(
            ioctl(&f, DRM_IOCTL_GEM_OPEN, true),
            Some(Err(Errno::EACCES))
        );
        assert_eq!(
            ioctl(&f, kmd_iface::drm_core::uapi::DRM_IOCTL_VERSION, true),
            None
        );
    }
}
