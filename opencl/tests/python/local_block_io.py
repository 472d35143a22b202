"""PyOpenCL against the ICD: cl_intel_subgroup_local_block_io. The device must list it. Sub-group
block reads and writes on `local` pointers for uint (suffixed and un-suffixed), uchar, ushort and
ulong at every vector size the extension names, at SIMD8 and SIMD16, two sub-groups per
work-group: component k of work-item i reads and writes p[i + k * sub-group size], as the
extension's text (through cl_intel_subgroups) lays it out. Prints one line per check; exits
non-zero on the first mismatch; prints "absent" and checks nothing on a device not listing it."""

import sys

import numpy as np
import pyopencl as cl

# suffix, OpenCL type, numpy type, vector sizes
TYPES = [
    ("", "uint", np.uint32, (1, 2, 4, 8)),
    ("_ui", "uint", np.uint32, (1, 2, 4, 8)),
    ("_uc", "uchar", np.uint8, (1, 2, 4, 8, 16)),
    ("_us", "ushort", np.uint16, (1, 2, 4, 8)),
    ("_ul", "ulong", np.uint64, (1, 2, 4, 8)),
]


def kernel_source():
    out = ["#pragma OPENCL EXTENSION cl_intel_subgroup_local_block_io : enable"]
    for suf, ctype, _, vecs in TYPES:
        for n in vecs:
            vt = ctype if n == 1 else f"{ctype}{n}"
            vs = "" if n == 1 else str(n)
            comps = ["v"] if n == 1 else [f"v.s{k:x}" for k in range(n)]
            stores = "\n".join(f"    got[g + {k} * SG + i] = {c};" for k, c in enumerate(comps))
            bumps = "\n".join(f"    {c} += ({ctype})1;" for c in comps)
            out.append(f"""
__attribute__((intel_reqd_sub_group_size(SG)))
kernel void k{suf}{n}(global const {ctype}* in, global {ctype}* got, global {ctype}* back) {{
    local {ctype} slm[2 * {n} * SG];
    int i = get_sub_group_local_id(), g = get_sub_group_id() * {n} * SG;
    for (int e = get_local_id(0); e < 2 * {n} * SG; e += get_local_size(0)) slm[e] = in[e];
    barrier(CLK_LOCAL_MEM_FENCE);
    {vt} v = intel_sub_group_block_read{suf}{vs}(slm + g);
{stores}
{bumps}
    barrier(CLK_LOCAL_MEM_FENCE);
    intel_sub_group_block_write{suf}{vs}(slm + g, v);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = get_local_id(0); e < 2 * {n} * SG; e += get_local_size(0)) back[e] = slm[e];
}}""")
    return "\n".join(out)


def check(name, ok):
    print(("ok   " if ok else "FAIL ") + name, flush=True)
    if not ok:
        sys.exit(1)


def main():
    dev = cl.get_platforms()[0].get_devices()[0]
    if "cl_intel_subgroup_local_block_io" not in dev.extensions.split():
        print("absent: the device does not list cl_intel_subgroup_local_block_io")
        return
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    mf = cl.mem_flags
    rng = np.random.default_rng(11)
    for sg in (8, 16):
        prog = cl.Program(ctx, kernel_source()).build(options=f"-DSG={sg}")
        for suf, ctype, dtype, vecs in TYPES:
            for n in vecs:
                count = 2 * n * sg
                data = rng.integers(0, np.iinfo(dtype).max, size=count, dtype=dtype, endpoint=True)
                inb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
                got = cl.Buffer(ctx, mf.WRITE_ONLY, data.nbytes)
                back = cl.Buffer(ctx, mf.WRITE_ONLY, data.nbytes)
                getattr(prog, f"k{suf}{n}")(q, (2 * sg,), (2 * sg,), inb, got, back)
                g = np.empty_like(data)
                b = np.empty_like(data)
                cl.enqueue_copy(q, g, got)
                cl.enqueue_copy(q, b, back)
                name = f"intel_sub_group_block_read{suf}{n if n > 1 else ''}"
                # got[g + k*SG + i] holds component k of work-item i: the extension's layout
                # puts p[i + k*SG] there, so got must equal the input.
                check(f"SIMD{sg} {name}(local {ctype}*): component k of work-item i is p[i + k*SG]",
                      np.array_equal(g, data))
                check(f"SIMD{sg} {name.replace('read', 'write')}(local {ctype}*): p[i + k*SG] is component k of work-item i",
                      np.array_equal(b, (data + dtype(1)).astype(dtype)))


main()
