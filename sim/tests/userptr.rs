//! Userptr: i915 GEM_USERPTR and xe VM_BIND MAP_USERPTR. The GPU reaches the host process's own
//! pages; positive tests store into host memory through kmd-iface's wrappers on every simulated
//! platform, negative tests check each of the kernels' rules through the raw seam (errnos as
//! i915_gem_userptr_ioctl, i915 execbuf page pinning and xe's vm_bind_ioctl_check_args return).

use crate::common;

use kmd_iface::flags::drm::SyncobjWaitFlags;
use kmd_iface::flags::xe::VmCreateFlags;
use std::sync::Arc;

use common::*;
use kmd_iface::drm_core::{syncobj_create, syncobj_wait, SyncobjWait};
use kmd_iface::i915::uapi::*;
use kmd_iface::i915::{Execbuf, PinnedObject, I915};
use kmd_iface::seam::{DeviceFile, Errno, HeapBacking, Mapping};
use kmd_iface::xe::uapi::*;
use kmd_iface::xe::{bind_op, sync, Xe};
use memmap2::MmapMut;
use platform::Platform;
use sim::Kmd;

const BATCH_VA: u64 = 0x10_0000;
const HOST_VA: u64 = 0x40_0000;
const HOST_LEN: usize = 2 * 4096;
/// Below every Linux mmap_min_addr: never mapped in any process.
const UNMAPPED: u64 = 0x1000;
/// The first kernel-half address on x86-64: not a user pointer at all.
const KERNEL_PTR: u64 = 0xffff_8000_0000_0000;

fn host() -> Mapping {
    Mapping::new(Arc::new(HeapBacking::zeroed(HOST_LEN).unwrap()))
}

// ---------------------------------------------------------------- i915

fn i915(p: Platform) -> (Arc<dyn DeviceFile>, I915) {
    let (_, file) = open(p, Kmd::I915);
    (file.clone(), i915_of(file))
}

fn userptr(f: &dyn DeviceFile, user_ptr: u64, user_size: u64, flags: u32) -> Result<u32, Errno> {
    let mut a = drm_i915_gem_userptr {
        user_ptr,
        user_size,
        flags,
        handle: 0,
    };
    call(f, DRM_IOCTL_I915_GEM_USERPTR, &mut a).map(|_| a.handle)
}

/// A batch BO holding `batch`, run with `target` softpinned at HOST_VA; returns the batch BO.
fn run_i915(d: &I915, p: Platform, target: u32, batch: &[u8]) -> kmd_iface::Result<u32> {
    let b = d.gem_create(4096).unwrap().handle;
    d.gem_mmap(b, 4096, i915_mmap_mode(p))
        .unwrap()
        .write(0, batch)
        .unwrap();
    let objects = [
        PinnedObject {
            handle: b,
            gpu_address: BATCH_VA,
            write: false,
        },
        PinnedObject {
            handle: target,
            gpu_address: HOST_VA,
            write: true,
        },
    ];
    d.execbuffer2(&Execbuf {
        objects: &objects,
        engine: I915_EXEC_RENDER,
        ..Default::default()
    })?;
    d.gem_wait(target, -1)?;
    Ok(b)
}

#[test]
fn i915_stores_land_in_host_memory() {
    for p in platforms(Kmd::I915) {
        let (_, d) = i915(p);
        let mem = host();
        let h = d.gem_userptr(&mem, 0, HOST_LEN, 0).unwrap();
        // Both pages, so the GPU-to-host page mapping is exercised past the first one.
        for (off, v) in [(16u64, 0x1234_5678u32), (4096 + 8, 0x9abc_def0)] {
            run_i915(&d, p, h, &store_batch(p, HOST_VA + off, v)).unwrap();
            assert_eq!(mem.load_u32(off as usize).unwrap(), v, "{p}");
        }
        // The host already has the pointer: the kernel refuses a CPU mapping (NO_MMAP), even
        // in the one mode the platform otherwise offers.
        let e = d.gem_mmap_offset(h, i915_mmap_mode(p)).unwrap_err();
        assert_eq!(e.errno(), Some(Errno::ENODEV), "{p}: {e}");
        d.gem_close(h).unwrap();
    }
}

#[test]
fn i915_userptr_argument_rules() {
    let (f, _) = i915(Platform::Tgllp);
    let f = f.as_ref();
    let mem = host();
    let ptr = mem.as_ptr() as u64;
    let len = HOST_LEN as u64;
    // Unknown flag bits.
    assert_eq!(userptr(f, ptr, len, 0x4), Err(Errno::EINVAL));
    // Empty, and pointer or size not page aligned.
    assert_eq!(userptr(f, ptr, 0, 0), Err(Errno::EINVAL));
    assert_eq!(userptr(f, ptr + 64, 4096, 0), Err(Errno::EINVAL));
    assert_eq!(userptr(f, ptr, 4096 + 64, 0), Err(Errno::EINVAL));
    // Larger than the GPU could map.
    assert_eq!(userptr(f, ptr, 1 << 40, 0), Err(Errno::E2BIG));
    // Not a user address (access_ok).
    assert_eq!(userptr(f, KERNEL_PTR, 4096, 0), Err(Errno::EFAULT));
    assert_eq!(userptr(f, !0xfff, 4096, 0), Err(Errno::EFAULT));
    // Unsynchronized userptr is never allowed any more.
    assert_eq!(
        userptr(f, ptr, len, I915_USERPTR_UNSYNCHRONIZED),
        Err(Errno::ENODEV)
    );
    // PROBE checks there is memory now; without it the check waits for execbuf.
    assert_eq!(
        userptr(f, UNMAPPED, 4096, I915_USERPTR_PROBE),
        Err(Errno::EFAULT)
    );
    assert!(userptr(f, ptr, len, I915_USERPTR_PROBE).is_ok());
    assert!(userptr(f, UNMAPPED, 4096, 0).is_ok());
}

/// Gen9 PPGTTs have read-only pages, Gen11 and Gen12 (incl. Xe-HPG) do not: READ_ONLY is
/// ENODEV there (`gen8_ppgtt_create`). Where accepted, the GPU drops writes to the object
/// without stopping: IGT's `gem_userptr_blits` `readonly` expects the backing store unchanged
/// after MI_STORE_DWORD_IMMs through a read-only userptr and goes on using the engine, and the
/// kernel selftest `igt_ctx_readonly` "checks that the GPU discards any write to a read-only
/// object" with no reset allowed (`igt_live_test_end`).
#[test]
fn i915_read_only_userptr() {
    for p in platforms(Kmd::I915) {
        let (f, d) = i915(p);
        let mem = host();
        mem.write(0, &5u32.to_le_bytes()).unwrap();
        let r = userptr(
            f.as_ref(),
            mem.as_ptr() as u64,
            HOST_LEN as u64,
            I915_USERPTR_READ_ONLY,
        );
        if p != Platform::Skl {
            assert_eq!(r, Err(Errno::ENODEV), "{p}");
            continue;
        }
        let h = r.unwrap();
        // The dropped store, then one to the (writable) batch: the batch ran on past the first.
        let mut batch = store_batch(p, HOST_VA, 7);
        batch.truncate(batch.len() - 4);
        batch.extend(store_batch(p, BATCH_VA + 0x800, 9));
        let b = run_i915(&d, p, h, &batch).unwrap();
        assert_eq!(mem.load_u32(0).unwrap(), 5);
        let m = d.gem_mmap(b, 4096, i915_mmap_mode(p)).unwrap();
        assert_eq!(m.load_u32(0x800).unwrap(), 9);
    }
}

/// Pages are pinned at execbuf: missing memory, or read-only memory under a writable object,
/// fail the execbuf with EFAULT and nothing runs.
#[test]
fn i915_execbuf_pins_userptr_pages() {
    let p = Platform::Skl;
    let (f, d) = i915(p);
    let missing = userptr(f.as_ref(), UNMAPPED, 4096, 0).unwrap();
    let e = run_i915(&d, p, missing, &end_batch(p)).unwrap_err();
    assert_eq!(e.errno(), Some(Errno::EFAULT), "{e}");
    let ro = MmapMut::map_anon(4096).unwrap().make_read_only().unwrap();
    let h = userptr(f.as_ref(), ro.as_ptr() as u64, 4096, 0).unwrap();
    let e = run_i915(&d, p, h, &store_batch(p, HOST_VA, 1)).unwrap_err();
    assert_eq!(e.errno(), Some(Errno::EFAULT), "{e}");
    assert_eq!(ro[0], 0);
    // The same pages as a read-only object (Gen9 has read-only PTEs) are fine to read.
    let h = userptr(f.as_ref(), ro.as_ptr() as u64, 4096, I915_USERPTR_READ_ONLY).unwrap();
    run_i915(&d, p, h, &end_batch(p)).unwrap();
}

#[test]
fn i915_reports_userptr_probe() {
    let (_, d) = i915(Platform::Tgllp);
    assert!(d.has(I915_PARAM_HAS_USERPTR_PROBE).unwrap());
}

// ---------------------------------------------------------------- xe

fn xe(p: Platform) -> (Arc<dyn DeviceFile>, Xe) {
    let (_, file) = open(p, Kmd::Xe);
    (file.clone(), xe_of(file))
}

/// A VM with a batch BO bound at BATCH_VA and a queue on the first engine.
struct XeRun {
    x: Xe,
    vm: u32,
    queue: u32,
    batch: Mapping,
}

impl XeRun {
    fn new(p: Platform) -> (Arc<dyn DeviceFile>, XeRun) {
        let (f, x) = xe(p);
        let vm = x.vm_create(VmCreateFlags::empty()).unwrap();
        let size = 64 << 10;
        let h = x.gem_create(&xe_local_bo(p, size, vm)).unwrap();
        let batch = x.gem_mmap(h, size as usize).unwrap();
        x.vm_bind(vm, 0, &[bind_op::map(h, 0, BATCH_VA, size, 0)], &[])
            .unwrap();
        let eci = x.engines().unwrap()[0];
        let queue = x.exec_queue_create(vm, &[eci], &[]).unwrap();
        (
            f,
            XeRun {
                x,
                vm,
                queue,
                batch,
            },
        )
    }

    fn bind(&self, op: drm_xe_vm_bind_op) -> kmd_iface::Result<()> {
        self.x.vm_bind(self.vm, 0, &[op], &[])
    }

    /// Runs `batch` and waits; false when the queue was reset (a GPU fault).
    fn run(&self, batch: &[u8]) -> bool {
        self.batch.write(0, batch).unwrap();
        let s = syncobj_create(self.x.file(), 0).unwrap();
        self.x
            .exec(self.queue, BATCH_VA, &[sync::syncobj(s, true)])
            .unwrap();
        matches!(
            syncobj_wait(self.x.file(), &[s], i64::MAX, SyncobjWaitFlags::empty()),
            Ok(SyncobjWait::Signaled { .. })
        ) && self
            .x
            .exec_queue_get_property(self.queue, DRM_XE_EXEC_QUEUE_GET_PROPERTY_BAN)
            .unwrap()
            == 0
    }
}

#[test]
fn xe_stores_land_in_host_memory() {
    for p in platforms(Kmd::Xe) {
        let (_, r) = XeRun::new(p);
        let mem = host();
        r.bind(bind_op::map_userptr(
            mem.as_ptr() as u64,
            HOST_VA,
            HOST_LEN as u64,
            0,
        ))
        .unwrap();
        for (off, v) in [(24u64, 0x0bad_cafeu32), (4096 + 4, 0x5151_5151)] {
            assert!(r.run(&store_batch(p, HOST_VA + off, v)), "{p}");
            assert_eq!(mem.load_u32(off as usize).unwrap(), v, "{p}");
        }
        // Unbound again, the same store faults and the host bytes stay as they were.
        r.bind(bind_op::unmap(HOST_VA, HOST_LEN as u64)).unwrap();
        assert!(!r.run(&store_batch(p, HOST_VA + 24, 1)), "{p}");
        assert_eq!(mem.load_u32(24).unwrap(), 0x0bad_cafe);
    }
}

#[test]
fn xe_map_userptr_argument_rules() {
    for p in platforms(Kmd::Xe) {
        let (_, r) = XeRun::new(p);
        let mem = host();
        let ptr = mem.as_ptr() as u64;
        let len = HOST_LEN as u64;
        let op = |userptr, range, pat| bind_op::map_userptr(userptr, HOST_VA, range, pat);
        let errno = |o: drm_xe_vm_bind_op| r.bind(o).unwrap_err().errno();
        // An object handle with a userptr op.
        let with_obj = drm_xe_vm_bind_op {
            obj: 1,
            ..op(ptr, len, 0)
        };
        assert_eq!(errno(with_obj), Some(Errno::EINVAL), "{p}");
        // PAT entries: 1 is WC (not CPU coherent), 4 is past xe's four-entry table.
        assert_eq!(errno(op(ptr, len, 1)), Some(Errno::EINVAL), "{p}");
        assert_eq!(errno(op(ptr, len, 4)), Some(Errno::EINVAL), "{p}");
        // Pointer or range not page aligned.
        assert_eq!(errno(op(ptr + 16, 4096, 0)), Some(Errno::EINVAL), "{p}");
        assert_eq!(errno(op(ptr, 100, 0)), Some(Errno::EINVAL), "{p}");
        // A sparse (NULL) userptr.
        let null = drm_xe_vm_bind_op {
            flags: DRM_XE_VM_BIND_FLAG_NULL,
            ..op(ptr, len, 0)
        };
        assert_eq!(errno(null), Some(Errno::EINVAL), "{p}");
        // No memory there, or not user memory: the pages cannot be pinned.
        assert_eq!(errno(op(UNMAPPED, 4096, 0)), Some(Errno::EFAULT), "{p}");
        assert_eq!(errno(op(KERNEL_PTR, 4096, 0)), Some(Errno::EFAULT), "{p}");
        // Nothing was bound by the failed calls.
        assert!(!r.run(&store_batch(p, HOST_VA, 1)), "{p}");
    }
}

/// Read-only host pages pin only for a READONLY bind; GPU writes through it then fault.
#[test]
fn xe_read_only_userptr() {
    for p in platforms(Kmd::Xe) {
        let (_, r) = XeRun::new(p);
        let ro = MmapMut::map_anon(4096).unwrap().make_read_only().unwrap();
        let ptr = ro.as_ptr() as u64;
        let e = r.bind(bind_op::map_userptr(ptr, HOST_VA, 4096, 0));
        assert_eq!(e.unwrap_err().errno(), Some(Errno::EFAULT), "{p}");
        r.bind(drm_xe_vm_bind_op {
            flags: DRM_XE_VM_BIND_FLAG_READONLY,
            ..bind_op::map_userptr(ptr, HOST_VA, 4096, 0)
        })
        .unwrap();
        assert!(!r.run(&store_batch(p, HOST_VA, 1)), "{p}");
        assert_eq!(ro[0], 0);
    }
}
