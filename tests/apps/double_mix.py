#!/usr/bin/env python3
"""Double-precision code beyond multiply-adds, timed on an OpenCL device with cl_khr_fp64. The
`mix` kernel (the default): each work-item converts a float to double, then runs 32 steps of
products with constants that are not short binary fractions (0.1, 3.3, 0.9: IGC puts them in
registers with 64-bit immediate moves), `fmin` and `fmax` (conditional `sel`s), a `?:` and a
double-to-int conversion. The `divide` kernel: 16 steps of divisions, a reciprocal and square
roots (on Gen9, IGC's math macros: `math.invm`, `math.rsqtm` and chains of `madm`). Each stores
a double, an int and a float per work-item. Every value is defined by the OpenCL C
specification for these inputs (double division and square root correctly rounded, no
out-of-range conversion, contraction off), so conforming devices store the same bits: the
script prints a digest of them beside the milliseconds of each launch, for comparing with
another implementation (PoCL, say).

  INTEL_GPU_DEVICES=sim:skl OCL_ICD_VENDORS=<dir with an .icd naming the ICD> \\
      /usr/bin/python3 tests/apps/double_mix.py [--kernel mix|divide] [--items 262144] [--runs 6]

Uses Debian's PyOpenCL (python3-pyopencl) and numpy.
"""

import argparse
import hashlib
import time

import numpy as np
import pyopencl as cl

KERNELS = {
    "mix": """
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
kernel void double_mix(global double *a, global const float *b, global int *c, global float *d) {
  size_t i = get_global_id(0);
  double x = a[i];
  double y = (double)b[i];
  int acc = 0;
  for (int s = 0; s < 32; s++) {
    x = x * 0.1 + y * 3.3;
    x = fmin(x, 2.5 + s) + fmax(y, 0.7);
    y = x > y ? y * 0.9 : x - 0.3;
    acc += (int)(x * 1000.0);
  }
  a[i] = x;
  c[i] = acc;
  d[i] = (float)y;
}
""",
    "divide": """
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
kernel void double_mix(global double *a, global const float *b, global int *c, global float *d) {
  size_t i = get_global_id(0);
  double x = a[i];
  double y = fabs((double)b[i]) + 1.0;
  for (int s = 0; s < 16; s++) {
    x = x / y + sqrt(y + s);
    y = y + 1.0 / (x * x + 1.0);
  }
  a[i] = x;
  c[i] = (int)(x * 1000.0);
  d[i] = (float)y;
}
""",
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kernel", choices=sorted(KERNELS), default="mix")
    ap.add_argument("--items", type=int, default=262144)
    ap.add_argument("--runs", type=int, default=6)
    args = ap.parse_args()
    n = args.items
    ctx = cl.Context(cl.get_platforms()[0].get_devices())
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, KERNELS[args.kernel]).build()
    rng = np.random.default_rng(1)
    a0 = rng.standard_normal(n)
    b0 = rng.standard_normal(n).astype(np.float32)
    mf = cl.mem_flags
    times = []
    for _ in range(args.runs):
        a_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a0)
        b_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b0)
        c_buf = cl.Buffer(ctx, mf.WRITE_ONLY, 4 * n)
        d_buf = cl.Buffer(ctx, mf.WRITE_ONLY, 4 * n)
        queue.finish()
        start = time.perf_counter()
        prg.double_mix(queue, (n,), None, a_buf, b_buf, c_buf, d_buf)
        queue.finish()
        times.append(time.perf_counter() - start)
    a = np.empty(n)
    c = np.empty(n, np.int32)
    d = np.empty(n, np.float32)
    for host, buf in ((a, a_buf), (c, c_buf), (d, d_buf)):
        cl.enqueue_copy(queue, host, buf)
    queue.finish()
    digest = hashlib.sha256(a.tobytes() + c.tobytes() + d.tobytes()).hexdigest()[:16]
    print("ms per launch:", " ".join(f"{t * 1000:.1f}" for t in times), "outputs", digest)


if __name__ == "__main__":
    main()
