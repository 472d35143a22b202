//! DRM_IOCTL_I915_GEM_MMAP, the legacy CPU mmap, checked as Linux 6.x's
//! `i915_gem_mmap_ioctl` (i915_gem_mman.c) and `vm_mmap` answer it: refused on discrete parts
//! and past Gen12 (EOPNOTSUPP), unknown flags (EINVAL), unknown handles (ENOENT), userptr
//! objects, which have no shmem file (ENXIO), a range outside the object (EINVAL), an offset
//! inside a page or no length (vm_mmap: EINVAL). The pages named are the object's: what the
//! GPU-visible mapping holds. The shim's mapping of them runs under IGT's gem_blt
//! (`sim-shim/tests/igt.rs`).

use crate::common;

use common::*;
use kmd_iface::i915::uapi::*;
use kmd_iface::seam::{Errno, HeapBacking, Mapping};
use platform::Platform;
use sim::Kmd;
use std::sync::Arc;

fn req(handle: u32, offset: u64, size: u64, flags: u64) -> drm_i915_gem_mmap {
    drm_i915_gem_mmap {
        handle,
        offset,
        size,
        flags,
        ..Default::default()
    }
}

#[test]
fn legacy_mmap_follows_i915s_rules_on_every_platform() {
    for p in platforms(Kmd::I915) {
        let (dev, file) = open(p, Kmd::I915);
        let d = i915_of(file.clone());
        let h = d.gem_create(3 * 4096).unwrap().handle;
        let r = |a: drm_i915_gem_mmap| dev.i915_gem_mmap(&a).map(|m| (m.offset, m.len));
        // DG2 is the one discrete part; none is past GRAPHICS_VER 12.
        if p == Platform::Dg2 {
            assert_eq!(r(req(h, 0, 4096, 0)).err(), Some(Errno::EOPNOTSUPP), "{p}");
            continue;
        }
        // The object's pages, from the requested page, rounded up to whole pages.
        d.gem_mmap(h, 3 * 4096, i915_mmap_mode(p))
            .unwrap()
            .write(4096 + 5, b"legacy")
            .unwrap();
        let m = dev.i915_gem_mmap(&req(h, 4096, 100, I915_MMAP_WC)).unwrap();
        assert_eq!((m.offset, m.len), (4096, 4096), "{p}");
        let mut got = [0u8; 6];
        m.pages.read(m.offset + 5, &mut got).unwrap();
        assert_eq!(&got, b"legacy", "{p}");
        assert_eq!(r(req(h, 0, 3 * 4096, 0)), Ok((0, 3 * 4096)), "{p}");
        for (a, want) in [
            (req(h, 0, 4096, 2), Errno::EINVAL),
            (req(h + 100, 0, 4096, 0), Errno::ENOENT),
            (req(h, 3 * 4096, 0, 0), Errno::EINVAL),
            (req(h, 4096, 2 * 4096 + 1, 0), Errno::EINVAL),
            (req(h, 0, u64::MAX, 0), Errno::EINVAL),
            (req(h, 8, 4096, 0), Errno::EINVAL),
            (req(h, 4096, 0, 0), Errno::EINVAL),
        ] {
            assert_eq!(r(a).err(), Some(want), "{p}: {a:?}");
        }
        let host = Mapping::new(Arc::new(HeapBacking::zeroed(4096).unwrap()));
        let mut u = drm_i915_gem_userptr {
            user_ptr: host.as_ptr() as u64,
            user_size: 4096,
            ..Default::default()
        };
        call(&*file, DRM_IOCTL_I915_GEM_USERPTR, &mut u).unwrap();
        assert_eq!(
            r(req(u.handle, 0, 4096, 0)).err(),
            Some(Errno::ENXIO),
            "{p}"
        );
    }
    // Not an xe ioctl.
    for p in platforms(Kmd::Xe) {
        let (dev, _) = open(p, Kmd::Xe);
        let e = dev.i915_gem_mmap(&req(1, 0, 4096, 0)).err();
        assert_eq!(e, Some(Errno::EINVAL), "{p}");
    }
}
