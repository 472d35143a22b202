//! The execution model through the ocl-icd loader, from a C client compiled by gcc: queued
//! commands, in-order queues, wait lists across queues, user events, callbacks, markers and
//! barriers, profiling order, out-of-order queues, a GPU fault and a hang beside a working
//! queue, and threads enqueuing at once, on every simulated device.

use crate::support;

use oracles::{require, Oracle};

#[test]
fn events_on_each_simulated_device() {
    let gcc = require!(Oracle::OpenClC);
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "events");
    for dev in support::c_client_devices() {
        // One tick of the command streamer timestamp, rounded: Gen9 counts at 12 MHz, the
        // later platforms at the 19.2 MHz crystal (Mesa's and the kernel's frequencies).
        let tick_ns = if dev == "sim:skl" { 83 } else { 52 };
        let out = support::run(
            support::command(&exe, &icd, dev)
                .env("EXPECT_TIMER_RESOLUTION_NS", tick_ns.to_string())
                .env(
                    "EXPECT_PAGE_FAULTS",
                    u8::from(support::page_faults(dev)).to_string(),
                ),
        );
        assert!(out.contains(", 0 failed"), "{dev}:\n{out}");
    }
}
