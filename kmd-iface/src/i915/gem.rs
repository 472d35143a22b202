//! i915 buffer objects: creation (system memory or regions), CPU mapping, domains, userptr,
//! waiting and busy queries.

use super::device::I915;
use super::uapi::*;
use crate::call::{addr_of, ioctl, to_u32};
use crate::error::{Error, Result};
use crate::seam::{Errno, Mapping};

/// How a BO is mapped for the CPU (`I915_MMAP_OFFSET_*`). Discrete parts (DG2) only accept
/// [`MmapMode::Fixed`], whose caching the kernel picks from the BO's placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MmapMode {
    Gtt,
    Wc,
    Wb,
    Uc,
    Fixed,
}

impl MmapMode {
    pub fn flags(self) -> u64 {
        match self {
            MmapMode::Gtt => I915_MMAP_OFFSET_GTT,
            MmapMode::Wc => I915_MMAP_OFFSET_WC,
            MmapMode::Wb => I915_MMAP_OFFSET_WB,
            MmapMode::Uc => I915_MMAP_OFFSET_UC,
            MmapMode::Fixed => I915_MMAP_OFFSET_FIXED,
        }
    }
}

/// A created BO: its handle and the size the kernel rounded the request up to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bo {
    pub handle: u32,
    pub size: u64,
}

/// `drm_i915_gem_busy.busy`, split as the header describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Busy {
    pub busy: bool,
    /// Bit per engine class reading the BO (high word).
    pub reading_classes: u16,
    /// Engine class + 1 of the last writer, 0 for none (low word).
    pub writing_class_plus_one: u16,
}

impl I915 {
    /// `DRM_IOCTL_I915_GEM_CREATE`: a BO in system memory.
    pub fn gem_create(&self, size: u64) -> Result<Bo> {
        let mut arg = drm_i915_gem_create {
            size,
            ..Default::default()
        };
        ioctl(self.file(), DRM_IOCTL_I915_GEM_CREATE, &mut arg)
            .map_err(|e| e.context(|| format!("size {size:#x}")))?;
        Ok(Bo {
            handle: arg.handle,
            size: arg.size,
        })
    }

    /// `DRM_IOCTL_I915_GEM_CREATE_EXT` placed in `regions` (in order of preference) with the
    /// `I915_GEM_CREATE_EXT_MEMORY_REGIONS` extension, with `flags`. No regions: no extension.
    pub fn gem_create_ext(
        &self,
        size: u64,
        regions: &[drm_i915_gem_memory_class_instance],
        flags: crate::flags::i915::GemCreateExtFlags,
    ) -> Result<Bo> {
        let mut ext = drm_i915_gem_create_ext_memory_regions {
            base: i915_user_extension {
                name: I915_GEM_CREATE_EXT_MEMORY_REGIONS,
                ..Default::default()
            },
            num_regions: to_u32("memory regions", regions.len())?,
            regions: addr_of(regions),
            ..Default::default()
        };
        let mut arg = drm_i915_gem_create_ext {
            size,
            flags: flags.bits(),
            extensions: if regions.is_empty() {
                0
            } else {
                &mut ext as *mut _ as u64
            },
            ..Default::default()
        };
        ioctl(self.file(), DRM_IOCTL_I915_GEM_CREATE_EXT, &mut arg)
            .map_err(|e| e.context(|| format!("size {size:#x}, regions {regions:?}")))?;
        Ok(Bo {
            handle: arg.handle,
            size: arg.size,
        })
    }

    /// `DRM_IOCTL_I915_GEM_MMAP_OFFSET`: the fake offset to mmap `handle` at.
    pub fn gem_mmap_offset(&self, handle: u32, mode: MmapMode) -> Result<u64> {
        let mut arg = drm_i915_gem_mmap_offset {
            handle,
            flags: mode.flags(),
            ..Default::default()
        };
        ioctl(self.file(), DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mut arg)
            .map_err(|e| e.context(|| format!("handle {handle}, {mode:?}")))?;
        Ok(arg.offset)
    }

    /// Maps `len` bytes of a BO for the CPU: mmap-offset, then mmap through the seam.
    pub fn gem_mmap(&self, handle: u32, len: usize, mode: MmapMode) -> Result<Mapping> {
        let offset = self.gem_mmap_offset(handle, mode)?;
        self.file()
            .mmap(offset, len)
            .map_err(|errno| Error::Mmap { offset, len, errno })
    }

    /// Maps `len` bytes of a BO for the CPU at exactly `at`, replacing the mapping there.
    ///
    /// # Safety
    /// As [`crate::seam::DeviceFile::mmap_at`]: the range at `at` is the caller's reservation,
    /// given up to the returned mapping.
    pub unsafe fn gem_mmap_at(
        &self,
        handle: u32,
        len: usize,
        mode: MmapMode,
        at: *mut u8,
    ) -> Result<Mapping> {
        let offset = self.gem_mmap_offset(handle, mode)?;
        // SAFETY: forwarded from this function's contract.
        unsafe { self.file().mmap_at(offset, len, at) }.map_err(|errno| Error::Mmap {
            offset,
            len,
            errno,
        })
    }

    /// `DRM_IOCTL_I915_GEM_SET_DOMAIN` (`I915_GEM_DOMAIN_*`).
    pub fn gem_set_domain(&self, handle: u32, read_domains: u32, write_domain: u32) -> Result<()> {
        let mut arg = drm_i915_gem_set_domain {
            handle,
            read_domains,
            write_domain,
        };
        ioctl(self.file(), DRM_IOCTL_I915_GEM_SET_DOMAIN, &mut arg)
            .map_err(|e| e.context(|| format!("handle {handle}")))?;
        Ok(())
    }

    /// `DRM_IOCTL_I915_GEM_USERPTR`: wraps `len` bytes of `memory` from `offset` (page-aligned
    /// both) as a BO. The caller keeps `memory` alive until the handle is closed.
    pub fn gem_userptr(
        &self,
        memory: &Mapping,
        offset: usize,
        len: usize,
        flags: u32,
    ) -> Result<u32> {
        if offset.checked_add(len).is_none_or(|end| end > memory.len()) {
            return Err(Error::Map(crate::seam::MapAccessError {
                offset,
                len,
                size: memory.len(),
            }));
        }
        let mut arg = drm_i915_gem_userptr {
            user_ptr: memory.as_ptr() as u64 + offset as u64,
            user_size: len as u64,
            flags,
            handle: 0,
        };
        ioctl(self.file(), DRM_IOCTL_I915_GEM_USERPTR, &mut arg)
            .map_err(|e| e.context(|| format!("{len:#x} bytes at {:#x}", arg.user_ptr)))?;
        Ok(arg.handle)
    }

    /// `DRM_IOCTL_I915_GEM_WAIT`: `true` once idle, `false` if `timeout_ns` passed first
    /// (negative waits forever).
    pub fn gem_wait(&self, handle: u32, timeout_ns: i64) -> Result<bool> {
        let mut arg = drm_i915_gem_wait {
            bo_handle: handle,
            flags: 0,
            timeout_ns,
        };
        match ioctl(self.file(), DRM_IOCTL_I915_GEM_WAIT, &mut arg) {
            Ok(_) => Ok(true),
            Err(e) if e.errno() == Some(Errno::ETIME) => Ok(false),
            Err(e) => Err(e.context(|| format!("handle {handle}"))),
        }
    }

    /// `DRM_IOCTL_I915_GEM_BUSY`.
    pub fn gem_busy(&self, handle: u32) -> Result<Busy> {
        let mut arg = drm_i915_gem_busy { handle, busy: 0 };
        ioctl(self.file(), DRM_IOCTL_I915_GEM_BUSY, &mut arg)
            .map_err(|e| e.context(|| format!("handle {handle}")))?;
        Ok(Busy {
            busy: arg.busy != 0,
            reading_classes: (arg.busy >> 16) as u16,
            writing_class_plus_one: arg.busy as u16,
        })
    }

    /// `DRM_IOCTL_GEM_CLOSE`.
    pub fn gem_close(&self, handle: u32) -> Result<()> {
        crate::drm_core::gem_close(self.file(), handle)
    }
}
