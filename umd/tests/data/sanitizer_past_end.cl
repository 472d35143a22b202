// Reads past a buffer's end (`umd/tests/sanitizer_past_end_sim.rs`): the `ok_*` kernels are
// correct programs for which IGC reads past the end itself and discards what it read there;
// each `bug_*` kernel uses bytes read past the end. `a` holds 16 elements.

// The CTS's test_vector_creation pattern: the whole buffer loaded as vectors of 3, 4 and 8
// elements at constant offsets. IGC reads some of them as 16- and 32-byte OWord blocks
// rounded past the end and keeps only the elements the program names.
__kernel void ok_oword_padding(__global const int *a, __global int16 *b) {
    b[0] = (int16)(vload8(0, a), vload4(0, a + 8), a[12], vload3(0, a + 13));
    b[1] = (int16)(vload3(0, a), vload3(0, a + 3), vload3(0, a + 6), vload3(0, a + 9),
                   vload4(0, a + 12));
}
// The last three longs: IGC reads the padding element (a fourth) with a message of its own,
// wholly past the end, and discards it.
__kernel void ok_vload3_long(__global const long *a, __global long4 *b) {
    b[get_global_id(0)] = (long4)(a[0], vload3(0, a + 13));
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
