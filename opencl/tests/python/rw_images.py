"""PyOpenCL against the ICD: read_write image arguments (OpenCL 3.0 `__opencl_c_read_write_images`).
The device reports the feature, at least OpenCL 3.0's 64 read-write image arguments and formats
for CL_MEM_KERNEL_READ_AND_WRITE; kernels read a pixel with the sampler-less read_image*,
modify it and write it back to the same image, with atomic_work_item_fence(CLK_IMAGE_MEM_FENCE)
between a write and a later read of the same pixel by the same work-item, which OpenCL C 3.0
(6.15.15.6, "Reading and writing to the same image in a kernel") requires for the read to see the
write. 2D images of several formats, a 3D image and a 2D image from a buffer. References are
numpy's. Prints one line per check; exits non-zero on the first mismatch."""

import numpy as np
import pyopencl as cl
from checks import check, finish, image_2d

SOURCE = r"""
#define FENCE atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, \
                                     memory_scope_work_item)

// v -> 2v + 1, then (after the fence) the value read back -> + 3; `seen` gets what the second
// read returned.
kernel void twice_f(read_write image2d_t img, global float4* seen) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 v = read_imagef(img, p);
    write_imagef(img, p, v * 2.0f + 1.0f);
    FENCE;
    float4 w = read_imagef(img, p);
    seen[p.y * get_global_size(0) + p.x] = w;
    write_imagef(img, p, w + 3.0f);
}

kernel void twice_ui(read_write image2d_t img, global uint4* seen) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    uint4 v = read_imageui(img, p);
    write_imageui(img, p, v + (uint4)(1, 2, 3, 4));
    FENCE;
    uint4 w = read_imageui(img, p);
    seen[p.y * get_global_size(0) + p.x] = w;
    write_imageui(img, p, w ^ (uint4)(p.x, p.y, 0x55, 0xAA));
}

kernel void negate_i(read_write image2d_t img) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagei(img, p, -read_imagei(img, p));
}

kernel void scale_3d(read_write image3d_t img) {
    int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    write_imagef(img, p, read_imagef(img, p) * 0.5f);
}
"""



def main():
    ctx = cl.create_some_context(interactive=False)
    dev = ctx.devices[0]
    q = cl.CommandQueue(ctx)
    mf = cl.mem_flags
    ch, ty = cl.channel_order, cl.channel_type
    if not dev.image_support:
        print("skip no image support")
        return

    features = [f.name for f in dev.get_info(cl.device_info.OPENCL_C_FEATURES)]
    check("__opencl_c_read_write_images" in features, "__opencl_c_read_write_images reported")
    rw_args = dev.get_info(cl.device_info.MAX_READ_WRITE_IMAGE_ARGS)
    check(rw_args >= 64, "CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS >= 64", rw_args)
    rw_formats = cl.get_supported_image_formats(ctx, mf.KERNEL_READ_AND_WRITE,
                                                cl.mem_object_type.IMAGE2D)
    want_formats = [(ch.RGBA, ty.FLOAT), (ch.RGBA, ty.UNSIGNED_INT8), (ch.R, ty.SIGNED_INT16)]
    have = {(f.channel_order, f.channel_data_type) for f in rw_formats}
    check(all(f in have for f in want_formats), "CL_MEM_KERNEL_READ_AND_WRITE formats",
          len(rw_formats))

    prg = cl.Program(ctx, SOURCE).build(options=["-cl-std=CL3.0"])
    rng = np.random.default_rng(2015)
    w, h = 19, 6

    # RGBA float.
    src = rng.integers(-64, 64, (h, w, 4)).astype(np.float32) / 4
    img = cl.Image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, cl.ImageFormat(ch.RGBA, ty.FLOAT),
                   shape=(w, h), hostbuf=src)
    seen = np.empty((h, w, 4), np.float32)
    sbuf = cl.Buffer(ctx, mf.WRITE_ONLY, seen.nbytes)
    prg.twice_f(q, (w, h), None, img, sbuf)
    got = np.empty_like(src)
    cl.enqueue_copy(q, got, img, origin=(0, 0), region=(w, h))
    cl.enqueue_copy(q, seen, sbuf)
    check(np.array_equal(seen, src * 2 + 1), "read after write and fence sees the write (float)")
    check(np.array_equal(got, src * 2 + 4), "read_write RGBA float: (2v + 1) + 3")

    # RGBA uint8 (wrapping as the format's saturation does not apply to write_imageui: the
    # values stay in range here).
    src8 = rng.integers(0, 200, (h, w, 4), dtype=np.uint8)
    img8 = cl.Image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR,
                    cl.ImageFormat(ch.RGBA, ty.UNSIGNED_INT8), shape=(w, h), hostbuf=src8)
    seen8 = np.empty((h, w, 4), np.uint32)
    sbuf8 = cl.Buffer(ctx, mf.WRITE_ONLY, seen8.nbytes)
    prg.twice_ui(q, (w, h), None, img8, sbuf8)
    got8 = np.empty_like(src8)
    cl.enqueue_copy(q, got8, img8, origin=(0, 0), region=(w, h))
    cl.enqueue_copy(q, seen8, sbuf8)
    first = src8.astype(np.uint32) + np.array([1, 2, 3, 4], np.uint32)
    y, x = np.mgrid[0:h, 0:w]
    mask = np.stack([x, y, np.full_like(x, 0x55), np.full_like(x, 0xAA)], -1).astype(np.uint32)
    check(np.array_equal(seen8, first), "read after write and fence sees the write (uint8)")
    check(np.array_equal(got8, (first ^ mask).astype(np.uint8)), "read_write RGBA uint8")

    # R int16.
    srci = rng.integers(-30000, 30000, (h, w), dtype=np.int16)
    imgi = cl.Image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR,
                    cl.ImageFormat(ch.R, ty.SIGNED_INT16), shape=(w, h), hostbuf=srci)
    prg.negate_i(q, (w, h), None, imgi)
    goti = np.empty_like(srci)
    cl.enqueue_copy(q, goti, imgi, origin=(0, 0), region=(w, h))
    check(np.array_equal(goti, -srci), "read_write R int16 negated")

    # 3D RGBA float.
    d = 3
    src3 = rng.integers(-64, 64, (d, h, w, 4)).astype(np.float32)
    img3 = cl.Image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, cl.ImageFormat(ch.RGBA, ty.FLOAT),
                    shape=(w, h, d), hostbuf=src3)
    prg.scale_3d(q, (w, h, d), None, img3)
    got3 = np.empty_like(src3)
    cl.enqueue_copy(q, got3, img3, origin=(0, 0, 0), region=(w, h, d))
    check(np.array_equal(got3, src3 * 0.5), "read_write 3D RGBA float halved")

    # A read_write image over a buffer: the kernel's result in the buffer at the pitch.
    if "cl_khr_image2d_from_buffer" in dev.extensions.split():
        pitch = 64 * 16  # CL_DEVICE_IMAGE_PITCH_ALIGNMENT (64 pixels) × 16 bytes
        raw = rng.integers(-64, 64, pitch * h // 4).astype(np.float32)
        buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=raw)
        imgb = image_2d(ctx, 0, cl.ImageFormat(ch.RGBA, ty.FLOAT), w, h, pitch, buf)
        sbufb = cl.Buffer(ctx, mf.WRITE_ONLY, seen.nbytes)
        prg.twice_f(q, (w, h), None, imgb, sbufb)
        back = np.empty_like(raw)
        cl.enqueue_copy(q, back, buf)
        rows, out = raw.reshape(h, pitch // 4), back.reshape(h, pitch // 4)
        px = w * 4
        check(np.array_equal(out[:, :px], rows[:, :px] * 2 + 4)
              and np.array_equal(out[:, px:], rows[:, px:]),
              "read_write image from a buffer, result in the buffer")

    q.finish()
    finish()


main()
