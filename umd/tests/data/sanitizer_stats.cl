// Kernels whose execution statistics are known from the source and the binary: a
// straight-line copy (every instruction once per hardware thread, 4 bytes read and written per
// work-item) and a guard true for 5 of every 8 consecutive work-items.

kernel void copy(global const float *a, global float *b) {
    size_t i = get_global_id(0);
    b[i] = a[i];
}

kernel void guarded(global const int *a, global int *b, int n) {
    size_t i = get_global_id(0);
    if ((i & 7) < 5)
        b[i] = a[i] + n;
}
