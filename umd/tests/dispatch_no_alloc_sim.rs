//! A dispatch in steady state (kernel resident, arenas pooled, earlier events dropped) makes
//! no heap allocation in the driver: payload, batch, exec objects and the kernel-driver
//! argument arrays are built in memory the queue keeps, and retired works keep their syncobjs.
//! What the simulated kernel allocates inside its ioctls is the kernel's, not the driver's,
//! and is left out by counting around the device file's ioctls. Both ways a batch is made are
//! measured: the same dispatch again (the arena's batch and heaps reused, only the fence value
//! rewritten) and one whose argument changes each time (everything encoded again).

#[path = "../../batchbuffer/tests/counting_alloc/mod.rs"]
mod counting_alloc;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use kmd_iface::seam::{DeviceFile, Errno, Mapping};
use platform::Platform;
use umd::device::{Device, KmdChoice};
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

/// The simulator's device file, counting the calling thread's allocations inside ioctls.
#[derive(Debug)]
struct Metered {
    inner: Arc<sim::SimDevice>,
    allocs: AtomicUsize,
}

impl DeviceFile for Metered {
    unsafe fn ioctl(&self, request: u64, arg: &mut [u8]) -> Result<i32, Errno> {
        let a = counting_alloc::thread_allocations();
        // SAFETY: forwarded unchanged under the caller's contract.
        let r = unsafe { self.inner.ioctl(request, arg) };
        self.allocs
            .fetch_add(counting_alloc::thread_allocations() - a, Ordering::Relaxed);
        r
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

fn eot(p: Platform) -> &'static str {
    match p {
        Platform::Skl | Platform::Icllp => include_str!("data/eot_gen9.asm"),
        Platform::Tgllp => include_str!("data/eot_gen12lp.asm"),
        Platform::Dg2 => include_str!("data/eot_xehpg.asm"),
    }
}

#[test]
fn steady_state_dispatch_allocates_nothing_in_the_driver() {
    for (p, k, kmd) in [
        (Platform::Skl, KmdChoice::I915, sim::Kmd::I915),
        (Platform::Tgllp, KmdChoice::I915, sim::Kmd::I915),
        (Platform::Tgllp, KmdChoice::Xe, sim::Kmd::Xe),
        (Platform::Dg2, KmdChoice::Xe, sim::Kmd::Xe),
    ] {
        let file = Arc::new(Metered {
            inner: sim::open_device(p, kmd, sim::SimConfig::default()).unwrap(),
            allocs: AtomicUsize::new(0),
        });
        let d =
            Device::open_device_file(format!("sim:{}", p.name()), file.clone(), Some(k)).unwrap();
        let q = d.create_queue().unwrap();
        let kernel = Kernel::from_asm(p, eot(p), 16, "eot").unwrap();
        let buf = d.create_buffer(4096).unwrap();
        let args = [3u32, 4].map(|v| {
            [
                ArgValue::Buffer(buf.clone()),
                ArgValue::Value(v.to_le_bytes().to_vec()),
            ]
        });
        // Two regions (a partial group at the end): both walkers' payloads are rebuilt.
        let range = NdRange::new(&[100], Some(&[32]), 16, None).unwrap();
        for (how, step) in [("the same dispatch", 0), ("a changed argument", 1)] {
            let run = |i: usize| {
                q.dispatch(&kernel, &range, &args[(i * step) % 2], &[])
                    .and_then(|e| e.wait(None))
                    .unwrap()
            };
            for i in 0..64 {
                assert!(run(i));
            }
            let (before, in_kernel) = (
                counting_alloc::thread_allocations(),
                file.allocs.load(Ordering::Relaxed),
            );
            for i in 0..64 {
                assert!(run(i));
            }
            let total = counting_alloc::thread_allocations() - before;
            let kernel_side = file.allocs.load(Ordering::Relaxed) - in_kernel;
            assert_eq!(total - kernel_side, 0, "{p} {}, {how}", k.name());
        }
    }
}
