"""PyOpenCL against the ICD: cl_khr_fp16. The device reports the extension, its fp config and
vector widths, and half arithmetic gives IEEE binary16 results: +, -, *, / and fma of half
operands, half8 vectors, conversions from float in each rounding mode (convert_half_rte/rtz/
rtp/rtn), vload_half/vstore_half, smoothstep, exp, and sub-group reductions of half. The references are numpy's
float16: its +, -, *, / round the exact result once to half (computed in float32, which holds
the exact sum/product of halves well enough for one correct rounding), fma is the float64 value
(exact for these operands) rounded once, and the directed conversions step numpy's nearest half
toward the float with nextafter. Prints one line per check; exits non-zero on the first
mismatch."""

import sys

import numpy as np
import pyopencl as cl

SOURCE = r"""
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void arith(global const half* a, global const half* b, global const half* c,
                  global half* o) {
    size_t i = get_global_id(0);
    global half* r = o + 5 * i;
    r[0] = a[i] + b[i];
    r[1] = a[i] - b[i];
    r[2] = a[i] * b[i];
    r[3] = a[i] / b[i];
    r[4] = fma(a[i], b[i], c[i]);
}
kernel void vec8(global const half8* a, global const half8* b, global half8* o) {
    size_t i = get_global_id(0);
    o[i] = a[i] * b[i] + a[i];
}
kernel void convert(global const float* f, global half* o) {
    size_t i = get_global_id(0);
    global half* r = o + 4 * i;
    r[0] = convert_half_rte(f[i]);
    r[1] = convert_half_rtz(f[i]);
    r[2] = convert_half_rtp(f[i]);
    r[3] = convert_half_rtn(f[i]);
}
kernel void via_float(global const float* f, global half* o, global float* back) {
    size_t i = get_global_id(0);
    vstore_half(f[i], i, o);
    back[i] = vload_half(i, o);
}
__attribute__((intel_reqd_sub_group_size(16)))
kernel void reduce(global const half* a, global half* sum, global half* mx) {
    size_t i = get_global_id(0);
    half s = sub_group_reduce_add(a[i]);
    half m = sub_group_reduce_max(a[i]);
    if (get_sub_group_local_id() == 0) {
        sum[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = s;
        mx[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = m;
    }
}
"""

# The CTS's (test_commonfns smoothstep) kernel, built alone: on Gen9 IGC then keeps 3.0h at
# mid-dword r4.3 and reads it in an align16 mad.
SMOOTH = r"""
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void smooth(global half* e0, global half* e1, global half* x, global half* o) {
    int i = get_global_id(0);
    o[i] = smoothstep(e0[i], e1[i], x[i]);
}
"""

# exp(half) as the CTS's math_brute_force builds it: on Gen9 IGC splits it into exp2 of an
# integer and a fraction with mixed-mode align16 mads (a half src0, float src1/src2).
EXP = r"""
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void hexp(global half* o, global const half* x) {
    size_t i = get_global_id(0);
    o[i] = exp(x[i]);
}
"""

CL_FP_DENORM = 1 << 0
CL_FP_INF_NAN = 1 << 1
CL_FP_ROUND_TO_NEAREST = 1 << 2
CL_FP_ROUND_TO_ZERO = 1 << 3
CL_FP_ROUND_TO_INF = 1 << 4
CL_FP_FMA = 1 << 5
N = 256


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + str(detail)))
    if not ok:
        sys.exit(1)


def same(got, want):
    """Bit equality of float16 arrays (NaN payloads aside: any NaN matches any NaN)."""
    g, w = got.view(np.uint16), want.view(np.uint16)
    nan = np.isnan(got) & np.isnan(want)
    bad = np.nonzero((g != w) & ~nan)[0]
    return len(bad) == 0, [(int(k), got[k], want[k]) for k in bad[:6]]


def directed(f, mode):
    """float32 `f` rounded to half toward zero, +inf or -inf."""
    h = f.astype(np.float16)
    back = h.astype(np.float32)
    inf = np.float16(np.inf)
    with np.errstate(invalid="ignore", over="ignore"):
        if mode == "rtp":
            return np.where(back < f, np.nextafter(h, inf), h)
        if mode == "rtn":
            return np.where(back > f, np.nextafter(h, -inf), h)
        toward = np.where(np.abs(back) > np.abs(f), np.nextafter(h, np.float16(0)), h)
        return np.where(np.isnan(f), h, toward)


def main():
    ctx = cl.Context(cl.get_platforms()[0].get_devices())
    dev = ctx.devices[0]
    q = cl.CommandQueue(ctx)
    mf = cl.mem_flags

    check("cl_khr_fp16 reported", "cl_khr_fp16" in dev.extensions.split(), dev.extensions)
    cfg = dev.get_info(cl.device_info.HALF_FP_CONFIG)
    need = CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN
    check("half fp config has round to nearest and inf/nan", cfg & need == need, cfg)
    check(
        "half vector widths",
        dev.preferred_vector_width_half > 0 and dev.native_vector_width_half > 0,
        (dev.preferred_vector_width_half, dev.native_vector_width_half),
    )

    prg = cl.Program(ctx, SOURCE).build()
    rng = np.random.default_rng(15)

    def buf(a):
        return cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)

    # Operands spanning the normal range, some subnormals, signed zeros, inf and NaN.
    a = (rng.standard_normal(N) * 10.0 ** rng.integers(-3, 4, N)).astype(np.float16)
    b = (rng.standard_normal(N) * 10.0 ** rng.integers(-3, 3, N)).astype(np.float16)
    c = (rng.standard_normal(N) * 10.0 ** rng.integers(-4, 3, N)).astype(np.float16)
    a[:8] = np.array([0.0, -0.0, 6e-8, -3e-5, np.inf, -np.inf, np.nan, 65504.0], np.float16)
    b[:8] = np.array([1.0, 2.0, 0.5, 3e-5, 1.0, np.inf, 1.0, 2.0], np.float16)
    out = np.empty(5 * N, np.float16)
    ob = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
    prg.arith(q, (N,), None, buf(a), buf(b), buf(c), ob)
    cl.enqueue_copy(q, out, ob)
    r = out.reshape(N, 5)
    with np.errstate(all="ignore"):
        exact_fma = (
            a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)
        ).astype(np.float16)
        for k, (name, want) in enumerate(
            [("add", a + b), ("sub", a - b), ("mul", a * b), ("div", a / b), ("fma", exact_fma)]
        ):
            ok, bad = same(r[:, k], want)
            check(f"half {name} as numpy float16", ok, bad)

    a8 = (rng.standard_normal(8 * 32) * 4).astype(np.float16)
    b8 = (rng.standard_normal(8 * 32) * 4).astype(np.float16)
    o8 = np.empty_like(a8)
    o8b = cl.Buffer(ctx, mf.WRITE_ONLY, o8.nbytes)
    prg.vec8(q, (32,), None, buf(a8), buf(b8), o8b)
    cl.enqueue_copy(q, o8, o8b)
    # a*b+a: the compiler may contract it to one fma (OpenCL C allows contraction), so either
    # rounding is right; both come from numpy.
    with np.errstate(all="ignore"):
        unfused = a8 * b8 + a8
        fused = (a8.astype(np.float64) * b8.astype(np.float64) + a8).astype(np.float16)
    ok = all(same(o8[k : k + 1], unfused[k : k + 1])[0] or same(o8[k : k + 1], fused[k : k + 1])[0]
             for k in range(len(o8)))
    check("half8 a*b+a as numpy float16", ok, (o8[:8], unfused[:8]))

    # Floats between halves (ties too), beyond the half range, subnormal halves, inf and NaN.
    f = (rng.standard_normal(N) * 10.0 ** rng.integers(-7, 6, N)).astype(np.float32)
    f[:10] = np.array(
        [1.0 + 2.0**-11, -(1.0 + 2.0**-11), 65519.0, 65520.0, 1e6, -1e6, 3e-8, -3e-8, np.inf, np.nan],
        np.float32,
    )
    cv = np.empty(4 * N, np.float16)
    cvb = cl.Buffer(ctx, mf.WRITE_ONLY, cv.nbytes)
    prg.convert(q, (N,), None, buf(f), cvb)
    cl.enqueue_copy(q, cv, cvb)
    cv = cv.reshape(N, 4)
    with np.errstate(all="ignore"):
        wants = [f.astype(np.float16), directed(f, "rtz"), directed(f, "rtp"), directed(f, "rtn")]
    for k, mode in enumerate(["rte", "rtz", "rtp", "rtn"]):
        ok, bad = same(cv[:, k], wants[k])
        check(f"convert_half_{mode} as numpy", ok, bad)

    hv = np.empty(N, np.float16)
    back = np.empty(N, np.float32)
    hvb = cl.Buffer(ctx, mf.READ_WRITE, hv.nbytes)
    backb = cl.Buffer(ctx, mf.WRITE_ONLY, back.nbytes)
    prg.via_float(q, (N,), None, buf(f), hvb, backb)
    cl.enqueue_copy(q, hv, hvb)
    cl.enqueue_copy(q, back, backb)
    with np.errstate(all="ignore"):
        ok, bad = same(hv, f.astype(np.float16))
    check("vstore_half rounds to nearest", ok, bad)
    check(
        "vload_half widens exactly",
        np.array_equal(back, hv.astype(np.float32), equal_nan=True),
        (back[:4], hv[:4]),
    )

    # smoothstep's half accuracy is implementation-defined; these edges and x (multiples of 1/64)
    # make x - e0 and the division by a power of two exact, so only t*t*(3-2t) rounds.
    e0 = np.repeat(np.array([-2.0, 0.0, -1.0, 1.0], np.float16), N // 4)
    e1 = np.repeat(np.array([2.0, 1.0, 3.0, 1.5], np.float16), N // 4)
    x = (rng.integers(-3 * 64, 4 * 64, N) / 64.0).astype(np.float16)
    sm = np.empty(N, np.float16)
    smb = cl.Buffer(ctx, mf.WRITE_ONLY, sm.nbytes)
    cl.Program(ctx, SMOOTH).build().smooth(q, (N,), None, buf(e0), buf(e1), buf(x), smb)
    cl.enqueue_copy(q, sm, smb)
    t = np.clip((x.astype(np.float64) - e0) / (e1.astype(np.float64) - e0), 0.0, 1.0)
    want = t * t * (3.0 - 2.0 * t)
    err = np.abs(sm.astype(np.float64) - want)
    check("smoothstep(half) within 2^-9 of float64", err.max() <= 2.0**-9, (err.max(), sm[:4], want[:4]))

    # exp(half): OpenCL C allows 2 ulp (of the half result); the reference is float64.
    ex = np.concatenate([np.array([0.75, 0.0, 1.0, -1.0], np.float16),
                         rng.uniform(-10.0, 10.0, N - 4).astype(np.float16)])
    eo = np.empty(N, np.float16)
    eob = cl.Buffer(ctx, mf.WRITE_ONLY, eo.nbytes)
    cl.Program(ctx, EXP).build().hexp(q, (N,), None, eob, buf(ex))
    cl.enqueue_copy(q, eo, eob)
    want = np.exp(ex.astype(np.float64))
    ulp = 2.0 ** (np.floor(np.log2(want)) - 10)
    err = np.abs(eo.astype(np.float64) - want) / ulp
    k = int(np.argmax(err))
    check("exp(half) within 2 ulp of float64", err.max() <= 2.0, (ex[k], eo[k], want[k]))

    # Small integers: every partial sum is exact in half, so any summation order is right.
    g = 64
    ints = rng.integers(-8, 9, g * 4).astype(np.float16)
    groups = g * 4 // 16
    s = np.empty(groups, np.float16)
    m = np.empty(groups, np.float16)
    sb = cl.Buffer(ctx, mf.WRITE_ONLY, s.nbytes)
    mb = cl.Buffer(ctx, mf.WRITE_ONLY, m.nbytes)
    prg.reduce(q, (g * 4,), (g,), buf(ints), sb, mb)
    cl.enqueue_copy(q, s, sb)
    cl.enqueue_copy(q, m, mb)
    per = ints.reshape(groups, 16)
    check("sub_group_reduce_add(half)", np.array_equal(s, per.sum(axis=1)), (s, per.sum(axis=1)))
    check("sub_group_reduce_max(half)", np.array_equal(m, per.max(axis=1)), (m, per.max(axis=1)))


if __name__ == "__main__":
    main()
