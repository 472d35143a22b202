//! The i915 and xe kernel-driver uAPI a compute user-mode driver needs: `#[repr(C)]` structs, ioctl
//! numbers, safe wrappers.
//! Start reading: `seam::DeviceFile` (the one door to a kernel driver, real or simulated), then
//! `kmd.rs`.
//!
//! Every ioctl and mmap goes through [`seam::DeviceFile`]: the real DRM file is one implementation,
//! the simulator (crate `sim`) the other, so the same i915/xe code paths run against both.
//!
//! Layout: `*/uapi.rs` hold the `#[repr(C)]` structs, ioctl numbers and constants, each checked
//! against the installed kernel headers by `tests/layout_vs_headers.rs`.

#[cfg(not(target_pointer_width = "64"))]
compile_error!("the uAPI structs model C pointers as u64: 64-bit targets only");

pub mod blob;
pub mod call;
pub mod discovery;
pub mod drm_core;
pub mod error;
pub mod fixed_pages;
pub mod flags;
pub mod gpu_error;
pub mod gt_freq;
pub mod hwconfig;
pub mod i915;
pub mod ioc;
pub mod kmd;
pub mod layout;
pub mod pci;
pub mod pci_address;
pub mod render_node;
pub mod seam;
pub mod xe;

pub use error::{Error, Result};
pub use kmd::Kmd;

/// Every uAPI struct layout the crate defines.
pub fn all_structs() -> impl Iterator<Item = &'static layout::StructLayout> {
    [
        drm_core::uapi::STRUCTS,
        i915::uapi::STRUCTS,
        xe::uapi::STRUCTS,
    ]
    .into_iter()
    .flatten()
}

/// Every ioctl the crate defines.
pub fn all_ioctls() -> impl Iterator<Item = &'static ioc::IoctlInfo> {
    [drm_core::uapi::IOCTLS, i915::uapi::IOCTLS, xe::uapi::IOCTLS]
        .into_iter()
        .flatten()
}

/// Every header constant the crate defines.
pub fn all_consts() -> impl Iterator<Item = &'static layout::ConstValue> {
    [drm_core::uapi::CONSTS, i915::uapi::CONSTS, xe::uapi::CONSTS]
        .into_iter()
        .flatten()
}
