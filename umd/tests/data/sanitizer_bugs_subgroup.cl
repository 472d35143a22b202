// Seeded bugs for the sanitizer's synccheck of sub-group functions: each kernel `bug_*` calls
// one in divergent control flow (the work-items of a sub-group below n only), its twin `ok_*`
// calls it in converged code with the divergent part after it. `legit_*` kernels are correct
// programs whose divergent code IGC compiles to the same instruction forms (uniform loads as
// OWord block reads, registers read through per-lane addresses, a sub-group reduction inside
// an atomic): none may give a finding. Every launch is 128 work-items in groups of 64; `a` and
// `b` hold 128 ints written by the host (`umd/tests/sanitizer_subgroup_sim.rs`).

// A shuffle only the lanes below n execute: lane n - 1 reads lane n, which did not.
__kernel void bug_shuffle(__global const int *a, __global int *b, int n) {
    int g = get_global_id(0);
    int x = a[g];
    if (get_sub_group_local_id() < n)
        x = intel_sub_group_shuffle(x, (get_sub_group_local_id() + 1) & 7);
    b[g] = x;
}
__kernel void ok_shuffle(__global const int *a, __global int *b, int n) {
    int g = get_global_id(0);
    int x = a[g];
    int y = intel_sub_group_shuffle(x, (get_sub_group_local_id() + 1) & 7);
    if (get_sub_group_local_id() < n)
        x = y;
    b[g] = x;
}

// A block write (each sub-group its own block of b) only the lanes below n execute.
__kernel void bug_block_write(__global const int *a, __global int *b, int n) {
    int g = get_global_id(0);
    __global uint *p = (__global uint *)b + get_group_id(0) * get_local_size(0) +
                       get_sub_group_id() * get_max_sub_group_size();
    if (get_sub_group_local_id() < n)
        intel_sub_group_block_write(p, a[g] * 2);
}
__kernel void ok_block_write(__global const int *a, __global int *b, int n) {
    int g = get_global_id(0);
    __global uint *p = (__global uint *)b + get_group_id(0) * get_local_size(0) +
                       get_sub_group_id() * get_max_sub_group_size();
    int x = a[g] * 2;
    intel_sub_group_block_write(p, x);
    if (get_sub_group_local_id() < n)
        b[g] = x + 1;
}

// Correct divergent code in the instruction forms of the collectives.
__kernel void legit_uniform_loads(__global const int *a, __global int *b, int n) {
    int g = get_global_id(0);
    int x = 0;
    if (get_local_id(0) < n)
        x = a[n] + a[n + 1] + a[n + 2] + a[n + 3] + ((__global const int4 *)a)[n / 4].y;
    b[g] = x;
}
__kernel void legit_uniform_table(__global const int *a, __global int *b, int n) {
    int g = get_global_id(0);
    int t[8];
    for (int i = 0; i < 8; i++)
        t[i] = a[n + i];
    int x = 0;
    if (get_local_id(0) < n)
        x = t[(g * 3 + 1) & 7];
    b[g] = x;
}
__kernel void legit_private_array(__global const int *a, __global int *b, int n) {
    int g = get_global_id(0);
    int p[8];
    for (int i = 0; i < 8; i++)
        p[i] = a[(g + i) & 127];
    int x = 0;
    if (get_local_id(0) < n)
        x = p[(g * 3) & 7];
    b[g] = x;
}
__kernel void legit_private_chars(__global const int *a, __global int *b, int n) {
    int g = get_global_id(0);
    char p[16];
    for (int i = 0; i < 16; i++)
        p[i] = a[(g + i) & 127];
    int x = 0;
    if (get_local_id(0) < n)
        x = p[(g * 3 + 1) & 15];
    b[g] = x;
}
__kernel void legit_vector_element(__global const int *a, __global int *b, int n) {
    int g = get_global_id(0);
    int4 v = ((__global const int4 *)a)[g & 31];
    int x = 0;
    if (get_local_id(0) < n)
        x = v[(g * 3 + 1) & 3];
    b[g] = x;
}
__kernel void legit_divergent_atomic(__global const int *a, __global int *b, int n) {
    if (get_local_id(0) < n)
        atomic_add(&b[n], a[get_global_id(0)]);
}
