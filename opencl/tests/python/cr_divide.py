"""PyOpenCL against the ICD: CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT. The device reports it in
CL_DEVICE_SINGLE_FP_CONFIG, so a program built with -cl-fp32-correctly-rounded-divide-sqrt
must give correctly rounded float a / b, 1 / b and sqrt(a) (OpenCL C 3.0, 7.4: 0 ulp). The
reference is numpy's float32 division and sqrt (IEEE-754, correctly rounded). Inputs: special
values, values next to powers of two (where one-ulp misses show), and random bit patterns.
Prints one line per check; exits non-zero on a mismatch."""

import sys

import numpy as np
import pyopencl as cl

SOURCE = r"""
kernel void ops(global const float* a, global const float* b, global float* o) {
    size_t i = get_global_id(0);
    o[3 * i] = a[i] / b[i];
    o[3 * i + 1] = 1.0f / b[i];
    o[3 * i + 2] = sqrt(a[i]);
}
"""


def inputs():
    rng = np.random.default_rng(0xC0DE)
    special = np.array(
        [0.0, -0.0, 1.0, -1.0, 3.0, 16777215.0, -16777215.0, 1.9999999, -1.9999999,
         np.inf, -np.inf, np.nan, 1e-45, 1.1754942e-38, 1.1754944e-38, 3.4028235e38,
         0.1, 7.0, 1e-30, 1e30],
        dtype=np.float32,
    )
    near = np.array([np.ldexp(np.float32(1), e) for e in range(-140, 128, 7)], dtype=np.float32)
    near = np.concatenate([np.nextafter(near, np.float32(0)), near, np.nextafter(near, np.float32(np.inf))])
    base = np.concatenate([special, near.astype(np.float32)])
    a = np.repeat(base, len(base)).astype(np.float32)
    b = np.tile(base, len(base)).astype(np.float32)
    ra = rng.integers(0, 2**32, 8192, dtype=np.uint64).astype(np.uint32).view(np.float32)
    rb = rng.integers(0, 2**32, 8192, dtype=np.uint64).astype(np.uint32).view(np.float32)
    return np.concatenate([a, ra]), np.concatenate([b, rb])


def same(got, want):
    return (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))


def main():
    ctx = cl.create_some_context(interactive=False)
    q = cl.CommandQueue(ctx)
    dev = ctx.devices[0]
    if not dev.single_fp_config & cl.device_fp_config.CORRECTLY_ROUNDED_DIVIDE_SQRT:
        print("FAIL CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT not reported")
        sys.exit(1)
    print("ok   CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT reported")
    prg = cl.Program(ctx, SOURCE).build(options=["-cl-fp32-correctly-rounded-divide-sqrt"])
    a, b = inputs()
    mf = cl.mem_flags
    da = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    db = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
    out = np.empty(3 * len(a), dtype=np.float32)
    do = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
    prg.ops(q, (len(a),), None, da, db, do)
    cl.enqueue_copy(q, out, do)
    with np.errstate(all="ignore"):
        wants = [a / b, np.float32(1) / b, np.sqrt(a)]
    bad = 0
    for k, (name, want) in enumerate(zip(["a / b", "1 / b", "sqrt(a)"], wants)):
        got = out[k::3]
        ok = same(got, want.astype(np.float32))
        if ok.all():
            print(f"ok   {name} correctly rounded on {len(a)} inputs")
        else:
            i = int(np.flatnonzero(~ok)[0])
            print(f"FAIL {name}: {(~ok).sum()} of {len(a)} differ, first a={a[i]!r} b={b[i]!r}: "
                  f"got {got[i]!r} ({got[i].view(np.uint32):#x}), want {want[i]!r}")
            bad += 1
    sys.exit(1 if bad else 0)


main()
