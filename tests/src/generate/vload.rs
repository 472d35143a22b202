//! vloadn and vstoren (OpenCL C 2.0, 6.13.7) on every scalar type and width, through a pointer
//! `off` bytes into the buffer; the references take an `off` of every alignment from the
//! scalar's size to `OFFSET_SPAN`.

use super::line;

/// The scalar types vloadn/vstoren take (half with cl_khr_fp16, double with cl_khr_fp64).
pub const SCALARS: [&str; 11] = [
    "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half", "float", "double",
];

/// The widths n of vloadn/vstoren.
pub const WIDTHS: [u32; 5] = [2, 3, 4, 8, 16];

/// The widest alignment offsets are varied over (offset 0 stands for it).
pub const OFFSET_SPAN: usize = 16;

const PRELUDE: &str = r#"// Generated (tests/src/generate/vload.rs): vloadn/vstoren through a T pointer off bytes into
// the buffer, work-item i at element offset i (address p + i * n).
#define VLOAD(T, N) SG kernel void vload_##T##_##N(global const uchar *in, uint off, global T##N *out) \
    { size_t i = get_global_id(0); out[i] = vload##N(i, (global const T *)(in + off)); }
#define VSTORE(T, N) SG kernel void vstore_##T##_##N(global const T##N *in, uint off, global uchar *out) \
    { size_t i = get_global_id(0); vstore##N(in[i], i, (global T *)(out + off)); }
"#;

pub fn text() -> String {
    let mut s = String::from(PRELUDE);
    s.push_str("// @instances\n");
    for kind in ["VLOAD", "VSTORE"] {
        for t in SCALARS {
            for n in WIDTHS {
                s.push_str(&line(kind, &[t, &n.to_string()]));
                s.push('\n');
            }
        }
    }
    s
}
