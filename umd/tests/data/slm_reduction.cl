// Tree reductions through shared local memory, the shape PyOpenCL's reductions take: every
// work item stores its value, then halving steps add the upper half onto the lower half,
// with the barrier at the top of the loop (before each step) or at the bottom (after it).
// IGC puts the gateway barrier (send + wait n0 / sync.bar) inside a structured loop whose
// body holds a divergent `if`; SLM goes through the HDC's BTI 254 or LSC's SLM port.
// `sel` picks the variant: bit 0 barrier at the bottom, bit 1 the `local` pointer argument
// instead of the kernel's own array.
#define REDUCE(NAME, T, SIMD)                                                  \
  __attribute__((intel_reqd_sub_group_size(SIMD)))                             \
  kernel void NAME(global const T *src, global T *dst, local T *arg,          \
                   uint sel) {                                                 \
    local T own[256];                                                          \
    local T *ld = (sel & 2) ? arg : own;                                       \
    uint lid = get_local_id(0);                                                \
    ld[lid] = src[get_global_id(0)];                                           \
    if (sel & 1) {                                                             \
      barrier(CLK_LOCAL_MEM_FENCE);                                            \
      for (uint c = get_local_size(0) / 2; c >= 1; c /= 2) {                   \
        if (lid < c)                                                           \
          ld[lid] += ld[lid + c];                                              \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
      }                                                                        \
    } else {                                                                   \
      for (uint c = get_local_size(0) / 2; c >= 1; c /= 2) {                   \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        if (lid < c)                                                           \
          ld[lid] += ld[lid + c];                                              \
      }                                                                        \
    }                                                                          \
    if (lid == 0)                                                              \
      dst[get_group_id(0)] = ld[0];                                            \
  }
REDUCE(sum_int8, int, 8)
REDUCE(sum_int16, int, 16)
REDUCE(sum_int32, int, 32)
REDUCE(sum_float8, float, 8)
REDUCE(sum_float16, float, 16)
REDUCE(sum_float32, float, 32)

// The issue's reproducer: a 32-item group and a constant, signed trip count that IGC unrolls;
// on Gen9-Gen12LP the steps c = 2 and c = 1 read both operands with one untyped surface read
// (channels X+Z and X+Y).
#define FIXED32(NAME, SIMD)                                                    \
  __attribute__((intel_reqd_sub_group_size(SIMD)))                             \
  kernel void NAME(global const int *src, global int *dst, local int *arg,    \
                   uint sel) {                                                 \
    local int ld[32];                                                          \
    int lid = get_local_id(0);                                                 \
    int acc = src[get_global_id(0)];                                           \
    ld[lid] = acc;                                                             \
    for (int c = 16; c >= 1; c /= 2) {                                         \
      barrier(CLK_LOCAL_MEM_FENCE);                                            \
      if (lid < c)                                                             \
        ld[lid] += ld[lid + c];                                                \
    }                                                                          \
    if (lid == 0)                                                              \
      dst[get_group_id(0)] = ld[0];                                            \
  }
FIXED32(fixed32_int8, 8)
FIXED32(fixed32_int16, 16)
FIXED32(fixed32_int32, 32)
