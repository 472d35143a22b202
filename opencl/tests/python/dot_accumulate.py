"""PyOpenCL against the ICD: cl_intel_dot_accumulate. On a device listing it, kernels see the
`cl_intel_dot_accumulate` macro and the compiler's 4-way int8 dot-product built-ins
(`__builtin_IB_dp4a_{ss,uu,su,us}(c, a, b)`, which oneDNN's kernels use when the macro is
defined) give c + the sum of the products of a's and b's bytes, each byte signed (s) or not (u),
wrapping in 32 bits; checked on random and extreme inputs against that formula. Prints "absent"
and checks nothing on a device not listing the extension; exits non-zero on the first mismatch."""

import sys

import numpy as np
import pyopencl as cl

SOURCE = r"""
int __builtin_IB_dp4a_ss(int c, int a, int b) __attribute__((const));
int __builtin_IB_dp4a_uu(int c, int a, int b) __attribute__((const));
int __builtin_IB_dp4a_su(int c, int a, int b) __attribute__((const));
int __builtin_IB_dp4a_us(int c, int a, int b) __attribute__((const));
kernel void dp4a(global const int* a, global const int* b, global const int* c, global int* o) {
    int i = get_global_id(0);
    o[4 * i + 0] = __builtin_IB_dp4a_ss(c[i], a[i], b[i]);
    o[4 * i + 1] = __builtin_IB_dp4a_uu(c[i], a[i], b[i]);
    o[4 * i + 2] = __builtin_IB_dp4a_su(c[i], a[i], b[i]);
    o[4 * i + 3] = __builtin_IB_dp4a_us(c[i], a[i], b[i]);
}
kernel void defined(global int* o) {
#ifdef cl_intel_dot_accumulate
    o[0] = 1;
#else
    o[0] = 0;
#endif
}
"""


def check(name, ok):
    print(("ok   " if ok else "FAIL ") + name, flush=True)
    if not ok:
        sys.exit(1)


def bytes_of(x, signed):
    b = x.view(np.uint8).reshape(-1, 4).astype(np.int64)
    return np.where(b >= 128, b - 256, b) if signed else b


def main():
    dev = cl.get_platforms()[0].get_devices()[0]
    if "cl_intel_dot_accumulate" not in dev.extensions.split():
        print("absent: the device does not list cl_intel_dot_accumulate")
        return
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, SOURCE).build()
    mf = cl.mem_flags
    flag = cl.Buffer(ctx, mf.WRITE_ONLY, 4)
    prog.defined(q, (1,), None, flag)
    f = np.zeros(1, np.int32)
    cl.enqueue_copy(q, f, flag)
    check("kernels see the cl_intel_dot_accumulate macro", f[0] == 1)

    rng = np.random.default_rng(5)
    n = 4096
    extremes = np.array([0, -1, 0x7F7F7F7F, -0x80808080, 0x80808080 - 2**32, 0x01010101, 0x7FFFFFFF, -2**31], np.int64)
    a = rng.integers(-2**31, 2**31, n, dtype=np.int64)
    b = rng.integers(-2**31, 2**31, n, dtype=np.int64)
    c = rng.integers(-2**31, 2**31, n, dtype=np.int64)
    k = len(extremes)
    grid = np.array(np.meshgrid(extremes, extremes, extremes)).reshape(3, -1)
    a[:grid.shape[1]], b[:grid.shape[1]], c[:grid.shape[1]] = grid
    a, b, c = (x.astype(np.int32) for x in (a, b, c))
    bufs = [cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x) for x in (a, b, c)]
    out = cl.Buffer(ctx, mf.WRITE_ONLY, 16 * n)
    prog.dp4a(q, (n,), None, *bufs, out)
    got = np.empty((n, 4), np.int32)
    cl.enqueue_copy(q, got, out)
    for col, (sa, sb, name) in enumerate([(True, True, "ss"), (False, False, "uu"), (True, False, "su"), (False, True, "us")]):
        want = (c.astype(np.int64) + (bytes_of(a, sa) * bytes_of(b, sb)).sum(axis=1))
        want = ((want + 2**31) % 2**32 - 2**31).astype(np.int32)
        bad = np.nonzero(got[:, col] != want)[0]
        detail = "" if len(bad) == 0 else f" (first at {bad[0]}: a={a[bad[0]]:#x} b={b[bad[0]]:#x} c={c[bad[0]]}: got {got[bad[0], col]}, want {want[bad[0]]})"
        check(f"__builtin_IB_dp4a_{name}: c + sum of byte products, wrapping ({n} inputs, {k}^3 extreme){detail}",
              len(bad) == 0)


main()
