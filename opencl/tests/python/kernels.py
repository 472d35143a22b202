"""PyOpenCL against the ICD: builds and runs kernels, checks results computed on the CPU from
the OpenCL C and cl_intel_subgroups specifications' definitions. Prints one line per check;
exits non-zero on the first mismatch. argv[1]: a SPIR-V module of `SPIRV_KERNEL` (made by ocloc
-spv_only), or '-' to skip that part."""

import sys

import numpy as np
import pyopencl as cl

SOURCE = r"""
kernel void axpy(global const float* x, global float* y, float a) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

kernel void ids(global uint* out, global uint* sizes) {
    size_t i = get_global_id(0);
    out[i] = (uint)(get_group_id(0) * 1000 + get_local_id(0));
    if (i == 0) {
        sizes[0] = (uint)get_local_size(0);
        sizes[1] = (uint)get_num_groups(0);
    }
}

kernel void local_sum(global const int* in, global int* out, local int* scratch) {
    size_t l = get_local_id(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        int s = 0;
        for (size_t k = 0; k < get_local_size(0); k++) s += scratch[k];
        out[get_group_id(0)] = s;
    }
}

kernel void vec(global int4* p, int4 add) {
    p[get_global_id(0)] += add;
}

__attribute__((intel_reqd_sub_group_size(16)))
kernel void sub_groups(global const uint* in, global uint* out) {
    size_t i = get_global_id(0);
    uint v = in[i];
    out[4 * i + 0] = get_sub_group_size();
    out[4 * i + 1] = get_sub_group_local_id();
    out[4 * i + 2] = sub_group_reduce_add(v);
    out[4 * i + 3] = intel_sub_group_shuffle(v, (get_sub_group_local_id() + 1) % 16);
}
"""


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + str(detail)))
    if not ok:
        sys.exit(1)


def main():
    platforms = cl.get_platforms()
    check("one platform", len(platforms) == 1, platforms)
    dev = platforms[0].get_devices()[0]
    check("simulated device", "simulated" in dev.name, dev.name)
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, SOURCE).build(options="-cl-std=CL2.0")

    n = 1000
    x = np.arange(n, dtype=np.float32)
    y = np.full(n, 2.0, dtype=np.float32)
    mf = cl.mem_flags
    xb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    yb = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=y)
    prg.axpy(q, (n,), None, xb, yb, np.float32(3.0))
    out = np.empty_like(y)
    cl.enqueue_copy(q, out, yb)
    check("axpy", np.array_equal(out, 3.0 * x + 2.0), out[:8])

    # Explicit local size 50 over 1000 items: 20 groups.
    ob = cl.Buffer(ctx, mf.WRITE_ONLY, 4 * n)
    sb = cl.Buffer(ctx, mf.WRITE_ONLY, 8)
    prg.ids(q, (n,), (50,), ob, sb)
    ids = np.empty(n, dtype=np.uint32)
    sizes = np.empty(2, dtype=np.uint32)
    cl.enqueue_copy(q, ids, ob)
    cl.enqueue_copy(q, sizes, sb)
    want = np.array([(i // 50) * 1000 + i % 50 for i in range(n)], dtype=np.uint32)
    check("group and local ids", np.array_equal(ids, want) and list(sizes) == [50, 20], (ids[:4], sizes))

    # Non-uniform work-groups (OpenCL 2.0): 100 items in groups of 32, the last one of 4.
    m = 100
    ob2 = cl.Buffer(ctx, mf.WRITE_ONLY, 4 * m)
    prg.ids(q, (m,), (32,), ob2, sb)
    ids = np.empty(m, dtype=np.uint32)
    cl.enqueue_copy(q, ids, ob2)
    want = np.array([(i // 32) * 1000 + i % 32 for i in range(m)], dtype=np.uint32)
    check("non-uniform work-groups", np.array_equal(ids, want), ids[90:])

    # A global work offset: ids run from 100 to 163.
    ob3 = cl.Buffer(ctx, mf.WRITE_ONLY, 4 * 200)
    cl.enqueue_fill_buffer(q, ob3, np.uint32(0xFFFFFFFF), 0, 4 * 200)
    prg.ids(q, (64,), (16,), ob3, sb, global_offset=(100,))
    ids = np.empty(200, dtype=np.uint32)
    cl.enqueue_copy(q, ids, ob3)
    want = np.full(200, 0xFFFFFFFF, dtype=np.uint32)
    for i in range(100, 164):
        want[i] = ((i - 100) // 16) * 1000 + (i - 100) % 16
    check("global work offset", np.array_equal(ids, want), ids[96:104])

    # __local argument by size.
    ins = np.arange(256, dtype=np.int32)
    inb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=ins)
    sums = cl.Buffer(ctx, mf.WRITE_ONLY, 4 * 4)
    prg.local_sum(q, (256,), (64,), inb, sums, cl.LocalMemory(4 * 64))
    got = np.empty(4, dtype=np.int32)
    cl.enqueue_copy(q, got, sums)
    check("local memory argument", list(got) == [int(ins[64 * g:64 * g + 64].sum()) for g in range(4)], got)

    # A vector argument.
    v = np.arange(4 * 8, dtype=np.int32)
    vb = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=v)
    add = np.array([1, 2, 3, 4], dtype=np.int32)
    prg.vec(q, (8,), None, vb, add)
    got = np.empty_like(v)
    cl.enqueue_copy(q, got, vb)
    check("int4 argument", np.array_equal(got, v + np.tile(add, 8)), got[:8])

    # Sub-groups: intel_reqd_sub_group_size(16), NULL local size.
    k = prg.sub_groups
    # (PyOpenCL has no CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL; the C client asks it.)
    # The kernel's largest work-group in SIMD16 sub-groups (the device's topology sets it:
    # 256 work-items on skl/icllp, 512 on tgllp, 1024 on dg2, as Intel's runtime reports).
    wg = k.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE, dev)
    check("kernel work-group within the device's", 0 < wg <= dev.max_work_group_size, wg)
    check("max sub-groups", k.get_sub_group_info(dev, cl.kernel_sub_group_info.MAX_NUM_SUB_GROUPS) == wg // 16)
    check("max sub-group size for ndrange",
          k.get_sub_group_info(dev, cl.kernel_sub_group_info.MAX_SUB_GROUP_SIZE_FOR_NDRANGE, (64,)) == 16)
    check("sub-group count for ndrange",
          k.get_sub_group_info(dev, cl.kernel_sub_group_info.SUB_GROUP_COUNT_FOR_NDRANGE, (64,)) == 4)
    check("preferred multiple = SIMD width",
          k.get_work_group_info(cl.kernel_work_group_info.PREFERRED_WORK_GROUP_SIZE_MULTIPLE, dev) == 16)
    n = 256
    vals = (np.arange(n, dtype=np.uint32) * 7 + 3) % 101
    ib = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=vals)
    sg = cl.Buffer(ctx, mf.WRITE_ONLY, 16 * n)
    k(q, (n,), None, ib, sg)
    got = np.empty(4 * n, dtype=np.uint32).reshape(n, 4)
    cl.enqueue_copy(q, got, sg)
    q.finish()
    ok = True
    for i in range(n):
        base = i - i % 16
        want = [16, i % 16, int(vals[base:base + 16].sum()), int(vals[base + (i % 16 + 1) % 16])]
        if list(got[i]) != want:
            ok = False
            check("sub-group built-ins", False, (i, list(got[i]), want))
    check("sub-group built-ins", ok)

    # Kernel argument info (-cl-kernel-arg-info), as the source declares it.
    pi = cl.Program(ctx, SOURCE).build(options="-cl-std=CL2.0 -cl-kernel-arg-info")
    ka = pi.axpy
    info = [(ka.get_arg_info(i, cl.kernel_arg_info.NAME), ka.get_arg_info(i, cl.kernel_arg_info.TYPE_NAME),
             ka.get_arg_info(i, cl.kernel_arg_info.ADDRESS_QUALIFIER)) for i in range(3)]
    want = [("x", "float*", cl.kernel_arg_address_qualifier.GLOBAL),
            ("y", "float*", cl.kernel_arg_address_qualifier.GLOBAL),
            ("a", "float", cl.kernel_arg_address_qualifier.PRIVATE)]
    check("kernel arg info", info == want, info)
    check("const qualifier", ka.get_arg_info(0, cl.kernel_arg_info.TYPE_QUALIFIER) == cl.kernel_arg_type_qualifier.CONST,
          ka.get_arg_info(0, cl.kernel_arg_info.TYPE_QUALIFIER))

    # Build failure: CL_BUILD_PROGRAM_FAILURE with the compiler's text in the log.
    bad = cl.Program(ctx, "kernel void broken(global int* p) { p[0] = undeclared_name; }")
    try:
        bad.build()
        check("build failure reported", False, "build succeeded")
    except cl.RuntimeError as e:
        # PyOpenCL puts CL_PROGRAM_BUILD_LOG into the exception's text.
        check("build failure reported", e.code == -11 and "undeclared identifier 'undeclared_name'" in str(e), (e.code, str(e)))

    # Binaries round-trip.
    binary = prg.get_info(cl.program_info.BINARIES)[0]
    prg2 = cl.Program(ctx, [dev], [binary]).build()
    yb2 = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=y)
    prg2.axpy(q, (1000,), None, xb, yb2, np.float32(-1.0))
    out = np.empty_like(y)
    cl.enqueue_copy(q, out, yb2)
    check("program from its binary", np.array_equal(out, 2.0 - x), out[:4])

    # Map, fill, copy.
    fb = cl.Buffer(ctx, mf.READ_WRITE, 64)
    cl.enqueue_fill_buffer(q, fb, np.uint32(0xABCD1234), 0, 64)
    mapped, _ = cl.enqueue_map_buffer(q, fb, cl.map_flags.READ | cl.map_flags.WRITE, 0, (16,), np.uint32)
    check("fill then map", list(mapped) == [0xABCD1234] * 16, mapped)
    mapped[3] = 7
    del mapped
    cb = cl.Buffer(ctx, mf.READ_WRITE, 64)
    cl.enqueue_copy(q, cb, fb)
    got = np.empty(16, dtype=np.uint32)
    cl.enqueue_copy(q, got, cb)
    check("unmap writes back, copy", got[3] == 7 and got[4] == 0xABCD1234, got)

    # Rect forms: an 8x8 byte image in a buffer, row pitch 8.
    img = np.arange(64, dtype=np.uint8)
    rb = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=img)
    sub_img = np.zeros(6, dtype=np.uint8)
    cl.enqueue_copy(q, sub_img, rb, buffer_origin=(2, 1), host_origin=(0, 0), region=(3, 2),
                    buffer_pitches=(8,), host_pitches=(3,))
    check("read rect", np.array_equal(sub_img, img.reshape(8, 8)[1:3, 2:5].ravel()), sub_img)
    patch = np.array([200, 201, 202, 203], dtype=np.uint8)
    cl.enqueue_copy(q, rb, patch, buffer_origin=(6, 6), host_origin=(0, 0), region=(2, 2),
                    buffer_pitches=(8,), host_pitches=(2,))
    want_img = img.reshape(8, 8).copy()
    want_img[6:8, 6:8] = patch.reshape(2, 2)
    rb2 = cl.Buffer(ctx, mf.READ_WRITE, 16)
    cl.enqueue_copy(q, rb2, rb, src_origin=(4, 4), dst_origin=(0, 0), region=(4, 4),
                    src_pitches=(8, 64), dst_pitches=(4, 16))
    got = np.empty(16, dtype=np.uint8)
    cl.enqueue_copy(q, got, rb2)
    check("write rect then copy rect", np.array_equal(got, want_img[4:8, 4:8].ravel()), got)

    # CL_MEM_USE_HOST_PTR: the kernel writes the application's own memory.
    host = np.zeros(1024, dtype=np.float32)
    hb = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=host)
    prg.axpy(q, (1024,), None, cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=np.ones(1024, np.float32)), hb, np.float32(5.0))
    q.finish()
    check("USE_HOST_PTR buffer", np.all(host == 5.0), host[:4])

    if len(sys.argv) > 1 and sys.argv[1] != "-":
        il = open(sys.argv[1], "rb").read()
        p_il = cl.Program(ctx, il).build()
        yb3 = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=y)
        p_il.axpy(q, (1000,), None, xb, yb3, np.float32(0.5))
        out = np.empty_like(y)
        cl.enqueue_copy(q, out, yb3)
        check("program from SPIR-V", np.array_equal(out, 0.5 * x + 2.0), out[:4])


main()
