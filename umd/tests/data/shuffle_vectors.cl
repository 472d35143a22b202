// Issue 13, class 2: sub-group shuffles of vector types with per-lane indices and deltas.
// One section per vector type, picked by the uniform `sel`; every work item shuffles `a` (and
// `b`, the other source of _down/_up) with an index or delta computed from its lane id and
// its own key. IGC moves each element through indirect operands whose address registers hold
// one GRF address per channel.
#define SECTION(K, T, ET, N)                                                   \
  if (sel == K) {                                                              \
    global const ET *s = (global const ET *)src;                               \
    global ET *d = (global ET *)dst;                                           \
    T a = vload##N(gid, s);                                                    \
    T b = vload##N(gid + total, s);                                            \
    vstore##N(intel_sub_group_shuffle(a, c), 4 * gid, d);                      \
    vstore##N(intel_sub_group_shuffle_down(a, b, dn), 4 * gid + 1, d);         \
    vstore##N(intel_sub_group_shuffle_up(a, b, up), 4 * gid + 2, d);           \
    vstore##N(intel_sub_group_shuffle_xor(a, x), 4 * gid + 3, d);              \
  }

#define SHUFFLE_KERNEL(NAME, SIMD)                                             \
  __attribute__((intel_reqd_sub_group_size(SIMD)))                             \
  kernel void NAME(global const uint *src, global const uint *keys,            \
                   global uint *dst, uint sel) {                               \
    uint gid = get_global_id(0);                                               \
    uint total = get_global_size(0);                                           \
    uint lid = get_sub_group_local_id();                                       \
    uint n = get_max_sub_group_size();                                         \
    uint key = keys[gid];                                                      \
    uint c = (lid * 5u + key) % n;                                             \
    uint dn = (key >> 4) % n;                                                  \
    uint up = (key >> 8) % (n + 1);                                            \
    uint x = (key >> 12) % n;                                                  \
    SECTION(0, float2, float, 2)                                               \
    SECTION(1, float4, float, 4)                                               \
    SECTION(2, int8, int, 8)                                                   \
    SECTION(3, int4, int, 4)                                                   \
    SECTION(4, uint4, uint, 4)                                                 \
    SECTION(5, char8, char, 8)                                                 \
    SECTION(6, uchar16, uchar, 16)                                             \
  }

SHUFFLE_KERNEL(shuffle8, 8)
SHUFFLE_KERNEL(shuffle16, 16)
SHUFFLE_KERNEL(shuffle32, 32)
