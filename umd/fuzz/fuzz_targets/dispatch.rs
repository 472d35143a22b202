//! Parse → kernel → ND-range → batch → dispatch on the simulator (see `umd::fuzz` for the input
//! layout): every value a binary carries and every size and argument it is run with give a
//! result or an error, never a panic or a hang. Half the mutations patch one field of the
//! binary with a boundary value (random bytes rarely get past parsing). The simulated device
//! files the inputs share are closed at exit, so their sysfs trees do not outlive the run.
#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};

extern "C" fn release_devices() {
    umd::fuzz::release_devices();
}

fuzz_target!(
    init: {
        // SAFETY: atexit only records the function pointer; `release_devices` is a plain
        // `extern "C" fn` with no arguments, valid for the whole process.
        unsafe { libc::atexit(release_devices) };
    },
    |data: &[u8]| umd::fuzz::dispatch(data)
);

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    if seed & 1 == 0 && umd::fuzz::mutate_field(&mut data[..size], seed >> 1) {
        return size;
    }
    fuzzer_mutate(data, size, max_size)
});
