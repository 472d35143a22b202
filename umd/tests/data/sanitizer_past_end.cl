// Reads past a buffer's end (`umd/tests/sanitizer_past_end_sim.rs`): the `ok_*` kernel reads
// past the end and discards what it read there; each `bug_*` kernel uses bytes read past the
// end. `a` holds 16 ints. (IGC's own padding of OWord blocks and of 64-bit `vload3`, which
// ocloc's standalone builds of such kernels do not reproduce, is Khronos' test_vector_creation
// under `cargo test -p opencl --test cts basic_tgllp_under_the_sanitizer`.)

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
