//! Big mixed kernels: many sections of different built-in families, each under its own bit of
//! a uniform `mask` — shuffles with a per-lane control, sub_group_broadcast, reductions and
//! scans, buffer block reads and writes at a uniform offset, vloadn/vstoren at byte offsets
//! (odd ones for char), and uniform loads with a loop whose bound is loaded — on seeded types.
//! Every section's first source is loaded before the first branch and copied out after the
//! last, so all of them are live at once: at SIMD 32 IGC spills and addresses registers
//! indirectly, as it does for real kernels.

use super::sections::{copy_out, file, load};
use super::shuffle::{CALLS, OPS};
use super::SHUFFLE_TYPES;
use crate::rng::Rng;

/// Sections of each mixed kernel (at most 32: one bit of `mask` each).
pub const MIXED_KERNELS: [usize; 3] = [12, 24, 32];

/// Bytes per work-item a section's per-lane region holds (the widest type taken: 64).
pub const ITEM_BYTES: usize = 64;

/// What a section does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// intel_sub_group_shuffle (index, xor, down, up) of `a` (and `b`) with the control `c[i]`.
    Shuffle(&'static str),
    /// sub_group_broadcast(a, u\[j\] % get_sub_group_size()).
    Broadcast,
    /// sub_group_<reduce|scan_inclusive|scan_exclusive>_<add|min|max>(a).
    Collective(&'static str),
    /// A block read at element `u[j]` past the subgroup's block of its region.
    BlockRead,
    /// A block write of `a` at element `u[j]` past the subgroup's block of its region.
    BlockWrite,
    /// vloadn(i, region + u\[j\] bytes).
    Vload,
    /// vstoren(a, i, region + u\[j\] bytes).
    Vstore,
    /// x = p\[w\] + p\[w + 1 + t\] for t < u\[j\] >> 16, w = u\[j\] & 0xffff; p\[w + 1\] = x + 5.
    Uniform,
}

/// The order kinds take in a kernel (shuffle ops and collective functions in turn).
const CYCLE: [Kind; 10] = [
    Kind::Shuffle(""),
    Kind::Broadcast,
    Kind::Collective(""),
    Kind::BlockRead,
    Kind::Vload,
    Kind::Shuffle(""),
    Kind::BlockWrite,
    Kind::Vstore,
    Kind::Uniform,
    Kind::Collective(""),
];

/// The collective functions (cl_khr_subgroups; `intel_` forms for char and uchar).
pub const COLLECTIVES: [&str; 9] = [
    "reduce_add",
    "reduce_min",
    "reduce_max",
    "scan_inclusive_add",
    "scan_inclusive_min",
    "scan_inclusive_max",
    "scan_exclusive_add",
    "scan_exclusive_min",
    "scan_exclusive_max",
];

/// Scalar types of broadcast and the collectives (double left out: only sim:skl has it).
const COLLECTIVE_TYPES: [&str; 8] = [
    "char", "uchar", "int", "uint", "long", "ulong", "half", "float",
];

/// Block value types: uint (plain block functions) and uchar (`_uc`), forms of `block_forms`.
const BLOCK_TYPES: [&str; 9] = [
    "uint", "uint2", "uint4", "uint8", "uchar", "uchar2", "uchar4", "uchar8", "uchar16",
];

/// Scalars of vloadn/vstoren and of uniform loads (double left out).
const SCALARS: [&str; 10] = [
    "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half", "float",
];

/// Block sections are compiled only below SIMD 32: there IGC crashes on buffer block reads
/// and writes (ocloc -11, as on gen_block.cl's), so at SIMD 32 they write nothing.
const BLOCK_IO: &str =
    "#if SIMD == 32\n#define BLOCK_IO(...)\n#else\n#define BLOCK_IO(...) __VA_ARGS__\n#endif\n";

/// Whether a section's built-in is compiled at `simd` (`BLOCK_IO`).
pub fn present(sec: &Section, simd: u32) -> bool {
    simd != 32 || !matches!(sec.kind, Kind::BlockRead | Kind::BlockWrite)
}

/// One section: what it does and its value type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section {
    pub kind: Kind,
    pub ty: &'static str,
}

fn pick<T: Copy>(rng: &mut Rng, v: &[T]) -> T {
    v[rng.below(v.len() as u64) as usize]
}

/// `scalar` at width n (n = 1: the scalar), as a static name.
fn vector(scalar: &str, n: usize) -> &'static str {
    const W: [usize; 5] = [2, 3, 4, 8, 16];
    let names: &[&'static str] = match scalar {
        "char" => &["char2", "char3", "char4", "char8", "char16"],
        "uchar" => &["uchar2", "uchar3", "uchar4", "uchar8", "uchar16"],
        "short" => &["short2", "short3", "short4", "short8", "short16"],
        "ushort" => &["ushort2", "ushort3", "ushort4", "ushort8", "ushort16"],
        "int" => &["int2", "int3", "int4", "int8", "int16"],
        "uint" => &["uint2", "uint3", "uint4", "uint8", "uint16"],
        "long" => &["long2", "long3", "long4", "long8", "long16"],
        "ulong" => &["ulong2", "ulong3", "ulong4", "ulong8", "ulong16"],
        "half" => &["half2", "half3", "half4", "half8", "half16"],
        _ => &["float2", "float3", "float4", "float8", "float16"],
    };
    W.iter()
        .position(|&w| w == n)
        .map(|i| names[i])
        .unwrap_or("uchar")
}

/// A vector type of at most `ITEM_BYTES` bytes (width 1 included), seeded.
fn small_vector(rng: &mut Rng) -> &'static str {
    loop {
        let s = pick(rng, &SCALARS);
        let n = pick(rng, &[1usize, 2, 3, 4, 8, 16]);
        let size = match s {
            "char" | "uchar" => 1,
            "short" | "ushort" | "half" => 2,
            "int" | "uint" | "float" => 4,
            _ => 8,
        } * if n == 3 { 4 } else { n };
        if size <= ITEM_BYTES {
            return if n == 1 {
                SCALARS.into_iter().find(|x| *x == s).unwrap_or("uchar")
            } else {
                vector(s, n)
            };
        }
    }
}

/// The sections of mixed kernel `k` (seeded by its number).
pub fn plan(k: usize) -> Vec<Section> {
    let Some(&count) = MIXED_KERNELS.get(k) else {
        return Vec::new();
    };
    let mut rng = Rng::for_name(&format!("mixed {k}"));
    let mut shuffles = 0;
    (0..count)
        .map(|s| {
            let kind = match CYCLE[s % CYCLE.len()] {
                Kind::Shuffle(_) => {
                    shuffles += 1;
                    Kind::Shuffle(OPS[(shuffles - 1) % OPS.len()])
                }
                Kind::Collective(_) => Kind::Collective(pick(&mut rng, &COLLECTIVES)),
                other => other,
            };
            let ty = match kind {
                Kind::Shuffle(_) => pick(&mut rng, &SHUFFLE_TYPES),
                Kind::Broadcast | Kind::Collective(_) => pick(&mut rng, &COLLECTIVE_TYPES),
                Kind::BlockRead | Kind::BlockWrite => pick(&mut rng, &BLOCK_TYPES),
                Kind::Vload | Kind::Vstore => {
                    let s = pick(&mut rng, &SCALARS);
                    let n = pick(&mut rng, &[2usize, 3, 4, 8, 16]);
                    let v = vector(s, n);
                    if v.starts_with("long") || v.starts_with("ulong") {
                        vector(s, n.min(8))
                    } else {
                        v
                    }
                }
                Kind::Uniform => small_vector(&mut rng),
            };
            Section { kind, ty }
        })
        .collect()
}

/// The scalar of a type name (`uchar16` → `uchar`).
pub fn scalar_of(ty: &str) -> &str {
    ty.trim_end_matches(|c: char| c.is_ascii_digit())
}

fn width_of(ty: &str) -> &str {
    &ty[scalar_of(ty).len()..]
}

/// The function a collective or block section calls.
pub fn function(sec: &Section) -> String {
    let s = scalar_of(sec.ty);
    let intel = if matches!(s, "char" | "uchar") {
        "intel_"
    } else {
        ""
    };
    match sec.kind {
        Kind::Broadcast => format!("{intel}sub_group_broadcast"),
        Kind::Collective(f) => format!("{intel}sub_group_{f}"),
        Kind::BlockRead | Kind::BlockWrite => {
            let dir = if sec.kind == Kind::BlockRead {
                "read"
            } else {
                "write"
            };
            // BLOCK_TYPES holds only types the forms table has.
            super::block_forms::function_for(dir, sec.ty).unwrap_or_default()
        }
        _ => String::new(),
    }
}

/// The kernel as an object-like macro `MIXED_k`. Section j's data is region 2j of `in`
/// (byte `2j * stride`), its first source `a` region 2j + 1 of `in` (element i per
/// work-item); it writes region 2j of `out` and copies `a` to region 2j + 1 of `out`.
fn kernel(k: usize) -> String {
    let sections = plan(k);
    let mut s = format!(
        "#define MIXED_{k} SG kernel void mixed_{k}(global const uchar *in, global const uint *c, global const uint *u, uint mask, uint stride, global uchar *out) \\\n{{ size_t i = get_global_id(0); uint ci = c[i]; \\\n  uint sgi = get_group_id(0) * get_enqueued_num_sub_groups() + get_sub_group_id(); \\\n"
    );
    for (j, x) in sections.iter().enumerate() {
        s.push_str(&format!(
            "  {} \\\n",
            load(x.ty, &format!("a{j}"), 2 * j + 1)
        ));
        if matches!(x.kind, Kind::Shuffle(_)) {
            s.push_str(&format!("  {} \\\n", load(x.ty, &format!("b{j}"), 2 * j)));
        }
    }
    for (j, x) in sections.iter().enumerate() {
        let (t, r) = (x.ty, 2 * j);
        let sc = scalar_of(t);
        let w = width_of(t);
        let f = function(x);
        let din = format!("(in + {r} * stride)");
        let dout = format!("(out + {r} * stride)");
        let body = match x.kind {
            Kind::Shuffle(op) => {
                format!("((global {t} *){dout})[i] = CALL_{op}(a{j}, b{j}, ci);")
            }
            Kind::Broadcast => {
                format!("((global {t} *){dout})[i] = {f}(a{j}, u[{j}] % get_sub_group_size());")
            }
            Kind::Collective(_) => format!("((global {t} *){dout})[i] = {f}(a{j});"),
            Kind::BlockRead => format!(
                "((global {t} *){dout})[i] = {f}((global const {sc} *){din} + u[{j}] + sgi * get_max_sub_group_size() * vec_step({t}));"
            ),
            Kind::BlockWrite => format!(
                "{f}((global {sc} *){dout} + u[{j}] + sgi * get_max_sub_group_size() * vec_step({t}), a{j});"
            ),
            Kind::Vload => format!(
                "((global {t} *){dout})[i] = vload{w}(i, (global const {sc} *)({din} + u[{j}]));"
            ),
            Kind::Vstore => format!("vstore{w}(a{j}, i, (global {sc} *)({dout} + u[{j}]));"),
            Kind::Uniform => format!(
                "global const {t} *p = (global const {t} *){din}; uint w = u[{j}] & 0xffff; {t} x = p[w]; for (uint t = 0; t < (u[{j}] >> 16); t++) x += p[w + 1 + t]; ((global {t} *){dout})[w + 1] = x + ({t})5;"
            ),
        };
        let body = match x.kind {
            Kind::BlockRead | Kind::BlockWrite => format!("BLOCK_IO({body})"),
            _ => body,
        };
        s.push_str(&format!("  if (mask & (1u << {j})) {{ {body} }} \\\n"));
    }
    s.push_str(&copy_out(sections.iter().map(|x| x.ty)));
    s.push_str("}\n");
    s
}

pub fn text() -> String {
    let header = format!(
        "// Generated (tests/src/generate/mixed.rs): big kernels of mixed sections.\n{CALLS}{BLOCK_IO}"
    );
    file(&header, "MIXED", MIXED_KERNELS.len(), kernel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_type_has_a_form() {
        for t in BLOCK_TYPES {
            assert!(
                super::super::block_forms::function_for("read", t).is_some(),
                "{t}"
            );
        }
    }

    #[test]
    fn every_mixed_kernel_has_every_kind_of_section_and_fits_the_mask() {
        let kinds = |k: &Kind| std::mem::discriminant(k);
        for (k, &count) in MIXED_KERNELS.iter().enumerate() {
            let plan = plan(k);
            assert_eq!(plan.len(), count);
            assert!(count <= 32, "one bit of `mask` per section");
            for want in CYCLE {
                assert!(
                    plan.iter().any(|s| kinds(&s.kind) == kinds(&want)),
                    "mixed {k} lacks {want:?}"
                );
            }
            let text = kernel(k);
            for s in &plan {
                assert!(text.contains(&function(s)), "{}", function(s));
            }
        }
    }
}
