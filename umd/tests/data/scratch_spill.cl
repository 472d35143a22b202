// Register spilling on purpose: sixteen uint16 values live per work-item are 1 KiB per lane
// (8 KiB per SIMD8 thread) and cannot fit in 128 GRFs (4 KiB), so IGC spills to scratch at every
// SIMD width. Integer arithmetic wraps, so a CPU reference gives the same bits.
#define SPILL_KERNEL(NAME, SIMD)                                                              \
  __attribute__((intel_reqd_sub_group_size(SIMD)))                                            \
  kernel void NAME(global uint16* data, uint n) {                                             \
    size_t g = 16 * get_global_id(0);                                                         \
    uint16 v0 = data[g], v1 = data[g + 1], v2 = data[g + 2], v3 = data[g + 3];                \
    uint16 v4 = data[g + 4], v5 = data[g + 5], v6 = data[g + 6], v7 = data[g + 7];            \
    uint16 w0 = data[g + 8], w1 = data[g + 9], w2 = data[g + 10], w3 = data[g + 11];          \
    uint16 w4 = data[g + 12], w5 = data[g + 13], w6 = data[g + 14], w7 = data[g + 15];        \
    for (uint r = 0; r < n; r++) {                                                            \
      v0 = v0 * w1 + v7; v1 = v1 * w2 + v0; v2 = v2 * w3 + v1; v3 = v3 * w4 + v2;             \
      v4 = v4 * w5 + v3; v5 = v5 * w6 + v4; v6 = v6 * w7 + v5; v7 = v7 * w0 + v6;             \
      w0 = w0 * v1 - w7; w1 = w1 * v2 - w0; w2 = w2 * v3 - w1; w3 = w3 * v4 - w2;             \
      w4 = w4 * v5 - w3; w5 = w5 * v6 - w4; w6 = w6 * v7 - w5; w7 = w7 * v0 - w6;             \
    }                                                                                         \
    data[g] = v0 ^ v1 ^ v2 ^ v3 ^ v4 ^ v5 ^ v6 ^ v7;                                          \
    data[g + 1] = w0 + w1 + w2 + w3 + w4 + w5 + w6 + w7;                                      \
  }

SPILL_KERNEL(spill8, 8)
SPILL_KERNEL(spill16, 16)
SPILL_KERNEL(spill32, 32)
