//! One negative test per argument-checking rule, for both personalities, through the raw
//! DeviceFile seam with kmd-iface's uAPI structs (the safe wrappers cannot build bad arguments).
//! Each expected errno is what the kernel driver returns for the same call.

use crate::common;

use std::sync::Arc;

use common::*;
use kmd_iface::drm_core::uapi::*;
use kmd_iface::i915::uapi::*;
use kmd_iface::seam::{DeviceFile, Errno};
use kmd_iface::xe::uapi::*;
use platform::Platform;
use sim::Kmd;

/// An address no process has mapped (the first page is never mapped).
const BAD_PTR: u64 = 0x10;

// ---------------------------------------------------------------- i915

fn i915() -> Arc<dyn DeviceFile> {
    open(Platform::Tgllp, Kmd::I915).1
}

fn create(f: &dyn DeviceFile) -> u32 {
    let mut c = drm_i915_gem_create {
        size: 4096,
        ..Default::default()
    };
    call(f, DRM_IOCTL_I915_GEM_CREATE, &mut c).unwrap();
    c.handle
}

fn exec_with(
    f: &dyn DeviceFile,
    objs: &[drm_i915_gem_exec_object2],
    tweak: impl FnOnce(&mut drm_i915_gem_execbuffer2),
) -> Result<i32, Errno> {
    let mut eb = drm_i915_gem_execbuffer2 {
        buffers_ptr: objs.as_ptr() as u64,
        buffer_count: objs.len() as u32,
        flags: I915_EXEC_RENDER | I915_EXEC_BATCH_FIRST | I915_EXEC_NO_RELOC,
        ..Default::default()
    };
    tweak(&mut eb);
    call(f, DRM_IOCTL_I915_GEM_EXECBUFFER2, &mut eb)
}

fn pinned(handle: u32, offset: u64) -> drm_i915_gem_exec_object2 {
    drm_i915_gem_exec_object2 {
        handle,
        offset,
        flags: EXEC_OBJECT_PINNED | EXEC_OBJECT_SUPPORTS_48B_ADDRESS,
        ..Default::default()
    }
}

/// A batch object holding MI_BATCH_BUFFER_END.
fn batch(f: &dyn DeviceFile) -> u32 {
    let h = create(f);
    let mut mo = drm_i915_gem_mmap_offset {
        handle: h,
        flags: I915_MMAP_OFFSET_WB,
        ..Default::default()
    };
    call(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mut mo).unwrap();
    f.mmap(mo.offset, 4096)
        .unwrap()
        .write(0, &end_batch(Platform::Tgllp))
        .unwrap();
    h
}

#[test]
fn i915_bad_handles_are_enoent() {
    let f = i915();
    let f = f.as_ref();
    let mut mo = drm_i915_gem_mmap_offset {
        handle: 99,
        flags: I915_MMAP_OFFSET_WB,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mut mo),
        Errno::ENOENT
    );
    let mut w = drm_i915_gem_wait {
        bo_handle: 99,
        ..Default::default()
    };
    assert_eq!(errno(f, DRM_IOCTL_I915_GEM_WAIT, &mut w), Errno::ENOENT);
    let mut b = drm_i915_gem_busy {
        handle: 99,
        busy: 0,
    };
    assert_eq!(errno(f, DRM_IOCTL_I915_GEM_BUSY, &mut b), Errno::ENOENT);
    assert_eq!(
        exec_with(f, &[pinned(99, 0x10000)], |_| {}),
        Err(Errno::ENOENT)
    );
    let h = batch(f);
    assert_eq!(
        exec_with(f, &[pinned(h, 0x10000)], |eb| eb.rsvd1 = 42),
        Err(Errno::ENOENT)
    );
    let mut rs = drm_i915_reset_stats {
        ctx_id: 42,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_I915_GET_RESET_STATS, &mut rs),
        Errno::ENOENT
    );
    let mut vd = drm_i915_gem_vm_control {
        vm_id: 42,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_I915_GEM_VM_DESTROY, &mut vd),
        Errno::ENOENT
    );
    let mut cd = drm_i915_gem_context_destroy { ctx_id: 42, pad: 0 };
    assert_eq!(
        errno(f, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &mut cd),
        Errno::ENOENT
    );
    // A VM id that does not exist, given to a new context.
    let ext = drm_i915_gem_context_create_ext_setparam {
        base: i915_user_extension {
            name: I915_CONTEXT_CREATE_EXT_SETPARAM,
            ..Default::default()
        },
        param: drm_i915_gem_context_param {
            param: I915_CONTEXT_PARAM_VM,
            value: 42,
            ..Default::default()
        },
    };
    let mut cc = drm_i915_gem_context_create_ext {
        flags: I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS,
        extensions: &ext as *const _ as u64,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT, &mut cc),
        Errno::ENOENT
    );
    // A syncobj in the fence array that does not exist.
    let fences = [drm_i915_gem_exec_fence {
        handle: 77,
        flags: I915_EXEC_FENCE_SIGNAL,
    }];
    let r = exec_with(f, &[pinned(h, 0x10000)], |eb| {
        eb.flags |= I915_EXEC_FENCE_ARRAY;
        eb.cliprects_ptr = fences.as_ptr() as u64;
        eb.num_cliprects = 1;
    });
    assert_eq!(r, Err(Errno::ENOENT));
    // GEM_CLOSE of an unknown handle is EINVAL in the DRM core, not ENOENT.
    let mut gc = drm_gem_close { handle: 99, pad: 0 };
    assert_eq!(errno(f, DRM_IOCTL_GEM_CLOSE, &mut gc), Errno::EINVAL);
}

#[test]
fn i915_bad_flags_are_einval() {
    let f = i915();
    let f = f.as_ref();
    let mut c = drm_i915_gem_create_ext {
        size: 4096,
        flags: 1 << 5,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_I915_GEM_CREATE_EXT, &mut c),
        Errno::EINVAL
    );
    let h = batch(f);
    assert_eq!(
        exec_with(f, &[pinned(h, 0x10000)], |eb| eb.flags |= 1 << 30),
        Err(Errno::EINVAL)
    );
    let mut o = pinned(h, 0x10000);
    o.flags |= 1 << 20;
    assert_eq!(exec_with(f, &[o], |_| {}), Err(Errno::EINVAL));
    let mut w = drm_i915_gem_wait {
        bo_handle: h,
        flags: 1,
        timeout_ns: 0,
    };
    assert_eq!(errno(f, DRM_IOCTL_I915_GEM_WAIT, &mut w), Errno::EINVAL);
    let mut cc = drm_i915_gem_context_create_ext {
        flags: 1 << 7,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT, &mut cc),
        Errno::EINVAL
    );
    let mut vm = drm_i915_gem_vm_control {
        flags: 1,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_I915_GEM_VM_CREATE, &mut vm),
        Errno::EINVAL
    );
    let mut q = drm_i915_query {
        flags: 1,
        ..Default::default()
    };
    assert_eq!(errno(f, DRM_IOCTL_I915_QUERY, &mut q), Errno::EINVAL);
    let mut mo = drm_i915_gem_mmap_offset {
        handle: h,
        flags: 99,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mut mo),
        Errno::EINVAL
    );
    let mut sd = drm_i915_gem_set_domain {
        handle: h,
        read_domains: I915_GEM_DOMAIN_RENDER,
        write_domain: 0,
    };
    assert_eq!(
        errno(f, DRM_IOCTL_I915_GEM_SET_DOMAIN, &mut sd),
        Errno::EINVAL
    );
    let mut gp = drm_i915_getparam {
        param: 9999,
        pad0: 0,
        value: 0,
    };
    assert_eq!(errno(f, DRM_IOCTL_I915_GETPARAM, &mut gp), Errno::EINVAL);
    let mut rr = drm_i915_reg_read {
        offset: 0x2000,
        val: 0,
    };
    assert_eq!(errno(f, DRM_IOCTL_I915_REG_READ, &mut rr), Errno::EINVAL);
    // An ioctl number the driver does not have.
    assert_eq!(
        // SAFETY: sixteen zero bytes hold no pointer.
        unsafe { f.ioctl(kmd_iface::ioc::drm_iowr(0x40 + 0x3f, 16), &mut [0u8; 16]) },
        Err(Errno::EINVAL)
    );
}

#[test]
fn i915_nonzero_pad_and_reserved_are_einval() {
    let f = i915();
    let f = f.as_ref();
    let mut c = drm_i915_gem_create {
        size: 4096,
        handle: 0,
        pad: 1,
    };
    assert_eq!(errno(f, DRM_IOCTL_I915_GEM_CREATE, &mut c), Errno::EINVAL);
    let h = batch(f);
    let mut gc = drm_gem_close { handle: h, pad: 1 };
    assert_eq!(errno(f, DRM_IOCTL_GEM_CLOSE, &mut gc), Errno::EINVAL);
    let mut mo = drm_i915_gem_mmap_offset {
        handle: h,
        pad: 1,
        flags: I915_MMAP_OFFSET_WB,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mut mo),
        Errno::EINVAL
    );
    let mut rs = drm_i915_reset_stats {
        pad: 1,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_I915_GET_RESET_STATS, &mut rs),
        Errno::EINVAL
    );
    let mut cd = drm_i915_gem_context_destroy { ctx_id: 0, pad: 1 };
    assert_eq!(
        errno(f, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &mut cd),
        Errno::EINVAL
    );
    let mut o = pinned(h, 0x10000);
    o.rsvd2 = 1;
    assert_eq!(exec_with(f, &[o], |_| {}), Err(Errno::EINVAL));
    assert_eq!(
        exec_with(f, &[pinned(h, 0x10000)], |eb| eb.DR1 = 1),
        Err(Errno::EINVAL)
    );
    // An extension header with a reserved word set.
    let ext = i915_user_extension {
        name: I915_GEM_CREATE_EXT_SET_PAT,
        rsvd: [0, 0, 1, 0],
        ..Default::default()
    };
    let mut ce = drm_i915_gem_create_ext {
        size: 4096,
        extensions: &ext as *const _ as u64,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_I915_GEM_CREATE_EXT, &mut ce),
        Errno::EINVAL
    );
}

#[test]
fn i915_overlapping_softpins_are_einval() {
    let f = i915();
    let f = f.as_ref();
    let (a, b) = (batch(f), create(f));
    assert_eq!(
        exec_with(f, &[pinned(a, 0x10000), pinned(b, 0x10000)], |_| {}),
        Err(Errno::EINVAL)
    );
    // Two 4 KiB objects 2 KiB apart cannot even be expressed page-aligned; one page apart works.
    assert_eq!(
        exec_with(f, &[pinned(a, 0x10000), pinned(b, 0x11000)], |_| {}),
        Ok(0)
    );
    // The same handle twice is also refused.
    assert_eq!(
        exec_with(f, &[pinned(a, 0x10000), pinned(a, 0x20000)], |_| {}),
        Err(Errno::EINVAL)
    );
}

#[test]
fn i915_unaligned_addresses_are_einval() {
    let f = i915();
    let f = f.as_ref();
    let h = batch(f);
    assert_eq!(
        exec_with(f, &[pinned(h, 0x10004)], |_| {}),
        Err(Errno::EINVAL)
    );
    // Not in canonical form (bit 47 set without the sign extension).
    assert_eq!(
        exec_with(f, &[pinned(h, 0x8000_0000_0000)], |_| {}),
        Err(Errno::EINVAL)
    );
    assert_eq!(
        exec_with(f, &[pinned(h, 0xffff_8000_0000_0000)], |_| {}),
        Ok(0)
    );
    assert_eq!(
        exec_with(f, &[pinned(h, 0x20000)], |eb| eb.batch_start_offset = 4),
        Err(Errno::EINVAL)
    );
    // Padding larger than the address space.
    let mut o = pinned(h, 0);
    o.flags = EXEC_OBJECT_PAD_TO_SIZE | EXEC_OBJECT_SUPPORTS_48B_ADDRESS;
    o.pad_to_size = !0xfff;
    assert_eq!(exec_with(f, &[o], |_| {}), Err(Errno::EINVAL));
    // Without EXEC_OBJECT_PAD_TO_SIZE the field is rsvd1, ignored (NEO puts its context id
    // there).
    let mut o = pinned(h, 0x20000);
    o.pad_to_size = 1;
    assert_eq!(exec_with(f, &[o], |_| {}), Ok(0));
    // Above 4 GiB without the 48-bit flag.
    let mut o = pinned(h, 0x1_0000_0000);
    o.flags &= !EXEC_OBJECT_SUPPORTS_48B_ADDRESS;
    assert_eq!(exec_with(f, &[o], |_| {}), Err(Errno::EINVAL));
}

#[test]
fn i915_bad_user_pointers_are_efault() {
    let f = i915();
    let f = f.as_ref();
    let mut gp = drm_i915_getparam {
        param: I915_PARAM_CHIPSET_ID,
        pad0: 0,
        value: BAD_PTR,
    };
    assert_eq!(errno(f, DRM_IOCTL_I915_GETPARAM, &mut gp), Errno::EFAULT);
    let h = batch(f);
    assert_eq!(
        exec_with(f, &[pinned(h, 0x10000)], |eb| eb.buffers_ptr = BAD_PTR),
        Err(Errno::EFAULT)
    );
    let mut q = drm_i915_query {
        num_items: 1,
        flags: 0,
        items_ptr: BAD_PTR,
    };
    assert_eq!(errno(f, DRM_IOCTL_I915_QUERY, &mut q), Errno::EFAULT);
    // A bad data pointer fails the item, reported in its length, not the ioctl.
    let mut item = drm_i915_query_item {
        query_id: DRM_I915_QUERY_TOPOLOGY_INFO,
        length: 4096,
        flags: 0,
        data_ptr: BAD_PTR,
    };
    let mut q = drm_i915_query {
        num_items: 1,
        flags: 0,
        items_ptr: &mut item as *mut _ as u64,
    };
    assert_eq!(call(f, DRM_IOCTL_I915_QUERY, &mut q), Ok(0));
    assert_eq!(item.length, -(Errno::EFAULT as i32));
    let mut cc = drm_i915_gem_context_create_ext {
        flags: I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS,
        extensions: BAD_PTR,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT, &mut cc),
        Errno::EFAULT
    );
    let mut v = drm_version {
        name_len: 8,
        name: BAD_PTR,
        ..Default::default()
    };
    assert_eq!(errno(f, DRM_IOCTL_VERSION, &mut v), Errno::EFAULT);
}

/// A GEM_PREAD/PWRITE of a whole 1 MiB object round-trips every byte (the copy goes through a
/// bounded buffer, never one the caller's size decides), and a read that runs into an unmapped
/// page part-way is EFAULT with the bytes before the fault copied, as the kernel's
/// page-by-page copy leaves them.
#[test]
fn i915_pread_pwrite_of_a_large_object() {
    let f = i915();
    let f = &*f;
    let mut c = drm_i915_gem_create {
        size: 1 << 20,
        ..Default::default()
    };
    call(f, DRM_IOCTL_I915_GEM_CREATE, &mut c).unwrap();
    let data: Vec<u8> = (0..1u32 << 20).map(|i| (i * 7 + i / 4096) as u8).collect();
    let mut w = drm_i915_gem_pwrite {
        handle: c.handle,
        offset: 0,
        size: data.len() as u64,
        data_ptr: data.as_ptr() as u64,
        ..Default::default()
    };
    assert_eq!(call(f, DRM_IOCTL_I915_GEM_PWRITE, &mut w), Ok(0));
    let mut back = vec![0u8; data.len()];
    let mut r = drm_i915_gem_pread {
        handle: c.handle,
        offset: 0,
        size: back.len() as u64,
        data_ptr: back.as_mut_ptr() as u64,
        ..Default::default()
    };
    assert_eq!(call(f, DRM_IOCTL_I915_GEM_PREAD, &mut r), Ok(0));
    assert!(back == data, "the 1 MiB round trip differs");

    // Three readable pages, then an inaccessible one: a read of all four copies the three.
    let page = 4096usize;
    use nix::sys::mman::{mmap_anonymous, mprotect, munmap, MapFlags, ProtFlags};
    let len = std::num::NonZeroUsize::new(4 * page).unwrap();
    // SAFETY: a fresh anonymous mapping of four pages, unmapped below; nothing else uses it.
    let map = unsafe {
        mmap_anonymous(
            None,
            len,
            ProtFlags::PROT_READ | ProtFlags::PROT_WRITE,
            MapFlags::MAP_PRIVATE,
        )
    }
    .unwrap();
    // SAFETY: the fourth page of the mapping made above.
    unsafe { mprotect(map.byte_add(3 * page), page, ProtFlags::PROT_NONE) }.unwrap();
    let mut r = drm_i915_gem_pread {
        handle: c.handle,
        offset: 0,
        size: 4 * page as u64,
        data_ptr: map.as_ptr() as u64,
        ..Default::default()
    };
    assert_eq!(
        call(f, DRM_IOCTL_I915_GEM_PREAD, &mut r),
        Err(Errno::EFAULT)
    );
    // SAFETY: the first three pages are readable and were written by the copy.
    let got = unsafe { std::slice::from_raw_parts(map.as_ptr().cast::<u8>(), 3 * page) };
    assert!(
        got == &data[..3 * page],
        "the pages before the fault were not copied"
    );
    // SAFETY: the mapping made above, no longer used.
    unsafe { munmap(map, 4 * page) }.unwrap();
}

/// GEM_PREAD/PWRITE, SW_FINISH and SET/GET_CACHING with `i915_gem.c`'s checks: a copy round
/// trip, then each error in the kernel's order; on DG2 PREAD/PWRITE are EOPNOTSUPP and the
/// caching ioctls ENODEV.
#[test]
fn i915_pread_pwrite_sw_finish_and_caching() {
    let f = i915();
    let f = &*f;
    let h = create(f);
    let data: Vec<u8> = (0..64u8).collect();
    let mut w = drm_i915_gem_pwrite {
        handle: h,
        offset: 100,
        size: 64,
        data_ptr: data.as_ptr() as u64,
        ..Default::default()
    };
    assert_eq!(call(f, DRM_IOCTL_I915_GEM_PWRITE, &mut w), Ok(0));
    let mut back = vec![0u8; 64];
    let mut r = drm_i915_gem_pread {
        handle: h,
        offset: 100,
        size: 64,
        data_ptr: back.as_mut_ptr() as u64,
        ..Default::default()
    };
    assert_eq!(call(f, DRM_IOCTL_I915_GEM_PREAD, &mut r), Ok(0));
    assert_eq!(back, data);
    // An empty copy succeeds before any other check; then the user range, the handle, the
    // object's bounds.
    let mut empty = drm_i915_gem_pread { handle: 999, ..r };
    empty.size = 0;
    assert_eq!(call(f, DRM_IOCTL_I915_GEM_PREAD, &mut empty), Ok(0));
    let mut bad = drm_i915_gem_pwrite {
        data_ptr: u64::MAX - 8,
        ..w
    };
    assert_eq!(
        call(f, DRM_IOCTL_I915_GEM_PWRITE, &mut bad),
        Err(Errno::EFAULT)
    );
    let mut bad = drm_i915_gem_pwrite { handle: 999, ..w };
    assert_eq!(
        call(f, DRM_IOCTL_I915_GEM_PWRITE, &mut bad),
        Err(Errno::ENOENT)
    );
    let mut bad = drm_i915_gem_pread {
        offset: 4096 - 63,
        ..r
    };
    assert_eq!(
        call(f, DRM_IOCTL_I915_GEM_PREAD, &mut bad),
        Err(Errno::EINVAL)
    );
    let mut bad = drm_i915_gem_pwrite {
        data_ptr: BAD_PTR,
        ..w
    };
    assert_eq!(
        call(f, DRM_IOCTL_I915_GEM_PWRITE, &mut bad),
        Err(Errno::EFAULT)
    );

    let mut fin = drm_i915_gem_sw_finish { handle: 0 };
    assert_eq!(
        call(f, DRM_IOCTL_I915_GEM_SW_FINISH, &mut fin),
        Err(Errno::ENOENT)
    );
    fin.handle = h;
    assert_eq!(call(f, DRM_IOCTL_I915_GEM_SW_FINISH, &mut fin), Ok(0));

    let mut c = drm_i915_gem_caching {
        handle: h,
        caching: 0,
    };
    assert_eq!(call(f, DRM_IOCTL_I915_GEM_GET_CACHING, &mut c), Ok(0));
    assert_eq!(c.caching, I915_CACHING_CACHED);
    c.caching = I915_CACHING_NONE;
    assert_eq!(call(f, DRM_IOCTL_I915_GEM_SET_CACHING, &mut c), Ok(0));
    c.caching = 7;
    assert_eq!(call(f, DRM_IOCTL_I915_GEM_GET_CACHING, &mut c), Ok(0));
    assert_eq!(c.caching, I915_CACHING_NONE);
    // DISPLAY is uncached without write-through; an unknown mode is EINVAL before the lookup.
    c.caching = I915_CACHING_DISPLAY;
    assert_eq!(call(f, DRM_IOCTL_I915_GEM_SET_CACHING, &mut c), Ok(0));
    let mut bad = drm_i915_gem_caching {
        handle: 999,
        caching: 3,
    };
    assert_eq!(
        call(f, DRM_IOCTL_I915_GEM_SET_CACHING, &mut bad),
        Err(Errno::EINVAL)
    );
    bad.caching = I915_CACHING_CACHED;
    assert_eq!(
        call(f, DRM_IOCTL_I915_GEM_SET_CACHING, &mut bad),
        Err(Errno::ENOENT)
    );

    let dg2 = open(Platform::Dg2, Kmd::I915).1;
    let dg2 = &*dg2;
    let h = create(dg2);
    let mut w = drm_i915_gem_pwrite { handle: h, ..w };
    assert_eq!(
        call(dg2, DRM_IOCTL_I915_GEM_PWRITE, &mut w),
        Err(Errno::EOPNOTSUPP)
    );
    let mut r = drm_i915_gem_pread { handle: h, ..r };
    assert_eq!(
        call(dg2, DRM_IOCTL_I915_GEM_PREAD, &mut r),
        Err(Errno::EOPNOTSUPP)
    );
    let mut c = drm_i915_gem_caching {
        handle: h,
        caching: 0,
    };
    assert_eq!(
        call(dg2, DRM_IOCTL_I915_GEM_GET_CACHING, &mut c),
        Err(Errno::ENODEV)
    );
    assert_eq!(
        call(dg2, DRM_IOCTL_I915_GEM_SET_CACHING, &mut c),
        Err(Errno::ENODEV)
    );
}

// ---------------------------------------------------------------- xe

fn xe(p: Platform) -> Arc<dyn DeviceFile> {
    open(p, Kmd::Xe).1
}

fn xe_vm(f: &dyn DeviceFile) -> u32 {
    let mut c = drm_xe_vm_create::default();
    call(f, DRM_IOCTL_XE_VM_CREATE, &mut c).unwrap();
    c.vm_id
}

fn xe_bo(f: &dyn DeviceFile, size: u64, placement: u32, caching: u16) -> Result<u32, Errno> {
    let mut c = drm_xe_gem_create {
        size,
        placement,
        cpu_caching: caching,
        ..Default::default()
    };
    call(f, DRM_IOCTL_XE_GEM_CREATE, &mut c).map(|_| c.handle)
}

fn xe_queue(f: &dyn DeviceFile, vm: u32) -> u32 {
    let eci = drm_xe_engine_class_instance::default();
    let mut c = drm_xe_exec_queue_create {
        width: 1,
        num_placements: 1,
        vm_id: vm,
        instances: &eci as *const _ as u64,
        ..Default::default()
    };
    call(f, DRM_IOCTL_XE_EXEC_QUEUE_CREATE, &mut c).unwrap();
    c.exec_queue_id
}

fn map_op(obj: u32, addr: u64, range: u64) -> drm_xe_vm_bind_op {
    drm_xe_vm_bind_op {
        obj,
        addr,
        range,
        op: DRM_XE_VM_BIND_OP_MAP,
        ..Default::default()
    }
}

fn bind(f: &dyn DeviceFile, vm: u32, op: drm_xe_vm_bind_op) -> Result<i32, Errno> {
    let mut b = drm_xe_vm_bind {
        vm_id: vm,
        num_binds: 1,
        bind: op,
        ..Default::default()
    };
    call(f, DRM_IOCTL_XE_VM_BIND, &mut b)
}

fn exec(
    f: &dyn DeviceFile,
    q: u32,
    syncs: &[drm_xe_sync],
    tweak: impl FnOnce(&mut drm_xe_exec),
) -> Result<i32, Errno> {
    let mut e = drm_xe_exec {
        exec_queue_id: q,
        num_syncs: syncs.len() as u32,
        syncs: syncs.as_ptr() as u64,
        address: 0x10000,
        num_batch_buffer: 1,
        ..Default::default()
    };
    tweak(&mut e);
    call(f, DRM_IOCTL_XE_EXEC, &mut e)
}

fn syncobj(f: &dyn DeviceFile) -> u32 {
    let mut c = drm_syncobj_create::default();
    call(f, DRM_IOCTL_SYNCOBJ_CREATE, &mut c).unwrap();
    c.handle
}

fn out_sync(handle: u32) -> drm_xe_sync {
    drm_xe_sync {
        r#type: DRM_XE_SYNC_TYPE_SYNCOBJ,
        flags: DRM_XE_SYNC_FLAG_SIGNAL,
        addr: handle.into(),
        ..Default::default()
    }
}

#[test]
fn xe_bad_handles_are_enoent() {
    let f = xe(Platform::Tgllp);
    let f = f.as_ref();
    let vm = xe_vm(f);
    assert_eq!(exec(f, 42, &[], |_| {}), Err(Errno::ENOENT));
    assert_eq!(bind(f, vm, map_op(42, 0x10000, 0x1000)), Err(Errno::ENOENT));
    let mut mo = drm_xe_gem_mmap_offset {
        handle: 42,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_XE_GEM_MMAP_OFFSET, &mut mo),
        Errno::ENOENT
    );
    let mut vd = drm_xe_vm_destroy {
        vm_id: 42,
        ..Default::default()
    };
    assert_eq!(errno(f, DRM_IOCTL_XE_VM_DESTROY, &mut vd), Errno::ENOENT);
    let eci = drm_xe_engine_class_instance::default();
    let mut qc = drm_xe_exec_queue_create {
        width: 1,
        num_placements: 1,
        vm_id: 42,
        instances: &eci as *const _ as u64,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_XE_EXEC_QUEUE_CREATE, &mut qc),
        Errno::ENOENT
    );
    let q = xe_queue(f, vm);
    assert_eq!(exec(f, q, &[out_sync(77)], |_| {}), Err(Errno::ENOENT));
    let mut qd = drm_xe_exec_queue_destroy {
        exec_queue_id: 42,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_XE_EXEC_QUEUE_DESTROY, &mut qd),
        Errno::ENOENT
    );
    let handles = [77u32];
    let mut w = drm_syncobj_wait {
        handles: handles.as_ptr() as u64,
        count_handles: 1,
        ..Default::default()
    };
    assert_eq!(errno(f, DRM_IOCTL_SYNCOBJ_WAIT, &mut w), Errno::ENOENT);
    // xe's VM_BIND looks its VM up with EINVAL, not ENOENT.
    assert_eq!(bind(f, 42, map_op(0, 0x10000, 0x1000)), Err(Errno::EINVAL));
}

#[test]
fn xe_bad_flags_are_einval() {
    let f = xe(Platform::Tgllp);
    let f = f.as_ref();
    let mut c = drm_xe_gem_create {
        size: 4096,
        placement: 1,
        cpu_caching: 1,
        flags: 1 << 31,
        ..Default::default()
    };
    assert_eq!(errno(f, DRM_IOCTL_XE_GEM_CREATE, &mut c), Errno::EINVAL);
    let mut v = drm_xe_vm_create {
        flags: 1 << 9,
        ..Default::default()
    };
    assert_eq!(errno(f, DRM_IOCTL_XE_VM_CREATE, &mut v), Errno::EINVAL);
    let vm = xe_vm(f);
    let h = xe_bo(f, 4096, 1, DRM_XE_GEM_CPU_CACHING_WB).unwrap();
    let mut op = map_op(h, 0x10000, 0x1000);
    op.flags = 1 << 12;
    assert_eq!(bind(f, vm, op), Err(Errno::EINVAL));
    let mut op = map_op(h, 0x10000, 0x1000);
    op.op = 9;
    assert_eq!(bind(f, vm, op), Err(Errno::EINVAL));
    let q = xe_queue(f, vm);
    let mut s = out_sync(syncobj(f));
    s.flags |= 1 << 4;
    assert_eq!(exec(f, q, &[s], |_| {}), Err(Errno::EINVAL));
    let mut w = drm_xe_wait_user_fence {
        addr: 0x1000,
        flags: 1 << 3,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_XE_WAIT_USER_FENCE, &mut w),
        Errno::EINVAL
    );
    let eci = drm_xe_engine_class_instance::default();
    let mut qc = drm_xe_exec_queue_create {
        width: 1,
        num_placements: 1,
        vm_id: vm,
        flags: 1,
        instances: &eci as *const _ as u64,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_XE_EXEC_QUEUE_CREATE, &mut qc),
        Errno::EINVAL
    );
    let mut cs = drm_syncobj_create {
        handle: 0,
        flags: 1 << 4,
    };
    assert_eq!(errno(f, DRM_IOCTL_SYNCOBJ_CREATE, &mut cs), Errno::EINVAL);
    let mut q = drm_xe_device_query {
        query: 99,
        ..Default::default()
    };
    assert_eq!(errno(f, DRM_IOCTL_XE_DEVICE_QUERY, &mut q), Errno::EINVAL);
}

#[test]
fn xe_nonzero_pad_and_reserved_are_einval() {
    let f = xe(Platform::Tgllp);
    let f = f.as_ref();
    let mut c = drm_xe_gem_create {
        size: 4096,
        placement: 1,
        cpu_caching: 1,
        pad: [0, 1, 0],
        ..Default::default()
    };
    assert_eq!(errno(f, DRM_IOCTL_XE_GEM_CREATE, &mut c), Errno::EINVAL);
    let vm = xe_vm(f);
    let h = xe_bo(f, 4096, 1, DRM_XE_GEM_CPU_CACHING_WB).unwrap();
    let mut b = drm_xe_vm_bind {
        vm_id: vm,
        num_binds: 1,
        bind: map_op(h, 0x10000, 0x1000),
        reserved: [0, 1],
        ..Default::default()
    };
    assert_eq!(errno(f, DRM_IOCTL_XE_VM_BIND, &mut b), Errno::EINVAL);
    let mut op = map_op(h, 0x10000, 0x1000);
    op.pad2 = 1;
    assert_eq!(bind(f, vm, op), Err(Errno::EINVAL));
    let q = xe_queue(f, vm);
    assert_eq!(exec(f, q, &[], |e| e.reserved[1] = 1), Err(Errno::EINVAL));
    let mut s = out_sync(syncobj(f));
    s.reserved[0] = 1;
    assert_eq!(exec(f, q, &[s], |_| {}), Err(Errno::EINVAL));
    let mut dq = drm_xe_device_query {
        query: DRM_XE_DEVICE_QUERY_ENGINES,
        reserved: [1, 0],
        ..Default::default()
    };
    assert_eq!(errno(f, DRM_IOCTL_XE_DEVICE_QUERY, &mut dq), Errno::EINVAL);
    let mut vd = drm_xe_vm_destroy {
        vm_id: vm,
        pad: 1,
        ..Default::default()
    };
    assert_eq!(errno(f, DRM_IOCTL_XE_VM_DESTROY, &mut vd), Errno::EINVAL);
    let handles = [syncobj(f)];
    let mut a = drm_syncobj_array {
        handles: handles.as_ptr() as u64,
        count_handles: 1,
        pad: 1,
    };
    assert_eq!(errno(f, DRM_IOCTL_SYNCOBJ_SIGNAL, &mut a), Errno::EINVAL);
}

#[test]
fn xe_unaligned_addresses_and_sizes_are_einval() {
    let f = xe(Platform::Dg2);
    let f = f.as_ref();
    let vm = xe_vm(f);
    assert_eq!(
        xe_bo(f, 4095, 1, DRM_XE_GEM_CPU_CACHING_WB),
        Err(Errno::EINVAL)
    );
    // DG2 VRAM objects come in 64 KiB pages, and must be WC.
    assert_eq!(
        xe_bo(f, 4096, 0b10, DRM_XE_GEM_CPU_CACHING_WC),
        Err(Errno::EINVAL)
    );
    assert_eq!(
        xe_bo(f, 0x10000, 0b10, DRM_XE_GEM_CPU_CACHING_WB),
        Err(Errno::EINVAL)
    );
    let vram = xe_bo(f, 0x20000, 0b10, DRM_XE_GEM_CPU_CACHING_WC).unwrap();
    assert_eq!(
        bind(f, vm, map_op(vram, 0x11000, 0x10000)),
        Err(Errno::EINVAL)
    );
    assert_eq!(bind(f, vm, map_op(vram, 0x10000, 0x10000)), Ok(0));
    let sys = xe_bo(f, 0x2000, 1, DRM_XE_GEM_CPU_CACHING_WB).unwrap();
    assert_eq!(
        bind(f, vm, map_op(sys, 0x40_0800, 0x1000)),
        Err(Errno::EINVAL)
    );
    assert_eq!(
        bind(f, vm, map_op(sys, 0x40_0000, 0x1800)),
        Err(Errno::EINVAL)
    );
    // Past the end of the object, and past the 48-bit address space.
    assert_eq!(
        bind(f, vm, map_op(sys, 0x40_0000, 0x3000)),
        Err(Errno::EINVAL)
    );
    assert_eq!(
        bind(f, vm, map_op(sys, (1 << 48) - 0x1000, 0x2000)),
        Err(Errno::EINVAL)
    );
    let q = xe_queue(f, vm);
    let uf = drm_xe_sync {
        r#type: DRM_XE_SYNC_TYPE_USER_FENCE,
        flags: DRM_XE_SYNC_FLAG_SIGNAL,
        addr: 0x10004,
        ..Default::default()
    };
    assert_eq!(exec(f, q, &[uf], |_| {}), Err(Errno::EINVAL));
    let mut w = drm_xe_wait_user_fence {
        addr: 0x1004,
        mask: u64::MAX,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_XE_WAIT_USER_FENCE, &mut w),
        Errno::EINVAL
    );
}

#[test]
fn xe_map_over_a_mapping_replaces_it() {
    // Unlike i915 softpin, xe's GPUVA remaps: overlapping MAPs are legal.
    let f = xe(Platform::Tgllp);
    let f = f.as_ref();
    let vm = xe_vm(f);
    let a = xe_bo(f, 0x2000, 1, DRM_XE_GEM_CPU_CACHING_WB).unwrap();
    let b = xe_bo(f, 0x2000, 1, DRM_XE_GEM_CPU_CACHING_WB).unwrap();
    assert_eq!(bind(f, vm, map_op(a, 0x10000, 0x2000)), Ok(0));
    assert_eq!(bind(f, vm, map_op(b, 0x11000, 0x2000)), Ok(0));
}

#[test]
fn xe_bad_user_pointers_are_efault() {
    let f = xe(Platform::Tgllp);
    let f = f.as_ref();
    let mut q = drm_xe_device_query {
        query: DRM_XE_DEVICE_QUERY_ENGINES,
        size: 4096,
        data: BAD_PTR,
        ..Default::default()
    };
    assert_eq!(errno(f, DRM_IOCTL_XE_DEVICE_QUERY, &mut q), Errno::EFAULT);
    let vm = xe_vm(f);
    let q = xe_queue(f, vm);
    assert_eq!(
        exec(f, q, &[], |e| {
            e.num_syncs = 1;
            e.syncs = BAD_PTR;
        }),
        Err(Errno::EFAULT)
    );
    let mut b = drm_xe_vm_bind {
        vm_id: vm,
        num_binds: 2,
        ..Default::default()
    };
    b.set_vector_of_binds(BAD_PTR);
    assert_eq!(errno(f, DRM_IOCTL_XE_VM_BIND, &mut b), Errno::EFAULT);
    let mut w = drm_xe_wait_user_fence {
        addr: 0x1000,
        mask: u64::MAX,
        timeout: 1,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_XE_WAIT_USER_FENCE, &mut w),
        Errno::EFAULT
    );
    let eci_bad = drm_xe_exec_queue_create {
        width: 1,
        num_placements: 1,
        vm_id: vm,
        instances: BAD_PTR,
        ..Default::default()
    };
    let mut qc = eci_bad;
    assert_eq!(
        errno(f, DRM_IOCTL_XE_EXEC_QUEUE_CREATE, &mut qc),
        Errno::EFAULT
    );
    let mut w = drm_syncobj_wait {
        handles: BAD_PTR,
        count_handles: 1,
        ..Default::default()
    };
    assert_eq!(errno(f, DRM_IOCTL_SYNCOBJ_WAIT, &mut w), Errno::EFAULT);
}

#[test]
fn mmap_needs_a_real_offset_and_length() {
    for (p, k) in combos() {
        let (_, f) = open(p, k);
        assert_eq!(f.mmap(0, 4096).unwrap_err(), Errno::EINVAL, "{p} {k:?}");
    }
    let f = i915();
    let h = create(f.as_ref());
    let mut mo = drm_i915_gem_mmap_offset {
        handle: h,
        flags: I915_MMAP_OFFSET_WB,
        ..Default::default()
    };
    call(f.as_ref(), DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mut mo).unwrap();
    assert_eq!(f.mmap(mo.offset, 8192).unwrap_err(), Errno::EINVAL);
    assert_eq!(f.mmap(mo.offset, 0).unwrap_err(), Errno::EINVAL);
}

#[test]
fn i915_extension_chains_end_after_512_links() {
    // i915_user_extensions() follows at most 512 links: a SET_PAT extension pointing at itself
    // is valid 512 times, then E2BIG.
    let f = i915();
    let f = f.as_ref();
    let mut pat = Box::new(drm_i915_gem_create_ext_set_pat {
        base: i915_user_extension {
            name: I915_GEM_CREATE_EXT_SET_PAT,
            ..Default::default()
        },
        ..Default::default()
    });
    let at = &*pat as *const _ as u64;
    pat.base.next_extension = at;
    let mut ce = drm_i915_gem_create_ext {
        size: 4096,
        extensions: at,
        ..Default::default()
    };
    assert_eq!(
        errno(f, DRM_IOCTL_I915_GEM_CREATE_EXT, &mut ce),
        Errno::E2BIG
    );
    // The same extension ending the chain is fine.
    pat.base.next_extension = 0;
    assert_eq!(call(f, DRM_IOCTL_I915_GEM_CREATE_EXT, &mut ce), Ok(0));
}
