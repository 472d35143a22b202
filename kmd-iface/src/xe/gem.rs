//! xe buffer objects: creation with placement and CPU caching, and CPU mapping.

use super::device::Xe;
use super::uapi::*;
use crate::call::ioctl;
use crate::error::{Error, Result};
use crate::seam::Mapping;

/// What a new BO is created with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GemCreate {
    pub size: u64,
    /// Bit mask of memory-region instances (`drm_xe_mem_region.instance`) it may live in.
    pub placement: u32,
    pub flags: crate::flags::xe::GemCreateFlags,
    /// Non-zero: private to this VM (cannot be exported).
    pub vm_id: u32,
    /// `DRM_XE_GEM_CPU_CACHING_WB` or `_WC` (VRAM placements require WC).
    pub cpu_caching: u16,
}

impl Xe {
    /// `DRM_IOCTL_XE_GEM_CREATE`; returns the handle.
    pub fn gem_create(&self, c: &GemCreate) -> Result<u32> {
        let mut arg = drm_xe_gem_create {
            size: c.size,
            placement: c.placement,
            flags: c.flags.bits(),
            vm_id: c.vm_id,
            cpu_caching: c.cpu_caching,
            ..Default::default()
        };
        ioctl(self.file(), DRM_IOCTL_XE_GEM_CREATE, &mut arg)
            .map_err(|e| e.context(|| format!("{c:?}")))?;
        Ok(arg.handle)
    }

    /// `DRM_IOCTL_XE_GEM_MMAP_OFFSET`: the fake offset to mmap `handle` at.
    pub fn gem_mmap_offset(&self, handle: u32) -> Result<u64> {
        let mut arg = drm_xe_gem_mmap_offset {
            handle,
            ..Default::default()
        };
        ioctl(self.file(), DRM_IOCTL_XE_GEM_MMAP_OFFSET, &mut arg)
            .map_err(|e| e.context(|| format!("handle {handle}")))?;
        Ok(arg.offset)
    }

    /// Maps `len` bytes of a BO for the CPU (caching as chosen at creation).
    pub fn gem_mmap(&self, handle: u32, len: usize) -> Result<Mapping> {
        let offset = self.gem_mmap_offset(handle)?;
        self.file()
            .mmap(offset, len)
            .map_err(|errno| Error::Mmap { offset, len, errno })
    }

    /// Maps `len` bytes of a BO for the CPU at exactly `at`, replacing the mapping there.
    ///
    /// # Safety
    /// As [`crate::seam::DeviceFile::mmap_at`]: the range at `at` is the caller's reservation,
    /// given up to the returned mapping.
    pub unsafe fn gem_mmap_at(&self, handle: u32, len: usize, at: *mut u8) -> Result<Mapping> {
        let offset = self.gem_mmap_offset(handle)?;
        // SAFETY: forwarded from this function's contract.
        unsafe { self.file().mmap_at(offset, len, at) }.map_err(|errno| Error::Mmap {
            offset,
            len,
            errno,
        })
    }

    /// `DRM_IOCTL_GEM_CLOSE`.
    pub fn gem_close(&self, handle: u32) -> Result<()> {
        crate::drm_core::gem_close(self.file(), handle)
    }
}
