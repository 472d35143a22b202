"""PyOpenCL against an OpenCL runtime: cl_intel_planar_yuv. The device must list it (else the
script prints "absent" and checks nothing). Expected values come from the extension's text:
- CL_NV12_INTEL (0x410E) with CL_UNORM_INT8 is in the list of 2D image formats "not required to
  be read from nor written to by a kernel" (flags CL_MEM_NO_ACCESS_INTEL); the flags must
  include CL_MEM_HOST_NO_ACCESS (else CL_INVALID_VALUE); width and height are multiples of 4 (a
  description's error) and at most CL_DEVICE_PLANAR_YUV_MAX_WIDTH_INTEL / _HEIGHT_INTEL
  (CL_INVALID_IMAGE_SIZE past them);
- the memory layout: a Y plane of width x height bytes, then a UV plane of height / 2 rows of
  interleaved U, V bytes, one pair for each 2x2 pixels, both at the row pitch; the host_ptr
  holds row_pitch * height * 3 / 2 bytes;
- read_imagef with integer coordinates returns (V, Y, U, 1.0), UNORM_INT8 (v / 255);
- clCreateImage with mem_object the NV12 image and image_depth 0 makes a CL_R image of the Y
  plane (R = Y), image_depth 1 a CL_RG image of the UV plane (R = U, G = V), width and height
  derived (width / 2, height / 2 for UV) and reported by clGetImageInfo, in CL_UNORM_INT8 or
  CL_UNSIGNED_INT8; other orders, types and planes are errors; the plane may not widen the NV12
  image's access flags (CL_INVALID_VALUE) unless it was made with
  CL_MEM_ACCESS_FLAGS_UNRESTRICTED_INTEL;
- CL_MEM_USE_HOST_PTR: the host_ptr holds the Y rows then the UV rows at image_row_pitch
  (at least the width, else CL_INVALID_IMAGE_DESCRIPTOR as for every image), which
  CL_IMAGE_ROW_PITCH reports;
- host commands on the NV12 image as a whole: "the image element size refers to an image
  element in the Y plane", so a region (within width x height, one layer) is one of Y bytes:
  copies between NV12 images, to and from buffers, and fills move the Y plane's bytes and
  leave the UV plane alone (a fill stores the colour's x, as into the Y plane's CL_R image;
  NEO does all of these so); reads, writes and maps are CL_INVALID_OPERATION (OpenCL 3.0's
  answer for CL_MEM_HOST_NO_ACCESS, which every NV12 image has); a copy to another format is
  CL_IMAGE_FORMAT_MISMATCH and a region past the Y plane or into a second layer
  CL_INVALID_VALUE;
- the layout is two planes, with no room for mip levels: a mip-mapped NV12 image is
  CL_INVALID_IMAGE_DESCRIPTOR.
The device queries' answers are printed ("info ...") for comparison with another runtime.
Prints one line per check; exits non-zero when any fails."""

import ctypes

import numpy as np
import pyopencl as cl
from checks import check, close, code_of, finish

# cl_ext.h
CL_NV12_INTEL = 0x410E
CL_MEM_NO_ACCESS_INTEL = 1 << 24
CL_MEM_ACCESS_FLAGS_UNRESTRICTED_INTEL = 1 << 25
CL_DEVICE_PLANAR_YUV_MAX_WIDTH_INTEL = 0x417E
CL_DEVICE_PLANAR_YUV_MAX_HEIGHT_INTEL = 0x417F

SOURCE = r"""
kernel void read_int(read_only image2d_t img, global float4* out) {
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_global_size(0) + x] = read_imagef(img, (int2)(x, y));
}

kernel void read_sampled(read_only image2d_t img, sampler_t s, global float4* out) {
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_global_size(0) + x] = read_imagef(img, s, (int2)(x, y));
}

kernel void read_ui(read_only image2d_t img, global uint4* out) {
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_global_size(0) + x] = read_imageui(img, (int2)(x, y));
}

kernel void sizes(read_only image2d_t img, global int* out) {
    out[0] = get_image_width(img);
    out[1] = get_image_height(img);
}

kernel void write_y(write_only image2d_t y_plane, global const uchar* y) {
    int x = get_global_id(0), r = get_global_id(1);
    write_imagef(y_plane, (int2)(x, r), (float4)(y[r * get_global_size(0) + x] / 255.0f));
}

kernel void write_uv(write_only image2d_t uv_plane, global const uchar2* uv) {
    int x = get_global_id(0), r = get_global_id(1);
    uchar2 c = uv[r * get_global_size(0) + x];
    write_imageui(uv_plane, (int2)(x, r), (uint4)(c.x, c.y, 0, 0));
}
"""

# The descriptor-taking constructor cl.Image.__init__ wraps: takes any description, a memory
# object (image or buffer) and a host buffer.
_WRAPPED = [c.cell_contents for c in cl.Image.__init__.__closure__ if callable(c.cell_contents)]


def image(ctx, flags, fmt, shape, mem=None, hostbuf=None, pitch=0, levels=0):
    """A 2D image of `shape` (width, height, depth) from `mem` or with `hostbuf` (its rows
    `pitch` bytes apart), of `levels` mip levels."""
    desc = cl.ImageDescriptor()
    desc.image_type = cl.mem_object_type.IMAGE2D
    desc.shape = shape
    desc.pitches = (pitch, 0)
    desc.num_mip_levels = levels
    desc.num_samples = 0
    desc.buffer = mem
    img = cl.Image.__new__(cl.Image)
    _WRAPPED[0](img, ctx, flags, fmt, desc, hostbuf)
    return img


def size_info(dev, param):
    """A size_t clGetDeviceInfo answer PyOpenCL has no name for, through the ICD loader."""
    lib = ctypes.CDLL("libOpenCL.so.1")
    value = ctypes.c_size_t(0)
    status = lib.clGetDeviceInfo(ctypes.c_void_p(dev.int_ptr), ctypes.c_uint(param),
                                 ctypes.c_size_t(ctypes.sizeof(value)), ctypes.byref(value),
                                 None)
    return value.value if status == 0 else f"error {status}"


def expected(y, uv):
    """read_imagef's (V, Y, U, 1.0) for each pixel of the planes."""
    h, w = y.shape
    out = np.ones((h, w, 4), np.float32)
    # Each U, V pair for its 2x2 pixels.
    u = np.repeat(np.repeat(uv[:, :, 0], 2, 0), 2, 1).astype(np.float32) / np.float32(255.0)
    v = np.repeat(np.repeat(uv[:, :, 1], 2, 0), 2, 1).astype(np.float32) / np.float32(255.0)
    out[:, :, 0] = v
    out[:, :, 1] = y.astype(np.float32) / np.float32(255.0)
    out[:, :, 2] = u
    return out


def main():
    dev = cl.get_platforms()[0].get_devices()[0]
    if "cl_intel_planar_yuv" not in dev.extensions.split():
        print("absent: the device does not list cl_intel_planar_yuv")
        return
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    mf = cl.mem_flags
    mt = cl.mem_object_type
    unorm8 = cl.channel_type.UNORM_INT8
    uint8 = cl.channel_type.UNSIGNED_INT8
    nv12 = cl.ImageFormat(CL_NV12_INTEL, unorm8)

    max_w = size_info(dev, CL_DEVICE_PLANAR_YUV_MAX_WIDTH_INTEL)
    max_h = size_info(dev, CL_DEVICE_PLANAR_YUV_MAX_HEIGHT_INTEL)
    print(f"info CL_DEVICE_PLANAR_YUV_MAX_WIDTH_INTEL {max_w}")
    print(f"info CL_DEVICE_PLANAR_YUV_MAX_HEIGHT_INTEL {max_h}")
    sizes_known = isinstance(max_w, int) and isinstance(max_h, int)
    check(sizes_known and max_w >= 4 and max_h >= 4, "planar YUV maximum sizes", (max_w, max_h))
    if not sizes_known:
        max_h = 16384

    def listed(flags, it):
        return {(f.channel_order, f.channel_data_type)
                for f in cl.get_supported_image_formats(ctx, flags, it)}

    key = (CL_NV12_INTEL, unorm8)
    check(key in listed(CL_MEM_NO_ACCESS_INTEL, mt.IMAGE2D),
          "NV12 listed for CL_MEM_NO_ACCESS_INTEL 2D images")
    check(key in listed(mf.READ_ONLY, mt.IMAGE2D), "NV12 listed for read-only 2D images")
    for flags, fname in ((mf.WRITE_ONLY, "write-only"), (mf.READ_WRITE, "read-write")):
        check(key not in listed(flags, mt.IMAGE2D), f"NV12 not listed for {fname} 2D images")
    for it, tname in ((mt.IMAGE1D, "1D"), (mt.IMAGE2D_ARRAY, "2D array"), (mt.IMAGE3D, "3D")):
        check(key not in listed(mf.READ_ONLY, it), f"NV12 not listed for {tname} images")

    prg = cl.Program(ctx, SOURCE).build()
    rng = np.random.default_rng(420)
    w, h = 16, 8
    y = rng.integers(0, 256, (h, w), dtype=np.uint8)
    uv = rng.integers(0, 256, (h // 2, w // 2, 2), dtype=np.uint8)
    host = np.concatenate([y.reshape(-1), uv.reshape(-1)])
    want = expected(y, uv)

    ro = mf.READ_ONLY | mf.HOST_NO_ACCESS
    img = image(ctx, ro | mf.COPY_HOST_PTR, nv12, (w, h), hostbuf=host)
    check(img.get_image_info(cl.image_info.WIDTH) == w
          and img.get_image_info(cl.image_info.HEIGHT) == h, "NV12: CL_IMAGE_WIDTH/HEIGHT")
    f = img.get_image_info(cl.image_info.FORMAT)
    check((f.channel_order, f.channel_data_type) == key, "NV12: CL_IMAGE_FORMAT")
    out = np.zeros((h, w, 4), np.float32)
    obuf = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
    prg.read_int(q, (w, h), None, img, obuf)
    cl.enqueue_copy(q, out, obuf)
    check(close(out, want), "NV12: read_imagef(int2) is (V, Y, U, 1.0)",
          f"\n got {out[0, :2]}\nwant {want[0, :2]}")
    near = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.NEAREST)
    out[:] = 0
    prg.read_sampled(q, (w, h), None, img, near, obuf)
    cl.enqueue_copy(q, out, obuf)
    check(close(out, want), "NV12: read_imagef(sampler, int2) is (V, Y, U, 1.0)")
    sizes = np.zeros(2, np.int32)
    sbuf = cl.Buffer(ctx, mf.WRITE_ONLY, sizes.nbytes)
    prg.sizes(q, (1,), None, img, sbuf)
    cl.enqueue_copy(q, sizes, sbuf)
    check(list(sizes) == [w, h], "NV12: get_image_width/height", sizes)

    # The planes as images: derived sizes, the NV12 image's bytes.
    ypl = image(ctx, 0, cl.ImageFormat(cl.channel_order.R, unorm8), (0, 0, 0), mem=img)
    uvpl = image(ctx, 0, cl.ImageFormat(cl.channel_order.RG, unorm8), (0, 0, 1), mem=img)
    check((ypl.get_image_info(cl.image_info.WIDTH), ypl.get_image_info(cl.image_info.HEIGHT))
          == (w, h), "Y plane: width x height")
    check((uvpl.get_image_info(cl.image_info.WIDTH), uvpl.get_image_info(cl.image_info.HEIGHT))
          == (w // 2, h // 2), "UV plane: width / 2 x height / 2")
    check(ypl.get_info(cl.mem_info.FLAGS) & mf.READ_ONLY != 0,
          "a plane inherits the NV12 image's access")
    yout = np.zeros((h, w, 4), np.float32)
    prg.read_int(q, (w, h), None, ypl, obuf)
    cl.enqueue_copy(q, yout, obuf)
    ywant = np.zeros((h, w, 4), np.float32)
    ywant[:, :, 0] = y / np.float32(255.0)
    ywant[:, :, 3] = 1.0
    check(close(yout, ywant), "Y plane: read_imagef is (Y, 0, 0, 1.0)")
    uvout = np.zeros((h // 2, w // 2, 4), np.float32)
    prg.read_int(q, (w // 2, h // 2), None, uvpl, obuf)
    cl.enqueue_copy(q, uvout, obuf)
    uvwant = np.zeros((h // 2, w // 2, 4), np.float32)
    uvwant[:, :, :2] = uv / np.float32(255.0)
    uvwant[:, :, 3] = 1.0
    check(close(uvout, uvwant), "UV plane: read_imagef is (U, V, 0, 1.0)")
    uvui = image(ctx, 0, cl.ImageFormat(cl.channel_order.RG, uint8), (0, 0, 1), mem=img)
    got = np.zeros((h // 2, w // 2, 4), np.uint32)
    prg.read_ui(q, (w // 2, h // 2), None, uvui, obuf)
    cl.enqueue_copy(q, got, obuf)
    check(np.array_equal(got[:, :, :2], uv) and np.all(got[:, :, 3] == 1),
          "UV plane in UNSIGNED_INT8: read_imageui is (U, V, 0, 1)")

    # Filled through its planes: kernels write them, the host reads them back, a kernel reads
    # the NV12 image (created unrestricted, so its planes may be written).
    free = CL_MEM_NO_ACCESS_INTEL | mf.HOST_NO_ACCESS | CL_MEM_ACCESS_FLAGS_UNRESTRICTED_INTEL
    img2 = image(ctx, free, nv12, (w, h))
    y2 = rng.integers(0, 256, (h, w), dtype=np.uint8)
    uv2 = rng.integers(0, 256, (h // 2, w // 2, 2), dtype=np.uint8)
    yw = image(ctx, mf.WRITE_ONLY | mf.HOST_READ_ONLY,
               cl.ImageFormat(cl.channel_order.R, unorm8), (0, 0, 0), mem=img2)
    uvw = image(ctx, mf.WRITE_ONLY | mf.HOST_READ_ONLY,
                cl.ImageFormat(cl.channel_order.RG, uint8), (0, 0, 1), mem=img2)
    ybuf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=y2)
    uvbuf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=uv2)
    prg.write_y(q, (w, h), None, yw, ybuf)
    prg.write_uv(q, (w // 2, h // 2), None, uvw, uvbuf)
    yback = np.zeros((h, w), np.uint8)
    cl.enqueue_copy(q, yback, yw, origin=(0, 0), region=(w, h))
    check(np.array_equal(yback, y2), "Y plane written by a kernel, read by the host")
    uvback = np.zeros((h // 2, w // 2, 2), np.uint8)
    cl.enqueue_copy(q, uvback, uvw, origin=(0, 0), region=(w // 2, h // 2))
    check(np.array_equal(uvback, uv2), "UV plane written by a kernel, read by the host")
    prg.read_int(q, (w, h), None, img2, obuf)
    cl.enqueue_copy(q, out, obuf)
    check(close(out, expected(y2, uv2)), "NV12 written through its planes: read_imagef")

    # Errors.
    def err(f, code, what):
        got = code_of(f)
        check(got == code, what, got)

    err(lambda: image(ctx, mf.READ_ONLY, nv12, (w, h)), cl.status_code.INVALID_VALUE,
        "NV12 without CL_MEM_HOST_NO_ACCESS: CL_INVALID_VALUE")
    err(lambda: image(ctx, ro, nv12, (18, 8)), cl.status_code.INVALID_IMAGE_DESCRIPTOR,
        "NV12 width 18: CL_INVALID_IMAGE_DESCRIPTOR")
    err(lambda: image(ctx, ro, nv12, (16, 6)), cl.status_code.INVALID_IMAGE_DESCRIPTOR,
        "NV12 height 6: CL_INVALID_IMAGE_DESCRIPTOR")
    err(lambda: image(ctx, ro, nv12, (16, (max_h // 4 + 1) * 4)),
        cl.status_code.INVALID_IMAGE_SIZE,
        "NV12 past CL_DEVICE_PLANAR_YUV_MAX_HEIGHT_INTEL: CL_INVALID_IMAGE_SIZE")
    err(lambda: image(ctx, 0, cl.ImageFormat(cl.channel_order.R, unorm8), (0, 0, 2), mem=img),
        cl.status_code.INVALID_IMAGE_DESCRIPTOR, "plane 2: CL_INVALID_IMAGE_DESCRIPTOR")
    err(lambda: image(ctx, 0, cl.ImageFormat(cl.channel_order.RG, unorm8), (0, 0, 0), mem=img),
        cl.status_code.INVALID_IMAGE_FORMAT_DESCRIPTOR,
        "Y plane as CL_RG: CL_INVALID_IMAGE_FORMAT_DESCRIPTOR")
    err(lambda: image(ctx, mf.READ_WRITE, cl.ImageFormat(cl.channel_order.R, unorm8),
                      (0, 0, 0), mem=img),
        cl.status_code.INVALID_VALUE,
        "a read-write plane of a read-only NV12 image: CL_INVALID_VALUE")
    err(lambda: image(ctx, mf.HOST_WRITE_ONLY, cl.ImageFormat(cl.channel_order.R, unorm8),
                      (0, 0, 0), mem=img),
        cl.status_code.INVALID_VALUE,
        "a host-writable plane of a host-no-access NV12 image: CL_INVALID_VALUE")
    err(lambda: image(ctx, ro, nv12, (w, h), levels=2), cl.status_code.INVALID_IMAGE_DESCRIPTOR,
        "NV12 of 2 mip levels: CL_INVALID_IMAGE_DESCRIPTOR")

    def planes(nv):
        """The Y and UV bytes of NV12 image `nv`, read by a kernel through its planes."""
        yp = image(ctx, 0, cl.ImageFormat(cl.channel_order.R, uint8), (0, 0, 0), mem=nv)
        uvp = image(ctx, 0, cl.ImageFormat(cl.channel_order.RG, uint8), (0, 0, 1), mem=nv)
        got_y = np.zeros((h, w, 4), np.uint32)
        prg.read_ui(q, (w, h), None, yp, obuf)
        cl.enqueue_copy(q, got_y, obuf)
        got_uv = np.zeros((h // 2, w // 2, 4), np.uint32)
        prg.read_ui(q, (w // 2, h // 2), None, uvp, obuf)
        cl.enqueue_copy(q, got_uv, obuf)
        return got_y[:, :, 0].astype(np.uint8), got_uv[:, :, :2].astype(np.uint8)

    # In the application's memory: 24-byte rows from a page's start (NEO on the simulated dg2
    # answers CL_OUT_OF_RESOURCES for another start), Y rows then UV rows.
    pitch = 24
    y3 = rng.integers(0, 256, (h, w), dtype=np.uint8)
    uv3 = rng.integers(0, 256, (h // 2, w // 2, 2), dtype=np.uint8)
    raw = np.zeros(pitch * h * 3 // 2 + 4096, np.uint8)
    start = -raw.ctypes.data % 4096
    mem = raw[start:start + pitch * h * 3 // 2]
    rows = mem.reshape(h * 3 // 2, pitch)
    rows[:h, :w] = y3
    rows[h:, :w] = uv3.reshape(h // 2, w)
    used = image(ctx, ro | mf.USE_HOST_PTR, nv12, (w, h), hostbuf=mem, pitch=pitch)
    check(used.get_image_info(cl.image_info.ROW_PITCH) == pitch,
          "NV12 in host memory: CL_IMAGE_ROW_PITCH is the application's")
    prg.read_int(q, (w, h), None, used, obuf)
    cl.enqueue_copy(q, out, obuf)
    check(close(out, expected(y3, uv3)), "NV12 in host memory: read_imagef is (V, Y, U, 1.0)")
    got_y, got_uv = planes(used)
    check(np.array_equal(got_y, y3) and np.array_equal(got_uv, uv3),
          "NV12 in host memory: its planes read the Y and UV rows")
    err(lambda: image(ctx, ro | mf.USE_HOST_PTR, nv12, (w, h), hostbuf=mem, pitch=w - 4),
        cl.status_code.INVALID_IMAGE_DESCRIPTOR,
        "NV12 in host memory, row pitch below the width: CL_INVALID_IMAGE_DESCRIPTOR")

    # Host commands on the NV12 image as a whole: the Y plane's bytes.
    def made(yy, uu):
        host = np.concatenate([yy.reshape(-1), uu.reshape(-1)])
        return image(ctx, ro | mf.COPY_HOST_PTR, nv12, (w, h), hostbuf=host)

    y4 = rng.integers(0, 256, (h, w), dtype=np.uint8)
    uv4 = rng.integers(0, 256, (h // 2, w // 2, 2), dtype=np.uint8)
    dst = made(y4, uv4)
    cl.enqueue_copy(q, dst, img, src_origin=(4, 2), dest_origin=(8, 4), region=(8, 4))
    want_y = y4.copy()
    want_y[4:8, 8:16] = y[2:6, 4:12]
    got_y, got_uv = planes(dst)
    check(np.array_equal(got_y, want_y) and np.array_equal(got_uv, uv4),
          "copy between NV12 images: the region's Y bytes, the UV plane untouched")
    dst = made(y4, uv4)
    cl.enqueue_copy(q, dst, img, src_origin=(0, 0), dest_origin=(0, 0), region=(w, h))
    got_y, got_uv = planes(dst)
    check(np.array_equal(got_y, y) and np.array_equal(got_uv, uv4),
          "copy of a whole NV12 image: its Y plane")
    bbuf = cl.Buffer(ctx, mf.READ_WRITE, 64)
    cl.enqueue_copy(q, bbuf, np.zeros(64, np.uint8))
    cl.enqueue_copy(q, bbuf, img, offset=3, origin=(2, 1), region=(4, 2))
    bytes_out = np.zeros(64, np.uint8)
    cl.enqueue_copy(q, bytes_out, bbuf)
    check(np.array_equal(bytes_out[3:11], y[1:3, 2:6].reshape(-1))
          and not bytes_out[:3].any() and not bytes_out[11:].any(),
          "NV12 to a buffer: the region's Y bytes")
    dst = made(y4, uv4)
    src = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=y3)
    cl.enqueue_copy(q, dst, src, offset=w, origin=(0, 2), region=(w, 3))
    want_y = y4.copy()
    want_y[2:5] = y3[1:4]
    got_y, got_uv = planes(dst)
    check(np.array_equal(got_y, want_y) and np.array_equal(got_uv, uv4),
          "a buffer to NV12: the region's Y bytes, the UV plane untouched")
    dst = made(y4, uv4)
    colour = np.array([0.2, 0.4, 0.6, 1.0], np.float32)
    cl.enqueue_fill_image(q, dst, colour, (4, 2, 0), (8, 4, 1))
    want_y = y4.copy()
    want_y[2:6, 4:12] = 51
    got_y, got_uv = planes(dst)
    check(np.array_equal(got_y, want_y) and np.array_equal(got_uv, uv4),
          "fill of NV12: the region's Y bytes the colour's x, the UV plane untouched")
    q.finish()

    region = (0, 0, 0), (w, h, 1)
    host = np.zeros(w * h * 2, np.uint8)
    for nv, kind in ((img, "read-only"), (img2, "unrestricted")):
        err(lambda: cl._cl._enqueue_read_image(q, nv, *region, host, 0, 0, None, True),
            cl.status_code.INVALID_OPERATION,
            f"read of the {kind} NV12 image: CL_INVALID_OPERATION")
        err(lambda: cl._cl._enqueue_write_image(q, nv, *region, host, 0, 0, None, True),
            cl.status_code.INVALID_OPERATION,
            f"write of the {kind} NV12 image: CL_INVALID_OPERATION")
        err(lambda: cl.enqueue_map_image(q, nv, cl.map_flags.READ, *region, (h, w), np.uint8),
            cl.status_code.INVALID_OPERATION,
            f"map of the {kind} NV12 image: CL_INVALID_OPERATION")
    err(lambda: cl.enqueue_map_image(q, used, cl.map_flags.READ, *region, (h, w), np.uint8),
        cl.status_code.INVALID_OPERATION,
        "map of an NV12 image in host memory: CL_INVALID_OPERATION")
    err(lambda: cl._cl._enqueue_read_image(q, img, (0, 0, 0), (w, h * 3 // 2, 1), host, 0, 0,
                                           None, True),
        cl.status_code.INVALID_OPERATION,
        "read of an NV12 image past its Y plane: CL_INVALID_OPERATION")
    dst = made(y4, uv4)
    for o, r, what in (((0, 0, 0), (w, h * 3 // 2, 1), "past the Y plane"),
                       ((0, 0, 1), (w, h, 1), "at layer 1"),
                       ((0, 0, 0), (w, h, 2), "of 2 layers")):
        err(lambda: cl.enqueue_copy(q, dst, img, src_origin=o, dest_origin=(0, 0, 0), region=r),
            cl.status_code.INVALID_VALUE, f"copy of NV12 {what}: CL_INVALID_VALUE")
        err(lambda: cl.enqueue_copy(q, bbuf, img, offset=0, origin=o, region=r),
            cl.status_code.INVALID_VALUE, f"NV12 to a buffer {what}: CL_INVALID_VALUE")
        err(lambda: cl.enqueue_fill_image(q, dst, colour, o, r),
            cl.status_code.INVALID_VALUE, f"fill of NV12 {what}: CL_INVALID_VALUE")
    err(lambda: cl.enqueue_copy(q, ypl, img, src_origin=(0, 0), dest_origin=(0, 0),
                                region=(w, h)),
        cl.status_code.IMAGE_FORMAT_MISMATCH,
        "copy of NV12 to its Y plane's image: CL_IMAGE_FORMAT_MISMATCH")
    finish()


main()
