// vloadn/vstoren through local memory at every element offset, for a local argument and a
// kernel-scope local array: each work-item stores its vector at its local index, and after a
// barrier loads the one of the mirrored work-item (local size - 1 - l) back to global memory.
// IGC tags these local pointers with 0x10000000 (its non-null marker) and lowers the char and
// short pieces to byte scattered messages to SLM (binding-table index 0xFE).
#define GROUP 16
#define SLM_COPY(T, N)                                                                     \
    kernel void slm_arg_##T##N(global const T *a, global T *b, uint off, local T *tmp) {   \
        size_t g = get_global_id(0), l = get_local_id(0);                                  \
        vstore##N(vload##N(g, a + off) ^ (T##N)((T)0x5a), l, tmp + off);                   \
        barrier(CLK_LOCAL_MEM_FENCE);                                                      \
        vstore##N(vload##N(get_local_size(0) - 1 - l, tmp + off), g, b + off);             \
    }                                                                                      \
    kernel void slm_array_##T##N(global const T *a, global T *b, uint off) {               \
        local T tmp[GROUP * 16 + 4];                                                       \
        size_t g = get_global_id(0), l = get_local_id(0);                                  \
        vstore##N(vload##N(g, a + off) ^ (T##N)((T)0x5a), l, tmp + off);                   \
        barrier(CLK_LOCAL_MEM_FENCE);                                                      \
        vstore##N(vload##N(get_local_size(0) - 1 - l, tmp + off), g, b + off);             \
    }
#define WIDTHS(T) SLM_COPY(T, 2) SLM_COPY(T, 3) SLM_COPY(T, 4) SLM_COPY(T, 8) SLM_COPY(T, 16)
WIDTHS(char)
WIDTHS(uchar)
WIDTHS(short)
WIDTHS(ushort)
WIDTHS(int)

// SLM atomics on a local argument and a local array: per group, slot j counts the work-items
// with l % 4 == j and sums their local ids.
kernel void slm_atomics(global uint *out, local uint *sums) {
    local uint counts[4];
    size_t l = get_local_id(0);
    if (l < 4) {
        counts[l] = 0;
        sums[l] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&counts[l % 4]);
    atomic_add(&sums[l % 4], (uint)l);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = counts[l % 4] * 1000 + sums[l % 4];
}
