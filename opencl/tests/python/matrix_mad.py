"""PyOpenCL against the ICD: cl_intel_subgroup_matrix_multiply_accumulate and
cl_intel_subgroup_split_matrix_multiply_accumulate, listed on the device with a systolic array
(dg2) and on no other (argv[1]: the platform's name). There, a program written to the
extensions (no declarations of its own: the extensions' macros and functions come with the
device) and one that declares the functions itself both build. Then
`intel_sub_group_i8_i8_matrix_mad_k32`, `intel_sub_group_u8_i8_matrix_mad_k32` and
`intel_sub_group_f16_f16_matrix_mad_k16` with M = 8 rows on random data against the
extension's definition computed with numpy:
d[m][n] = acc[m][n] + sum_k A[m][k] * B[k][n], where in a sub-group of 8 work item j holds
elements j*K/8 .. (j+1)*K/8 - 1 of every row of A (component m = row m, packed in an int) and
work item n holds column n of B (packed in an int8) and row m of column n of acc and d.
Integers wrap at 32 bits; f16 products are summed in f32 (the extension leaves the order of
rounding open: a relative tolerance of 1e-5). Prints one line per check; exits non-zero on the
first mismatch."""

import sys

import numpy as np
import pyopencl as cl

NAMES = ["cl_intel_subgroup_matrix_multiply_accumulate",
         "cl_intel_subgroup_split_matrix_multiply_accumulate"]
# What a program may declare itself.
OWN_DECLARATIONS = r"""
int8 __attribute__((overloadable)) intel_sub_group_i8_i8_matrix_mad_k32(int8 a, int8 b, int8 acc);
int8 __attribute__((overloadable)) intel_sub_group_u8_i8_matrix_mad_k32(uint8 a, int8 b, int8 acc);
float8 __attribute__((overloadable)) intel_sub_group_f16_f16_matrix_mad_k16(int8 a, int8 b, float8 acc);
"""
SOURCE = r"""
#if !defined(cl_intel_subgroup_matrix_multiply_accumulate) || !defined(cl_intel_subgroup_split_matrix_multiply_accumulate)
#error the extensions' macros are not defined
#endif
__attribute__((intel_reqd_sub_group_size(8)))
kernel void i8i8(global const int8 *a, global const int8 *b, global const int8 *c, global int8 *d) {
    uint i = get_sub_group_local_id();
    d[i] = intel_sub_group_i8_i8_matrix_mad_k32(a[i], b[i], c[i]);
}
__attribute__((intel_reqd_sub_group_size(8)))
kernel void u8i8(global const uint8 *a, global const int8 *b, global const int8 *c, global int8 *d) {
    uint i = get_sub_group_local_id();
    d[i] = intel_sub_group_u8_i8_matrix_mad_k32(a[i], b[i], c[i]);
}
// Built, not run here (umd's dpas_sim runs the split forms on sub-group pairs).
__attribute__((intel_reqd_sub_group_size(8)))
kernel void split(global const int *a, global const int8 *b, global int2 *d) {
    uint i = get_sub_group_local_id();
    d[i] = intel_sub_group_i8_i8_split_matrix_mad_k32(a[i], b[i], d[i]);
}
__attribute__((intel_reqd_sub_group_size(8)))
kernel void f16f16(global const int8 *a, global const int8 *b, global const float8 *c, global float8 *d) {
    uint i = get_sub_group_local_id();
    d[i] = intel_sub_group_f16_f16_matrix_mad_k16(a[i], b[i], c[i]);
}
"""


def check(name, ok):
    print(("ok   " if ok else "FAIL ") + name, flush=True)
    if not ok:
        sys.exit(1)


def run(ctx, q, kernel, a, b, c, out_dtype):
    mf = cl.mem_flags
    bufs = [cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=x) for x in (a, b, c)]
    d = cl.Buffer(ctx, mf.WRITE_ONLY, 8 * 8 * 4)
    kernel(q, (8,), (8,), *bufs, d)
    out = np.empty(64, out_dtype)
    cl.enqueue_copy(q, out, d)
    # Work item n's component m is d[m][n].
    return out.reshape(8, 8).T


def main():
    dev = cl.get_platforms()[0].get_devices()[0]
    dg2 = sys.argv[1] == "dg2"
    for name in NAMES:
        check("%s %s" % (name, "listed" if dg2 else "not listed"), (name in dev.extensions.split()) == dg2)
    if not dg2:
        return
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, SOURCE).build()
    check("a program written to the extensions builds", True)
    cl.Program(ctx, OWN_DECLARATIONS + SOURCE).build()
    check("a program declaring the functions itself builds", True)
    rs = np.random.RandomState(11)
    for kernel, a_type in [(prg.i8i8, np.int8), (prg.u8i8, np.uint8)]:
        for rnd in range(3):
            # A[m][k]: work item j holds row m's k = 4j..4j+3 in its component m.
            A = rs.randint(np.iinfo(a_type).min, np.iinfo(a_type).max + 1, (8, 32)).astype(a_type)
            B = rs.randint(-128, 128, (32, 8)).astype(np.int8)
            C = rs.randint(-(1 << 31), 1 << 31, (8, 8)).astype(np.int32)
            a = np.ascontiguousarray(A.reshape(8, 8, 4).transpose(1, 0, 2))  # [j][m][4]
            b = np.ascontiguousarray(B.T)  # [n][k]
            c = np.ascontiguousarray(C.T)  # [n][m]
            got = run(ctx, q, kernel, a, b, c, np.int32)
            want = (C.astype(np.int64) + A.astype(np.int64) @ B.astype(np.int64))
            want = ((want + (1 << 31)) % (1 << 32) - (1 << 31)).astype(np.int32)
            check("%s_i8 matrix_mad_k32 round %d" % ("i8" if a_type == np.int8 else "u8", rnd),
                  np.array_equal(got, want))
    for rnd in range(3):
        A = (rs.randn(8, 16) * 0.5).astype(np.float16)
        B = (rs.randn(16, 8) * 0.5).astype(np.float16)
        C = rs.randn(8, 8).astype(np.float32)
        a = np.ascontiguousarray(A.reshape(8, 8, 2).transpose(1, 0, 2))
        b = np.ascontiguousarray(B.T)
        c = np.ascontiguousarray(C.T)
        got = run(ctx, q, prg.f16f16, a, b, c, np.float32)
        want = C.astype(np.float64) + A.astype(np.float64) @ B.astype(np.float64)
        err = np.abs(got - want) / np.maximum(1.0, np.abs(want))
        check("f16_f16 matrix_mad_k16 round %d (max rel err %.2g)" % (rnd, err.max()), err.max() <= 1e-5)


main()
