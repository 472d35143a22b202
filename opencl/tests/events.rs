//! The execution model through the ocl-icd loader, from a C client compiled by gcc: queued
//! commands, in-order queues, wait lists across queues, user events, callbacks, markers and
//! barriers, profiling order, out-of-order queues and a GPU fault beside a working queue, on
//! every simulated device.

mod support;

use oracles::{require, Oracle};

#[test]
fn events_on_each_simulated_device() {
    let gcc = require!(Oracle::OpenClC);
    let icd = support::icd();
    let exe = icd.dir.path().join("events");
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/c/events.c");
    support::run(
        std::process::Command::new(&gcc)
            .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pthread", "-o"])
            .arg(&exe)
            .arg(src)
            .arg("-lOpenCL"),
    );
    for dev in support::SIM_DEVICES {
        let out = support::run(&mut support::command(&exe, &icd, dev));
        assert!(out.contains(", 0 failed"), "{dev}:\n{out}");
    }
}
