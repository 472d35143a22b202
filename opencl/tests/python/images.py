"""PyOpenCL against the ICD: images and samplers. The device reports image support with at
least OpenCL 3.0's minimum limits and the minimum format list; cl.Image 2D, 3D and 1D-array
objects round-trip through enqueue_copy (host, buffers, other images); kernels read them with
read_imagef through samplers (nearest and linear, a sampler argument and a program-scope
sampler) and write them with write_imageui and write_imagef (3D). References are numpy's,
computed from the OpenCL C specification's rules: nearest takes texel floor(u) of an
unnormalized coordinate u, linear blends texels floor(u - 0.5) and floor(u - 0.5) + 1 by the
fraction of u - 0.5 (per axis), CLAMP_TO_EDGE clamps texel indices into the image. Linear
coordinates are chosen with fractions that are multiples of 1/4, so the hardware's 8-bit
sub-texel weights are exact. Prints one line per check; exits non-zero on the first mismatch."""

import numpy as np
import pyopencl as cl
from checks import check, finish

SOURCE = r"""
#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable
constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                             CLK_FILTER_NEAREST;

kernel void sample_nearest(read_only image2d_t img, global const float2* coords,
                           global float4* out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, nearest, coords[i]);
}

kernel void sample_with(read_only image2d_t img, sampler_t s, global const float2* coords,
                        global float4* out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, coords[i]);
}

kernel void fill_ui(write_only image2d_t img) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imageui(img, (int2)(x, y), (uint4)(x, y, x * y, 7 * x + 3 * y));
}

kernel void fill_3d(write_only image3d_t img) {
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    write_imagef(img, (int4)(x, y, z, 0), (float4)(x, y, z, x + 10 * y + 100 * z));
}

kernel void read_array(read_only image1d_array_t img, global uint4* out) {
    int x = get_global_id(0), layer = get_global_id(1);
    out[layer * get_global_size(0) + x] = read_imageui(img, (int2)(x, layer));
}
"""



def main():
    ctx = cl.create_some_context(interactive=False)
    dev = ctx.devices[0]
    q = cl.CommandQueue(ctx)
    mf = cl.mem_flags

    # Queries: image support and the minimums of OpenCL 3.0's device query table.
    minimums = [
        ("image2d_max_width", 16384),
        ("image2d_max_height", 16384),
        ("image3d_max_width", 2048),
        ("image3d_max_height", 2048),
        ("image3d_max_depth", 2048),
        ("image_max_array_size", 2048),
        ("image_max_buffer_size", 65536),
        ("max_read_image_args", 128),
        ("max_write_image_args", 64),
        ("max_samplers", 16),
    ]
    check(dev.image_support == 1, "CL_DEVICE_IMAGE_SUPPORT")
    short = [(n, getattr(dev, n), m) for n, m in minimums if getattr(dev, n) < m]
    check(not short, "image limits at least the minimums", short)
    features = {f.name for f in dev.opencl_c_features}
    check("__opencl_c_images" in features, "__opencl_c_images reported")
    ch, ty = cl.channel_order, cl.channel_type
    needed = [(o, t) for o in (ch.R, ch.RG, ch.RGBA)
              for t in (ty.UNORM_INT8, ty.UNORM_INT16, ty.SNORM_INT8, ty.SNORM_INT16,
                        ty.SIGNED_INT8, ty.SIGNED_INT16, ty.SIGNED_INT32, ty.UNSIGNED_INT8,
                        ty.UNSIGNED_INT16, ty.UNSIGNED_INT32, ty.HALF_FLOAT, ty.FLOAT)]
    needed.append((ch.BGRA, ty.UNORM_INT8))
    for flags in (mf.READ_ONLY, mf.WRITE_ONLY, mf.READ_WRITE):
        for it in (cl.mem_object_type.IMAGE2D, cl.mem_object_type.IMAGE3D,
                   cl.mem_object_type.IMAGE1D_ARRAY):
            got = {(f.channel_order, f.channel_data_type)
                   for f in cl.get_supported_image_formats(ctx, flags, it)}
            missing = [x for x in needed if x not in got]
            check(not missing, f"minimum formats for flags {flags} type {it:#x}", missing)

    prg = cl.Program(ctx, SOURCE).build()
    rng = np.random.default_rng(15)

    # 2D float image: host -> image -> host, image -> buffer -> image -> host.
    h, w = 13, 21
    texels = rng.standard_normal((h, w, 4)).astype(np.float32)
    fmt = cl.ImageFormat(ch.RGBA, ty.FLOAT)
    img = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(w, h), hostbuf=texels)
    back = np.empty_like(texels)
    cl.enqueue_copy(q, back, img, origin=(0, 0), region=(w, h))
    check(np.array_equal(back, texels), "2D RGBA float image round trip")
    buf = cl.Buffer(ctx, mf.READ_WRITE, texels.nbytes)
    cl.enqueue_copy(q, buf, img, offset=0, origin=(0, 0), region=(w, h))
    img2 = cl.Image(ctx, mf.READ_WRITE, fmt, shape=(w, h))
    cl.enqueue_copy(q, img2, buf, offset=0, origin=(0, 0), region=(w, h))
    img3 = cl.Image(ctx, mf.READ_WRITE, fmt, shape=(w, h))
    cl.enqueue_copy(q, img3, img2, src_origin=(0, 0), dest_origin=(0, 0), region=(w, h))
    back = np.empty_like(texels)
    cl.enqueue_copy(q, back, img3, origin=(0, 0), region=(w, h))
    check(np.array_equal(back, texels), "image -> buffer -> image -> image -> host")
    sub = np.empty((4, 5, 4), np.float32)
    cl.enqueue_copy(q, sub, img3, origin=(3, 2), region=(5, 4))
    check(np.array_equal(sub, texels[2:6, 3:8]), "sub-region read at an origin")

    # Nearest: texel floor(u), clamped to the edge.
    n = 64
    coords = np.stack([rng.uniform(-3, w + 3, n), rng.uniform(-3, h + 3, n)], 1)
    coords = coords.astype(np.float32)
    cbuf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=coords)
    out = np.empty((n, 4), np.float32)
    obuf = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
    prg.sample_nearest(q, (n,), None, img, cbuf, obuf)
    cl.enqueue_copy(q, out, obuf)
    ix = np.clip(np.floor(coords[:, 0]).astype(int), 0, w - 1)
    iy = np.clip(np.floor(coords[:, 1]).astype(int), 0, h - 1)
    check(np.array_equal(out, texels[iy, ix]), "read_imagef nearest, program-scope sampler")

    # The same through a sampler argument.
    s_near = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.NEAREST)
    out2 = np.empty_like(out)
    prg.sample_with(q, (n,), None, img, s_near, cbuf, obuf)
    cl.enqueue_copy(q, out2, obuf)
    check(np.array_equal(out2, texels[iy, ix]), "read_imagef nearest, sampler argument")

    # Linear: coordinates whose u - 0.5 has a fraction in quarters.
    lc = np.stack([rng.integers(-2, 4 * w + 8, n) / 4.0 - 1.0,
                   rng.integers(-2, 4 * h + 8, n) / 4.0 - 1.0], 1).astype(np.float32)
    lbuf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=lc)
    s_lin = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.LINEAR)
    prg.sample_with(q, (n,), None, img, s_lin, lbuf, obuf)
    cl.enqueue_copy(q, out2, obuf)
    u, v = lc[:, 0].astype(np.float64) - 0.5, lc[:, 1].astype(np.float64) - 0.5
    i0, j0 = np.floor(u).astype(int), np.floor(v).astype(int)
    a, b = (u - i0)[:, None], (v - j0)[:, None]
    t = texels.astype(np.float64)

    def tex(i, j):
        return t[np.clip(j, 0, h - 1), np.clip(i, 0, w - 1)]

    ref = ((1 - a) * (1 - b) * tex(i0, j0) + a * (1 - b) * tex(i0 + 1, j0)
           + (1 - a) * b * tex(i0, j0 + 1) + a * b * tex(i0 + 1, j0 + 1))
    err = np.max(np.abs(out2 - ref))
    check(err <= 1e-5 * max(1.0, np.max(np.abs(ref))), "read_imagef linear, sampler argument",
          f"max error {err}")

    # write_imageui to an RGBA uint8 and an RGBA uint32 image.
    gw, gh = 19, 11
    xs, ys = np.meshgrid(np.arange(gw), np.arange(gh))
    want = np.stack([xs, ys, xs * ys, 7 * xs + 3 * ys], -1).astype(np.uint64)
    for t_, dtype in ((ty.UNSIGNED_INT32, np.uint32), (ty.UNSIGNED_INT8, np.uint8)):
        wimg = cl.Image(ctx, mf.WRITE_ONLY, cl.ImageFormat(ch.RGBA, t_), shape=(gw, gh))
        prg.fill_ui(q, (gw, gh), None, wimg)
        got = np.empty((gh, gw, 4), dtype)
        cl.enqueue_copy(q, got, wimg, origin=(0, 0), region=(gw, gh))
        # Integer writes keep the low bits (no saturation is asked of unsigned formats here:
        # every value fits in 8 bits).
        check(np.array_equal(got, want.astype(dtype)), f"write_imageui to RGBA {dtype.__name__}")

    # write_imagef to a 3D image (__opencl_c_3d_image_writes), read back from the host.
    dw, dh, dd = 7, 5, 6
    img3d = cl.Image(ctx, mf.READ_WRITE, fmt, shape=(dw, dh, dd))
    prg.fill_3d(q, (dw, dh, dd), None, img3d)
    got3 = np.empty((dd, dh, dw, 4), np.float32)
    cl.enqueue_copy(q, got3, img3d, origin=(0, 0, 0), region=(dw, dh, dd))
    zs, ys3, xs3 = np.meshgrid(np.arange(dd), np.arange(dh), np.arange(dw), indexing="ij")
    want3 = np.stack([xs3, ys3, zs, xs3 + 10 * ys3 + 100 * zs], -1).astype(np.float32)
    check(np.array_equal(got3, want3), "write_imagef to a 3D image")

    # 3D image from host data: a sub-box read.
    vol = rng.integers(0, 255, (dd, dh, dw, 4), dtype=np.uint8)
    v3 = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, cl.ImageFormat(ch.RGBA, ty.UNORM_INT8),
                  shape=(dw, dh, dd), hostbuf=vol)
    box = np.empty((3, 2, 4, 4), np.uint8)
    cl.enqueue_copy(q, box, v3, origin=(2, 1, 2), region=(4, 2, 3))
    check(np.array_equal(box, vol[2:5, 1:3, 2:6]), "3D image sub-box read")

    # 1D array: written from the host, read by a kernel with read_imageui and by the host.
    # PyOpenCL's cl.Image(shape=(w, layers), is_array=True) puts the layer count in
    # image_height and 1 in image_array_size (its descriptor's shape setter copies the third
    # extent to the array size), which OpenCL ignores / takes for 1D arrays; and its
    # enqueue_copy refuses 1D arrays. So the descriptor is filled here and handed to the
    # constructor cl.Image wraps, and the host read uses the wrapped clEnqueueReadImage.
    aw, layers = 17, 5
    arr = rng.integers(0, 1 << 16, (layers, aw, 4), dtype=np.uint16)
    desc = cl.ImageDescriptor()
    desc.image_type = cl.mem_object_type.IMAGE1D_ARRAY
    desc.shape = (aw, 1, layers)
    desc.pitches = (0, 0)
    desc.num_mip_levels = 0
    desc.num_samples = 0
    desc.buffer = None
    wrapped = [c.cell_contents for c in cl.Image.__init__.__closure__
               if callable(c.cell_contents)]
    aimg = cl.Image.__new__(cl.Image)
    wrapped[0](aimg, ctx, mf.READ_ONLY | mf.COPY_HOST_PTR,
               cl.ImageFormat(ch.RGBA, ty.UNSIGNED_INT16), desc, arr)
    check(aimg.type == cl.mem_object_type.IMAGE1D_ARRAY and aimg.array_size == layers,
          "cl.Image 1D array type and layers", (aimg.type, aimg.array_size))
    got_a = np.empty((layers, aw, 4), np.uint32)
    abuf = cl.Buffer(ctx, mf.WRITE_ONLY, got_a.nbytes)
    prg.read_array(q, (aw, layers), None, aimg, abuf)
    cl.enqueue_copy(q, got_a, abuf)
    check(np.array_equal(got_a, arr.astype(np.uint32)), "read_imageui from a 1D array")
    back_a = np.zeros_like(arr)
    cl._cl._enqueue_read_image(q, aimg, (0, 0, 0), (aw, layers, 1), back_a, 0, 0, None, True)
    check(np.array_equal(back_a, arr), "1D array read back by the host")

    q.finish()
    finish()


main()
