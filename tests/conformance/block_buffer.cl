// Subgroup block reads and writes on buffers (cl_intel_subgroups; the _ui and _uc forms of
// cl_intel_subgroups_char).
// common.cl comes first (the harness puts it there).

// Subgroups numbered across the dispatch; subgroup s owns the block of max_sub_group_size values
// of type V starting at element offset + s * max_sub_group_size * vec_step(V).
#define SUBGROUP_INDEX (get_group_id(0) * get_enqueued_num_sub_groups() + get_sub_group_id())
#define BLOCK(S, V, base) ((base) + offset + SUBGROUP_INDEX * get_max_sub_group_size() * vec_step(V))
#define BLOCK_READ(S, V, F) SG kernel void block_read_##S##_##V##_##F(global const S *in, uint offset, global V *out) \
    { out[get_global_id(0)] = F(BLOCK(S, V, in)); }
#define BLOCK_WRITE(S, V, F) SG kernel void block_write_##S##_##V##_##F(global const V *in, uint offset, global S *out) \
    { F(BLOCK(S, V, out), in[get_global_id(0)]); }

// @instances
BLOCK_READ(uint, uint, intel_sub_group_block_read)
BLOCK_READ(uint, uint2, intel_sub_group_block_read2)
BLOCK_READ(uint, uint4, intel_sub_group_block_read4)
BLOCK_READ(uint, uint8, intel_sub_group_block_read8)
BLOCK_READ(uint, uint, intel_sub_group_block_read_ui)
BLOCK_READ(uint, uint2, intel_sub_group_block_read_ui2)
BLOCK_READ(uint, uint4, intel_sub_group_block_read_ui4)
BLOCK_READ(uint, uint8, intel_sub_group_block_read_ui8)
BLOCK_READ(uchar, uchar, intel_sub_group_block_read_uc)
BLOCK_READ(uchar, uchar2, intel_sub_group_block_read_uc2)
BLOCK_READ(uchar, uchar4, intel_sub_group_block_read_uc4)
BLOCK_READ(uchar, uchar8, intel_sub_group_block_read_uc8)
BLOCK_READ(uchar, uchar16, intel_sub_group_block_read_uc16)
BLOCK_WRITE(uint, uint, intel_sub_group_block_write)
BLOCK_WRITE(uint, uint2, intel_sub_group_block_write2)
BLOCK_WRITE(uint, uint4, intel_sub_group_block_write4)
BLOCK_WRITE(uint, uint8, intel_sub_group_block_write8)
BLOCK_WRITE(uint, uint, intel_sub_group_block_write_ui)
BLOCK_WRITE(uint, uint2, intel_sub_group_block_write_ui2)
BLOCK_WRITE(uint, uint4, intel_sub_group_block_write_ui4)
BLOCK_WRITE(uint, uint8, intel_sub_group_block_write_ui8)
BLOCK_WRITE(uchar, uchar, intel_sub_group_block_write_uc)
BLOCK_WRITE(uchar, uchar2, intel_sub_group_block_write_uc2)
BLOCK_WRITE(uchar, uchar4, intel_sub_group_block_write_uc4)
BLOCK_WRITE(uchar, uchar8, intel_sub_group_block_write_uc8)
BLOCK_WRITE(uchar, uchar16, intel_sub_group_block_write_uc16)
