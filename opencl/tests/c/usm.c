/* cl_intel_unified_shared_memory through the ocl-icd loader: every entry point, looked up with
 * clGetExtensionFunctionAddressForPlatform, with kernels whose results are checked against the
 * formulas of their source, and the extension specification's error codes for bad input.
 *
 * Two kinds of output line:
 *   "= <name> <value>"  an answer to compare between runtimes (the test runs this program under
 *                       this ICD and under Intel's NEO on the same simulated GPU and compares
 *                       these lines);
 *   "FAIL ..."          a kernel result or a required answer that is wrong.
 * Ends with "<checks> checks, <failures> failed"; exits 1 on any failure. */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MAP_FIXED_NOREPLACE */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "expect.h"
/* Run under NEO as the oracle ("--neo", see main). */
static int neo;

/* An answer both runtimes should give alike. */
#define SAY(name, value) printf("= %s %lld\n", name, (long long)(value))

static clHostMemAllocINTEL_fn host_alloc;
static clDeviceMemAllocINTEL_fn device_alloc;
static clSharedMemAllocINTEL_fn shared_alloc;
static clMemFreeINTEL_fn mem_free;
static clMemBlockingFreeINTEL_fn blocking_free;
static clGetMemAllocInfoINTEL_fn alloc_info;
static clSetKernelArgMemPointerINTEL_fn arg_pointer;
static clEnqueueMemsetINTEL_fn memset_intel;
static clEnqueueMemFillINTEL_fn fill;
static clEnqueueMemcpyINTEL_fn memcpy_intel;
static clEnqueueMigrateMemINTEL_fn migrate;
static clEnqueueMemAdviseINTEL_fn advise;

static const char *source =
    /* y[i] = a * x[i] + y[i] through two USM pointers. */
    "kernel void axpy(global int *y, global const int *x, int a) {\n"
    "    size_t i = get_global_id(0);\n"
    "    y[i] = a * x[i] + y[i];\n"
    "}\n"
    /* Pointers loaded from memory: table[i] points at an int; each item adds i + 1 to it. */
    "kernel void indirect(global const ulong *table) {\n"
    "    size_t i = get_global_id(0);\n"
    "    global int *p = (global int *)table[i];\n"
    "    *p += (int)i + 1;\n"
    "}\n";

static void *lookup(cl_platform_id platform, const char *name) {
    void *f = clGetExtensionFunctionAddressForPlatform(platform, name);
    checks++;
    if (!f) {
        failures++;
        printf("FAIL no %s\n", name);
    }
    return f;
}

/* What clGetMemAllocInfoINTEL says of `p`, named `what`, printed for comparison; `base` and
 * `device` are what BASE_PTR and DEVICE should be (printed as "same"/"other"). */
static void describe(cl_context ctx, const char *what, const void *p, const void *base, cl_device_id device) {
    cl_uint type = 0;
    void *got_base = (void *)1;
    size_t size = 1;
    cl_device_id dev = (cl_device_id)1;
    char name[128];
    snprintf(name, sizeof name, "%s.err", what);
    SAY(name, alloc_info(ctx, p, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL) |
                  alloc_info(ctx, p, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof got_base, &got_base, NULL) |
                  alloc_info(ctx, p, CL_MEM_ALLOC_SIZE_INTEL, sizeof size, &size, NULL) |
                  alloc_info(ctx, p, CL_MEM_ALLOC_DEVICE_INTEL, sizeof dev, &dev, NULL));
    snprintf(name, sizeof name, "%s.type", what);
    SAY(name, type);
    snprintf(name, sizeof name, "%s.base_is_expected", what);
    SAY(name, got_base == base);
    snprintf(name, sizeof name, "%s.size", what);
    SAY(name, size);
    snprintf(name, sizeof name, "%s.device_is_expected", what);
    SAY(name, dev == device);
}

/* clSetKernelExecInfo's errors. */
static void exec_errors(cl_context ctx, cl_kernel k) {
    cl_bool yes = CL_TRUE;
    SAY("exec.bad_param", clSetKernelExecInfo(k, 0x4321, sizeof yes, &yes));
    SAY("exec.bool_size", clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL, 1, &yes));
    if (!neo) /* NEO 22.43 reads through the NULL and crashes */
        SAY("exec.null_value", clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL, sizeof yes, NULL));
    SAY("exec.bad_kernel", clSetKernelExecInfo((cl_kernel)ctx, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL, sizeof yes, &yes));
}

/* The free functions' errors; `freed` was an allocation, `live` is one. */
static void free_errors(cl_context ctx, void *freed, void *live) {
    SAY("free.null", mem_free(ctx, NULL));
    SAY("free.null_context", mem_free(NULL, live));
    SAY("free.twice", blocking_free(ctx, freed));
    SAY("free.inside", mem_free(ctx, (char *)live + 8));
    describe(ctx, "info.freed", freed, NULL, NULL);
}

static cl_command_type command_type(cl_event e) {
    cl_command_type t = 0;
    clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL);
    clReleaseEvent(e);
    return t;
}

int main(int argc, char **argv) {
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    setvbuf(stdout, NULL, _IOLBF, 0); /* each line as it is printed, also when cut short */
    /* "--neo": stop after the kernels and the errors that need no command: NEO 22.43's USM
     * fills and copies that follow stop making progress on the simulator. */
    neo = argc > 1 && strcmp(argv[1], "--neo") == 0;
    if (clGetPlatformIDs(1, &platform, NULL) || clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL)) {
        printf("FAIL no GPU device\n");
        return 1;
    }

    /* The extension and its device queries. */
    char ext[8192] = "";
    clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    SAY("device_reports_extension", strstr(ext, "cl_intel_unified_shared_memory") != NULL);
    const struct {
        const char *name;
        cl_device_info q;
    } caps[] = {
        {"caps.host", CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL},
        {"caps.device", CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL},
        {"caps.single_device_shared", CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL},
        {"caps.cross_device_shared", CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL},
        {"caps.shared_system", CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL},
    };
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        cl_device_unified_shared_memory_capabilities_intel c = 0xdead;
        size_t sz = 0;
        err = clGetDeviceInfo(device, caps[i].q, sizeof c, &c, &sz);
        EXPECT(caps[i].name, err, CL_SUCCESS);
        EXPECT("capability size", sz, sizeof c);
        SAY(caps[i].name, c);
    }

    host_alloc = (clHostMemAllocINTEL_fn)lookup(platform, "clHostMemAllocINTEL");
    device_alloc = (clDeviceMemAllocINTEL_fn)lookup(platform, "clDeviceMemAllocINTEL");
    shared_alloc = (clSharedMemAllocINTEL_fn)lookup(platform, "clSharedMemAllocINTEL");
    mem_free = (clMemFreeINTEL_fn)lookup(platform, "clMemFreeINTEL");
    blocking_free = (clMemBlockingFreeINTEL_fn)lookup(platform, "clMemBlockingFreeINTEL");
    alloc_info = (clGetMemAllocInfoINTEL_fn)lookup(platform, "clGetMemAllocInfoINTEL");
    arg_pointer = (clSetKernelArgMemPointerINTEL_fn)lookup(platform, "clSetKernelArgMemPointerINTEL");
    memset_intel = (clEnqueueMemsetINTEL_fn)lookup(platform, "clEnqueueMemsetINTEL");
    fill = (clEnqueueMemFillINTEL_fn)lookup(platform, "clEnqueueMemFillINTEL");
    memcpy_intel = (clEnqueueMemcpyINTEL_fn)lookup(platform, "clEnqueueMemcpyINTEL");
    migrate = (clEnqueueMigrateMemINTEL_fn)lookup(platform, "clEnqueueMigrateMemINTEL");
    advise = (clEnqueueMemAdviseINTEL_fn)lookup(platform, "clEnqueueMemAdviseINTEL");
    if (failures) {
        printf("%d checks, %d failed\n", checks, failures);
        return 1;
    }

    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    EXPECT("clCreateContext", err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    EXPECT("clCreateCommandQueueWithProperties", err, CL_SUCCESS);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    err = clBuildProgram(prog, 1, &device, "", NULL, NULL);
    EXPECT("clBuildProgram", err, CL_SUCCESS);
    cl_kernel axpy = clCreateKernel(prog, "axpy", &err);
    EXPECT("clCreateKernel axpy", err, CL_SUCCESS);
    cl_kernel indirect = clCreateKernel(prog, "indirect", &err);
    EXPECT("clCreateKernel indirect", err, CL_SUCCESS);

    enum { N = 256 };
    const size_t bytes = N * sizeof(cl_int);

    /* Allocation errors. */
    cl_mem_properties_intel wc[] = {CL_MEM_ALLOC_FLAGS_INTEL, CL_MEM_ALLOC_WRITE_COMBINED_INTEL, 0};
    cl_mem_properties_intel bad_name[] = {CL_MEM_SIZE, 0, 0};
    cl_mem_properties_intel bad_flag[] = {CL_MEM_ALLOC_FLAGS_INTEL, 1u << 10, 0};
    cl_mem_properties_intel placement[] = {CL_MEM_ALLOC_FLAGS_INTEL, CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL, 0};
    cl_mem_properties_intel both[] = {CL_MEM_ALLOC_FLAGS_INTEL,
                                      CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL | CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL, 0};
    cl_mem_properties_intel twice[] = {CL_MEM_ALLOC_FLAGS_INTEL, 0, CL_MEM_ALLOC_FLAGS_INTEL, 0, 0};
    const struct {
        const char *name;
        int kind; /* 0 host, 1 device, 2 shared */
        cl_context ctx;
        cl_device_id dev;
        const cl_mem_properties_intel *props;
        size_t size;
        cl_uint align;
    } bad[] = {
        {"err.host_null_context", 0, NULL, NULL, NULL, 64, 0},
        {"err.host_size_0", 0, ctx, NULL, NULL, 0, 0},
        {"err.host_size_huge", 0, ctx, NULL, NULL, (size_t)1 << 62, 0},
        {"err.host_align_3", 0, ctx, NULL, NULL, 64, 3},
        {"err.host_align_256", 0, ctx, NULL, NULL, 64, 256},
        {"err.host_placement", 0, ctx, NULL, placement, 64, 0},
        {"err.host_bad_property", 0, ctx, NULL, bad_name, 64, 0},
        {"err.host_bad_flag", 0, ctx, NULL, bad_flag, 64, 0},
        {"err.host_property_twice", 0, ctx, NULL, twice, 64, 0},
        {"err.device_null_device", 1, ctx, NULL, NULL, 64, 0},
        {"err.device_null_context", 1, NULL, device, NULL, 64, 0},
        {"err.device_size_0", 1, ctx, device, NULL, 0, 0},
        {"err.device_align_3", 1, ctx, device, NULL, 64, 3},
        {"err.device_align_256", 1, ctx, device, NULL, 64, 256},
        {"err.device_placement", 1, ctx, device, placement, 64, 0},
        {"err.shared_size_0", 2, ctx, device, NULL, 0, 0},
        {"err.shared_bad_property", 2, ctx, device, bad_name, 64, 0},
        {"err.shared_both_placements", 2, ctx, device, both, 64, 0},
        {"err.shared_align_256", 2, ctx, device, NULL, 64, 256},
        {"err.shared_not_a_device", 2, ctx, (cl_device_id)ctx, NULL, 64, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        /* NEO 22.43 on dg2 crashes making a 0-byte device or shared allocation. */
        if (neo && (!strcmp(bad[i].name, "err.device_size_0") || !strcmp(bad[i].name, "err.shared_size_0")))
            continue;
        void *p = (void *)1;
        err = 1;
        if (bad[i].kind == 0)
            p = host_alloc(bad[i].ctx, bad[i].props, bad[i].size, bad[i].align, &err);
        else if (bad[i].kind == 1)
            p = device_alloc(bad[i].ctx, bad[i].dev, bad[i].props, bad[i].size, bad[i].align, &err);
        else
            p = shared_alloc(bad[i].ctx, bad[i].dev, bad[i].props, bad[i].size, bad[i].align, &err);
        SAY(bad[i].name, err);
        /* NEO 22.43 returns allocations for some of these; they are left alone. */
        if (err != CL_SUCCESS)
            EXPECT("failed allocation is NULL", p == NULL, 1);
    }

    /* Host, device and shared allocations of each alignment up to 128 bytes (long16, the
     * largest data type: the extension's limit), and the default one (0) at 128. */
    for (cl_uint align = 0; align <= 128; align = align ? align * 2 : 1) {
        void *h = host_alloc(ctx, wc, 100, align, &err);
        EXPECT("host_alloc aligned", err, CL_SUCCESS);
        void *d = device_alloc(ctx, device, NULL, 100, align, &err);
        EXPECT("device_alloc aligned", err, CL_SUCCESS);
        void *s = shared_alloc(ctx, device, NULL, 100, align, &err);
        EXPECT("shared_alloc aligned", err, CL_SUCCESS);
        cl_uint a = align ? align : 128;
        EXPECT("host alignment", (uintptr_t)h % a, 0);
        EXPECT("device alignment", (uintptr_t)d % a, 0);
        EXPECT("shared alignment", (uintptr_t)s % a, 0);
        EXPECT("free host", mem_free(ctx, h), CL_SUCCESS);
        EXPECT("free device", mem_free(ctx, d), CL_SUCCESS);
        EXPECT("free shared", mem_free(ctx, s), CL_SUCCESS);
    }

    cl_int *host = host_alloc(ctx, NULL, bytes, 0, &err);
    EXPECT("clHostMemAllocINTEL", err, CL_SUCCESS);
    cl_int *dev = device_alloc(ctx, device, NULL, bytes, 0, &err);
    EXPECT("clDeviceMemAllocINTEL", err, CL_SUCCESS);
    cl_int *shared = shared_alloc(ctx, device, NULL, bytes, 0, &err);
    EXPECT("clSharedMemAllocINTEL", err, CL_SUCCESS);
    cl_int *shared_any = shared_alloc(ctx, NULL, NULL, bytes, 0, &err);
    EXPECT("clSharedMemAllocINTEL without a device", err, CL_SUCCESS);
    if (!host || !dev || !shared || !shared_any) {
        printf("%d checks, %d failed\n", checks, failures);
        return 1;
    }

    /* Lookups: the base, an address inside, and memory that is no allocation. */
    describe(ctx, "info.host", host, host, NULL);
    describe(ctx, "info.host_inside", host + 17, host, NULL);
    describe(ctx, "info.host_last", (char *)host + bytes - 1, host, NULL);
    describe(ctx, "info.device", dev + 5, dev, device);
    describe(ctx, "info.shared", shared + 200, shared, device);
    describe(ctx, "info.shared_no_device", shared_any, shared_any, NULL);
    int on_stack = 0;
    describe(ctx, "info.stack", &on_stack, NULL, NULL);
    describe(ctx, "info.null", NULL, NULL, NULL);
    cl_uint type;
    SAY("info.bad_param", alloc_info(ctx, host, CL_MEM_SIZE, sizeof type, &type, NULL));
    SAY("info.small_value", alloc_info(ctx, host, CL_MEM_ALLOC_SIZE_INTEL, 1, &type, NULL));
    SAY("info.null_context", alloc_info(NULL, host, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL));
    cl_mem_alloc_flags_intel flags = 0xdead;
    void *wc_host = host_alloc(ctx, wc, 64, 0, &err);
    SAY("info.flags_err", alloc_info(ctx, wc_host, CL_MEM_ALLOC_FLAGS_INTEL, sizeof flags, &flags, NULL));
    SAY("info.flags", flags);
    mem_free(ctx, wc_host);
    size_t ret = 0;
    SAY("info.size_ret_err", alloc_info(ctx, host, CL_MEM_ALLOC_TYPE_INTEL, 0, NULL, &ret));
    SAY("info.size_ret", ret);

    /* Host memory the host writes directly; device memory by memcpy; a kernel on both. */
    cl_int x[N], y[N], out[N];
    for (int i = 0; i < N; i++) {
        host[i] = 3 * i - 100;
        x[i] = 7 * i + 1;
        y[i] = 1000 - i;
    }
    cl_event e;
    EXPECT("memcpy to device", memcpy_intel(q, CL_TRUE, dev, x, bytes, 0, NULL, &e), CL_SUCCESS);
    SAY("event.memcpy", command_type(e));
    EXPECT("memcpy host to shared", memcpy_intel(q, CL_FALSE, shared, y, bytes, 0, NULL, NULL), CL_SUCCESS);
    /* shared = 5 * dev + shared; then host = -2 * shared + host. */
    const size_t global = N;
    cl_int five = 5, minus_two = -2;
    EXPECT("arg y", arg_pointer(axpy, 0, shared), CL_SUCCESS);
    EXPECT("arg x", arg_pointer(axpy, 1, dev), CL_SUCCESS);
    EXPECT("arg a", clSetKernelArg(axpy, 2, sizeof five, &five), CL_SUCCESS);
    EXPECT("axpy 1", clEnqueueNDRangeKernel(q, axpy, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    EXPECT("arg y", arg_pointer(axpy, 0, host), CL_SUCCESS);
    EXPECT("arg x", arg_pointer(axpy, 1, shared), CL_SUCCESS);
    EXPECT("arg a", clSetKernelArg(axpy, 2, sizeof minus_two, &minus_two), CL_SUCCESS);
    EXPECT("axpy 2", clEnqueueNDRangeKernel(q, axpy, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    EXPECT("clFinish", clFinish(q), CL_SUCCESS);
    int wrong = 0;
    for (int i = 0; i < N; i++) {
        cl_int s = 5 * (7 * i + 1) + (1000 - i);
        if (shared[i] != s || host[i] != -2 * s + (3 * i - 100)) wrong++;
    }
    EXPECT("axpy through host, device and shared pointers", wrong, 0);

    /* A pointer into an allocation: the kernel's y[0] is host[64]. */
    EXPECT("arg y inside", arg_pointer(axpy, 0, host + 64), CL_SUCCESS);
    EXPECT("arg x inside", arg_pointer(axpy, 1, dev + 128), CL_SUCCESS);
    cl_int one = 1;
    EXPECT("arg a", clSetKernelArg(axpy, 2, sizeof one, &one), CL_SUCCESS);
    cl_int before[N];
    memcpy(before, host, bytes);
    const size_t half = 64;
    EXPECT("axpy offset", clEnqueueNDRangeKernel(q, axpy, 1, NULL, &half, NULL, 0, NULL, NULL), CL_SUCCESS);
    EXPECT("clFinish", clFinish(q), CL_SUCCESS);
    wrong = 0;
    for (int i = 0; i < N; i++) {
        cl_int want = (i >= 64 && i < 128) ? before[i] + (7 * (i + 64) + 1) : before[i];
        if (host[i] != want) wrong++;
    }
    EXPECT("axpy through pointers inside allocations", wrong, 0);

    /* Only a pointer changes between two enqueues: the second runs with the new one (the
     * extension's pointer arguments, like clSetKernelArg's, are those set at enqueue). */
    memcpy(before, host, bytes);
    EXPECT("arg y moved", arg_pointer(axpy, 0, host), CL_SUCCESS);
    EXPECT("axpy moved y", clEnqueueNDRangeKernel(q, axpy, 1, NULL, &half, NULL, 0, NULL, NULL), CL_SUCCESS);
    EXPECT("clFinish", clFinish(q), CL_SUCCESS);
    wrong = 0;
    for (int i = 0; i < N; i++) {
        cl_int want = i < 64 ? before[i] + (7 * (i + 128) + 1) : before[i];
        if (host[i] != want) wrong++;
    }
    EXPECT("axpy after only a pointer argument changed", wrong, 0);

    /* clSetKernelArgMemPointerINTEL's errors. */
    SAY("arg.bad_index", arg_pointer(axpy, 7, host));
    SAY("arg.bad_kernel", arg_pointer((cl_kernel)ctx, 0, host));
    SAY("arg.null", arg_pointer(axpy, 0, NULL));

    /* A device pointer is an address of the process no host memory can take (the extension
     * tells host memory and allocations apart by the pointer's value): placing host pages at
     * it must fail. Were it to succeed, a copy from those host pages would have to copy them,
     * not the allocation's bytes. */
    void *page = (void *)((uintptr_t)dev & ~(uintptr_t)4095);
    void *m = mmap(page, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    SAY("alias.host_pages_at_device_pointer", m == page);
    if (m == page) {
        memset(m, 0x77, 4096);
        cl_int from_host[4];
        EXPECT("copy from host pages at a device pointer",
               memcpy_intel(q, CL_TRUE, from_host, (char *)m + ((uintptr_t)dev & 4095), sizeof from_host, 0, NULL, NULL), CL_SUCCESS);
        EXPECT("the host pages' bytes", (cl_uint)from_host[0], 0x77777777u);
    }
    if (m != MAP_FAILED) munmap(m, 4096);
    if (neo) {
        exec_errors(ctx, indirect);
        EXPECT("free", mem_free(ctx, dev), CL_SUCCESS);
        free_errors(ctx, dev, host);
        printf("%d checks, %d failed\n", checks, failures);
        return failures ? 1 : 0;
    }

    /* Fill and memset. */
    cl_uint pattern = 0xa1b2c3d4u;
    EXPECT("fill", fill(q, dev, &pattern, sizeof pattern, bytes, 0, NULL, &e), CL_SUCCESS);
    SAY("event.fill", command_type(e));
    EXPECT("memset", memset_intel(q, shared, 0x5a, bytes / 2, 0, NULL, &e), CL_SUCCESS);
    SAY("event.memset", command_type(e));
    EXPECT("read back", memcpy_intel(q, CL_TRUE, out, dev, bytes, 0, NULL, NULL), CL_SUCCESS);
    wrong = 0;
    for (int i = 0; i < N; i++) {
        if ((cl_uint)out[i] != pattern) wrong++;
        cl_int s = 5 * (7 * i + 1) + (1000 - i);
        if (shared[i] != (i < N / 2 ? 0x5a5a5a5a : s)) wrong++;
    }
    EXPECT("fill and memset results", wrong, 0);

    /* Memcpy between every kind, and its errors. */
    EXPECT("memcpy host to device", memcpy_intel(q, CL_FALSE, dev, host, bytes, 0, NULL, NULL), CL_SUCCESS);
    EXPECT("memcpy device to shared", memcpy_intel(q, CL_FALSE, shared_any, dev, bytes, 0, NULL, NULL), CL_SUCCESS);
    EXPECT("memcpy shared to stack", memcpy_intel(q, CL_TRUE, out, shared_any, bytes, 0, NULL, NULL), CL_SUCCESS);
    EXPECT("memcpy round trip", memcmp(out, host, bytes), 0);


    /* Indirect access: a table of pointers in host memory to ints in device and shared memory. */
    cl_ulong *table = host_alloc(ctx, NULL, 4 * sizeof(cl_ulong), 0, &err);
    cl_int *targets_dev = device_alloc(ctx, device, NULL, 2 * sizeof(cl_int), 0, &err);
    cl_int *targets_shared = shared_alloc(ctx, device, NULL, 2 * sizeof(cl_int), 0, &err);
    cl_int start[2] = {10, 20};
    EXPECT("init", memcpy_intel(q, CL_TRUE, targets_dev, start, sizeof start, 0, NULL, NULL), CL_SUCCESS);
    targets_shared[0] = 30;
    targets_shared[1] = 40;
    table[0] = (cl_ulong)(uintptr_t)&targets_dev[0];
    table[1] = (cl_ulong)(uintptr_t)&targets_shared[1];
    table[2] = (cl_ulong)(uintptr_t)&targets_dev[1];
    table[3] = (cl_ulong)(uintptr_t)&targets_shared[0];
    cl_bool yes = CL_TRUE;
    EXPECT("exec info device", clSetKernelExecInfo(indirect, CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL, sizeof yes, &yes), CL_SUCCESS);
    EXPECT("exec info shared", clSetKernelExecInfo(indirect, CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL, sizeof yes, &yes), CL_SUCCESS);
    EXPECT("exec info host", clSetKernelExecInfo(indirect, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL, sizeof yes, &yes), CL_SUCCESS);
    EXPECT("arg table", arg_pointer(indirect, 0, table), CL_SUCCESS);
    const size_t four = 4;
    EXPECT("indirect", clEnqueueNDRangeKernel(q, indirect, 1, NULL, &four, NULL, 0, NULL, NULL), CL_SUCCESS);
    EXPECT("clFinish", clFinish(q), CL_SUCCESS);
    /* The same through the explicit list on a fresh kernel. */
    cl_kernel listed = clCreateKernel(prog, "indirect", &err);
    void *ptrs[] = {targets_dev, targets_shared + 1};
    EXPECT("exec info ptrs", clSetKernelExecInfo(listed, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof ptrs, ptrs), CL_SUCCESS);
    EXPECT("arg table", arg_pointer(listed, 0, table), CL_SUCCESS);
    EXPECT("listed", clEnqueueNDRangeKernel(q, listed, 1, NULL, &four, NULL, 0, NULL, NULL), CL_SUCCESS);
    cl_int got[2];
    EXPECT("read targets", memcpy_intel(q, CL_TRUE, got, targets_dev, sizeof got, 0, NULL, NULL), CL_SUCCESS);
    /* Two runs: item i adds i + 1 each time. */
    EXPECT("indirect device[0]", got[0], 10 + 2 * 1);
    EXPECT("indirect device[1]", got[1], 20 + 2 * 3);
    EXPECT("indirect shared[0]", targets_shared[0], 30 + 2 * 4);
    EXPECT("indirect shared[1]", targets_shared[1], 40 + 2 * 2);
    exec_errors(ctx, listed);

    /* Frees: a blocking free after a kernel that uses the memory, the errors. */
    EXPECT("arg y", arg_pointer(axpy, 0, shared), CL_SUCCESS);
    EXPECT("arg x", arg_pointer(axpy, 1, dev), CL_SUCCESS);
    EXPECT("axpy before free", clEnqueueNDRangeKernel(q, axpy, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    EXPECT("blocking free", blocking_free(ctx, dev), CL_SUCCESS);
    free_errors(ctx, dev, host);
    EXPECT("free", mem_free(ctx, host), CL_SUCCESS);
    EXPECT("free", mem_free(ctx, shared), CL_SUCCESS);
    EXPECT("free", mem_free(ctx, shared_any), CL_SUCCESS);
    EXPECT("free", mem_free(ctx, table), CL_SUCCESS);
    EXPECT("free", mem_free(ctx, targets_dev), CL_SUCCESS);
    EXPECT("free", mem_free(ctx, targets_shared), CL_SUCCESS);
    EXPECT("clFinish", clFinish(q), CL_SUCCESS);
    clReleaseKernel(listed);
    clReleaseKernel(indirect);
    clReleaseKernel(axpy);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);

    if (neo) {
        printf("%d checks, %d failed\n", checks, failures);
        return failures ? 1 : 0;
    }

    /* Enqueue errors last, on a queue of their own that is never waited for: NEO 22.43 accepts
     * some of them and enqueues work that never completes. */
    cl_command_queue bad_q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    cl_int *spare = device_alloc(ctx, device, NULL, bytes, 0, &err);
    cl_int *spare_host = host_alloc(ctx, NULL, bytes, 0, &err);
    SAY("fill.pattern_3", fill(bad_q, spare, &pattern, 3, bytes, 0, NULL, NULL));
    SAY("fill.pattern_256", fill(bad_q, spare, out, 256, bytes, 0, NULL, NULL));
    SAY("fill.size_not_multiple", fill(bad_q, spare, &pattern, 4, 6, 0, NULL, NULL));
    SAY("fill.null_dst", fill(bad_q, NULL, &pattern, 4, 8, 0, NULL, NULL));
    SAY("fill.null_pattern", fill(bad_q, spare, NULL, 4, 8, 0, NULL, NULL));
    SAY("fill.misaligned_dst", fill(bad_q, (char *)spare + 2, &pattern, 4, 8, 0, NULL, NULL));
    SAY("fill.bad_queue", fill((cl_command_queue)ctx, spare, &pattern, 4, 8, 0, NULL, NULL));
    SAY("memset.null_dst", memset_intel(bad_q, NULL, 0, 8, 0, NULL, NULL));
    SAY("memcpy.overlap", memcpy_intel(bad_q, CL_FALSE, spare_host + 1, spare_host, 16, 0, NULL, NULL));
    SAY("memcpy.null_dst", memcpy_intel(bad_q, CL_FALSE, NULL, spare_host, 16, 0, NULL, NULL));
    SAY("memcpy.null_src", memcpy_intel(bad_q, CL_FALSE, spare_host, NULL, 16, 0, NULL, NULL));
    SAY("memcpy.bad_wait_list", memcpy_intel(bad_q, CL_FALSE, out, spare_host, 16, 1, NULL, NULL));
    /* Migrate and advise are hints: accepted, in the queue's order (NEO's migration of a shared
     * allocation does not complete on the simulator, hence here). */
    SAY("migrate", migrate(bad_q, spare_host, bytes, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, &e));
    SAY("event.migrate", command_type(e));
    SAY("advise", advise(bad_q, spare_host, bytes, 0, 0, NULL, &e));
    SAY("event.advise", command_type(e));
    SAY("migrate.bad_flags", migrate(bad_q, spare_host, bytes, 1u << 7, 0, NULL, NULL));
    printf("%d checks, %d failed\n", checks, failures);
    /* bad_q, its allocations and the objects behind them are left to the process's exit. */
    return failures ? 1 : 0;
}
