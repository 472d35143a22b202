//! Random ioctl request numbers and argument bytes (and mmaps) into both personalities of
//! every simulated platform. See `sim::fuzz` for the input layout.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sim::fuzz::run(data));
