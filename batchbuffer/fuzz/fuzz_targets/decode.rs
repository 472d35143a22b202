//! The batch decoder must never panic: any bytes, any platform, both modes.
#![no_main]

use batchbuffer::decode::{decode_to_string, Mode};
use libfuzzer_sys::fuzz_target;
use platform::Platform;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let p = Platform::ALL[(sel & 3) as usize];
    let mode = if sel & 4 != 0 { Mode::Full } else { Mode::Summary };
    let _ = decode_to_string(p, rest, mode);
});
