"""PyOpenCL against the ICD: CL_MEM_USE_HOST_PTR images of every type (1D, 1D array, 2D,
2D array, 3D) over numpy memory with padded row and slice pitches. A kernel reads one such
image with read_imageui and writes another with write_imageui; after clFinish the
application's memory holds what the kernel wrote (OpenCL 3.0, 5.3.1: the host memory is the
image's storage), the padding between rows and slices is untouched, and CL_IMAGE_ROW_PITCH
and CL_IMAGE_SLICE_PITCH are the application's. Two layouts per type: one the
surface state describes (element-aligned base, layers a multiple of 4 rows apart: zero-copy)
and one it does not (base 4 bytes off the element size, 7 rows per layer: a device copy);
both must look the same to the application. References are numpy's. Prints one line per
check; exits non-zero if any failed."""

import numpy as np
import pyopencl as cl
from checks import check, finish

SOURCE = r"""
#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable
uint4 f(uint4 v, int x, int y, int s) { return v * 3 + (uint4)(x, y, s, x + y + s); }

kernel void op_1d(read_only image1d_t a, write_only image1d_t b) {
    int x = get_global_id(0);
    write_imageui(b, x, f(read_imageui(a, x), x, 0, 0));
}
kernel void op_1da(read_only image1d_array_t a, write_only image1d_array_t b) {
    int2 c = (int2)(get_global_id(0), get_global_id(1));
    write_imageui(b, c, f(read_imageui(a, c), c.x, 0, c.y));
}
kernel void op_2d(read_only image2d_t a, write_only image2d_t b) {
    int2 c = (int2)(get_global_id(0), get_global_id(1));
    write_imageui(b, c, f(read_imageui(a, c), c.x, c.y, 0));
}
kernel void op_2da(read_only image2d_array_t a, write_only image2d_array_t b) {
    int4 c = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    write_imageui(b, c, f(read_imageui(a, c), c.x, c.y, c.z));
}
kernel void op_3d(read_only image3d_t a, write_only image3d_t b) {
    int4 c = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    write_imageui(b, c, f(read_imageui(a, c), c.x, c.y, c.z));
}
"""

ELEM = 8  # RGBA, UNSIGNED_INT16
SENTINEL = 0xAB


class HostImage:
    """Numpy memory holding a (slices, rows, width, 4) uint16 image at the given pitches,
    starting `skew` bytes into its allocation; padding bytes are SENTINEL."""

    def __init__(self, slices, rows, width, row_pitch, slice_pitch, skew):
        self.shape = (slices, rows, width, 4)
        self.span = (slices - 1) * slice_pitch + (rows - 1) * row_pitch + width * ELEM
        self.raw = np.full(self.span + skew + 64, SENTINEL, np.uint8)
        self.mem = self.raw[skew:skew + self.span]
        self.row_pitch, self.slice_pitch = row_pitch, slice_pitch

    def values(self):
        out = np.empty(self.shape, np.uint16)
        for s in range(self.shape[0]):
            for y in range(self.shape[1]):
                at = s * self.slice_pitch + y * self.row_pitch
                out[s, y] = self.mem[at:at + self.shape[2] * ELEM].view(np.uint16).reshape(-1, 4)
        return out

    def store(self, values):
        for s in range(self.shape[0]):
            for y in range(self.shape[1]):
                at = s * self.slice_pitch + y * self.row_pitch
                self.mem[at:at + self.shape[2] * ELEM] = values[s, y].view(np.uint8).reshape(-1)

    def padding_intact(self):
        mask = np.ones(self.span, bool)
        for s in range(self.shape[0]):
            for y in range(self.shape[1]):
                at = s * self.slice_pitch + y * self.row_pitch
                mask[at:at + self.shape[2] * ELEM] = False
        return bool(np.all(self.mem[mask] == SENTINEL))

    def address(self):
        return self.mem.__array_interface__["data"][0]


def make_image(ctx, flags, kind, w, h, n, host):
    """cl.Image's wrapped constructor with a full descriptor (PyOpenCL's shape setter puts a
    1D array's layers in image_height)."""
    mt = cl.mem_object_type
    desc = cl.ImageDescriptor()
    desc.image_type = {"1d": mt.IMAGE1D, "1da": mt.IMAGE1D_ARRAY, "2d": mt.IMAGE2D,
                       "2da": mt.IMAGE2D_ARRAY, "3d": mt.IMAGE3D}[kind]
    desc.shape = {"1d": (w, 1, 1), "1da": (w, 1, n), "2d": (w, h, 1), "2da": (w, h, n),
                  "3d": (w, h, n)}[kind]
    layered = kind in ("1da", "2da", "3d")
    desc.pitches = (host.row_pitch, host.slice_pitch if layered else 0)
    desc.num_mip_levels = 0
    desc.num_samples = 0
    desc.buffer = None
    wrapped = [c.cell_contents for c in cl.Image.__init__.__closure__
               if callable(c.cell_contents)]
    img = cl.Image.__new__(cl.Image)
    fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT16)
    wrapped[0](img, ctx, flags | cl.mem_flags.USE_HOST_PTR, fmt, desc, host.mem)
    return img


def run(ctx, q, prg, rng, kind, layout):
    w, h, n = 17, 6, 3
    rows = h if kind in ("2d", "2da", "3d") else 1
    slices = n if kind in ("1da", "2da", "3d") else 1
    row_pitch = w * ELEM + 24
    if layout == "surface":
        # Element-aligned base; layers 8 rows (1D arrays: 20 texels) apart.
        skew, slice_pitch = 0, row_pitch * (8 if rows > 1 else 1)
    else:
        # Base 4 bytes off the element size; layers 7 rows (1D arrays: 2 rows) apart.
        skew, slice_pitch = 4, row_pitch * (7 if rows > 1 else 2)
    src = HostImage(slices, rows, w, row_pitch, slice_pitch, skew)
    dst = HostImage(slices, rows, w, row_pitch, slice_pitch, skew)
    vals = rng.integers(0, 1000, src.shape, dtype=np.uint16)
    src.store(vals)
    mf = cl.mem_flags
    a = make_image(ctx, mf.READ_ONLY, kind, w, h, n, src)
    b = make_image(ctx, mf.WRITE_ONLY, kind, w, h, n, dst)
    what = f"{kind} {layout}"
    got_pitch = (b.get_image_info(cl.image_info.ROW_PITCH),
                 b.get_image_info(cl.image_info.SLICE_PITCH))
    want_pitch = (row_pitch, slice_pitch if slices > 1 or kind == "1da" else 0)
    check(got_pitch == want_pitch, f"{what}: CL_IMAGE_ROW/SLICE_PITCH are the application's",
          (got_pitch, want_pitch))
    global_size = {"1d": (w,), "1da": (w, n), "2d": (w, h), "2da": (w, h, n),
                   "3d": (w, h, n)}[kind]
    getattr(prg, f"op_{kind}")(q, global_size, None, a, b)
    q.finish()
    x = np.arange(w).reshape(1, 1, w)
    y = np.arange(rows).reshape(1, rows, 1)
    s = np.arange(slices).reshape(slices, 1, 1)  # a 1D array's layer is its slice
    want = vals.astype(np.uint32) * 3
    for c, add in enumerate((x, y, s, x + y + s)):
        want[..., c] += np.broadcast_to(add, want.shape[:3]).astype(np.uint32)
    got = dst.values()
    check(np.array_equal(got, want.astype(np.uint16)),
          f"{what}: kernel's writes in host memory after clFinish",
          np.argwhere(got != want.astype(np.uint16))[:4])
    check(dst.padding_intact() and src.padding_intact(), f"{what}: padding untouched")
    check(np.array_equal(src.values(), vals), f"{what}: read-only source unchanged")

    # The application changes its memory between kernels (not in use): the next kernel
    # reads the new texels.
    vals2 = (vals + 7).astype(np.uint16)
    src.store(vals2)
    getattr(prg, f"op_{kind}")(q, global_size, None, a, b)
    q.finish()
    want2 = want + 21
    check(np.array_equal(dst.values(), want2.astype(np.uint16)),
          f"{what}: a second kernel sees the host's new texels")

    # A host read of the image sees the host memory; a map returns a pointer into it with
    # the application's pitches.
    region = {"1d": (w, 1, 1), "1da": (w, n, 1), "2d": (w, h, 1), "2da": (w, h, n),
              "3d": (w, h, n)}[kind]
    back = np.zeros(region[::-1] + (4,), np.uint16)
    cl._cl._enqueue_read_image(q, b, (0, 0, 0), region, back, 0, 0, None, True)
    check(np.array_equal(back.reshape(want2.shape), want2.astype(np.uint16)),
          f"{what}: clEnqueueReadImage reads the kernel's writes")
    if kind == "2d":
        ary = cl.enqueue_map_image(q, b, cl.map_flags.READ, (1, 2), (3, 2), (2, 3, 4),
                                   np.uint16, strides=(row_pitch, ELEM, 2))[0]
        addr = ary.__array_interface__["data"][0]
        want_addr = dst.address() + 2 * row_pitch + 1 * ELEM
        check(addr == want_addr, f"{what}: clEnqueueMapImage points into host memory",
              (hex(addr), hex(want_addr)))
        ary.base.release(q)
        q.finish()


def main():
    ctx = cl.create_some_context(interactive=False)
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, SOURCE).build()
    rng = np.random.default_rng(15)
    for kind in ("1d", "1da", "2d", "2da", "3d"):
        for layout in ("surface", "copy"):
            run(ctx, q, prg, rng, kind, layout)
    finish()


main()
