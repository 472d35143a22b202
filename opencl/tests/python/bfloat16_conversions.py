"""PyOpenCL against the ICD: cl_intel_bfloat16_conversions. On a device listing it, the scalar and
vector (2, 3, 4, 8, 16) conversions `intel_convert_bfloat16{n}_as_ushort{n}` (float to bfloat16
bits, rounding to nearest even as the extension specifies) and
`intel_convert_as_bfloat16{n}_float{n}` (bfloat16 bits to float, exact) give, on random floats,
every rounding tie, both infinities, zeros, denormals and NaNs, what that rounding gives
(a NaN stays a NaN). Prints "absent" and checks nothing on a device not listing the extension;
exits non-zero on the first mismatch."""

import sys

import numpy as np
import pyopencl as cl

WIDTHS = (1, 2, 3, 4, 8, 16)


def source():
    out = []
    for n in WIDTHS:
        s = "" if n == 1 else str(n)
        if n == 1:
            to, back = "o[i] = intel_convert_bfloat16_as_ushort(f[i]);", "g[i] = intel_convert_as_bfloat16_float(u[i]);"
        else:
            to = f"vstore{n}(intel_convert_bfloat16{s}_as_ushort{s}(vload{n}(i, f)), i, o);"
            back = f"vstore{n}(intel_convert_as_bfloat16{s}_float{s}(vload{n}(i, u)), i, g);"
        out.append(f"""
kernel void k{n}(global const float* f, global ushort* o, global const ushort* u, global float* g) {{
    int i = get_global_id(0);
    {to}
    {back}
}}""")
    return "\n".join(out)


def to_bf16(f):
    """Round-to-nearest-even float -> bfloat16 bits; NaNs handled by the caller."""
    bits = f.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def check(name, ok):
    print(("ok   " if ok else "FAIL ") + name, flush=True)
    if not ok:
        sys.exit(1)


def main():
    dev = cl.get_platforms()[0].get_devices()[0]
    if "cl_intel_bfloat16_conversions" not in dev.extensions.split():
        print("absent: the device does not list cl_intel_bfloat16_conversions")
        return
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, source()).build()
    rng = np.random.default_rng(3)
    n_items = 240  # a multiple of every width's items
    special = np.array([0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x00000001, 0x807FFFFF,
                        0x00008000, 0x00018000, 0x3F808000, 0x3F818000, 0x7F7F8000, 0x7F7FFFFF,
                        0x7FC00000, 0xFFC00001, 0x7F800001, 0x3F80C000], np.uint32)
    for n in WIDTHS:
        count = n * n_items
        bits = rng.integers(0, 2**32, count, dtype=np.uint64).astype(np.uint32)
        # Ties: the low 16 bits exactly half way.
        bits[: count // 4] = (bits[: count // 4] & 0xFFFF0000) | 0x8000
        bits[count // 4: count // 4 + len(special)] = special
        f = bits.view(np.float32)
        u = rng.integers(0, 2**16, count, dtype=np.uint64).astype(np.uint16)
        mf = cl.mem_flags
        fb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=f)
        ub = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=u)
        ob = cl.Buffer(ctx, mf.WRITE_ONLY, count * 2)
        gb = cl.Buffer(ctx, mf.WRITE_ONLY, count * 4)
        getattr(prog, f"k{n}")(q, (n_items,), None, fb, ob, ub, gb)
        o = np.empty(count, np.uint16)
        g = np.empty(count, np.float32)
        cl.enqueue_copy(q, o, ob)
        cl.enqueue_copy(q, g, gb)
        nan = np.isnan(f)
        want = to_bf16(f)
        o_nan = ((o & 0x7F80) == 0x7F80) & ((o & 0x7F) != 0)
        bad = np.nonzero(np.where(nan, ~o_nan, o != want))[0]
        detail = "" if len(bad) == 0 else f" (first: {bits[bad[0]]:#010x} -> {o[bad[0]]:#06x}, want {want[bad[0]]:#06x})"
        s = "" if n == 1 else str(n)
        check(f"intel_convert_bfloat16{s}_as_ushort{s}: round to nearest even, NaN stays NaN{detail}", len(bad) == 0)
        back = (u.astype(np.uint32) << 16).view(np.float32)
        same = (g.view(np.uint32) == back.view(np.uint32)) | (np.isnan(g) & np.isnan(back))
        check(f"intel_convert_as_bfloat16{s}_float{s}: the bits shifted into a float's top half", bool(same.all()))


main()
