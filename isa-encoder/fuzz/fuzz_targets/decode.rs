//! Any bytes, on every platform: the kernel decoder and printer return text or a positioned
//! error, never panic; whatever decodes re-encodes without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use platform::Platform;

fuzz_target!(|data: &[u8]| {
    for p in Platform::ALL {
        if let Ok(insts) = isa_encoder::kernel::decode_kernel(p, data) {
            let _ = isa_encoder::text::format_kernel(p, &insts);
            for d in &insts {
                let _ = isa_encoder::native::encode(p, &d.inst);
            }
        }
    }
});
