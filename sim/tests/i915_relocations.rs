//! i915 execbuf relocations (`drm_i915_gem_relocation_entry`, uAPI `i915_drm.h`) on every
//! simulated i915 platform, as Linux 6.12's `i915_gem_execbuffer.c` defines them: applied up to
//! TGL-LP, refused with EINVAL after it (DG2); skipped when `presumed_offset` is already right,
//! or entirely with `I915_EXEC_NO_RELOC` when nothing moved; targets by handle or, with
//! `I915_EXEC_HANDLE_LUT`, by index; 64-bit values written at 4-byte aligned offsets.

use crate::common;

use common::*;
use kmd_iface::i915::uapi::*;
use kmd_iface::seam::{Errno, Mapping};
use platform::Platform;
use sim::Kmd;

/// MI_STORE_DATA_IMM's address is its DW1..DW2 (Gen8+ command layout): byte 4 of the batch.
const ADDRESS_AT: u64 = 4;
const VALUE: u32 = 0x5eed_0001;

/// The relocation at `offset` of the batch naming `target`.
fn reloc(target: u32, delta: u32, offset: u64, presumed: u64) -> drm_i915_gem_relocation_entry {
    drm_i915_gem_relocation_entry {
        target_handle: target,
        delta,
        offset,
        presumed_offset: presumed,
        read_domains: I915_GEM_DOMAIN_RENDER,
        write_domain: I915_GEM_DOMAIN_RENDER,
    }
}

struct Setup {
    d: kmd_iface::i915::I915,
    file: std::sync::Arc<dyn kmd_iface::seam::DeviceFile>,
    target: u32,
    batch: u32,
    target_map: Mapping,
    batch_map: Mapping,
}

fn setup(p: Platform) -> Setup {
    let (_dev, file) = open(p, Kmd::I915);
    let d = i915_of(file.clone());
    let target = d.gem_create(4096).unwrap().handle;
    let batch = d.gem_create(4096).unwrap().handle;
    let target_map = d.gem_mmap(target, 4096, i915_mmap_mode(p)).unwrap();
    let batch_map = d.gem_mmap(batch, 4096, i915_mmap_mode(p)).unwrap();
    // A store to address 0, which only the relocation makes the target's.
    let b = store_batch(p, 0, VALUE);
    assert_eq!(&b[ADDRESS_AT as usize..ADDRESS_AT as usize + 8], &[0; 8]);
    batch_map.write(0, &b).unwrap();
    Setup {
        d,
        file,
        target,
        batch,
        target_map,
        batch_map,
    }
}

/// Target first, batch last (the default batch position), the batch carrying `relocs`.
fn objects(
    s: &Setup,
    relocs: &mut [drm_i915_gem_relocation_entry],
) -> [drm_i915_gem_exec_object2; 2] {
    let t = drm_i915_gem_exec_object2 {
        handle: s.target,
        flags: EXEC_OBJECT_SUPPORTS_48B_ADDRESS,
        ..Default::default()
    };
    let b = drm_i915_gem_exec_object2 {
        handle: s.batch,
        flags: EXEC_OBJECT_SUPPORTS_48B_ADDRESS,
        relocation_count: relocs.len() as u32,
        relocs_ptr: relocs.as_mut_ptr() as u64,
        ..Default::default()
    };
    [t, b]
}

fn exec(s: &Setup, objs: &mut [drm_i915_gem_exec_object2], flags: u64) -> Result<i32, Errno> {
    let mut eb = drm_i915_gem_execbuffer2 {
        buffers_ptr: objs.as_mut_ptr() as u64,
        buffer_count: objs.len() as u32,
        flags: I915_EXEC_RENDER | flags,
        ..Default::default()
    };
    call(&*s.file, DRM_IOCTL_I915_GEM_EXECBUFFER2, &mut eb)
}

fn canonical(a: u64) -> u64 {
    (((a << 16) as i64) >> 16) as u64
}

#[test]
fn relocations_patch_objects_and_report_presumed_offsets() {
    for p in platforms(Kmd::I915) {
        let s = setup(p);
        let mut relocs = [reloc(s.target, 16, ADDRESS_AT, u64::MAX)];
        let mut objs = objects(&s, &mut relocs);
        let r = exec(&s, &mut objs, 0);
        if p == Platform::Dg2 {
            // eb_validate_vma: no relocations after TGL-LP.
            assert_eq!(r, Err(Errno::EINVAL), "{p}");
            continue;
        }
        r.unwrap_or_else(|e| panic!("{p}: {e}"));
        assert!(s.d.gem_wait(s.batch, -1).unwrap(), "{p}");
        let target_va = objs[0].offset;
        assert_ne!(target_va, 0, "{p}: the target's placement is reported");
        assert_eq!(
            relocs[0].presumed_offset, target_va,
            "{p}: presumed_offset updated"
        );
        let mut patched = [0u8; 8];
        s.batch_map.read(ADDRESS_AT as usize, &mut patched).unwrap();
        assert_eq!(
            u64::from_le_bytes(patched),
            canonical(target_va + 16),
            "{p}: the batch holds the target's address + delta"
        );
        assert_eq!(
            s.target_map.load_u32(16).unwrap(),
            VALUE,
            "{p}: the store landed"
        );

        // NO_RELOC, nothing moved: the entries are not even looked at (a wrong presumed
        // offset stays as the user wrote it).
        let mut stale = [reloc(s.target, 16, ADDRESS_AT, 0x1234_0000)];
        let mut again = objects(&s, &mut stale);
        again[0].offset = objs[0].offset;
        again[1].offset = objs[1].offset;
        exec(&s, &mut again, I915_EXEC_NO_RELOC).unwrap();
        assert!(s.d.gem_wait(s.batch, -1).unwrap(), "{p}");
        assert_eq!(stale[0].presumed_offset, 0x1234_0000, "{p}");

        // HANDLE_LUT: the target is index 0 of the list; a new delta moves the store.
        s.target_map.write(32, &[0; 4]).unwrap();
        let mut lut = [reloc(0, 32, ADDRESS_AT, 0)];
        let mut third = objects(&s, &mut lut);
        exec(&s, &mut third, I915_EXEC_HANDLE_LUT).unwrap();
        assert!(s.d.gem_wait(s.batch, -1).unwrap(), "{p}");
        assert_eq!(s.target_map.load_u32(32).unwrap(), VALUE, "{p}");
        assert_eq!(lut[0].presumed_offset, target_va, "{p}");

        // A right presumed offset skips the entry, including its offset checks.
        let mut right = [reloc(s.target, 0, 2, target_va)];
        let mut fourth = objects(&s, &mut right);
        exec(&s, &mut fourth, 0).unwrap();
        assert!(s.d.gem_wait(s.batch, -1).unwrap(), "{p}");
    }
}

#[test]
fn bad_relocations_are_refused_as_the_kernel_does() {
    for p in platforms(Kmd::I915) {
        if p == Platform::Dg2 {
            continue;
        }
        let s = setup(p);
        let domains = |read, write| drm_i915_gem_relocation_entry {
            read_domains: read,
            write_domain: write,
            ..reloc(s.target, 0, ADDRESS_AT, u64::MAX)
        };
        let cases: [(drm_i915_gem_relocation_entry, u64, Errno); 7] = [
            // A handle that is not in the list.
            (reloc(0x7777, 0, ADDRESS_AT, u64::MAX), 0, Errno::ENOENT),
            // An index past the list.
            (
                reloc(2, 0, ADDRESS_AT, u64::MAX),
                I915_EXEC_HANDLE_LUT,
                Errno::ENOENT,
            ),
            // Two write domains.
            (
                domains(
                    I915_GEM_DOMAIN_RENDER,
                    I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_SAMPLER,
                ),
                0,
                Errno::EINVAL,
            ),
            // A CPU domain.
            (domains(I915_GEM_DOMAIN_CPU, 0), 0, Errno::EINVAL),
            (domains(I915_GEM_DOMAIN_GTT, 0), 0, Errno::EINVAL),
            // Not 4-byte aligned; no room for 8 bytes.
            (reloc(s.target, 0, 6, u64::MAX), 0, Errno::EINVAL),
            (reloc(s.target, 0, 4096 - 4, u64::MAX), 0, Errno::EINVAL),
        ];
        for (r, flags, want) in cases {
            let mut relocs = [r];
            let mut objs = objects(&s, &mut relocs);
            assert_eq!(exec(&s, &mut objs, flags), Err(want), "{p}: {r:?}");
        }
        // The last 8 bytes are a legal place.
        let mut relocs = [reloc(s.target, 0, 4096 - 8, u64::MAX)];
        let mut objs = objects(&s, &mut relocs);
        // (The batch just ends: the patched qword is past its end.)
        s.batch_map.write(0, &end_batch(p)).unwrap();
        exec(&s, &mut objs, 0).unwrap();
        assert!(s.d.gem_wait(s.batch, -1).unwrap(), "{p}");
        assert_eq!(
            s.batch_map.load_u64(4096 - 8).unwrap(),
            canonical(objs[0].offset),
            "{p}"
        );
    }
}
