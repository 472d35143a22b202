//! cl_khr_icd: the one dispatch table every object points at, and the extension-function
//! lookup. Every core entry is filled (what is not provided answers with the specification's
//! error, [`crate::api::absent`]); only the GL, EGL, Direct3D and DX9 sharing entries, of
//! extensions no device lists, stay NULL. The loader's first calls (clIcdGetPlatformIDsKHR,
//! clGetExtensionFunctionAddress) hand the table to the objects (`install`).

use std::ffi::{c_char, c_void, CStr};
use std::sync::LazyLock;

use opencl_sys::cl_icd::cl_icd_dispatch;
use opencl_sys::*;

use crate::api::entry::entry;
use crate::api::{
    absent, accelerator, context, device, event, image, kernel, memory, platform, program, queue,
    rect, sampler, timer, usm,
};
use crate::core::handle;

static DISPATCH: LazyLock<cl_icd_dispatch> = LazyLock::new(|| {
    // SAFETY: every field is an Option of a function pointer, for which all-zero is None.
    let mut d: cl_icd_dispatch = unsafe { std::mem::zeroed() };
    d.clGetPlatformIDs = Some(platform::clGetPlatformIDs);
    d.clGetPlatformInfo = Some(platform::clGetPlatformInfo);
    d.clGetDeviceIDs = Some(device::clGetDeviceIDs);
    d.clGetDeviceInfo = Some(device::clGetDeviceInfo);
    d.clRetainDevice = Some(device::clRetainDevice);
    d.clReleaseDevice = Some(device::clReleaseDevice);
    d.clCreateContext = Some(context::clCreateContext);
    d.clCreateContextFromType = Some(context::clCreateContextFromType);
    d.clRetainContext = Some(context::clRetainContext);
    d.clReleaseContext = Some(context::clReleaseContext);
    d.clGetContextInfo = Some(context::clGetContextInfo);
    d.clCreateCommandQueue = Some(queue::clCreateCommandQueue);
    d.clCreateCommandQueueWithProperties = Some(queue::clCreateCommandQueueWithProperties);
    d.clRetainCommandQueue = Some(queue::clRetainCommandQueue);
    d.clReleaseCommandQueue = Some(queue::clReleaseCommandQueue);
    d.clGetCommandQueueInfo = Some(queue::clGetCommandQueueInfo);
    d.clFlush = Some(queue::clFlush);
    d.clFinish = Some(queue::clFinish);
    d.clWaitForEvents = Some(event::clWaitForEvents);
    d.clGetEventInfo = Some(event::clGetEventInfo);
    d.clRetainEvent = Some(event::clRetainEvent);
    d.clReleaseEvent = Some(event::clReleaseEvent);
    d.clGetEventProfilingInfo = Some(event::clGetEventProfilingInfo);
    d.clEnqueueMarkerWithWaitList = Some(queue::clEnqueueMarkerWithWaitList);
    d.clEnqueueBarrierWithWaitList = Some(queue::clEnqueueBarrierWithWaitList);
    d.clCreateBuffer = Some(memory::clCreateBuffer);
    d.clCreateBufferWithProperties = Some(memory::clCreateBufferWithProperties);
    d.clCreateSubBuffer = Some(memory::clCreateSubBuffer);
    d.clRetainMemObject = Some(memory::clRetainMemObject);
    d.clReleaseMemObject = Some(memory::clReleaseMemObject);
    d.clGetMemObjectInfo = Some(memory::clGetMemObjectInfo);
    d.clSetMemObjectDestructorCallback = Some(memory::clSetMemObjectDestructorCallback);
    d.clEnqueueReadBuffer = Some(memory::clEnqueueReadBuffer);
    d.clEnqueueWriteBuffer = Some(memory::clEnqueueWriteBuffer);
    d.clEnqueueCopyBuffer = Some(memory::clEnqueueCopyBuffer);
    d.clEnqueueFillBuffer = Some(memory::clEnqueueFillBuffer);
    d.clEnqueueMapBuffer = Some(memory::clEnqueueMapBuffer);
    d.clEnqueueUnmapMemObject = Some(memory::clEnqueueUnmapMemObject);
    d.clEnqueueMigrateMemObjects = Some(memory::clEnqueueMigrateMemObjects);
    d.clCreateProgramWithSource = Some(program::clCreateProgramWithSource);
    d.clCreateProgramWithBinary = Some(program::clCreateProgramWithBinary);
    d.clCreateProgramWithIL = Some(program::clCreateProgramWithIL);
    d.clRetainProgram = Some(program::clRetainProgram);
    d.clReleaseProgram = Some(program::clReleaseProgram);
    d.clBuildProgram = Some(program::clBuildProgram);
    d.clGetProgramInfo = Some(program::clGetProgramInfo);
    d.clGetProgramBuildInfo = Some(program::clGetProgramBuildInfo);
    d.clCreateKernel = Some(kernel::clCreateKernel);
    d.clCreateKernelsInProgram = Some(kernel::clCreateKernelsInProgram);
    d.clCloneKernel = Some(kernel::clCloneKernel);
    d.clRetainKernel = Some(kernel::clRetainKernel);
    d.clReleaseKernel = Some(kernel::clReleaseKernel);
    d.clSetKernelArg = Some(kernel::clSetKernelArg);
    d.clGetKernelInfo = Some(kernel::clGetKernelInfo);
    d.clGetKernelArgInfo = Some(kernel::clGetKernelArgInfo);
    d.clGetKernelWorkGroupInfo = Some(kernel::clGetKernelWorkGroupInfo);
    d.clGetKernelSubGroupInfo = Some(kernel::clGetKernelSubGroupInfo);
    d.clGetKernelSubGroupInfoKHR = Some(kernel::clGetKernelSubGroupInfo);
    d.clEnqueueNDRangeKernel = Some(kernel::clEnqueueNDRangeKernel);
    d.clEnqueueMarker = Some(queue::clEnqueueMarker);
    d.clEnqueueBarrier = Some(queue::clEnqueueBarrier);
    d.clEnqueueWaitForEvents = Some(queue::clEnqueueWaitForEvents);
    d.clSetEventCallback = Some(event::clSetEventCallback);
    d.clEnqueueTask = Some(kernel::clEnqueueTask);
    d.clUnloadCompiler = Some(program::clUnloadCompiler);
    d.clUnloadPlatformCompiler = Some(program::clUnloadPlatformCompiler);
    d.clGetSupportedImageFormats = Some(image::clGetSupportedImageFormats);
    d.clCreateImage = Some(image::clCreateImage);
    d.clCreateImage2D = Some(image::clCreateImage2D);
    d.clCreateImage3D = Some(image::clCreateImage3D);
    d.clCreateImageWithProperties = Some(image::clCreateImageWithProperties);
    d.clGetImageInfo = Some(image::clGetImageInfo);
    d.clEnqueueReadImage = Some(image::clEnqueueReadImage);
    d.clEnqueueWriteImage = Some(image::clEnqueueWriteImage);
    d.clEnqueueCopyImage = Some(image::clEnqueueCopyImage);
    d.clEnqueueCopyImageToBuffer = Some(image::clEnqueueCopyImageToBuffer);
    d.clEnqueueCopyBufferToImage = Some(image::clEnqueueCopyBufferToImage);
    d.clEnqueueMapImage = Some(image::clEnqueueMapImage);
    d.clEnqueueFillImage = Some(image::clEnqueueFillImage);
    d.clCreateSampler = Some(sampler::clCreateSampler);
    d.clCreateSamplerWithProperties = Some(sampler::clCreateSamplerWithProperties);
    d.clRetainSampler = Some(sampler::clRetainSampler);
    d.clReleaseSampler = Some(sampler::clReleaseSampler);
    d.clGetSamplerInfo = Some(sampler::clGetSamplerInfo);
    d.clEnqueueSVMFree = Some(absent::clEnqueueSVMFree);
    d.clEnqueueSVMMemcpy = Some(absent::clEnqueueSVMMemcpy);
    d.clEnqueueSVMMemFill = Some(absent::clEnqueueSVMMemFill);
    d.clEnqueueSVMMap = Some(absent::clEnqueueSVMMap);
    d.clEnqueueSVMUnmap = Some(absent::clEnqueueSVMUnmap);
    d.clEnqueueSVMMigrateMem = Some(absent::clEnqueueSVMMigrateMem);
    d.clSetKernelArgSVMPointer = Some(absent::clSetKernelArgSVMPointer);
    d.clSetKernelExecInfo = Some(usm::clSetKernelExecInfo);
    d.clCreatePipe = Some(absent::clCreatePipe);
    d.clGetPipeInfo = Some(absent::clGetPipeInfo);
    d.clEnqueueNativeKernel = Some(absent::clEnqueueNativeKernel);
    d.clSetDefaultDeviceCommandQueue = Some(absent::clSetDefaultDeviceCommandQueue);
    d.clGetDeviceAndHostTimer = Some(timer::clGetDeviceAndHostTimer);
    d.clGetHostTimer = Some(timer::clGetHostTimer);
    d.clCreateSubDevices = Some(absent::clCreateSubDevices);
    d.clCreateProgramWithBuiltInKernels = Some(absent::clCreateProgramWithBuiltInKernels);
    d.clCompileProgram = Some(program::clCompileProgram);
    d.clLinkProgram = Some(program::clLinkProgram);
    d.clCreateUserEvent = Some(event::clCreateUserEvent);
    d.clSetUserEventStatus = Some(event::clSetUserEventStatus);
    d.clEnqueueReadBufferRect = Some(rect::clEnqueueReadBufferRect);
    d.clEnqueueWriteBufferRect = Some(rect::clEnqueueWriteBufferRect);
    d.clEnqueueCopyBufferRect = Some(rect::clEnqueueCopyBufferRect);
    d.clSetProgramSpecializationConstant = Some(program::clSetProgramSpecializationConstant);
    d.clSetProgramReleaseCallback = Some(absent::clSetProgramReleaseCallback);
    d.clSetContextDestructorCallback = Some(context::clSetContextDestructorCallback);
    d.clSetCommandQueueProperty = Some(absent::clSetCommandQueueProperty);
    d.clSVMAlloc = Some(absent::clSVMAlloc);
    d.clSVMFree = Some(absent::clSVMFree);
    d.clGetExtensionFunctionAddress = Some(clGetExtensionFunctionAddress);
    d.clGetExtensionFunctionAddressForPlatform = Some(clGetExtensionFunctionAddressForPlatform);
    d
});

/// Gives the objects the dispatch table they start with (the loader reads it from each
/// handle to reach the entry points).
fn install() {
    handle::set_dispatch(&DISPATCH);
}

/// Extension functions by name (`func_name` NULL or NUL-terminated); NULL for none.
///
/// # Safety
/// `func_name` NULL or a NUL-terminated string.
unsafe fn extension_function(func_name: *const c_char) -> *mut c_void {
    if func_name.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: the caller's NUL-terminated name.
    match unsafe { CStr::from_ptr(func_name) }.to_bytes() {
        b"clIcdGetPlatformIDsKHR" => clIcdGetPlatformIDsKHR as *mut c_void,
        b"clGetKernelSubGroupInfoKHR" => kernel::clGetKernelSubGroupInfo as *mut c_void,
        b"clCreateProgramWithILKHR" => program::clCreateProgramWithIL as *mut c_void,
        // cl_khr_create_command_queue: the OpenCL 2.0 function under its extension name.
        b"clCreateCommandQueueWithPropertiesKHR" => {
            queue::clCreateCommandQueueWithProperties as *mut c_void
        }
        b"clGetKernelSuggestedLocalWorkSizeKHR" => {
            kernel::clGetKernelSuggestedLocalWorkSizeKHR as *mut c_void
        }
        b"clCreateBufferWithPropertiesINTEL" => {
            memory::clCreateBufferWithPropertiesINTEL as *mut c_void
        }
        // cl_intel_accelerator.
        b"clCreateAcceleratorINTEL" => accelerator::clCreateAcceleratorINTEL as *mut c_void,
        b"clGetAcceleratorInfoINTEL" => accelerator::clGetAcceleratorInfoINTEL as *mut c_void,
        b"clRetainAcceleratorINTEL" => accelerator::clRetainAcceleratorINTEL as *mut c_void,
        b"clReleaseAcceleratorINTEL" => accelerator::clReleaseAcceleratorINTEL as *mut c_void,
        // cl_intel_unified_shared_memory.
        b"clHostMemAllocINTEL" => usm::clHostMemAllocINTEL as *mut c_void,
        b"clDeviceMemAllocINTEL" => usm::clDeviceMemAllocINTEL as *mut c_void,
        b"clSharedMemAllocINTEL" => usm::clSharedMemAllocINTEL as *mut c_void,
        b"clMemFreeINTEL" => usm::clMemFreeINTEL as *mut c_void,
        b"clMemBlockingFreeINTEL" => usm::clMemBlockingFreeINTEL as *mut c_void,
        b"clGetMemAllocInfoINTEL" => usm::clGetMemAllocInfoINTEL as *mut c_void,
        b"clSetKernelArgMemPointerINTEL" => usm::clSetKernelArgMemPointerINTEL as *mut c_void,
        b"clEnqueueMemsetINTEL" => usm::clEnqueueMemsetINTEL as *mut c_void,
        b"clEnqueueMemFillINTEL" => usm::clEnqueueMemFillINTEL as *mut c_void,
        b"clEnqueueMemcpyINTEL" => usm::clEnqueueMemcpyINTEL as *mut c_void,
        b"clEnqueueMigrateMemINTEL" => usm::clEnqueueMigrateMemINTEL as *mut c_void,
        b"clEnqueueMemAdviseINTEL" => usm::clEnqueueMemAdviseINTEL as *mut c_void,
        _ => std::ptr::null_mut(),
    }
}

entry! {
    /// # Safety
    /// `func_name` NULL or a NUL-terminated string.
    fn clGetExtensionFunctionAddress(func_name: *const c_char) -> *mut c_void {
        install();
        // SAFETY: the application's name (or NULL).
        unsafe { extension_function(func_name) }
    }
}

entry! {
    /// # Safety
    /// As for [`clGetExtensionFunctionAddress`].
    fn clGetExtensionFunctionAddressForPlatform(
        platform: cl_platform_id,
        func_name: *const c_char,
    ) -> *mut c_void {
        install();
        if platform::check(platform).is_err() || platform.is_null() {
            return std::ptr::null_mut();
        }
        // SAFETY: the application's name (or NULL).
        unsafe { extension_function(func_name) }
    }
}

entry! {
    /// # Safety
    /// As for clGetPlatformIDs.
    fn clIcdGetPlatformIDsKHR(
        num_entries: cl_uint,
        platforms: *mut cl_platform_id,
        num_platforms: *mut cl_uint,
    ) -> cl_int {
        install();
        // SAFETY: forwarded.
        unsafe { platform::clGetPlatformIDs(num_entries, platforms, num_platforms) }
    }
}
