"""PyOpenCL against the ICD: cl_intel_media_block_io. The device must list it. For every element
type (uc, us, ui), vector size, region width the extension allows (4 to 32 bytes, powers of two)
and heights giving a region smaller than, equal to and larger than the sub-group's data, at
SIMD8 and SIMD16: intel_sub_group_media_block_read_* and _write_* move the bytes the extension's
text says: the region's elements taken in row-major order, element e going to component
e / sub-group size of work-item e % sub-group size; elements past the region are undefined on
read and not written (the compiler refuses regions larger than the data). With an argument
(the path of ocloc), the kernels are compiled to SPIR-V by ocloc and given to the device as IL:
cl_intel_spirv_media_block_io, which the device must then list. Prints one line per check;
exits non-zero on the first mismatch."""

import os
import subprocess
import sys
import tempfile

import numpy as np
import pyopencl as cl

TYPES = {"uc": ("uchar", 1, (1, 2, 4, 8, 16)), "us": ("ushort", 2, (1, 2, 4, 8, 16)), "ui": ("uint", 4, (1, 2, 4, 8))}
IMG_W, IMG_H = 256, 64  # bytes x rows, CL_R CL_UNSIGNED_INT8
X0, Y0 = 64, 8  # the region's top-left corner, in bytes and rows


def cases(sg):
    for suf, (ctype, size, vecs) in TYPES.items():
        for n in vecs:
            for width_bytes in (4, 8, 16, 32):
                w = width_bytes // size
                if w == 0:
                    continue
                data = n * sg
                # IGC takes regions no larger than the sub-group's data, at most 16 rows
                # (8 when 32 bytes wide).
                tallest = 8 if width_bytes == 32 else 16
                heights = {1, data // w // 2, data // w}
                for h in sorted(x for x in heights if 1 <= x <= tallest and w * x <= data):
                    yield suf, ctype, size, n, w, h


def kernel_source(sg):
    out = []
    for suf, ctype, size, n, w, h in cases(sg):
        vt = ctype if n == 1 else f"{ctype}{n}"
        vs = "" if n == 1 else str(n)
        name = f"k_{suf}{n}_{w}x{h}"
        # The read's components go to a buffer (component k of work-item i at [k * SG + i]);
        # the buffer's values are written back through the media block write.
        comps = ["v"] if n == 1 else [f"v.s{k:x}" for k in range(n)]
        stores = "\n".join(f"    out[{k} * SG + i] = {c};" for k, c in enumerate(comps))
        loads = "\n".join(f"    {c} = in[{k} * SG + i];" for k, c in enumerate(comps))
        out.append(f"""
__attribute__((intel_reqd_sub_group_size(SG)))
kernel void {name}(read_only image2d_t src, global {ctype}* out, global const {ctype}* in,
                   write_only image2d_t dst) {{
    uint i = get_sub_group_local_id();  // unsigned: no NoSignedWrap, so ocloc writes SPIR-V 1.1
    int2 at = (int2)({X0}, {Y0});
    {vt} v = intel_sub_group_media_block_read_{suf}{vs}(at, {w}, {h}, src);
{stores}
{loads}
    intel_sub_group_media_block_write_{suf}{vs}(at, {w}, {h}, v, dst);
}}""")
    return "#pragma OPENCL EXTENSION cl_intel_media_block_io : enable\n" + "\n".join(out)


def check(name, ok):
    print(("ok   " if ok else "FAIL ") + name, flush=True)
    if not ok:
        sys.exit(1)


def spirv(ocloc, source):
    """`source` compiled to SPIR-V by ocloc (the module it writes beside the device binary)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.cl")
        with open(path, "w") as f:
            f.write(source)
        ext = "-cl-ext=-all,+cl_intel_subgroups,+cl_intel_required_subgroup_size,+cl_intel_media_block_io"
        subprocess.run([ocloc, "compile", "-q", "-file", path, "-device", "tgllp", "-output", "k",
                        "-output_no_suffix", "-out_dir", d, "-internal_options", ext],
                       check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(d, "k.spv"), "rb") as f:
            return f.read()


def main():
    ocloc = sys.argv[1] if len(sys.argv) > 1 else None
    dev = cl.get_platforms()[0].get_devices()[0]
    wanted = "cl_intel_spirv_media_block_io" if ocloc else "cl_intel_media_block_io"
    check(f"the device lists {wanted}", wanted in dev.extensions.split())
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    fmt = cl.ImageFormat(cl.channel_order.R, cl.channel_type.UNSIGNED_INT8)
    rng = np.random.default_rng(7)
    pixels = rng.integers(0, 256, size=(IMG_H, IMG_W), dtype=np.uint8)
    mf = cl.mem_flags
    src = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(IMG_W, IMG_H), hostbuf=pixels)
    for sg in (8, 16):
        if ocloc:
            prog = cl.Program(ctx, spirv(ocloc, f"#define SG {sg}\n" + kernel_source(sg))).build()
        else:
            prog = cl.Program(ctx, kernel_source(sg)).build(options=f"-DSG={sg}")
        for suf, ctype, size, n, w, h in cases(sg):
            dtype = {1: np.uint8, 2: np.uint16, 4: np.uint32}[size]
            count = n * sg
            region = pixels[Y0:Y0 + h, X0:X0 + w * size].copy().view(dtype).reshape(-1)  # row-major
            out = cl.Buffer(ctx, mf.WRITE_ONLY, count * size)
            written = rng.integers(0, 1 << (8 * size), size=count, dtype=np.uint64).astype(dtype)
            inb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=written)
            sentinel = np.full((IMG_H, IMG_W), 0xA5, np.uint8)
            dst = cl.Image(ctx, mf.WRITE_ONLY | mf.COPY_HOST_PTR, fmt, shape=(IMG_W, IMG_H), hostbuf=sentinel)
            name = f"k_{suf}{n}_{w}x{h}"
            getattr(prog, name)(q, (sg,), (sg,), src, out, inb, dst)
            got = np.empty(count, dtype)
            cl.enqueue_copy(q, got, out)
            image = np.empty((IMG_H, IMG_W), np.uint8)
            cl.enqueue_copy(q, image, dst, origin=(0, 0), region=(IMG_W, IMG_H))
            defined = min(count, w * h)
            # got[k * sg + i] is element k * sg + i of the region: the buffer's order is the
            # element order.
            check(f"SIMD{sg} read_{suf}{n} {w}x{h}: work-item i's component k is region element k*SG+i",
                  np.array_equal(got[:defined], region[:defined]))
            expect = sentinel.copy()
            block = expect[Y0:Y0 + h, X0:X0 + w * size].copy().view(dtype).reshape(-1)
            block[:defined] = written[:defined]
            expect[Y0:Y0 + h, X0:X0 + w * size] = block.view(np.uint8).reshape(h, w * size)
            check(f"SIMD{sg} write_{suf}{n} {w}x{h}: region element e < {defined} is component e/SG of work-item e%SG, nothing else written",
                  np.array_equal(image, expect))


main()
