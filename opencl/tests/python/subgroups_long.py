"""PyOpenCL against the ICD: cl_intel_subgroups_long. The device must list it. ulong sub-group
block reads and writes (`_ul`, `_ul2`, `_ul4`, `_ul8`) on buffers and 2D images, and the `_ui`
aliases of the uint ones, at SIMD8 and SIMD16, checked against the layout the extension gives
(buffer: element k of work-item i is p[i + k * sub-group size]; image: row y + k, bytes
x + 8 * i). Prints one line per check; exits non-zero on the first mismatch."""

import sys

import numpy as np
import pyopencl as cl

SOURCE = r"""
#pragma OPENCL EXTENSION cl_intel_subgroups_long : enable

#define BUF(N, SUF, T)                                                                       \
__attribute__((intel_reqd_sub_group_size(SG)))                                              \
kernel void buf##N(global const ulong* in, global ulong* out, global uint* in32,           \
                   global uint* out32) {                                                    \
    size_t base = get_group_id(0) * get_local_size(0) * N                                   \
                + get_sub_group_id() * get_sub_group_size() * N;                            \
    T v = intel_sub_group_block_read_ul##SUF(in + base);                                    \
    intel_sub_group_block_write_ul##SUF(out + base, v);                                     \
    intel_sub_group_block_write_ui##SUF(out32 + base, intel_sub_group_block_read_ui##SUF(in32 + base)); \
}
BUF(1, , ulong)
BUF(2, 2, ulong2)
BUF(4, 4, ulong4)
BUF(8, 8, ulong8)

#define IMG(N, SUF, T)                                                                       \
__attribute__((intel_reqd_sub_group_size(SG)))                                              \
kernel void img##N(read_only image2d_t src, write_only image2d_t dst) {                     \
    int2 at = (int2)(get_group_id(0) * SG * 8, get_group_id(1) * N);                         \
    T v = intel_sub_group_block_read_ul##SUF(src, at);                                      \
    intel_sub_group_block_write_ul##SUF(dst, at, v);                                        \
}
IMG(1, , ulong)
IMG(2, 2, ulong2)
IMG(4, 4, ulong4)
IMG(8, 8, ulong8)

"""


def check(name, ok):
    print(("ok   " if ok else "FAIL ") + name, flush=True)
    if not ok:
        sys.exit(1)


def main():
    ctx = cl.create_some_context(interactive=False)
    dev = ctx.devices[0]
    q = cl.CommandQueue(ctx)
    exts = dev.extensions.split()
    check("cl_intel_subgroups_long listed", "cl_intel_subgroups_long" in exts)
    rng = np.random.default_rng(7)
    mf = cl.mem_flags
    for sg in (8, 16):
        prg = cl.Program(ctx, SOURCE).build(options=f"-DSG={sg}")
        groups, local = 3, 2 * sg
        for n in (1, 2, 4, 8):
            count = groups * local * n
            a = rng.integers(0, 2**64, size=count, dtype=np.uint64)
            a32 = rng.integers(0, 2**32, size=count, dtype=np.uint32)
            ib = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
            ob = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
            ib32 = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a32)
            ob32 = cl.Buffer(ctx, mf.WRITE_ONLY, a32.nbytes)
            getattr(prg, f"buf{n}")(q, (groups * local,), (local,), ib, ob, ib32, ob32)
            got, got32 = np.empty_like(a), np.empty_like(a32)
            cl.enqueue_copy(q, got, ob)
            cl.enqueue_copy(q, got32, ob32)
            # A block read then a block write of the same layout copies the block; a wrong
            # layout on either side scrambles it.
            check(f"SIMD{sg} buffer block read/write ul{n}", np.array_equal(got, a))
            check(f"SIMD{sg} buffer block read/write ui{n}", np.array_equal(got32, a32))
        # Buffer layout: one sub-group's ul4 read, each work-item's components written out as
        # plain stores.
        lay = cl.Program(ctx, r"""
            #pragma OPENCL EXTENSION cl_intel_subgroups_long : enable
            __attribute__((intel_reqd_sub_group_size(SG)))
            kernel void k(global const ulong* in, global ulong* out) {
                ulong4 v = intel_sub_group_block_read_ul4(in);
                size_t i = get_sub_group_local_id();
                out[i * 4 + 0] = v.s0; out[i * 4 + 1] = v.s1;
                out[i * 4 + 2] = v.s2; out[i * 4 + 3] = v.s3;
            }""").build(options=f"-DSG={sg}")
        a = rng.integers(0, 2**64, size=4 * sg, dtype=np.uint64)
        ib = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
        ob = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
        lay.k(q, (sg,), (sg,), ib, ob)
        got = np.empty_like(a)
        cl.enqueue_copy(q, got, ob)
        want = np.array([a[i + k * sg] for i in range(sg) for k in range(4)], dtype=np.uint64)
        check(f"SIMD{sg} ul4 element k of work-item i is p[i + k * {sg}]", np.array_equal(got, want))
        # Images: 8-byte texels (RGBA UNSIGNED_INT16), one block per work-group.
        fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT16)
        for n in (1, 2, 4, 8):
            gx, gy = 2, 2
            w, h = gx * sg, gy * n
            px = rng.integers(0, 2**16, size=(h, w, 4), dtype=np.uint16)
            src = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(w, h), hostbuf=px)
            dst = cl.Image(ctx, mf.WRITE_ONLY, fmt, shape=(w, h))
            getattr(prg, f"img{n}")(q, (gx * sg, gy), (sg, 1), src, dst)
            got = np.empty_like(px)
            cl.enqueue_copy(q, got, dst, origin=(0, 0), region=(w, h))
            check(f"SIMD{sg} image block read/write ul{n}", np.array_equal(got, px))
        # Image layout: element k of work-item i is the texel at row k, byte 8 * i.
        ilay = cl.Program(ctx, r"""
            #pragma OPENCL EXTENSION cl_intel_subgroups_long : enable
            __attribute__((intel_reqd_sub_group_size(SG)))
            kernel void k(read_only image2d_t src, global ulong* out) {
                ulong2 v = intel_sub_group_block_read_ul2(src, (int2)(0, 0));
                size_t i = get_sub_group_local_id();
                out[i * 2] = v.s0; out[i * 2 + 1] = v.s1;
            }""").build(options=f"-DSG={sg}")
        px = rng.integers(0, 2**16, size=(2, sg, 4), dtype=np.uint16)
        src = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(sg, 2), hostbuf=px)
        ob = cl.Buffer(ctx, mf.WRITE_ONLY, 2 * sg * 8)
        ilay.k(q, (sg,), (sg,), src, ob)
        got = np.empty(2 * sg, dtype=np.uint64)
        cl.enqueue_copy(q, got, ob)
        texels = px.view(np.uint64).reshape(2, sg)
        want = np.array([texels[k, i] for i in range(sg) for k in range(2)], dtype=np.uint64)
        check(f"SIMD{sg} image ul2 element k of work-item i is row k, texel i", np.array_equal(got, want))


if __name__ == "__main__":
    main()
