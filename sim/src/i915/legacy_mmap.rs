//! DRM_IOCTL_I915_GEM_MMAP, the legacy CPU mmap: unlike every other ioctl it creates a mapping
//! in the caller's address space, which only the preload shim can make, so the simulator
//! checks the request and hands back the pages; the shim maps them and fills `addr_ptr`.
//! Without the shim (a direct `DeviceFile` user, a forked child's forwarded ioctl) the ioctl
//! stays unrouted (EINVAL).
//!
//! The checks and their order are Linux 6.x's `i915_gem_mmap_ioctl` (i915_gem_mman.c), then
//! `vm_mmap`'s of the length and offset.

use kmd_iface::i915::uapi::{drm_i915_gem_mmap, I915_MMAP_WC};
use kmd_iface::seam::{Errno, Mapping};

use crate::device::SimDevice;
use crate::mem::PAGE_SIZE;
use crate::Kmd;

/// What the caller is to map: `len` bytes of `pages` from `offset`, shared, read-write.
#[derive(Debug)]
pub struct LegacyMmap {
    pub pages: Mapping,
    pub offset: usize,
    pub len: usize,
}

impl SimDevice {
    /// Checks a GEM_MMAP request as i915 does and returns the pages to map.
    pub fn i915_gem_mmap(&self, a: &drm_i915_gem_mmap) -> Result<LegacyMmap, Errno> {
        if self.kmd() != Kmd::I915 {
            return Err(Errno::EINVAL);
        }
        let info = self.info();
        // "disallowed for all discrete platforms, and for all platforms with GRAPHICS_VER >
        // 12": IS_DGFX || the major version > 12, so integrated Gen12 parts keep it.
        if info.has_local_memory || info.ip_version.0 > 12 {
            return Err(Errno::EOPNOTSUPP);
        }
        if a.flags & !I915_MMAP_WC != 0 {
            return Err(Errno::EINVAL);
        }
        // I915_MMAP_WC needs the CPU's PAT, which every x86-64 host the simulator models has;
        // the cache mode does not change what the simulated pages hold.
        let st = self.lock();
        let obj = st.gem.get(a.handle)?;
        // No shmem file behind a userptr object ("prime objects have no backing filp").
        if obj.bo.host_range().is_some() {
            return Err(Errno::ENXIO);
        }
        let size = obj.bo.size();
        // range_overflows(offset, size, object size).
        if a.offset >= size || a.size > size - a.offset {
            return Err(Errno::EINVAL);
        }
        // vm_mmap: a file offset inside a page, or no length, is EINVAL.
        if !a.offset.is_multiple_of(PAGE_SIZE) || a.size == 0 {
            return Err(Errno::EINVAL);
        }
        let len = a.size.div_ceil(PAGE_SIZE) * PAGE_SIZE;
        Ok(LegacyMmap {
            pages: obj.bo.mapping(),
            offset: a.offset as usize,
            len: len as usize,
        })
    }
}
