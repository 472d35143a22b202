//! Image block reads and writes (cl_intel_subgroups; _ui and _uc of cl_intel_subgroups_char,
//! _us of cl_intel_subgroups_short) on 2D images; the references cross every form with an
//! image format of every element size block IO allows (1, 2 and 4 bytes) and coordinates in
//! bounds, at the right and bottom edges and across them (`cases::generated_image`).

use super::line;

const PRELUDE: &str = r#"// Generated (tests/src/generate/block_image.rs): image block reads and writes. Subgroup s
// owns the block at byte (x0 + (s % 2) * max_sub_group_size * sizeof(S), y0 + (s / 2) *
// vec_step(V)): two blocks side by side per band of vec_step(V) rows.
#define G_SUBGROUP (get_group_id(0) * get_enqueued_num_sub_groups() + get_sub_group_id())
#define G_COORD(S, V) ((int2)(x0 + (int)(G_SUBGROUP % 2 * get_max_sub_group_size() * sizeof(S)), \
                              y0 + (int)(G_SUBGROUP / 2 * vec_step(V))))
#define G_IMAGE_READ(S, V, F) SG kernel void g_image_read_##S##_##V##_##F(read_only image2d_t im, int x0, int y0, global V *out) \
    { out[get_global_id(0)] = F(im, G_COORD(S, V)); }
#define G_IMAGE_WRITE(S, V, F) SG kernel void g_image_write_##S##_##V##_##F(write_only image2d_t im, int x0, int y0, global const V *in) \
    { F(im, G_COORD(S, V), in[get_global_id(0)]); }
"#;

/// (scalar, function suffixes and their widths) of the specs' image forms.
const FORMS: [(&str, &[(&str, u32)]); 4] = [
    ("uint", &[("", 1), ("2", 2), ("4", 4), ("8", 8)]),
    ("uint", &[("_ui", 1), ("_ui2", 2), ("_ui4", 4), ("_ui8", 8)]),
    (
        "ushort",
        &[("_us", 1), ("_us2", 2), ("_us4", 4), ("_us8", 8)],
    ),
    (
        "uchar",
        &[
            ("_uc", 1),
            ("_uc2", 2),
            ("_uc4", 4),
            ("_uc8", 8),
            ("_uc16", 16),
        ],
    ),
];

pub fn text() -> String {
    let mut s = String::from(PRELUDE);
    s.push_str("// @instances\n");
    for (dir, kind) in [("read", "G_IMAGE_READ"), ("write", "G_IMAGE_WRITE")] {
        for (scalar, forms) in FORMS {
            for (suffix, width) in forms {
                let v = match width {
                    1 => scalar.to_string(),
                    w => format!("{scalar}{w}"),
                };
                let f = format!("intel_sub_group_block_{dir}{suffix}");
                s.push_str(&line(kind, &[scalar, &v, &f]));
                s.push('\n');
            }
        }
    }
    s
}
