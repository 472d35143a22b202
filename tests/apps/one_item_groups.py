#!/usr/bin/env python3
"""What one work-group of one work-item costs on an OpenCL device: the Khronos CTS's
test_basic imagedim kernel (read_imagef through a sampler, write_imagef) on a W x W RGBA8
image with 1 x 1 work-groups, as its `imagedim_non_pow2` sub-test runs it for about a billion
groups. Prints the minimum and median wall time per work-item of --runs timed dispatches
after one untimed one, and checks the copy.

  INTEL_GPU_DEVICES=sim:tgllp OCL_ICD_VENDORS=<dir with an .icd naming the ICD> \\
      /usr/bin/python3 tests/apps/one_item_groups.py [--size 767] [--local 1 1] [--runs 6]

Uses Debian's PyOpenCL (python3-pyopencl) and numpy.
"""

import argparse
import sys
import time

import numpy as np
import pyopencl as cl

KERNEL = """
__kernel void test_image_dim(read_only image2d_t srcimg, write_only image2d_t dstimg,
                             sampler_t sampler)
{
    int tid_x = get_global_id(0);
    int tid_y = get_global_id(1);
    float4 color = read_imagef(srcimg, sampler, (int2)(tid_x, tid_y));
    write_imagef(dstimg, (int2)(tid_x, tid_y), color);
}
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=767, help="image width and height")
    ap.add_argument("--local", type=int, nargs=2, default=[1, 1], help="work-group size")
    ap.add_argument("--runs", type=int, default=6, help="timed dispatches")
    a = ap.parse_args()

    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    kernel = cl.Program(ctx, KERNEL).build().test_image_dim
    w = h = a.size
    fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNORM_INT8)
    src = np.random.default_rng(1).integers(0, 256, (h, w, 4), dtype=np.uint8)
    mf = cl.mem_flags
    src_img = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(w, h), hostbuf=src)
    dst_img = cl.Image(ctx, mf.WRITE_ONLY, fmt, shape=(w, h))
    sampler = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.NEAREST)

    times = []
    for _ in range(a.runs + 1):
        t = time.perf_counter()
        kernel(queue, (w, h), tuple(a.local), src_img, dst_img, sampler)
        queue.finish()
        times.append(time.perf_counter() - t)
    times = sorted(times[1:])
    out = np.empty_like(src)
    cl.enqueue_copy(queue, out, dst_img, origin=(0, 0), region=(w, h))
    same = bool((out == src).all())
    per = [s / (w * h) * 1e9 for s in (times[0], times[len(times) // 2])]
    print(
        f"{w}x{h}, local {a.local[0]}x{a.local[1]}: min {per[0]:.0f} ns, median {per[1]:.0f} ns "
        f"per work-item; copy {'matches' if same else 'DIFFERS'}"
    )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
