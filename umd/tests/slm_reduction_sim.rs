//! Tree reductions through shared local memory (PyOpenCL's `array.sum` shape): each work item
//! stores a value to SLM, then halving steps add the upper half onto the lower half with a
//! work-group barrier before (top of the loop) or after (bottom) each step. Compiled by
//! ocloc at SIMD 8/16/32 for int and float, run with work-groups of 32 to 256 items (several
//! groups each) through umd → batchbuffer → kmd-iface → simulator on every platform and kernel
//! driver, and checked against a CPU reference that adds in the same tree order (so float sums
//! are exact to the bit). When the trip count is a constant IGC unrolls the loop and reads
//! `ld[i]` and `ld[i + c]` of the last steps with one untyped surface read whose channel
//! mask enables X and Z (c = 2) or X and Y (c = 1): channel Z is the DWord at address + 8.

use crate::program_support;

use oracles::ocloc::Format;
use platform::Platform;
use umd::device::{sim_kmds, Device};
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const SOURCE: &str = include_str!("data/slm_reduction.cl");

const GROUPS: usize = 3;
const LOCAL_SIZES: [usize; 4] = [32, 64, 128, 256];
/// `sel` values: bit 0 barrier at the bottom of the loop, bit 1 the `local` argument.
const VARIANTS: [(u32, &str); 3] = [(0, "top"), (1, "bottom"), (2, "top, local arg")];

/// Mixed small values (the float ones are exact quarters, so no sum rounds).
fn words(n: usize, seed: u32) -> Vec<u32> {
    (0..n as u32)
        .map(|i| {
            let x = (i + 1).wrapping_mul(0x9e37_79b9) ^ seed.wrapping_mul(0x85eb_ca6b);
            (x ^ (x >> 15)) % 2001
        })
        .collect()
}

/// The group sums the kernel's tree computes, as little-endian words.
fn reference(vals: &[u32], local: usize, float: bool) -> Vec<u32> {
    vals.chunks(local)
        .map(|g| {
            let mut ld = g.to_vec();
            let mut c = local / 2;
            while c >= 1 {
                for i in 0..c {
                    ld[i] = if float {
                        (f32::from_bits(ld[i]) + f32::from_bits(ld[i + c])).to_bits()
                    } else {
                        ld[i].wrapping_add(ld[i + c])
                    };
                }
                c /= 2;
            }
            ld[0]
        })
        .collect()
}

fn inputs(n: usize, float: bool) -> Vec<u32> {
    words(n, 7)
        .into_iter()
        .map(|v| {
            if float {
                (v as f32 * 0.25 - 250.0).to_bits()
            } else {
                v.wrapping_sub(1000)
            }
        })
        .collect()
}

fn run(
    d: &Device,
    kernel: &Kernel,
    vals: &[u32],
    local: usize,
    sel: u32,
) -> Result<Vec<u32>, umd::Error> {
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    let s = d.create_buffer(bytes.len() as u64)?;
    s.write(0, &bytes)?;
    let out = d.create_buffer((GROUPS * 4) as u64)?;
    out.write(0, &[0xa5; GROUPS * 4])?;
    let range = NdRange::new(
        &[(GROUPS * local) as u32],
        Some(&[local as u32]),
        kernel.simd,
        None,
    )?;
    let args = [
        ArgValue::Buffer(s),
        ArgValue::Buffer(out.clone()),
        ArgValue::Local((local * 4) as u32),
        ArgValue::Value(sel.to_le_bytes().to_vec()),
    ];
    d.dispatch(kernel, &range, &args)?;
    Ok(out
        .to_vec()?
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect())
}

#[test]
fn reference_follows_the_tree() {
    // 1 + 1 in lanes 0 and 1 of a 32-item group: the reproducer sums to 2.
    let mut v = vec![0u32; 32];
    v[0] = 1;
    v[1] = 1;
    assert_eq!(reference(&v, 32, false), [2]);
    let f: Vec<u32> = (0..64).map(|i| (i as f32).to_bits()).collect();
    assert_eq!(reference(&f, 64, true), [(63.0f32 * 32.0).to_bits()]);
}

#[test]
fn slm_tree_reductions_on_every_platform_and_kmd() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let filter = std::env::var("SLM_REDUCTION_FILTER").unwrap_or_default();
    let mut failures = Vec::new();
    let mut cases = 0;
    for p in Platform::ALL {
        let bin = program_support::compile_cached(&ocloc, p, SOURCE, Format::PatchTokens)
            .unwrap_or_else(|e| panic!("ocloc {p}: {e}"));
        for (ty, float) in [("int", false), ("float", true), ("fixed32_int", false)] {
            for simd in [8, 16, 32] {
                let name = if ty.starts_with("fixed") {
                    format!("{ty}{simd}")
                } else {
                    format!("sum_{ty}{simd}")
                };
                let kernel = Kernel::from_ocloc(&bin, Some(&name), Some(p)).unwrap();
                assert_eq!(kernel.simd, simd, "{p} {name}");
                for kmd in sim_kmds(p) {
                    let d = Device::open_sim(p, Some(kmd)).unwrap();
                    for local in LOCAL_SIZES {
                        if ty.starts_with("fixed") && local != 32 {
                            continue;
                        }
                        let vals = inputs(GROUPS * local, float);
                        let want = reference(&vals, local, float);
                        for (sel, variant) in VARIANTS {
                            // The reproducer has one variant and ignores `sel`.
                            if ty.starts_with("fixed") && sel != 0 {
                                continue;
                            }
                            let case = format!("{p} {kmd:?} {name} local {local} {variant}");
                            if !case.contains(filter.as_str()) {
                                continue;
                            }
                            cases += 1;
                            match run(&d, &kernel, &vals, local, sel) {
                                Ok(got) if got == want => {}
                                Ok(got) => failures
                                    .push(format!("{case}: {got:08x?}, reference {want:08x?}")),
                                Err(e) => failures.push(format!("{case}: {e}")),
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(cases > 0, "no case matched SLM_REDUCTION_FILTER");
    eprintln!("slm_reduction: {cases} dispatches matched the reference");
}
