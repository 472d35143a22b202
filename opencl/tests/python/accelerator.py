"""cl_intel_accelerator through the C API (ctypes on the loader), the functions got from
clGetExtensionFunctionAddressForPlatform, each answer against the extension's text
(cl_intel_accelerator, version 2) and the motion-estimation descriptor values of
cl_intel_motion_estimation (cl_ext.h):

- the extension is listed and its four functions are found; cl_intel_motion_estimation is not
  listed here (no VME built-in kernels) — NEO lists it where its hardware table says VME, the
  script prints which;
- clCreateAcceleratorINTEL: CL_INVALID_CONTEXT for a bad context, CL_INVALID_ACCELERATOR_TYPE_INTEL
  for an unknown type, CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL for a NULL descriptor, a wrong
  size, and each field outside its defined values; a valid descriptor makes an object with
  reference count 1;
- clGetAcceleratorInfoINTEL: the descriptor as given (also after the application's copy is
  overwritten; NEO 22.43 keeps the application's pointer and answers with what it holds now), the context, the type and the reference count, sizes through
  param_value_size_ret, CL_INVALID_VALUE for a small buffer or an unknown name;
- retain/release change the count; a bad handle gets CL_INVALID_ACCELERATOR_INTEL.

Prints one line per check; exits non-zero when any fails."""

import ctypes as C
import sys

import pyopencl as cl
from checks import check, finish

CL = C.CDLL("libOpenCL.so.1")
vp = C.c_void_p
u32 = C.c_uint32
i32 = C.c_int32
size_t = C.c_size_t
CL.clGetExtensionFunctionAddressForPlatform.restype = vp
CL.clGetExtensionFunctionAddressForPlatform.argtypes = [vp, C.c_char_p]

CL_INVALID_VALUE = -30
CL_INVALID_CONTEXT = -34
CL_INVALID_ACCELERATOR_INTEL = -1094
CL_INVALID_ACCELERATOR_TYPE_INTEL = -1095
CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL = -1096
CL_ACCELERATOR_TYPE_MOTION_ESTIMATION_INTEL = 0
CL_ACCELERATOR_DESCRIPTOR_INTEL = 0x4090
CL_ACCELERATOR_REFERENCE_COUNT_INTEL = 0x4091
CL_ACCELERATOR_CONTEXT_INTEL = 0x4092
CL_ACCELERATOR_TYPE_INTEL = 0x4093
# cl_motion_estimation_desc_intel's fields and the values cl_ext.h defines for each.
FIELDS = [
    ("mb_block_type", [0x0, 0x1, 0x2]),
    ("subpixel_mode", [0x0, 0x1, 0x2]),
    ("sad_adjust_mode", [0x0, 0x1]),
    ("search_path_type", [0x0, 0x1, 0x5]),
]


class MeDesc(C.Structure):
    _fields_ = [(name, u32) for name, _ in FIELDS]


def function(platform, name, restype, argtypes):
    addr = CL.clGetExtensionFunctionAddressForPlatform(platform.int_ptr, name.encode())
    check(bool(addr), f"{name} found")
    if not addr:
        finish()
        sys.exit(1)
    return C.CFUNCTYPE(restype, *argtypes)(addr)


def main():
    platform = cl.get_platforms()[0]
    dev = platform.get_devices()[0]
    exts = dev.extensions.split()
    neo = "neo" in sys.argv[1:]
    check("cl_intel_accelerator" in exts, "cl_intel_accelerator listed")
    print(f"info cl_intel_motion_estimation listed: {'cl_intel_motion_estimation' in exts}")
    if not neo:
        check("cl_intel_motion_estimation" not in exts,
              "cl_intel_motion_estimation not listed (no VME built-in kernels)")

    create = function(platform, "clCreateAcceleratorINTEL", vp, [vp, u32, size_t, vp, C.POINTER(i32)])
    info = function(platform, "clGetAcceleratorInfoINTEL", i32, [vp, u32, size_t, vp, C.POINTER(size_t)])
    retain = function(platform, "clRetainAcceleratorINTEL", i32, [vp])
    release = function(platform, "clReleaseAcceleratorINTEL", i32, [vp])
    ctx = cl.Context([dev])

    def made(context, kind, size, desc):
        err = i32(12345)
        acc = create(context, kind, size, desc, C.byref(err))
        return acc, err.value

    good = MeDesc(0x1, 0x2, 0x1, 0x5)
    sz = C.sizeof(MeDesc)
    check(sz == 16, "cl_motion_estimation_desc_intel is 16 bytes")

    acc, err = made(None, CL_ACCELERATOR_TYPE_MOTION_ESTIMATION_INTEL, sz, C.byref(good))
    check(acc is None and err == CL_INVALID_CONTEXT, "NULL context: CL_INVALID_CONTEXT", err)
    acc, err = made(ctx.int_ptr, 1, sz, C.byref(good))
    check(acc is None and err == CL_INVALID_ACCELERATOR_TYPE_INTEL,
          "type 1: CL_INVALID_ACCELERATOR_TYPE_INTEL", err)
    acc, err = made(ctx.int_ptr, 0x4093, sz, C.byref(good))
    check(acc is None and err == CL_INVALID_ACCELERATOR_TYPE_INTEL,
          "type 0x4093: CL_INVALID_ACCELERATOR_TYPE_INTEL", err)
    acc, err = made(ctx.int_ptr, CL_ACCELERATOR_TYPE_MOTION_ESTIMATION_INTEL, sz, None)
    check(acc is None and err == CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL,
          "NULL descriptor: CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL", err)
    for bad in (0, 12, 15, 17, 32):
        acc, err = made(ctx.int_ptr, CL_ACCELERATOR_TYPE_MOTION_ESTIMATION_INTEL, bad, C.byref(good))
        check(acc is None and err == CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL,
              f"descriptor_size {bad}: CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL", err)
    for i, (name, allowed) in enumerate(FIELDS):
        for v in range(0, 8):
            d = MeDesc(0, 0, 0, 0)
            setattr(d, name, v)
            acc, err = made(ctx.int_ptr, CL_ACCELERATOR_TYPE_MOTION_ESTIMATION_INTEL, sz, C.byref(d))
            if v in allowed:
                ok = acc is not None and err == 0
                check(ok, f"{name} = {v:#x}: created", err)
                if ok:
                    check(release(acc) == 0, f"{name} = {v:#x}: released")
            else:
                check(acc is None and err == CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL,
                      f"{name} = {v:#x}: CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL", err)

    acc, err = made(ctx.int_ptr, CL_ACCELERATOR_TYPE_MOTION_ESTIMATION_INTEL, sz, C.byref(good))
    check(acc is not None and err == 0, "valid descriptor: created", err)
    # The application's copy may change after creation; the spec returns "the descriptor
    # structure supplied when the accelerator was created".
    supplied = bytes(good)
    good.mb_block_type = 0x2

    def query(name, size):
        buf = (C.c_ubyte * max(size, 1))()
        ret = size_t(0)
        err = info(acc, name, size, buf if size else None, C.byref(ret))
        return err, bytes(buf)[:size], ret.value

    err, _, n = query(CL_ACCELERATOR_DESCRIPTOR_INTEL, 0)
    check(err == 0 and n == 16, "CL_ACCELERATOR_DESCRIPTOR_INTEL size 16", (err, n))
    err, got, _ = query(CL_ACCELERATOR_DESCRIPTOR_INTEL, 16)
    if neo:
        # NEO 22.43 keeps the application's pointer, not a copy: it answers with whatever the
        # structure holds now.
        check(err == 0 and got == bytes(good),
              "NEO: CL_ACCELERATOR_DESCRIPTOR_INTEL reads the application's structure as it is now",
              (err, got))
    else:
        check(err == 0 and got == supplied, "CL_ACCELERATOR_DESCRIPTOR_INTEL as supplied",
              (err, got))
    err, _, _ = query(CL_ACCELERATOR_DESCRIPTOR_INTEL, 15)
    check(err == CL_INVALID_VALUE, "descriptor into 15 bytes: CL_INVALID_VALUE", err)
    err, got, n = query(CL_ACCELERATOR_CONTEXT_INTEL, 8)
    check(err == 0 and n == 8 and int.from_bytes(got, "little") == ctx.int_ptr,
          "CL_ACCELERATOR_CONTEXT_INTEL", (err, n))
    err, got, n = query(CL_ACCELERATOR_TYPE_INTEL, 4)
    check(err == 0 and n == 4 and int.from_bytes(got, "little") == 0,
          "CL_ACCELERATOR_TYPE_INTEL motion estimation", (err, n, got))
    err, _, _ = query(CL_ACCELERATOR_TYPE_INTEL, 2)
    check(err == CL_INVALID_VALUE, "type into 2 bytes: CL_INVALID_VALUE", err)
    err, _, _ = query(0x4094, 64)
    check(err == CL_INVALID_VALUE, "name 0x4094: CL_INVALID_VALUE", err)

    def count():
        err, got, n = query(CL_ACCELERATOR_REFERENCE_COUNT_INTEL, 4)
        return int.from_bytes(got, "little") if err == 0 and n == 4 else ("error", err, n)

    check(count() == 1, "reference count 1 after create", count())
    check(retain(acc) == 0, "retain")
    check(count() == 2, "reference count 2 after retain", count())
    check(release(acc) == 0, "release")
    check(count() == 1, "reference count 1 after release", count())
    check(release(acc) == 0, "last release")

    bogus = ctx.int_ptr  # a context, not an accelerator
    check(retain(None) == CL_INVALID_ACCELERATOR_INTEL, "retain NULL: CL_INVALID_ACCELERATOR_INTEL")
    check(release(None) == CL_INVALID_ACCELERATOR_INTEL, "release NULL: CL_INVALID_ACCELERATOR_INTEL")
    check(info(None, CL_ACCELERATOR_TYPE_INTEL, 0, None, None) == CL_INVALID_ACCELERATOR_INTEL,
          "info NULL: CL_INVALID_ACCELERATOR_INTEL")
    check(info(bogus, CL_ACCELERATOR_TYPE_INTEL, 0, None, None) == CL_INVALID_ACCELERATOR_INTEL,
          "info on a context: CL_INVALID_ACCELERATOR_INTEL")
    finish()


main()
