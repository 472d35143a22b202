/* A few calls for the trace test (tests/trace.rs): a buffer of 4096 bytes and a program
 * built with an option, each checked; and a context released from an atexit handler, as C++
 * static destructors release theirs (OpenVINO's GPU plugin does), after glibc's exit() has run
 * the thread's TLS destructors. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

static cl_context late;

static void release_late(void) {
    printf("late release: %d\n", (int)clReleaseContext(late));
    fflush(stdout);
}

#define CHECK(what, err)                                         \
    if ((err) != CL_SUCCESS) {                                   \
        fprintf(stdout, "%s failed: %d\n", (what), (int)(err)); \
        return 1;                                                \
    }

int main(void) {
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    CHECK("clGetPlatformIDs", err);
    err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL);
    CHECK("clGetDeviceIDs", err);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK("clCreateContext", err);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
    CHECK("clCreateBuffer", err);
    const char *src = "kernel void k(global int *p) { p[0] = 1; }";
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK("clCreateProgramWithSource", err);
    err = clBuildProgram(prog, 1, &device, "-cl-std=CL1.2", NULL, NULL);
    CHECK("clBuildProgram", err);
    clReleaseProgram(prog);
    clReleaseMemObject(buf);
    clReleaseContext(ctx);
    late = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK("clCreateContext (late)", err);
    atexit(release_late);
    printf("trace client done\n");
    return 0;
}
