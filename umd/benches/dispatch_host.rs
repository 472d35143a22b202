//! Host cost of one dispatch with the kernel and buffers warm: building the payload and batch,
//! copying them to a pooled arena and the submit ioctl, excluding the GPU's execution. Also
//! the heap allocations per dispatch (a counting global allocator). Anchor: Intel's runtime
//! spends about 2 µs per kernel submission; target ≤ 2 µs, then ≤ 1 µs.
//!
//! The device is the simulator with a walker executor that runs nothing, so the GPU side is
//! the simulated command streamer parsing the short batch. Until the simulator runs on its own
//! thread that parse happens inside the submit ioctl and is part of the figure, which is
//! therefore an upper bound of the driver's own cost.

#[path = "../../batchbuffer/tests/counting_alloc/mod.rs"]
mod counting_alloc;

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
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

fn eot(p: Platform) -> &'static str {
    match p {
        Platform::Skl | Platform::Icllp => include_str!("../tests/data/eot_gen9.asm"),
        Platform::Tgllp => include_str!("../tests/data/eot_gen12lp.asm"),
        Platform::Dg2 => include_str!("../tests/data/eot_xehpg.asm"),
    }
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
        let file = sim::open_device(p, kmd, cfg).expect("simulator");
        let d =
            Device::open_device_file(format!("sim:{}", p.name()), file, Some(k)).expect("device");
        let q = d.create_queue().expect("queue");
        let kernel = Kernel::from_asm(p, eot(p), 16, "eot").expect("kernel");
        let buf = d.create_buffer(1 << 20).expect("buffer");
        let args = [
            ArgValue::Buffer(buf),
            ArgValue::Value(3u32.to_le_bytes().to_vec()),
        ];
        let range = NdRange::new(&[1 << 16], Some(&[64]), 16, None).expect("range");
        // Warm: kernel resident, arena pooled, staging allocated.
        for _ in 0..4 {
            q.dispatch(&kernel, &range, &args, &[])
                .and_then(|e| e.wait(None))
                .expect("dispatch");
        }

        // Allocations of the dispatch call alone (the wait is outside the count).
        const N: usize = 2000;
        let mut allocs = 0;
        for _ in 0..N {
            let before = counting_alloc::allocations();
            let e = q.dispatch(&kernel, &range, &args, &[]).expect("dispatch");
            allocs += counting_alloc::allocations() - before;
            e.wait(None).expect("complete");
        }
        eprintln!(
            "{p} {}: {} heap allocations per dispatch",
            k.name(),
            allocs as f64 / N as f64
        );

        c.bench_function(&format!("{p}_{}/dispatch_host_cost", k.name()), |b| {
            b.iter_custom(|iters| {
                let mut t = Duration::ZERO;
                for _ in 0..iters {
                    let start = Instant::now();
                    let e = q.dispatch(&kernel, &range, &args, &[]).expect("dispatch");
                    t += start.elapsed();
                    e.wait(None).expect("complete");
                }
                t
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
