"""PyOpenCL against the ICD's execution model: a user event gates a chain of commands on an
in-order queue and on an out-of-order one (dependencies by wait lists), non-blocking copies
complete in order, callbacks report each status, a failed user event fails its dependants,
markers and barriers order work, and profiling times are ordered. Expected values follow the
OpenCL 3.0 API specification. Prints one line per check; exits non-zero on a failure."""

import sys
import threading
import time

import numpy as np
import pyopencl as cl

SOURCE = r"""
kernel void scale(global float* x, float a) { x[get_global_id(0)] *= a; }
kernel void shift(global float* x, float b) { x[get_global_id(0)] += b; }
"""

failed = False


def check(what, ok):
    global failed
    print(("ok   " if ok else "FAIL ") + what)
    failed |= not ok


ctx = cl.Context(cl.get_platforms()[0].get_devices())
dev = ctx.devices[0]
check(
    "out-of-order queues advertised",
    bool(dev.queue_properties & cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE),
)
prof = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
ooo = cl.CommandQueue(
    ctx,
    properties=cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE
    | cl.command_queue_properties.PROFILING_ENABLE,
)
prg = cl.Program(ctx, SOURCE).build()
n = 4096
host = np.arange(n, dtype=np.float32)
mf = cl.mem_flags

for name, q in (("in-order", prof), ("out-of-order", ooo)):
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
    other = cl.Buffer(ctx, mf.READ_WRITE, host.nbytes)
    gate = cl.UserEvent(ctx)
    seen = []
    lock = threading.Lock()

    def note(status, tag):
        with lock:
            seen.append((tag, status))

    k1 = prg.scale(q, (n,), None, buf, np.float32(3), wait_for=[gate])
    for st in (cl.command_execution_status.SUBMITTED, cl.command_execution_status.RUNNING,
               cl.command_execution_status.COMPLETE):
        k1.set_callback(st, lambda s, st=st: note(s, st))
    k2 = prg.shift(q, (n,), None, buf, np.float32(1), wait_for=[k1])
    c = cl.enqueue_copy(q, other, buf, wait_for=[k2])
    out = np.empty_like(host)
    r = cl.enqueue_copy(q, out, other, is_blocking=False, wait_for=[c])
    time.sleep(0.05)
    pending = [e.command_execution_status for e in (k1, k2, c, r)]
    check(f"{name}: gated chain still queued", pending == [cl.command_execution_status.QUEUED] * 4)
    gate.set_status(cl.command_execution_status.COMPLETE)
    r.wait()
    check(f"{name}: x * 3 + 1 in order", np.array_equal(out, host * 3 + 1))
    for _ in range(2000):
        with lock:
            if len(seen) == 3:
                break
        time.sleep(0.005)
    with lock:
        got = sorted(seen)
    check(f"{name}: a callback per status, with that status", got == [(0, 0), (1, 1), (2, 2)])
    t = [(e.profile.queued, e.profile.submit, e.profile.start, e.profile.end) for e in (k1, k2, c, r)]
    check(f"{name}: profiling ordered", all(a <= b <= c_ <= d for a, b, c_, d in t))
    check(f"{name}: chained commands do not overlap",
          all(t[i][2] >= t[i - 1][3] for i in range(1, len(t))))

# A failed user event fails its dependants; the queue carries on.
buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
bad = cl.UserEvent(ctx)
dep = prg.scale(prof, (n,), None, buf, np.float32(5), wait_for=[bad])
bad.set_status(-7)
try:
    dep.wait()
    check("failed user event fails the wait", False)
except cl.RuntimeError:
    check("failed user event fails the wait", True)
check(
    "dependant's status",
    dep.command_execution_status == cl.status_code.EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
)
out = np.empty_like(host)
cl.enqueue_copy(prof, out, buf)
check("dependant did not run", np.array_equal(out, host))

# Markers and barriers.
gate = cl.UserEvent(ctx)
m = cl.enqueue_marker(prof, wait_for=[gate])
cl.enqueue_barrier(prof)
k = prg.shift(prof, (n,), None, buf, np.float32(2))
time.sleep(0.02)
check("work behind a barrier waits", k.command_execution_status == cl.command_execution_status.QUEUED)
gate.set_status(cl.command_execution_status.COMPLETE)
prof.finish()
check("marker complete after finish", m.command_execution_status == cl.command_execution_status.COMPLETE)
cl.enqueue_copy(prof, out, buf)
check("kernel behind the barrier ran", np.array_equal(out, host + 2))

sys.exit(1 if failed else 0)
