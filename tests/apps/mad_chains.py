#!/usr/bin/env python3
"""Arithmetic throughput of dependent multiply-add chains on an OpenCL device, in the shape of
clpeak's single-precision compute test (Debian's `clpeak`, whose default run sizes each launch
from the device's compute units: hours on a simulator): each work-item runs two values through
4,096 floating-point operations, each `mad` reading the one before it, for float (one chain)
and float4 (four), and stores the result, which depends on the local id alone. Prints GFLOPS
(2 per `mad`, as clpeak counts) of the best of --runs timed launches after one untimed one,
and checks that every work-group stored the same values as the first. With --double the
chains are of doubles (clpeak's `--compute-dp` shape; the device must have cl_khr_fp64).

  INTEL_GPU_DEVICES=sim:tgllp OCL_ICD_VENDORS=<dir with an .icd naming the ICD> \\
      /usr/bin/python3 tests/apps/mad_chains.py [--items 262144] [--runs 3] [--double]

Uses Debian's PyOpenCL (python3-pyopencl) and numpy.
"""

import argparse
import sys
import time

import numpy as np
import pyopencl as cl

# 64 passes of 32 dependent `mad`s: 2,048 `mad`s, 4,096 flops per work-item and lane. `real`
# is float or double.
KERNEL = """
#ifdef DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
typedef double4 real4;
#else
typedef float real;
typedef float4 real4;
#endif
#define STEP(x, y) x = mad(y, x, y); y = mad(x, y, x);
#define STEP8(x, y) STEP(x, y) STEP(x, y) STEP(x, y) STEP(x, y) \\
                    STEP(x, y) STEP(x, y) STEP(x, y) STEP(x, y)
__kernel void chain1(__global real *out, real a) {
    real x = a, y = (real)get_local_id(0) * (real)1e-3f;
    for (int i = 0; i < 64; i++) { STEP8(x, y) STEP8(x, y) }
    out[get_global_id(0)] = y;
}
__kernel void chain4(__global real *out, real a) {
    real4 x = (real4)(a, a + (real)1e-3f, a + (real)2e-3f, a + (real)3e-3f);
    real4 y = (real4)((real)get_local_id(0) * (real)1e-3f);
    for (int i = 0; i < 16; i++) { STEP8(x, y) STEP8(x, y) }
    out[get_global_id(0)] = y.x + y.y + y.z + y.w;
}
"""
A = 0.999
LOCAL = 256


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--items", type=int, default=262144, help="work-items per launch")
    ap.add_argument("--runs", type=int, default=3, help="timed launches per kernel")
    ap.add_argument("--double", action="store_true", help="chains of doubles")
    a = ap.parse_args()
    real = np.float64 if a.double else np.float32
    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, KERNEL).build("-DDOUBLE" if a.double else "")
    out = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, a.items * np.dtype(real).itemsize)
    ok = True
    for kind in ("chain1", "chain4"):
        k = getattr(prog, kind)
        best = None
        for _ in range(a.runs + 1):
            t = time.perf_counter()
            k(queue, (a.items,), (LOCAL,), out, real(A))
            queue.finish()
            dt = time.perf_counter() - t
            best = dt if best is None else min(best, dt)
        got = np.empty(a.items, dtype=real)
        cl.enqueue_copy(queue, got, out)
        rows = got.reshape(-1, LOCAL)
        same = (rows == rows[0]) | (np.isnan(rows) & np.isnan(rows[0]))
        if not same.all():
            group = int(np.argmin(same.all(axis=1)))
            print(f"{kind}: work-group {group} differs from work-group 0")
            ok = False
        name = kind + (" double" if a.double else "")
        print(f"{ctx.devices[0].name}: {name}: {a.items * 4096 / best / 1e9:.2f} GFLOPS "
              f"({best * 1e3:.1f} ms a launch)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
