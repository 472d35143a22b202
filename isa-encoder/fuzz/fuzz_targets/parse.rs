//! Any text, on every platform: the assembler returns bytes or a line:column error, never
//! panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use platform::Platform;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        for p in Platform::ALL {
            let _ = isa_encoder::assemble(p, text);
        }
    }
});
