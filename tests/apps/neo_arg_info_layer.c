/* An OpenCL layer (ocl-icd's OPENCL_LAYERS) for running Intel's NEO 22.43 under OpenVINO on the
 * simulated dg2, around two bugs of that NEO release; every other call passes through.
 *
 * - clGetKernelArgInfo is answered CL_KERNEL_ARG_INFO_NOT_AVAILABLE: NEO 22.43 dereferences
 *   missing argument metadata there for programs made from oneDNN's generated binaries (no
 *   kernel_misc_info) and crashes the process; the OpenCL spec makes the information optional
 *   for programs from binaries, and the GPU plugin copes with its absence (this project's ICD
 *   answers the same).
 * - cl_intel_unified_shared_memory is left out of the device's extensions, so the plugin and
 *   oneDNN pass buffers (clSetKernelArg) instead of USM pointers: NEO 22.43's
 *   clSetKernelArgMemPointerINTEL (Kernel::setArgSvmAlloc) patches the pointer into the
 *   kernel's cross-thread data at the argument's stateless offset without checking that it has
 *   one, and its patchWithRequiredSize writes 4 bytes for a pointer size of 0: for an argument
 *   the kernel never addresses statelessly (offset 0xffff, size 0) that is a 4-byte write 64 KiB
 *   past the cross-thread data, into whatever the heap holds there (NEO fixed it in 23.17,
 *   NEO-7760). It corrupted the heap of about one run in ten of the `ci` slice.
 *
 * Built and used by scripts/openvino-suite for `neo:` devices. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_layer.h>
#include <stdlib.h>
#include <string.h>

static struct _cl_icd_dispatch table;
/* NEO's own entry point for clGetDeviceInfo. */
static cl_api_clGetDeviceInfo next_device_info;

static const char hidden[] = "cl_intel_unified_shared_memory";

/* Removes the space-separated token `hidden` from `s` in place. */
static void drop_token(char *s) {
    size_t n = strlen(hidden);
    for (char *p = s; (p = strstr(p, hidden)) != NULL; p++) {
        int starts = p == s || p[-1] == ' ';
        int ends = p[n] == ' ' || p[n] == '\0';
        if (!starts || !ends)
            continue;
        char *rest = p[n] == ' ' ? p + n + 1 : p + n;
        memmove(p, rest, strlen(rest) + 1);
        return;
    }
}

/* CL_DEVICE_EXTENSIONS and CL_DEVICE_EXTENSIONS_WITH_VERSION without `hidden`. */
static cl_int CL_API_CALL device_info(cl_device_id device, cl_device_info name, size_t size,
                                      void *value, size_t *size_ret) {
    if (name != CL_DEVICE_EXTENSIONS && name != CL_DEVICE_EXTENSIONS_WITH_VERSION)
        return next_device_info(device, name, size, value, size_ret);
    size_t full = 0;
    cl_int err = next_device_info(device, name, 0, NULL, &full);
    if (err != CL_SUCCESS)
        return err;
    char *buf = malloc(full ? full : 1);
    if (!buf)
        return CL_OUT_OF_HOST_MEMORY;
    err = next_device_info(device, name, full, buf, NULL);
    size_t len = full;
    if (err == CL_SUCCESS && name == CL_DEVICE_EXTENSIONS) {
        drop_token(buf);
        len = strlen(buf) + 1;
    } else if (err == CL_SUCCESS) {
        cl_name_version *v = (cl_name_version *)buf;
        size_t count = full / sizeof *v, kept = 0;
        for (size_t i = 0; i < count; i++)
            if (strcmp(v[i].name, hidden) != 0)
                v[kept++] = v[i];
        len = kept * sizeof *v;
    }
    if (err == CL_SUCCESS) {
        if (value && size < len)
            err = CL_INVALID_VALUE;
        else if (value)
            memcpy(value, buf, len);
        if (err == CL_SUCCESS && size_ret)
            *size_ret = len;
    }
    free(buf);
    return err;
}

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
    next_device_info = target->clGetDeviceInfo;
    table.clGetDeviceInfo = device_info;
    *num_entries_out = (cl_uint)(bytes / sizeof(void *));
    *layer = &table;
    return CL_SUCCESS;
}
