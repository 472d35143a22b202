//! Buffer block reads and writes, every form of `block_forms` (cl_intel_subgroups; _ui and _uc
//! of cl_intel_subgroups_char, _us of cl_intel_subgroups_short) at every legal alignment: the
//! references take an offset of every alignment from 4 bytes (reads) or 16 bytes (writes) to
//! `OFFSET_SPAN`.

/// The widest alignment offsets are varied over (a cache line; offset 0 stands for it).
pub const OFFSET_SPAN: usize = 64;

const PRELUDE: &str = r#"// Generated (tests/src/generate/block.rs): buffer block reads and writes; the offset, in
// elements of S, is a kernel argument. Subgroup s owns max_sub_group_size values of V.
#define SUBGROUP_INDEX (get_group_id(0) * get_enqueued_num_sub_groups() + get_sub_group_id())
#define BLOCK(S, V, base) ((base) + offset + SUBGROUP_INDEX * get_max_sub_group_size() * vec_step(V))
#define G_BLOCK_READ(S, V, F) SG kernel void g_block_read_##S##_##V##_##F(global const S *in, uint offset, global V *out) \
    { out[get_global_id(0)] = F(BLOCK(S, V, in)); }
#define G_BLOCK_WRITE(S, V, F) SG kernel void g_block_write_##S##_##V##_##F(global const V *in, uint offset, global S *out) \
    { F(BLOCK(S, V, out), in[get_global_id(0)]); }
"#;

pub fn text() -> String {
    let mut s = String::from(PRELUDE);
    s.push_str("// @instances\n");
    s.push_str(&super::block_forms::instances(
        "G_BLOCK_READ",
        "G_BLOCK_WRITE",
    ));
    s
}
