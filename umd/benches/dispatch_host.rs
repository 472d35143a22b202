//! Host cost of one dispatch with the kernel and buffers warm: from the call to
//! `Queue::dispatch` to its return with the batch submitted (payload and batch built, the
//! submit ioctl), excluding the GPU's execution. Anchor: Intel's runtime spends about 2 µs per
//! kernel submission; target ≤ 2 µs, then ≤ 1 µs.
//!
//! The device is the simulator with a walker executor that runs nothing. Its submit ioctls
//! only queue the batch (the command streamer runs on the simulated GPU's own thread), but
//! they still do the simulated kernel's work (checking the exec objects, syncobjs, queueing),
//! which on hardware is the kernel's. The device file is wrapped to time and count what
//! happens inside ioctls, so the bench prints the driver's own share apart from the simulated
//! kernel's: per device, the median of the whole call, of the driver's part and of the ioctls,
//! and heap allocations per dispatch on the calling thread, split the same way.
//!
//! Two cases: the same dispatch repeated (the arena's batch is reused as it is), and a
//! changed dispatch, where each call differs from the one before in its buffer argument, its
//! scalar argument and its global size (so the walker's group count) with the kernel and
//! local size the same, as a runtime enqueueing one kernel over different data does.
//!
//! `cargo bench -p umd --bench dispatch_host`

#[path = "../../batchbuffer/tests/counting_alloc/mod.rs"]
mod counting_alloc;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use kmd_iface::seam::{DeviceFile, Errno, Mapping};
use platform::Platform;
use umd::device::{Device, KmdChoice};
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

/// Walkers reach the "GPU" and do nothing: what is measured is the host's side.
struct Idle;

impl sim::cs::WalkerExecutor for Idle {
    fn dispatch(&self, _: &sim::cs::Walker<'_>) -> Result<(), sim::gpu::GpuErrorKind> {
        Ok(())
    }
}

/// The simulator's device file, adding up the time and the calling thread's allocations
/// spent inside ioctls (the simulated kernel's share).
#[derive(Debug)]
struct Metered {
    inner: Arc<sim::SimDevice>,
    ns: AtomicU64,
    allocs: AtomicUsize,
}

impl DeviceFile for Metered {
    unsafe fn ioctl(&self, request: u64, arg: &mut [u8]) -> Result<i32, Errno> {
        let (start, a) = (Instant::now(), counting_alloc::thread_allocations());
        // SAFETY: forwarded unchanged under the caller's contract.
        let r = unsafe { self.inner.ioctl(request, arg) };
        self.allocs
            .fetch_add(counting_alloc::thread_allocations() - a, Ordering::Relaxed);
        self.ns
            .fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
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
        Platform::Skl | Platform::Icllp => include_str!("../tests/data/eot_gen9.asm"),
        Platform::Tgllp => include_str!("../tests/data/eot_gen12lp.asm"),
        Platform::Dg2 => include_str!("../tests/data/eot_xehpg.asm"),
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn bench(c: &mut Criterion) {
    for (p, k) in [
        (Platform::Tgllp, KmdChoice::I915),
        (Platform::Tgllp, KmdChoice::Xe),
        (Platform::Dg2, KmdChoice::Xe),
    ] {
        let cfg = sim::SimConfig {
            walker: Arc::new(Idle),
            ..Default::default()
        };
        let kmd = match k {
            KmdChoice::I915 => sim::Kmd::I915,
            KmdChoice::Xe => sim::Kmd::Xe,
        };
        let file = Arc::new(Metered {
            inner: sim::open_device(p, kmd, cfg).expect("simulator"),
            ns: AtomicU64::new(0),
            allocs: AtomicUsize::new(0),
        });
        let d = Device::open_device_file(format!("sim:{}", p.name()), file.clone(), Some(k))
            .expect("device");
        let q = d.create_queue().expect("queue");
        let kernel = Kernel::from_asm(p, eot(p), 16, "eot").expect("kernel");
        let bufs = [
            d.create_buffer(1 << 20).expect("buffer"),
            d.create_buffer(1 << 20).expect("buffer"),
        ];
        // Four dispatches, each differing from the one before in buffer, scalar and global
        // size (built beforehand: the bench's own allocations stay out of the count).
        let inputs: Vec<(NdRange, [ArgValue; 2])> = (0..4u32)
            .map(|i| {
                let range =
                    NdRange::new(&[(1 << 16) >> (i % 2)], Some(&[64]), 16, None).expect("range");
                let args = [
                    ArgValue::Buffer(bufs[i as usize % 2].clone()),
                    ArgValue::Value((3 + i).to_le_bytes().to_vec()),
                ];
                (range, args)
            })
            .collect();
        for (case, step) in [("repeated", 0), ("changed", 1)] {
            let input = |i: usize| &inputs[(i * step) % inputs.len()];
            // Warm: kernel resident, arenas pooled, staging allocated.
            for i in 0..16 {
                let (range, args) = input(i);
                q.dispatch(&kernel, range, args, &[])
                    .and_then(|e| e.wait(None))
                    .expect("dispatch");
            }

            // Each dispatch timed and counted alone; the wait is outside.
            const N: usize = 5000;
            let (mut total, mut ioctl) = (Vec::with_capacity(N), Vec::with_capacity(N));
            let (mut allocs, mut kernel_allocs) = (0, 0);
            for i in 0..N {
                let (range, args) = input(i);
                let (ns, ka) = (
                    file.ns.load(Ordering::Relaxed),
                    file.allocs.load(Ordering::Relaxed),
                );
                let a = counting_alloc::thread_allocations();
                let start = Instant::now();
                let e = q.dispatch(&kernel, range, args, &[]).expect("dispatch");
                let t = start.elapsed();
                allocs += counting_alloc::thread_allocations() - a;
                kernel_allocs += file.allocs.load(Ordering::Relaxed) - ka;
                total.push(t.as_nanos() as f64);
                ioctl.push((file.ns.load(Ordering::Relaxed) - ns) as f64);
                e.wait(None).expect("complete");
            }
            let mut driver: Vec<f64> = total.iter().zip(&ioctl).map(|(t, i)| t - i).collect();
            let per = |n: usize| n as f64 / N as f64;
            eprintln!(
                "{p} {} {case}: median {:.2} µs per dispatch = driver {:.2} µs + simulated \
                 kernel's ioctls {:.2} µs; heap allocations per dispatch {:.2} = driver {:.2} \
                 + simulated kernel {:.2}",
                k.name(),
                median(&mut total) / 1e3,
                median(&mut driver) / 1e3,
                median(&mut ioctl) / 1e3,
                per(allocs),
                per(allocs - kernel_allocs),
                per(kernel_allocs),
            );

            c.bench_function(
                &format!("{p}_{}/dispatch_host_cost_{case}", k.name()),
                |b| {
                    b.iter_custom(|iters| {
                        let mut t = Duration::ZERO;
                        for i in 0..iters as usize {
                            let (range, args) = input(i);
                            let start = Instant::now();
                            let e = q.dispatch(&kernel, range, args, &[]).expect("dispatch");
                            t += start.elapsed();
                            e.wait(None).expect("complete");
                        }
                        t
                    })
                },
            );
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
