//! Test support for tests that call the ICD's entry points in process (no loader).

use std::ptr::{null, null_mut};

use intel_gpu_opencl::api::{context, device, platform};
use opencl_sys::*;

/// The platform's first device and a context on it.
#[allow(dead_code)]
pub fn context() -> (cl_device_id, cl_context) {
    let (mut plat, mut dev, mut err) = (null_mut(), null_mut(), 0);
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(
            platform::clGetPlatformIDs(1, &mut plat, null_mut()),
            CL_SUCCESS
        );
        assert_eq!(
            device::clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &mut dev, null_mut()),
            CL_SUCCESS
        );
        let ctx = context::clCreateContext(null(), 1, &dev, None, null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        (dev, ctx)
    }
}

/// Every device of the platform and a context on all of them.
#[allow(dead_code)]
pub fn context_all() -> (Vec<cl_device_id>, cl_context) {
    let (mut plat, mut n, mut err) = (null_mut(), 0, 0);
    // SAFETY: valid out-pointers; `devs` has room for the `n` devices reported.
    unsafe {
        assert_eq!(
            platform::clGetPlatformIDs(1, &mut plat, null_mut()),
            CL_SUCCESS
        );
        assert_eq!(
            device::clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 0, null_mut(), &mut n),
            CL_SUCCESS
        );
        let mut devs = vec![null_mut(); n as usize];
        assert_eq!(
            device::clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, n, devs.as_mut_ptr(), null_mut()),
            CL_SUCCESS
        );
        let ctx = context::clCreateContext(null(), n, devs.as_ptr(), None, null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        (devs, ctx)
    }
}
