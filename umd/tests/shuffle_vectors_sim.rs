//! Issue 13, class 2: IGC's sub-group shuffles of vector types (float2, float4, int8, int4,
//! uint4, char8, uchar16) with per-lane indices and deltas, one kernel per SIMD width with a
//! section per type under a uniform branch. IGC moves every element through indirect operands
//! (`r[a0.0]<1,0>`: one address subregister per channel, set by `add (N|Mk) a0.0<1>:uw`), so
//! the simulator's indirect-addressing rules decide the result; a partial last work-group leaves
//! channels undispatched whose address registers hold garbage. Compiled by ocloc, run through
//! umd → batchbuffer → kmd-iface → simulator on every platform and kernel driver, and checked
//! against a CPU reference written from the cl_intel_subgroups (and _char) spec text.

use crate::program_support;

use oracles::ocloc::Format;
use platform::Platform;
use umd::device::{sim_kmds, Device};
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const SOURCE: &str = include_str!("data/shuffle_vectors.cl");

/// The type sections: (`sel`, vector bytes, type).
const SECTIONS: [(u32, usize, &str); 7] = [
    (0, 8, "float2"),
    (1, 16, "float4"),
    (2, 32, "int8"),
    (3, 16, "int4"),
    (4, 16, "uint4"),
    (5, 8, "char8"),
    (6, 16, "uchar16"),
];
const OPS: [&str; 4] = ["shuffle", "down", "up", "xor"];

/// Work items: a work-group of 64 and a partial one of 60, so every SIMD width has a thread
/// whose last channels are not dispatched (IGC computes the address registers of those
/// channels from whatever their registers hold) and SIMD32 runs two sub-groups per group.
const TOTAL: usize = 124;
const LOCAL: usize = 64;

/// Distinct, mixed bits (no NaN-quieting question arises: IGC moves the floats raw).
fn words(n: usize, seed: u32) -> Vec<u32> {
    (0..n as u32)
        .map(|i| {
            let x = (i + 1).wrapping_mul(0x9e37_79b9) ^ seed.wrapping_mul(0x85eb_ca6b);
            x ^ (x >> 15)
        })
        .collect()
}

fn to_bytes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The four results of work item `gid` (shuffle, shuffle_down, shuffle_up, shuffle_xor) for
/// vectors of `vb` bytes with a maximum sub-group size of `n`; `None` where the spec defines
/// no result (the index names a work item the partial sub-group does not have). `a` is the
/// first `TOTAL` vectors of `src`, `b` the next `TOTAL`.
fn reference(src: &[u8], key: u32, gid: usize, n: usize, vb: usize) -> [Option<&[u8]>; 4] {
    let (group, local) = (gid / LOCAL, gid % LOCAL);
    let group_size = LOCAL.min(TOTAL - group * LOCAL);
    let lid = local % n;
    let base = gid - lid;
    // Work items in this sub-group: the last one of a partial group may have fewer than n.
    let size = n.min(group_size - (local - lid));
    let a = |l: usize| (l < size).then(|| &src[(base + l) * vb..(base + l + 1) * vb]);
    let b =
        |l: usize| (l < size).then(|| &src[(TOTAL + base + l) * vb..(TOTAL + base + l + 1) * vb]);
    let n32 = n as u32;
    let c = (lid as u32 * 5).wrapping_add(key) % n32;
    let dn = ((key >> 4) % n32) as usize;
    let up = ((key >> 8) % (n32 + 1)) as usize;
    let x = ((key >> 12) % n32) as usize;
    // "the result is the value of the current data source for the work item with
    // sub_group_local_id equal to the shuffle index", else of `next` at index - max size.
    let down = if lid + dn < n {
        a(lid + dn)
    } else {
        b(lid + dn - n)
    };
    // shuffle_up(previous = a, current = b): index lid - delta; below zero, `previous` at
    // index + max size.
    let up = if lid >= up {
        b(lid - up)
    } else {
        a(lid + n - up)
    };
    [a(c as usize), down, up, a(lid ^ x)]
}

/// Runs section `sel` of `kernel` on `d`; returns the output bytes.
fn run(
    d: &Device,
    kernel: &Kernel,
    src: &[u8],
    keys: &[u32],
    sel: u32,
    vb: usize,
) -> Result<Vec<u8>, umd::Error> {
    let s = d.create_buffer(src.len() as u64)?;
    s.write(0, src)?;
    let k = d.create_buffer((keys.len() * 4) as u64)?;
    k.write(0, &to_bytes(keys))?;
    let out = d.create_buffer((TOTAL * 4 * vb) as u64)?;
    let range = NdRange::new(&[TOTAL as u32], Some(&[LOCAL as u32]), kernel.simd, None)?;
    let args = [
        ArgValue::Buffer(s),
        ArgValue::Buffer(k),
        ArgValue::Buffer(out.clone()),
        ArgValue::Value(sel.to_le_bytes().to_vec()),
    ];
    d.dispatch(kernel, &range, &args)?;
    out.to_vec()
}

#[test]
fn reference_reads_other_lanes_and_both_sources() {
    // The check below could not fail if the reference returned each work item's own data.
    let src = to_bytes(&words(2 * TOTAL * 8, 77));
    let keys = words(TOTAL, 5);
    let (mut moved, mut from_b, mut undefined) = (0, 0, 0);
    for (gid, &key) in keys.iter().enumerate() {
        let r = reference(&src, key, gid, 16, 16);
        let own = &src[gid * 16..gid * 16 + 16];
        moved += r.iter().flatten().filter(|v| **v != own).count();
        from_b += r
            .iter()
            .flatten()
            .filter(|v| src[TOTAL * 16..].windows(16).any(|w| w == **v))
            .count();
        undefined += r.iter().filter(|v| v.is_none()).count();
    }
    assert!(moved > TOTAL * 3, "{moved}");
    assert!(from_b > TOTAL / 4, "{from_b}");
    // Only the partial sub-group (work items 112..124 at SIMD16) has undefined results.
    assert!(undefined > 0 && undefined < 4 * 12, "{undefined}");
}

#[test]
fn vector_shuffles_with_per_lane_indices_on_every_platform_and_kmd() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let src = to_bytes(&words(2 * TOTAL * 8, 77));
    let keys = words(TOTAL, 5);
    let filter = std::env::var("SHUFFLE_FILTER").unwrap_or_default();
    let mut failures = Vec::new();
    let mut cases = 0;
    for p in Platform::ALL {
        let bin = program_support::compile_cached(&ocloc, p, SOURCE, Format::PatchTokens)
            .unwrap_or_else(|e| panic!("ocloc {p}: {e}"));
        for (name, simd) in [("shuffle8", 8), ("shuffle16", 16), ("shuffle32", 32)] {
            let kernel = Kernel::from_ocloc(&bin, Some(name), Some(p)).unwrap();
            assert_eq!(kernel.simd, simd, "{p} {name}");
            for kmd in sim_kmds(p) {
                let case = format!("{p} {kmd:?} {name}");
                if !case.contains(filter.as_str()) {
                    continue;
                }
                let d = Device::open_sim(p, Some(kmd)).unwrap();
                for (sel, vb, ty) in SECTIONS {
                    let got = match run(&d, &kernel, &src, &keys, sel, vb) {
                        Ok(got) => got,
                        Err(e) => {
                            failures.push(format!("{case} {ty}: {e}"));
                            continue;
                        }
                    };
                    let mut wrong = 0;
                    for (gid, &key) in keys.iter().enumerate() {
                        let want = reference(&src, key, gid, simd as usize, vb);
                        for (k, w) in want.iter().enumerate() {
                            let Some(w) = w else { continue };
                            let at = (4 * gid + k) * vb;
                            let g = &got[at..at + vb];
                            if g != *w && wrong < 2 {
                                failures.push(format!(
                                    "{case} {ty} {} item {gid}: {g:02x?}, reference {w:02x?}",
                                    OPS[k]
                                ));
                            }
                            wrong += usize::from(g != *w);
                        }
                    }
                    if wrong > 0 {
                        failures.push(format!("{case} {ty}: {wrong} wrong results"));
                    }
                    cases += 1;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("shuffle_vectors: {cases} dispatches matched the reference");
}
