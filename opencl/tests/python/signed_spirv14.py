"""PyOpenCL against the ICD: a SPIR-V 1.4 module as ocloc writes it for OpenCL C with signed
arithmetic (its NoSignedWrap decorations are core in 1.4). argv: the module (made by the test
with `ocloc -spv_only` from `SIGNED` in pyopencl.rs). Checks what the device reports as its IL
versions, that the module builds through clCreateProgramWithIL, and the kernel's results against
OpenCL C's signed arithmetic computed here (division truncating toward zero, arithmetic right
shift), for inputs where nothing overflows. Prints one line per check; exits non-zero if any
failed."""

import sys

import numpy as np
import pyopencl as cl

from checks import check, finish


def c_div(n, d):
    """OpenCL C's signed division: the quotient truncated toward zero."""
    q = np.abs(n) // np.abs(d)
    return np.where((n < 0) != (d < 0), -q, q)


def main():
    il = open(sys.argv[1], "rb").read()
    dev = cl.get_platforms()[0].get_devices()[0]
    print("= il_version", dev.get_info(cl.device_info.IL_VERSION).strip())
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, il).build()
    check(True, "a SPIR-V 1.4 module from ocloc builds")
    rng = np.random.default_rng(14)
    # |x * y| < 2^30 and the other terms small: no signed overflow anywhere.
    a = rng.integers(-30000, 30000, 4096, dtype=np.int32)
    b = rng.integers(-30000, 30000, 4096, dtype=np.int32)
    mf = cl.mem_flags
    ab = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    bb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
    ob = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
    prg.sarith(q, a.shape, None, ab, bb, ob)
    got = np.empty_like(a)
    cl.enqueue_copy(q, got, ob)
    x, y = a.astype(np.int64), b.astype(np.int64)
    want = x * y + c_div(x - 3 * y, y | 1) - (x >> 2)
    bad = np.flatnonzero(got != want)
    check(bad.size == 0, "x * y + (x - 3 * y) / (y | 1) - (x >> 2) as OpenCL C computes it",
          f"{bad.size} wrong, first at {bad[:1]}: {got[bad[:1]]} != {want[bad[:1]]}")
    finish()


main()
