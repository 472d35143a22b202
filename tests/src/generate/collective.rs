//! Collectives (cl_khr_subgroups and cl_intel_subgroups: broadcast, reduce, scans, any, all;
//! the 8- and 16-bit `intel_` forms of cl_intel_subgroups_char and cl_intel_subgroups_short)
//! on every scalar type the specs allow, broadcast with the id as a kernel argument, per lane
//! from a buffer (the same for the subgroup, as the specs require), and as a literal (every
//! valid id in one kernel).

use super::line;

/// The gentype of cl_khr_subgroups' broadcast, reduce and scans (half with cl_khr_fp16,
/// double with cl_khr_fp64).
pub const KHR_TYPES: [&str; 7] = ["int", "uint", "long", "ulong", "float", "half", "double"];

/// The types of the `intel_sub_group_*` forms of cl_intel_subgroups_char and _short.
pub const INTEL_TYPES: [&str; 4] = ["char", "uchar", "short", "ushort"];

/// The reduce and scan functions, without prefix.
pub const FUNCTIONS: [&str; 9] = [
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

/// How the broadcast id reaches the call: a kernel argument, a buffer read per lane, or a
/// literal (the kernel broadcasts from every lane in turn).
pub const BROADCAST_IDS: [&str; 3] = ["arg", "lane", "lit"];

const PRELUDE: &str = r#"// Generated (tests/src/generate/collective.rs): collectives on every scalar type, broadcast
// with the id as an argument, per lane (subgroup-uniform values from a buffer) or a literal.
#define G_COLLECTIVE(T, F) SG kernel void g_collective_##T##_##F(global const T *x, global T *out) \
    { size_t i = get_global_id(0); out[i] = F(x[i]); }
#define G_BROADCAST_ARG(T, F) SG kernel void g_broadcast_arg_##T##_##F(global const T *x, uint id, global T *out) \
    { size_t i = get_global_id(0); out[i] = F(x[i], id); }
#define G_BROADCAST_LANE(T, F) SG kernel void g_broadcast_lane_##T##_##F(global const T *x, global const uint *id, global T *out) \
    { size_t i = get_global_id(0); out[i] = F(x[i], id[i]); }
// Work-item i writes SIMD values: the broadcast from lane 0, 1, ..., SIMD - 1.
#define LIT_ONE(F, k) o[k] = F(v, k);
#define EACH8(M, F, b) M(F, b) M(F, b + 1) M(F, b + 2) M(F, b + 3) M(F, b + 4) M(F, b + 5) M(F, b + 6) M(F, b + 7)
#if SIMD == 8
#define EACH_ID(M, F) EACH8(M, F, 0)
#elif SIMD == 16
#define EACH_ID(M, F) EACH8(M, F, 0) EACH8(M, F, 8)
#else
#define EACH_ID(M, F) EACH8(M, F, 0) EACH8(M, F, 8) EACH8(M, F, 16) EACH8(M, F, 24)
#endif
#define G_BROADCAST_LIT(T, F) SG kernel void g_broadcast_lit_##T##_##F(global const T *x, global T *out) \
    { size_t i = get_global_id(0); global T *o = out + i * SIMD; T v = x[i]; EACH_ID(LIT_ONE, F) }
// The specs promise non-zero, not 1.
#define G_VOTE(F) SG kernel void g_vote_##F(global const int *p, global int *out) \
    { size_t i = get_global_id(0); out[i] = F(p[i]) != 0; }
"#;

/// The types of cl_khr_subgroups' functions, then those of the `intel_` forms, each with the
/// prefix of its functions.
fn typed() -> impl Iterator<Item = (&'static str, &'static str)> {
    let khr = KHR_TYPES.iter().map(|t| (*t, "sub_group_"));
    khr.chain(INTEL_TYPES.iter().map(|t| (*t, "intel_sub_group_")))
}

pub fn text() -> String {
    let mut s = String::from(PRELUDE);
    s.push_str("// @instances\n");
    for f in FUNCTIONS {
        for (t, prefix) in typed() {
            s.push_str(&line("G_COLLECTIVE", &[t, &format!("{prefix}{f}")]));
            s.push('\n');
        }
    }
    for id in BROADCAST_IDS {
        let kind = format!("G_BROADCAST_{}", id.to_ascii_uppercase());
        for (t, prefix) in typed() {
            s.push_str(&line(&kind, &[t, &format!("{prefix}broadcast")]));
            s.push('\n');
        }
    }
    for f in ["sub_group_any", "sub_group_all"] {
        s.push_str(&line("G_VOTE", &[f]));
        s.push('\n');
    }
    s
}
