//! Queues and asynchronous submission on every simulated platform and kernel driver: several
//! threads and queues submitting at once, events polled and waited on with timeouts,
//! dependencies across queues and on host events, and a faulting submission on one queue
//! while another queue's work completes.
//!
//! Kernels are compiled by ocloc; results are checked against the OpenCL C source's meaning.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::thread;
use std::time::Duration;

use batchbuffer::{MiBatchBufferEnd, MiStoreDataImm, Packet};
use platform::Platform;
use umd::device::{Device, KmdChoice};
use umd::image::Image;
use umd::kernel::Kernel;
use umd::memory::Buffer;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;
use umd::queue::{Event, Queue, Status};
use umd::Error;

const SOURCE: &str = "
kernel void fill(global uint *out, uint scale) {
    size_t i = get_global_id(0);
    out[i] = (uint)i * scale;
}
kernel void add_one(global const uint *in, global uint *out) {
    size_t i = get_global_id(0);
    out[i] = in[i] + 1;
}";

const N: u32 = 256;

fn combos() -> Vec<(Platform, KmdChoice)> {
    Platform::ALL
        .iter()
        .flat_map(|&p| umd::device::sim_kmds(p).into_iter().map(move |k| (p, k)))
        .collect()
}

/// The two kernels for `p`, compiled once per test binary; None (skipped, or a failure with
/// ORACLES=required) without ocloc.
fn kernels(p: Platform) -> Option<(Kernel, Kernel)> {
    static BINARIES: OnceLock<Mutex<HashMap<Platform, Vec<u8>>>> = OnceLock::new();
    let ocloc = oracles::get(oracles::Oracle::Ocloc, "queues_sim")?;
    let bin = BINARIES
        .get_or_init(Default::default)
        .lock()
        .unwrap()
        .entry(p)
        .or_insert_with(|| {
            oracles::ocloc::compile(&ocloc, p, SOURCE, "", oracles::ocloc::Format::Zebin).unwrap()
        })
        .clone();
    Some((
        Kernel::from_ocloc(&bin, Some("fill"), Some(p)).unwrap(),
        Kernel::from_ocloc(&bin, Some("add_one"), Some(p)).unwrap(),
    ))
}

fn range() -> NdRange {
    NdRange::new(&[N], Some(&[32]), 16, None).unwrap()
}

fn words(b: &Buffer) -> Vec<u32> {
    b.to_vec()
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn fill(q: &Queue, k: &Kernel, out: &Buffer, scale: u32, wait_for: &[Event]) -> Event {
    let args = [
        ArgValue::Buffer(out.clone()),
        ArgValue::Value(scale.to_le_bytes().to_vec()),
    ];
    q.dispatch(k, &range(), &args, wait_for).unwrap()
}

fn assert_filled(b: &Buffer, scale: u32, add: u32, what: &str) {
    let got = words(b);
    for (i, v) in got.iter().enumerate() {
        assert_eq!(*v, i as u32 * scale + add, "{what}: word {i}");
    }
}

#[test]
fn public_types_are_send_and_sync() {
    fn both<T: Send + Sync>() {}
    both::<Device>();
    both::<Queue>();
    both::<Event>();
    both::<Buffer>();
    both::<Image>();
    both::<Kernel>();
    both::<Error>();
}

/// Four threads, each with its own queue plus two sharing one queue, submit a run of
/// dispatches at once and wait on their events; every buffer holds its own thread's result.
#[test]
fn threads_and_queues_submit_concurrently() {
    for (p, k) in combos() {
        let Some((fill_k, _)) = kernels(p) else {
            return;
        };
        let d = Device::open_sim(p, Some(k)).unwrap();
        let shared = d.create_queue().unwrap();
        thread::scope(|s| {
            for t in 0..6u32 {
                let (d, fill_k, shared) = (&d, &fill_k, &shared);
                s.spawn(move || {
                    let own;
                    let q = if t < 4 {
                        own = d.create_queue().unwrap();
                        &own
                    } else {
                        shared
                    };
                    for round in 0..3u32 {
                        let scale = t * 10 + round + 1;
                        let out = d.create_buffer(u64::from(4 * N)).unwrap();
                        let e = fill(q, fill_k, &out, scale, &[]);
                        assert!(e.wait(None).unwrap(), "{p} {k:?}");
                        assert_eq!(e.status(), Status::Complete);
                        assert_filled(&out, scale, 0, &format!("{p} {k:?} thread {t}"));
                    }
                });
            }
        });
        // The synchronous API shares the device with them.
        let out = d.create_buffer(u64::from(4 * N)).unwrap();
        let args = [
            ArgValue::Buffer(out.clone()),
            ArgValue::Value(7u32.to_le_bytes().to_vec()),
        ];
        d.dispatch(&fill_k, &range(), &args).unwrap();
        assert_filled(&out, 7, 0, &format!("{p} {k:?} sync"));
    }
}

/// A dispatch returns an event; work behind an unsignalled host event is held (waits time
/// out, nothing runs) and runs once the host signals, in queue order.
#[test]
fn host_events_hold_work_and_waits_time_out() {
    for (p, k) in combos() {
        let Some((fill_k, add_k)) = kernels(p) else {
            return;
        };
        let d = Device::open_sim(p, Some(k)).unwrap();
        let q = d.create_queue().unwrap();
        let gate = d.host_event();
        assert_eq!(gate.status(), Status::Waiting);
        assert!(!gate.poll().unwrap());
        let a = d.create_buffer(u64::from(4 * N)).unwrap();
        let b = d.create_buffer(u64::from(4 * N)).unwrap();
        let first = fill(&q, &fill_k, &a, 5, std::slice::from_ref(&gate));
        // Queued behind `first` on the same queue with no dependency of its own: held too, so
        // it reads `a` after `first` wrote it.
        let second = q
            .dispatch(
                &add_k,
                &range(),
                &[ArgValue::Buffer(a.clone()), ArgValue::Buffer(b.clone())],
                &[],
            )
            .unwrap();
        assert!(!first.wait(Some(Duration::from_millis(20))).unwrap());
        assert!(!second.poll().unwrap());
        assert_eq!(second.status(), Status::Waiting);
        assert!(words(&a).iter().all(|&w| w == 0), "{p} {k:?}: ran early");
        gate.signal().unwrap();
        assert!(gate.signal().is_err(), "signalled twice");
        assert!(second.wait(Some(Duration::from_secs(60))).unwrap());
        assert!(first.poll().unwrap());
        assert_filled(&a, 5, 0, &format!("{p} {k:?} first"));
        assert_filled(&b, 5, 1, &format!("{p} {k:?} second"));
    }
}

/// A dispatch on one queue waits for another queue's work: directly, and through a chain that
/// starts at a host event.
#[test]
fn dependencies_cross_queues() {
    for (p, k) in combos() {
        let Some((fill_k, add_k)) = kernels(p) else {
            return;
        };
        let d = Device::open_sim(p, Some(k)).unwrap();
        let (qa, qb) = (d.create_queue().unwrap(), d.create_queue().unwrap());
        for gated in [false, true] {
            let gate = d.host_event();
            let deps: &[Event] = if gated {
                std::slice::from_ref(&gate)
            } else {
                &[]
            };
            let a = d.create_buffer(u64::from(4 * N)).unwrap();
            let b = d.create_buffer(u64::from(4 * N)).unwrap();
            let wrote = fill(&qa, &fill_k, &a, 9, deps);
            let added = qb
                .dispatch(
                    &add_k,
                    &range(),
                    &[ArgValue::Buffer(a.clone()), ArgValue::Buffer(b.clone())],
                    std::slice::from_ref(&wrote),
                )
                .unwrap();
            if gated {
                assert!(!added.wait(Some(Duration::from_millis(20))).unwrap());
                gate.signal().unwrap();
            }
            assert!(added.wait(None).unwrap());
            assert!(wrote.poll().unwrap());
            assert_filled(&b, 9, 1, &format!("{p} {k:?} gated {gated}"));
        }
        // An event of another device is refused.
        let other = Device::open_sim(p, Some(k)).unwrap();
        let foreign = other.host_event();
        let out = d.create_buffer(u64::from(4 * N)).unwrap();
        let args = [
            ArgValue::Buffer(out),
            ArgValue::Value(1u32.to_le_bytes().to_vec()),
        ];
        assert!(matches!(
            qa.dispatch(&fill_k, &range(), &args, &[foreign]),
            Err(Error::Argument(_))
        ));
    }
}

fn pack(p: Platform, v: &mut Vec<u8>, pkt: &impl Packet) {
    let mut w = [0u32; 8];
    let n = pkt.pack(p, &mut w).unwrap();
    v.extend(w[..n].iter().flat_map(|d| d.to_le_bytes()));
}

/// A store of `value` to `addr` then the completion store to `fence`.
fn store_then_fence(p: Platform, addr: u64, fence: u64) -> Vec<u8> {
    let mut v = Vec::new();
    for (a, value) in [(addr, 1), (fence, 0xf00d)] {
        pack(
            p,
            &mut v,
            &MiStoreDataImm {
                address: a,
                immediate_data: value,
                store_qword: 1,
                ..Default::default()
            },
        );
    }
    pack(p, &mut v, &MiBatchBufferEnd::default());
    v
}

const FENCE_AT: usize = 0x1000;

/// A submission that faults reports its own fault; a dispatch on another queue submitted
/// around it completes correctly; dependants of the failed one fail without running; the
/// faulting queue runs its next work. On xe only: i915's unbound addresses reach the PPGTT's
/// scratch page instead of faulting (`sim/tests/i915_exec.rs`).
#[test]
fn a_fault_on_one_queue_leaves_other_queues_working() {
    for (p, k) in combos().into_iter().filter(|&(_, k)| k == KmdChoice::Xe) {
        let Some((fill_k, add_k)) = kernels(p) else {
            return;
        };
        let d = Device::open_sim(p, Some(k)).unwrap();
        let (bad_q, good_q) = (d.create_queue().unwrap(), d.create_queue().unwrap());
        let bad = 0x7ead_0000u64;
        let out = d.create_buffer(u64::from(4 * N)).unwrap();
        let before = fill(&good_q, &fill_k, &out, 2, &[]);
        let (faulting, _) = bad_q
            .submit_raw(
                |base| store_then_fence(p, bad, base + FENCE_AT as u64),
                FENCE_AT,
                0xf00d,
                &[],
            )
            .unwrap();
        let out2 = d.create_buffer(u64::from(4 * N)).unwrap();
        let after = good_q
            .dispatch(
                &add_k,
                &range(),
                &[
                    ArgValue::Buffer(out.clone()),
                    ArgValue::Buffer(out2.clone()),
                ],
                std::slice::from_ref(&before),
            )
            .unwrap();
        match faulting.wait(None) {
            Err(Error::GpuFault { address, .. }) => assert_eq!(address, bad, "{p} {k:?}"),
            other => panic!("{p} {k:?}: {other:?}"),
        }
        // A dependant of the failed submission does not run.
        let untouched = d.create_buffer(u64::from(4 * N)).unwrap();
        let dependant = fill(
            &good_q,
            &fill_k,
            &untouched,
            3,
            std::slice::from_ref(&faulting),
        );
        assert!(matches!(faulting.status(), Status::Failed(t) if t.contains("0x7ead0000")));
        assert!(after.wait(None).unwrap(), "{p} {k:?}");
        assert_filled(&out2, 2, 1, &format!("{p} {k:?} other queue"));
        assert!(matches!(
            dependant.wait(None),
            Err(Error::DependencyFailed(_))
        ));
        assert!(words(&untouched).iter().all(|&w| w == 0), "{p} {k:?}");
        // The faulting queue's context was replaced for its later work.
        let again = d.create_buffer(u64::from(4 * N)).unwrap();
        assert!(fill(&bad_q, &fill_k, &again, 4, &[]).wait(None).unwrap());
        assert_filled(&again, 4, 0, &format!("{p} {k:?} after the fault"));
    }
}

/// A failed host event fails its dependants, which never run.
#[test]
fn a_failed_host_event_fails_its_dependants() {
    let p = Platform::Tgllp;
    let Some((fill_k, _)) = kernels(p) else {
        return;
    };
    let d = Device::open_sim(p, None).unwrap();
    let q = d.create_queue().unwrap();
    let gate = d.host_event();
    let out = d.create_buffer(u64::from(4 * N)).unwrap();
    let e = fill(&q, &fill_k, &out, 3, std::slice::from_ref(&gate));
    gate.fail("cancelled by the host").unwrap();
    match e.wait(None) {
        Err(Error::DependencyFailed(why)) => assert!(why.contains("cancelled by the host")),
        other => panic!("{other:?}"),
    }
    assert!(words(&out).iter().all(|&w| w == 0));
    // Later work on the queue runs.
    assert!(fill(&q, &fill_k, &out, 3, &[]).wait(None).unwrap());
    assert_filled(&out, 3, 0, "after the failed event");
    q.finish().unwrap();
}

/// Steady state reuses the queue's arena: consecutive synchronous dispatches run from the
/// same batch address.
#[test]
fn arenas_are_reused() {
    let p = Platform::Dg2;
    let Some((fill_k, _)) = kernels(p) else {
        return;
    };
    let d = Device::open_sim(p, None).unwrap();
    let out = d.create_buffer(u64::from(4 * N)).unwrap();
    let args = [
        ArgValue::Buffer(out.clone()),
        ArgValue::Value(6u32.to_le_bytes().to_vec()),
    ];
    let first = d.dispatch(&fill_k, &range(), &args).unwrap();
    let second = d.dispatch(&fill_k, &range(), &args).unwrap();
    assert_eq!(first.batch_address, second.batch_address);
    assert_filled(&out, 6, 0, "reused arena");
}
