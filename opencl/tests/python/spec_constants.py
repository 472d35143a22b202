"""PyOpenCL against the ICD: SPIR-V specialization constants (OpenCL 3.0
clSetProgramSpecializationConstant) and the IL versions the device reports.

argv: spirv-as, the module's assembly (tests/spirv/spec_constants.spvasm). The module is
assembled here by spirv-as (Debian's spirv-tools) for SPIR-V 1.0, 1.3 and 1.5. Checks, from the API
specification's text: constants left unset keep the module's defaults; set ones (uchar, ushort,
uint, ulong, bool, float) reach the kernel, the last value set for an id wins and a rebuild
after a new value uses it; CL_INVALID_SPEC_ID for an id the module lacks, CL_INVALID_VALUE for
a size that is not the constant's (1 for a bool), CL_INVALID_PROGRAM for a program from source;
a SPIR-V 1.3 module (not reported in CL_DEVICE_IL_VERSION, but compiled, as NEO compiles it)
builds; a 1.5 one fails its build with CL_BUILD_PROGRAM_FAILURE and a log naming the version. Prints one line per check; exits
non-zero on the first mismatch."""

import struct
import subprocess
import sys
import tempfile

import numpy as np
import pyopencl as cl

import checks
from checks import code_of

CL_INVALID_SPEC_ID = -71
CL_INVALID_VALUE = -30
CL_INVALID_PROGRAM = -44
CL_BUILD_PROGRAM_FAILURE = -11


def check(name, ok, detail=""):
    """Stops at the first failure: later checks build on earlier ones."""
    checks.check(ok, name, detail)
    checks.finish()


def assemble(spirv_as, source, env):
    with tempfile.NamedTemporaryFile(suffix=".spv") as out:
        subprocess.run([spirv_as, "--target-env", env, source, "-o", out.name], check=True)
        return open(out.name, "rb").read()


def set_constant(prg, spec_id, value):
    # PyOpenCL's Program wrapper leaves the call to its underlying _cl._Program.
    prg._get_prg().set_specialization_constant(spec_id, value)


def run(ctx, queue, il, values):
    """Builds `il` after setting `values` ({id: bytes}) and returns (out, outf)."""
    prg = cl.Program(ctx, il)
    for spec_id, value in values:
        set_constant(prg, spec_id, value)
    prg.build()
    out = np.zeros(5, np.uint64)
    outf = np.zeros(1, np.float32)
    mf = cl.mem_flags
    bo = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
    bf = cl.Buffer(ctx, mf.WRITE_ONLY, outf.nbytes)
    prg.spec(queue, (1,), (1,), bo, bf)
    cl.enqueue_copy(queue, out, bo)
    cl.enqueue_copy(queue, outf, bf)
    queue.finish()
    return [int(v) for v in out], float(outf[0])


def main():
    spirv_as, source = sys.argv[1], sys.argv[2]
    dev = cl.get_platforms()[0].get_devices()[0]
    versions = dev.get_info(cl.device_info.IL_VERSION).split()
    check("SPIR-V 1.0 reported", "SPIR-V_1.0" in versions, versions)
    ctx = cl.Context([dev])
    queue = cl.CommandQueue(ctx)
    il = assemble(spirv_as, source, "spv1.0")

    got = run(ctx, queue, il, [])
    check("defaults when nothing is set", got == ([1, 2, 3, 4, 9], 1.5), got)

    values = [
        (1, struct.pack("<B", 0xFD)),  # the kernel sign-extends it: -3
        (2, struct.pack("<H", 0xBEEF)),
        (3, struct.pack("<I", 0x12345678)),
        (4, struct.pack("<Q", 0x0123456789ABCDEF)),
        (5, struct.pack("<B", 1)),
        (6, struct.pack("<f", -2.25)),
        (3, struct.pack("<I", 0xCAFEF00D)),  # the last value set wins
    ]
    got = run(ctx, queue, il, values)
    want = ([(1 << 64) - 3, 0xBEEF, 0xCAFEF00D, 0x0123456789ABCDEF, 7], -2.25)
    check("every type set, last value wins", got == want, (got, want))

    got = run(ctx, queue, il, [(4, struct.pack("<Q", 1 << 63)), (5, b"\x00")])
    check("only some set; bool false", got == ([1, 2, 3, 1 << 63, 9], 1.5), got)

    prg = cl.Program(ctx, il)
    set_constant(prg, 3, struct.pack("<I", 10))
    prg.build()
    set_constant(prg, 3, struct.pack("<I", 11))
    prg.build()
    out = np.zeros(5, np.uint64)
    bo = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, out.nbytes)
    bf = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, 4)
    prg.spec(queue, (1,), (1,), bo, bf)
    cl.enqueue_copy(queue, out, bo)
    check("a rebuild takes the new value", int(out[2]) == 11, out)

    prg = cl.Program(ctx, il)
    def set_(spec_id, value):
        set_constant(prg, spec_id, value)

    check("unknown SpecId", code_of(lambda: set_(99, struct.pack("<I", 1))) == CL_INVALID_SPEC_ID)
    check("uint given 8 bytes", code_of(lambda: set_(3, struct.pack("<Q", 1))) == CL_INVALID_VALUE)
    check("bool given 4 bytes", code_of(lambda: set_(5, struct.pack("<I", 1))) == CL_INVALID_VALUE)
    check("ulong given 4 bytes", code_of(lambda: set_(4, struct.pack("<I", 1))) == CL_INVALID_VALUE)
    src = cl.Program(ctx, "kernel void k(global int* o) { o[0] = 1; }")
    check(
        "program from source",
        code_of(lambda: set_constant(src, 1, b"\x01")) == CL_INVALID_PROGRAM,
    )

    # 1.3 is not reported but built, as NEO 22.43 builds it: ocloc's IGC compiles it.
    newer = assemble(spirv_as, source, "spv1.3")
    check("SPIR-V 1.3 module builds", code_of(lambda: cl.Program(ctx, newer).build()) == 0)
    # 1.5 is past what the compiler reads: the build fails, naming the version.
    newest = assemble(spirv_as, source, "spv1.5")
    p = cl.Program(ctx, newest)
    code = code_of(lambda: p.build())
    log = p.get_build_info(dev, cl.program_build_info.LOG)
    check(
        "a SPIR-V 1.5 module fails its build",
        code == CL_BUILD_PROGRAM_FAILURE and "1.5" in log,
        (code, log),
    )
    print("spec constants: all checks passed")


main()
