"""PyOpenCL against the ICD: cl_khr_spirv_no_integer_wrap_decoration. argv: spirv-as, the
module's assembly (tests/spirv/no_integer_wrap.spvasm), assembled here for SPIR-V 1.2 with
SPV_KHR_no_integer_wrap_decoration: the device must list the extension and build and run the
module, out[i] = in[i] * 3 + 1 for inputs where nothing wraps. Prints one line per check; exits
non-zero on the first mismatch."""

import subprocess
import sys
import tempfile

import numpy as np
import pyopencl as cl


def check(name, ok):
    print(("ok   " if ok else "FAIL ") + name, flush=True)
    if not ok:
        sys.exit(1)


def main():
    spirv_as, source = sys.argv[1], sys.argv[2]
    with tempfile.NamedTemporaryFile(suffix=".spv") as out:
        subprocess.run([spirv_as, "--target-env", "spv1.2", source, "-o", out.name], check=True)
        il = open(out.name, "rb").read()
    dev = cl.get_platforms()[0].get_devices()[0]
    check("the device lists cl_khr_spirv_no_integer_wrap_decoration",
          "cl_khr_spirv_no_integer_wrap_decoration" in dev.extensions.split())
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, il).build()
    a = np.arange(4096, dtype=np.uint32) * 1021  # at most 4.2e6: * 3 + 1 wraps neither way
    mf = cl.mem_flags
    ib = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    ob = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
    prg.wrap(q, a.shape, None, ib, ob)
    got = np.empty_like(a)
    cl.enqueue_copy(q, got, ob)
    check("a SPIR-V 1.2 module with NoSignedWrap/NoUnsignedWrap builds and computes in * 3 + 1",
          np.array_equal(got, a * 3 + 1))


main()
