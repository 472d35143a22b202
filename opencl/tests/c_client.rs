//! A C client compiled by gcc against the Khronos headers and linked with the ocl-icd loader:
//! kernels, sub-group queries and the specification's error codes for bad input, on every
//! simulated device.

use crate::support;

use oracles::{require, Oracle};

#[test]
fn c_client_on_each_simulated_device() {
    let gcc = require!(Oracle::OpenClC);
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "client");
    for dev in support::c_client_devices() {
        let out = support::run(support::command(&exe, &icd, dev).env(
            "EXPECT_PAGE_FAULTS",
            u8::from(support::page_faults(dev)).to_string(),
        ));
        assert!(out.contains(", 0 failed"), "{dev}:\n{out}");
    }
}
