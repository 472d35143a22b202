//! Buffer copies and fills on the copy engine (`Queue::copy_buffer`, `Queue::fill_buffer`) on
//! every simulated platform and kernel driver, checked against a host memcpy/memset: unaligned
//! ranges, 1- to 16-byte patterns, order within a queue across engines, dependencies across
//! queues and on host events, and the refusals (overlap, ranges outside the buffer). Gen9 and
//! Gen11 copy with XY_SRC_COPY_BLT and fill with XY_COLOR_BLT, which has no 8- or 16-byte
//! depth: there such fills answer `None` (the caller fills on the CPU).

use batchbuffer::{MiBatchBufferEnd, MiStoreDataImm, Packet, PacketId};
use platform::Platform;
use umd::device::{Device, KmdChoice};
use umd::kernel::Kernel;
use umd::memory::Buffer;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;
use umd::Error;

fn combos() -> Vec<(Platform, KmdChoice)> {
    Platform::ALL
        .iter()
        .flat_map(|&p| umd::device::sim_kmds(p).into_iter().map(move |k| (p, k)))
        .collect()
}

/// Whether batchbuffer declares a blitter copy packet for `p`: Gen12's XY_BLOCK_COPY_BLT
/// (genxml) or Gen9/Gen11's XY_SRC_COPY_BLT.
fn has_blitter(p: Platform) -> bool {
    PacketId::XyBlockCopyBlt.exists_on(p) || PacketId::XySrcCopyBlt.exists_on(p)
}

/// The pattern sizes the fill packet of `p` has a colour depth for: XY_FAST_COLOR_BLT's
/// 8/16/32/64/128 bits, XY_COLOR_BLT's 8/16/32.
fn fill_sizes(p: Platform) -> &'static [usize] {
    if PacketId::XyFastColorBlt.exists_on(p) {
        &[1, 2, 4, 8, 16]
    } else {
        &[1, 2, 4]
    }
}

#[test]
fn every_platform_has_a_blitter() {
    for (p, k) in combos() {
        assert!(has_blitter(p), "{p}");
        let d = Device::open_sim(p, Some(k)).unwrap();
        assert!(d.create_queue().unwrap().has_blitter(), "{p} {k:?}");
    }
}

fn source_bytes(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 13 + 5) as u8).collect()
}

fn contents(b: &Buffer) -> Vec<u8> {
    b.to_vec().unwrap()
}

const SIZE: u64 = 96 << 10;

#[test]
fn copies_match_memcpy() {
    for (p, k) in combos() {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let q = d.create_queue().unwrap();
        let src = d.create_buffer(SIZE).unwrap();
        let dst = d.create_buffer(SIZE).unwrap();
        let bytes = source_bytes(SIZE as usize);
        src.write(0, &bytes).unwrap();
        // More than two 16 KiB rows, odd offsets and length.
        let (so, d_o, len) = (13u64, 1001u64, 40_003u64);
        let e = q.copy_buffer(&src, so, &dst, d_o, len, &[]).unwrap();
        assert_eq!(e.is_some(), has_blitter(p), "{p} {k:?}");
        let Some(e) = e else { continue };
        e.wait(None).unwrap();
        let mut want = vec![0u8; SIZE as usize];
        want[d_o as usize..(d_o + len) as usize]
            .copy_from_slice(&bytes[so as usize..(so + len) as usize]);
        assert!(contents(&dst) == want, "{p} {k:?}");
    }
}

#[test]
fn fills_match_memset_for_every_pattern_size() {
    for (p, k) in combos().into_iter().filter(|&(p, _)| has_blitter(p)) {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let q = d.create_queue().unwrap();
        let dst = d.create_buffer(SIZE).unwrap();
        let mut want = vec![0u8; SIZE as usize];
        let mut events = Vec::new();
        for (i, n) in [1usize, 2, 4, 8, 16].into_iter().enumerate() {
            let pattern: Vec<u8> = (0..n).map(|b| (0x10 * (i + 1) + b) as u8).collect();
            if !fill_sizes(p).contains(&n) {
                let none = q.fill_buffer(&dst, n as u64, 4 * n as u64, &pattern, &[]);
                assert!(none.unwrap().is_none(), "{p} {k:?}: {n}-byte pattern");
                continue;
            }
            // Each fill in its own 16 KiB slice, starting one pattern in; the longest runs
            // past one 4096-pixel row.
            let offset = (i as u64) * (16 << 10) + n as u64;
            let len = (if n == 1 { 5000 } else { 4099 * n as u64 }).min((16 << 10) - 2 * n as u64);
            let len = len - len % n as u64;
            events.push(
                q.fill_buffer(&dst, offset, len, &pattern, &[])
                    .unwrap()
                    .unwrap(),
            );
            for (j, b) in want[offset as usize..(offset + len) as usize]
                .iter_mut()
                .enumerate()
            {
                *b = pattern[j % n];
            }
        }
        for e in events {
            e.wait(None).unwrap();
        }
        assert!(contents(&dst) == want, "{p} {k:?}");
        // Patterns the blitter has no depth for are the caller's to fill.
        assert!(q.fill_buffer(&dst, 0, 64, &[7; 32], &[]).unwrap().is_none());
    }
}

#[test]
fn refusals() {
    for (p, k) in combos() {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let q = d.create_queue().unwrap();
        let b = d.create_buffer(4096).unwrap();
        let c = d.create_buffer(4096).unwrap();
        assert!(matches!(
            q.copy_buffer(&b, 0, &b, 100, 200, &[]),
            Err(Error::Argument(_))
        ));
        assert!(matches!(
            q.copy_buffer(&b, 4000, &c, 0, 200, &[]),
            Err(Error::OutOfRange(_))
        ));
        assert!(matches!(
            q.fill_buffer(&b, 2, 8, &[1, 2, 3, 4], &[]),
            Err(Error::Argument(_))
        ));
        // Sub-buffers of one buffer that do not overlap are fine.
        let lo = b.sub_buffer(0, 1024, None).unwrap();
        let hi = b.sub_buffer(2048, 1024, None).unwrap();
        if let Some(e) = q.copy_buffer(&lo, 0, &hi, 0, 1024, &[]).unwrap() {
            e.wait(None).unwrap();
        }
        assert!(has_blitter(p) || q.copy_buffer(&lo, 0, &hi, 0, 8, &[]).unwrap().is_none());
    }
}

/// MI_STORE_DATA_IMM of `value` to `addr`, then the fence, then the end.
fn store_then_fence(p: Platform, addr: u64, value: u64, fence: u64) -> Vec<u8> {
    let mut dw = Vec::new();
    for (a, v) in [(addr, value), (fence, 0xf00d)] {
        let mut buf = [0u32; 8];
        let n = MiStoreDataImm {
            address: a,
            immediate_data: v,
            store_qword: 1,
            ..Default::default()
        }
        .pack(p, &mut buf)
        .unwrap();
        dw.extend_from_slice(&buf[..n]);
    }
    let mut end = [0u32; 1];
    MiBatchBufferEnd::default().pack(p, &mut end).unwrap();
    dw.push(end[0]);
    dw.iter().flat_map(|d| d.to_le_bytes()).collect()
}

const FENCE_AT: usize = 0x1000;

/// A render-engine batch held behind a host event, then a copy queued behind it on the same
/// queue: the copy does not run before the batch's event is signalled. A copy on a second queue
/// waits for the first copy's event, and a fill waiting for a host event does not run before it
/// is signalled.
#[test]
fn order_across_engines_queues_and_host_events() {
    for (p, k) in combos().into_iter().filter(|&(p, _)| has_blitter(p)) {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let (q1, q2) = (d.create_queue().unwrap(), d.create_queue().unwrap());
        let a = d.create_buffer(4096).unwrap();
        let b = d.create_buffer(4096).unwrap();
        let c = d.create_buffer(4096).unwrap();
        a.write(0, &0x1122_3344_5566_7788u64.to_le_bytes()).unwrap();
        let gate = d.host_event();
        // The batch stores into its own BO (the only one it lists).
        let (store, _) = q1
            .submit_raw(
                |base| store_then_fence(p, base + 0x800, 1, base + FENCE_AT as u64),
                FENCE_AT,
                0xf00d,
                std::slice::from_ref(&gate),
            )
            .unwrap();
        let copy1 = q1.copy_buffer(&a, 0, &b, 0, 8, &[]).unwrap().unwrap();
        let copy2 = q2
            .copy_buffer(&b, 0, &c, 8, 8, std::slice::from_ref(&copy1))
            .unwrap()
            .unwrap();
        let gate2 = d.host_event();
        let fill = q2
            .fill_buffer(&c, 64, 16, &[9; 4], std::slice::from_ref(&gate2))
            .unwrap()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(
            !copy1.poll().unwrap(),
            "{p} {k:?}: ran before its queue's held batch"
        );
        assert!(
            !copy2.poll().unwrap(),
            "{p} {k:?}: ran before its dependency"
        );
        assert_eq!(&contents(&b)[..8], &[0; 8], "{p} {k:?}");
        gate.signal().unwrap();
        store.wait(None).unwrap();
        copy2.wait(None).unwrap();
        let want = 0x1122_3344_5566_7788u64.to_le_bytes();
        assert_eq!(&contents(&b)[..8], &want, "{p} {k:?}");
        assert_eq!(&contents(&c)[8..16], &want, "{p} {k:?}");
        assert!(
            !fill.poll().unwrap(),
            "{p} {k:?}: the fill ran before its host event"
        );
        gate2.signal().unwrap();
        fill.wait(None).unwrap();
        assert_eq!(&contents(&c)[64..80], &[9; 16], "{p} {k:?}");
    }
}

/// A kernel, a fill, then the kernel again with another scalar on one queue, each waited for:
/// the fill's batch goes into the arena the first kernel used, so the second dispatch must build
/// its batch again rather than patch the one it remembers there (which the fill overwrote).
/// Found by the CTS (`test_api null_required_work_group_size`: a fill's XY_FAST_COLOR_BLT ran
/// on the render engine as the next kernel's batch).
#[test]
fn a_dispatch_after_a_blit_in_its_arena_runs_its_own_batch() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let src = include_str!("../../intel-gpu-run/examples/fill.cl");
    for (p, k) in combos().into_iter().filter(|&(p, _)| has_blitter(p)) {
        let bin =
            oracles::ocloc::compile(&ocloc, p, src, "", oracles::ocloc::Format::Zebin).unwrap();
        let kernel = Kernel::from_ocloc(&bin, Some("fill"), Some(p)).unwrap();
        let d = Device::open_sim(p, Some(k)).unwrap();
        let q = d.create_queue().unwrap();
        let out = d.create_buffer(400).unwrap();
        let other = d.create_buffer(4096).unwrap();
        let range = NdRange::new(&[100], Some(&[32]), kernel.simd, None).unwrap();
        for scale in [3u32, 5] {
            let args = [
                ArgValue::Buffer(out.clone()),
                ArgValue::Value(scale.to_le_bytes().to_vec()),
            ];
            q.dispatch(&kernel, &range, &args, &[])
                .unwrap()
                .wait(None)
                .unwrap_or_else(|e| panic!("{p} {k:?} scale {scale}: {e}"));
            let bytes = contents(&out);
            for i in 0..100u32 {
                let v = u32::from_le_bytes(bytes[4 * i as usize..][..4].try_into().unwrap());
                assert_eq!(v, scale * i, "{p} {k:?} scale {scale} out[{i}]");
            }
            q.fill_buffer(&other, 0, 4096, &[7; 4], &[])
                .unwrap()
                .unwrap()
                .wait(None)
                .unwrap();
        }
    }
}

/// Each item runs `n` steps of a 32-bit LCG from its id.
const SPIN: &str = "kernel void spin(global uint *o, uint n) {
    uint a = get_global_id(0);
    for (uint k = 0; k < n; k++) a = a * 1664525u + 1013904223u;
    o[get_global_id(0)] = a;
}";

fn spin(i: u32, n: u32) -> u32 {
    (0..n).fold(i, |a, _| a.wrapping_mul(1664525).wrapping_add(1013904223))
}

/// The copy engine waits on the GPU for a compute kernel: a copy of a long kernel's output,
/// submitted right after it on the same queue with no host wait, is in the kernel driver's
/// hands (submitted with the kernel's fence as its in-fence) while the kernel still runs, and
/// copies what the kernel wrote. On tgllp and dg2, through i915 and xe. The loop count doubles
/// until the kernel is seen running when both submissions have returned.
#[test]
fn a_copy_waits_on_the_gpu_for_a_running_kernel() {
    use umd::queue::Status;
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    for (p, k) in combos().into_iter().filter(|&(p, _)| p >= Platform::Tgllp) {
        let bin =
            oracles::ocloc::compile(&ocloc, p, SPIN, "", oracles::ocloc::Format::Zebin).unwrap();
        let kernel = Kernel::from_ocloc(&bin, Some("spin"), Some(p)).unwrap();
        let d = Device::open_sim(p, Some(k)).unwrap();
        let q = d.create_queue().unwrap();
        const ITEMS: u32 = 512;
        let range = NdRange::new(&[ITEMS], Some(&[32]), kernel.simd, None).unwrap();
        let mut n = 1u32 << 12;
        let seen_running = loop {
            let out = d.create_buffer(u64::from(ITEMS) * 4).unwrap();
            let dst = d.create_buffer(u64::from(ITEMS) * 4).unwrap();
            let args = [
                ArgValue::Buffer(out.clone()),
                ArgValue::Value(n.to_le_bytes().to_vec()),
            ];
            let run = q.dispatch(&kernel, &range, &args, &[]).unwrap();
            let copy = q
                .copy_buffer(&out, 0, &dst, 0, u64::from(ITEMS) * 4, &[])
                .unwrap()
                .unwrap();
            // Both submissions returned: is the kernel still running, and the copy already
            // with the kernel driver (not held on the host for the kernel)?
            let copy_status = copy.status();
            let kernel_running = !run.poll().unwrap();
            copy.wait(None).unwrap();
            assert!(
                run.poll().unwrap(),
                "{p} {k:?}: the copy finished before the kernel"
            );
            let got = contents(&dst);
            for i in 0..ITEMS {
                let v = u32::from_le_bytes(got[4 * i as usize..][..4].try_into().unwrap());
                assert_eq!(v, spin(i, n), "{p} {k:?} n {n} item {i}");
            }
            if kernel_running {
                assert_eq!(copy_status, Status::Submitted, "{p} {k:?}");
                break n;
            }
            assert!(n < 1 << 22, "{p} {k:?}: the kernel never seen running");
            n *= 2;
        };
        eprintln!("{p} {k:?}: kernel running when the copy was submitted at n = {seen_running}");
    }
}
