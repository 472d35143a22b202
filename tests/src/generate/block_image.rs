//! Image block reads and writes, every form of `block_forms` (cl_intel_subgroups; _ui and _uc
//! of cl_intel_subgroups_char, _us of cl_intel_subgroups_short) on 2D images; the references cross every form with an
//! image format of every element size block IO allows (1, 2 and 4 bytes) and coordinates in
//! bounds, at the right and bottom edges and across them (`cases::generated_image`).

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

pub fn text() -> String {
    let mut s = String::from(PRELUDE);
    s.push_str("// @instances\n");
    s.push_str(&super::block_forms::instances(
        "G_IMAGE_READ",
        "G_IMAGE_WRITE",
    ));
    s
}
