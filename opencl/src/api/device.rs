//! The device entry points: finding devices, their queries ([`crate::core::device_info`]),
//! retain and release.

use opencl_sys::*;

use crate::api::entry::entry;
use crate::api::info;
use crate::api::platform;
use crate::core::device::Device;
use crate::core::handle::Handle;
use crate::core::platform::by_type;

entry! {
    fn clGetDeviceIDs(
        platform: cl_platform_id,
        device_type: cl_device_type,
        num_entries: cl_uint,
        devices: *mut cl_device_id,
        num_devices: *mut cl_uint,
    ) -> cl_int {
        if let Err(e) = platform::check(platform) {
            return e;
        }
        if (num_entries == 0 && !devices.is_null()) || (devices.is_null() && num_devices.is_null())
        {
            return CL_INVALID_VALUE;
        }
        let found = match by_type(device_type) {
            Ok(f) => f,
            Err(e) => return e,
        };
        // SAFETY: the application's array of num_entries ids and its count pointer.
        unsafe { info::list(&found, num_entries, devices, num_devices) };
        CL_SUCCESS
    }
}

entry! {
    fn clGetDeviceInfo(device: cl_device_id, param_name: cl_device_info) -> query {
        Handle::<Device>::get(device).and_then(|d| d.obj.info(param_name))
    }
}

entry! {
    /// Root devices are not reference counted (the spec: retain/release succeed and do nothing).
    fn clRetainDevice(device: cl_device_id) -> cl_int {
        Handle::<Device>::get(device).map_or_else(|e| e, |_| CL_SUCCESS)
    }
}

entry! {
    fn clReleaseDevice(device: cl_device_id) -> cl_int {
        Handle::<Device>::get(device).map_or_else(|e| e, |_| CL_SUCCESS)
    }
}
