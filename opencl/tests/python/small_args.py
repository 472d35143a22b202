"""PyOpenCL against the ICD: by-value arguments narrower than 4 bytes (char, uchar, short,
ushort, char2, char3, and half where the device reports cl_khr_fp16), set with the size of
their OpenCL type as every application does (clSetKernelArg's arg_size is sizeof the type,
OpenCL 3.0 API spec), while narrower sizes are refused with CL_INVALID_ARG_SIZE (the CTS's
api negative_invalid_arg_size) and wider ones are taken by their low bytes, as Intel's runtime
takes them (oneDNN, under OpenVINO's GPU plugin, passes a 64-bit value for an `int` offset); and
clGetKernelArgInfo answering only for a program built with -cl-kernel-arg-info. The expected
values are numpy's conversions of the same inputs. Prints one line per check; exits non-zero on
the first mismatch."""

import sys

import numpy as np
import pyopencl as cl
import pyopencl.cltypes as clt

from checks import code_of

SOURCE = r"""
kernel void small(global int* o, char c, short s, uchar u, char2 c2, ushort us, char3 c3) {
    size_t i = get_global_id(0);
    global int* r = o + 9 * i;
    r[0] = c; r[1] = s; r[2] = u; r[3] = c2.x; r[4] = c2.y; r[5] = us;
    r[6] = c3.x; r[7] = c3.y; r[8] = c3.z;
}
"""

HALF_SOURCE = r"""
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void small_half(global float* o, half h) { o[get_global_id(0)] = vload_half(0, &h); }
"""

CL_INVALID_ARG_SIZE = -51
CL_KERNEL_ARG_INFO_NOT_AVAILABLE = -19
ITEMS = 16


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + str(detail)))
    if not ok:
        sys.exit(1)


def main():
    ctx = cl.Context(cl.get_platforms()[0].get_devices())
    dev = ctx.devices[0]
    q = cl.CommandQueue(ctx)
    mf = cl.mem_flags

    k = cl.Program(ctx, SOURCE).build().small
    c, s, u, us = np.int8(-3), np.int16(-1000), np.uint8(200), np.uint16(60000)
    c2 = np.array((-7, 100), dtype=clt.char2)
    c3 = np.array((1, -2, 3, 0), dtype=clt.char3)
    out = cl.Buffer(ctx, mf.WRITE_ONLY, 9 * 4 * ITEMS)
    k(q, (ITEMS,), None, out, c, s, u, c2, us, c3)
    got = np.empty((ITEMS, 9), dtype=np.int32)
    cl.enqueue_copy(q, got, out)
    q.finish()
    want = np.array([c, s, u, c2["x"], c2["y"], us, c3["x"], c3["y"], c3["z"]]).astype(np.int32)
    check("char, short, uchar, char2, ushort, char3 arguments",
          np.array_equal(got, np.tile(want, (ITEMS, 1))), got[0])

    # Wider than the type: the low bytes, as NEO does (its immediate arguments copy the type's
    # bytes of whatever size is given).
    wide = [(1, np.int32(-3 & 0xff | 0x5500)), (2, np.int64(-1000 & 0xffff | 0x77 << 40)),
            (5, np.uint32(60000 | 0x10000))]
    for index, zero in ((1, np.int8(0)), (2, np.int16(0)), (5, np.uint16(0))):
        k.set_arg(index, zero)
    for index, value in wide:
        k.set_arg(index, value)
    cl.enqueue_nd_range_kernel(q, k, (ITEMS,), None)
    cl.enqueue_copy(q, got, out)
    q.finish()
    check("wider arguments (int for char, long for short, uint for ushort) by their low bytes",
          np.array_equal(got, np.tile(want, (ITEMS, 1))), got[0])
    if "neo" in sys.argv[1:]:
        # Intel's runtime 22.43 also takes narrower sizes, against the API spec: not checked.
        return

    # The argument's type decides the size, not its (wider) payload slot.
    for name, index, value in [("1 byte for short", 2, np.int8(1)),
                               ("1 byte for char2", 4, np.int8(1)),
                               ("3 bytes for char3", 6, np.zeros(3, np.int8))]:
        check("CL_INVALID_ARG_SIZE: " + name,
              code_of(lambda: k.set_arg(index, value)) == CL_INVALID_ARG_SIZE,
              code_of(lambda: k.set_arg(index, value)))

    # Built without -cl-kernel-arg-info: no argument information, though the runtime used it.
    check("arg info not available without -cl-kernel-arg-info",
          code_of(lambda: k.get_arg_info(1, cl.kernel_arg_info.TYPE_NAME)) == CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
          code_of(lambda: k.get_arg_info(1, cl.kernel_arg_info.TYPE_NAME)))
    ka = cl.Program(ctx, SOURCE).build(options=["-cl-kernel-arg-info"]).small
    names = [ka.get_arg_info(i, cl.kernel_arg_info.TYPE_NAME) for i in range(7)]
    check("arg type names with -cl-kernel-arg-info",
          names == ["int*", "char", "short", "uchar", "char2", "ushort", "char3"], names)

    if "cl_khr_fp16" in dev.extensions:
        kh = cl.Program(ctx, HALF_SOURCE).build().small_half
        hout = cl.Buffer(ctx, mf.WRITE_ONLY, 4 * ITEMS)
        kh(q, (ITEMS,), None, hout, np.float16(-2.75))
        hgot = np.empty(ITEMS, dtype=np.float32)
        cl.enqueue_copy(q, hgot, hout)
        check("half argument", np.all(hgot == np.float32(np.float16(-2.75))), hgot[:4])
    else:
        print("skip half argument: the device does not report cl_khr_fp16")


main()
