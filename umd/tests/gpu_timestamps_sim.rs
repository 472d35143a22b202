//! GPU timestamps around a dispatch: the batch writes RING_TIMESTAMP before and after its
//! walkers (PIPE_CONTROL "Write Timestamp"), the event reports them once complete, and the
//! device's clock correlation (i915 REG_READ of RING_TIMESTAMP, xe ENGINE_CYCLES) places them
//! on CLOCK_MONOTONIC between the host's submission and completion, on every simulated
//! platform and kernel driver. The kernel is compiled by ocloc.

use kmd_iface::drm_core::monotonic_now_ns;
use platform::Platform;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const SOURCE: &str = "kernel void fill(global uint *out) { out[get_global_id(0)] = 7; }";

/// The slack of the correlation: its two host clock reads bracket the GPU read, and a tick
/// is at most 84 ns on these platforms.
const SLACK_NS: i64 = 200_000;

#[test]
fn dispatch_timestamps_lie_between_submission_and_completion() {
    let Some(ocloc) = oracles::get(oracles::Oracle::Ocloc, "gpu_timestamps_sim") else {
        return;
    };
    for p in Platform::ALL {
        let bin =
            oracles::ocloc::compile(&ocloc, p, SOURCE, "", oracles::ocloc::Format::Zebin).unwrap();
        let k = Kernel::from_ocloc(&bin, Some("fill"), Some(p)).unwrap();
        for kmd in umd::device::sim_kmds(p) {
            let d = Device::open_sim(p, Some(kmd)).unwrap();
            let clock = d.gpu_clock().unwrap();
            assert!(clock.hz > 0, "{p} {kmd:?}: no timestamp frequency");
            let q = d.create_queue().unwrap();
            let out = d.create_buffer(4 * 1024).unwrap();
            let range = NdRange::new(&[1024], Some(&[64]), k.simd, None).unwrap();
            let before = monotonic_now_ns();
            let e = q
                .dispatch(&k, &range, &[ArgValue::Buffer(out.clone())], &[])
                .unwrap();
            assert!(e.wait(None).unwrap());
            let after = monotonic_now_ns();
            let (start, end) = e.gpu_ticks().expect("a completed dispatch has timestamps");
            assert!(start < end, "{p} {kmd:?}: start {start} end {end}");
            let (s, t) = (
                clock.host_ns_of(start).unwrap(),
                clock.host_ns_of(end).unwrap(),
            );
            assert!(
                s >= before - SLACK_NS && t <= after + SLACK_NS,
                "{p} {kmd:?}: GPU {s}..{t} outside host {before}..{after}"
            );
            assert!(out.to_vec().unwrap().chunks(4).all(|w| w == [7, 0, 0, 0]));
        }
    }
}
