#!/usr/bin/env python3
"""What a small dispatch costs an application on an OpenCL device, beside the kernel's own work:
a one-line kernel (each work-item adds 1 to its int) on --groups work-groups of 64, enqueued
--runs times (1) each followed by clFinish, as a program that waits for every result does,
and (2) back to back with one clFinish at the end. Prints the wall time per dispatch of each
after 50 untimed ones, and checks the buffer's final values.

  INTEL_GPU_DEVICES=sim:tgllp OCL_ICD_VENDORS=<dir with an .icd naming the ICD> \\
      /usr/bin/python3 tests/apps/dispatch_latency.py [--groups 1] [--runs 2000]

Uses Debian's PyOpenCL (python3-pyopencl) and numpy.
"""

import argparse
import sys
import time

import numpy as np
import pyopencl as cl

KERNEL = "__kernel void add_one(__global int *p) { p[get_global_id(0)] += 1; }"
LOCAL = 64
WARM = 50


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--groups", type=int, default=1, help="work-groups of 64 per dispatch")
    ap.add_argument("--runs", type=int, default=2000, help="timed dispatches of each kind")
    a = ap.parse_args()

    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    kernel = cl.Program(ctx, KERNEL).build().add_one
    n = a.groups * LOCAL
    host = np.zeros(n, dtype=np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
    kernel.set_arg(0, buf)

    def one():
        cl.enqueue_nd_range_kernel(queue, kernel, (n,), (LOCAL,))

    for _ in range(WARM):
        one()
        queue.finish()
    t = time.perf_counter()
    for _ in range(a.runs):
        one()
        queue.finish()
    waited = (time.perf_counter() - t) / a.runs
    t = time.perf_counter()
    for _ in range(a.runs):
        one()
    queue.finish()
    streamed = (time.perf_counter() - t) / a.runs

    cl.enqueue_copy(queue, host, buf)
    right = bool((host == WARM + 2 * a.runs).all())
    print(
        f"{ctx.devices[0].name}: {a.groups} group(s) of {LOCAL}: enqueue + clFinish "
        f"{waited * 1e6:.1f} us, back to back {streamed * 1e6:.1f} us per dispatch; "
        f"values {'right' if right else 'WRONG'}"
    )
    return 0 if right else 1


if __name__ == "__main__":
    sys.exit(main())
