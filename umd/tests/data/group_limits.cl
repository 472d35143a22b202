// One work-group of the largest size a SIMD width allows: every work-item stores its global ID
// in shared local memory and, after the barrier, reads the one mirrored across the group, so a
// group the walker split or truncated gives wrong values.
#define MIRROR(NAME, SIMD)                                                        \
    __attribute__((intel_reqd_sub_group_size(SIMD)))                              \
    kernel void NAME(global uint *out) {                                          \
        local uint slm[1024];                                                     \
        uint l = get_local_id(0);                                                 \
        slm[l] = get_global_id(0);                                                \
        barrier(CLK_LOCAL_MEM_FENCE);                                             \
        out[get_global_id(0)] = slm[get_local_size(0) - 1 - l] + (get_group_id(0) << 16); \
    }

MIRROR(mirror8, 8)
MIRROR(mirror16, 16)
MIRROR(mirror32, 32)
