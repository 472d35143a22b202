/* clCompileProgram with an input header whose text comes from the environment (HEADER_VALUE:
 * the header is `#define VALUE <it>`), then clLinkProgram and a run: prints `value <n>`, what
 * the kernel wrote, which must be the header's VALUE. A second compile of a source without
 * headers shows the plain case. Prints one line per failed check and a summary. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#include "expect.h"

static const char *SRC = "#include \"cfg/value.h\"\n"
                         "kernel void k(global int *o) { o[0] = VALUE; }\n";
static const char *PLAIN = "kernel void p(global int *o) { o[0] = 5; }\n";

int main(void) {
    const char *env = getenv("HEADER_VALUE");
    int want = env ? atoi(env) : 1;
    char header_text[64];
    snprintf(header_text, sizeof header_text, "#define VALUE %d\n", want);
    const char *header_src = header_text;

    cl_platform_id plat;
    cl_device_id dev;
    cl_int err;
    EXPECT("clGetPlatformIDs", clGetPlatformIDs(1, &plat, NULL), CL_SUCCESS);
    EXPECT("clGetDeviceIDs", clGetDeviceIDs(plat, CL_DEVICE_TYPE_GPU, 1, &dev, NULL), CL_SUCCESS);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    EXPECT("clCreateContext", err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    EXPECT("clCreateCommandQueueWithProperties", err, CL_SUCCESS);

    cl_program header = clCreateProgramWithSource(ctx, 1, &header_src, NULL, &err);
    EXPECT("header program", err, CL_SUCCESS);
    cl_program obj = clCreateProgramWithSource(ctx, 1, &SRC, NULL, &err);
    EXPECT("source program", err, CL_SUCCESS);
    const char *name = "cfg/value.h";
    EXPECT("clCompileProgram with a header",
           clCompileProgram(obj, 1, &dev, NULL, 1, &header, &name, NULL, NULL), CL_SUCCESS);
    cl_program plain = clCreateProgramWithSource(ctx, 1, &PLAIN, NULL, &err);
    EXPECT("plain program", err, CL_SUCCESS);
    EXPECT("clCompileProgram without headers",
           clCompileProgram(plain, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_program both[2] = {obj, plain};
    cl_program exe = clLinkProgram(ctx, 1, &dev, NULL, 2, both, NULL, NULL, &err);
    EXPECT("clLinkProgram", err, CL_SUCCESS);

    int out[2] = {0, 0};
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    EXPECT("clCreateBuffer", err, CL_SUCCESS);
    const char *names[2] = {"k", "p"};
    for (int i = 0; i < 2; i++) {
        cl_kernel k = clCreateKernel(exe, names[i], &err);
        EXPECT("clCreateKernel", err, CL_SUCCESS);
        EXPECT("clSetKernelArg", clSetKernelArg(k, 0, sizeof buf, &buf), CL_SUCCESS);
        size_t one = 1;
        EXPECT("clEnqueueNDRangeKernel",
               clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
        EXPECT("clEnqueueReadBuffer",
               clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(int), &out[i], 0, NULL, NULL),
               CL_SUCCESS);
        clReleaseKernel(k);
    }
    EXPECT("the header's value", out[0], want);
    EXPECT("the plain kernel's value", out[1], 5);
    printf("value %d\n", out[0]);
    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
