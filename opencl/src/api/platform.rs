//! The platform entry points: the one platform's handle and its queries
//! ([`crate::core::platform`]).

use std::ffi::c_void;

use opencl_sys::*;

use crate::api::entry::entry;
use crate::api::info;
use crate::core::platform::{get, platform_info};

/// The platform handle `raw` names (NULL means ours: there is one).
pub fn check(raw: cl_platform_id) -> Result<(), cl_int> {
    if raw.is_null() || raw == get().raw() {
        Ok(())
    } else {
        Err(CL_INVALID_PLATFORM)
    }
}

entry! {
    fn clGetPlatformIDs(
        num_entries: cl_uint,
        platforms: *mut cl_platform_id,
        num_platforms: *mut cl_uint,
    ) -> cl_int {
        if (num_entries == 0 && !platforms.is_null())
            || (platforms.is_null() && num_platforms.is_null())
        {
            return CL_INVALID_VALUE;
        }
        let p = get();
        if !platforms.is_null() {
            // SAFETY: the application's array of num_entries >= 1 platform ids.
            unsafe { *platforms = p.raw() };
        }
        if !num_platforms.is_null() {
            // SAFETY: the application's pointer.
            unsafe { *num_platforms = 1 };
        }
        CL_SUCCESS
    }
}

entry! {
    fn clGetPlatformInfo(
        platform: cl_platform_id,
        param_name: cl_platform_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        if let Err(e) = check(platform) {
            return e;
        }
        // SAFETY: the application's buffers as the entry point defines them.
        unsafe {
            info::answer(
                platform_info(param_name),
                param_value_size,
                param_value,
                param_value_size_ret,
            )
        }
    }
}
