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

// initcheck: a struct whose `pad` member nobody sets, copied whole from local memory to `b`
// by the first work-item of each group: C lets a struct with an indeterminate member be copied
// (the twin). The bug adds that member to another.
typedef struct { int lo; int hi; int pad; } span3;
__kernel void ok_struct_member(__global const int *a, __global int *b, int n) {
    __local span3 t[64];
    int l = get_local_id(0);
    t[l].lo = a[get_global_id(0)];
    t[l].hi = -a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        ((__global span3 *)b)[get_group_id(0)] = t[(n + 5) & 63];
}
__kernel void bug_struct_member(__global const int *a, __global int *b, int n) {
    __local span3 t[64];
    int l = get_local_id(0);
    t[l].lo = a[get_global_id(0)];
    t[l].hi = -a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        span3 s = t[(n + 5) & 63];
        b[get_group_id(0)] = s.lo + s.pad;
    }
}

// racecheck, correct: a 64-bit atomic add on local memory, which IGC builds on Gen9-Gen12LP
// from a lock (a `cmpxchg` on a lock word, plain loads and stores of the value, an atomic
// store): the lock orders the plain accesses of different sub-groups.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void ok_local_atomic64(__global const int *a, __global int *b, int n) {
    __local long s;
    int l = get_local_id(0);
    if (l == 0)
        s = n;
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_add(&s, (long)a[get_global_id(0)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    b[get_global_id(0)] = (int)s;
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

// initcheck: an index half the group never wrote, used as an address (the atomic's).
__kernel void ok_uninit_address(__global const int *a, __global int *b, int n) {
    __local int t[64];
    int l = get_local_id(0);
    t[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&b[t[63 - l] & 127], 1);
}
__kernel void bug_uninit_address(__global const int *a, __global int *b, int n) {
    __local int t[64];
    int l = get_local_id(0);
    if (l < 32)
        t[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&b[t[63 - l] & 127], 1);
}

// initcheck: a loop whose trip count half the group never wrote.
__kernel void ok_uninit_branch(__global const int *a, __global int *b, int n) {
    __local int t[64];
    int l = get_local_id(0);
    t[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = 0;
    for (int i = 0; i < (t[63 - l] & 7); i++)
        s += a[(i * 5 + l) & 127];
    b[get_global_id(0)] = s;
}
__kernel void bug_uninit_branch(__global const int *a, __global int *b, int n) {
    __local int t[64];
    int l = get_local_id(0);
    if (l < 32)
        t[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = 0;
    for (int i = 0; i < (t[63 - l] & 7); i++)
        s += a[(i * 5 + l) & 127];
    b[get_global_id(0)] = s;
}

// initcheck, correct programs that read bytes nobody wrote and discard them (`n` 36, `b`
// not written by the host). As PyOpenCL's scan kernels: every work-item reads its slot, only
// those below n wrote theirs and use it.
__kernel void ok_slm_read_unused(__global const int *a, __global int *b, int n) {
    __local int t[64];
    int l = get_local_id(0);
    if (l < n)
        t[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = t[l];
    b[get_global_id(0)] = l < n ? v : -1;
}
// The value read is overwritten before any use where it was never written.
__kernel void ok_slm_overwritten(__global const int *a, __global int *b, int n) {
    __local int t[64];
    int l = get_local_id(0);
    if (l < n)
        t[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = t[l];
    if (l >= n)
        v = l;
    b[get_global_id(0)] = v;
}
// A private array filled up to n, read anywhere, the value used only below n.
__kernel void ok_private_read_unused(__global const int *a, __global int *b, int n) {
    int p[256];
    int g = get_global_id(0);
    for (int i = 0; i < n; i++)
        p[i] = a[(g + i) & 127];
    int k = (g * 37 + n) & 255;
    int v = p[k];
    b[g] = k < n ? v : 0;
}
// `b` read before the host or a command wrote it; its value used only past the launch.
__kernel void ok_global_read_unused(__global const int *a, __global int *b, int n) {
    int g = get_global_id(0);
    int v = b[g];
    b[g] = g >= (int)get_global_size(0) + n ? v : a[g] * 2;
}

// racecheck across work-groups: work-item 0 of each group takes a lock (b[0], free while it
// holds n) by a compare-exchange of device scope with acquire order, adds its a[] to the
// plain counter b[1], and releases the lock by a store with release order. The lock's
// release and acquire (IGC: a fence before the atomic store, one after the compare-exchange)
// order the counter's plain accesses of different groups. It spins, and ends however groups
// are scheduled: the holder is the only work-item of its group taking the lock, and groups
// start in walker order, so it runs on another host thread or has finished.
__kernel void ok_cross_group_lock(__global const int *a, __global int *b, int n) {
    volatile __global atomic_int *lock = (volatile __global atomic_int *)b;
    if (get_local_id(0) == 0) {
        int expected = n;
        while (!atomic_compare_exchange_strong_explicit(lock, &expected, n + 1,
                                                        memory_order_acquire,
                                                        memory_order_relaxed,
                                                        memory_scope_device))
            expected = n;
        b[1] += a[get_global_id(0)];
        atomic_store_explicit(lock, n, memory_order_release, memory_scope_device);
    }
}
// The same increment with no lock: the groups' plain accesses race.
__kernel void bug_cross_group_no_lock(__global const int *a, __global int *b, int n) {
    if (get_local_id(0) == 0)
        b[1] += a[get_global_id(0)];
}
// The same lock with relaxed atomics: no fence, so nothing orders the counter's accesses.
__kernel void bug_cross_group_relaxed_lock(__global const int *a, __global int *b, int n) {
    volatile __global atomic_int *lock = (volatile __global atomic_int *)b;
    if (get_local_id(0) == 0) {
        int expected = n;
        while (!atomic_compare_exchange_strong_explicit(lock, &expected, n + 1,
                                                        memory_order_relaxed,
                                                        memory_order_relaxed,
                                                        memory_scope_device))
            expected = n;
        b[1] += a[get_global_id(0)];
        atomic_store_explicit(lock, n, memory_order_relaxed, memory_scope_device);
    }
}
// The same lock with relaxed atomics and fences of local memory only: they order nothing
// across work-groups.
__kernel void bug_cross_group_local_fence_lock(__global const int *a, __global int *b, int n) {
    volatile __global atomic_int *lock = (volatile __global atomic_int *)b;
    if (get_local_id(0) == 0) {
        int expected = n;
        while (!atomic_compare_exchange_strong_explicit(lock, &expected, n + 1,
                                                        memory_order_relaxed,
                                                        memory_order_relaxed,
                                                        memory_scope_device))
            expected = n;
        atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_acquire,
                               memory_scope_work_group);
        b[1] += a[get_global_id(0)];
        atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_release,
                               memory_scope_work_group);
        atomic_store_explicit(lock, n, memory_order_relaxed, memory_scope_device);
    }
}
