"""A 2D RGBA8 image round trip through NEO: created from host memory (CL_MEM_COPY_HOST_PTR) and
written with clEnqueueWriteImage, each read back with clEnqueueReadImage and compared with the
host bytes. Prints one line per check; exits non-zero on a mismatch."""

import sys

import numpy as np
import pyopencl as cl

ctx = cl.create_some_context(interactive=False)
q = cl.CommandQueue(ctx)
w, h = 16, 8
src = (np.arange(w * h * 4) % 251).astype(np.uint8).reshape(h, w, 4)
fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8)
mf = cl.mem_flags
ok = True
for mode in ("copy_host_ptr", "write_image"):
    if mode == "copy_host_ptr":
        img = cl.Image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, fmt, shape=(w, h), hostbuf=src)
    else:
        img = cl.Image(ctx, mf.READ_WRITE, fmt, shape=(w, h))
        cl.enqueue_copy(q, img, src, origin=(0, 0), region=(w, h)).wait()
    out = np.zeros_like(src)
    cl.enqueue_copy(q, out, img, origin=(0, 0), region=(w, h)).wait()
    same = bool((out == src).all())
    print(("ok   " if same else "FAIL ") + mode)
    ok &= same
sys.exit(0 if ok else 1)
