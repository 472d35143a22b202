"""PyOpenCL against the ICD: 2D images from buffers (cl_khr_image2d_from_buffer, OpenCL 3.0
clCreateImage with CL_MEM_OBJECT_IMAGE2D and a buffer as mem_object). The image's rows lie in
the buffer `image_row_pitch` bytes apart: a kernel writes the image and the buffer shows the
pixels at that pitch with the padding between rows untouched; the host writes the buffer and
a kernel reads the pixels through the image (sampler-less read_imageui/read_imagef). The row
pitch must be a multiple of CL_DEVICE_IMAGE_PITCH_ALIGNMENT pixels, the buffer large enough,
the flags compatible (OpenCL 3.0, clCreateImage's errors). References are numpy's. Prints one
line per check; exits non-zero on the first mismatch."""

import numpy as np
import pyopencl as cl
from checks import check, finish, image_2d

SOURCE = r"""
kernel void fill_ui(write_only image2d_t img) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imageui(img, (int2)(x, y), (uint4)(x, y, x * y, 7 * x + 3 * y));
}

kernel void read_ui(read_only image2d_t img, global uint4* out) {
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_global_size(0) + x] = read_imageui(img, (int2)(x, y));
}

kernel void read_f(read_only image2d_t img, global float* out) {
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_global_size(0) + x] = read_imagef(img, (int2)(x, y)).x;
}
"""



def error_of(f):
    try:
        f()
    except cl.Error as e:
        return e.code
    return 0


def main():
    ctx = cl.create_some_context(interactive=False)
    dev = ctx.devices[0]
    q = cl.CommandQueue(ctx)
    mf = cl.mem_flags
    ch, ty = cl.channel_order, cl.channel_type
    if not dev.image_support:
        print("skip no image support")
        return

    check("cl_khr_image2d_from_buffer" in dev.extensions.split(), "extension reported")
    # CL_DEVICE_IMAGE_PITCH_ALIGNMENT, in pixels (PyOpenCL 2022.3 cannot query it; the value is
    # checked by `opencl --test integration image_queries::`): block IO's 64-byte pitch for 1-byte pixels.
    pitch_align = 64

    rgba8 = cl.ImageFormat(ch.RGBA, ty.UNSIGNED_INT8)
    w, h, elem = 13, 7, 4
    pitch = 2 * pitch_align * elem  # padded: more than one alignment step past the row
    fill = 0xAB
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR,
                    hostbuf=np.full(pitch * h, fill, np.uint8))
    img = image_2d(ctx, 0, rgba8, w, h, pitch, buf)
    check(img.get_image_info(cl.image_info.ROW_PITCH) == pitch, "CL_IMAGE_ROW_PITCH",
          img.get_image_info(cl.image_info.ROW_PITCH))
    check(img.get_image_info(cl.image_info.BUFFER) == buf, "CL_IMAGE_BUFFER is the buffer")
    check(img.get_info(cl.mem_info.ASSOCIATED_MEMOBJECT) == buf,
          "CL_MEM_ASSOCIATED_MEMOBJECT is the buffer")
    check(img.get_info(cl.mem_info.FLAGS) & mf.READ_WRITE != 0,
          "access flags inherited from the buffer", img.get_info(cl.mem_info.FLAGS))

    # Kernel writes the image; the buffer holds the pixels at the pitch, padding untouched.
    prg = cl.Program(ctx, SOURCE).build()
    prg.fill_ui(q, (w, h), None, img)
    raw = np.empty(pitch * h, np.uint8)
    cl.enqueue_copy(q, raw, buf)
    rows = raw.reshape(h, pitch)
    y, x = np.mgrid[0:h, 0:w]
    want = np.stack([x, y, x * y, 7 * x + 3 * y], axis=-1).astype(np.uint8)
    check(np.array_equal(rows[:, : w * elem].reshape(h, w, 4), want),
          "kernel write through the image, read through the buffer")
    check(np.all(rows[:, w * elem:] == fill), "row padding untouched")
    host = np.empty((h, w, 4), np.uint8)
    cl.enqueue_copy(q, host, img, origin=(0, 0), region=(w, h))
    check(np.array_equal(host, want), "clEnqueueReadImage of the image")

    # Host writes the buffer; a kernel reads the pixels through the image.
    rng = np.random.default_rng(15)
    data = rng.integers(0, 256, pitch * h, dtype=np.uint8)
    cl.enqueue_copy(q, buf, data)
    out = np.empty((h, w, 4), np.uint32)
    obuf = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
    prg.read_ui(q, (w, h), None, img, obuf)
    cl.enqueue_copy(q, out, obuf)
    want = data.reshape(h, pitch)[:, : w * elem].reshape(h, w, 4)
    check(np.array_equal(out, want), "buffer write, kernel read through the image")

    # 1-byte pixels (CL_R UNORM_INT8) over a sub-buffer, pitch at the alignment itself.
    r8 = cl.ImageFormat(ch.R, ty.UNORM_INT8)
    w1, h1 = 50, 5
    p1 = pitch_align
    origin = dev.get_info(cl.device_info.MEM_BASE_ADDR_ALIGN) // 8
    big = cl.Buffer(ctx, mf.READ_WRITE, origin + p1 * h1)
    sub = big.get_sub_region(origin, p1 * h1)
    data1 = rng.integers(0, 256, p1 * h1, dtype=np.uint8)
    cl.enqueue_copy(q, sub, data1)
    img1 = image_2d(ctx, mf.READ_ONLY, r8, w1, h1, p1, sub)
    out1 = np.empty((h1, w1), np.float32)
    obuf1 = cl.Buffer(ctx, mf.WRITE_ONLY, out1.nbytes)
    prg.read_f(q, (w1, h1), None, img1, obuf1)
    cl.enqueue_copy(q, out1, obuf1)
    want1 = data1.reshape(h1, p1)[:, :w1].astype(np.float32) / 255.0
    check(np.allclose(out1, want1, atol=1e-6), "read_imagef of R8 over a sub-buffer")

    # clCreateImage's errors.
    e = error_of(lambda: image_2d(ctx, 0, rgba8, w, h, w * elem, buf))
    check(e == cl.status_code.INVALID_IMAGE_FORMAT_DESCRIPTOR,
          "pitch not a multiple of the alignment: CL_INVALID_IMAGE_FORMAT_DESCRIPTOR", e)
    e = error_of(lambda: image_2d(ctx, 0, rgba8, w, h + 1, pitch, buf))
    check(e == cl.status_code.INVALID_IMAGE_SIZE, "buffer too small: CL_INVALID_IMAGE_SIZE", e)
    e = error_of(lambda: image_2d(ctx, mf.ALLOC_HOST_PTR, rgba8, w, h, pitch, buf))
    check(e == cl.status_code.INVALID_VALUE, "CL_MEM_ALLOC_HOST_PTR: CL_INVALID_VALUE", e)
    ro = cl.Buffer(ctx, mf.READ_ONLY, pitch * h)
    e = error_of(lambda: image_2d(ctx, mf.WRITE_ONLY, rgba8, w, h, pitch, ro))
    check(e == cl.status_code.INVALID_VALUE,
          "write-only image over a read-only buffer: CL_INVALID_VALUE", e)
    e = error_of(lambda: image_2d(ctx, 0, rgba8, w, h, pitch + elem, buf))
    check(e == cl.status_code.INVALID_IMAGE_FORMAT_DESCRIPTOR,
          "pitch a multiple of the element but not of the alignment", e)
    # A 2D image from a 2D image (OpenCL 2.0's sRGB/depth views) is not provided.
    e = error_of(lambda: image_2d(ctx, 0, rgba8, w, h, 0, img))
    check(e == cl.status_code.INVALID_OPERATION, "2D image from an image: CL_INVALID_OPERATION",
          e)

    q.finish()
    finish()


main()
