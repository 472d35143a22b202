// Reads past a buffer's end (`umd/tests/sanitizer_past_end_sim.rs`): the `ok_*` kernels read
// past the end and discard what they read there; each `bug_*` kernel uses bytes read past the
// end. `a` holds 16 ints (16 longs for ok_vector_creation).

// Khronos' test_vector_creation for long16 (the first ten of its lines): IGC reads `src` with
// uniform messages at constant offsets, some of them 32-byte OWord blocks overhanging the end
// and, for a `vload3`, the padding fourth element with a message of its own wholly past it.
// (Fewer lines, or a standalone vload3, compile to messages that stay inside.)
__kernel void ok_vector_creation(__global long *src, __global long16 *result, int n) {
	result[0] = (long16)(vload4(0,src+0),src[4],src[5],vload3(0,src+6),src[9],vload2(0,src+10),vload3(0,src+12),src[15]);
	result[1] = (long16)(vload4(0,src+0),src[4],src[5],vload3(0,src+6),src[9],vload2(0,src+10),vload4(0,src+12));
	result[2] = (long16)(vload4(0,src+0),src[4],src[5],vload3(0,src+6),src[9],vload3(0,src+10),src[13],src[14],src[15]);
	result[3] = (long16)(vload4(0,src+0),src[4],src[5],vload3(0,src+6),src[9],vload3(0,src+10),src[13],vload2(0,src+14));
	result[4] = (long16)(vload4(0,src+0),src[4],src[5],vload3(0,src+6),src[9],vload3(0,src+10),vload2(0,src+13),src[15]);
	result[5] = (long16)(vload4(0,src+0),src[4],src[5],vload3(0,src+6),src[9],vload3(0,src+10),vload3(0,src+13));
	result[6] = (long16)(vload4(0,src+0),src[4],src[5],vload3(0,src+6),src[9],vload4(0,src+10),src[14],src[15]);
	result[7] = (long16)(vload4(0,src+0),src[4],src[5],vload3(0,src+6),src[9],vload4(0,src+10),vload2(0,src+14));
	result[8] = (long16)(vload4(0,src+0),src[4],src[5],vload3(0,src+6),vload2(0,src+9),src[11],src[12],src[13],src[14],src[15]);
	result[9] = (long16)(vload4(0,src+0),src[4],src[5],vload3(0,src+6),vload2(0,src+9),src[11],src[12],src[13],vload2(0,src+14));
}

// A sub-group block read from `a + off`: with off = 4, its last 16 bytes lie past the end,
// and lanes 12 to 15 store what it read there.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void bug_block_overhang(__global const uint *a, __global uint *b, int off) {
    b[get_global_id(0)] = intel_sub_group_block_read(a + off);
}
// The twin reads and stores the same block, then overwrites the lanes whose data lies past
// the end: the value is discarded.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void ok_block_overhang(__global const uint *a, __global uint *b, int off) {
    uint v = intel_sub_group_block_read(a + off);
    b[get_global_id(0)] = get_sub_group_local_id() + off < 16 ? v : 7u;
}
// a[n] with n = 16, one int past the end, read once for the sub-group and used as an index.
__kernel void bug_past_end_address(__global const int *a, __global int *b, int n) {
    int i = get_global_id(0);
    b[i] = a[(a[n] + i) & 15];
}
// The same int deciding a branch.
__kernel void bug_past_end_branch(__global const int *a, __global int *b, int n) {
    int i = get_global_id(0);
    if (a[n] == 0)
        b[i] = 1;
}
// bug_block_overhang's block staged in local memory and read back reversed (lane i reads
// what lane 15 - i loaded): lanes 0 to 3 store what it read past the end.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void bug_past_end_through_slm(__global const uint *a, __global uint *b, int off) {
    __local uint tile[16];
    uint i = get_local_id(0);
    tile[i] = intel_sub_group_block_read(a + off);
    barrier(CLK_LOCAL_MEM_FENCE);
    b[get_global_id(0)] = tile[15 - i];
}
// The twin discards what it reads back from past the end, as oneDNN's GEMM kernels discard
// the padding of the tiles they stage in local memory.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void ok_past_end_through_slm(__global const uint *a, __global uint *b, int off) {
    __local uint tile[16];
    uint i = get_local_id(0);
    tile[i] = intel_sub_group_block_read(a + off);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint v = tile[15 - i];
    b[get_global_id(0)] = 15 - i + off < 16 ? v : 7u;
}
