//! Device and host timer synchronisation (OpenCL 2.1 core, optional in 3.0): the host timer is
//! CLOCK_MONOTONIC in nanoseconds, and the device timer is the GPU's timestamp counter placed
//! on that clock by the device's one GPU/host correlation ([`crate::core::device::Device::clock`]),
//! the same conversion every queue's profiling START and END use. So a kernel's profiling
//! times fall between device timestamps read before and after it, and the host and device
//! timers advance together (apart from the counter's drift since the correlation).

use opencl_sys::*;

use crate::api::entry::entry;
use crate::core::device::Device;
use crate::core::handle::Handle;
use crate::core::timer::now_ns;

entry! {
    fn clGetDeviceAndHostTimer(
        device: cl_device_id,
        device_timestamp: *mut cl_ulong,
        host_timestamp: *mut cl_ulong,
    ) -> cl_int {
        let d = match Handle::<Device>::get(device) {
            Ok(d) => d,
            Err(e) => return e,
        };
        if device_timestamp.is_null() || host_timestamp.is_null() {
            return CL_INVALID_VALUE;
        }
        // A fresh reading: the counter and the host time it was read at.
        let (Some(base), Ok(now)) = (d.obj.clock(), d.obj.umd.gpu_clock()) else {
            return CL_OUT_OF_RESOURCES;
        };
        let Some(dev_ns) = base.host_ns_of(now.ticks) else {
            return CL_OUT_OF_RESOURCES;
        };
        // SAFETY: the application's pointers, checked non-null above.
        unsafe {
            *device_timestamp = dev_ns.max(0) as cl_ulong;
            *host_timestamp = now.host_ns.max(0) as cl_ulong;
        }
        CL_SUCCESS
    }
}

entry! {
    fn clGetHostTimer(device: cl_device_id, host_timestamp: *mut cl_ulong) -> cl_int {
        if let Err(e) = Handle::<Device>::get(device) {
            return e;
        }
        if host_timestamp.is_null() {
            return CL_INVALID_VALUE;
        }
        // SAFETY: the application's pointer, checked non-null above.
        unsafe { *host_timestamp = now_ns() };
        CL_SUCCESS
    }
}
