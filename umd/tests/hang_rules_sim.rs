//! Hang detection by the kernel drivers' rules in simulated GPU time (sim::cs::HangRule,
//! sim::dispatch::progress): a long kernel the 1 s host-time watchdog used to kill finishes; an
//! endless loop is reset by i915's heartbeat/preemption timeout and xe's job timeout and
//! reported, through the error capture, with its instruction offset; a knob shortened in the
//! simulated sysfs tree catches a kernel the defaults let finish.

use std::path::Path;

use oracles::{require, Oracle};
use platform::Platform;
use umd::device::{Device, KmdChoice};
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;
use umd::Error;

fn open(p: Platform, k: KmdChoice) -> (std::sync::Arc<sim::SimDevice>, Device) {
    let kmd = match k {
        KmdChoice::I915 => sim::Kmd::I915,
        KmdChoice::Xe => sim::Kmd::Xe,
    };
    let sim = sim::open_device(p, kmd, sim::SimConfig::default()).unwrap();
    let d = Device::open_device_file(format!("sim:{}", p.name()), sim.clone(), Some(k)).unwrap();
    (sim, d)
}

fn build(ocloc: &Path, p: Platform, src: &str) -> Kernel {
    let bin =
        oracles::ocloc::compile(ocloc, p, src, "", oracles::ocloc::Format::PatchTokens).unwrap();
    Kernel::from_ocloc(&bin, None, Some(p)).unwrap()
}

/// The measurement: 256 float iterations over 262,144 work items on sim:tgllp, killed
/// by the host-time watchdog before; about 21 M EU instructions, well under a millisecond of
/// simulated GPU time, so both drivers' rules let it finish.
#[test]
fn long_float_loop_over_a_quarter_million_items_finishes() {
    let ocloc = require!(Oracle::Ocloc);
    let p = Platform::Tgllp;
    let src = "__attribute__((intel_reqd_sub_group_size(16)))
        kernel void longloop(global float *o) {
            uint i = get_global_id(0);
            float x = (float)(i & 1023);
            for (int k = 0; k < 256; k++) x = x * 0.5f + 1.0f;
            o[i] = x;
        }";
    let kernel = build(&ocloc, p, src);
    let n = 262_144u32;
    let (_sim, d) = open(p, KmdChoice::I915);
    let out = d.create_buffer(4 * u64::from(n)).unwrap();
    let range = NdRange::new(&[n], Some(&[256]), 16, None).unwrap();
    d.dispatch(&kernel, &range, &[ArgValue::Buffer(out.clone())])
        .unwrap_or_else(|e| panic!("{e}"));
    // x*0.5+1 converges to 2 from any start in 256 steps (exact in binary, fused or not).
    let v = out.to_vec().unwrap();
    for (i, c) in v.chunks(4).enumerate() {
        assert_eq!(f32::from_le_bytes(c.try_into().unwrap()), 2.0, "item {i}");
    }
}

/// An endless loop, on every simulated platform and both drivers: reset by the driver's rule
/// (the simulator proves the thread repeats itself and skips ahead to the reset) and reported
/// with the loop's offset from the capture; the rule is named.
#[test]
fn endless_loop_is_reset_by_the_drivers_rule_with_its_offset() {
    let iga = require!(Oracle::Iga64);
    for p in Platform::ALL {
        for k in umd::device::sim_kmds(p) {
            let (_sim, d) = open(p, k);
            let looping =
                Kernel::from_asm(p, include_str!("data/endless_loop.asm"), 8, "loop").unwrap();
            let jmpi =
                oracles::iga64::offsets_of(&iga, p, looping.isa(), |t| t.contains("jmpi")).unwrap();
            let range = NdRange::new(&[8], None, 8, None).unwrap();
            match d.dispatch(&looping, &range, &[]) {
                Err(e @ Error::GpuHang { at: Some(at), .. }) => {
                    assert_eq!(at.offset, jmpi[0], "{p} {k:?}: {e}");
                    let msg = e.to_string();
                    let rule = match k {
                        // Gen9/11: 2.5 s heartbeat + 640 ms preemption timeout; Gen12: 7.5 s.
                        KmdChoice::I915 => "i915 engine heartbeat (2500 ms)",
                        KmdChoice::Xe => "xe job timeout (5000 ms)",
                    };
                    assert!(msg.contains(rule), "{p} {k:?}: {msg}");
                    assert!(msg.contains("loop forever"), "{msg}");
                }
                other => panic!("{p} {k:?}: {other:?}"),
            }
        }
    }
}

/// Two million iterations in one thread group: at least 6 M instructions, over 12 ms of
/// simulated GPU time. The defaults let it finish; i915 with a 1 ms heartbeat and preemption
/// timeout (reset 3 ms in), or an xe exec queue created after job_timeout_ms was set to 1,
/// reset it.
#[test]
fn shortened_knobs_catch_a_kernel_the_defaults_let_finish() {
    let ocloc = require!(Oracle::Ocloc);
    let iga = require!(Oracle::Iga64);
    let p = Platform::Tgllp;
    let src = "__attribute__((intel_reqd_sub_group_size(16)))
        kernel void spin(global uint *o, uint n) {
            uint a = get_global_id(0);
            for (uint k = 0; k < n; k++) a = a * 1664525u + 1013904223u;
            o[get_global_id(0)] = a;
        }";
    let kernel = build(&ocloc, p, src);
    let heap = kernel.isa();
    let listing = oracles::iga64::offsets_of(&iga, p, heap, |_| true).unwrap();
    let range = NdRange::new(&[16], None, 16, None).unwrap();
    for k in [KmdChoice::I915, KmdChoice::Xe] {
        let (sim, d) = open(p, k);
        let out = d.create_buffer(64).unwrap();
        let args = [
            ArgValue::Buffer(out.clone()),
            ArgValue::Value(2_000_000u32.to_le_bytes().to_vec()),
        ];
        d.dispatch(&kernel, &range, &args)
            .unwrap_or_else(|e| panic!("{k:?} with the defaults: {e}"));
        let pci = sim.sysfs_dir().join("device");
        let q = match k {
            KmdChoice::I915 => {
                let e = pci.join("drm/card0/engine/rcs0");
                std::fs::write(e.join("heartbeat_interval_ms"), "1").unwrap();
                std::fs::write(e.join("preempt_timeout_ms"), "1").unwrap();
                d.create_queue().unwrap()
            }
            KmdChoice::Xe => {
                let knob = pci.join("tile0/gt0/engines/rcs/job_timeout_ms");
                std::fs::write(knob, "1").unwrap();
                d.create_queue().unwrap()
            }
        };
        match q.dispatch(&kernel, &range, &args, &[]).unwrap().wait(None) {
            Err(e @ Error::GpuHang { at: Some(at), .. }) => {
                assert!(listing.contains(&at.offset), "{k:?}: {e}");
                let msg = e.to_string();
                let rule = match k {
                    KmdChoice::I915 => "heartbeat (1 ms) and preemption timeout (1 ms)",
                    KmdChoice::Xe => "xe job timeout (1 ms)",
                };
                assert!(msg.contains(rule), "{k:?}: {msg}");
                assert!(!msg.contains("loop forever"), "{msg}");
            }
            other => panic!("{k:?}: {other:?}"),
        }
    }
}
