"""PyOpenCL against the ICD: the cl_khr_subgroup_* extensions (ballot, non-uniform vote and
arithmetic, shuffle, shuffle_relative, clustered reduce, extended types) at every sub-group
size the device reports (CL_DEVICE_SUB_GROUP_SIZES_INTEL, forced with
intel_reqd_sub_group_size), in work-groups that are not a multiple of the size (a partial last
sub-group) and in divergent control flow. The expected values follow the OpenCL extension
specification's text for each built-in, computed with numpy from the inputs and the sub-group
id and local id each work-item reports. Prints one line per check; exits non-zero if any
failed."""

import ctypes

import numpy as np
import pyopencl as cl

from checks import check, finish

SOURCE = r"""
#define OUTS 24
__attribute__((intel_reqd_sub_group_size(SIMD)))
kernel void k(global const int* in, global int* out, global uint4* masks) {
    size_t g = get_global_id(0);
    int x = in[g];
    global int* o = out + OUTS * g;
    o[0] = get_sub_group_id();
    o[1] = get_sub_group_local_id();
    o[2] = get_sub_group_size();
    uint4 b = sub_group_ballot(x & 1);
    masks[2 * g] = b;
    masks[2 * g + 1] = get_sub_group_lt_mask();
    o[3] = sub_group_ballot_bit_count(b);
    o[4] = sub_group_ballot_inclusive_scan(b);
    o[5] = sub_group_ballot_exclusive_scan(b);
    o[6] = b.x == 0 && b.y == 0 && b.z == 0 && b.w == 0 ? -1 : (int)sub_group_ballot_find_lsb(b);
    o[7] = b.x == 0 && b.y == 0 && b.z == 0 && b.w == 0 ? -1 : (int)sub_group_ballot_find_msb(b);
    o[8] = sub_group_ballot_bit_extract(b, (get_sub_group_local_id() + 1) % get_sub_group_size());
    o[9] = sub_group_inverse_ballot(b);
    uint n = get_sub_group_size();
    uint l = get_sub_group_local_id();
    o[10] = sub_group_shuffle(x, (l * 3 + 1) % n);
    o[11] = sub_group_shuffle_xor(x, 5 % n);
    o[12] = sub_group_shuffle_up(x, 3);
    o[13] = sub_group_shuffle_down(x, 2);
    o[14] = sub_group_clustered_reduce_add(x, 4);
    o[15] = sub_group_clustered_reduce_max(x, 8);
    o[16] = sub_group_elect();
    o[17] = sub_group_non_uniform_all_equal(x >> 12);
    o[18] = -7; o[19] = -7; o[20] = -7; o[21] = -7;
    if (x % 3 == 0) {
        o[18] = sub_group_non_uniform_reduce_add(x);
        o[19] = sub_group_non_uniform_scan_inclusive_max(x);
        o[20] = sub_group_non_uniform_scan_exclusive_xor(x);
        o[21] = sub_group_elect();
    }
    o[22] = (int)sub_group_reduce_add((short)x);
    o[23] = (int)sub_group_broadcast((uchar)x, 1);
}
"""

OUTS = 24
ITEMS = 200
LOCAL = 100  # not a multiple of 8, 16 or 32: every work-group ends in a partial sub-group


def expected(x, n):
    """The values the specification defines for one sub-group (arrays over its lanes in local
    id order; `n` lanes)."""
    bits = (x & 1).astype(bool)
    mask = sum(1 << i for i in range(n) if bits[i])
    inc = np.cumsum(bits)
    e = {}
    e[3] = np.full(n, bits.sum())
    e[4] = inc
    e[5] = inc - bits
    e[6] = np.full(n, (mask & -mask).bit_length() - 1 if mask else -1)
    e[7] = np.full(n, mask.bit_length() - 1 if mask else -1)
    e[8] = np.array([(mask >> ((i + 1) % n)) & 1 for i in range(n)])
    e[9] = bits.astype(int)
    e[10] = np.array([x[(i * 3 + 1) % n] for i in range(n)])
    # shuffle_xor/up/down: lanes whose source is outside the sub-group are undefined.
    e[11] = {i: x[i ^ (5 % n)] for i in range(n) if (i ^ (5 % n)) < n}
    e[12] = {i: x[i - 3] for i in range(n) if i >= 3}
    e[13] = {i: x[i + 2] for i in range(n) if i + 2 < n}
    e[14] = np.array([x[i // 4 * 4 : i // 4 * 4 + 4].sum(dtype=np.int32) for i in range(n)])
    e[15] = np.array([x[i // 8 * 8 : i // 8 * 8 + 8].max() for i in range(n)])
    e[16] = np.array([1 if i == 0 else 0 for i in range(n)])
    e[17] = np.full(n, 1 if len(set(x >> 12)) == 1 else 0)
    act = x % 3 == 0
    ax = x[act]
    e[18] = np.where(act, ax.sum(dtype=np.int32) if act.any() else 0, -7)
    run_max = np.full(n, -7)
    run_xor = np.full(n, -7)
    m, xr = None, 0
    for i in range(n):
        if act[i]:
            m = x[i] if m is None else max(m, x[i])
            run_max[i] = m
            run_xor[i] = xr
            xr ^= x[i]
    e[19] = run_max
    e[20] = run_xor
    first = np.argmax(act) if act.any() else -1
    e[21] = np.array([(1 if i == first else 0) if act[i] else -7 for i in range(n)])
    # short and uchar arithmetic wraps (two's complement) as OpenCL C's conversions define.
    short_sum = sum(((int(v) + 2**15) % 2**16) - 2**15 for v in x)
    e[22] = np.full(n, ((short_sum + 2**15) % 2**16) - 2**15)
    e[23] = np.full(n, int(x[1]) & 0xFF)
    return e


def sub_group_sizes(dev):
    """CL_DEVICE_SUB_GROUP_SIZES_INTEL (0x4108), which PyOpenCL does not know: asked through the
    loader's clGetDeviceInfo."""
    lib = ctypes.CDLL("libOpenCL.so.1")
    lib.clGetDeviceInfo.argtypes = [
        ctypes.c_void_p,
        ctypes.c_uint,
        ctypes.c_size_t,
        ctypes.c_void_p,
        ctypes.POINTER(ctypes.c_size_t),
    ]
    need = ctypes.c_size_t()
    if lib.clGetDeviceInfo(dev.int_ptr, 0x4108, 0, None, ctypes.byref(need)) != 0:
        return []
    arr = (ctypes.c_size_t * (need.value // ctypes.sizeof(ctypes.c_size_t)))()
    if lib.clGetDeviceInfo(dev.int_ptr, 0x4108, need.value, arr, None) != 0:
        return []
    return list(arr)


def main():
    dev = cl.get_platforms()[0].get_devices()[0]
    ctx = cl.Context([dev])
    queue = cl.CommandQueue(ctx)
    exts = dev.extensions.split()
    for name in [
        "cl_khr_subgroup_ballot",
        "cl_khr_subgroup_non_uniform_vote",
        "cl_khr_subgroup_non_uniform_arithmetic",
        "cl_khr_subgroup_shuffle",
        "cl_khr_subgroup_shuffle_relative",
        "cl_khr_subgroup_clustered_reduce",
        "cl_khr_subgroup_extended_types",
    ]:
        check(name in exts, f"{name} reported")
    sizes = sub_group_sizes(dev)
    check(len(sizes) > 0, f"sub-group sizes {sizes}")
    rng = np.random.default_rng(5)
    # Small values keep sums of 32 in range; a constant high part makes all_equal true for
    # whole sub-groups in the first half.
    x = rng.integers(-2000, 2000, ITEMS).astype(np.int32)
    x[: ITEMS // 2] = (x[: ITEMS // 2] & 0xFFF) | (5 << 12)
    mf = cl.mem_flags
    bx = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    for simd in sizes:
        prg = cl.Program(ctx, SOURCE).build(f"-cl-std=CL2.0 -DSIMD={simd}")
        out = np.zeros(ITEMS * OUTS, np.int32)
        masks = np.zeros(ITEMS * 8, np.uint32)
        bo = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
        bm = cl.Buffer(ctx, mf.WRITE_ONLY, masks.nbytes)
        prg.k(queue, (ITEMS,), (LOCAL,), bx, bo, bm)
        cl.enqueue_copy(queue, out, bo)
        cl.enqueue_copy(queue, masks, bm)
        out = out.reshape(ITEMS, OUTS)
        masks = masks.reshape(ITEMS, 2, 4)
        bad = {}
        groups = {}
        for g in range(ITEMS):
            groups.setdefault((g // LOCAL, out[g, 0]), []).append(g)
        for key, items in groups.items():
            items.sort(key=lambda g: out[g, 1])
            n = len(items)
            lids = [out[g, 1] for g in items]
            if lids != list(range(n)) or any(out[g, 2] != n for g in items):
                bad.setdefault("ids", (key, lids, [out[g, 2] for g in items]))
                continue
            xs = x[items]
            e = expected(xs, n)
            want_mask = sum(1 << i for i in range(n) if xs[i] & 1)
            for i, g in enumerate(items):
                got = sum(int(masks[g, 0, w]) << (32 * w) for w in range(4))
                if got != want_mask:
                    bad.setdefault("ballot", (key, i, hex(got), hex(want_mask)))
                lt = sum(int(masks[g, 1, w]) << (32 * w) for w in range(4))
                if lt != (1 << i) - 1:
                    bad.setdefault("lt_mask", (key, i, hex(lt)))
            for col, want in e.items():
                for i, g in enumerate(items):
                    w = want.get(i) if isinstance(want, dict) else want[i]
                    if w is not None and int(out[g, col]) != int(w):
                        bad.setdefault(col, (key, i, int(out[g, col]), int(w)))
        check(not bad, f"SIMD{simd}: every built-in as specified", bad)
    finish()


main()
