"""What the image scripts here share: checks that print an ok/FAIL line each and set the
exit status, and 2D images over a buffer, which PyOpenCL's own Image constructor refuses."""

import sys

import numpy as np
import pyopencl as cl

_failed = False


def check(ok, what, detail=""):
    global _failed
    if ok:
        print(f"ok   {what}")
    else:
        _failed = True
        print(f"FAIL {what} {detail}")


def code_of(f):
    """The OpenCL error code `f` raised, or 0."""
    try:
        f()
    except cl.Error as e:
        return e.code
    return 0


def close(got, want):
    """Within 1.5 ulp (the conversion rules' bound for normalized integers to float)."""
    ulp = np.spacing(np.abs(want).astype(np.float32))
    return bool(np.all(np.abs(got.astype(np.float64) - want) <= 1.5 * ulp))


def finish():
    """Exits non-zero when any check failed."""
    if _failed:
        sys.exit(1)


# The descriptor-taking constructor cl.Image.__init__ wraps takes a buffer for 2D images.
_WRAPPED = [c.cell_contents for c in cl.Image.__init__.__closure__ if callable(c.cell_contents)]


def image_2d(ctx, flags, fmt, width, height, pitch, mem):
    """A 2D image over buffer (or image) `mem` at `pitch` bytes a row (cl_khr_image2d_from_buffer)."""
    desc = cl.ImageDescriptor()
    desc.image_type = cl.mem_object_type.IMAGE2D
    desc.shape = (width, height)
    desc.pitches = (pitch, 0)
    desc.num_mip_levels = 0
    desc.num_samples = 0
    desc.buffer = mem
    img = cl.Image.__new__(cl.Image)
    _WRAPPED[0](img, ctx, flags, fmt, desc, None)
    return img
