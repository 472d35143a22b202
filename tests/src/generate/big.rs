//! Big kernels: many shuffle sections, each under its own uniform branch (a bit of `mask`),
//! with every section's sources loaded before the first branch and copied out after the last,
//! so all of them are live at once: at SIMD 16 and 32 IGC spills, and the per-lane shuffles
//! address registers indirectly in a large register file, the way real kernels make it.

use super::sections::{copy_out, file, load};
use super::shuffle::{CALLS, OPS};
use super::SHUFFLE_TYPES;
use crate::rng::Rng;

/// The big kernels: (sections, at most 32 for one bit of `mask` each; whether the types are
/// only the 8- and 16-wide vectors, whose shuffles need the most registers).
pub const BIG_KERNELS: [(usize, bool); 4] = [(8, false), (16, false), (32, false), (24, true)];

/// Bytes per work-item a section's region holds (the widest type, float16/int16/long8).
pub const REGION_ITEM_BYTES: usize = 64;

/// One section: a shuffle op on a type, its control per lane from `c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section {
    pub ty: &'static str,
    pub op: &'static str,
}

/// The sections of big kernel `k` (seeded by its number): ops in turn, types drawn from the
/// shuffles' gentypes (double excluded: only sim:skl has cl_khr_fp64), or their wide vectors.
pub fn plan(k: usize) -> Vec<Section> {
    let Some(&(count, wide)) = BIG_KERNELS.get(k) else {
        return Vec::new();
    };
    let pool: Vec<&'static str> = SHUFFLE_TYPES
        .into_iter()
        .filter(|t| !wide || t.ends_with('8') || t.ends_with("16"))
        .collect();
    let mut rng = Rng::for_name(&format!("big {k}"));
    (0..count)
        .map(|s| Section {
            ty: pool[rng.below(pool.len() as u64) as usize],
            op: OPS[s % OPS.len()],
        })
        .collect()
}

/// The kernel's text as an object-like macro `BIG_k`. Region r of a buffer starts at byte
/// `r * stride`: section s reads its sources from regions 2s and 2s+1 of `in`, writes its
/// result to region 2s of `out` and its first source back to region 2s+1.
fn kernel(k: usize) -> String {
    let sections = plan(k);
    let mut s = format!(
        "#define BIG_{k} SG kernel void big_{k}(global const uchar *in, global const uint *c, uint mask, uint stride, global uchar *out) \\\n{{ size_t i = get_global_id(0); uint ci = c[i]; \\\n"
    );
    for (j, x) in sections.iter().enumerate() {
        let a = load(x.ty, &format!("a{j}"), 2 * j);
        let b = load(x.ty, &format!("b{j}"), 2 * j + 1);
        s.push_str(&format!("  {a} {b} \\\n"));
    }
    for (j, x) in sections.iter().enumerate() {
        s.push_str(&format!(
            "  if (mask & (1u << {j})) ((global {t} *)(out + {r} * stride))[i] = CALL_{op}(a{j}, b{j}, ci); \\\n",
            t = x.ty,
            r = 2 * j,
            op = x.op
        ));
    }
    s.push_str(&copy_out(sections.iter().map(|x| x.ty)));
    s.push_str("}\n");
    s
}

pub fn text() -> String {
    let header = format!(
        "// Generated (tests/src/generate/big.rs): kernels of many shuffle sections.\n{CALLS}"
    );
    file(&header, "BIG", BIG_KERNELS.len(), kernel)
}
