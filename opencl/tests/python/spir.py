"""PyOpenCL against the ICD: cl_khr_spir. argv: a SPIR binary (LLVM bitcode for the spir64
target, made by the test with clang from `SPIR_SOURCE` in pyopencl.rs). Checks, from the
extension's text: the device lists cl_khr_spir and CL_DEVICE_SPIR_VERSIONS names 1.2;
clCreateProgramWithBinary takes the binary as CL_PROGRAM_BINARY_TYPE_INTERMEDIATE; clBuildProgram
with `-x spir -spir-std=1.2` makes it an executable whose kernels compute their formulas
(computed here with numpy), and argument names (which the binary carries) given
`-cl-kernel-arg-info`; bitcode the
compiler cannot read fails its build. Prints one line per check; exits non-zero if any
failed."""

import sys

import numpy as np
import pyopencl as cl

from checks import check, code_of, finish

CL_PROGRAM_BINARY_TYPE_INTERMEDIATE = 0x40E1
CL_PROGRAM_BINARY_TYPE_EXECUTABLE = 0x4
CL_DEVICE_SPIR_VERSIONS = 0x40E0
CL_BUILD_PROGRAM_FAILURE = -11


def main():
    spir = open(sys.argv[1], "rb").read()
    dev = cl.get_platforms()[0].get_devices()[0]
    check("cl_khr_spir" in dev.extensions.split(), "the device lists cl_khr_spir")
    versions = dev.get_info(CL_DEVICE_SPIR_VERSIONS).split()
    check("1.2" in versions, "CL_DEVICE_SPIR_VERSIONS names 1.2", versions)
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, [dev], [spir])
    kind = prg.get_build_info(dev, cl.program_build_info.BINARY_TYPE)
    check(kind == CL_PROGRAM_BINARY_TYPE_INTERMEDIATE, "a SPIR binary is intermediate", kind)
    prg.build(options="-x spir -spir-std=1.2 -cl-kernel-arg-info")
    kind = prg.get_build_info(dev, cl.program_build_info.BINARY_TYPE)
    check(kind == CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "built, it is an executable", kind)

    mf = cl.mem_flags
    a = (np.arange(1024, dtype=np.int32) * 37) % 2001 - 1000
    ab = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    ob = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
    axpb = prg.axpb
    check(axpb.get_arg_info(0, cl.kernel_arg_info.NAME) == "a", "argument names with -cl-kernel-arg-info")
    for k in (5, -77):
        axpb(q, a.shape, None, ab, ob, np.int32(k))
        got = np.empty_like(a)
        cl.enqueue_copy(q, got, ob)
        check(np.array_equal(got, a * 3 + k), f"axpb: a * 3 + {k}")
    # Work-groups of 64 reverse their slice through local memory, scaled by a float.
    x = np.linspace(-4, 4, 1024).astype(np.float32)
    xb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    yb = cl.Buffer(ctx, mf.WRITE_ONLY, x.nbytes)
    prg.reverse(q, x.shape, (64,), xb, yb, cl.LocalMemory(64 * 4), np.float32(0.5))
    y = np.empty_like(x)
    cl.enqueue_copy(q, y, yb)
    want = (x.reshape(-1, 64)[:, ::-1] * np.float32(0.5)).reshape(-1)
    check(np.array_equal(y, want), "reverse: each group's slice reversed through local memory")

    # Bitcode's magic and nothing a compiler can read: taken as intermediate, refused at build.
    bad = cl.Program(ctx, [dev], [b"BC\xc0\xde" + bytes(60)])
    code = code_of(lambda: bad.build(options="-x spir -spir-std=1.2"))
    check(code == CL_BUILD_PROGRAM_FAILURE, "unreadable bitcode fails its build", code)
    finish()


main()
