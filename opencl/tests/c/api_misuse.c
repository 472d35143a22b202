/* Seeded OpenCL API misuse, one per case, and a correct twin of each: `api_misuse <case>` runs
 * the bug, `api_misuse ok_<case>` its twin. The bug's call must return the error code the
 * OpenCL 3.0 API specification gives for it, the twin's CL_SUCCESS; anything else exits 1.
 * The sanitizer's `api` check (INTEL_GPU_SANITIZE=api) must report each bug's call once, with
 * the number of times it was made, and nothing for the twins; Oclgrind's --check-api runs the
 * same program. Uses only OpenCL 1.2 calls, which Oclgrind provides. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source =
    "kernel void add(global int* a, int n) {\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < (size_t)n) a[i] += n;\n"
    "}\n"
    "__attribute__((reqd_work_group_size(16, 1, 1)))\n"
    "kernel void fixed(global int* a) { a[get_global_id(0)] = 1; }\n";

static const char *broken = "kernel void add(global int* a, int n) { a[0] = n }\n";

static cl_context ctx;
static cl_device_id device;
static cl_command_queue queue;

static int fail(const char *what, cl_int got) {
    printf("FAIL %s: %d\n", what, got);
    return 1;
}

#define CHECK(what, call)                   \
    do {                                    \
        cl_int e_ = (call);                 \
        if (e_ != CL_SUCCESS)               \
            return fail(what, e_);          \
    } while (0)

/* The seeded call returned `got`; the case wants `want` (CL_SUCCESS for a twin). */
static int expect(const char *call, cl_int got, cl_int want) {
    printf("%s returned %d (want %d)\n", call, got, want);
    return got == want ? 0 : 1;
}

static cl_program build_with(const char *src, const char *options, cl_int *status) {
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (err != CL_SUCCESS) {
        *status = err;
        return NULL;
    }
    *status = clBuildProgram(p, 1, &device, options, NULL, NULL);
    return p;
}

static cl_program build(const char *src, cl_int *status) {
    return build_with(src, "", status);
}

static cl_mem buffer(size_t bytes) {
    int *host = calloc(1, bytes);
    cl_int err;
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host, &err);
    free(host);
    return err == CL_SUCCESS ? b : NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s [ok_]<case>\n", argv[0]);
        return 2;
    }
    int ok = strncmp(argv[1], "ok_", 3) == 0;
    int r0;
    const char *name = ok ? argv[1] + 3 : argv[1];
    cl_platform_id platform;
    cl_int err;
    CHECK("clGetPlatformIDs", clGetPlatformIDs(1, &platform, NULL));
    CHECK("clGetDeviceIDs", clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK("clCreateContext", err);
    queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK("clCreateCommandQueue", err);

    if (strcmp(name, "build_error") == 0) {
        /* A syntax error (a missing semicolon): CL_BUILD_PROGRAM_FAILURE. */
        cl_program p = build(ok ? source : broken, &err);
        clReleaseProgram(p);
        return expect("clBuildProgram", err, ok ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE);
    }
    if (strcmp(name, "arg_info") == 0) {
        /* Argument names from a program built without -cl-kernel-arg-info:
         * CL_KERNEL_ARG_INFO_NOT_AVAILABLE. */
        cl_program p = build_with(source, ok ? "-cl-kernel-arg-info" : "", &err);
        CHECK("clBuildProgram", err);
        cl_kernel k = clCreateKernel(p, "add", &err);
        CHECK("clCreateKernel", err);
        char arg_name[64];
        r0 = expect("clGetKernelArgInfo", clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof arg_name, arg_name, NULL),
                    ok ? CL_SUCCESS : CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
        clReleaseKernel(k);
        clReleaseProgram(p);
        return r0;
    }
    cl_program program = build(source, &err);
    CHECK("clBuildProgram", err);
    if (strcmp(name, "kernel_name") == 0) {
        /* A kernel the program does not have: CL_INVALID_KERNEL_NAME. */
        cl_kernel k = clCreateKernel(program, ok ? "add" : "addd", &err);
        if (k)
            clReleaseKernel(k);
        return expect("clCreateKernel", err, ok ? CL_SUCCESS : CL_INVALID_KERNEL_NAME);
    }
    cl_kernel add = clCreateKernel(program, "add", &err);
    CHECK("clCreateKernel add", err);
    cl_kernel fixed = clCreateKernel(program, "fixed", &err);
    CHECK("clCreateKernel fixed", err);
    cl_mem a = buffer(64 * sizeof(cl_int));
    if (!a)
        return fail("clCreateBuffer", -1);
    cl_int n = 64;
    size_t global = 64, local16 = 16, local8 = 8;
    int r = 2;

    if (strcmp(name, "unset_arg") == 0) {
        /* Argument 1 never set, three enqueues: CL_INVALID_KERNEL_ARGS each time. */
        CHECK("clSetKernelArg 0", clSetKernelArg(add, 0, sizeof a, &a));
        if (ok)
            CHECK("clSetKernelArg 1", clSetKernelArg(add, 1, sizeof n, &n));
        r = 0;
        for (int i = 0; i < 3; i++)
            r |= expect("clEnqueueNDRangeKernel", clEnqueueNDRangeKernel(queue, add, 1, NULL, &global, NULL, 0, NULL, NULL),
                        ok ? CL_SUCCESS : CL_INVALID_KERNEL_ARGS);
    } else if (strcmp(name, "read_past_end") == 0) {
        /* 68 bytes from a 64-int buffer at offset 192: past its end, CL_INVALID_VALUE. */
        cl_int host[17];
        r = expect("clEnqueueReadBuffer",
                   clEnqueueReadBuffer(queue, a, CL_TRUE, 192, ok ? 64 : 68, host, 0, NULL, NULL),
                   ok ? CL_SUCCESS : CL_INVALID_VALUE);
    } else if (strcmp(name, "reqd_work_group_size") == 0) {
        /* Local size 8 for a kernel with reqd_work_group_size(16, 1, 1): CL_INVALID_WORK_GROUP_SIZE. */
        CHECK("clSetKernelArg fixed", clSetKernelArg(fixed, 0, sizeof a, &a));
        r = expect("clEnqueueNDRangeKernel",
                   clEnqueueNDRangeKernel(queue, fixed, 1, NULL, &global, ok ? &local16 : &local8, 0, NULL, NULL),
                   ok ? CL_SUCCESS : CL_INVALID_WORK_GROUP_SIZE);
    } else if (strcmp(name, "release_twice") == 0) {
        /* The program released twice while its kernels still hold it: the second release
         * finds its reference count at zero, CL_INVALID_PROGRAM. */
        CHECK("clReleaseProgram", clReleaseProgram(program));
        r = ok ? 0 : expect("clReleaseProgram", clReleaseProgram(program), CL_INVALID_PROGRAM);
        program = NULL;
    } else if (strcmp(name, "arg_size") == 0) {
        /* A short for an int argument: CL_INVALID_ARG_SIZE (a wider value is taken by its low
         * bytes, as Intel's runtime takes it). */
        cl_short narrow = 64;
        r = expect("clSetKernelArg",
                   ok ? clSetKernelArg(add, 1, sizeof n, &n) : clSetKernelArg(add, 1, sizeof narrow, &narrow),
                   ok ? CL_SUCCESS : CL_INVALID_ARG_SIZE);
    } else if (strcmp(name, "arg_index") == 0) {
        /* Argument 2 of a two-argument kernel: CL_INVALID_ARG_INDEX. */
        r = expect("clSetKernelArg", clSetKernelArg(add, ok ? 1 : 2, sizeof n, &n),
                   ok ? CL_SUCCESS : CL_INVALID_ARG_INDEX);
    } else if (strcmp(name, "info_size") == 0) {
        /* A 2-byte place for CL_DEVICE_NAME: CL_INVALID_VALUE. */
        char name_buf[256];
        r = expect("clGetDeviceInfo", clGetDeviceInfo(device, CL_DEVICE_NAME, ok ? sizeof name_buf : 2, name_buf, NULL),
                   ok ? CL_SUCCESS : CL_INVALID_VALUE);
    } else if (strcmp(name, "device_query") == 0) {
        /* A param_name no device query has (0xFFF, below the first, CL_DEVICE_TYPE 0x1000):
         * CL_INVALID_VALUE. */
        char name_buf[256];
        r = expect("clGetDeviceInfo", clGetDeviceInfo(device, ok ? CL_DEVICE_NAME : 0xFFF, sizeof name_buf, name_buf, NULL),
                   ok ? CL_SUCCESS : CL_INVALID_VALUE);
    } else if (strcmp(name, "buffer_size") == 0) {
        /* A zero-byte buffer: CL_INVALID_BUFFER_SIZE. */
        cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, ok ? 16 : 0, NULL, &err);
        if (b)
            clReleaseMemObject(b);
        r = expect("clCreateBuffer", err, ok ? CL_SUCCESS : CL_INVALID_BUFFER_SIZE);
    } else {
        fprintf(stderr, "unknown case %s\n", name);
        return 2;
    }
    CHECK("clFinish", clFinish(queue));
    clReleaseMemObject(a);
    clReleaseKernel(add);
    clReleaseKernel(fixed);
    if (program)
        clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    return r;
}
