"""2D RGBA8 images through NEO, checked against numpy. Transfers: an image created from host
memory (CL_MEM_COPY_HOST_PTR) and one written with clEnqueueWriteImage, each read back with
clEnqueueReadImage. Kernels: read_imageui through a sampler and read_imagef of the UNORM_INT8
view of the same texels into buffers, and write_imageui of a function of (x, y), read back. The
image is 150 x 70 texels (600-byte rows), so rows cross tile columns in every tiled layout NEO
picks (Tile-Y, Tile-4, Tile-64). Prints one line per check; exits non-zero on a mismatch."""

import sys

import numpy as np
import pyopencl as cl

ctx = cl.create_some_context(interactive=False)
q = cl.CommandQueue(ctx)
w, h = 150, 70
src = (np.arange(w * h * 4) % 251).astype(np.uint8).reshape(h, w, 4)
mf = cl.mem_flags
ui8 = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8)
un8 = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNORM_INT8)
ok = True


def check(name, same):
    global ok
    print(("ok   " if same else "FAIL ") + name)
    ok &= bool(same)


def read_back(img):
    out = np.zeros_like(src)
    cl.enqueue_copy(q, out, img, origin=(0, 0), region=(w, h)).wait()
    return out


for mode in ("copy_host_ptr", "write_image"):
    if mode == "copy_host_ptr":
        img = cl.Image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, ui8, shape=(w, h), hostbuf=src)
    else:
        img = cl.Image(ctx, mf.READ_WRITE, ui8, shape=(w, h))
        cl.enqueue_copy(q, img, src, origin=(0, 0), region=(w, h)).wait()
    check(mode, (read_back(img) == src).all())

prg = cl.Program(
    ctx,
    """
const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
__kernel void rd_ui(read_only image2d_t img, __global uint4 *o) {
    int x = get_global_id(0), y = get_global_id(1);
    o[y * get_global_size(0) + x] = read_imageui(img, s, (int2)(x, y));
}
__kernel void rd_f(read_only image2d_t img, __global float4 *o) {
    int x = get_global_id(0), y = get_global_id(1);
    o[y * get_global_size(0) + x] = read_imagef(img, s, (int2)(x, y));
}
__kernel void wr_ui(write_only image2d_t img) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imageui(img, (int2)(x, y), (uint4)(x, y, x ^ y, (x * 3 + y * 5) & 0xff));
}
""",
).build()

img = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, ui8, shape=(w, h), hostbuf=src)
ob = cl.Buffer(ctx, mf.WRITE_ONLY, w * h * 16)
prg.rd_ui(q, (w, h), None, img, ob)
got = np.empty((h, w, 4), np.uint32)
cl.enqueue_copy(q, got, ob).wait()
check("read_imageui", (got == src).all())

img = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, un8, shape=(w, h), hostbuf=src)
prg.rd_f(q, (w, h), None, img, ob)
gotf = np.empty((h, w, 4), np.float32)
cl.enqueue_copy(q, gotf, ob).wait()
# OpenCL 1.2 section 8.3.1.1: UNORM_INT8 to float is c / 255 within 1.5 ulp.
wantf = src.astype(np.float64) / 255
check("read_imagef", (np.abs(gotf - wantf) <= 1.5 * np.spacing(wantf.astype(np.float32))).all())

img = cl.Image(ctx, mf.WRITE_ONLY, ui8, shape=(w, h))
prg.wr_ui(q, (w, h), None, img)
y, x = np.mgrid[0:h, 0:w]
want = np.stack([x, y, x ^ y, (x * 3 + y * 5) & 0xFF], axis=-1).astype(np.uint8)
check("write_imageui", (read_back(img) == want).all())
sys.exit(0 if ok else 1)
