//! clCompileProgram and clLinkProgram from a C client (`c/programs.c`) compiled by gcc against
//! the Khronos headers and run through the ocl-icd loader on every simulated device: two sources
//! with a header from `input_headers`, linked directly and through a library, the kernel's
//! results checked, and the specification's errors.

use crate::support;

use oracles::{require, Oracle};

#[test]
fn compile_and_link_on_each_simulated_device() {
    let gcc = require!(Oracle::OpenClC);
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "programs");
    for dev in support::SIM_DEVICES {
        let out = support::run(&mut support::command(&exe, &icd, dev));
        assert!(out.contains(", 0 failed"), "{dev}:\n{out}");
    }
}
