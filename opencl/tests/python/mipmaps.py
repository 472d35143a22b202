"""PyOpenCL against an OpenCL runtime: cl_khr_mipmap_image and cl_khr_mipmap_image_writes. The
device must list both (else the script prints "absent" and checks nothing). Expected values come
from the extension specification's text (OpenCL 3.0 extensions, "Mipmaps") and OpenCL C's:
- a mip-mapped 1D, 1D array, 2D, 2D array or 3D image has `num_mip_levels` > 1 levels, each
  half the previous one rounded down (at least 1); layers are not halved;
- clEnqueueReadImage, clEnqueueWriteImage, clEnqueueCopyImage, clEnqueueFillImage and
  clEnqueueMapImage reach one level: origin[1] of a 1D image, origin[2] of a 1D array or 2D
  image, origin[3] of a 2D array or 3D image; a level the image lacks is CL_INVALID_MIP_LEVEL;
- read_imagef(image, sampler, coord, lod) looks up level `lod` (normalized coordinates), the
  LOD clamped to the sampler's CL_SAMPLER_LOD_MIN_KHR/MAX_KHR and to the last level; a
  CL_SAMPLER_MIP_FILTER_MODE_KHR of CL_FILTER_LINEAR blends the two levels around the LOD by
  its fraction; the gradient forms compute the LOD from the footprint (powers of two here, so
  log2 of the scaled gradient's length is the level);
- write_imagef(image, coord, lod, color) writes level `lod` (cl_khr_mipmap_image_writes);
- get_image_num_mip_levels is the image's levels; clGetImageInfo CL_IMAGE_NUM_MIP_LEVELS is
  `num_mip_levels` as given; clGetSamplerInfo answers the three sampler properties;
- clCreateImage refuses host memory for a mip-mapped image and more levels than a full chain.
Images are made and moved through the C API (ctypes on the loader), since PyOpenCL 2022.3 passes
three-value origins only. Arguments name image types to leave out ("2D array", "3D"), each
printed as a "skip" line. Prints one line per check; exits non-zero when any fails."""

import ctypes as C
import sys

import numpy as np
import pyopencl as cl
from checks import check, code_of, finish

CL = C.CDLL("libOpenCL.so.1")
size_t = C.c_size_t
vp = C.c_void_p
CL.clCreateImage.restype = vp
CL.clCreateImage.argtypes = [vp, C.c_uint64, vp, vp, vp, C.POINTER(C.c_int32)]
CL.clCreateSamplerWithProperties.restype = vp
CL.clCreateSamplerWithProperties.argtypes = [vp, C.POINTER(C.c_uint64), C.POINTER(C.c_int32)]
for name in ("clEnqueueReadImage", "clEnqueueWriteImage"):
    getattr(CL, name).argtypes = [vp, vp, C.c_uint32, vp, vp, size_t, size_t, vp, C.c_uint32,
                                  vp, vp]
CL.clEnqueueCopyImage.argtypes = [vp, vp, vp, vp, vp, vp, C.c_uint32, vp, vp]
CL.clEnqueueFillImage.argtypes = [vp, vp, vp, vp, vp, C.c_uint32, vp, vp]
CL.clEnqueueMapImage.restype = vp
CL.clEnqueueMapImage.argtypes = [vp, vp, C.c_uint32, C.c_uint64, vp, vp, C.POINTER(size_t),
                                 C.POINTER(size_t), C.c_uint32, vp, vp, C.POINTER(C.c_int32)]
CL.clEnqueueUnmapMemObject.argtypes = [vp, vp, vp, C.c_uint32, vp, vp]
CL.clFinish.argtypes = [vp]
CL.clGetSamplerInfo.argtypes = [vp, C.c_uint32, size_t, vp, vp]

CL_INVALID_MIP_LEVEL = -62
CL_INVALID_IMAGE_DESCRIPTOR = -65
CL_INVALID_HOST_PTR = -37
CL_SAMPLER_MIP_FILTER_MODE_KHR = 0x1155
CL_SAMPLER_LOD_MIN_KHR = 0x1156
CL_SAMPLER_LOD_MAX_KHR = 0x1157
CL_SAMPLER_NORMALIZED_COORDS = 0x1152
CL_SAMPLER_ADDRESSING_MODE = 0x1153
CL_SAMPLER_FILTER_MODE = 0x1154
CL_MAP_READ = 1


class ImageFormat(C.Structure):
    _fields_ = [("order", C.c_uint32), ("type", C.c_uint32)]


class ImageDesc(C.Structure):
    _fields_ = [("type", C.c_uint32), ("width", size_t), ("height", size_t), ("depth", size_t),
                ("array_size", size_t), ("row_pitch", size_t), ("slice_pitch", size_t),
                ("num_mip_levels", C.c_uint32), ("num_samples", C.c_uint32), ("buffer", vp)]


mt = cl.mem_object_type
# (name, type, level-0 (width, height, depth), layers, kernel image type, coordinate arity)
SHAPES = [
    ("1D", mt.IMAGE1D, (37, 1, 1), 1, "image1d_t"),
    ("1D array", mt.IMAGE1D_ARRAY, (37, 1, 1), 3, "image1d_array_t"),
    ("2D", mt.IMAGE2D, (19, 13, 1), 1, "image2d_t"),
    ("2D array", mt.IMAGE2D_ARRAY, (19, 13, 1), 3, "image2d_array_t"),
    ("3D", mt.IMAGE3D, (11, 9, 7), 1, "image3d_t"),
]

# Per image type: the float coordinate of texel (x, y, z) of a level of size (w, h, d) (layer
# l), and the integer one writes take.
COORDS = {
    "image1d_t": ("(x + 0.5f) / w", "x"),
    "image1d_array_t": ("(float2)((x + 0.5f) / w, l)", "(int2)(x, l)"),
    "image2d_t": ("(float2)((x + 0.5f) / w, (y + 0.5f) / h)", "(int2)(x, y)"),
    "image2d_array_t": ("(float4)((x + 0.5f) / w, (y + 0.5f) / h, l, 0)", "(int4)(x, y, l, 0)"),
    "image3d_t": ("(float4)((x + 0.5f) / w, (y + 0.5f) / h, (z + 0.5f) / d, 0)",
                  "(int4)(x, y, z, 0)"),
}


def kernels(it):
    fc, ic = COORDS[it]
    # Global ids: x, y (or the layer of a 1D array), z (or the layer of a 2D array).
    ids = """int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;"""
    layer = {"image1d_array_t": "int l = y;", "image2d_array_t": "int l = z;"}.get(it, "int l = 0;")
    # Gradients of one level-`g` texel step along x and along y (x alone for 1D).
    gx, gy = {
        "image1d_t": ("g / get_image_width(img)", "0.0f"),
        "image1d_array_t": ("g / get_image_width(img)", "0.0f"),
        "image3d_t": ("(float4)(g / get_image_width(img), 0.0f, 0.0f, 0.0f)",
                      "(float4)(0.0f, g / get_image_height(img), 0.0f, 0.0f)"),
    }.get(it, ("(float2)(g / get_image_width(img), 0.0f)",
               "(float2)(0.0f, g / get_image_height(img))"))
    grad = f"""
kernel void read_grad(read_only {it} img, sampler_t s, int w, int h, int d, float g,
                      global float4* out) {{
    {ids}
    {layer}
    out[i] = read_imagef(img, s, {fc}, {gx}, {gy});
}}"""
    return f"""
kernel void read_lod(read_only {it} img, sampler_t s, int w, int h, int d, float lod,
                     global float4* out) {{
    {ids}
    {layer}
    out[i] = read_imagef(img, s, {fc}, lod);
}}
kernel void write_lod(write_only {it} img, int lod, global const float4* in) {{
    {ids}
    {layer}
    write_imagef(img, {ic}, lod, in[i]);
}}
kernel void levels(read_only {it} img, global int* out) {{
    out[0] = get_image_num_mip_levels(img);
}}{grad}
"""


def minify(n, l):
    return max(1, n >> l)


def level_shape(size, layers, ty, l):
    """(w, h, d) of level l, d counting layers for arrays."""
    w, h, d = size
    w = minify(w, l)
    if ty in (mt.IMAGE2D, mt.IMAGE2D_ARRAY, mt.IMAGE3D):
        h = minify(h, l)
    if ty == mt.IMAGE3D:
        d = minify(d, l)
    if ty == mt.IMAGE1D_ARRAY:
        h = layers
    if ty == mt.IMAGE2D_ARRAY:
        d = layers
    return w, h, d


def level_at(ty):
    return {mt.IMAGE1D: 1, mt.IMAGE1D_ARRAY: 2, mt.IMAGE2D: 2}.get(ty, 3)


def origin(ty, level):
    o = (size_t * 4)(0, 0, 0, 0)
    o[level_at(ty)] = level
    return o


def region(shape):
    return (size_t * 3)(*shape)


def create(ctx, ty, size, layers, levels, flags=cl.mem_flags.READ_WRITE, host=None):
    fmt = ImageFormat(cl.channel_order.RGBA, cl.channel_type.FLOAT)
    d = ImageDesc(ty, size[0], size[1], size[2], layers, 0, 0, levels, 0, None)
    err = C.c_int32(0)
    m = CL.clCreateImage(ctx.int_ptr, flags, C.byref(fmt), C.byref(d), host, C.byref(err))
    if err.value:
        return err.value
    return cl.Image.from_int_ptr(m, retain=False)


def sampler(ctx, props):
    lst = [CL_SAMPLER_NORMALIZED_COORDS, 1, CL_SAMPLER_ADDRESSING_MODE,
           cl.addressing_mode.CLAMP_TO_EDGE, CL_SAMPLER_FILTER_MODE, cl.filter_mode.NEAREST]
    for k, v in props:
        if isinstance(v, float):
            v = int(np.float32(v).view(np.uint32))
        lst += [k, v]
    arr = (C.c_uint64 * (len(lst) + 1))(*lst, 0)
    err = C.c_int32(0)
    s = CL.clCreateSamplerWithProperties(ctx.int_ptr, arr, C.byref(err))
    assert err.value == 0, err.value
    return cl.Sampler.from_int_ptr(s, retain=False)


def rw(q, img, ty, level, shape, data=None):
    """Writes `data` to (or, without it, reads) level `level`; returns (error, array)."""
    w, h, d = shape
    a = np.empty((d, h, w, 4), np.float32) if data is None else np.ascontiguousarray(data)
    f = CL.clEnqueueReadImage if data is None else CL.clEnqueueWriteImage
    err = f(q.int_ptr, img.int_ptr, 1, origin(ty, level), region(shape), 0, 0,
            a.ctypes.data, 0, None, None)
    return err, a


def nearest(levels_data, shape0, ty, layers, l, shape):
    """Texel of level l at each texel centre of a level of `shape` (normalized nearest)."""
    src = levels_data[l]
    sd, sh, sw = src.shape[:3]
    w, h, d = shape
    xs = np.minimum(((np.arange(w) + 0.5) / w * sw).astype(int), sw - 1)
    ys = np.minimum(((np.arange(h) + 0.5) / h * sh).astype(int), sh - 1)
    zs = np.minimum(((np.arange(d) + 0.5) / d * sd).astype(int), sd - 1)
    if ty == mt.IMAGE1D_ARRAY:
        ys = np.arange(h)
    if ty == mt.IMAGE2D_ARRAY:
        zs = np.arange(d)
    return src[np.ix_(zs, ys, xs)]


def main():
    dev = cl.get_platforms()[0].get_devices()[0]
    exts = dev.extensions.split()
    if "cl_khr_mipmap_image" not in exts or "cl_khr_mipmap_image_writes" not in exts:
        print("absent: the device does not list cl_khr_mipmap_image(_writes)")
        return
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    mf = cl.mem_flags
    rng = np.random.default_rng(62)

    # Sampler properties and their queries.
    s_lin = sampler(ctx, [(CL_SAMPLER_MIP_FILTER_MODE_KHR, cl.filter_mode.LINEAR),
                          (CL_SAMPLER_LOD_MIN_KHR, 0.5), (CL_SAMPLER_LOD_MAX_KHR, 3.0)])
    v = C.c_uint32(0)
    CL.clGetSamplerInfo(s_lin.int_ptr, CL_SAMPLER_MIP_FILTER_MODE_KHR, 4, C.byref(v), None)
    check(v.value == cl.filter_mode.LINEAR, "CL_SAMPLER_MIP_FILTER_MODE_KHR query", v.value)
    f = C.c_float(0)
    CL.clGetSamplerInfo(s_lin.int_ptr, CL_SAMPLER_LOD_MIN_KHR, 4, C.byref(f), None)
    lo = f.value
    CL.clGetSamplerInfo(s_lin.int_ptr, CL_SAMPLER_LOD_MAX_KHR, 4, C.byref(f), None)
    check((lo, f.value) == (0.5, 3.0), "CL_SAMPLER_LOD_MIN_KHR/MAX_KHR queries", (lo, f.value))
    s_def = sampler(ctx, [])
    CL.clGetSamplerInfo(s_def.int_ptr, CL_SAMPLER_MIP_FILTER_MODE_KHR, 4, C.byref(v), None)
    check(v.value == cl.filter_mode.NEAREST, "default mip filter is CL_FILTER_NEAREST", v.value)

    # Creation rules.
    # 19x13 has 5 levels (19x13 to 1x1); a sixth would be 0x0.
    got = create(ctx, mt.IMAGE2D, (19, 13, 1), 1, 6)
    check(isinstance(got, int) and got == CL_INVALID_IMAGE_DESCRIPTOR,
          "more levels than a full chain: CL_INVALID_IMAGE_DESCRIPTOR",
          got if isinstance(got, int) else "created")
    host = np.zeros(19 * 13 * 4 * 2, np.float32)
    got = create(ctx, mt.IMAGE2D, (19, 13, 1), 1, 2, mf.READ_WRITE | mf.COPY_HOST_PTR,
                 host.ctypes.data)
    check(isinstance(got, int) and got != 0, "CL_MEM_COPY_HOST_PTR refused", got)
    plain = create(ctx, mt.IMAGE2D, (19, 13, 1), 1, 0)
    check(plain.get_image_info(cl.image_info.NUM_MIP_LEVELS) == 0,
          "CL_IMAGE_NUM_MIP_LEVELS 0 without mip-maps")

    for name, ty, size, layers, it in SHAPES:
        if name in sys.argv[1:]:
            print(f"skip {name}")
            continue
        prg = cl.Program(ctx, kernels(it)).build(options="-cl-std=CL2.0")
        chain = int(np.floor(np.log2(max(size)))) + 1
        img = create(ctx, ty, size, layers, chain)
        if isinstance(img, int):
            check(False, f"{name}: create {chain} levels", img)
            continue
        check(img.get_image_info(cl.image_info.NUM_MIP_LEVELS) == chain,
              f"{name}: CL_IMAGE_NUM_MIP_LEVELS {chain}")
        obuf = cl.Buffer(ctx, mf.WRITE_ONLY, 4)
        prg.levels(q, (1,), None, img, obuf)
        n = np.zeros(1, np.int32)
        cl.enqueue_copy(q, n, obuf)
        check(n[0] == chain, f"{name}: get_image_num_mip_levels", n[0])

        shapes = [level_shape(size, layers, ty, l) for l in range(chain)]
        data = [rng.standard_normal((d, h, w, 4)).astype(np.float32) + 10 * l
                for l, (w, h, d) in enumerate(shapes)]
        for l, sh in enumerate(shapes):
            err, _ = rw(q, img, ty, l, sh, data[l])
            check(err == 0, f"{name}: write level {l}", err)
        back_ok = all(np.array_equal(rw(q, img, ty, l, sh)[1], data[l])
                      for l, sh in enumerate(shapes))
        check(back_ok, f"{name}: host round trip of every level")
        err, _ = rw(q, img, ty, chain, shapes[-1])
        check(err == CL_INVALID_MIP_LEVEL, f"{name}: level {chain} is CL_INVALID_MIP_LEVEL", err)

        # Kernel reads at each level (nearest mip filter, the default).
        for l, (w, h, d) in enumerate(shapes):
            out = np.empty((d, h, w, 4), np.float32)
            ob = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
            prg.read_lod(q, (w, h, d), None, img, s_def, np.int32(w), np.int32(h), np.int32(d),
                         np.float32(l), ob)
            cl.enqueue_copy(q, out, ob)
            check(np.array_equal(out, data[l]), f"{name}: read_imagef lod {l}")
        # Linear between levels: lod 1.5 blends levels 1 and 2 half and half (the sampler's
        # range is 0.5 to 3.0; nearest within each level).
        w, h, d = shapes[1]
        out = np.empty((d, h, w, 4), np.float32)
        ob = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
        prg.read_lod(q, (w, h, d), None, img, s_lin, np.int32(w), np.int32(h), np.int32(d),
                     np.float32(1.5), ob)
        cl.enqueue_copy(q, out, ob)
        want = 0.5 * data[1] + 0.5 * nearest(data, size, ty, layers, 2, shapes[1])
        err = np.max(np.abs(out - want))
        check(err <= 1e-4, f"{name}: mip filter linear at lod 1.5", f"max error {err}")
        # LOD clamps: the sampler's maximum 3.0 and the last level.
        w, h, d = shapes[0]
        out = np.empty((d, h, w, 4), np.float32)
        ob = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
        s_max = sampler(ctx, [(CL_SAMPLER_LOD_MAX_KHR, 1.0)])
        prg.read_lod(q, (w, h, d), None, img, s_max, np.int32(w), np.int32(h), np.int32(d),
                     np.float32(3.0), ob)
        cl.enqueue_copy(q, out, ob)
        check(np.array_equal(out, nearest(data, size, ty, layers, 1, shapes[0])),
              f"{name}: lod 3 clamped to CL_SAMPLER_LOD_MAX_KHR 1")
        prg.read_lod(q, (w, h, d), None, img, s_def, np.int32(w), np.int32(h), np.int32(d),
                     np.float32(chain + 4), ob)
        cl.enqueue_copy(q, out, ob)
        check(np.array_equal(out, nearest(data, size, ty, layers, chain - 1, shapes[0])),
              f"{name}: lod past the last level reads the last")
        for l in range(3):
            w, h, d = shapes[l]
            out = np.empty((d, h, w, 4), np.float32)
            ob = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
            prg.read_grad(q, (w, h, d), None, img, s_def, np.int32(w), np.int32(h),
                          np.int32(d), np.float32(2.0 ** l), ob)
            cl.enqueue_copy(q, out, ob)
            check(np.array_equal(out, data[l]), f"{name}: read_imagef gradients of level {l}")

        # Kernel writes at each level, read back by the host.
        wimg = create(ctx, ty, size, layers, chain)
        new = [d_ + 100 for d_ in data]
        for l, (w, h, d) in enumerate(shapes):
            ib = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=new[l])
            prg.write_lod(q, (w, h, d), None, wimg, np.int32(l), ib)
        ok = all(np.array_equal(rw(q, wimg, ty, l, sh)[1], new[l]) for l, sh in enumerate(shapes))
        check(ok, f"{name}: write_imagef lod, every level")

        # Copy level 1 of `img` to level 1 of `wimg`; fill its level 2; map level 1.
        err = CL.clEnqueueCopyImage(q.int_ptr, img.int_ptr, wimg.int_ptr, origin(ty, 1),
                                    origin(ty, 1), region(shapes[1]), 0, None, None)
        check(err == 0 and np.array_equal(rw(q, wimg, ty, 1, shapes[1])[1], data[1]),
              f"{name}: copy level 1", err)
        color = np.array([1.5, -2.0, 3.25, 0.5], np.float32)
        err = CL.clEnqueueFillImage(q.int_ptr, wimg.int_ptr, color.ctypes.data, origin(ty, 2),
                                    region(shapes[2]), 0, None, None)
        filled = rw(q, wimg, ty, 2, shapes[2])[1]
        check(err == 0 and np.all(filled == color), f"{name}: fill level 2", err)
        check(np.array_equal(rw(q, wimg, ty, 0, shapes[0])[1], new[0]),
              f"{name}: level 0 untouched by the level 1 and 2 commands")
        rp, sp, e = size_t(0), size_t(0), C.c_int32(0)
        w, h, d = shapes[1]
        ptr = CL.clEnqueueMapImage(q.int_ptr, img.int_ptr, 1, CL_MAP_READ, origin(ty, 1),
                                   region(shapes[1]), C.byref(rp), C.byref(sp), 0, None, None,
                                   C.byref(e))
        ok = e.value == 0
        if ok:
            slice_pitch = sp.value if sp.value else rp.value * h
            # A 1D array's layers (its rows here) are the slice pitch apart.
            row_step = slice_pitch if ty == mt.IMAGE1D_ARRAY else rp.value
            for z in range(d):
                for y in range(h):
                    row = (C.c_float * (4 * w)).from_address(ptr + z * slice_pitch + y * row_step)
                    ok = ok and np.array_equal(np.frombuffer(row, np.float32), data[1][z, y].ravel())
            CL.clEnqueueUnmapMemObject(q.int_ptr, img.int_ptr, vp(ptr), 0, None, None)
            CL.clFinish(q.int_ptr)
        check(ok, f"{name}: map level 1", e.value)
    finish()


if __name__ == "__main__":
    main()
