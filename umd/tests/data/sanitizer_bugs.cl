// Seeded bugs for the sanitizer: each kernel `bug_*` has one bug, its twin `ok_*` none. The
// host sizes every buffer to exactly the work-items it runs (`umd/tests/sanitizer_sim.rs`).
// `// faulty access` marks the line of a bug that `-g` findings must name
// (`umd/tests/sanitizer_lines_sim.rs`).
__kernel void ok_global_overflow(__global const int *a, __global int *b, int n) {
    int i = get_global_id(0);
    b[i] = a[i] + 1;
}
__kernel void bug_global_overflow(__global const int *a, __global int *b, int n) {
    int i = get_global_id(0);
    b[i] = a[i + 1] + 1; // faulty access
}
// memcheck, a uniform load (one `(W)` message for the whole sub-group, which memcheck treats
// apart: IGC pads such loads past a buffer's end): the twin loads the last three ints with
// vload3, the bug reads the int past the end.
__kernel void ok_uniform_tail(__global const int *a, __global int *b, int n) {
    int3 v = vload3(0, a + n);
    b[get_global_id(0)] = v.x + v.y + v.z;
}
__kernel void bug_uniform_tail(__global const int *a, __global int *b, int n) {
    b[get_global_id(0)] = a[n + 3] + 1;
}
__kernel void ok_negative_index(__global const int *a, __global int *b, int n) {
    int i = get_global_id(0);
    b[i] = a[i] * 2;
}
__kernel void bug_negative_index(__global const int *a, __global int *b, int n) {
    int i = get_global_id(0);
    b[i] = a[i - n] * 2;
}
__kernel void ok_slm_overflow(__global const int *a, __global int *b, int n) {
    __local int tmp[64];
    int l = get_local_id(0);
    tmp[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    b[get_global_id(0)] = tmp[63 - l];
}
__kernel void bug_slm_overflow(__global const int *a, __global int *b, int n) {
    __local int tmp[64];
    int l = get_local_id(0);
    tmp[l + n] = a[get_global_id(0)]; // faulty access
    barrier(CLK_LOCAL_MEM_FENCE);
    b[get_global_id(0)] = tmp[63 - l];
}
__kernel void ok_read_only_write(__global const int *a, __global int *b, int n) {
    int i = get_global_id(0);
    b[i] = a[i] + n;
}
__kernel void bug_read_only_write(__global int *a, __global int *b, int n) {
    int i = get_global_id(0);
    b[i] = a[i] + n;
    a[i] = 0; // faulty access
}
// `a` is a sub-buffer at origin 64 of a buffer 128 bytes larger: one element past its end is
// still inside the parent.
__kernel void ok_sub_buffer_overflow(__global const int *a, __global int *b, int n) {
    int i = get_global_id(0);
    b[i] = a[i] + 1;
}
__kernel void bug_sub_buffer_overflow(__global const int *a, __global int *b, int n) {
    int i = get_global_id(0);
    b[i] = a[i + n] + 1;
}
// A private array too big for registers (in scratch or the private buffer), read at an index
// far past its end: in another hardware thread's slot.
__kernel void ok_private_overflow(__global const int *a, __global int *b, int n) {
    int p[256];
    int g = get_global_id(0);
    for (int i = 0; i < 256; i++)
        p[i] = a[(g + i) & 63];
    b[g] = p[(g * 37) & 255];
}
__kernel void bug_private_overflow(__global const int *a, __global int *b, int n) {
    int p[256];
    int g = get_global_id(0);
    for (int i = 0; i < 256; i++)
        p[i] = a[(g + i) & 63];
    b[g] = p[((g * 37) & 255) + n];
}
// `a` holds two pointers to USM allocations of 64 ints: the first live, the second freed
// (no Oclgrind run: it has no USM).
__kernel void ok_use_after_free(__global const int *a, __global int *b, int n) {
    __global const int *p = (__global const int *)((__global const ulong *)a)[0];
    int i = get_global_id(0);
    b[i] = p[i];
}
__kernel void bug_use_after_free(__global const int *a, __global int *b, int n) {
    __global const int *p = (__global const int *)((__global const ulong *)a)[1];
    int i = get_global_id(0);
    b[i] = p[i];
}
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void ok_block_read(__global const uint *a, __global uint *b, int off) {
    uint v = intel_sub_group_block_read((__global const uint *)((__global const char *)a + off));
    b[get_global_id(0)] = v;
}
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void bug_block_read(__global const uint *a, __global uint *b, int off) {
    uint v = intel_sub_group_block_read((__global const uint *)((__global const char *)a + off + 2));
    b[get_global_id(0)] = v;
}
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void ok_block_write(__global const uint *a, __global uint *b, int off) {
    uint v = a[get_global_id(0)];
    intel_sub_group_block_write((__global uint *)((__global char *)b + off), v);
}
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void bug_block_write(__global const uint *a, __global uint *b, int off) {
    uint v = a[get_global_id(0)];
    intel_sub_group_block_write((__global uint *)((__global char *)b + off + 4), v);
}
