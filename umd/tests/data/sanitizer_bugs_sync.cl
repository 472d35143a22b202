// Seeded bugs for the sanitizer's initcheck, racecheck and synccheck: each kernel `bug_*` has
// one bug, its twin `ok_*` none. Every launch is 128 work-items in groups of 64 (two groups,
// several sub-groups each); `a` and `b` hold 128 ints, `b` written by the host unless the
// test says otherwise (`umd/tests/sanitizer_checks_sim.rs`).

// initcheck: half the group never writes its slot, the other half reads it.
__kernel void ok_slm_uninit(__global const int *a, __global int *b, int n) {
    __local int t[64];
    int l = get_local_id(0);
    t[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    b[get_global_id(0)] = t[63 - l];
}
__kernel void bug_slm_uninit(__global const int *a, __global int *b, int n) {
    __local int t[64];
    int l = get_local_id(0);
    if (l < 32)
        t[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    b[get_global_id(0)] = t[63 - l];
}

// initcheck: a private array (too big for registers) filled only up to n.
__kernel void ok_private_uninit(__global const int *a, __global int *b, int n) {
    int p[256];
    int g = get_global_id(0);
    for (int i = 0; i < 256; i++)
        p[i] = a[(g + i) & 127];
    b[g] = p[(g * 37 + n) & 255];
}
__kernel void bug_private_uninit(__global const int *a, __global int *b, int n) {
    int p[256];
    int g = get_global_id(0);
    for (int i = 0; i < n; i++)
        p[i] = a[(g + i) & 127];
    b[g] = p[(g * 37 + n) & 255];
}

// initcheck: `b` is created without host data here; the bug reads it, the twin only writes.
__kernel void ok_global_uninit(__global const int *a, __global int *b, int n) {
    int g = get_global_id(0);
    b[g] = a[g] * 2 + n;
}
__kernel void bug_global_uninit(__global const int *a, __global int *b, int n) {
    int g = get_global_id(0);
    b[g] = b[g] + a[g] * 2 + n;
}

// racecheck: the barrier between writing and reading local memory is missing.
__kernel void ok_slm_race(__global const int *a, __global int *b, int n) {
    __local int t[64];
    int l = get_local_id(0);
    t[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    b[get_global_id(0)] = t[63 - l] + n;
}
__kernel void bug_slm_race(__global const int *a, __global int *b, int n) {
    __local int t[64];
    int l = get_local_id(0);
    t[l] = a[get_global_id(0)];
    b[get_global_id(0)] = t[63 - l] + n;
}

// racecheck: every work-item adds to b[0]; the twin with an atomic.
__kernel void ok_global_race(__global const int *a, __global int *b, int n) {
    atomic_add(&b[n], a[get_global_id(0)]);
}
__kernel void bug_global_race(__global const int *a, __global int *b, int n) {
    b[n] += a[get_global_id(0)];
}

// synccheck: a barrier only the work-items below n reach.
__kernel void ok_barrier_divergent(__global const int *a, __global int *b, int n) {
    __local int t[64];
    int l = get_local_id(0);
    t[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    b[get_global_id(0)] = l < n ? t[63 - l] : 0;
}
__kernel void bug_barrier_divergent(__global const int *a, __global int *b, int n) {
    __local int t[64];
    int l = get_local_id(0);
    t[l] = a[get_global_id(0)];
    if (l < n)
        barrier(CLK_LOCAL_MEM_FENCE);
    b[get_global_id(0)] = l < n ? t[63 - l] : 0;
}

// OpenCL C 2.0 from here (Oclgrind 21.10 has no work-group functions).
// synccheck: a work-group function called by the work-items below n only.
__kernel void ok_wg_divergent(__global const int *a, __global int *b, int n) {
    int s = work_group_reduce_add(a[get_global_id(0)]);
    if (get_local_id(0) < n)
        b[get_global_id(0)] = s;
}
__kernel void bug_wg_divergent(__global const int *a, __global int *b, int n) {
    if (get_local_id(0) < n)
        b[get_global_id(0)] = work_group_reduce_add(a[get_global_id(0)]);
}
