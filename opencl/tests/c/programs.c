/* Separate compilation through the ocl-icd loader (OpenCL 3.0 API 5.8.3-5.8.5): two sources
 * compiled with clCompileProgram, one calling a function the other defines, both including a
 * header given through input_headers under a path-like include name and using -D; linked by
 * clLinkProgram directly and through a library (-create-library), the object and the library
 * also after a round trip through CL_PROGRAM_BINARIES and clCreateProgramWithBinary; the
 * kernel runs and its results are checked. Then the specification's errors for bad input. Expected values are the
 * specification's and out[i] = SCALE * i + OFF from the sources below. Prints one line per
 * failed check and a summary. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"

static const char *HEADER = "#define SCALE 3\nint helper(int x);\n";
static const char *MAIN_SRC =
    "#include \"util/scale.h\"\n"
    "kernel void run(global int *out) {\n"
    "    int i = (int)get_global_id(0);\n"
    "    out[i] = helper(i) + OFF;\n"
    "}\n";
static const char *HELPER_SRC =
    "#include \"util/scale.h\"\n"
    "int helper(int x) { return x * SCALE; }\n";

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue queue;
static cl_program header;
static int notified;

static void CL_CALLBACK notify(cl_program p, void *user) {
    (void)p;
    *(int *)user += 1;
}

static cl_program source(const char *s) {
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
    EXPECT("clCreateProgramWithSource", err, CL_SUCCESS);
    return p;
}

/* Compiles s with the header as util/scale.h. */
static cl_int compile(cl_program p, const char *options) {
    const char *name = "util/scale.h";
    return clCompileProgram(p, 1, &dev, options, 1, &header, &name, NULL, NULL);
}

static cl_uint binary_type(cl_program p) {
    cl_program_binary_type t = 99;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, NULL);
    return t;
}

static cl_int build_status(cl_program p) {
    cl_build_status s = 99;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof s, &s, NULL);
    return s;
}

static int log_has(cl_program p, const char *needle) {
    size_t n = 0;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = calloc(n + 1, 1);
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    int found = strstr(log, needle) != NULL;
    if (!found)
        printf("log without \"%s\":\n%s\n", needle, log);
    free(log);
    return found;
}

/* Runs `run` from p over 64 items and checks out[i] = 3 * i + 5. */
static void run_and_check(cl_program p, const char *what) {
    cl_int err;
    cl_kernel k = clCreateKernel(p, "run", &err);
    EXPECT("clCreateKernel of the linked program", err, CL_SUCCESS);
    if (err != CL_SUCCESS)
        return;
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &err);
    EXPECT("clCreateBuffer", err, CL_SUCCESS);
    EXPECT("clSetKernelArg", clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    size_t global = 64;
    EXPECT("clEnqueueNDRangeKernel",
           clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    int host[64];
    EXPECT("clEnqueueReadBuffer",
           clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL),
           CL_SUCCESS);
    int bad = 0;
    for (int i = 0; i < 64; i++)
        bad += host[i] != 3 * i + 5;
    EXPECT(what, bad, 0);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

int main(void) {
    cl_platform_id platform;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    EXPECT("clGetPlatformIDs", err, CL_SUCCESS);
    EXPECT("clGetDeviceIDs", clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL), CL_SUCCESS);
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    EXPECT("clCreateContext", err, CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    EXPECT("clCreateCommandQueueWithProperties", err, CL_SUCCESS);
    header = source(HEADER);

    /* Compile both, with the header and -D; the callback fires once per call. */
    cl_program main_obj = source(MAIN_SRC), helper_obj = source(HELPER_SRC);
    const char *name = "util/scale.h";
    EXPECT("clCompileProgram (main, callback)",
           clCompileProgram(main_obj, 1, &dev, "-DOFF=5 -cl-std=CL3.0", 1, &header, &name, notify,
                            &notified),
           CL_SUCCESS);
    EXPECT("compile callback", notified, 1);
    EXPECT("clCompileProgram (helper)", compile(helper_obj, NULL), CL_SUCCESS);
    EXPECT("compiled: build status", build_status(main_obj), CL_BUILD_SUCCESS);
    EXPECT("compiled: binary type", binary_type(main_obj), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    cl_kernel none = clCreateKernel(main_obj, "run", &err);
    EXPECT("clCreateKernel of a compiled object", err, CL_INVALID_PROGRAM_EXECUTABLE);
    EXPECT("no kernel", none == NULL, 1);
    cl_uint nk;
    EXPECT("clCreateKernelsInProgram of a compiled object",
           clCreateKernelsInProgram(main_obj, 0, NULL, &nk), CL_INVALID_PROGRAM_EXECUTABLE);
    size_t size = 0;
    EXPECT("CL_PROGRAM_BINARY_SIZES",
           clGetProgramInfo(main_obj, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL),
           CL_SUCCESS);
    unsigned char *bin = calloc(size + 4, 1);
    EXPECT("CL_PROGRAM_BINARIES",
           clGetProgramInfo(main_obj, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL), CL_SUCCESS);
    /* A compiled object is SPIR-V (magic number 0x07230203, SPIR-V specification 2.3) inside
     * the runtime's container, which names the device it is for (opencl/src/binary.rs). */
    EXPECT("compiled object in its container", memcmp(bin, "IGPUCLIR", 8), 0);
    int spirv = 0;
    for (size_t k = 8; k + 4 <= size && !spirv; k++) /* the header's length varies */
        spirv = (bin[k] | bin[k + 1] << 8 | bin[k + 2] << 16 | (unsigned)bin[k + 3] << 24) ==
                0x07230203;
    EXPECT("compiled object is SPIR-V", spirv, 1);
    /* The compiled object round-trips through clCreateProgramWithBinary and links. */
    const unsigned char *cbin = bin;
    cl_int bstatus = 99;
    cl_program main_again = clCreateProgramWithBinary(ctx, 1, &dev, &size, &cbin, &bstatus, &err);
    EXPECT("clCreateProgramWithBinary of a compiled object", err, CL_SUCCESS);
    EXPECT("binary status", bstatus, CL_SUCCESS);
    EXPECT("from binary: binary type", binary_type(main_again), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    free(bin);

    /* Link both into an executable, with a callback on the new program. */
    cl_program objs[2] = {main_obj, helper_obj};
    notified = 0;
    cl_program exe = clLinkProgram(ctx, 1, &dev, NULL, 2, objs, notify, &notified, &err);
    EXPECT("clLinkProgram", err, CL_SUCCESS);
    EXPECT("link callback", notified, 1);
    EXPECT("linked: build status", build_status(exe), CL_BUILD_SUCCESS);
    EXPECT("linked: binary type", binary_type(exe), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    run_and_check(exe, "kernel of two linked objects: out[i] = 3 * i + 5");

    /* Through a library. */
    cl_program lib = clLinkProgram(ctx, 1, &dev, "-create-library", 1, &helper_obj, NULL, NULL, &err);
    EXPECT("clLinkProgram -create-library", err, CL_SUCCESS);
    EXPECT("library: binary type", binary_type(lib), CL_PROGRAM_BINARY_TYPE_LIBRARY);
    cl_program with_lib[2] = {main_obj, lib};
    cl_program exe2 = clLinkProgram(ctx, 1, &dev, "-cl-fast-relaxed-math", 2, with_lib, NULL, NULL, &err);
    EXPECT("clLinkProgram object + library", err, CL_SUCCESS);
    EXPECT("object + library: binary type", binary_type(exe2), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    run_and_check(exe2, "kernel of an object and a library: out[i] = 3 * i + 5");
    /* The library round-trips through clCreateProgramWithBinary and links. */
    size_t lsize = 0;
    clGetProgramInfo(lib, CL_PROGRAM_BINARY_SIZES, sizeof lsize, &lsize, NULL);
    unsigned char *lbin = calloc(lsize + 4, 1);
    EXPECT("CL_PROGRAM_BINARIES of a library",
           clGetProgramInfo(lib, CL_PROGRAM_BINARIES, sizeof lbin, &lbin, NULL), CL_SUCCESS);
    const unsigned char *clbin = lbin;
    bstatus = 99;
    cl_program lib_again = clCreateProgramWithBinary(ctx, 1, &dev, &lsize, &clbin, &bstatus, &err);
    EXPECT("clCreateProgramWithBinary of a library", err, CL_SUCCESS);
    EXPECT("library binary status", bstatus, CL_SUCCESS);
    EXPECT("library from binary: binary type", binary_type(lib_again), CL_PROGRAM_BINARY_TYPE_LIBRARY);
    free(lbin);
    cl_program with_lib_again[2] = {main_obj, lib_again};
    cl_program exe4 = clLinkProgram(ctx, 1, &dev, NULL, 2, with_lib_again, NULL, NULL, &err);
    EXPECT("clLinkProgram object + library from its binary", err, CL_SUCCESS);
    run_and_check(exe4, "kernel of an object and a library from its binary: out[i] = 3 * i + 5");
    clReleaseProgram(exe4);
    clReleaseProgram(lib_again);
    cl_program again[2] = {main_again, helper_obj};
    cl_program exe3 = clLinkProgram(ctx, 1, &dev, NULL, 2, again, NULL, NULL, &err);
    EXPECT("clLinkProgram of a compiled object from its binary", err, CL_SUCCESS);
    run_and_check(exe3, "kernel of an object from its binary: out[i] = 3 * i + 5");
    EXPECT("clBuildProgram of an object calling an undefined function",
           clBuildProgram(main_again, 1, &dev, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    EXPECT("its log names the function", log_has(main_again, "helper"), 1);
    clReleaseProgram(exe3);
    clReleaseProgram(main_again);

    /* Errors. An undefined function: the link fails, the program holds the log. */
    cl_program alone = clLinkProgram(ctx, 1, &dev, NULL, 1, &main_obj, NULL, NULL, &err);
    EXPECT("link with an undefined function", err, CL_LINK_PROGRAM_FAILURE);
    EXPECT("failed link returns a program", alone != NULL, 1);
    if (alone) {
        EXPECT("failed link: build status", build_status(alone), CL_BUILD_ERROR);
        EXPECT("failed link: log names the function", log_has(alone, "helper"), 1);
        clReleaseProgram(alone);
    }
    /* A function defined twice. */
    cl_program twice[2] = {helper_obj, lib};
    alone = clLinkProgram(ctx, 1, &dev, NULL, 2, twice, NULL, NULL, &err);
    EXPECT("link with a function defined twice", err, CL_LINK_PROGRAM_FAILURE);
    if (alone)
        clReleaseProgram(alone);
    EXPECT("unknown linker option",
           clLinkProgram(ctx, 1, &dev, "-cl-bogus", 2, objs, NULL, NULL, &err) == NULL, 1);
    EXPECT("unknown linker option: error", err, CL_INVALID_LINKER_OPTIONS);
    clLinkProgram(ctx, 1, &dev, "-enable-link-options", 2, objs, NULL, NULL, &err);
    EXPECT("-enable-link-options without -create-library", err, CL_INVALID_LINKER_OPTIONS);
    clLinkProgram(ctx, 1, &dev, NULL, 0, NULL, NULL, NULL, &err);
    EXPECT("link of no programs", err, CL_INVALID_VALUE);
    clLinkProgram(ctx, 1, &dev, NULL, 2, objs, NULL, &notified, &err);
    EXPECT("link: user_data without pfn_notify", err, CL_INVALID_VALUE);
    clLinkProgram(NULL, 1, &dev, NULL, 2, objs, NULL, NULL, &err);
    EXPECT("link: no context", err, CL_INVALID_CONTEXT);
    cl_program uncompiled = source(HELPER_SRC);
    clLinkProgram(ctx, 1, &dev, NULL, 1, &uncompiled, NULL, NULL, &err);
    EXPECT("link of a program never compiled", err, CL_INVALID_OPERATION);

    /* A compile error: the log has the compiler's message. */
    cl_program broken = source("kernel void k(global int *o) { o[0] = undeclared; }\n");
    EXPECT("compile error", clCompileProgram(broken, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL),
           CL_COMPILE_PROGRAM_FAILURE);
    EXPECT("compile error: build status", build_status(broken), CL_BUILD_ERROR);
    EXPECT("compile error: log", log_has(broken, "undeclared"), 1);
    /* Without its header the source does not compile. */
    EXPECT("missing header",
           clCompileProgram(uncompiled, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL),
           CL_COMPILE_PROGRAM_FAILURE);
    EXPECT("missing header: log", log_has(uncompiled, "util/scale.h"), 1);
    EXPECT("headers without names",
           clCompileProgram(main_obj, 1, &dev, NULL, 1, &header, NULL, NULL, NULL), CL_INVALID_VALUE);
    const char *up = "../scale.h";
    EXPECT("include name outside the header directory",
           clCompileProgram(main_obj, 1, &dev, NULL, 1, &header, &up, NULL, NULL), CL_INVALID_VALUE);
    EXPECT("compile: user_data without pfn_notify",
           clCompileProgram(main_obj, 1, &dev, NULL, 0, NULL, NULL, NULL, &notified), CL_INVALID_VALUE);
    EXPECT("compile: no program", clCompileProgram(NULL, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
           CL_INVALID_PROGRAM);
    EXPECT("compile: device list without devices",
           clCompileProgram(main_obj, 0, &dev, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
    /* A program with kernels attached cannot be compiled again. */
    cl_kernel k = clCreateKernel(exe, "run", &err);
    EXPECT("kernel of the executable", err, CL_SUCCESS);
    EXPECT("compile of a program from binaries (the linked one)",
           clCompileProgram(exe, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
    cl_program built = source(MAIN_SRC);
    EXPECT("clBuildProgram of a source whose header is not given",
           clBuildProgram(built, 1, &dev, "-DOFF=5", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    cl_program plain = source("kernel void p(global int *o) { o[0] = 1; }\n");
    EXPECT("clBuildProgram", clBuildProgram(plain, 1, &dev, NULL, NULL, NULL), CL_SUCCESS);
    cl_kernel pk = clCreateKernel(plain, "p", &err);
    EXPECT("clCreateKernel", err, CL_SUCCESS);
    EXPECT("compile with a kernel attached",
           clCompileProgram(plain, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
    clReleaseKernel(pk);
    EXPECT("compile once the kernel is released",
           clCompileProgram(plain, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    EXPECT("recompiled: binary type", binary_type(plain), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    /* clBuildProgram of compiled objects given as binaries: a complete one builds and runs its
     * kernel; one calling an undefined function fails. */
    size_t psize = 0;
    clGetProgramInfo(plain, CL_PROGRAM_BINARY_SIZES, sizeof psize, &psize, NULL);
    unsigned char *pbin = calloc(psize + 1, 1);
    clGetProgramInfo(plain, CL_PROGRAM_BINARIES, sizeof pbin, &pbin, NULL);
    const unsigned char *cpbin = pbin;
    cl_program from_obj = clCreateProgramWithBinary(ctx, 1, &dev, &psize, &cpbin, NULL, &err);
    EXPECT("clCreateProgramWithBinary of a complete object", err, CL_SUCCESS);
    EXPECT("clBuildProgram of a complete object",
           clBuildProgram(from_obj, 1, &dev, "-cl-fast-relaxed-math", NULL, NULL), CL_SUCCESS);
    EXPECT("built object: binary type", binary_type(from_obj), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    pk = clCreateKernel(from_obj, "p", &err);
    EXPECT("kernel of the built object", err, CL_SUCCESS);
    if (pk)
        clReleaseKernel(pk);
    clReleaseProgram(from_obj);
    free(pbin);

    clReleaseKernel(k);
    clReleaseProgram(plain);
    clReleaseProgram(built);
    clReleaseProgram(broken);
    clReleaseProgram(uncompiled);
    clReleaseProgram(exe2);
    clReleaseProgram(lib);
    clReleaseProgram(exe);
    clReleaseProgram(main_obj);
    clReleaseProgram(helper_obj);
    clReleaseProgram(header);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
