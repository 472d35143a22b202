"""Runs a kernel that never ends (it waits for a value no one writes) and reports what the
OpenCL runtime says at clFinish: prints 'hang reported: <error name>' or 'no error'. On real
hardware i915 resets the engine, bans the context and still answers GEM_WAIT with 0; the
runtime learns of the hang from the context's reset stats."""
import numpy as np
import pyopencl as cl

ctx = cl.create_some_context(interactive=False)
q = cl.CommandQueue(ctx)
src = """
kernel void spin(global const uint *p, global uint *o) {
    uint v = 0;
    while (p[0] != 12345u) { v += p[1]; }
    o[get_global_id(0)] = v;
}
"""
prg = cl.Program(ctx, src).build()
mf = cl.mem_flags
p = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=np.zeros(4, dtype=np.uint32))
o = cl.Buffer(ctx, mf.WRITE_ONLY, 64)
try:
    prg.spin(q, (16,), (16,), p, o)
    q.finish()
    print("no error")
except cl.Error as e:
    print("hang reported:", e.what.name() if hasattr(e.what, "name") else e)
