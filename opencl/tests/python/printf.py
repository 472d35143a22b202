"""PyOpenCL against the ICD: OpenCL C printf (OpenCL C 3.0 s6.15.14). Work items print ints,
floats, strings, chars and vectors; the kernel's output (the ICD writes it to stdout when the
command completes) is captured at file descriptor 1 and compared, as a multiset of lines
(work items may print in any order), with Python's C-style % formatting of the same values.
Vectors are printed as their elements joined by commas (s6.15.14.3). Prints one line per
check; exits non-zero on the first mismatch."""

import ctypes
import os
import sys
import tempfile

import numpy as np
import pyopencl as cl

SOURCE = r"""
kernel void pr(global const int* v, global const float* f) {
    int i = get_global_id(0);
    printf("wi %d: %d|%5d|%-4d|%+d|%u|%o|%x|%X|%c|%s|%10s|%.2s|\n", i, v[i], v[i], i, v[i],
           (uint)v[i], i + 8, v[i], v[i], 'a' + i, "text", "right", "cut");
    printf("fl %d: %f %.3f %e %.2E %g %G %10.4f %-10.1e| %%\n", i, f[i], f[i], f[i], f[i],
           f[i], f[i], f[i], f[i]);
    int4 n4 = (int4)(i, -i, v[i], 7);
    float2 f2 = (float2)(f[i], 0.5f);
    uchar3 u3 = (uchar3)(i, 255, 16);
    short2 s2 = (short2)(-i, 300);
    printf("vec %d: %v4hld %v2hlf %v3hhu %v2hx %v4hlx\n", i, n4, f2, u3, s2, n4);
}
"""

ITEMS = 12


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + str(detail)))
    sys.stdout.flush()
    if not ok:
        sys.exit(1)


def u32(x):
    return x & 0xFFFFFFFF


def expected(i, v, f):
    f = float(f)
    lines = [
        "wi %d: %d|%5d|%-4d|%+d|%u|%o|%x|%X|%c|%s|%10s|%.2s|"
        % (i, v, v, i, v, u32(v), i + 8, u32(v), u32(v), chr(ord("a") + i), "text", "right", "cut"),
        "fl %d: %f %.3f %e %.2E %g %G %10.4f %-10.1e| %%" % (i, f, f, f, f, f, f, f, f),
    ]
    n4 = [i, -i, v, 7]
    lines.append(
        "vec %d: %s %s %s %s %s"
        % (
            i,
            ",".join("%d" % x for x in n4),
            ",".join("%f" % x for x in (f, 0.5)),
            ",".join("%u" % x for x in (i, 255, 16)),
            ",".join("%x" % (x & 0xFFFF) for x in (-i, 300)),
            ",".join("%x" % u32(x) for x in n4),
        )
    )
    return lines


def main():
    ctx = cl.create_some_context(interactive=False)
    dev = ctx.devices[0]
    # Through the loader with the spec's size_t: Debian's PyOpenCL asks with 4 bytes.
    lib = ctypes.CDLL("libOpenCL.so.1")
    value = ctypes.c_size_t(0)
    err = lib.clGetDeviceInfo(
        ctypes.c_void_p(dev.int_ptr),
        ctypes.c_uint(0x1049),  # CL_DEVICE_PRINTF_BUFFER_SIZE
        ctypes.c_size_t(ctypes.sizeof(value)),
        ctypes.byref(value),
        None,
    )
    check("CL_DEVICE_PRINTF_BUFFER_SIZE answered", err == 0, err)
    size = value.value
    # OpenCL 3.0 API s4.2, CL_DEVICE_PRINTF_BUFFER_SIZE: at least 1 MB for the full profile.
    check("printf buffer of %d bytes" % size, size >= 1 << 20, size)
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, SOURCE).build()
    v = (np.arange(ITEMS, dtype=np.int32) * 37 - 200).astype(np.int32)
    f = (np.arange(ITEMS, dtype=np.float32) * np.float32(-3.75) + np.float32(1.0 / 3.0)).astype(np.float32)
    f[3] = np.float32(1e-7)
    f[4] = np.float32(123456789.0)
    mf = cl.mem_flags
    vb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=v)
    fb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=f)

    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as cap:
        os.dup2(cap.fileno(), 1)
        try:
            prg.pr(q, (ITEMS,), (4,), vb, fb)
            q.finish()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        cap.seek(0)
        got = cap.read().decode("utf-8", "replace").splitlines()
    want = [l for i in range(ITEMS) for l in expected(i, int(v[i]), f[i])]
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    check(
        "printf output of %d work items" % ITEMS,
        sorted(got) == sorted(want),
        "missing %s; unexpected %s" % (missing[:4], extra[:4]),
    )
    # Each work item's lines come in its program order.
    for i in range(ITEMS):
        mine = [l for l in got if l.split(":")[0].split()[-1] == str(i)]
        check("work item %d prints in order" % i, [l.split()[0] for l in mine] == ["wi", "fl", "vec"], mine)


main()
