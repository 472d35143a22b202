//! The simulator runs a walker's thread groups on a pool of host threads; the memory a dispatch
//! leaves must not depend on how many. Each kernel (ocloc-compiled OpenCL C: global atomics
//! from every work item, a work-group barrier with shared local memory, divergent control flow)
//! runs on a simulator with one host thread and on ones with 2 and 4, and the output buffers
//! are compared bit for bit. The one-thread image is also checked against a CPU reference, so
//! a dispatch that did nothing cannot pass. The atomics and the branches also run in groups of
//! one EU thread (512 groups), so that each host thread takes several groups at a time: a group
//! run twice or skipped shows in the atomics' counts.

use std::sync::Arc;

use oracles::ocloc::{compile, Format};
use platform::Platform;
use sim::dispatch::{EuBudget, EuExecutor};
use umd::device::{Device, KmdChoice};
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const SOURCE: &str = r#"
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void atomics(__global const uint *in, __global uint *hist, __global int *minmax,
                      __global uint *count) {
  uint v = in[get_global_id(0)];
  atomic_add(&hist[v & 63], v >> 6);
  atomic_inc(&hist[64 + (v % 7)]);
  atomic_min(&minmax[0], (int)v - 5000);
  atomic_max(&minmax[1], (int)(v ^ 0x5a5a));
  atomic_or(&count[0], 1u << (v & 31));
  atomic_xor(&count[1], v);
  if (v & 1) atomic_sub(&count[2], v);
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void slm_sum(__global const uint *in, __global uint *out, __local uint *ld) {
  uint l = get_local_id(0), n = get_local_size(0);
  ld[l] = in[get_global_id(0)] * 3 + l;
  for (uint c = n / 2; c > 0; c /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < c) ld[l] += ld[l + c];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = ld[(l * 7) % n] ^ ld[0];
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void branchy(__global const uint *in, __global uint *out) {
  uint x = in[get_global_id(0)], acc = 0;
  for (uint i = 0; i < (x & 15); i++) {
    if ((x >> i) & 1) acc += x * i; else acc ^= acc << 3;
  }
  out[get_global_id(0)] = acc;
}
"#;

const ITEMS: usize = 8192;
const LOCAL: usize = 128;
/// One sub-group per group: ITEMS / SMALL = 512 groups.
const SMALL: usize = 16;

fn words(n: usize) -> Vec<u32> {
    (0..n as u32)
        .map(|i| {
            let x = (i + 1).wrapping_mul(0x9e37_79b9);
            (x ^ (x >> 13)) % 40_000
        })
        .collect()
}

fn bytes(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// CPU references for the one-thread run, from the OpenCL C above.
fn atomics_reference(vals: &[u32]) -> Vec<u32> {
    let mut hist = [0u32; 71];
    let (mut mn, mut mx) = (i32::MAX, i32::MIN);
    let mut count = [0u32, 0, 0];
    for &v in vals {
        hist[(v & 63) as usize] += v >> 6;
        hist[64 + (v % 7) as usize] += 1;
        mn = mn.min(v as i32 - 5000);
        mx = mx.max((v ^ 0x5a5a) as i32);
        count[0] |= 1 << (v & 31);
        count[1] ^= v;
        if v & 1 != 0 {
            count[2] = count[2].wrapping_sub(v);
        }
    }
    let mut out = hist.to_vec();
    out.extend([mn as u32, mx as u32]);
    out.extend(count);
    out
}

fn slm_reference(vals: &[u32]) -> Vec<u32> {
    vals.chunks(LOCAL)
        .flat_map(|g| {
            let mut ld: Vec<u32> = g
                .iter()
                .enumerate()
                .map(|(l, v)| v.wrapping_mul(3).wrapping_add(l as u32))
                .collect();
            let mut c = LOCAL / 2;
            while c > 0 {
                for l in 0..c {
                    ld[l] = ld[l].wrapping_add(ld[l + c]);
                }
                c /= 2;
            }
            (0..LOCAL)
                .map(|l| ld[(l * 7) % LOCAL] ^ ld[0])
                .collect::<Vec<_>>()
        })
        .collect()
}

fn branchy_reference(vals: &[u32]) -> Vec<u32> {
    vals.iter()
        .map(|&x| {
            let mut acc = 0u32;
            for i in 0..(x & 15) {
                if (x >> i) & 1 != 0 {
                    acc = acc.wrapping_add(x.wrapping_mul(i));
                } else {
                    acc ^= acc << 3;
                }
            }
            acc
        })
        .collect()
}

/// A simulated `p` under `kmd` whose walkers run on `host_threads` host threads.
fn open(p: Platform, kmd: KmdChoice, host_threads: usize) -> Device {
    let cfg = sim::SimConfig {
        walker: Arc::new(EuExecutor::new(EuBudget::default()).with_host_threads(host_threads)),
        ..Default::default()
    };
    let k = match kmd {
        KmdChoice::I915 => sim::Kmd::I915,
        KmdChoice::Xe => sim::Kmd::Xe,
    };
    let dev = sim::open_device(p, k, cfg).unwrap();
    Device::open_device_file(format!("sim:{}", p.name()), dev, Some(kmd)).unwrap()
}

/// Runs the three kernels on a simulator with `host_threads` host threads per walker; returns
/// every output buffer's bytes.
fn run(p: Platform, kmd: KmdChoice, bin: &[u8], host_threads: usize) -> Vec<Vec<u8>> {
    let d = open(p, kmd, host_threads);
    let vals = words(ITEMS);
    let input = d.create_buffer((ITEMS * 4) as u64).unwrap();
    input.write(0, &bytes(&vals)).unwrap();
    let range = NdRange::new(&[ITEMS as u32], Some(&[LOCAL as u32]), 16, None).unwrap();
    let kernel = |name| Kernel::from_ocloc(bin, Some(name), Some(p)).unwrap();
    let buffer = |init: &[u32]| {
        let b = d.create_buffer((init.len() * 4) as u64).unwrap();
        b.write(0, &bytes(init)).unwrap();
        b
    };

    // Returns hist, minmax and count.
    let atomics = |range: &NdRange| {
        let outs = [
            buffer(&[0; 71]),
            buffer(&[i32::MAX as u32, i32::MIN as u32]),
            buffer(&[0; 3]),
        ];
        let mut args = vec![ArgValue::Buffer(input.clone())];
        args.extend(outs.iter().map(|b| ArgValue::Buffer(b.clone())));
        d.dispatch(&kernel("atomics"), range, &args).unwrap();
        outs
    };
    let branchy = |range: &NdRange| {
        let out = buffer(&[0xa5a5_a5a5; ITEMS]);
        let args = [
            ArgValue::Buffer(input.clone()),
            ArgValue::Buffer(out.clone()),
        ];
        d.dispatch(&kernel("branchy"), range, &args).unwrap();
        out
    };

    let [hist, minmax, count] = atomics(&range);
    let sums = buffer(&[0xa5a5_a5a5; ITEMS]);
    let args = [
        ArgValue::Buffer(input.clone()),
        ArgValue::Buffer(sums.clone()),
        ArgValue::Local((LOCAL * 4) as u32),
    ];
    d.dispatch(&kernel("slm_sum"), &range, &args).unwrap();
    let branches = branchy(&range);

    let small = NdRange::new(&[ITEMS as u32], Some(&[SMALL as u32]), 16, None).unwrap();
    let [small_hist, small_minmax, small_count] = atomics(&small);
    let small_branches = branchy(&small);

    [
        hist,
        minmax,
        count,
        sums,
        branches,
        small_hist,
        small_minmax,
        small_count,
        small_branches,
    ]
    .iter()
    .map(|b| b.to_vec().unwrap())
    .collect()
}

#[test]
fn memory_image_does_not_depend_on_host_threads() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    for (p, kmd) in [
        (Platform::Tgllp, KmdChoice::I915),
        (Platform::Dg2, KmdChoice::Xe),
    ] {
        let bin = compile(&ocloc, p, SOURCE, "-cl-std=CL2.0", Format::PatchTokens)
            .unwrap_or_else(|e| panic!("ocloc {p}: {e}"));
        let one = run(p, kmd, &bin, 1);
        let vals = words(ITEMS);
        let atomics: Vec<u32> = one[..3].iter().flat_map(|b| u32s(b)).collect();
        assert_eq!(atomics, atomics_reference(&vals), "{p} atomics");
        assert_eq!(u32s(&one[3]), slm_reference(&vals), "{p} slm_sum");
        assert_eq!(u32s(&one[4]), branchy_reference(&vals), "{p} branchy");
        let small: Vec<u32> = one[5..8].iter().flat_map(|b| u32s(b)).collect();
        assert_eq!(small, atomics, "{p} atomics in groups of {SMALL}");
        assert_eq!(
            u32s(&one[8]),
            u32s(&one[4]),
            "{p} branchy in groups of {SMALL}"
        );
        for n in [2, 4] {
            assert!(
                run(p, kmd, &bin, n) == one,
                "{p}: {n} host threads differ from one"
            );
        }
    }
}

/// A private array indexed at run time (IGC keeps it in scratch on Gen9–Gen12LP and in private
/// memory indexed by hardware thread ID on Xe-HPG, as hashcat's candidate generator does), and
/// the hardware thread ID IGC reads for it.
const PRIVATE_SOURCE: &str = r#"
uint __builtin_IB_hw_thread_id(void);

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void private_mix(__global uint *out, uint sel) {
  uint a[64];
  for (int i = 0; i < 64; i++) a[i] = 0;
  uint g = get_global_id(0);
  for (uint i = 0; i < 8; i++) a[(g * i + sel) & 63] += g ^ i;
  uint s = 0;
  for (uint j = 0; j < 8; j++) s += a[(g + j * 5) & 63] * (j + 1);
  out[g] = s;
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void hw_ids(__global uint *out) {
  out[get_global_id(0)] = __builtin_IB_hw_thread_id();
}
"#;

fn private_mix_reference(items: usize, sel: u32) -> Vec<u32> {
    (0..items as u32)
        .map(|g| {
            let mut a = [0u32; 64];
            for i in 0..8u32 {
                let at = (g.wrapping_mul(i).wrapping_add(sel) & 63) as usize;
                a[at] = a[at].wrapping_add(g ^ i);
            }
            (0..8u32).fold(0u32, |s, j| {
                let v = a[(g.wrapping_add(j * 5) & 63) as usize];
                s.wrapping_add(v.wrapping_mul(j + 1))
            })
        })
        .collect()
}

/// Runs `private_mix` (groups of one EU thread) and `hw_ids` (groups of four) on `host_threads`
/// host threads; returns their outputs.
fn run_private(p: Platform, kmd: KmdChoice, bin: &[u8], host_threads: usize) -> [Vec<u32>; 2] {
    let d = open(p, kmd, host_threads);
    let kernel = |name| Kernel::from_ocloc(bin, Some(name), Some(p)).unwrap();
    let out = d.create_buffer((ITEMS * 4) as u64).unwrap();
    let small = NdRange::new(&[ITEMS as u32], Some(&[SMALL as u32]), 16, None).unwrap();
    let args = [
        ArgValue::Buffer(out.clone()),
        ArgValue::Value(SEL.to_le_bytes().to_vec()),
    ];
    d.dispatch(&kernel("private_mix"), &small, &args).unwrap();
    let mixed = u32s(&out.to_vec().unwrap());
    let ids = d.create_buffer((ITEMS * 4) as u64).unwrap();
    let fours = NdRange::new(&[ITEMS as u32], Some(&[64]), 16, None).unwrap();
    d.dispatch(&kernel("hw_ids"), &fours, &[ArgValue::Buffer(ids.clone())])
        .unwrap();
    [mixed, u32s(&ids.to_vec().unwrap())]
}

const SEL: u32 = 11;

/// Threads that run at the same time have different hardware thread slots (FFTIDs), as on the
/// hardware: with several host threads, groups of a walker run at once, and a private array or
/// scratch slice shared between them would mix their data (it made hashcat miss candidates).
#[test]
fn concurrent_threads_have_their_own_private_memory_and_thread_ids() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    for (p, kmd) in [
        (Platform::Skl, KmdChoice::I915),
        (Platform::Tgllp, KmdChoice::I915),
        (Platform::Dg2, KmdChoice::Xe),
    ] {
        let bin = compile(&ocloc, p, PRIVATE_SOURCE, "", Format::PatchTokens)
            .unwrap_or_else(|e| panic!("ocloc {p}: {e}"));
        let expected = private_mix_reference(ITEMS, SEL);
        for n in [1, 2, 4] {
            let [mixed, ids] = run_private(p, kmd, &bin, n);
            let wrong = mixed.iter().zip(&expected).filter(|(a, b)| a != b).count();
            assert_eq!(wrong, 0, "{p}, {n} host threads: {wrong} work items wrong");
            // Every lane of an EU thread reads its thread's ID; the four threads of a group
            // have four different ones.
            for (g, group) in ids.chunks(64).enumerate() {
                let threads: Vec<u32> = group.chunks(16).map(|t| t[0]).collect();
                for (t, lanes) in group.chunks(16).enumerate() {
                    assert!(
                        lanes.iter().all(|&l| l == threads[t]),
                        "{p}: group {g} thread {t} lanes disagree: {lanes:?}"
                    );
                }
                let mut distinct = threads.clone();
                distinct.sort_unstable();
                distinct.dedup();
                assert_eq!(
                    distinct.len(),
                    4,
                    "{p}, {n} host threads: group {g}: {threads:?}"
                );
            }
        }
    }
}
