"""PyOpenCL against the ICD's buffer copies and fills (the copy engine where the device has a
blitter packet for them, the queue's thread otherwise): clEnqueueCopyBuffer at unaligned
offsets, clEnqueueFillBuffer with every pattern size OpenCL allows, a copy and a fill between
kernels on one queue and across queues, CL_MEM_COPY_OVERLAP for overlapping ranges of one
buffer, and clEnqueueCopyBufferRect over odd origins and pitches, and within one buffer
(regions whose byte spans interleave but share no byte are copied; CL_MEM_COPY_OVERLAP only
when they share one, the API specification's appendix on copy overlap). Expected values are
numpy's memcpy/memset of the same bytes (OpenCL 3.0 API specification, 5.2.3). Prints one line per check; exits non-zero on a failure."""

import sys

import numpy as np
import pyopencl as cl

SOURCE = r"""
kernel void add(global uchar* x, uchar b) { x[get_global_id(0)] += b; }
"""

failed = False


def check(what, ok):
    global failed
    print(("ok   " if ok else "FAIL ") + what)
    failed |= not ok


ctx = cl.Context(cl.get_platforms()[0].get_devices())
q = cl.CommandQueue(ctx)
q2 = cl.CommandQueue(ctx)
mf = cl.mem_flags
n = 70_001
host = (np.arange(n, dtype=np.uint64) * 37 + 11).astype(np.uint8)
src = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
dst = cl.Buffer(ctx, mf.READ_WRITE, n)
cl.enqueue_fill_buffer(q, dst, np.uint8(0), 0, n)

# Unaligned copy.
cl.enqueue_copy(q, dst, src, byte_count=50_003, src_offset=7, dst_offset=1_001)
want = np.zeros(n, dtype=np.uint8)
want[1_001:51_004] = host[7:50_010]
out = np.empty(n, dtype=np.uint8)
cl.enqueue_copy(q, out, dst)
check("unaligned copy equals memcpy", np.array_equal(out, want))

# Every pattern size.
for size in (1, 2, 4, 8, 16, 32, 64, 128):
    pattern = (np.arange(size, dtype=np.uint8) + size).astype(np.uint8)
    buf = cl.Buffer(ctx, mf.READ_WRITE, 8192)
    cl.enqueue_fill_buffer(q, buf, np.uint8(0xEE), 0, 8192)
    offset, length = 3 * size, 8192 - 5 * size
    cl.enqueue_fill_buffer(q, buf, pattern, offset, length)
    got = np.empty(8192, dtype=np.uint8)
    cl.enqueue_copy(q, got, buf)
    want = np.full(8192, 0xEE, dtype=np.uint8)
    want[offset : offset + length] = np.tile(pattern, length // size)
    check(f"fill with a {size}-byte pattern equals memset", np.array_equal(got, want))

# Kernel, copy, kernel on one queue; a fill on another queue after the copy.
prg = cl.Program(ctx, SOURCE).build()
a = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
b = cl.Buffer(ctx, mf.READ_WRITE, n)
k1 = prg.add(q, (n,), None, a, np.uint8(1))
c = cl.enqueue_copy(q, b, a, wait_for=[k1])
prg.add(q, (n,), None, b, np.uint8(2))
f = cl.enqueue_fill_buffer(q2, a, np.uint32(0x01020304), 0, 4096, wait_for=[c])
got_b = np.empty(n, dtype=np.uint8)
got_a = np.empty(n, dtype=np.uint8)
cl.enqueue_copy(q, got_b, b)
f.wait()
cl.enqueue_copy(q2, got_a, a)
check("kernel, copy, kernel in order", np.array_equal(got_b, host + 3))
want_a = host + 1
want_a[:4096] = np.tile(np.array([4, 3, 2, 1], dtype=np.uint8), 1024)
check("fill on a second queue after the copy", np.array_equal(got_a, want_a))

# Overlapping ranges of one buffer.
try:
    cl.enqueue_copy(q, src, src, byte_count=100, src_offset=0, dst_offset=50)
    check("overlapping copy refused", False)
except cl.Error as e:
    check("overlapping copy refused", e.code == cl.status_code.MEM_COPY_OVERLAP)

# clEnqueueCopyBufferRect (5.2.3): byte origin[0] + origin[1] * row_pitch + origin[2] *
# slice_pitch of each side, region[0] bytes a row; a slice pitch is a multiple of the row
# pitch. Odd pitches and origins, a 3D region with spare rows between slices, and a
# row pitch past XY_SRC_COPY_BLT's 16-bit field (the queue's thread copies that on Gen9/Gen11).
def rect_ref(src, so, sp, dst, do, dp, region):
    out = dst.copy()
    for z in range(region[2]):
        for y in range(region[1]):
            a = so[0] + (so[1] + y) * sp[0] + (so[2] + z) * sp[1]
            b = do[0] + (do[1] + y) * dp[0] + (do[2] + z) * dp[1]
            out[b : b + region[0]] = src[a : a + region[0]]
    return out


m = 300_000
rsrc = (np.arange(m, dtype=np.uint64) * 29 + 5).astype(np.uint8)
rdst0 = (np.arange(m, dtype=np.uint64) * 3 + 1).astype(np.uint8)
for so, sp, do, dp, region in (
    ((3, 5, 0), (101, 0), (7, 2, 0), (67, 0), (37, 19, 1)),
    ((1, 2, 1), (45, 45 * 10), (5, 0, 2), (33, 33 * 9), (29, 7, 5)),
    ((9, 0, 0), (40_001, 0), (0, 1, 0), (17, 0), (13, 6, 1)),
):
    rs = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=rsrc)
    rd = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=rdst0)
    sp_ = (sp[0], sp[1] if sp[1] else sp[0] * region[1])
    dp_ = (dp[0], dp[1] if dp[1] else dp[0] * region[1])
    cl.enqueue_copy(
        q, rd, rs, src_origin=so, dst_origin=do, region=region,
        src_pitches=sp_, dst_pitches=dp_,
    )
    got = np.empty(m, dtype=np.uint8)
    cl.enqueue_copy(q, got, rd)
    want = rect_ref(rsrc, so, sp_, rdst0, do, dp_, region)
    check(f"rect copy {region} pitches {sp_}/{dp_} equals the spec's", np.array_equal(got, want))

# Within one buffer (what the CTS's test_basic bufferreadwriterect does): the byte spans
# interleave, the regions do not share a byte (disjoint rows, then disjoint columns), so the
# copy runs; then regions sharing bytes are refused.
row, slc = 64, 64 * 40
one = (np.arange(slc * 6, dtype=np.uint64) * 13 + 7).astype(np.uint8)
for so, do, region in (
    ((2, 3, 0), (5, 20, 1), (50, 4, 3)),
    ((0, 0, 0), (32, 1, 0), (30, 30, 4)),
):
    b = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=one)
    cl.enqueue_copy(
        q, b, b, src_origin=so, dst_origin=do, region=region,
        src_pitches=(row, slc), dst_pitches=(row, slc),
    )
    got = np.empty(one.size, dtype=np.uint8)
    cl.enqueue_copy(q, got, b)
    want = rect_ref(one, so, (row, slc), one, do, (row, slc), region)
    check(f"rect copy within one buffer {so}->{do} {region} equals the spec's",
          np.array_equal(got, want))
for so, do, region in (((0, 0, 0), (10, 2, 0), (30, 4, 1)), ((0, 0, 0), (0, 0, 2), (8, 8, 3))):
    b = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=one)
    try:
        cl.enqueue_copy(
            q, b, b, src_origin=so, dst_origin=do, region=region,
            src_pitches=(row, slc), dst_pitches=(row, slc),
        )
        check(f"overlapping rect copy {so}->{do} {region} refused", False)
    except cl.Error as e:
        check(f"overlapping rect copy {so}->{do} {region} refused",
              e.code == cl.status_code.MEM_COPY_OVERLAP)

sys.exit(1 if failed else 0)
