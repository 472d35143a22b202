//! The device entry points: finding devices, their queries ([`crate::core::device_info`]),
//! retain and release.

use opencl_sys::*;

use crate::api::entry::{entry, info_entry};
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
        if !devices.is_null() {
            for (k, d) in found.iter().take(num_entries as usize).enumerate() {
                // SAFETY: the application's array of num_entries ids.
                unsafe { *devices.add(k) = *d };
            }
        }
        if !num_devices.is_null() {
            // SAFETY: the application's pointer.
            unsafe { *num_devices = found.len() as cl_uint };
        }
        CL_SUCCESS
    }
}

info_entry! {
    fn clGetDeviceInfo(device: cl_device_id, param_name: cl_device_info)
        [param_value_size, param_value, param_value_size_ret]
    {
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
