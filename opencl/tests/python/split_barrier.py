"""Why cl_intel_split_work_group_barrier is not listed here: Debian's compiler (IGC 1.0.12504,
ocloc 22.43) declares `intel_work_group_barrier_arrive` and `intel_work_group_barrier_wait`
under the extension's macro but has no body for them, so a kernel calling them keeps calls to
undefined functions and no runtime can link it. NEO 22.43 lists the extension and refuses such
a program at build time naming the unresolved symbols; this ICD does not list it, and the same
program does not build either. The kernel is the extension's own use: each work-item writes
local memory, arrives, does independent work, waits, then reads a neighbour's value. Should a
later compiler build it, the "builds" line below flips and the kernel's answers are checked.

The same pattern in SPIR-V (SPV_INTEL_split_barrier's OpControlBarrierArriveINTEL and
OpControlBarrierWaitINTEL, `spirv/split_barrier.spvasm`, assembled by the spirv-as given as the
first argument after the script) does build: IGC lowers each to a gateway barrier signal or
wait, so the simulator's split-barrier execution is checked through it, with several local
sizes (partial EU threads included) and three barrier rounds in a row, against the values the
extension's ordering guarantees.

Usage: split_barrier.py SPIRV_AS MODULE.spvasm [neo]. Prints one line per check; exits non-zero
when any fails."""

import os
import subprocess
import sys
import tempfile

import numpy as np
import pyopencl as cl
from checks import check, finish

NAME = "cl_intel_split_work_group_barrier"
SOURCE = r"""
kernel void k(global int *out, local int *slm) {
    uint l = get_local_id(0), n = get_local_size(0);
    slm[l] = (int)(l * 3 + get_group_id(0));
    intel_work_group_barrier_arrive(CLK_LOCAL_MEM_FENCE);
    int own = (int)get_global_id(0) * 7;
    intel_work_group_barrier_wait(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = slm[(l + 1) % n] + own;
}
"""


def spirv(ctx, dev):
    """The SPIR-V kernel at each local size against the values its ordering guarantees."""
    spirv_as, source = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "split.spv")
        subprocess.run([spirv_as, "--target-env", "spv1.2", source, "-o", out], check=True)
        il = open(out, "rb").read()
    prg = cl.Program(ctx, il).build()
    q = cl.CommandQueue(ctx)
    k = prg.split
    for local in (8, 40, 64, 256):
        if local > dev.max_work_group_size:
            continue
        groups = 3
        n = groups * local
        buf = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, n * 4)
        k(q, (n,), (local,), buf, cl.LocalMemory(local * 4))
        got = np.empty(n, np.uint32)
        cl.enqueue_copy(q, got, buf)
        g = np.arange(n, dtype=np.int64)
        grp, l = g // local, g % local

        def round_one(lane):
            return ((lane + 1) % local) * 3 + grp + (grp * local + lane) * 7

        want = (round_one((l + 2) % local) + g * 5).astype(np.uint32)
        check(np.array_equal(got, want),
              f"SPIR-V split barrier, local size {local}: neighbours' values after each wait",
              f"first differences at {np.nonzero(got != want)[0][:8]}")


def main():
    dev = cl.get_platforms()[0].get_devices()[0]
    neo = "neo" in sys.argv[3:]
    listed = NAME in dev.extensions.split()
    check(listed == neo, f"{NAME} {'listed' if neo else 'not listed'}")
    ctx = cl.Context([dev])
    spirv(ctx, dev)
    try:
        prg = cl.Program(ctx, SOURCE).build(options="-cl-std=CL2.0")
    except cl.RuntimeError as e:
        log = str(e)
        print("info build fails")
        if neo:
            check("_Z31intel_work_group_barrier_arrivej" in log and "unresolved" in log,
                  "NEO's log names the unresolved intel_work_group_barrier_arrive", log[-400:])
        else:
            # Not named to the compiler, so its header does not declare the functions.
            check("implicit declaration of function 'intel_work_group_barrier_arrive'" in log,
                  "the log names the undeclared intel_work_group_barrier_arrive", log[-400:])
        finish()
        return
    print("info builds")
    q = cl.CommandQueue(ctx)
    groups, local = 4, 64
    out = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, groups * local * 4)
    prg.k(q, (groups * local,), (local,), out, cl.LocalMemory(local * 4))
    got = np.empty(groups * local, np.int32)
    cl.enqueue_copy(q, got, out)
    g = np.arange(groups * local)
    l = g % local
    want = ((l + 1) % local) * 3 + g // local + g * 7
    check(np.array_equal(got, want), "each work-item reads its neighbour's value after the wait")
    finish()


main()
