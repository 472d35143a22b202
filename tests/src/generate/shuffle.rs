//! Shuffles: every op × every gentype × every control kind.

use super::{line, FP64_TYPE, SHUFFLE_TYPES};

/// The ops, by the name the kernels carry.
pub const OPS: [&str; 4] = ["index", "xor", "down", "up"];

/// How the index or delta reaches the call: from a buffer per lane, as a uniform kernel
/// argument, or as a literal (1, SIMD - 1, and for down/up SIMD, which reads only the second
/// source).
pub const CONTROLS: [&str; 5] = ["lane", "arg", "one", "last", "simd"];

/// `CALL_op(a, b, c)` for each op: index and xor ignore the second source.
pub const CALLS: &str = r#"#define CALL_index(a, b, c) intel_sub_group_shuffle(a, c)
#define CALL_xor(a, b, c) intel_sub_group_shuffle_xor(a, c)
#define CALL_down(a, b, c) intel_sub_group_shuffle_down(a, b, c)
#define CALL_up(a, b, c) intel_sub_group_shuffle_up(a, b, c)
"#;

const PRELUDE: &str = r#"// Generated (tests/src/generate/shuffle.rs): every shuffle on every gentype, the control per
// lane, uniform or constant. Every kernel takes both sources.
#define CTL_lane global const uint *c
#define GET_lane c[i]
#define CTL_arg uint c
#define GET_arg c
#define CTL_one uint c
#define GET_one 1
#define CTL_last uint c
#define GET_last (SIMD - 1)
#define CTL_simd uint c
#define GET_simd SIMD
#define G_SHUFFLE(OP, CTL, T) SG kernel void g_shuffle_##OP##_##CTL##_##T(global const T *a, global const T *b, CTL_##CTL, global T *out) \
    { size_t i = get_global_id(0); out[i] = CALL_##OP(a[i], b[i], GET_##CTL); }
"#;

/// Whether `control` has a defined result for `op` somewhere: SIMD is out of range for index
/// and xor in every lane.
pub fn applies(op: &str, control: &str) -> bool {
    control != "simd" || matches!(op, "down" | "up")
}

pub fn text() -> String {
    let mut s = String::from(CALLS);
    s.push_str(PRELUDE);
    s.push_str("// @instances\n");
    for op in OPS {
        for control in CONTROLS.iter().filter(|c| applies(op, c)) {
            for ty in SHUFFLE_TYPES.iter().chain([&FP64_TYPE]) {
                s.push_str(&line("G_SHUFFLE", &[op, control, ty]));
                s.push('\n');
            }
        }
    }
    s
}
