//! STATE_BASE_ADDRESS through the whole command-streamer path: a second packet that enables
//! only one base keeps the others (their Modify Enable is clear), and the walker resolves its
//! kernel, interface descriptor and payload through the kept bases.

use crate::common;

use std::sync::{Arc, Mutex};

use batchbuffer::builder::{Batch, Builder, DispatchDesc, FrontEnd, LocalIds, Simd};
use batchbuffer::{identify, PacketId, StateBaseAddress, WalkOrder};
use common::{bytes, i915_gpu, HeapMem, Placed};
use platform::Platform;
use sim::cs::{Walker, WalkerExecutor};
use sim::dispatch::state::{resolve, Bases};
use sim::gpu::GpuErrorKind;

const BATCH: u64 = 0x10_0000;
const SURFACE: u64 = 0x20_0000;
const DYNAMIC: u64 = 0x30_0000;
const INDIRECT: u64 = 0x40_0000;
const INSTRUCTION: u64 = 0x50_0000;
const FENCE: u64 = 0x70_0000;
const GENERAL: u64 = 0x90_0000;
const HEAP_BYTES: usize = 0x1_0000;
const KERNEL_OFFSET: u64 = 0x40;

/// Resolves each walker as the EU executor would and keeps what it found.
#[derive(Default)]
struct Recorder(Mutex<Vec<(Bases, u64)>>);

impl WalkerExecutor for Recorder {
    fn dispatch(&self, w: &Walker<'_>) -> Result<(), GpuErrorKind> {
        let d = resolve(w)?;
        self.0.lock().unwrap().push((d.bases, d.kernel));
        Ok(())
    }
}

/// The builder's batch with a second STATE_BASE_ADDRESS after the first, enabling only the
/// General State base.
fn batch(p: Platform) -> (Vec<u32>, HeapMem) {
    let mut mem = HeapMem::new(HEAP_BYTES / 4);
    let mut heaps = mem.heaps([SURFACE, DYNAMIC, INDIRECT]);
    let mut words = vec![0u32; HEAP_BYTES / 4];
    let mut b = Batch::new(&mut words);
    let builder = Builder::new(p);
    let fe = FrontEnd::default();
    builder
        .preamble(&mut b, &heaps, 0, (INSTRUCTION, HEAP_BYTES), fe)
        .unwrap();
    b.emit(
        p,
        &StateBaseAddress {
            general_state_base_address_modify_enable: true,
            general_state_base_address: GENERAL,
            // Ignored: its Modify Enable is clear.
            instruction_base_address: 0xdead_0000,
            ..Default::default()
        },
    )
    .unwrap();
    let ct = [0u32; 8];
    let desc = DispatchDesc {
        kernel_offset: KERNEL_OFFSET,
        simd: Simd::from_lanes(16).unwrap(),
        local_size: [16, 1, 1],
        group_count: [1, 1, 1],
        group_start: [0; 3],
        cross_thread: &ct,
        local_ids: LocalIds::Runtime {
            channels: 1,
            walk_order: WalkOrder::Walk012,
        },
        inline_data: p == Platform::Dg2,
        slm_bytes: 0,
        barriers: 0,
        surfaces: &[],
        samplers: None,
    };
    builder.dispatch(&mut b, &mut heaps, &desc).unwrap();
    builder.finish(&mut b, FENCE, 1).unwrap();
    let words = b.as_slice().to_vec();
    (words, mem)
}

#[test]
fn walker_uses_the_bases_a_later_state_base_address_kept() {
    for p in Platform::ALL {
        let rec = Arc::new(Recorder::default());
        let g = i915_gpu(p, rec.clone());
        let (b, mem) = batch(p);
        // The batch really holds two STATE_BASE_ADDRESS.
        let mut at = 0;
        let mut sbas = 0;
        while at < b.len() {
            let id = identify(p, &b[at..]).unwrap();
            sbas += usize::from(id.packet == PacketId::StateBaseAddress);
            at += id.len;
        }
        assert_eq!(sbas, 2, "{p}");
        let objects = [
            (BATCH, g.bo(&bytes(&b), HEAP_BYTES), false),
            (SURFACE, g.bo(&bytes(&mem.surface), HEAP_BYTES), false),
            (DYNAMIC, g.bo(&bytes(&mem.dynamic), HEAP_BYTES), false),
            (INDIRECT, g.bo(&bytes(&mem.indirect), HEAP_BYTES), false),
            (INSTRUCTION, g.bo(&[], HEAP_BYTES), false),
            (FENCE, g.bo(&[], 4096), true),
        ]
        .map(|(gpu_address, handle, write)| Placed {
            gpu_address,
            handle,
            write,
        });
        g.exec(&objects, 5).unwrap();
        let fence = g.read(objects[5].handle, 4, 4096);
        assert_eq!(fence, 1u32.to_le_bytes(), "{p}: the batch completed");
        g.close(&objects);
        let seen = rec.0.lock().unwrap().clone();
        let [(bases, kernel)] = seen[..] else {
            panic!("{p}: {} walkers", seen.len())
        };
        assert_eq!(bases.general, GENERAL, "{p}");
        assert_eq!(bases.surface, SURFACE, "{p}");
        assert_eq!(bases.dynamic, DYNAMIC, "{p}");
        assert_eq!(bases.indirect, INDIRECT, "{p}");
        assert_eq!(bases.instruction, INSTRUCTION, "{p}");
        assert_eq!(kernel, INSTRUCTION + KERNEL_OFFSET, "{p}");
    }
}
