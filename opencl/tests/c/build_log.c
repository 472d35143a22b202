/* `build_log source FILE.cl` or `build_log binary FILE.bin`: creates a program from the OpenCL
 * C source or the device binary in FILE for the first GPU device of the first platform, builds
 * it with clBuildProgram and prints "status <clBuildProgram's result>", then the build log.
 * Used to compare this ICD's build verdicts and logs with Intel's runtime on the same input. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[1], "source") && strcmp(argv[1], "binary"))) {
        fprintf(stderr, "usage: %s source|binary FILE\n", argv[0]);
        return 2;
    }
    int binary = !strcmp(argv[1], "binary");
    FILE *f = fopen(argv[2], "rb");
    if (!f) {
        perror(argv[2]);
        return 2;
    }
    static char src[1 << 20];
    size_t n = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    src[n] = 0;
    cl_platform_id platform;
    cl_device_id dev;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &dev, NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "no GPU device: %d\n", err);
        return 2;
    }
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clCreateContext: %d\n", err);
        return 2;
    }
    const char *text = src;
    const unsigned char *bytes = (const unsigned char *)src;
    cl_int loaded = CL_SUCCESS;
    cl_program prog = binary ? clCreateProgramWithBinary(ctx, 1, &dev, &n, &bytes, &loaded, &err)
                             : clCreateProgramWithSource(ctx, 1, &text, NULL, &err);
    if (err != CL_SUCCESS || loaded != CL_SUCCESS) {
        fprintf(stderr, "creating the program: %d (binary status %d)\n", err, loaded);
        return 2;
    }
    printf("status %d\n", clBuildProgram(prog, 1, &dev, "", NULL, NULL));
    size_t size = 0;
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char *log = calloc(size + 1, 1);
    if (log && clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, size, log, NULL) == CL_SUCCESS)
        printf("%s\n", log);
    free(log);
    clReleaseProgram(prog);
    clReleaseContext(ctx);
    return 0;
}
