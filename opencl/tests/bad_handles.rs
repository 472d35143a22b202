//! Handles the driver never made (or already destroyed) get the entry point's error, not a
//! crash: called directly, the way a loader that forwards any pointer would.

use std::ffi::c_void;
use std::ptr::null_mut;

use intel_gpu_opencl::api::{
    accelerator, context, device, event, kernel, memory, platform, program, queue, timer,
};
use opencl_sys::*;

fn bogus() -> *mut c_void {
    // A readable address that is no CL object.
    static JUNK: [u64; 8] = [0x55; 8];
    JUNK.as_ptr() as *mut c_void
}

#[test]
fn foreign_pointers_are_refused_with_the_right_error() {
    let mut v = 0u32;
    let p = (&mut v as *mut u32).cast();
    // SAFETY: every out-pointer is valid; the handles are deliberately wrong.
    unsafe {
        assert_eq!(
            device::clGetDeviceInfo(bogus(), CL_DEVICE_VENDOR_ID, 4, p, null_mut()),
            CL_INVALID_DEVICE
        );
        assert_eq!(
            platform::clGetPlatformInfo(bogus(), CL_PLATFORM_NAME, 4, p, null_mut()),
            CL_INVALID_PLATFORM
        );
        assert_eq!(context::clRetainContext(bogus()), CL_INVALID_CONTEXT);
        assert_eq!(queue::clFinish(bogus()), CL_INVALID_COMMAND_QUEUE);
        assert_eq!(memory::clReleaseMemObject(bogus()), CL_INVALID_MEM_OBJECT);
        assert_eq!(program::clRetainProgram(bogus()), CL_INVALID_PROGRAM);
        assert_eq!(kernel::clSetKernelArg(bogus(), 0, 4, p), CL_INVALID_KERNEL);
        assert_eq!(event::clReleaseEvent(bogus()), CL_INVALID_EVENT);
        assert_eq!(
            accelerator::clRetainAcceleratorINTEL(bogus()),
            CL_INVALID_ACCELERATOR_INTEL
        );
        assert_eq!(
            accelerator::clReleaseAcceleratorINTEL(bogus()),
            CL_INVALID_ACCELERATOR_INTEL
        );
        assert_eq!(
            accelerator::clGetAcceleratorInfoINTEL(
                bogus(),
                CL_ACCELERATOR_TYPE_INTEL,
                4,
                p,
                null_mut()
            ),
            CL_INVALID_ACCELERATOR_INTEL
        );
        let (mut d, mut h) = (0u64, 0u64);
        assert_eq!(
            timer::clGetDeviceAndHostTimer(bogus(), &mut d, &mut h),
            CL_INVALID_DEVICE
        );
        assert_eq!(timer::clGetHostTimer(bogus(), &mut h), CL_INVALID_DEVICE);
    }
}

#[test]
fn a_released_handle_is_no_longer_accepted() {
    let mut plat = null_mut();
    let mut dev = null_mut();
    let mut err = 0;
    // SAFETY: valid out-pointers throughout.
    unsafe {
        assert_eq!(
            platform::clGetPlatformIDs(1, &mut plat, null_mut()),
            CL_SUCCESS
        );
        assert_eq!(
            device::clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &mut dev, null_mut()),
            CL_SUCCESS
        );
        let ctx = context::clCreateContext(std::ptr::null(), 1, &dev, None, null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        let buf = memory::clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        // A context handle where a device is expected.
        assert_eq!(
            queue::clCreateCommandQueue(ctx, ctx, 0, &mut err),
            null_mut()
        );
        assert_eq!(err, CL_INVALID_DEVICE);
        assert_eq!(memory::clReleaseMemObject(buf), CL_SUCCESS);
        assert_eq!(memory::clReleaseMemObject(buf), CL_INVALID_MEM_OBJECT);
        assert_eq!(context::clReleaseContext(ctx), CL_SUCCESS);
        assert_eq!(context::clReleaseContext(ctx), CL_INVALID_CONTEXT);
    }
}
