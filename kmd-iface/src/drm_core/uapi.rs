//! Core DRM uAPI (`drm/drm.h`) the compute path uses: VERSION, GEM_CLOSE, GEM_FLINK/GEM_OPEN
//! (global names, which the simulator answers), PRIME, SYNCOBJ_*,
//! and the argument-less SET_MASTER/DROP_MASTER (constants: they have no argument struct).
//!
//! The `drm` crate's calls take a real file descriptor (`AsFd`) and its `drm-sys` structs do not
//! implement zerocopy's traits, so neither can travel through the [`DeviceFile`] seam to the
//! simulator; the argument structs are therefore defined here, plain and layout-checked.
//!
//! [`DeviceFile`]: crate::seam::DeviceFile

use crate::ioc::ioctls;
use crate::layout::{uapi_consts, uapi_structs};

uapi_structs! { STRUCTS;
    /// `DRM_IOCTL_VERSION`: the driver's name ("i915", "xe") and version. `*_len` are in/out; the
    /// pointers are buffers in this process the kernel copies the strings into.
    struct drm_version [rust_only(pad0)] {
        version_major: i32,
        version_minor: i32,
        version_patchlevel: i32,
        pad0: u32,
        name_len: u64,
        name: u64,
        date_len: u64,
        date: u64,
        desc_len: u64,
        desc: u64,
    }
    /// `DRM_IOCTL_GEM_CLOSE`.
    struct drm_gem_close {
        handle: u32,
        pad: u32,
    }
    /// `DRM_IOCTL_GEM_FLINK`: a global name for a handle's object (primary node only).
    struct drm_gem_flink {
        handle: u32,
        name: u32,
    }
    /// `DRM_IOCTL_GEM_OPEN`: a new handle (and the size) of the object a global name names.
    struct drm_gem_open {
        name: u32,
        handle: u32,
        size: u64,
    }
    /// `DRM_IOCTL_PRIME_HANDLE_TO_FD` / `DRM_IOCTL_PRIME_FD_TO_HANDLE`.
    struct drm_prime_handle {
        handle: u32,
        flags: u32,
        fd: i32,
    }
    /// `DRM_IOCTL_SYNCOBJ_CREATE`.
    struct drm_syncobj_create {
        handle: u32,
        flags: u32,
    }
    /// `DRM_IOCTL_SYNCOBJ_DESTROY`.
    struct drm_syncobj_destroy {
        handle: u32,
        pad: u32,
    }
    /// `DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD` / `FD_TO_HANDLE`.
    struct drm_syncobj_handle {
        handle: u32,
        flags: u32,
        fd: i32,
        pad: u32,
    }
    /// `DRM_IOCTL_SYNCOBJ_WAIT`: `handles` points to `count_handles` u32 handles.
    struct drm_syncobj_wait {
        handles: u64,
        timeout_nsec: i64,
        count_handles: u32,
        flags: u32,
        first_signaled: u32,
        pad: u32,
        deadline_nsec: u64,
    }
    /// `DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT`.
    struct drm_syncobj_timeline_wait {
        handles: u64,
        points: u64,
        timeout_nsec: i64,
        count_handles: u32,
        flags: u32,
        first_signaled: u32,
        pad: u32,
        deadline_nsec: u64,
    }
    /// `DRM_IOCTL_SYNCOBJ_RESET` / `SIGNAL`.
    struct drm_syncobj_array {
        handles: u64,
        count_handles: u32,
        pad: u32,
    }
    /// `DRM_IOCTL_SYNCOBJ_QUERY` / `TIMELINE_SIGNAL`.
    struct drm_syncobj_timeline_array {
        handles: u64,
        points: u64,
        count_handles: u32,
        flags: u32,
    }
}

ioctls! { IOCTLS;
    DRM_IOCTL_VERSION = drm_iowr(0x00, drm_version);
    DRM_IOCTL_GEM_CLOSE = drm_iow(0x09, drm_gem_close);
    DRM_IOCTL_GEM_FLINK = drm_iowr(0x0a, drm_gem_flink);
    DRM_IOCTL_GEM_OPEN = drm_iowr(0x0b, drm_gem_open);
    DRM_IOCTL_PRIME_HANDLE_TO_FD = drm_iowr(0x2d, drm_prime_handle);
    DRM_IOCTL_PRIME_FD_TO_HANDLE = drm_iowr(0x2e, drm_prime_handle);
    DRM_IOCTL_SYNCOBJ_CREATE = drm_iowr(0xBF, drm_syncobj_create);
    DRM_IOCTL_SYNCOBJ_DESTROY = drm_iowr(0xC0, drm_syncobj_destroy);
    DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD = drm_iowr(0xC1, drm_syncobj_handle);
    DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE = drm_iowr(0xC2, drm_syncobj_handle);
    DRM_IOCTL_SYNCOBJ_WAIT = drm_iowr(0xC3, drm_syncobj_wait);
    DRM_IOCTL_SYNCOBJ_RESET = drm_iowr(0xC4, drm_syncobj_array);
    DRM_IOCTL_SYNCOBJ_SIGNAL = drm_iowr(0xC5, drm_syncobj_array);
    DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT = drm_iowr(0xCA, drm_syncobj_timeline_wait);
    DRM_IOCTL_SYNCOBJ_QUERY = drm_iowr(0xCB, drm_syncobj_timeline_array);
    DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL = drm_iowr(0xCD, drm_syncobj_timeline_array);
}

uapi_consts! { CONSTS;
    /// `DRM_IO(0x1e)`: become the device's DRM master again (primary nodes only).
    DRM_IOCTL_SET_MASTER: u64 = crate::ioc::drm_io(0x1e);
    /// `DRM_IO(0x1f)`: stop being its master.
    DRM_IOCTL_DROP_MASTER: u64 = crate::ioc::drm_io(0x1f);
    DRM_COMMAND_BASE: u32 = crate::ioc::DRM_COMMAND_BASE;
    DRM_CLOEXEC: u32 = nix::libc::O_CLOEXEC as u32;
    DRM_RDWR: u32 = nix::libc::O_RDWR as u32;
    DRM_SYNCOBJ_CREATE_SIGNALED: u32 = 1 << 0;
    DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE: u32 = 1 << 0;
    DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE: u32 = 1 << 0;
    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL: u32 = 1 << 0;
    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT: u32 = 1 << 1;
    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE: u32 = 1 << 2;
    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_DEADLINE: u32 = 1 << 3;
    DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED: u32 = 1 << 0;
}
