//! Objects shared through file descriptors between DRM files of one simulated GPU, through
//! kmd-iface's `OwnedFd` wrappers (the calls umd's backend makes), on every platform and
//! kernel driver: PRIME dma-bufs (`drm_prime.c`, i915/xe export rules), syncobj fds, opaque
//! and sync files (`drm_syncobj.c`), and busy tracking per object across files
//! (`i915_gem_busy.c` reads the object's reservation, whichever file the handle is in).

use crate::common;

use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::sync::Arc;

use common::*;
use kmd_iface::drm_core::uapi::*;
use kmd_iface::drm_core::{
    prime_fd_to_handle, prime_handle_to_fd, syncobj_create, syncobj_fd_to_handle,
    syncobj_handle_to_fd, syncobj_signal, syncobj_wait, SyncobjWait,
};
use kmd_iface::flags::{drm::SyncobjWaitFlags, xe::VmCreateFlags};
use kmd_iface::i915::{Execbuf, PinnedObject};
use kmd_iface::seam::{DeviceFile, Errno, Mapping};
use platform::Platform;
use sim::{Kmd, SimConfig, SimGpu};

const SIZE: u64 = 0x10000;

fn create(p: Platform, kmd: Kmd, f: &Arc<dyn DeviceFile>, vm: u32) -> u32 {
    match kmd {
        Kmd::I915 => i915_of(f.clone()).gem_create(SIZE).unwrap().handle,
        Kmd::Xe => xe_of(f.clone())
            .gem_create(&xe_local_bo(p, SIZE, vm))
            .unwrap(),
    }
}

fn map(p: Platform, kmd: Kmd, f: &Arc<dyn DeviceFile>, handle: u32) -> Mapping {
    match kmd {
        Kmd::I915 => i915_of(f.clone())
            .gem_mmap(handle, SIZE as usize, i915_mmap_mode(p))
            .unwrap(),
        Kmd::Xe => xe_of(f.clone()).gem_mmap(handle, SIZE as usize).unwrap(),
    }
}

fn errno<T: std::fmt::Debug>(r: kmd_iface::Result<T>) -> Option<Errno> {
    r.unwrap_err().errno()
}

fn inode(fd: BorrowedFd<'_>) -> (u64, u64) {
    let st = nix::sys::stat::fstat(fd.as_raw_fd()).unwrap();
    (st.st_dev, st.st_ino)
}

fn gpu(p: Platform, kmd: Kmd) -> (Arc<dyn DeviceFile>, Arc<dyn DeviceFile>) {
    let gpu = SimGpu::new(p, kmd, SimConfig::default()).unwrap();
    (gpu.open_file(), gpu.open_file())
}

#[test]
fn a_dma_buf_imports_as_the_same_object_in_every_file() {
    for (p, kmd) in combos() {
        let what = format!("{p:?} {kmd:?}");
        let (a, b) = gpu(p, kmd);
        let h = create(p, kmd, &a, 0);
        let first = prime_handle_to_fd(&*a, h, DRM_CLOEXEC | DRM_RDWR).unwrap();
        let second = prime_handle_to_fd(&*a, h, 0).unwrap();
        assert_ne!(first.as_raw_fd(), second.as_raw_fd(), "{what}");
        assert_eq!(
            inode(first.as_fd()),
            inode(second.as_fd()),
            "{what}: one dma-buf file"
        );
        assert_eq!(
            prime_fd_to_handle(&*a, second.as_fd()).unwrap(),
            h,
            "{what}: the exporter's handle"
        );
        let hb = prime_fd_to_handle(&*b, first.as_fd()).unwrap();
        assert_eq!(
            prime_fd_to_handle(&*b, second.as_fd()).unwrap(),
            hb,
            "{what}: importing again gives the same handle"
        );
        map(p, kmd, &a, h).write(4096 + 8, b"prime").unwrap();
        let mut seen = [0u8; 5];
        map(p, kmd, &b, hb).read(4096 + 8, &mut seen).unwrap();
        assert_eq!(&seen, b"prime", "{what}");

        // Argument errors as drm_prime.c returns them.
        assert_eq!(
            errno(prime_handle_to_fd(&*a, h, 1)),
            Some(Errno::EINVAL),
            "{what}"
        );
        assert_eq!(
            errno(prime_handle_to_fd(&*a, h + 100, 0)),
            Some(Errno::ENOENT),
            "{what}"
        );
        let (r, _w) = nix::unistd::pipe().unwrap();
        assert_eq!(
            errno(prime_fd_to_handle(&*a, r.as_fd())),
            Some(Errno::EINVAL),
            "{what}: not a dma-buf"
        );
        // SAFETY: i32::MAX is above any fd limit, so never open (std refuses to borrow -1);
        // the call only passes the number on.
        let none = unsafe { BorrowedFd::borrow_raw(i32::MAX) };
        assert_eq!(
            errno(prime_fd_to_handle(&*a, none)),
            Some(Errno::EBADF),
            "{what}"
        );
        if kmd == Kmd::Xe {
            // xe_gem_prime_export: an object private to a VM is not exported.
            let x = xe_of(a.clone());
            let vm = x.vm_create(VmCreateFlags::empty()).unwrap();
            let private = create(p, kmd, &a, vm);
            assert_eq!(
                errno(prime_handle_to_fd(&*a, private, DRM_CLOEXEC)),
                Some(Errno::EPERM),
                "{what}"
            );
        }
    }
}

#[test]
fn a_dma_buf_keeps_its_object_after_the_last_handle() {
    for (p, kmd) in combos() {
        let what = format!("{p:?} {kmd:?}");
        let (a, b) = gpu(p, kmd);
        let h = create(p, kmd, &a, 0);
        map(p, kmd, &a, h).write(100, b"kept").unwrap();
        let fd = prime_handle_to_fd(&*a, h, DRM_CLOEXEC).unwrap();
        kmd_iface::drm_core::gem_close(&*a, h).unwrap();
        let hb = prime_fd_to_handle(&*b, fd.as_fd()).unwrap();
        let mut seen = [0u8; 4];
        map(p, kmd, &b, hb).read(100, &mut seen).unwrap();
        assert_eq!(&seen, b"kept", "{what}");
        // Re-exporting the imported object gives the same dma-buf.
        let again = prime_handle_to_fd(&*b, hb, DRM_CLOEXEC).unwrap();
        assert_eq!(inode(again.as_fd()), inode(fd.as_fd()), "{what}");
    }
}

fn readable(fd: BorrowedFd<'_>) -> bool {
    let mut pfd = [nix::poll::PollFd::new(fd, nix::poll::PollFlags::POLLIN)];
    nix::poll::poll(&mut pfd, nix::poll::PollTimeout::ZERO) == Ok(1)
}

#[test]
fn syncobj_fds_share_the_syncobj_and_carry_its_fence() {
    for (p, kmd) in combos() {
        let what = format!("{p:?} {kmd:?}");
        let (a, b) = gpu(p, kmd);
        let s = syncobj_create(&*a, 0).unwrap();
        let opaque = syncobj_handle_to_fd(&*a, s, 0).unwrap();
        let sb = syncobj_fd_to_handle(&*b, opaque.as_fd(), 0, 0).unwrap();
        let sb2 = syncobj_fd_to_handle(&*b, opaque.as_fd(), 0, 0).unwrap();
        assert_ne!(sb, sb2, "{what}: a new handle per import");
        // No fence yet: waiting is EINVAL and there is nothing for a sync file.
        let sync_file = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE;
        assert_eq!(
            errno(syncobj_handle_to_fd(&*b, sb, sync_file)),
            Some(Errno::EINVAL),
            "{what}"
        );
        syncobj_signal(&*a, &[s]).unwrap();
        assert_eq!(
            syncobj_wait(&*b, &[sb2], 0, SyncobjWaitFlags::empty()).unwrap(),
            SyncobjWait::Signaled { first_signaled: 0 },
            "{what}: signalled through the other file"
        );
        let file = syncobj_handle_to_fd(&*b, sb, sync_file).unwrap();
        assert!(
            readable(file.as_fd()),
            "{what}: a signalled sync file polls ready"
        );
        let fresh = syncobj_create(&*a, 0).unwrap();
        syncobj_fd_to_handle(
            &*a,
            file.as_fd(),
            DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
            fresh,
        )
        .unwrap();
        assert_eq!(
            syncobj_wait(&*a, &[fresh], 0, SyncobjWaitFlags::empty()).unwrap(),
            SyncobjWait::Signaled { first_signaled: 0 },
            "{what}"
        );
        // drm_syncobj.c's errors: an opaque export of an unknown handle is EINVAL, a sync
        // file of one ENOENT; importing a file of another kind EINVAL either way.
        assert_eq!(
            errno(syncobj_handle_to_fd(&*a, 99, 0)),
            Some(Errno::EINVAL),
            "{what}"
        );
        assert_eq!(
            errno(syncobj_handle_to_fd(&*a, 99, sync_file)),
            Some(Errno::ENOENT),
            "{what}"
        );
        let (r, _w) = nix::unistd::pipe().unwrap();
        assert_eq!(
            errno(syncobj_fd_to_handle(&*a, r.as_fd(), 0, 0)),
            Some(Errno::EINVAL),
            "{what}"
        );
        let import_sync = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE;
        assert_eq!(
            errno(syncobj_fd_to_handle(&*a, r.as_fd(), import_sync, fresh)),
            Some(Errno::EINVAL),
            "{what}"
        );
        assert_eq!(
            errno(syncobj_fd_to_handle(&*a, file.as_fd(), import_sync, 99)),
            Some(Errno::ENOENT),
            "{what}"
        );
    }
}

const BATCH_VA: u64 = 0x20_0000;
const DATA_VA: u64 = 0x40_0000;

/// i915 GEM_BUSY and GEM_WAIT on a handle of another file (from GEM_OPEN of a global name,
/// or from a PRIME import) see the request another file submitted on the object.
#[test]
fn busy_and_wait_see_requests_of_every_file() {
    for p in platforms(Kmd::I915) {
        let (a, b) = gpu(p, Kmd::I915);
        let (ia, ib) = (i915_of(a.clone()), i915_of(b.clone()));
        let mode = i915_mmap_mode(p);
        let batch = ia.gem_create(SIZE).unwrap().handle;
        let data = ia.gem_create(SIZE).unwrap().handle;
        ia.gem_mmap(batch, SIZE as usize, mode)
            .unwrap()
            .write(0, &semaphore_store_batch(p, DATA_VA, DATA_VA + 0x40, 7))
            .unwrap();
        let data_map = ia.gem_mmap(data, SIZE as usize, mode).unwrap();
        let mut fl = drm_gem_flink {
            handle: data,
            name: 0,
        };
        call(&*a, DRM_IOCTL_GEM_FLINK, &mut fl).unwrap();
        let mut op = drm_gem_open {
            name: fl.name,
            handle: 0,
            size: 0,
        };
        call(&*b, DRM_IOCTL_GEM_OPEN, &mut op).unwrap();
        let fd = prime_handle_to_fd(&*a, data, DRM_CLOEXEC).unwrap();
        // drm_gem_prime_fd_to_handle makes a second handle of the object in b: b's PRIME
        // table does not know the dma-buf.
        let imported = prime_fd_to_handle(&*b, fd.as_fd()).unwrap();
        assert_ne!(imported, op.handle, "{p}");
        let objects = [
            PinnedObject {
                handle: batch,
                gpu_address: BATCH_VA,
                write: false,
            },
            PinnedObject {
                handle: data,
                gpu_address: DATA_VA,
                write: true,
            },
        ];
        ia.execbuffer2(&Execbuf {
            objects: &objects,
            engine: kmd_iface::i915::uapi::I915_EXEC_RENDER,
            ..Default::default()
        })
        .unwrap();
        for h in [op.handle, imported] {
            let busy = ib.gem_busy(h).unwrap();
            assert!(busy.busy, "{p}: busy through the other file");
            assert_eq!(busy.writing_class_plus_one, 1, "{p}");
            assert!(!ib.gem_wait(h, 1_000_000).unwrap(), "{p}");
        }
        data_map.write(0, &1u32.to_le_bytes()).unwrap();
        assert!(ib.gem_wait(imported, -1).unwrap(), "{p}");
        assert!(!ib.gem_busy(op.handle).unwrap().busy, "{p}");
        assert_eq!(data_map.load_u32(0x40).unwrap(), 7, "{p}");
    }
}
