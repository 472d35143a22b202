/* `source_lines <file.cl> <build options>`: builds the OpenCL C in <file.cl> with the options
 * and runs its kernel `bug(global const int *a, global int *b)` over 64 work-items, `a` and `b`
 * 64 ints each. What the sanitizer finds is the caller's to read (INTEL_GPU_SANITIZE_LOG);
 * any OpenCL error exits 1. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(what, call)                           \
    do {                                            \
        cl_int e_ = (call);                         \
        if (e_ != CL_SUCCESS) {                     \
            printf("FAIL %s: %d\n", what, e_);      \
            return 1;                               \
        }                                           \
    } while (0)

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s <file.cl> <build options>\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f)
        return 2;
    static char source[65536];
    size_t n = fread(source, 1, sizeof source - 1, f);
    fclose(f);
    source[n] = 0;
    const char *src = source;

    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    CHECK("clGetPlatformIDs", clGetPlatformIDs(1, &platform, NULL));
    CHECK("clGetDeviceIDs", clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK("clCreateContext", err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK("clCreateCommandQueue", err);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK("clCreateProgramWithSource", err);
    CHECK("clBuildProgram", clBuildProgram(p, 1, &device, argv[2], NULL, NULL));
    cl_kernel k = clCreateKernel(p, "bug", &err);
    CHECK("clCreateKernel", err);
    int host[64];
    for (int i = 0; i < 64; i++)
        host[i] = i;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    CHECK("clCreateBuffer a", err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof host, NULL, &err);
    CHECK("clCreateBuffer b", err);
    CHECK("clSetKernelArg 0", clSetKernelArg(k, 0, sizeof a, &a));
    CHECK("clSetKernelArg 1", clSetKernelArg(k, 1, sizeof b, &b));
    size_t global = 64;
    CHECK("clEnqueueNDRangeKernel",
          clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK("clFinish", clFinish(queue));
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    return 0;
}
