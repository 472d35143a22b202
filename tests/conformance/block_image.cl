// Subgroup block reads and writes on 2D images (cl_intel_subgroups; the _ui and _uc forms of
// cl_intel_subgroups_char). Coordinates are in bytes; no format conversion.
// common.cl comes first (the harness puts it there).

#define SUBGROUP_INDEX (get_group_id(0) * get_enqueued_num_sub_groups() + get_sub_group_id())
// Subgroup s owns the block at byte (x0 + (s % 2) * max_sub_group_size * sizeof(S),
// y0 + (s / 2) * vec_step(V)): two blocks side by side per band of vec_step(V) rows.
#define COORD(S, V) ((int2)(x0 + (int)(SUBGROUP_INDEX % 2 * get_max_sub_group_size() * sizeof(S)), \
                            y0 + (int)(SUBGROUP_INDEX / 2 * vec_step(V))))
#define IMAGE_READ(S, V, F) SG kernel void image_read_##S##_##V##_##F(read_only image2d_t im, int x0, int y0, global V *out) \
    { out[get_global_id(0)] = F(im, COORD(S, V)); }
#define IMAGE_WRITE(S, V, F) SG kernel void image_write_##S##_##V##_##F(write_only image2d_t im, int x0, int y0, global const V *in) \
    { F(im, COORD(S, V), in[get_global_id(0)]); }

// @instances
IMAGE_READ(uint, uint, intel_sub_group_block_read)
IMAGE_READ(uint, uint2, intel_sub_group_block_read2)
IMAGE_READ(uint, uint4, intel_sub_group_block_read4)
IMAGE_READ(uint, uint8, intel_sub_group_block_read8)
IMAGE_READ(uint, uint, intel_sub_group_block_read_ui)
IMAGE_READ(uint, uint2, intel_sub_group_block_read_ui2)
IMAGE_READ(uint, uint4, intel_sub_group_block_read_ui4)
IMAGE_READ(uint, uint8, intel_sub_group_block_read_ui8)
IMAGE_READ(uchar, uchar, intel_sub_group_block_read_uc)
IMAGE_READ(uchar, uchar2, intel_sub_group_block_read_uc2)
IMAGE_READ(uchar, uchar4, intel_sub_group_block_read_uc4)
IMAGE_READ(uchar, uchar8, intel_sub_group_block_read_uc8)
IMAGE_READ(uchar, uchar16, intel_sub_group_block_read_uc16)
IMAGE_WRITE(uint, uint, intel_sub_group_block_write)
IMAGE_WRITE(uint, uint2, intel_sub_group_block_write2)
IMAGE_WRITE(uint, uint4, intel_sub_group_block_write4)
IMAGE_WRITE(uint, uint8, intel_sub_group_block_write8)
IMAGE_WRITE(uint, uint, intel_sub_group_block_write_ui)
IMAGE_WRITE(uint, uint2, intel_sub_group_block_write_ui2)
IMAGE_WRITE(uint, uint4, intel_sub_group_block_write_ui4)
IMAGE_WRITE(uint, uint8, intel_sub_group_block_write_ui8)
IMAGE_WRITE(uchar, uchar, intel_sub_group_block_write_uc)
IMAGE_WRITE(uchar, uchar2, intel_sub_group_block_write_uc2)
IMAGE_WRITE(uchar, uchar4, intel_sub_group_block_write_uc4)
IMAGE_WRITE(uchar, uchar8, intel_sub_group_block_write_uc8)
IMAGE_WRITE(uchar, uchar16, intel_sub_group_block_write_uc16)
