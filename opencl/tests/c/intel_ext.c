/* Four Intel extensions through the ocl-icd loader, each where the device lists it:
 * cl_intel_command_queue_families (the families, queues made from one, the specification's
 * errors), cl_intel_create_buffer_with_properties (clCreateBufferWithPropertiesINTEL, looked
 * up with clGetExtensionFunctionAddressForPlatform), cl_intel_mem_force_host_memory (buffers in
 * host memory, with and without CL_MEM_USE_HOST_PTR) and cl_intel_driver_diagnostics (the
 * hints a context asked for them receives for buffers from host pointers). Kernels on the new
 * queues and buffers check their results against their formulas.
 *
 * Two kinds of output line:
 *   "= <name> <value>"  an answer to compare between runtimes (the test runs this program under
 *                       this ICD and under Intel's NEO on the same simulated GPU);
 *   "FAIL ..."          a kernel result or a required answer that is wrong.
 * Ends with "<checks> checks, <failures> failed"; exits 1 on any failure. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"

#define SAY(name, value) printf("= %s %lld\n", name, (long long)(value))

static const char *source =
    "kernel void inc(global int *p, int k) {\n"
    "    size_t i = get_global_id(0);\n"
    "    p[i] = p[i] * 3 + k + (int)i;\n"
    "}\n";

enum { N = 256 };

static int has_extension(cl_device_id dev, const char *name) {
    char exts[8192] = {0};
    clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof exts - 1, exts, NULL);
    size_t n = strlen(name);
    for (const char *p = exts; (p = strstr(p, name)) != NULL; p += n) {
        if ((p == exts || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) {
            return 1;
        }
    }
    return 0;
}

/* Runs inc(buffer, k) over N ints on `q` and checks the buffer: from[i] * 3 + k + i. The
 * buffer holds `from` before; it is read back with a blocking read. */
static void run_inc(const char *what, cl_command_queue q, cl_kernel kernel, cl_mem buf, const int *from, int k) {
    cl_int err = clSetKernelArg(kernel, 0, sizeof buf, &buf);
    err |= clSetKernelArg(kernel, 1, sizeof k, &k);
    size_t global = N;
    err |= clEnqueueNDRangeKernel(q, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
    int got[N];
    err |= clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
    EXPECT(what, err, CL_SUCCESS);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        bad += got[i] != from[i] * 3 + k + i;
    }
    char name[160];
    snprintf(name, sizeof name, "%s: wrong elements", what);
    EXPECT(name, bad, 0);
}

static void queue_families(cl_context ctx, cl_device_id dev, cl_kernel kernel) {
    if (!has_extension(dev, "cl_intel_command_queue_families")) {
        SAY("qf.listed", 0);
        return;
    }
    SAY("qf.listed", 1);
    size_t size = 0;
    cl_int err = clGetDeviceInfo(dev, CL_DEVICE_QUEUE_FAMILY_PROPERTIES_INTEL, 0, NULL, &size);
    EXPECT("family query size", err, CL_SUCCESS);
    size_t n = size / sizeof(cl_queue_family_properties_intel);
    EXPECT("family query size is whole structures", size % sizeof(cl_queue_family_properties_intel), 0);
    SAY("qf.families", n);
    cl_queue_family_properties_intel fam[16];
    if (n == 0 || n > 16) {
        EXPECT("1 to 16 families", 0, 1);
        return;
    }
    err = clGetDeviceInfo(dev, CL_DEVICE_QUEUE_FAMILY_PROPERTIES_INTEL, size, fam, NULL);
    EXPECT("family query", err, CL_SUCCESS);
    err = clGetDeviceInfo(dev, CL_DEVICE_QUEUE_FAMILY_PROPERTIES_INTEL, size - 1, fam, NULL);
    SAY("qf.small_size", err);
    cl_command_queue_properties host = 0;
    clGetDeviceInfo(dev, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof host, &host, NULL);
    int default_family = -1;
    for (size_t i = 0; i < n; i++) {
        printf("= qf.%zu.name %s\n", i, fam[i].name);
        char name[64];
        snprintf(name, sizeof name, "qf.%zu.properties", i);
        SAY(name, fam[i].properties);
        snprintf(name, sizeof name, "qf.%zu.capabilities", i);
        SAY(name, fam[i].capabilities);
        snprintf(name, sizeof name, "qf.%zu.count", i);
        SAY(name, fam[i].count);
        if (fam[i].properties == host && fam[i].capabilities == CL_QUEUE_DEFAULT_CAPABILITIES_INTEL &&
            default_family < 0) {
            default_family = (int)i;
        }
    }
    /* "At least one entry in the array must return the same properties returned by
     * CL_DEVICE_QUEUE_ON_HOST_PROPERTIES and must have capabilities equal to
     * CL_QUEUE_DEFAULT_CAPABILITIES_INTEL." */
    SAY("qf.has_default_family", default_family >= 0);

    /* A queue on every index of every family, each running a kernel. */
    int all_ok = 1;
    for (size_t f = 0; f < n; f++) {
        for (cl_uint ix = 0; ix < fam[f].count; ix++) {
            cl_queue_properties props[] = {CL_QUEUE_FAMILY_INTEL, f, CL_QUEUE_INDEX_INTEL, ix, 0};
            cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
            if (err != CL_SUCCESS) {
                all_ok = 0;
                continue;
            }
            cl_uint got_f = 99, got_i = 99;
            clGetCommandQueueInfo(q, CL_QUEUE_FAMILY_INTEL, sizeof got_f, &got_f, NULL);
            clGetCommandQueueInfo(q, CL_QUEUE_INDEX_INTEL, sizeof got_i, &got_i, NULL);
            all_ok &= got_f == f && got_i == ix;
            /* Only default-capability families run every command. */
            if (fam[f].capabilities == CL_QUEUE_DEFAULT_CAPABILITIES_INTEL ||
                (fam[f].capabilities & CL_QUEUE_CAPABILITY_KERNEL_INTEL)) {
                int from[N];
                for (int i = 0; i < N; i++) {
                    from[i] = i * 7 - 100;
                }
                cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof from, from, &err);
                char what[64];
                snprintf(what, sizeof what, "kernel on family %zu index %u", f, ix);
                run_inc(what, q, kernel, buf, from, (int)(f * 10 + ix));
                clReleaseMemObject(buf);
            }
            clReleaseCommandQueue(q);
        }
    }
    SAY("qf.every_queue_created_and_named", all_ok);

    /* The specification's errors (CL_INVALID_VALUE each). */
    cl_uint nf = (cl_uint)n;
    cl_queue_properties bad_family[] = {CL_QUEUE_FAMILY_INTEL, nf, CL_QUEUE_INDEX_INTEL, 0, 0};
    cl_queue_properties bad_index[] = {CL_QUEUE_FAMILY_INTEL, 0, CL_QUEUE_INDEX_INTEL, fam[0].count, 0};
    cl_queue_properties family_only[] = {CL_QUEUE_FAMILY_INTEL, 0, 0};
    cl_queue_properties index_only[] = {CL_QUEUE_INDEX_INTEL, 0, 0};
    const struct {
        const char *name;
        const cl_queue_properties *props;
    } bad[] = {
        {"qf.err.family_out_of_range", bad_family},
        {"qf.err.index_out_of_range", bad_index},
        {"qf.err.family_without_index", family_only},
        {"qf.err.index_without_family", index_only},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, bad[i].props, &err);
        SAY(bad[i].name, err);
        if (q) {
            clReleaseCommandQueue(q);
        }
    }
    /* A queue made without a family: one with the default capabilities. */
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    cl_uint f = 99, ix = 99;
    clGetCommandQueueInfo(q, CL_QUEUE_FAMILY_INTEL, sizeof f, &f, NULL);
    clGetCommandQueueInfo(q, CL_QUEUE_INDEX_INTEL, sizeof ix, &ix, NULL);
    SAY("qf.plain_queue_family_is_default",
        f < n && fam[f].properties == host && fam[f].capabilities == CL_QUEUE_DEFAULT_CAPABILITIES_INTEL);
    SAY("qf.plain_queue_index_in_range", f < n && ix < fam[f].count);
    clReleaseCommandQueue(q);
}


static void buffer_with_properties(cl_platform_id platform, cl_context ctx, cl_device_id dev, cl_command_queue q,
                                   cl_kernel kernel) {
    clCreateBufferWithPropertiesINTEL_fn create =
        (clCreateBufferWithPropertiesINTEL_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clCreateBufferWithPropertiesINTEL");
    if (!has_extension(dev, "cl_intel_create_buffer_with_properties")) {
        SAY("bwp.listed", 0);
        return;
    }
    SAY("bwp.listed", 1);
    EXPECT("clCreateBufferWithPropertiesINTEL found", create != NULL, 1);
    if (!create) {
        return;
    }
    int from[N];
    for (int i = 0; i < N; i++) {
        from[i] = 1000 - i * 5;
    }
    cl_int err;
    /* NULL and an empty list: an ordinary buffer. */
    cl_mem_properties_intel empty[] = {0};
    const cl_mem_properties_intel *lists[] = {NULL, empty};
    for (int l = 0; l < 2; l++) {
        cl_mem buf = create(ctx, lists[l], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof from, from, &err);
        EXPECT("clCreateBufferWithPropertiesINTEL", err, CL_SUCCESS);
        if (buf) {
            run_inc(l ? "kernel on a buffer with an empty property list" : "kernel on a buffer with NULL properties",
                    q, kernel, buf, from, 4 + l);
            clReleaseMemObject(buf);
        }
    }
    /* The specification's errors. */
    cl_mem_properties_intel unknown[] = {0x12345, 1, 0};
    const struct {
        const char *name;
        cl_context ctx;
        const cl_mem_properties_intel *props;
        cl_mem_flags flags;
        size_t size;
        void *host;
    } bad[] = {
        {"bwp.err.null_context", NULL, NULL, CL_MEM_READ_WRITE, 64, NULL},
        {"bwp.err.unknown_property", ctx, unknown, CL_MEM_READ_WRITE, 64, NULL},
        {"bwp.err.two_access_flags", ctx, NULL, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, NULL},
        {"bwp.err.size_0", ctx, NULL, CL_MEM_READ_WRITE, 0, NULL},
        {"bwp.err.copy_without_host_ptr", ctx, NULL, CL_MEM_COPY_HOST_PTR, 64, NULL},
        {"bwp.err.host_ptr_without_flag", ctx, NULL, CL_MEM_READ_WRITE, 64, from},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cl_mem m = create(bad[i].ctx, bad[i].props, bad[i].flags, bad[i].size, bad[i].host, &err);
        SAY(bad[i].name, err);
        if (m) {
            clReleaseMemObject(m);
        }
    }
}

/* Page-aligned host memory for CL_MEM_USE_HOST_PTR, 4 KiB more than asked. */
static int *host_block(size_t bytes) {
    void *p = NULL;
    if (posix_memalign(&p, 4096, bytes + 4096) != 0) {
        return NULL;
    }
    return p;
}

static void force_host_memory(cl_context ctx, cl_device_id dev, cl_command_queue q, cl_kernel kernel) {
    if (!has_extension(dev, "cl_intel_mem_force_host_memory")) {
        SAY("fhm.listed", 0);
        return;
    }
    SAY("fhm.listed", 1);
    int from[N];
    for (int i = 0; i < N; i++) {
        from[i] = i * i - 300;
    }
    cl_int err;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_FORCE_HOST_MEMORY_INTEL | CL_MEM_COPY_HOST_PTR, sizeof from, from, &err);
    SAY("fhm.create", err);
    if (buf) {
        cl_mem_flags flags = 0;
        clGetMemObjectInfo(buf, CL_MEM_FLAGS, sizeof flags, &flags, NULL);
        SAY("fhm.flags_keep_force", (flags & CL_MEM_FORCE_HOST_MEMORY_INTEL) != 0);
        run_inc("kernel on a forced host memory buffer", q, kernel, buf, from, 7);
        /* A map of it sees the kernel's results too. */
        int *m = clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_READ, 0, sizeof from, 0, NULL, NULL, &err);
        EXPECT("map", err, CL_SUCCESS);
        if (m) {
            int bad = 0;
            for (int i = 0; i < N; i++) {
                bad += m[i] != from[i] * 3 + 7 + i;
            }
            EXPECT("mapped forced host memory holds the kernel's results", bad, 0);
            clEnqueueUnmapMemObject(q, buf, m, 0, NULL, NULL);
            clFinish(q);
        }
        /* "CL_INVALID_VALUE if flags specifies CL_MEM_FORCE_HOST_MEMORY_INTEL" (sub-buffers). */
        cl_buffer_region r = {0, 64};
        cl_mem sub = clCreateSubBuffer(buf, CL_MEM_FORCE_HOST_MEMORY_INTEL, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
        SAY("fhm.err.sub_buffer", err);
        if (sub) {
            clReleaseMemObject(sub);
        }
        clReleaseMemObject(buf);
    }
    /* With CL_MEM_USE_HOST_PTR: host_ptr and size multiples of the cache line; the kernel
     * writes the application's own bytes. */
    int *host = host_block(sizeof from);
    if (!host) {
        EXPECT("host memory", 0, 1);
        return;
    }
    memcpy(host, from, sizeof from);
    buf = clCreateBuffer(ctx, CL_MEM_FORCE_HOST_MEMORY_INTEL | CL_MEM_USE_HOST_PTR, sizeof from, host, &err);
    SAY("fhm.use_host_ptr", err);
    if (buf) {
        run_inc("kernel on a forced host memory buffer over host_ptr", q, kernel, buf, from, 9);
        int *m = clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_READ, 0, sizeof from, 0, NULL, NULL, &err);
        int bad = 0;
        for (int i = 0; i < N && m; i++) {
            bad += host[i] != from[i] * 3 + 9 + i;
        }
        EXPECT("host_ptr holds the kernel's results once mapped", bad, 0);
        SAY("fhm.map_is_host_ptr", m == host);
        if (m) {
            clEnqueueUnmapMemObject(q, buf, m, 0, NULL, NULL);
        }
        clFinish(q);
        clReleaseMemObject(buf);
    }
    cl_uint line = 0;
    clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, sizeof line, &line, NULL);
    SAY("fhm.cacheline", line);
    buf = clCreateBuffer(ctx, CL_MEM_FORCE_HOST_MEMORY_INTEL | CL_MEM_USE_HOST_PTR, sizeof from,
                         (char *)host + line / 2, &err);
    SAY("fhm.err.misaligned_host_ptr", err);
    if (buf) {
        clReleaseMemObject(buf);
    }
    buf = clCreateBuffer(ctx, CL_MEM_FORCE_HOST_MEMORY_INTEL | CL_MEM_USE_HOST_PTR, sizeof from - 4, host, &err);
    SAY("fhm.err.size_not_multiple", err);
    if (buf) {
        clReleaseMemObject(buf);
    }
    free(host);
}

/* The hints a context receives, by level. */
struct hints {
    int good, bad, neutral, other;
};

static void CL_CALLBACK on_hint(const char *errinfo, const void *private_info, size_t cb, void *user) {
    (void)cb;
    struct hints *h = user;
    cl_diagnostics_verbose_level level = private_info ? *(const cl_diagnostics_verbose_level *)private_info : 0;
    if (level == CL_CONTEXT_DIAGNOSTICS_LEVEL_GOOD_INTEL) {
        h->good++;
    } else if (level == CL_CONTEXT_DIAGNOSTICS_LEVEL_BAD_INTEL) {
        h->bad++;
    } else if (level == CL_CONTEXT_DIAGNOSTICS_LEVEL_NEUTRAL_INTEL) {
        h->neutral++;
    } else {
        h->other++;
    }
    printf("hint %llu: %s\n", (unsigned long long)level, errinfo);
}

/* The hints for creating (and releasing) one buffer in a context asking for `level`. */
static void hints_for(cl_platform_id platform, cl_device_id dev, const char *what, cl_diagnostics_verbose_level level,
                      cl_mem_flags flags, size_t size, void *host) {
    struct hints h = {0, 0, 0, 0};
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
                                     CL_CONTEXT_SHOW_DIAGNOSTICS_INTEL, (cl_context_properties)level, 0};
    cl_int err;
    cl_context ctx = clCreateContext(props, 1, &dev, on_hint, &h, &err);
    char name[128];
    snprintf(name, sizeof name, "diag.%s.context", what);
    SAY(name, err);
    if (!ctx) {
        return;
    }
    cl_mem buf = clCreateBuffer(ctx, flags, size, host, &err);
    snprintf(name, sizeof name, "diag.%s.create", what);
    SAY(name, err);
    if (buf) {
        clReleaseMemObject(buf);
    }
    clReleaseContext(ctx);
    snprintf(name, sizeof name, "diag.%s.good", what);
    SAY(name, h.good);
    snprintf(name, sizeof name, "diag.%s.bad", what);
    SAY(name, h.bad);
    snprintf(name, sizeof name, "diag.%s.neutral", what);
    SAY(name, h.neutral);
    snprintf(name, sizeof name, "diag.%s.other", what);
    SAY(name, h.other);
}

static void driver_diagnostics(cl_platform_id platform, cl_device_id dev) {
    if (!has_extension(dev, "cl_intel_driver_diagnostics")) {
        SAY("diag.listed", 0);
        return;
    }
    SAY("diag.listed", 1);
    char *host = (char *)host_block(8192);
    if (!host) {
        EXPECT("host memory", 0, 1);
        return;
    }
    cl_diagnostics_verbose_level all = CL_CONTEXT_DIAGNOSTICS_LEVEL_ALL_INTEL;
    hints_for(platform, dev, "use_aligned", all, CL_MEM_USE_HOST_PTR, 4096, host);
    hints_for(platform, dev, "use_misaligned_ptr", all, CL_MEM_USE_HOST_PTR, 4096, host + 4);
    hints_for(platform, dev, "use_misaligned_size", all, CL_MEM_USE_HOST_PTR, 4000, host);
    hints_for(platform, dev, "use_aligned_good_only", CL_CONTEXT_DIAGNOSTICS_LEVEL_GOOD_INTEL, CL_MEM_USE_HOST_PTR,
              4096, host);
    hints_for(platform, dev, "use_misaligned_good_only", CL_CONTEXT_DIAGNOSTICS_LEVEL_GOOD_INTEL, CL_MEM_USE_HOST_PTR,
              4096, host + 4);
    hints_for(platform, dev, "copy", all, CL_MEM_COPY_HOST_PTR, 4096, host);
    hints_for(platform, dev, "plain", all, CL_MEM_READ_WRITE, 4096, NULL);
    hints_for(platform, dev, "none_asked", 0, CL_MEM_USE_HOST_PTR, 4096, host);
    hints_for(platform, dev, "bad_level", 0x100, CL_MEM_USE_HOST_PTR, 4096, host);
    free(host);
    /* "CL_INVALID_PROPERTY if property CL_CONTEXT_SHOW_DIAGNOSTICS_INTEL is set to a nonzero
     * value and pfn_notify is NULL." */
    cl_context_properties props[] = {CL_CONTEXT_SHOW_DIAGNOSTICS_INTEL, (cl_context_properties)all, 0};
    cl_int err;
    cl_context ctx = clCreateContext(props, 1, &dev, NULL, NULL, &err);
    SAY("diag.err.no_callback", err);
    if (ctx) {
        clReleaseContext(ctx);
    }
    cl_context_properties with_platform[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
                                             CL_CONTEXT_SHOW_DIAGNOSTICS_INTEL, (cl_context_properties)all, 0};
    ctx = clCreateContextFromType(with_platform, CL_DEVICE_TYPE_GPU, NULL, NULL, &err);
    SAY("diag.err.no_callback_from_type", err);
    if (ctx) {
        clReleaseContext(ctx);
    }
}

int main(void) {
    cl_platform_id platform;
    cl_device_id dev;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    err |= clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &dev, NULL);
    EXPECT("platform and device", err, CL_SUCCESS);
    if (err != CL_SUCCESS) {
        return 1;
    }
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    err |= clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    cl_kernel kernel = clCreateKernel(prog, "inc", &err);
    EXPECT("program", err, CL_SUCCESS);

    queue_families(ctx, dev, kernel);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    buffer_with_properties(platform, ctx, dev, q, kernel);
    force_host_memory(ctx, dev, q, kernel);
    clReleaseCommandQueue(q);
    driver_diagnostics(platform, dev);

    clReleaseKernel(kernel);
    clReleaseProgram(prog);
    clReleaseContext(ctx);
    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
