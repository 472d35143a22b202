//! USM host allocations (`Device::alloc_host_usm`) made both ways a device may prefer
//! (`SharedHostMemory`): the simulator's own BO pages mapped at their GPU address, and host
//! pages wrapped as userptr (what a real kernel driver gets). Either way the extension's
//! contract holds on every simulated platform and kernel driver: the pointer is one number to
//! the host and the GPU, the memory starts zeroed, what the host stores through the pointer is
//! what the GPU reads, what the GPU writes is what the host loads, and freeing gives the range
//! back.

use std::sync::Arc;

use kmd_iface::seam::{DeviceFile, Errno, Mapping, SharedHostMemory};
use platform::Platform;
use umd::device::{Device, KmdChoice};

/// The simulator's device file asking for userptr host memory, as a render node does.
#[derive(Debug)]
struct UserptrPreferred(Arc<sim::SimDevice>);

impl DeviceFile for UserptrPreferred {
    unsafe fn ioctl(&self, request: u64, arg: &mut [u8]) -> Result<i32, Errno> {
        // SAFETY: forwarded unchanged under the caller's contract.
        unsafe { self.0.ioctl(request, arg) }
    }
    fn mmap(&self, offset: u64, len: usize) -> Result<Mapping, Errno> {
        self.0.mmap(offset, len)
    }
    unsafe fn mmap_at(&self, offset: u64, len: usize, at: *mut u8) -> Result<Mapping, Errno> {
        // SAFETY: forwarded from the trait's contract.
        unsafe { self.0.mmap_at(offset, len, at) }
    }
    fn sysfs_dir(&self) -> Option<std::path::PathBuf> {
        DeviceFile::sysfs_dir(&*self.0)
    }
}

/// Every simulated (platform, kernel driver) with each way of making host memory.
fn devices() -> Vec<(String, Device)> {
    let mut all = Vec::new();
    for p in Platform::ALL {
        for k in umd::device::sim_kmds(p) {
            let kmd = match k {
                KmdChoice::I915 => sim::Kmd::I915,
                KmdChoice::Xe => sim::Kmd::Xe,
            };
            let sim = sim::open_device(p, kmd, Default::default()).unwrap();
            assert_eq!(sim.shared_host_memory(), SharedHostMemory::MappedBo);
            let name = format!("sim:{}", p.name());
            let own = Device::open_device_file(name.clone(), sim.clone(), Some(k)).unwrap();
            all.push((format!("{p} {k:?} mapped BO"), own));
            let userptr = Arc::new(UserptrPreferred(sim));
            let wrapped = Device::open_device_file(name, userptr, Some(k)).unwrap();
            all.push((format!("{p} {k:?} userptr"), wrapped));
        }
    }
    all
}

fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31) ^ seed)
        .collect()
}

#[test]
fn host_usm_both_ways() {
    // More than one page, not a page multiple; a 64 KiB alignment.
    const LEN: usize = 3 * 4096 + 100;
    let devices = devices();
    for (what, d) in &devices {
        let q = d.create_queue().unwrap();
        let h = d.alloc_host_usm(LEN as u64, 64 << 10).unwrap();
        assert!(h.is_host_memory(), "{what}");
        assert_eq!(h.gpu_address() % (64 << 10), 0, "{what}");
        let ptr = h.gpu_address() as *mut u8;
        // SAFETY: a host allocation of LEN bytes at its GPU address (what is under test), alive
        // while `h` is; nothing else touches it during these accesses.
        let host = unsafe { std::slice::from_raw_parts_mut(ptr, LEN) };
        assert!(host.iter().all(|&b| b == 0), "{what}: starts zeroed");

        // Host stores, GPU reads.
        let sent = pattern(LEN, 0x5a);
        host.copy_from_slice(&sent);
        let dev = d.create_buffer(LEN as u64).unwrap();
        let e = q.copy_buffer(&h, 0, &dev, 0, LEN as u64, &[]).unwrap();
        e.expect("every platform has a blitter").wait(None).unwrap();
        assert!(dev.to_vec().unwrap()[..LEN] == sent[..], "{what}: GPU read");

        // GPU writes, host loads (and the buffer's own reads agree).
        let back = pattern(LEN, 0xc3);
        dev.write(0, &back).unwrap();
        let e = q.copy_buffer(&dev, 0, &h, 0, LEN as u64, &[]).unwrap();
        e.unwrap().wait(None).unwrap();
        // SAFETY: as above; the copy has completed.
        let host = unsafe { std::slice::from_raw_parts(ptr, LEN) };
        assert!(host == &back[..], "{what}: host load");
        assert!(
            h.to_vec().unwrap()[..LEN] == back[..],
            "{what}: buffer read"
        );
    }
    freed_allocations_give_their_range_back(&devices);
}

/// Whether any mapping of this process covers `addr` (`/proc/self/maps`).
fn mapped(addr: u64) -> bool {
    std::fs::read_to_string("/proc/self/maps")
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once(' ')?.0.split_once('-'))
        .map(|(a, b)| {
            let n = |s: &str| u64::from_str_radix(s, 16).unwrap();
            (n(a), n(b))
        })
        .any(|(a, b)| (a..b).contains(&addr))
}

/// Frees each allocation and checks its range is unmapped. Called from the one test of this
/// binary, so no other thread maps memory meanwhile.
fn freed_allocations_give_their_range_back(devices: &[(String, Device)]) {
    for (what, d) in devices {
        let h = d.alloc_host_usm(1 << 20, 0).unwrap();
        let ptr = h.gpu_address();
        assert!(mapped(ptr), "{what}");
        drop(h);
        assert!(!mapped(ptr), "{what}: still mapped after free");
    }
}
