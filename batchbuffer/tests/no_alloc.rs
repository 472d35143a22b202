//! Building a dispatch allocates nothing: a counting global allocator sees zero allocations
//! for prepare + emit on every generation.

mod counting_alloc;

use batchbuffer::builder::*;
use batchbuffer::WalkOrder;
use platform::Platform;

#[test]
fn dispatch_does_not_allocate() {
    let mut mem = vec![0u32; 4096];
    let (mut s, mut d, mut i) = (vec![0u32; 4096], vec![0u32; 1024], vec![0u32; 8192]);
    for p in Platform::ALL {
        let mut heaps = Heaps {
            surface: Heap::new("surface", 0x20_0000, &mut s),
            dynamic: Heap::new("dynamic", 0x30_0000, &mut d),
            indirect: Heap::new("indirect", 0x40_0000, &mut i),
        };
        let surfaces = [buffer_surface(p, 0x1000_0000, 4096).unwrap()];
        let ct = [1u32, 2, 3, 4];
        let desc = DispatchDesc {
            kernel_offset: 0,
            simd: Simd::S16,
            local_size: [32, 2, 1],
            group_count: [8, 1, 1],
            group_start: [0; 3],
            cross_thread: &ct,
            local_ids: LocalIds::Runtime {
                channels: 2,
                walk_order: WalkOrder::Walk012,
            },
            inline_data: false,
            slm_bytes: 1024,
            barriers: 1,
            surfaces: &surfaces,
            samplers: None,
        };
        let mut batch = Batch::new(&mut mem);
        let builder = Builder::new(p);
        let before = counting_alloc::allocations();
        builder
            .preamble(
                &mut batch,
                &heaps,
                0,
                (0x80_0000, 4096),
                FrontEnd::default(),
            )
            .unwrap();
        for _ in 0..10 {
            builder.dispatch(&mut batch, &mut heaps, &desc).unwrap();
        }
        builder.finish(&mut batch, 0x1000, 1).unwrap();
        assert_eq!(counting_alloc::allocations() - before, 0, "{p}");
    }
}
