/* A C client of the ICD through the ocl-icd loader: runs kernels, asks the sub-group queries,
 * and passes bad input, expecting the error codes the OpenCL 3.0 API specification gives for
 * each entry point. Prints one line per failed check and a summary; exits 1 on any failure. */
#define _POSIX_C_SOURCE 199309L /* nanosleep */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "expect.h"

/* cl_khr_subgroups' entry point, looked up by name (the header's own typedef is deprecated). */
typedef cl_int (*sub_group_info_khr)(cl_kernel, cl_device_id, cl_kernel_sub_group_info, size_t, const void *,
                                     size_t, void *, size_t *);

static char notified[1024];
static void CL_CALLBACK notify(const char *errinfo, const void *info, size_t cb, void *user) {
    (void)info;
    (void)cb;
    (void)user;
    strncpy(notified, errinfo, sizeof notified - 1);
}

static volatile cl_int callback_status = 1;
static void CL_CALLBACK on_event(cl_event ev, cl_int status, void *user) {
    (void)ev;
    (void)user;
    callback_status = status;
}

/* OpenCL C 2.0: the enqueued local size (a partial first group's get_local_size is smaller). */
static const char *sizes_source =
    "kernel void sizes(global uint* out) {\n"
    "    if (get_global_id(0) == get_global_offset(0) && get_global_id(1) == get_global_offset(1) &&\n"
    "        get_global_id(2) == get_global_offset(2))\n"
    "        for (uint d = 0; d < 3; d++) out[d] = (uint)get_enqueued_local_size(d);\n"
    "}\n";

static const char *source =
    "__attribute__((intel_reqd_sub_group_size(8)))\n"
    "kernel void sg(global uint* out, uint k) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = k * (uint)i + get_sub_group_size() * 1000000u + get_sub_group_local_id() * 10000u;\n"
    "}\n"
    "__attribute__((reqd_work_group_size(16, 1, 1)))\n"
    "kernel void fixed(global int* out) { out[get_global_id(0)] = (int)get_local_size(0); }\n"
    "kernel void wild(global int* out, ulong nowhere) {\n"
    "    ((global int*)nowhere)[get_global_id(0)] = out[0];\n"
    "}\n";

int main(void) {
    cl_int err;
    cl_platform_id platform;
    cl_device_id device;
    EXPECT("clGetPlatformIDs", clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
    EXPECT("clGetDeviceIDs", clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL), CL_SUCCESS);
    EXPECT("no CPU device", clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL), CL_DEVICE_NOT_FOUND);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL);

    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    EXPECT("clCreateContext", err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueueWithProperties(
        ctx, device, (cl_queue_properties[]){CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0}, &err);
    EXPECT("profiling queue", err, CL_SUCCESS);

    /* On-device queues are not supported: CL_INVALID_QUEUE_PROPERTIES. */
    cl_command_queue odq = clCreateCommandQueueWithProperties(
        ctx, device,
        (cl_queue_properties[]){CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE, 0},
        &err);
    EXPECT("on-device queue refused", err, CL_INVALID_QUEUE_PROPERTIES);
    EXPECT("no queue returned", odq == NULL, 1);

    /* cl_khr_priority_hints, cl_khr_throttle_hints: the three levels of each are accepted and
     * listed back; another value is CL_INVALID_VALUE; with an on-device queue,
     * CL_INVALID_QUEUE_PROPERTIES. A low-priority queue runs kernels like any other (below). */
    const cl_queue_properties levels[] = {CL_QUEUE_PRIORITY_HIGH_KHR, CL_QUEUE_PRIORITY_MED_KHR,
                                          CL_QUEUE_PRIORITY_LOW_KHR};
    for (int l = 0; l < 3; l++) {
        const cl_queue_properties hinted[] = {CL_QUEUE_PRIORITY_KHR, levels[l], CL_QUEUE_THROTTLE_KHR,
                                              (cl_queue_properties)(1 << l), 0};
        cl_command_queue hq = clCreateCommandQueueWithProperties(ctx, device, hinted, &err);
        EXPECT("hinted queue", err, CL_SUCCESS);
        cl_queue_properties back[8] = {0};
        size_t back_size = 0;
        EXPECT("hinted queue's properties",
               clGetCommandQueueInfo(hq, CL_QUEUE_PROPERTIES_ARRAY, sizeof back, back, &back_size), CL_SUCCESS);
        EXPECT("the hints listed back", back_size == sizeof hinted && memcmp(back, hinted, sizeof hinted) == 0, 1);
        clReleaseCommandQueue(hq);
    }
    clCreateCommandQueueWithProperties(ctx, device, (cl_queue_properties[]){CL_QUEUE_PRIORITY_KHR, 3, 0}, &err);
    EXPECT("two priorities at once", err, CL_INVALID_VALUE);
    clCreateCommandQueueWithProperties(ctx, device, (cl_queue_properties[]){CL_QUEUE_PRIORITY_KHR, 0, 0}, &err);
    EXPECT("no priority", err, CL_INVALID_VALUE);
    clCreateCommandQueueWithProperties(ctx, device, (cl_queue_properties[]){CL_QUEUE_THROTTLE_KHR, 8, 0}, &err);
    EXPECT("unknown throttle", err, CL_INVALID_VALUE);
    clCreateCommandQueueWithProperties(
        ctx, device,
        (cl_queue_properties[]){CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE,
                                CL_QUEUE_PRIORITY_KHR, CL_QUEUE_PRIORITY_LOW_KHR, 0},
        &err);
    EXPECT("priority of an on-device queue", err, CL_INVALID_QUEUE_PROPERTIES);
    cl_command_queue low_q = clCreateCommandQueueWithProperties(
        ctx, device, (cl_queue_properties[]){CL_QUEUE_PRIORITY_KHR, CL_QUEUE_PRIORITY_LOW_KHR, 0}, &err);
    EXPECT("low-priority queue", err, CL_SUCCESS);

    /* cl_khr_create_command_queue: the same queue through the extension's entry point. */
    typedef cl_command_queue (*create_queue_khr)(cl_context, cl_device_id, const cl_queue_properties_khr *,
                                                 cl_int *);
    create_queue_khr cq = (create_queue_khr)clGetExtensionFunctionAddressForPlatform(
        platform, "clCreateCommandQueueWithPropertiesKHR");
    EXPECT("cl_khr_create_command_queue entry point", cq != NULL, 1);
    if (cq) {
        cl_command_queue kq = cq(ctx, device, (cl_queue_properties_khr[]){CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0},
                                 &err);
        EXPECT("KHR profiling queue", err, CL_SUCCESS);
        cl_command_queue_properties qp = 0;
        clGetCommandQueueInfo(kq, CL_QUEUE_PROPERTIES, sizeof qp, &qp, NULL);
        EXPECT("KHR queue properties", qp, CL_QUEUE_PROFILING_ENABLE);
        EXPECT("KHR queue released", clReleaseCommandQueue(kq), CL_SUCCESS);
        cq(ctx, device, (cl_queue_properties_khr[]){0x7fff, 1, 0}, &err);
        EXPECT("KHR unknown property", err, CL_INVALID_VALUE);
    }

    /* Device queries: a context is not a device; unknown parameter; short buffer. */
    cl_uint u;
    EXPECT("context as device", clGetDeviceInfo((cl_device_id)ctx, CL_DEVICE_VENDOR_ID, 4, &u, NULL),
           CL_INVALID_DEVICE);
    EXPECT("unknown device query", clGetDeviceInfo(device, 0x7fff, 4, &u, NULL), CL_INVALID_VALUE);
    char name[2];
    EXPECT("short buffer", clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL), CL_INVALID_VALUE);
    size_t sg_sizes[8], sg_bytes = 0;
    EXPECT("sub-group sizes",
           clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sg_sizes, sg_sizes, &sg_bytes),
           CL_SUCCESS);
    EXPECT("three sizes", sg_bytes, 3 * sizeof(size_t));
    EXPECT("8", sg_sizes[0], 8);
    EXPECT("16", sg_sizes[1], 16);
    EXPECT("32", sg_sizes[2], 32);

    /* cl_khr_device_uuid: 16-byte UUIDs, the device's from Intel's vendor id and the PCI device
     * id (NEO's layout); no LUID on Linux; a buffer one byte short is CL_INVALID_VALUE. */
    cl_uchar uuid[CL_UUID_SIZE_KHR];
    size_t got = 0;
    cl_uint pci_id = 0;
    EXPECT("device id (Intel)", clGetDeviceInfo(device, CL_DEVICE_ID_INTEL, sizeof pci_id, &pci_id, &got), CL_SUCCESS);
    EXPECT("device id size", got, sizeof(cl_uint));
    EXPECT("device UUID", clGetDeviceInfo(device, CL_DEVICE_UUID_KHR, sizeof uuid, uuid, &got), CL_SUCCESS);
    EXPECT("device UUID size", got, CL_UUID_SIZE_KHR);
    EXPECT("UUID: vendor id", uuid[0] | uuid[1] << 8, 0x8086);
    EXPECT("UUID: PCI device id", uuid[4] | uuid[5] << 8, pci_id);
    EXPECT("UUID one byte short", clGetDeviceInfo(device, CL_DEVICE_UUID_KHR, sizeof uuid - 1, uuid, NULL),
           CL_INVALID_VALUE);
    EXPECT("driver UUID", clGetDeviceInfo(device, CL_DRIVER_UUID_KHR, sizeof uuid, uuid, &got), CL_SUCCESS);
    EXPECT("driver UUID size", got, CL_UUID_SIZE_KHR);
    cl_bool luid_valid = CL_TRUE;
    EXPECT("LUID validity", clGetDeviceInfo(device, CL_DEVICE_LUID_VALID_KHR, sizeof luid_valid, &luid_valid, &got),
           CL_SUCCESS);
    EXPECT("LUID validity size", got, sizeof(cl_bool));
    EXPECT("no LUID on Linux", luid_valid, CL_FALSE);
    cl_uchar luid[CL_LUID_SIZE_KHR];
    EXPECT("LUID", clGetDeviceInfo(device, CL_DEVICE_LUID_KHR, sizeof luid, luid, &got), CL_SUCCESS);
    EXPECT("LUID size", got, CL_LUID_SIZE_KHR);
    EXPECT("node mask", clGetDeviceInfo(device, CL_DEVICE_NODE_MASK_KHR, sizeof u, &u, &got), CL_SUCCESS);
    EXPECT("node mask size", got, sizeof(cl_uint));

    /* cl_khr_pci_bus_info: the struct, with a device number below 32 and a function below 8. */
    cl_device_pci_bus_info_khr bus;
    EXPECT("PCI bus info", clGetDeviceInfo(device, CL_DEVICE_PCI_BUS_INFO_KHR, sizeof bus, &bus, &got), CL_SUCCESS);
    EXPECT("PCI bus info size", got, sizeof bus);
    EXPECT("PCI device number", bus.pci_device < 32 && bus.pci_function < 8, 1);
    EXPECT("PCI bus info one byte short",
           clGetDeviceInfo(device, CL_DEVICE_PCI_BUS_INFO_KHR, sizeof bus - 1, &bus, NULL), CL_INVALID_VALUE);

    /* cl_intel_device_attribute_query: cl_uint (cl_version) answers whose topology holds the
     * device's EUs, and a bitfield of the two defined flags. */
    cl_uint slices = 0, per_slice = 0, eus_per = 0, threads = 0, cus = 0, ip = 0;
    const cl_device_info attrs[] = {CL_DEVICE_NUM_SLICES_INTEL, CL_DEVICE_NUM_SUB_SLICES_PER_SLICE_INTEL,
                                    CL_DEVICE_NUM_EUS_PER_SUB_SLICE_INTEL, CL_DEVICE_NUM_THREADS_PER_EU_INTEL,
                                    CL_DEVICE_IP_VERSION_INTEL};
    cl_uint *vals[] = {&slices, &per_slice, &eus_per, &threads, &ip};
    for (int a = 0; a < 5; a++) {
        EXPECT("attribute query", clGetDeviceInfo(device, attrs[a], sizeof(cl_uint), vals[a], &got), CL_SUCCESS);
        EXPECT("attribute size", got, sizeof(cl_uint));
        EXPECT("attribute one byte short", clGetDeviceInfo(device, attrs[a], 3, vals[a], NULL), CL_INVALID_VALUE);
    }
    clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    EXPECT("the topology holds every EU", slices * per_slice * eus_per >= cus && cus > 0, 1);
    EXPECT("threads per EU", threads == 7 || threads == 8, 1);
    cl_device_feature_capabilities_intel caps = ~0ull;
    EXPECT("feature capabilities", clGetDeviceInfo(device, CL_DEVICE_FEATURE_CAPABILITIES_INTEL, sizeof caps, &caps, &got),
           CL_SUCCESS);
    EXPECT("feature capabilities size", got, sizeof caps);
    EXPECT("only defined flags", caps & ~(cl_device_feature_capabilities_intel)(CL_DEVICE_FEATURE_FLAG_DP4A_INTEL |
                                                                              CL_DEVICE_FEATURE_FLAG_DPAS_INTEL),
           0);

    /* Buffers: bad sizes, flags and host pointers. */
    clCreateBuffer(ctx, CL_MEM_READ_WRITE, 0, NULL, &err);
    EXPECT("zero-size buffer", err, CL_INVALID_BUFFER_SIZE);
    clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, NULL, &err);
    EXPECT("read-only and write-only", err, CL_INVALID_VALUE);
    clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 64, NULL, &err);
    EXPECT("USE_HOST_PTR without a pointer", err, CL_INVALID_HOST_PTR);
    int host[4] = {0};
    clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, host, &err);
    EXPECT("pointer without USE/COPY_HOST_PTR", err, CL_INVALID_HOST_PTR);

    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * 4, NULL, &err);
    EXPECT("buffer", err, CL_SUCCESS);
    cl_buffer_region odd = {4, 16};
    clCreateSubBuffer(out, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &odd, &err);
    EXPECT("misaligned sub-buffer", err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
    cl_buffer_region region = {128, 128};
    cl_mem sub = clCreateSubBuffer(out, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    EXPECT("sub-buffer", err, CL_SUCCESS);
    unsigned big[128];
    EXPECT("read past the end", clEnqueueReadBuffer(q, out, CL_TRUE, 8, 64 * 4, big, 0, NULL, NULL),
           CL_INVALID_VALUE);

    /* Programs. */
    cl_program bad = clCreateProgramWithSource(ctx, 1, (const char *[]){"kernel void k() { nope(); }"}, NULL, &err);
    EXPECT("bad program created", err, CL_SUCCESS);
    EXPECT("build failure", clBuildProgram(bad, 1, &device, "", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char log[4096] = "";
    clGetProgramBuildInfo(bad, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    EXPECT("log names the error", strstr(log, "nope") != NULL && strstr(log, "error") != NULL, 1);
    cl_build_status status;
    clGetProgramBuildInfo(bad, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
    EXPECT("build status", status, CL_BUILD_ERROR);
    clCreateKernel(bad, "k", &err);
    EXPECT("kernel of a failed build", err, CL_INVALID_PROGRAM_EXECUTABLE);
    clReleaseProgram(bad);

    const unsigned char garbage[] = "not a device binary";
    const unsigned char *gp = garbage;
    size_t glen = sizeof garbage;
    cl_int bstatus = 0;
    clCreateProgramWithBinary(ctx, 1, &device, &glen, &gp, &bstatus, &err);
    EXPECT("garbage binary", err, CL_INVALID_BINARY);
    EXPECT("garbage binary status", bstatus, CL_INVALID_BINARY);
    clCreateProgramWithIL(ctx, garbage, sizeof garbage, &err);
    EXPECT("garbage IL", err, CL_INVALID_VALUE);

    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    EXPECT("clBuildProgram", clBuildProgram(prog, 0, NULL, "-cl-std=CL2.0", NULL, NULL), CL_SUCCESS);
    clCreateKernel(prog, "missing", &err);
    EXPECT("unknown kernel name", err, CL_INVALID_KERNEL_NAME);
    cl_kernel k = clCreateKernel(prog, "sg", &err);
    EXPECT("clCreateKernel", err, CL_SUCCESS);

    /* Sub-group queries: cl_intel_required_subgroup_size, OpenCL 2.1 and cl_khr_subgroups. */
    size_t v = 0, local = 64, count = 3, lsz[3] = {0};
    EXPECT("compile sub-group size query",
           clGetKernelSubGroupInfo(k, device, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, NULL, sizeof v, &v, NULL),
           CL_SUCCESS);
    EXPECT("compile sub-group size", v, 8);
    clGetKernelSubGroupInfo(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof local, &local, sizeof v, &v,
                            NULL);
    EXPECT("sub-groups in 64 items", v, 8);
    clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count, &count, sizeof lsz,
                            lsz, NULL);
    EXPECT("local size for 3 sub-groups", lsz[0], 24);
    sub_group_info_khr khr = (sub_group_info_khr)clGetExtensionFunctionAddressForPlatform(
        platform, "clGetKernelSubGroupInfoKHR");
    EXPECT("cl_khr_subgroups entry point", khr != NULL, 1);
    if (khr) {
        khr(k, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR, sizeof local, &local, sizeof v, &v, NULL);
        EXPECT("max sub-group size (KHR)", v, 8);
    }
    clGetKernelWorkGroupInfo(k, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof v, &v, NULL);
    EXPECT("preferred multiple", v, 8);

    /* Arguments. */
    cl_uint kval = 3;
    EXPECT("arg index", clSetKernelArg(k, 9, sizeof kval, &kval), CL_INVALID_ARG_INDEX);
    EXPECT("arg size", clSetKernelArg(k, 1, 2, &kval), CL_INVALID_ARG_SIZE);
    size_t global = 64;
    EXPECT("args not set", clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL),
           CL_INVALID_KERNEL_ARGS);
    EXPECT("set buffer", clSetKernelArg(k, 0, sizeof sub, &sub), CL_SUCCESS);
    EXPECT("set value", clSetKernelArg(k, 1, sizeof kval, &kval), CL_SUCCESS);
    EXPECT("work_dim 0", clEnqueueNDRangeKernel(q, k, 0, NULL, &global, NULL, 0, NULL, NULL),
           CL_INVALID_WORK_DIMENSION);
    size_t huge_local = 2048;
    EXPECT("local too large", clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &huge_local, 0, NULL, NULL),
           CL_INVALID_WORK_ITEM_SIZE);

    /* Run on the sub-buffer (items 32..63 of `out`), NULL local size, with an event. */
    cl_event ev;
    global = 32;
    EXPECT("NDRange", clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, &ev), CL_SUCCESS);
    EXPECT("finish", clFinish(q), CL_SUCCESS);
    cl_int st;
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    EXPECT("event complete", st, CL_COMPLETE);
    cl_ulong t0 = 0, t1 = 0;
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    EXPECT("start <= end", t0 <= t1 && t1 != 0, 1);
    cl_command_type type;
    clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
    EXPECT("event type", type, CL_COMMAND_NDRANGE_KERNEL);
    EXPECT("wait", clWaitForEvents(1, &ev), CL_SUCCESS);
    unsigned res[64];
    EXPECT("read", clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof res, res, 1, &ev, NULL), CL_SUCCESS);
    clReleaseEvent(ev);
    int ok = 1;
    for (unsigned i = 0; i < 64; i++) {
        unsigned want = i < 32 ? 0 : 3 * (i - 32) + 8 * 1000000u + ((i - 32) % 8) * 10000u;
        if (res[i] != want) {
            printf("FAIL sub-group kernel item %u: got %u, want %u\n", i, res[i], want);
            ok = 0;
            break;
        }
    }
    EXPECT("sub-group kernel results", ok, 1);

    /* The kernel's work-group limit is one that runs correctly; beyond it is refused. */
    size_t wg_max = 0;
    clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg_max, &wg_max, NULL);
    EXPECT("work-group limit is a SIMD multiple", wg_max >= 8 && wg_max % 8 == 0 && wg_max <= 1024, 1);
    cl_mem wide = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * 2048, NULL, &err);
    clSetKernelArg(k, 0, sizeof wide, &wide);
    global = 2 * wg_max;
    EXPECT("largest work-group", clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &wg_max, 0, NULL, NULL), CL_SUCCESS);
    static unsigned wres[2048];
    clEnqueueReadBuffer(q, wide, CL_TRUE, 0, 4 * global, wres, 0, NULL, NULL);
    ok = 1;
    for (unsigned i = 0; i < global; i++)
        ok &= wres[i] == 3 * i + 8 * 1000000u + (i % 8) * 10000u;
    EXPECT("largest work-group results", ok, 1);
    {
        /* Twice the kernel's limit in total, each dimension within CL_DEVICE_MAX_WORK_ITEM_SIZES
           (which may equal the limit: then a 1D local size of twice it is also
           CL_INVALID_WORK_ITEM_SIZE, and the spec orders neither error first). */
        size_t over_global[2] = {2 * wg_max, 2}, over[2] = {wg_max, 2};
        EXPECT("beyond the limit",
               clEnqueueNDRangeKernel(q, k, 2, NULL, over_global, over, 0, NULL, NULL),
               CL_INVALID_WORK_GROUP_SIZE);
    }
    clReleaseMemObject(wide);

    /* reqd_work_group_size: NULL local picks it; another size is refused. */
    cl_kernel fixed = clCreateKernel(prog, "fixed", &err);
    clSetKernelArg(fixed, 0, sizeof out, &out);
    size_t l8 = 8;
    global = 64;
    EXPECT("wrong local for reqd_work_group_size",
           clEnqueueNDRangeKernel(q, fixed, 1, NULL, &global, &l8, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    EXPECT("NULL local with reqd_work_group_size",
           clEnqueueNDRangeKernel(q, fixed, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    int fres[64];
    clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof fres, fres, 0, NULL, NULL);
    EXPECT("local size 16", fres[0] == 16 && fres[63] == 16, 1);
    size_t cwg[3];
    clGetKernelWorkGroupInfo(fixed, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwg, cwg, NULL);
    EXPECT("compile work-group size", cwg[0] * 100 + cwg[1] * 10 + cwg[2], 1611);

    /* cl_khr_suggested_local_work_size: the suggestion is the local size an enqueue with a NULL
     * local size runs (the kernel reports its enqueued local size), within the kernel's
     * maximum; the reqd_work_group_size of a kernel that has one; the spec's errors. */
    clGetKernelSuggestedLocalWorkSizeKHR_fn suggest = (clGetKernelSuggestedLocalWorkSizeKHR_fn)
        clGetExtensionFunctionAddressForPlatform(platform, "clGetKernelSuggestedLocalWorkSizeKHR");
    EXPECT("cl_khr_suggested_local_work_size entry point", suggest != NULL, 1);
    if (suggest) {
        cl_program sprog = clCreateProgramWithSource(ctx, 1, &sizes_source, NULL, &err);
        EXPECT("sizes program", clBuildProgram(sprog, 0, NULL, "-cl-std=CL2.0", NULL, NULL), CL_SUCCESS);
        cl_kernel sizes = clCreateKernel(sprog, "sizes", &err);
        EXPECT("sizes kernel", err, CL_SUCCESS);
        size_t one[3] = {1000, 1, 1}, sl[3] = {0, 0, 0};
        EXPECT("arguments not set", suggest(q, sizes, 1, NULL, one, sl), CL_INVALID_KERNEL_ARGS);
        clSetKernelArg(sizes, 0, sizeof out, &out);
        size_t kwg = 0;
        clGetKernelWorkGroupInfo(sizes, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg, NULL);
        const size_t ranges[][4] = {
            {1, 1000, 1, 1}, {1, 64, 1, 1}, {1, 7, 1, 1}, {1, 4096, 1, 1}, {1, 97, 1, 1},
            {2, 100, 37, 1}, {2, 16, 16, 1}, {3, 8, 6, 5}, {3, 3, 5, 7},
        };
        for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
            cl_uint dims = (cl_uint)ranges[r][0];
            const size_t *g = &ranges[r][1];
            const size_t offset[3] = {5, 2, 1};
            size_t want[3] = {1, 1, 1};
            /* Every other range on the low-priority queue. */
            cl_command_queue rq = r % 2 ? low_q : q;
            EXPECT("suggestion", suggest(rq, sizes, dims, offset, g, want), CL_SUCCESS);
            EXPECT("within the kernel's work-group size", want[0] * want[1] * want[2] <= kwg, 1);
            cl_uint seen[3] = {0, 0, 0};
            clEnqueueWriteBuffer(rq, out, CL_TRUE, 0, sizeof seen, seen, 0, NULL, NULL);
            EXPECT("enqueue with a NULL local size",
                   clEnqueueNDRangeKernel(rq, sizes, dims, offset, g, NULL, 0, NULL, NULL), CL_SUCCESS);
            clEnqueueReadBuffer(rq, out, CL_TRUE, 0, sizeof seen, seen, 0, NULL, NULL);
            for (cl_uint d = 0; d < 3; d++)
                EXPECT("suggested = the local size run", seen[d], d < dims ? want[d] : 1);
        }
        size_t fwant[3] = {0, 0, 0};
        size_t g64 = 64;
        EXPECT("suggestion for reqd_work_group_size", suggest(q, fixed, 1, NULL, &g64, fwant), CL_SUCCESS);
        EXPECT("the required size", fwant[0], 16);
        EXPECT("NULL result", suggest(q, sizes, 1, NULL, one, NULL), CL_INVALID_VALUE);
        EXPECT("work_dim 0", suggest(q, sizes, 0, NULL, one, sl), CL_INVALID_WORK_DIMENSION);
        EXPECT("work_dim 4", suggest(q, sizes, 4, NULL, one, sl), CL_INVALID_WORK_DIMENSION);
        EXPECT("NULL global size", suggest(q, sizes, 1, NULL, NULL, sl), CL_INVALID_GLOBAL_WORK_SIZE);
        size_t zero[3] = {16, 0, 1};
        EXPECT("zero global size", suggest(q, sizes, 2, NULL, zero, sl), CL_INVALID_GLOBAL_WORK_SIZE);
        EXPECT("a context as the queue", suggest((cl_command_queue)ctx, sizes, 1, NULL, one, sl),
               CL_INVALID_COMMAND_QUEUE);
        EXPECT("a queue as the kernel", suggest(q, (cl_kernel)q, 1, NULL, one, sl), CL_INVALID_KERNEL);
        clReleaseKernel(sizes);
        clReleaseProgram(sprog);
    }

    /* A store to an address no buffer backs. Under xe (EXPECT_PAGE_FAULTS=1) the GPU faults: the
     * command's event fails, the context's callback hears of it, and the context stays usable.
     * Under i915 the PPGTT sends unbound addresses to its scratch page, so the kernel completes
     * and nobody is told (Linux gen8_init_scratch); the context stays usable there too. */
    const char *faults_env = getenv("EXPECT_PAGE_FAULTS");
    int page_faults = faults_env != NULL && strcmp(faults_env, "1") == 0;
    cl_context fctx = clCreateContext(NULL, 1, &device, notify, NULL, &err);
    cl_command_queue fq = clCreateCommandQueueWithProperties(fctx, device, NULL, &err);
    cl_program fprog = clCreateProgramWithSource(fctx, 1, &source, NULL, &err);
    EXPECT("fault program", clBuildProgram(fprog, 0, NULL, "-cl-std=CL2.0", NULL, NULL), CL_SUCCESS);
    cl_kernel wild = clCreateKernel(fprog, "wild", &err);
    cl_mem fbuf = clCreateBuffer(fctx, CL_MEM_READ_WRITE, 64 * 4, NULL, &err);
    cl_ulong nowhere = 0x7f0000000000ull; /* no buffer is mapped up there */
    clSetKernelArg(wild, 0, sizeof fbuf, &fbuf);
    clSetKernelArg(wild, 1, sizeof nowhere, &nowhere);
    cl_event fev;
    global = 16;
    EXPECT("wild kernel enqueued", clEnqueueNDRangeKernel(fq, wild, 1, NULL, &global, NULL, 0, NULL, &fev),
           CL_SUCCESS);
    if (page_faults) {
        EXPECT("wait for the faulted event", clWaitForEvents(1, &fev), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        clGetEventInfo(fev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
        EXPECT("faulted event status is negative", st < 0, 1);
        EXPECT("dependant refused", clEnqueueReadBuffer(fq, fbuf, CL_TRUE, 0, 4, res, 1, &fev, NULL),
               CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        EXPECT("callback names the fault",
               strstr(notified, "page fault") != NULL && strstr(notified, "wild") != NULL, 1);
    } else {
        EXPECT("wild store lands on the scratch page", clWaitForEvents(1, &fev), CL_SUCCESS);
        clGetEventInfo(fev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
        EXPECT("its event completes", st, CL_COMPLETE);
        EXPECT("dependant runs", clEnqueueReadBuffer(fq, fbuf, CL_TRUE, 0, 4, res, 1, &fev, NULL), CL_SUCCESS);
        EXPECT("nobody is told", notified[0], 0);
    }
    cl_kernel again = clCreateKernel(fprog, "fixed", &err);
    clSetKernelArg(again, 0, sizeof fbuf, &fbuf);
    global = 64;
    EXPECT("context works after the fault",
           clEnqueueNDRangeKernel(fq, again, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    clEnqueueReadBuffer(fq, fbuf, CL_TRUE, 0, sizeof fres, fres, 0, NULL, NULL);
    EXPECT("results after the fault", fres[5], 16);
    clReleaseEvent(fev);
    clReleaseKernel(again);
    clReleaseKernel(wild);
    clReleaseMemObject(fbuf);
    clReleaseProgram(fprog);
    clReleaseCommandQueue(fq);
    clReleaseContext(fctx);

    /* What the platform does not have answers with the specification's error, not a crash. */
    cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc = {CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0, 0, 0, 0, 0, {NULL}};
    /* Images are supported: a 2D image is made, and the 37 formats of OpenCL 3.0's minimum
       list are offered. An image over the application's memory reads back that memory. */
    cl_mem image = clCreateImage(ctx, CL_MEM_READ_ONLY, &fmt, &desc, NULL, &err);
    EXPECT("2D image", err, CL_SUCCESS);
    clReleaseMemObject(image);
    unsigned char texels[64], seen[64];
    for (int i = 0; i < 64; i++)
        texels[i] = (unsigned char)(i * 7 + 3);
    cl_mem host_image =
        clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, &fmt, &desc, texels, &err);
    EXPECT("CL_MEM_USE_HOST_PTR image", err, CL_SUCCESS);
    size_t origin[3] = {0, 0, 0}, extent[3] = {4, 4, 1};
    EXPECT("read the host-pointer image",
           clEnqueueReadImage(q, host_image, CL_TRUE, origin, extent, 0, 0, seen, 0, NULL, NULL),
           CL_SUCCESS);
    EXPECT("the host-pointer image holds the application's texels", memcmp(seen, texels, 64), 0);
    clReleaseMemObject(host_image);
    cl_uint nformats = 0;
    EXPECT("image formats query",
           clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &nformats), CL_SUCCESS);
    EXPECT("the minimum image formats", nformats >= 37, 1);
    EXPECT("no SVM", clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0) == NULL, 1);

    /* An event callback on a complete event runs with CL_COMPLETE. */
    cl_event marker;
    EXPECT("marker", clEnqueueMarkerWithWaitList(q, 0, NULL, &marker), CL_SUCCESS);
    EXPECT("marker done", clWaitForEvents(1, &marker), CL_SUCCESS);
    EXPECT("event callback", clSetEventCallback(marker, CL_COMPLETE, on_event, NULL), CL_SUCCESS);
    /* It runs on the runtime's callback thread: give it time. */
    for (int i = 0; i < 20000 && callback_status == 1; i++)
        nanosleep(&(struct timespec){0, 1000000L}, NULL);
    EXPECT("callback ran with CL_COMPLETE", callback_status, CL_COMPLETE);
    clReleaseEvent(marker);

    /* Reference counts. */
    cl_uint refs;
    clRetainKernel(k);
    clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    EXPECT("retained kernel", refs, 2);
    clReleaseKernel(k);
    clReleaseKernel(k);
    clReleaseKernel(fixed);
    /* A program with no kernels left can be rebuilt. */
    EXPECT("rebuild", clBuildProgram(prog, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    clReleaseProgram(prog);
    clReleaseMemObject(sub);
    clReleaseMemObject(out);
    clReleaseCommandQueue(low_q);
    clReleaseCommandQueue(q);
    clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    EXPECT("context refs", refs, 1);
    clReleaseContext(ctx);

    if (failures)
        printf("fault report: %s\n", notified);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
