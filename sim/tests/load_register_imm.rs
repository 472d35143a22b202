//! MI_LOAD_REGISTER_IMM with several (register, value) pairs, run by the command streamer
//! through i915 execbuffer2: every pair is loaded in order, Byte Write Disables keep the
//! disabled bytes, and MI_STORE_REGISTER_MEM reads the registers back.

use crate::common;

use std::sync::Arc;

use batchbuffer::{MiBatchBufferEnd, MiLoadRegisterImm, MiStoreRegisterMem, Packet};
use common::{bytes, i915_gpu, Placed};
use platform::Platform;
use sim::cs::NoWalkerExecutor;

const BATCH: u64 = 0x10_0000;
const DATA: u64 = 0x20_0000;
/// CS_GPR0 of the render engine (RENDER_RING_BASE 0x2000 + 0x600, intel_engine_regs.h): 16
/// 64-bit general purpose registers.
const GPR0: u32 = 0x2600;

fn pack(p: Platform, out: &mut Vec<u32>, pk: &impl Packet) {
    let mut buf = [0u32; 300];
    let n = pk.pack(p, &mut buf).unwrap();
    out.extend_from_slice(&buf[..n]);
}

#[test]
fn every_pair_is_loaded_and_byte_disables_keep_old_bytes() {
    for p in Platform::ALL {
        let g = i915_gpu(p, Arc::new(NoWalkerExecutor));
        let values: Vec<(u32, u32)> = (0..8u32)
            .map(|k| (GPR0 + 4 * k, 0x1111_1111 * (k + 1)))
            .collect();
        let mut dw = Vec::new();
        pack(p, &mut dw, &MiLoadRegisterImm::from_pairs(&values).unwrap());
        // Bytes 0 and 2 disabled: GPR0's low dword keeps 0x11 and 0x11 there.
        let mut masked = MiLoadRegisterImm::from_pairs(&[(GPR0, 0xaabb_ccdd)]).unwrap();
        masked.byte_write_disables = 0b0101;
        pack(p, &mut dw, &masked);
        for k in 0..8u32 {
            let srm = MiStoreRegisterMem {
                register_address: GPR0 + 4 * k,
                memory_address: DATA + 4 * u64::from(k),
                ..Default::default()
            };
            pack(p, &mut dw, &srm);
        }
        pack(p, &mut dw, &MiBatchBufferEnd::default());
        let objects = [
            Placed {
                gpu_address: BATCH,
                handle: g.bo(&bytes(&dw), 4096),
                write: false,
            },
            Placed {
                gpu_address: DATA,
                handle: g.bo(&[], 4096),
                write: true,
            },
        ];
        g.exec(&objects, 1).unwrap();
        let out = g.read(objects[1].handle, 32, 4096);
        let got: Vec<u32> = out
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let mut want: Vec<u32> = values.iter().map(|&(_, v)| v).collect();
        want[0] = 0xaa11_cc11;
        assert_eq!(got, want, "{p}");
        g.close(&objects);
    }
}
