"""2D-array and 3D images through NEO, checked against numpy: for each image kind and format,
clEnqueueWriteImage of every slice, clEnqueueReadImage of the whole image and of a region at an
offset, clEnqueueWriteImage of a region at an offset, and clEnqueueCopyImage of a region between
two images at different offsets (read back whole); then read_imageui of an RGBA8 image through
a sampler, and write_imageui into a 2D array read back by a transfer. OpenCL 3.0 section 5.3.3: a region read back
is the region written; section 5.3.4: the copied region of the destination holds the source's
region, the rest of the destination what it held. Prints one line per check ("ok   <kind>
<format> <check>"); exits non-zero on a mismatch. `python3 neo_image_slices.py [array|3d ...]`."""

import sys

import numpy as np
import pyopencl as cl

ctx = cl.create_some_context(interactive=False)
q = cl.CommandQueue(ctx)
mf = cl.mem_flags
ct = cl.channel_type
co = cl.channel_order
# (name, image format, numpy element type, channels): 1, 4, 8 and 16 bytes a pixel.
FORMATS = [
    ("r8ui", cl.ImageFormat(co.R, ct.UNSIGNED_INT8), np.uint8, 1),
    ("rgba8ui", cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8), np.uint8, 4),
    ("rgba16ui", cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT16), np.uint16, 4),
    ("rgba32ui", cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT32), np.uint32, 4),
]
# Width and height not multiples of any tile; slices enough to cross a QPitch of several tiles.
W, H, D = 45, 37, 6
ok = True


def check(name, same):
    global ok
    print(("ok   " if same else "FAIL ") + name, flush=True)
    ok &= bool(same)


def pattern(shape, dtype, seed):
    n = int(np.prod(shape))
    return ((np.arange(n, dtype=np.uint64) * 2654435761 + seed) % 65521).astype(dtype).reshape(shape)


def make(kind, fmt):
    if kind == "array":
        return cl.Image(ctx, mf.READ_WRITE, fmt, shape=(W, H, D), is_array=True)
    return cl.Image(ctx, mf.READ_WRITE, fmt, shape=(W, H, D))


def read(img, origin, region, dtype, ch):
    out = np.zeros((region[2], region[1], region[0], ch), dtype)
    cl.enqueue_copy(q, out, img, origin=origin, region=region).wait()
    return out


def write(img, data, origin):
    region = (data.shape[2], data.shape[1], data.shape[0])
    cl.enqueue_copy(q, img, np.ascontiguousarray(data), origin=origin, region=region).wait()


kinds = sys.argv[1:] or ["array", "3d"]
for kind in kinds:
    for fname, fmt, dtype, ch in FORMATS:
        tag = f"{kind} {fname}"
        full = pattern((D, H, W, ch), dtype, 7)
        a = make(kind, fmt)
        write(a, full, (0, 0, 0))
        check(f"{tag} write_read", (read(a, (0, 0, 0), (W, H, D), dtype, ch) == full).all())

        o, r = (5, 3, 2), (31, 29, 3)
        got = read(a, o, r, dtype, ch)
        want = full[o[2] : o[2] + r[2], o[1] : o[1] + r[1], o[0] : o[0] + r[0]]
        check(f"{tag} read_region", (got == want).all())

        patch = pattern((r[2], r[1], r[0], ch), dtype, 99)
        write(a, patch, o)
        full[o[2] : o[2] + r[2], o[1] : o[1] + r[1], o[0] : o[0] + r[0]] = patch
        check(f"{tag} write_region", (read(a, (0, 0, 0), (W, H, D), dtype, ch) == full).all())

        b = make(kind, fmt)
        other = pattern((D, H, W, ch), dtype, 1234)
        write(b, other, (0, 0, 0))
        so, do, cr = (2, 4, 1), (9, 1, 3), (33, 30, 3)
        cl.enqueue_copy(q, b, a, src_origin=so, dest_origin=do, region=cr).wait()
        other[do[2] : do[2] + cr[2], do[1] : do[1] + cr[1], do[0] : do[0] + cr[0]] = full[
            so[2] : so[2] + cr[2], so[1] : so[1] + cr[1], so[0] : so[0] + cr[0]
        ]
        check(f"{tag} copy_image", (read(b, (0, 0, 0), (W, H, D), dtype, ch) == other).all())

# Kernels on the same slices (RGBA8): read_imageui through a sampler of an image the copy engine
# (dg2) or a built-in kernel wrote, and write_imageui of a function of (x, y, z) read back by a
# transfer, so transfers and kernels must agree on where each slice lies.
prg = cl.Program(
    ctx,
    """
const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
#define AT (((int)get_global_id(2) * H + (int)get_global_id(1)) * W + (int)get_global_id(0))
#define XYZ (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0)
__kernel void rd_array(read_only image2d_array_t img, __global uint4 *o, int W, int H) {
    o[AT] = read_imageui(img, s, XYZ);
}
__kernel void rd_3d(read_only image3d_t img, __global uint4 *o, int W, int H) {
    o[AT] = read_imageui(img, s, XYZ);
}
__kernel void wr_array(write_only image2d_array_t img) {
    int4 c = XYZ;
    write_imageui(img, c, (uint4)(c.x, c.y, c.z, (c.x * 3 + c.y * 5 + c.z * 7) & 0xff));
}
""",
).build()
fname, fmt, dtype, ch = FORMATS[1]
for kind in kinds:
    full = pattern((D, H, W, ch), dtype, 5)
    img = make(kind, fmt)
    write(img, full, (0, 0, 0))
    ob = cl.Buffer(ctx, mf.WRITE_ONLY, W * H * D * 16)
    rd = prg.rd_array if kind == "array" else prg.rd_3d
    rd(q, (W, H, D), None, img, ob, np.int32(W), np.int32(H))
    got = np.empty((D, H, W, 4), np.uint32)
    cl.enqueue_copy(q, got, ob).wait()
    check(f"{kind} {fname} read_imageui", (got == full).all())
    if kind == "array":
        prg.wr_array(q, (W, H, D), None, img)
        z, y, x = np.mgrid[0:D, 0:H, 0:W]
        want = np.stack([x, y, z, (x * 3 + y * 5 + z * 7) & 0xFF], axis=-1).astype(dtype)
        check(f"{kind} {fname} write_imageui", (read(img, (0, 0, 0), (W, H, D), dtype, ch) == want).all())
sys.exit(0 if ok else 1)
