//! The VM_BIND pat_index umd asks xe for, per platform and memory, against the kernel's PAT
//! table (`xe_pat.c` in Linux 6.12: Gen12LP and DG2 program entry 0 write-back and 1-way
//! coherent, 1 write-combining, 2 write-through, 3 uncached) and its rules: a userptr range
//! and a BO with CPU write-back caching need the coherent entry (0); DG2's device-local BOs
//! are CPU write-combined and get the write-combining entry (1, Mesa's choice for such BOs).

use std::sync::{Arc, Mutex};

use kmd_iface::seam::{DeviceFile, Errno, HeapBacking, Mapping};
use kmd_iface::xe::uapi::{
    drm_xe_vm_bind, DRM_IOCTL_XE_VM_BIND, DRM_XE_VM_BIND_OP_MAP, DRM_XE_VM_BIND_OP_MAP_USERPTR,
};
use platform::Platform;
use umd::device::{Device, KmdChoice};
use zerocopy::FromBytes;

/// The simulator's device file, recording each single-op VM_BIND's (op, pat_index).
#[derive(Debug)]
struct Binds {
    inner: Arc<sim::SimDevice>,
    seen: Mutex<Vec<(u32, u16)>>,
}

impl DeviceFile for Binds {
    unsafe fn ioctl(&self, request: u64, arg: &mut [u8]) -> Result<i32, Errno> {
        if request == DRM_IOCTL_XE_VM_BIND {
            if let Ok((b, _)) = drm_xe_vm_bind::read_from_prefix(arg) {
                if b.num_binds == 1 {
                    let mut seen = self.seen.lock().unwrap();
                    seen.push((b.bind.op, b.bind.pat_index));
                }
            }
        }
        // SAFETY: forwarded unchanged under the caller's contract.
        unsafe { self.inner.ioctl(request, arg) }
    }
    fn mmap(&self, offset: u64, len: usize) -> Result<Mapping, Errno> {
        self.inner.mmap(offset, len)
    }
    unsafe fn mmap_at(&self, offset: u64, len: usize, at: *mut u8) -> Result<Mapping, Errno> {
        // SAFETY: forwarded from the trait's contract.
        unsafe { self.inner.mmap_at(offset, len, at) }
    }
    fn shared_host_memory(&self) -> kmd_iface::seam::SharedHostMemory {
        self.inner.shared_host_memory()
    }
    fn sysfs_dir(&self) -> Option<std::path::PathBuf> {
        DeviceFile::sysfs_dir(&*self.inner)
    }
}

#[test]
fn buffers_and_userptr_get_the_pat_entry_for_their_caching() {
    for (p, bo_pat) in [(Platform::Tgllp, 0), (Platform::Dg2, 1)] {
        let file = Arc::new(Binds {
            inner: sim::open_device(p, sim::Kmd::Xe, Default::default()).unwrap(),
            seen: Mutex::new(Vec::new()),
        });
        let d = Device::open_device_file(
            format!("sim:{}", p.name()),
            file.clone(),
            Some(KmdChoice::Xe),
        )
        .unwrap();
        let take = || std::mem::take(&mut *file.seen.lock().unwrap());
        take();
        let _b = d.create_buffer(1 << 16).unwrap();
        assert_eq!(take(), [(DRM_XE_VM_BIND_OP_MAP, bo_pat)], "{p} buffer");
        let host = Mapping::new(Arc::new(HeapBacking::zeroed(1 << 16).unwrap()));
        let _u = d.create_buffer_from_host(host).unwrap();
        assert_eq!(take(), [(DRM_XE_VM_BIND_OP_MAP_USERPTR, 0)], "{p} userptr");
    }
}
