/* An OpenCL layer (ocl-icd's OPENCL_LAYERS) for running Intel's NEO 22.43 under OpenVINO on the
 * simulated dg2: it answers clGetKernelArgInfo with CL_KERNEL_ARG_INFO_NOT_AVAILABLE and passes
 * every other call through. NEO 22.43 dereferences missing argument metadata in
 * clGetKernelArgInfo for programs made from oneDNN's generated binaries (no kernel_misc_info)
 * and crashes the process; the OpenCL spec makes the information optional for programs from
 * binaries, and the GPU plugin copes with its absence (this project's ICD answers the same).
 * Built and used by scripts/openvino-suite for `neo:` devices. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_layer.h>
#include <string.h>

static struct _cl_icd_dispatch table;

static cl_int CL_API_CALL no_arg_info(cl_kernel kernel, cl_uint index, cl_kernel_arg_info name,
                                      size_t size, void *value, size_t *size_ret) {
    (void)kernel; (void)index; (void)name; (void)size; (void)value; (void)size_ret;
    return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
}

CL_API_ENTRY cl_int CL_API_CALL clGetLayerInfo(cl_layer_info name, size_t size, void *value,
                                               size_t *size_ret) {
    cl_layer_api_version v = CL_LAYER_API_VERSION_100;
    if (name != CL_LAYER_API_VERSION) return CL_INVALID_VALUE;
    if (size_ret) *size_ret = sizeof v;
    if (value) {
        if (size < sizeof v) return CL_INVALID_VALUE;
        memcpy(value, &v, sizeof v);
    }
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clInitLayer(cl_uint num_entries,
                                            const struct _cl_icd_dispatch *target,
                                            cl_uint *num_entries_out,
                                            const struct _cl_icd_dispatch **layer) {
    size_t bytes = num_entries * sizeof(void *);
    if (bytes > sizeof table) bytes = sizeof table;
    memcpy(&table, target, bytes);
    table.clGetKernelArgInfo = no_arg_info;
    *num_entries_out = (cl_uint)(bytes / sizeof(void *));
    *layer = &table;
    return CL_SUCCESS;
}
