"""PyOpenCL against the ICD: three OpenCL C 3.0 optional features and their queries.
- __opencl_c_work_group_collective_functions: work_group_reduce/scan_inclusive/scan_exclusive
  (add, min, max), broadcast, any and all over int, uint, long, ulong and float, in 1D, 2D and 3D
  ranges with uniform and non-uniform work-groups, against numpy (per group, in local linear
  id order; exclusive scans start at the identity the OpenCL C specification names).
- __opencl_c_program_scope_global_variables: initialised and zeroed globals, a global written
  by one kernel and read by another, kept between enqueues, a pointer-to-global global, static
  function-scope variables, one copy per program; CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE.
- __opencl_c_generic_address_space: one function taking a generic pointer called with global,
  local and private pointers; to_global/to_local/to_private and get_fence.
Prints one line per check; exits non-zero when any failed."""

import numpy as np
import pyopencl as cl

from checks import check, finish

# cl.h values, for PyOpenCL builds that predate them.
DEVICE_OPENCL_C_FEATURES = 0x106F
DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT = 0x1068
DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT = 0x1069
DEVICE_MAX_GLOBAL_VARIABLE_SIZE = 0x104D
DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE = 0x1054
PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE = 0x1185
FEATURES = [
    "__opencl_c_work_group_collective_functions",
    "__opencl_c_generic_address_space",
    "__opencl_c_program_scope_global_variables",
]

ctx = cl.create_some_context(interactive=False)
dev = ctx.devices[0]
q = cl.CommandQueue(ctx)
mf = cl.mem_flags


def features():
    names = [nv.name for nv in dev.get_info(DEVICE_OPENCL_C_FEATURES)]
    for f in FEATURES:
        check(f in names, f"{f} reported", names)
    check(dev.get_info(DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT) == 1,
          "CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT")
    check(dev.get_info(DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT) == 1,
          "CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT")
    check(dev.get_info(DEVICE_MAX_GLOBAL_VARIABLE_SIZE) >= 65536,
          "CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE at least the specification's 64 KiB")
    check(dev.get_info(DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE) > 0,
          "CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE")


# --- work-group collectives -------------------------------------------------------------------

COLLECTIVES = r"""
kernel void coll(global const T* in, global T* out, uint bx, uint by, uint bz, T key) {
    size_t n = get_global_size(0) * get_global_size(1) * get_global_size(2);
    size_t g = get_global_linear_id();
    T x = in[g];
    out[0 * n + g] = work_group_reduce_add(x);
    out[1 * n + g] = work_group_reduce_min(x);
    out[2 * n + g] = work_group_reduce_max(x);
    out[3 * n + g] = work_group_scan_inclusive_add(x);
    out[4 * n + g] = work_group_scan_inclusive_min(x);
    out[5 * n + g] = work_group_scan_inclusive_max(x);
    out[6 * n + g] = work_group_scan_exclusive_add(x);
    out[7 * n + g] = work_group_scan_exclusive_min(x);
    out[8 * n + g] = work_group_scan_exclusive_max(x);
    /* The broadcast's source is in this group, which may be a smaller, non-uniform one. */
    size_t sx = min((size_t)bx, get_local_size(0) - 1);
    size_t sy = min((size_t)by, get_local_size(1) - 1);
    size_t sz = min((size_t)bz, get_local_size(2) - 1);
    T b;
    if (get_work_dim() == 3)
        b = work_group_broadcast(x, sx, sy, sz);
    else if (get_work_dim() == 2)
        b = work_group_broadcast(x, sx, sy);
    else
        b = work_group_broadcast(x, sx);
    out[9 * n + g] = b;
    out[10 * n + g] = (T)work_group_any(x == key);
    out[11 * n + g] = (T)work_group_all(x != key);
}
"""

TYPES = [
    ("int", np.int32, np.iinfo(np.int32).min, np.iinfo(np.int32).max),
    ("uint", np.uint32, 0, np.iinfo(np.uint32).max),
    ("long", np.int64, np.iinfo(np.int64).min, np.iinfo(np.int64).max),
    ("ulong", np.uint64, 0, np.iinfo(np.uint64).max),
    ("float", np.float32, -np.inf, np.inf),
]

# (global size, local size): uniform and non-uniform, 1D to 3D.
RANGES = [
    ((128,), (64,)),
    ((200,), (64,)),
    ((51,), (17,)),
    ((7,), (1,)),
    ((20, 7), (8, 4)),
    ((8, 4, 4), (4, 4, 4)),
    ((9, 5, 3), (4, 2, 2)),
]
BROADCAST_FROM = (2, 1, 1)
KEY = 77


def expected(x, gsize, lsize, lo, hi, dtype):
    """The 12 outputs by global linear id, computed group by group."""
    dims = len(gsize)
    g3 = tuple(gsize) + (1,) * (3 - dims)
    l3 = tuple(lsize) + (1,) * (3 - dims)
    n = int(np.prod(g3))
    out = np.zeros((12, n), dtype=dtype)
    groups = [range(0, g3[d], l3[d]) for d in range(3)]
    for oz in groups[2]:
        for oy in groups[1]:
            for ox in groups[0]:
                size = [min(l3[d], g3[d] - o) for d, o in enumerate((ox, oy, oz))]
                # Local linear id order: x fastest.
                ids = [
                    (ox + lx) + (oy + ly) * g3[0] + (oz + lz) * g3[0] * g3[1]
                    for lz in range(size[2])
                    for ly in range(size[1])
                    for lx in range(size[0])
                ]
                v = x[ids]
                out[0, ids] = v.sum(dtype=dtype)
                out[1, ids] = v.min()
                out[2, ids] = v.max()
                out[3, ids] = np.cumsum(v, dtype=dtype)
                out[4, ids] = np.minimum.accumulate(v)
                out[5, ids] = np.maximum.accumulate(v)
                out[6, ids] = np.concatenate((np.zeros(1, dtype), np.cumsum(v, dtype=dtype)[:-1]))
                out[7, ids] = np.concatenate((np.array([hi], dtype), np.minimum.accumulate(v)[:-1]))
                out[8, ids] = np.concatenate((np.array([lo], dtype), np.maximum.accumulate(v)[:-1]))
                s = [min(BROADCAST_FROM[d], size[d] - 1) for d in range(3)]
                out[9, ids] = v[s[0] + s[1] * size[0] + s[2] * size[0] * size[1]]
                out[10, ids] = 1 if (v == KEY).any() else 0
                out[11, ids] = 1 if (v != KEY).all() else 0
    return out


def collectives():
    rng = np.random.default_rng(15)
    for tname, dtype, lo, hi in TYPES:
        prg = cl.Program(ctx, COLLECTIVES).build(options=f"-cl-std=CL3.0 -DT={tname}")
        k = prg.coll
        all_ok = True
        for gsize, lsize in RANGES:
            n = int(np.prod(gsize))
            # Small integers: every sum is exact, in any order and in float.
            if dtype in (np.uint32, np.uint64):
                x = rng.integers(0, 2000, n).astype(dtype)
            else:
                x = rng.integers(-1000, 1000, n).astype(dtype)
            # The key in the first group only: any/all differ between groups.
            x[min(3, n - 1)] = KEY
            d_in = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
            d_out = cl.Buffer(ctx, mf.WRITE_ONLY, 12 * n * x.itemsize)
            k.set_args(d_in, d_out, *[np.uint32(b) for b in BROADCAST_FROM], dtype(KEY))
            cl.enqueue_nd_range_kernel(q, k, gsize, lsize)
            got = np.empty((12, n), dtype=dtype)
            cl.enqueue_copy(q, got, d_out)
            want = expected(x, gsize, lsize, lo, hi, dtype)
            names = ["reduce_add", "reduce_min", "reduce_max", "scan_inclusive_add",
                     "scan_inclusive_min", "scan_inclusive_max", "scan_exclusive_add",
                     "scan_exclusive_min", "scan_exclusive_max", "broadcast", "any", "all"]
            for r, name in enumerate(names):
                if not np.array_equal(got[r], want[r]):
                    bad = np.nonzero(got[r] != want[r])[0]
                    all_ok = False
                    check(False, f"work_group_{name} {tname} {gsize}/{lsize}",
                          f"at {bad[:5]}: got {got[r][bad[:5]]}, want {want[r][bad[:5]]}")
        check(all_ok, f"work-group collectives over {tname}, 1D-3D, uniform and non-uniform")


# --- program-scope globals ------------------------------------------------------------------

GLOBALS = r"""
global int table[4] = {10, 20, 30, 40};
global int counter;
global long big = 0x123456789abL;
global float half_ = 1.5f;
global int* selected = &table[2];
global int* global chosen;
constant int k3 = 3;

kernel void add_to_all(int v) {
    table[get_global_id(0)] += v;
    if (get_global_id(0) == 0)
        counter += v;
}

kernel void read_all(global long* out) {
    for (int i = 0; i < 4; i++)
        out[i] = table[i];
    out[4] = counter;
    out[5] = big;
    out[6] = (long)(half_ * 2.0f);
    out[7] = *selected;
    out[8] = k3;
}

kernel void choose(int i) { chosen = &table[i]; }

kernel void through_chosen(global int* out) { out[0] = *chosen; *chosen += 1000; }

kernel void tick(global int* out) {
    static global int calls = 7;
    out[0] = calls++;
}
"""


def read_all(prg):
    out = np.zeros(9, dtype=np.int64)
    d = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
    prg.read_all(q, (1,), (1,), d)
    cl.enqueue_copy(q, out, d)
    return list(out)


def globals_():
    prg = cl.Program(ctx, GLOBALS).build(options="-cl-std=CL3.0")
    total = prg.get_build_info(dev, PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE)
    # table, counter, big, half_, selected, chosen, tick's calls.
    check(total >= 4 * 4 + 4 + 8 + 4 + 8 + 8 + 4,
          "CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE covers the variables", total)
    check(read_all(prg) == [10, 20, 30, 40, 0, 0x123456789ab, 3, 30, 3],
          "initialised and zeroed globals, pointer-to-global initialiser", read_all(prg))
    prg.add_to_all(q, (4,), None, np.int32(5))
    check(read_all(prg) == [15, 25, 35, 45, 5, 0x123456789ab, 3, 35, 3],
          "one kernel's writes seen by another kernel", read_all(prg))
    prg.add_to_all(q, (4,), None, np.int32(1))
    check(read_all(prg)[:5] == [16, 26, 36, 46, 6], "globals kept between enqueues",
          read_all(prg))
    out = np.zeros(1, dtype=np.int32)
    d = cl.Buffer(ctx, mf.WRITE_ONLY, 4)
    prg.choose(q, (1,), None, np.int32(1))
    prg.through_chosen(q, (1,), None, d)
    cl.enqueue_copy(q, out, d)
    check(out[0] == 26 and read_all(prg)[1] == 1026,
          "a pointer stored in a global by one kernel, used by another", (out, read_all(prg)))
    ticks = []
    k = prg.tick
    for _ in range(3):
        k(q, (1,), None, d)
        cl.enqueue_copy(q, out, d)
        ticks.append(int(out[0]))
    check(ticks == [7, 8, 9], "static function-scope global counts across enqueues", ticks)
    other = cl.Program(ctx, GLOBALS).build(options="-cl-std=CL3.0")
    check(read_all(other)[:5] == [10, 20, 30, 40, 0],
          "another program of the same source has its own globals", read_all(other))
    plain = cl.Program(ctx, "kernel void k(global int* o) { o[0] = 1; }").build(
        options="-cl-std=CL3.0")
    check(plain.get_build_info(dev, PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE) == 0,
          "no globals: CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE 0")


# --- generic address space --------------------------------------------------------------------

GENERIC = r"""
int sum3(int* p) { return p[0] + p[1] + p[2]; }
void bump(int* p) { p[1] += 100; }

kernel void gen(global int* g, global int* out, local int* l) {
    int i = (int)get_global_id(0);
    int li = (int)get_local_id(0);
    int pv[3] = {i, 2 * i, 3 * i};
    l[3 * li] = 7 * i;
    l[3 * li + 1] = 7 * i + 1;
    l[3 * li + 2] = 7 * i + 2;
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    out[10 * i + 0] = sum3(g + 3 * i);
    out[10 * i + 1] = sum3(l + 3 * li);
    out[10 * i + 2] = sum3(pv);
    /* Chosen at run time: global for odd work-items, local for even ones. */
    int* p = (i & 1) ? (int*)(g + 3 * i) : (int*)(l + 3 * li);
    out[10 * i + 3] = to_global(p) != NULL;
    out[10 * i + 4] = to_local(p) != NULL;
    out[10 * i + 5] = to_private(p) != NULL;
    int* pp = pv;
    out[10 * i + 6] = to_private(pp) != NULL && to_global(pp) == NULL && to_local(pp) == NULL;
    out[10 * i + 7] = get_fence(p);
    bump(p);
    bump(pp);
    out[10 * i + 8] = sum3(p);
    out[10 * i + 9] = sum3(pp);
}
"""


def generic():
    prg = cl.Program(ctx, GENERIC).build(options="-cl-std=CL3.0")
    n, lsz = 64, 16
    g = np.arange(3 * n, dtype=np.int32) * 5
    d_g = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=g)
    d_out = cl.Buffer(ctx, mf.WRITE_ONLY, 10 * n * 4)
    prg.gen(q, (n,), (lsz,), d_g, d_out, cl.LocalMemory(3 * lsz * 4))
    out = np.empty((n, 10), dtype=np.int32)
    cl.enqueue_copy(q, out, d_out)
    g_after = np.empty_like(g)
    cl.enqueue_copy(q, g_after, d_g)
    i = np.arange(n)
    odd = (i & 1) == 1
    gsum = g.reshape(n, 3).sum(axis=1)
    lsum = 21 * i + 3
    check(np.array_equal(out[:, 0], gsum), "generic pointer to global", out[:4, 0])
    check(np.array_equal(out[:, 1], lsum), "generic pointer to local", out[:4, 1])
    check(np.array_equal(out[:, 2], 6 * i), "generic pointer to private", out[:4, 2])
    check(np.array_equal(out[:, 3], odd.astype(np.int32)), "to_global", out[:4, 3])
    check(np.array_equal(out[:, 4], (~odd).astype(np.int32)), "to_local", out[:4, 4])
    check(not out[:, 5].any() and out[:, 6].all(), "to_private", out[:4, 5:7])
    # CLK_GLOBAL_MEM_FENCE 2, CLK_LOCAL_MEM_FENCE 1 (opencl-c.h).
    check(np.array_equal(out[:, 7], np.where(odd, 2, 1)), "get_fence", out[:4, 7])
    check(np.array_equal(out[:, 8], np.where(odd, gsum, lsum) + 100)
          and np.array_equal(out[:, 9], 6 * i + 100),
          "writes through generic pointers", out[:4, 8:10])
    want_g = g.copy().reshape(n, 3)
    want_g[odd, 1] += 100
    check(np.array_equal(g_after, want_g.reshape(-1)), "global writes through a generic pointer")


features()
collectives()
globals_()
generic()
finish()
