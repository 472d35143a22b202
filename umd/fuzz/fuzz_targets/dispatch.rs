//! Parse → kernel → ND-range → batch → dispatch on the simulator (see `umd::fuzz` for the input
//! layout): every value a binary carries and every size and argument it is run with give a
//! result or an error, never a panic or a hang. Half the mutations patch one field of the
//! binary with a boundary value (random bytes rarely get past parsing).
#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};

fuzz_target!(|data: &[u8]| umd::fuzz::dispatch(data));

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    if seed & 1 == 0 && umd::fuzz::mutate_field(&mut data[..size], seed >> 1) {
        return size;
    }
    fuzzer_mutate(data, size, max_size)
});
