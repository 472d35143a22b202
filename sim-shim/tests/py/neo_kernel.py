"""Builds and runs one OpenCL C kernel through whatever OpenCL platform the loader offers and
checks its result against numpy: prints 'ok <device name>' or exits non-zero."""
import sys

import numpy as np
import pyopencl as cl

ctx = cl.create_some_context(interactive=False)
q = cl.CommandQueue(ctx)
n = 256
a = np.arange(n, dtype=np.int32)
b = np.arange(n, dtype=np.int32) * 3 + 1
mf = cl.mem_flags
ab = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
bb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
ob = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
src = """
__kernel void madd(__global const int *a, __global const int *b, __global int *o) {
    int i = get_global_id(0);
    o[i] = a[i] * b[i] + i;
}
"""
prg = cl.Program(ctx, src).build()
prg.madd(q, (n,), (64,), ab, bb, ob)
out = np.empty_like(a)
cl.enqueue_copy(q, out, ob)
q.finish()
want = a * b + np.arange(n, dtype=np.int32)
bad = np.nonzero(out != want)[0]
if len(bad):
    print("mismatch at", bad[:8], out[bad[:8]], want[bad[:8]])
    sys.exit(1)
print("ok", ctx.devices[0].name)
