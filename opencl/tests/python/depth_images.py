"""PyOpenCL against an OpenCL runtime: cl_khr_depth_images. The device must list it (else the
script prints "absent" and checks nothing). Expected values come from the OpenCL 3.0 API and
OpenCL C specifications' text:
- CL_DEPTH with CL_UNORM_INT16 and CL_FLOAT is in the minimum format list of a device with
  the extension, for 2D images and 2D image arrays (image2d_depth_t and image2d_array_depth_t
  are OpenCL C's only depth image types);
- read_imagef of a depth image returns one float: the texel for CL_FLOAT, v / 65535 for
  CL_UNORM_INT16 (the conversion rules for normalized integers); with a sampler, nearest takes
  texel floor(u) of an unnormalized coordinate, linear blends the four texels around u - 0.5;
  CLK_ADDRESS_CLAMP outside the image reads the border colour, 0.0 for CL_DEPTH;
- write_imagef of a depth image stores the float (CL_FLOAT) or convert_ushort_sat_rte(f *
  65535.0f) (CL_UNORM_INT16);
- get_image_channel_order is CLK_DEPTH, get_image_channel_data_type the image's type;
  clGetImageInfo's CL_IMAGE_ELEMENT_SIZE is 4 (FLOAT) or 2 (UNORM_INT16);
- clEnqueueFillImage's colour is one float for a CL_DEPTH image, converted as write_imagef
  converts.
Given an argument (the path of ocloc), the kernels are compiled to SPIR-V by ocloc and given to
the device as IL. Prints one line per check; exits non-zero when any fails."""

import os
import subprocess
import sys
import tempfile

import numpy as np
import pyopencl as cl
from checks import check, code_of, finish

# cl.h; PyOpenCL 2022.3 has no name for it.
CL_DEPTH = 0x10BD

SOURCE = r"""
kernel void read_int(read_only image2d_depth_t img, global float* out) {
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_global_size(0) + x] = read_imagef(img, (int2)(x, y));
}

kernel void read_with(read_only image2d_depth_t img, sampler_t s, global const float2* coords,
                      global float* out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, coords[i]);
}

kernel void write(write_only image2d_depth_t img, global const float* in) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imagef(img, (int2)(x, y), in[y * get_global_size(0) + x]);
}

kernel void write_array(write_only image2d_array_depth_t img, global const float* in) {
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;
    write_imagef(img, (int4)(x, y, z, 0), in[i]);
}

kernel void read_array(read_only image2d_array_depth_t img, global float* out) {
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;
    out[i] = read_imagef(img, (int4)(x, y, z, 0));
}

kernel void query(read_only image2d_depth_t img, read_only image2d_array_depth_t arr,
                  global int* out) {
    out[0] = get_image_channel_order(img);
    out[1] = get_image_channel_data_type(img);
    out[2] = get_image_width(img);
    out[3] = get_image_height(img);
    out[4] = get_image_channel_order(arr);
    out[5] = get_image_array_size(arr);
    int2 d = get_image_dim(arr);
    out[6] = d.x;
    out[7] = d.y;
}
"""

# (channel type, numpy storage type, element size, texel -> float)
TYPES = [
    (cl.channel_type.FLOAT, np.float32, 4, lambda t: t.astype(np.float32)),
    (cl.channel_type.UNORM_INT16, np.uint16, 2,
     lambda t: (t.astype(np.float64) / 65535.0).astype(np.float32)),
]


def spirv(ocloc, source):
    """`source` compiled to SPIR-V by ocloc with the depth image types
    (cl_khr_depth_images) declared."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.cl")
        with open(path, "w") as f:
            f.write(source)
        subprocess.run([ocloc, "compile", "-q", "-file", path, "-device", "tgllp", "-spv_only",
                        "-output", "k", "-output_no_suffix", "-out_dir", d,
                        "-internal_options", "-cl-ext=-all,+cl_khr_depth_images"],
                       check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(d, "k.spv"), "rb") as f:
            return f.read()


def to_texel(values, dtype):
    """write_imagef's conversion: the float itself, or convert_ushort_sat_rte(f * 65535.0f)."""
    if dtype == np.float32:
        return values.astype(np.float32)
    scaled = (np.clip(values.astype(np.float32), 0, 1) * np.float32(65535.0)).astype(np.float32)
    return np.rint(scaled).astype(np.uint16)  # numpy rint rounds half to even


def close(got, want):
    """Within 1.5 ulp of the single-precision reference (the conversion rules' bound for
    normalized integers to float; float texels are equal)."""
    ulp = np.spacing(np.abs(want).astype(np.float32))
    return bool(np.all(np.abs(got.astype(np.float64) - want) <= 1.5 * ulp))


def main():
    dev = cl.get_platforms()[0].get_devices()[0]
    if "cl_khr_depth_images" not in dev.extensions.split():
        print("absent: the device does not list cl_khr_depth_images")
        return
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    mf = cl.mem_flags
    mt = cl.mem_object_type
    ty = cl.channel_type
    depth_formats = {(CL_DEPTH, ty.UNORM_INT16), (CL_DEPTH, ty.FLOAT)}

    # The formats: listed for 2D images and arrays with every access flag, for no other type.
    for flags in (mf.READ_ONLY, mf.WRITE_ONLY, mf.READ_WRITE):
        for it in (mt.IMAGE2D, mt.IMAGE2D_ARRAY):
            got = {(f.channel_order, f.channel_data_type)
                   for f in cl.get_supported_image_formats(ctx, flags, it)}
            check(depth_formats <= got, f"CL_DEPTH formats for type {it:#x} flags {flags}",
                  depth_formats - got)
        for it in (mt.IMAGE1D, mt.IMAGE1D_ARRAY, mt.IMAGE1D_BUFFER, mt.IMAGE3D):
            got = {f.channel_order for f in cl.get_supported_image_formats(ctx, flags, it)}
            check(CL_DEPTH not in got, f"no CL_DEPTH format for type {it:#x} flags {flags}")

    ocloc = sys.argv[1] if len(sys.argv) > 1 else None
    prg = cl.Program(ctx, spirv(ocloc, SOURCE) if ocloc else SOURCE).build()
    if ocloc:
        print("ok   kernels built from SPIR-V")
    rng = np.random.default_rng(35)
    w, h, layers = 19, 7, 3

    for t_, dtype, size, as_float in TYPES:
        name = "FLOAT" if t_ == ty.FLOAT else "UNORM_INT16"
        fmt = cl.ImageFormat(CL_DEPTH, t_)
        if dtype == np.float32:
            texels = rng.standard_normal((h, w)).astype(np.float32) * 100
        else:
            texels = rng.integers(0, 65536, (h, w), dtype=np.uint16)
        img = cl.Image(ctx, mf.READ_WRITE, fmt, shape=(w, h))
        cl.enqueue_copy(q, img, texels, origin=(0, 0), region=(w, h))
        check(img.get_image_info(cl.image_info.ELEMENT_SIZE) == size,
              f"{name}: CL_IMAGE_ELEMENT_SIZE {size}")
        f = img.get_image_info(cl.image_info.FORMAT)
        check((f.channel_order, f.channel_data_type) == (CL_DEPTH, t_),
              f"{name}: CL_IMAGE_FORMAT is CL_DEPTH")
        back = np.empty_like(texels)
        cl.enqueue_copy(q, back, img, origin=(0, 0), region=(w, h))
        check(np.array_equal(back, texels), f"{name}: host round trip")

        out = np.empty((h, w), np.float32)
        obuf = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
        prg.read_int(q, (w, h), None, img, obuf)
        cl.enqueue_copy(q, out, obuf)
        check(close(out, as_float(texels)), f"{name}: read_imagef(image2d_depth_t, int2)")

        # Nearest and linear samplers, unnormalized coordinates, clamp to edge.
        n = 64
        coords = np.stack([rng.integers(-8, 4 * w + 8, n) / 4.0,
                           rng.integers(-8, 4 * h + 8, n) / 4.0], 1).astype(np.float32)
        cbuf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=coords)
        sbuf = cl.Buffer(ctx, mf.WRITE_ONLY, 4 * n)
        got = np.empty(n, np.float32)
        s_near = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.NEAREST)
        prg.read_with(q, (n,), None, img, s_near, cbuf, sbuf)
        cl.enqueue_copy(q, got, sbuf)
        ix = np.clip(np.floor(coords[:, 0]).astype(int), 0, w - 1)
        iy = np.clip(np.floor(coords[:, 1]).astype(int), 0, h - 1)
        fl = as_float(texels).astype(np.float64)
        check(close(got, fl[iy, ix]), f"{name}: read_imagef nearest sampler")

        s_lin = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.LINEAR)
        prg.read_with(q, (n,), None, img, s_lin, cbuf, sbuf)
        cl.enqueue_copy(q, got, sbuf)
        u, v = coords[:, 0].astype(np.float64) - 0.5, coords[:, 1].astype(np.float64) - 0.5
        i0, j0 = np.floor(u).astype(int), np.floor(v).astype(int)
        a, b = u - i0, v - j0

        def tex(i, j):
            return fl[np.clip(j, 0, h - 1), np.clip(i, 0, w - 1)]

        ref = ((1 - a) * (1 - b) * tex(i0, j0) + a * (1 - b) * tex(i0 + 1, j0)
               + (1 - a) * b * tex(i0, j0 + 1) + a * b * tex(i0 + 1, j0 + 1))
        err = np.max(np.abs(got - ref))
        check(err <= 1e-5 * max(1.0, np.max(np.abs(ref))), f"{name}: read_imagef linear sampler",
              f"max error {err}")

        # CLK_ADDRESS_CLAMP: outside the image, the border colour 0.0.
        outside = np.array([[-3.5, 1.5], [w + 2.5, 2.5], [1.5, -1.5], [2.5, h + 4.5]],
                           np.float32)
        obuf2 = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=outside)
        s_clamp = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP, cl.filter_mode.NEAREST)
        got4 = np.full(4, 7.0, np.float32)
        prg.read_with(q, (4,), None, img, s_clamp, obuf2, sbuf)
        cl.enqueue_copy(q, got4, sbuf)
        check(np.array_equal(got4, np.zeros(4, np.float32)),
              f"{name}: CLK_ADDRESS_CLAMP border is 0.0", got4)

        # write_imagef: values past [0, 1] too, where UNORM_INT16 saturates.
        values = (rng.standard_normal((h, w)) * 0.6 + 0.5).astype(np.float32)
        values[0, :4] = [0.5 / 65535, 1.5 / 65535, 1.0, 0.0]
        wimg = cl.Image(ctx, mf.WRITE_ONLY, fmt, shape=(w, h))
        vbuf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=values)
        prg.write(q, (w, h), None, wimg, vbuf)
        stored = np.empty((h, w), dtype)
        cl.enqueue_copy(q, stored, wimg, origin=(0, 0), region=(w, h))
        check(np.array_equal(stored, to_texel(values, dtype)),
              f"{name}: write_imagef(image2d_depth_t)")

        # Fill: the colour of a CL_DEPTH image is one float.
        color = np.array([0.5], np.float32)
        cl.enqueue_fill_image(q, wimg, color, (0, 0), (w, h))
        cl.enqueue_copy(q, stored, wimg, origin=(0, 0), region=(w, h))
        check(np.all(stored == to_texel(np.float32(0.5), dtype)), f"{name}: fill image")

        # 2D array: write per layer, read back by the kernel and the host.
        arr = cl.Image(ctx, mf.READ_WRITE, fmt, shape=(w, h, layers), is_array=True)
        avals = rng.random((layers, h, w)).astype(np.float32)
        abuf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=avals)
        prg.write_array(q, (w, h, layers), None, arr, abuf)
        astored = np.empty((layers, h, w), dtype)
        cl.enqueue_copy(q, astored, arr, origin=(0, 0, 0), region=(w, h, layers))
        want = to_texel(avals, dtype)
        check(np.array_equal(astored, want), f"{name}: write_imagef(image2d_array_depth_t)")
        aout = np.empty((layers, h, w), np.float32)
        aobuf = cl.Buffer(ctx, mf.WRITE_ONLY, aout.nbytes)
        prg.read_array(q, (w, h, layers), None, arr, aobuf)
        cl.enqueue_copy(q, aout, aobuf)
        check(close(aout, as_float(want)), f"{name}: read_imagef(image2d_array_depth_t, int4)")

        qbuf = cl.Buffer(ctx, mf.WRITE_ONLY, 8 * 4)
        prg.query(q, (1,), None, img, arr, qbuf)
        qs = np.empty(8, np.int32)
        cl.enqueue_copy(q, qs, qbuf)
        check(list(qs) == [CL_DEPTH, t_, w, h, CL_DEPTH, layers, w, h],
              f"{name}: get_image_channel_order/data_type and sizes", list(qs))

    # A depth format on an image type without depth images.
    fmt = cl.ImageFormat(CL_DEPTH, ty.FLOAT)
    for shape, is_array, what in (((8,), False, "1D"), ((8, 4, 2), False, "3D"),
                                  ((8, 2), True, "1D array")):
        code = code_of(lambda: cl.Image(ctx, mf.READ_WRITE, fmt, shape=shape, is_array=is_array))
        print(f"info CL_DEPTH {what} image: error {code}")
        check(code != 0, f"no CL_DEPTH {what} image")
    finish()


if __name__ == "__main__":
    main()
