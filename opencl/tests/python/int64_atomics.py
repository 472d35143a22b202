"""PyOpenCL against the ICD: 64-bit atomics (cl_khr_int64_base_atomics and
cl_khr_int64_extended_atomics). The device must list both; OpenCL 1.x `atom_*` on long and ulong
and OpenCL C 3.0 `atomic_long` / `atomic_ulong` fetch operations over many work-groups, on
global and local memory, checked against numpy: tickets are a permutation, sums and bitwise
results equal the reductions, signed and unsigned extrema differ where the sign bit says.
Prints one line per check; exits non-zero on the first mismatch."""

import sys

import numpy as np
import pyopencl as cl

SOURCE = r"""
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void tickets(global long* c, global long* out) {
    out[get_global_id(0)] = atom_add(c, 0x100000001L);
}

kernel void reduce(global long* c, global const long* v) {
    long x = v[get_global_id(0)];
    atom_min(&c[0], x);
    atom_max(&c[1], x);
    atom_min((global ulong*)&c[2], (ulong)x);
    atom_max((global ulong*)&c[3], (ulong)x);
    atom_and(&c[4], x);
    atom_or(&c[5], x);
    atom_xor(&c[6], x);
    atom_sub(&c[7], x);
}

kernel void c11(global atomic_long* c, global const long* v, global long* out) {
    long x = v[get_global_id(0)];
    out[get_global_id(0)] = atomic_fetch_add(&c[0], x);
    atomic_fetch_max((global atomic_ulong*)&c[1], (ulong)x);
    long seen = atomic_load(&c[2]);
    while (!atomic_compare_exchange_strong(&c[2], &seen, seen ^ x))
        ;
}

kernel void local_sum(global const long* v, global long* out, local long* s) {
    if (get_local_id(0) == 0)
        *s = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_add(s, v[get_global_id(0)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        out[get_group_id(0)] = *s;
}
"""

N, GROUP = 4096, 64


def check(name, ok):
    print(("ok   " if ok else "FAIL ") + name, flush=True)
    if not ok:
        sys.exit(1)


def main():
    dev = cl.get_platforms()[0].get_devices()[0]
    ext = dev.extensions.split()
    check("the device lists cl_khr_int64_base_atomics and cl_khr_int64_extended_atomics",
          "cl_khr_int64_base_atomics" in ext and "cl_khr_int64_extended_atomics" in ext)
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, SOURCE).build(options="-cl-std=CL3.0")
    mf = cl.mem_flags
    rs = np.random.RandomState(5)
    v = (rs.randint(-(1 << 62), 1 << 62, N, dtype=np.int64) | (rs.randint(0, 2, N).astype(np.int64) << 63))

    c = np.array([7], np.int64)
    cb = cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=c)
    out = cl.Buffer(ctx, mf.READ_WRITE, 8 * N)
    prg.tickets(q, (N,), (GROUP,), cb, out)
    got = np.empty(N, np.int64)
    cl.enqueue_copy(q, got, out)
    cl.enqueue_copy(q, c, cb)
    check("atom_add tickets are a permutation", sorted(got.tolist()) == [7 + i * 0x100000001 for i in range(N)])
    check("atom_add total", int(c[0]) == 7 + N * 0x100000001)

    init = np.array([np.iinfo(np.int64).max, np.iinfo(np.int64).min, -1, 0, -1, 0, 0x1234, 0], np.int64)
    cb = cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=init.copy())
    vb = cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=v)
    prg.reduce(q, (N,), (GROUP,), cb, vb)
    c = np.empty(8, np.int64)
    cl.enqueue_copy(q, c, cb)
    u = v.view(np.uint64)
    want = [v.min(), v.max(), u.min().view(np.int64), u.max().view(np.int64),
            np.bitwise_and.reduce(v), np.bitwise_or.reduce(v), np.bitwise_xor.reduce(v) ^ 0x1234,
            -np.sum(v.astype(object)) % (1 << 64)]
    want[7] = int(want[7]) - (1 << 64) if int(want[7]) >= 1 << 63 else int(want[7])
    for i, name in enumerate(["atom_min", "atom_max", "atom_min ulong", "atom_max ulong", "atom_and",
                              "atom_or", "atom_xor", "atom_sub"]):
        check("%s = the reduction" % name, int(c[i]) == int(want[i]))

    init = np.array([0, 0, 0x55], np.int64)
    cb = cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=init.copy())
    prg.c11(q, (N,), (GROUP,), cb, vb, out)
    cl.enqueue_copy(q, c[:3], cb)
    cl.enqueue_copy(q, got, out)
    total = int(np.sum(v.astype(object))) % (1 << 64)
    total = total - (1 << 64) if total >= 1 << 63 else total
    check("atomic_fetch_add on atomic_long: total", int(c[0]) == total)
    check("atomic_fetch_add on atomic_long: each saw a distinct partial sum", len(set(got.tolist())) == N)
    check("atomic_fetch_max on atomic_ulong", int(c[1]) == int(u.max().view(np.int64)))
    check("compare-exchange loop on atomic_long loses no update", int(c[2]) == int(np.bitwise_xor.reduce(v) ^ 0x55))

    small = (v >> 20)
    sb = cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=small)
    ob = cl.Buffer(ctx, mf.READ_WRITE, 8 * (N // GROUP))
    prg.local_sum(q, (N,), (GROUP,), sb, ob, cl.LocalMemory(8))
    sums = np.empty(N // GROUP, np.int64)
    cl.enqueue_copy(q, sums, ob)
    check("atom_add on local long per group", (sums == small.reshape(-1, GROUP).sum(axis=1)).all())


main()
