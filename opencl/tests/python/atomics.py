"""PyOpenCL against the ICD: OpenCL C 3.0 atomics with the orders and scopes the device reports
in CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES / CL_DEVICE_ATOMIC_FENCE_CAPABILITIES (acq_rel and
seq_cst at work-group, device and all-devices scope), over many work-groups at once. Every
result is checked against what the C11-style memory model allows, computed on the CPU with
numpy: tickets from fetch_add are a permutation, exchanges form one chain, compare-exchange
loops lose no update, fetch_min/max/and/or/xor equal the reductions, and the last work-group
to arrive (release fence + acq_rel/seq_cst counter) sees every other group's partial sum.
Prints one line per check; exits non-zero on the first mismatch."""

import sys

import numpy as np
import pyopencl as cl

SOURCE = r"""
#define ORDER memory_order_seq_cst

kernel void tickets(global atomic_uint* c, global uint* out) {
    out[get_global_id(0)] = atomic_fetch_add_explicit(c, 1u, ORDER, SCOPE);
}

kernel void local_tickets(global uint* out, local atomic_uint* c) {
    if (get_local_id(0) == 0)
        atomic_init(c, 0u);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] =
        atomic_fetch_add_explicit(c, 1u, ORDER, memory_scope_work_group);
}

kernel void chain(global atomic_uint* x, global uint* out) {
    out[get_global_id(0)] =
        atomic_exchange_explicit(x, (uint)get_global_id(0) + 1u, ORDER, SCOPE);
}

kernel void cas_add(global atomic_uint* x) {
    uint add = (uint)get_global_id(0) * 3u + 1u;
    uint seen = atomic_load_explicit(x, ORDER, SCOPE);
    while (!atomic_compare_exchange_strong_explicit(x, &seen, seen + add, ORDER, ORDER, SCOPE))
        ;
}

kernel void bitwise(global atomic_uint* r, global const uint* v) {
    uint a = v[get_global_id(0)];
    atomic_fetch_min_explicit(r + 0, a, ORDER, SCOPE);
    atomic_fetch_max_explicit(r + 1, a, ORDER, SCOPE);
    atomic_fetch_and_explicit(r + 2, a | 0x80000000u, ORDER, SCOPE);
    atomic_fetch_or_explicit(r + 3, a & 0x00ff00ffu, ORDER, SCOPE);
    atomic_fetch_xor_explicit(r + 4, a, ORDER, SCOPE);
    atomic_fetch_sub_explicit(r + 5, a & 0xffu, ORDER, SCOPE);
}

kernel void store_load(global atomic_uint* x, global uint* out) {
    size_t i = get_global_id(0);
    atomic_store_explicit(x + i, (uint)i * 7u + 5u, ORDER, SCOPE);
    out[i] = atomic_load_explicit(x + i, ORDER, SCOPE);
}

/* The last work-group to arrive adds up every group's partial sum: each group publishes its
   sum, then an acq_rel (or seq_cst) fence at SCOPE and an acq_rel (or seq_cst) increment of
   the arrival counter; the last one's second fence makes every published sum visible to it. */
kernel void last_group_sums(global const uint* v, global uint* partial,
                            global atomic_uint* arrived, global uint* total,
                            local uint* scratch) {
    size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
    scratch[l] = v[get_global_id(0)];
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (l != 0)
        return;
    uint s = 0;
    for (size_t k = 0; k < n; k++)
        s += scratch[k];
    partial[g] = s;
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, FENCE_ORDER, SCOPE);
    uint before = atomic_fetch_add_explicit(arrived, 1u, RMW_ORDER, SCOPE);
    if (before != get_num_groups(0) - 1)
        return;
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, FENCE_ORDER, SCOPE);
    uint t = 0;
    for (size_t k = 0; k < get_num_groups(0); k++)
        t += partial[k];
    *total = t;
}
"""

SCOPES = ("memory_scope_device", "memory_scope_all_devices", "memory_scope_all_svm_devices")
ITEMS = 2048
GROUP = 64

CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES = 0x1063
CL_DEVICE_ATOMIC_FENCE_CAPABILITIES = 0x1064
RELAXED, ACQ_REL, SEQ_CST = 1 << 0, 1 << 1, 1 << 2
WORK_ITEM, WORK_GROUP, DEVICE, ALL_DEVICES = 1 << 3, 1 << 4, 1 << 5, 1 << 6


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + str(detail)))
    if not ok:
        sys.exit(1)


def main():
    ctx = cl.Context(cl.get_platforms()[0].get_devices())
    dev = ctx.devices[0]
    q = cl.CommandQueue(ctx)
    mf = cl.mem_flags

    mem = dev.get_info(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES)
    fence = dev.get_info(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES)
    want = RELAXED | ACQ_REL | SEQ_CST | WORK_GROUP | DEVICE | ALL_DEVICES
    check("memory capabilities report what runs here", mem & want == want, hex(mem))
    check("fence capabilities too", fence & (want | WORK_ITEM) == want | WORK_ITEM, hex(fence))

    rng = np.random.default_rng(7)
    v = rng.integers(0, 1 << 31, ITEMS, dtype=np.uint32)
    v_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=v)

    def buf(a):
        return cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)

    def read(b, n):
        a = np.empty(n, np.uint32)
        cl.enqueue_copy(q, a, b)
        return a

    for scope in SCOPES:
        opts = ["-cl-std=CL3.0", "-DSCOPE=" + scope, "-DFENCE_ORDER=memory_order_seq_cst",
                "-DRMW_ORDER=memory_order_seq_cst"]
        p = cl.Program(ctx, SOURCE).build(options=opts)

        c, out = buf(np.zeros(1, np.uint32)), buf(np.zeros(ITEMS, np.uint32))
        p.tickets(q, (ITEMS,), (GROUP,), c, out)
        t = read(out, ITEMS)
        check(f"{scope}: seq_cst fetch_add tickets are a permutation",
              np.array_equal(np.sort(t), np.arange(ITEMS)) and read(c, 1)[0] == ITEMS)

        x, out = buf(np.zeros(1, np.uint32)), buf(np.zeros(ITEMS, np.uint32))
        p.chain(q, (ITEMS,), (GROUP,), x, out)
        seen = np.append(read(out, ITEMS), read(x, 1))
        check(f"{scope}: seq_cst exchanges form one chain",
              np.array_equal(np.sort(seen), np.arange(ITEMS + 1)))

        x = buf(np.zeros(1, np.uint32))
        p.cas_add(q, (ITEMS,), (GROUP,), x)
        gid = np.arange(ITEMS, dtype=np.uint64)
        check(f"{scope}: seq_cst compare-exchange loops lose no update",
              read(x, 1)[0] == int(np.sum(gid * 3 + 1)) & 0xFFFFFFFF)

        init = np.array([0xFFFFFFFF, 0, 0xFFFFFFFF, 0, 0x12345678, 1 << 30], np.uint32)
        r = buf(init.copy())
        p.bitwise(q, (ITEMS,), (GROUP,), r, v_buf)
        want = np.array([
            min(init[0], v.min()), max(init[1], v.max()),
            np.bitwise_and.reduce(v | np.uint32(0x80000000)),
            np.bitwise_or.reduce(v & np.uint32(0x00FF00FF)),
            np.bitwise_xor.reduce(np.append(v, init[4])),
            np.uint32((int(init[5]) - int(np.sum(v & np.uint32(0xFF)))) & 0xFFFFFFFF),
        ], np.uint32)
        got = read(r, 6)
        check(f"{scope}: seq_cst min/max/and/or/xor/sub equal the reductions",
              np.array_equal(got, want), (got, want))

        x, out = buf(np.zeros(ITEMS, np.uint32)), buf(np.zeros(ITEMS, np.uint32))
        p.store_load(q, (ITEMS,), (GROUP,), x, out)
        expect = np.arange(ITEMS, dtype=np.uint32) * 7 + 5
        check(f"{scope}: seq_cst store then load",
              np.array_equal(read(out, ITEMS), expect) and np.array_equal(read(x, ITEMS), expect))

        for fence_order, rmw in (("memory_order_acq_rel", "memory_order_acq_rel"),
                                 ("memory_order_seq_cst", "memory_order_seq_cst")):
            o = ["-cl-std=CL3.0", "-DSCOPE=" + scope, "-DFENCE_ORDER=" + fence_order,
                 "-DRMW_ORDER=" + rmw]
            k = cl.Program(ctx, SOURCE).build(options=o).last_group_sums
            groups = ITEMS // GROUP
            part, arrived = buf(np.zeros(groups, np.uint32)), buf(np.zeros(1, np.uint32))
            total = buf(np.zeros(1, np.uint32))
            k(q, (ITEMS,), (GROUP,), v_buf, part, arrived, total, cl.LocalMemory(4 * GROUP))
            want_total = np.uint32(int(np.sum(v.astype(np.uint64))) & 0xFFFFFFFF)
            check(f"{scope}: {fence_order} fences + {rmw} counter: last group sees every sum",
                  read(total, 1)[0] == want_total and read(arrived, 1)[0] == groups)

    p = cl.Program(ctx, SOURCE).build(
        options=["-cl-std=CL3.0", "-DSCOPE=memory_scope_device",
                 "-DFENCE_ORDER=memory_order_seq_cst", "-DRMW_ORDER=memory_order_seq_cst"])
    out = buf(np.zeros(ITEMS, np.uint32))
    p.local_tickets(q, (ITEMS,), (GROUP,), out, cl.LocalMemory(4))
    t = read(out, ITEMS).reshape(-1, GROUP)
    check("work-group scope: seq_cst local fetch_add tickets are a permutation per group",
          all(np.array_equal(np.sort(row), np.arange(GROUP)) for row in t))


if __name__ == "__main__":
    main()
