"""PyOpenCL against an OpenCL runtime: cl_intel_packed_yuv. The device must list it (else the
script prints "absent" and checks nothing). Expected values come from the extension's text:
- CL_YUYV_INTEL, CL_UYVY_INTEL, CL_YVYU_INTEL and CL_VYUY_INTEL (0x4076..0x4079) with
  CL_UNORM_INT8 are "Additional Required Image Formats for Read-Only 2D Images": listed for
  read-only 2D images;
- a texel pair is four bytes, in the order the name spells: YUYV is Y(N) U(N) Y(N+1) V(N), UYVY
  U Y V Y, YVYU Y V Y U, VYUY V Y U Y; image_width counts Y samples (pixels) and must be even;
- read_imagef returns "(V, Y, U, 1.0)": pixel N and N+1 share U and V, each has its own Y; the
  values are UNORM_INT8, v / 255;
- the host commands' x origin and width "must be even".
Also checked: the image's element size (two bytes a pixel, as NEO reports it), host round trips
of whole images and of regions, fills (the colour as kernels read it, (V, Y, U, A)), media
block reads of the raw bytes, and the errors for an odd width, an odd origin or region, another
channel type, a 3D image and kernel-writable flags (OpenCL 3.0: formats not supported for
them). Prints one line
per check; exits non-zero when any fails."""

import numpy as np
import pyopencl as cl
from checks import check, close, code_of, finish

# cl_ext.h
CL_YUYV_INTEL, CL_UYVY_INTEL, CL_YVYU_INTEL, CL_VYUY_INTEL = 0x4076, 0x4077, 0x4078, 0x4079

# Order name, value, and the byte of (Y of the even pixel, U, Y of the odd pixel, V) in a pair.
FORMATS = [
    ("YUYV", CL_YUYV_INTEL, (0, 1, 2, 3)),
    ("UYVY", CL_UYVY_INTEL, (1, 0, 3, 2)),
    ("YVYU", CL_YVYU_INTEL, (0, 3, 2, 1)),
    ("VYUY", CL_VYUY_INTEL, (1, 2, 3, 0)),
]

SOURCE = r"""
kernel void read_int(read_only image2d_t img, global float4* out) {
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_global_size(0) + x] = read_imagef(img, (int2)(x, y));
}

kernel void read_with(read_only image2d_t img, sampler_t s, global const float2* coords,
                      global float4* out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, coords[i]);
}

kernel void read_normalized(read_only image2d_t img, sampler_t s, global float4* out) {
    int x = get_global_id(0), y = get_global_id(1);
    float2 c = (float2)((x + 0.5f) / get_image_width(img), (y + 0.5f) / get_image_height(img));
    out[y * get_global_size(0) + x] = read_imagef(img, s, c);
}

kernel void sizes(read_only image2d_t img, global int* out) {
    out[0] = get_image_width(img);
    out[1] = get_image_height(img);
}

// One sub-group reads a row's first DWords: the raw bytes (x in bytes).
__attribute__((intel_reqd_sub_group_size(8)))
kernel void block(read_only image2d_t img, global uint* out) {
    int y = get_group_id(1);
    uint v = intel_sub_group_block_read(img, (int2)(0, y));
    out[y * 8 + get_sub_group_local_id()] = v;
}
"""


def expected(pairs, layout):
    """read_imagef's (V, Y, U, 1.0) per pixel of `pairs` (rows of 4-byte pairs, uint8)."""
    y0, u, y1, v = (pairs[:, :, k].astype(np.float32) / np.float32(255.0) for k in layout)
    h, n = y0.shape
    out = np.ones((h, 2 * n, 4), np.float32)
    out[:, 0::2, 0] = v
    out[:, 1::2, 0] = v
    out[:, 0::2, 1] = y0
    out[:, 1::2, 1] = y1
    out[:, 0::2, 2] = u
    out[:, 1::2, 2] = u
    return out


def main():
    dev = cl.get_platforms()[0].get_devices()[0]
    if "cl_intel_packed_yuv" not in dev.extensions.split():
        print("absent: the device does not list cl_intel_packed_yuv")
        return
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    mf = cl.mem_flags
    mt = cl.mem_object_type
    unorm8 = cl.channel_type.UNORM_INT8
    yuv = {(value, unorm8) for _, value, _ in FORMATS}

    def listed(flags, it):
        return {(f.channel_order, f.channel_data_type)
                for f in cl.get_supported_image_formats(ctx, flags, it)}

    got = listed(mf.READ_ONLY, mt.IMAGE2D)
    check(yuv <= got, "packed YUV formats listed for read-only 2D images", yuv - got)
    for flags, fname in ((mf.WRITE_ONLY, "write-only"), (mf.READ_WRITE, "read-write")):
        check(not (yuv & listed(flags, mt.IMAGE2D)), f"none listed for {fname} 2D images")
    for it, tname in ((mt.IMAGE1D, "1D"), (mt.IMAGE2D_ARRAY, "2D array"), (mt.IMAGE3D, "3D")):
        check(not (yuv & listed(mf.READ_ONLY, it)), f"none listed for read-only {tname} images")

    prg = cl.Program(ctx, SOURCE).build()
    rng = np.random.default_rng(422)
    w, h = 16, 5
    n = w // 2
    for name, value, layout in FORMATS:
        fmt = cl.ImageFormat(value, unorm8)
        pairs = rng.integers(0, 256, (h, n, 4), dtype=np.uint8)
        img = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(w, h), hostbuf=pairs)
        check(img.get_image_info(cl.image_info.ELEMENT_SIZE) == 2,
              f"{name}: CL_IMAGE_ELEMENT_SIZE 2")
        f = img.get_image_info(cl.image_info.FORMAT)
        check((f.channel_order, f.channel_data_type) == (value, unorm8),
              f"{name}: CL_IMAGE_FORMAT")
        check(img.get_image_info(cl.image_info.WIDTH) == w, f"{name}: CL_IMAGE_WIDTH {w}")
        back = np.zeros_like(pairs)
        cl.enqueue_copy(q, back, img, origin=(0, 0), region=(w, h))
        check(np.array_equal(back, pairs), f"{name}: host round trip")

        want = expected(pairs, layout)
        out = np.zeros((h, w, 4), np.float32)
        obuf = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
        prg.read_int(q, (w, h), None, img, obuf)
        cl.enqueue_copy(q, out, obuf)
        check(close(out, want), f"{name}: read_imagef(int2) is (V, Y, U, 1.0)",
              f"\n got {out[0, :2]}\nwant {want[0, :2]}")

        sizes = np.zeros(2, np.int32)
        sbuf = cl.Buffer(ctx, mf.WRITE_ONLY, sizes.nbytes)
        prg.sizes(q, (1,), None, img, sbuf)
        cl.enqueue_copy(q, sizes, sbuf)
        check(list(sizes) == [w, h], f"{name}: get_image_width/height", sizes)

        # A nearest sampler at unnormalized coordinates inside and past the edges.
        m = 64
        coords = np.stack([rng.integers(-6, 4 * w + 6, m) / 4.0,
                           rng.integers(-6, 4 * h + 6, m) / 4.0], 1).astype(np.float32)
        cbuf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=coords)
        rbuf = cl.Buffer(ctx, mf.WRITE_ONLY, 16 * m)
        got = np.zeros((m, 4), np.float32)
        near = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.NEAREST)
        prg.read_with(q, (m,), None, img, near, cbuf, rbuf)
        cl.enqueue_copy(q, got, rbuf)
        ix = np.clip(np.floor(coords[:, 0]).astype(int), 0, w - 1)
        iy = np.clip(np.floor(coords[:, 1]).astype(int), 0, h - 1)
        check(close(got, want[iy, ix]), f"{name}: read_imagef nearest sampler, clamp to edge")

        # Normalized coordinates at the pixels' centres.
        norm = cl.Sampler(ctx, True, cl.addressing_mode.REPEAT, cl.filter_mode.NEAREST)
        prg.read_normalized(q, (w, h), None, img, norm, obuf)
        cl.enqueue_copy(q, out, obuf)
        check(close(out, want), f"{name}: read_imagef normalized nearest sampler")

        # Media block reads see the bytes as stored.
        raw = np.zeros((h, 8), np.uint32)
        bbuf = cl.Buffer(ctx, mf.WRITE_ONLY, raw.nbytes)
        prg.block(q, (8, h), (8, 1), img, bbuf)
        cl.enqueue_copy(q, raw, bbuf)
        check(np.array_equal(raw, pairs.view(np.uint32).reshape(h, n)),
              f"{name}: intel_sub_group_block_read reads the stored bytes")

        # A region written and read back at an even origin and width.
        part = rng.integers(0, 256, (2, 3, 4), dtype=np.uint8)
        cl.enqueue_copy(q, img, part, origin=(4, 1), region=(6, 2))
        pairs[1:3, 2:5] = part
        cl.enqueue_copy(q, back, img, origin=(0, 0), region=(w, h))
        check(np.array_equal(back, pairs), f"{name}: region write at x 4, width 6")
        sub = np.zeros((3, 2, 4), np.uint8)
        cl.enqueue_copy(q, sub, img, origin=(2, 2), region=(4, 3))
        check(np.array_equal(sub, pairs[2:5, 1:3]), f"{name}: region read at x 2, width 4")

        # A fill: the colour as a kernel reads it, (V, Y, U, A), so both pixels of a pair get
        # its Y (UNORM_INT8: round(c * 255)).
        vyu = np.array([0.25, 0.5, 0.75, 1.0], np.float32)
        cl.enqueue_fill_image(q, img, vyu, origin=(2, 3), region=(4, 2))
        vb, yb, ub = (int(np.rint(c * np.float32(255.0))) for c in vyu[:3])
        for k, b in zip(layout, (yb, ub, yb, vb)):
            pairs[3:5, 1:3, k] = b
        cl.enqueue_copy(q, back, img, origin=(0, 0), region=(w, h))
        check(np.array_equal(back, pairs), f"{name}: fill at x 2, width 4 with (V, Y, U, A)",
              f"\n got {back[3, :4]}\nwant {pairs[3, :4]}")

        # The host commands' x origin and width must be even.
        small = np.zeros((1, 2, 4), np.uint8)
        for origin, region, what in (((1, 0), (4, 1), "odd x origin"),
                                     ((0, 0), (3, 1), "odd width")):
            code = code_of(lambda: cl.enqueue_copy(q, small, img, origin=origin,
                                                   region=region))
            check(code == cl.status_code.INVALID_VALUE,
                  f"{name}: read with an {what}: CL_INVALID_VALUE", code)

    fmt = cl.ImageFormat(CL_YUYV_INTEL, unorm8)
    code = code_of(lambda: cl.Image(ctx, mf.READ_ONLY, fmt, shape=(15, 4)))
    check(code == cl.status_code.INVALID_IMAGE_DESCRIPTOR,
          "odd width: CL_INVALID_IMAGE_DESCRIPTOR", code)
    code = code_of(lambda: cl.Image(ctx, mf.READ_ONLY,
                                    cl.ImageFormat(CL_YUYV_INTEL, cl.channel_type.UNORM_INT16),
                                    shape=(16, 4)))
    check(code == cl.status_code.INVALID_IMAGE_FORMAT_DESCRIPTOR,
          "YUYV with UNORM_INT16: CL_INVALID_IMAGE_FORMAT_DESCRIPTOR", code)
    # Other image types and kernel-writable images: formats not listed for them.
    code = code_of(lambda: cl.Image(ctx, mf.READ_ONLY, fmt, shape=(16, 4, 2)))
    check(code == cl.status_code.IMAGE_FORMAT_NOT_SUPPORTED,
          "a 3D image: CL_IMAGE_FORMAT_NOT_SUPPORTED", code)
    # Kernels may only read them: the format is not one of read-write images.
    code = code_of(lambda: cl.Image(ctx, mf.READ_WRITE, fmt, shape=(16, 4)))
    check(code == cl.status_code.IMAGE_FORMAT_NOT_SUPPORTED,
          "read-write flags: CL_IMAGE_FORMAT_NOT_SUPPORTED", code)
    finish()


main()
