//! Any bytes given to the ocloc-binary parser give a program or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(program) = umd::program::parse(data) {
        for k in &program.kernels {
            let _ = k.sub_group_count_for_ndrange(&[k.simd_size as usize + 3, 2]);
        }
    }
});
