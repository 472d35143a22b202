//! Uniform accesses: loads and stores whose index is the same in every work-item, the class
//! IGC compiles to SIMD1 scattered / A64 messages with vector immediates on DWord destinations
//! (and, in kernels that read no local ids, with a per-thread GRF reserved before the
//! arguments). Every scalar and vector type (char .. double, widths 1, 2, 3, 4, 8, 16) × a
//! `global` or `constant` source × the index a literal, a uniform kernel argument, or loaded
//! from memory (with a loop whose bound is loaded too) × kernels that read no local ids and
//! ones that do. Every kernel also adds a uniform by-value argument of its type.

use super::line;

/// The scalar types (half with cl_khr_fp16, double with cl_khr_fp64).
pub const SCALARS: [&str; 11] = [
    "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half", "float", "double",
];

/// Vector widths (1: the scalar).
pub const WIDTHS: [u32; 6] = [1, 2, 3, 4, 8, 16];

/// Where the loads read from.
pub const SPACES: [&str; 2] = ["global", "constant"];

/// How the index reaches the access: a literal (1), a kernel argument, or `u[0]` (then
/// `u[1]` more elements are added in a loop).
pub const INDICES: [&str; 3] = ["lit", "arg", "mem"];

/// Whether the kernel also reads its local id (writing one value per work-item).
pub const LANES: [&str; 2] = ["none", "lid"];

/// Elements of T in the source and in `out` (every index the references draw stays below).
pub const ELEMENTS: usize = 40;

const PRELUDE: &str = r#"// Generated (tests/src/generate/uniform.rs): uniform loads and stores. x = in[j] + v + 5
// (then, for a mem index, in[j + 2 + t] added for t < u[1]) is stored to out[j + 1]; kernels
// that read local ids also store x + get_local_id(0) per work-item.
#define PTR_global global const
#define PTR_constant constant
#define IDX_lit 1u
#define IDX_arg k
#define IDX_mem u[0]
#define LOOP_lit
#define LOOP_arg
#define LOOP_mem for (uint t = 0; t < u[1]; t++) x += in[j + 2 + t];
#define LANES_none(T)
#define LANES_lid(T) lanes[get_global_id(0)] = x + (T)((int)get_local_id(0));
#define UNIFORM(P, K, L, T) SG kernel void uniform_##P##_##K##_##L##_##T(PTR_##P T *in, global const uint *u, uint k, T v, global T *out, global T *lanes) \
    { uint j = IDX_##K; T x = in[j] + v + (T)5; LOOP_##K out[j + 1] = x; LANES_##L(T) }
"#;

/// The type's name at width `n`.
pub fn type_name(scalar: &str, n: u32) -> String {
    if n == 1 {
        scalar.to_string()
    } else {
        format!("{scalar}{n}")
    }
}

pub fn text() -> String {
    let mut s = String::from(PRELUDE);
    s.push_str("// @instances\n");
    for space in SPACES {
        for index in INDICES {
            for lanes in LANES {
                for scalar in SCALARS {
                    for n in WIDTHS {
                        let t = type_name(scalar, n);
                        s.push_str(&line("UNIFORM", &[space, index, lanes, &t]));
                        s.push('\n');
                    }
                }
            }
        }
    }
    s
}
