//! Encoding repeated dispatches with pre-baked state: ns per dispatch (criterion) and heap
//! allocations per dispatch (a counting global allocator). Target: ≤ 200 ns, 0 allocations.

#[path = "../tests/counting_alloc/mod.rs"]
mod counting_alloc;

use batchbuffer::builder::*;
use batchbuffer::WalkOrder;
use criterion::{criterion_group, criterion_main, Criterion};
use platform::Platform;
use std::hint::black_box;

fn desc<'a>(
    p: Platform,
    surfaces: &'a [batchbuffer::RenderSurfaceState],
    ct: &'a [u32],
) -> DispatchDesc<'a> {
    DispatchDesc {
        kernel_offset: 0x1000,
        simd: Simd::S16,
        local_size: [64, 1, 1],
        group_count: [1024, 1, 1],
        group_start: [0; 3],
        cross_thread: ct,
        local_ids: if p == Platform::Dg2 {
            LocalIds::Hardware {
                channels: 1,
                walk_order: WalkOrder::Walk012,
            }
        } else {
            LocalIds::Runtime {
                channels: 1,
                walk_order: WalkOrder::Walk012,
            }
        },
        inline_data: p == Platform::Dg2,
        slm_bytes: 0,
        barriers: 0,
        surfaces,
        samplers: None,
    }
}

/// Allocations per call of `f`, over many calls.
fn allocs_per_call(mut f: impl FnMut()) -> f64 {
    const N: usize = 10_000;
    let before = counting_alloc::allocations();
    for _ in 0..N {
        f();
    }
    (counting_alloc::allocations() - before) as f64 / N as f64
}

fn bench(c: &mut Criterion) {
    for p in [Platform::Tgllp, Platform::Dg2] {
        let mut batch_mem = vec![0u32; 1 << 16];
        let (mut s, mut d, mut i) = (
            vec![0u32; 1 << 14],
            vec![0u32; 1 << 14],
            vec![0u32; 1 << 16],
        );
        let mut heaps = Heaps {
            surface: Heap::new("surface", 0x20_0000, &mut s),
            dynamic: Heap::new("dynamic", 0x30_0000, &mut d),
            indirect: Heap::new("indirect", 0x40_0000, &mut i),
        };
        let surfaces = [
            buffer_surface(p, 0x4000_0000, 1 << 20).unwrap(),
            buffer_surface(p, 0x8000_0000, 1 << 20).unwrap(),
        ];
        let ct = [0x4000_0000u32, 0, 0x8000_0000, 0, 1024, 0, 0, 0];
        let dd = desc(p, &surfaces, &ct);
        let prepared = prepare(p, &mut heaps, &dd).unwrap();
        let mut batch = Batch::new(&mut batch_mem);

        // Pre-baked: state already in the heaps; each dispatch packs its walker.
        let per = allocs_per_call(|| {
            if batch.len() > 60_000 {
                batch.clear();
            }
            prepared.emit(&mut batch).unwrap();
        });
        eprintln!("{p}: pre-baked dispatch: {per} heap allocations per dispatch");
        c.bench_function(&format!("{p}/prebaked_dispatch"), |b| {
            b.iter(|| {
                batch.clear();
                black_box(&prepared).emit(&mut batch).unwrap();
                black_box(batch.len())
            })
        });

        // Full: surface states, binding table, descriptor and payload written every time.
        let per = allocs_per_call(|| {
            heaps.surface.reset();
            heaps.dynamic.reset();
            heaps.indirect.reset();
            batch.clear();
            prepare(p, &mut heaps, &dd)
                .unwrap()
                .emit(&mut batch)
                .unwrap();
        });
        eprintln!("{p}: full dispatch: {per} heap allocations per dispatch");
        c.bench_function(&format!("{p}/full_dispatch"), |b| {
            b.iter(|| {
                heaps.surface.reset();
                heaps.dynamic.reset();
                heaps.indirect.reset();
                batch.clear();
                prepare(p, &mut heaps, black_box(&dd))
                    .unwrap()
                    .emit(&mut batch)
                    .unwrap();
                black_box(batch.len())
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
