//! Identification and every packet's unpack (and repack of what unpacked) must never panic.
#![no_main]

use batchbuffer::{identify, PacketId};
use libfuzzer_sys::fuzz_target;
use platform::Platform;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let p = Platform::ALL[(sel & 3) as usize];
    let dw: Vec<u32> = rest
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let _ = identify(p, &dw);
    let mut out = [0u32; 64];
    for &id in PacketId::ALL {
        let _ = id.repack(p, &dw, &mut out);
    }
});
