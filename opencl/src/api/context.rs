//! The context entry points: creation from devices or a device type, queries, destructor
//! callbacks ([`crate::core::context`]).

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::*;

use crate::api::entry::{destructor_callback, entry, retain_release};
use crate::api::info::{self, set_err};
use crate::api::platform;
use crate::core::context::{create, diagnostics_level, Context, Notify};
use crate::core::device::Device;
use crate::core::handle::Handle;
use crate::core::info::Info;

/// Parses a zero-terminated property list: CL_CONTEXT_PLATFORM and
/// CL_CONTEXT_SHOW_DIAGNOSTICS_INTEL (any bits: hints are delivered for the ones it names), each
/// at most once.
///
/// # Safety
/// `props` NULL or zero-terminated.
unsafe fn properties(
    props: *const cl_context_properties,
) -> Result<Vec<cl_context_properties>, cl_int> {
    let mut out = Vec::new();
    if props.is_null() {
        return Ok(out);
    }
    let mut k = 0;
    loop {
        // SAFETY: the list is zero-terminated (the caller's contract).
        let key = unsafe { *props.add(k) };
        if key == 0 {
            out.push(0);
            return Ok(out);
        }
        // SAFETY: a key is followed by its value.
        let value = unsafe { *props.add(k + 1) };
        match key {
            CL_CONTEXT_PLATFORM if !out.chunks(2).any(|c| c[0] == key) => {
                platform::check(value as cl_platform_id)?;
                if value == 0 {
                    return Err(CL_INVALID_PLATFORM);
                }
            }
            CL_CONTEXT_PLATFORM => return Err(CL_INVALID_PROPERTY),
            SHOW_DIAGNOSTICS if !out.chunks(2).any(|c| c[0] == key) => {}
            _ => return Err(CL_INVALID_PROPERTY),
        }
        out.extend([key, value]);
        k += 2;
    }
}

const SHOW_DIAGNOSTICS: cl_context_properties =
    CL_CONTEXT_SHOW_DIAGNOSTICS_INTEL as cl_context_properties;

/// cl_intel_driver_diagnostics: "CL_INVALID_PROPERTY if property CL_CONTEXT_SHOW_DIAGNOSTICS_INTEL
/// is set to a nonzero value and pfn_notify is NULL".
fn diagnostics_need_notify(
    props: &[cl_context_properties],
    pfn_notify: Option<Notify>,
) -> Result<(), cl_int> {
    if diagnostics_level(props) != 0 && pfn_notify.is_none() {
        return Err(CL_INVALID_PROPERTY);
    }
    Ok(())
}

entry! {
    fn clCreateContext(
        props: *const cl_context_properties,
        num_devices: cl_uint,
        devices: *const cl_device_id,
        pfn_notify: Option<Notify>,
        user_data: *mut c_void,
    ) -> cl_context, errcode_ret {
        if devices.is_null() || num_devices == 0 {
            return Err(CL_INVALID_VALUE);
        }
        info::notify_with_data(pfn_notify, user_data)?;
        // SAFETY: the caller's property list and device array.
        let props = unsafe { properties(props) }?;
        diagnostics_need_notify(&props, pfn_notify)?;
        // SAFETY: the caller's device array.
        let ids = unsafe { info::slice(devices, num_devices as usize) }?;
        let mut list: Vec<Arc<Handle<Device>>> = Vec::new();
        for id in ids {
            let d = Handle::<Device>::get(*id)?;
            if !list.iter().any(|x| Arc::ptr_eq(x, &d)) {
                list.push(d);
            }
        }
        Ok(create(props, list, pfn_notify, user_data))
    }
}

entry! {
    fn clCreateContextFromType(
        props: *const cl_context_properties,
        device_type: cl_device_type,
        pfn_notify: Option<Notify>,
        user_data: *mut c_void,
    ) -> cl_context, errcode_ret {
        info::notify_with_data(pfn_notify, user_data)?;
        // SAFETY: the caller's property list.
        let props = unsafe { properties(props) }?;
        diagnostics_need_notify(&props, pfn_notify)?;
        let ids = crate::core::platform::by_type(device_type)?;
        let list = ids
            .into_iter()
            .map(Handle::<Device>::get)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(create(props, list, pfn_notify, user_data))
    }
}

/// Returns a created handle or NULL with its error.
///
/// # Safety
/// `errcode_ret` NULL or a valid cl_int pointer.
pub unsafe fn finish(r: Result<*mut c_void, cl_int>, errcode_ret: *mut cl_int) -> *mut c_void {
    match r {
        Ok(h) => {
            // SAFETY: the application's errcode pointer.
            unsafe { set_err(errcode_ret, CL_SUCCESS) };
            h
        }
        Err(e) => {
            // SAFETY: as above.
            unsafe { set_err(errcode_ret, e) };
            std::ptr::null_mut()
        }
    }
}

retain_release!(clRetainContext, clReleaseContext, c: cl_context => Context);

destructor_callback!(clSetContextDestructorCallback, context: cl_context => Context);

entry! {
    fn clGetContextInfo(context: cl_context, param_name: cl_context_info) -> query {
        Handle::<Context>::get(context).and_then(|c| {
            Ok(match param_name {
                CL_CONTEXT_REFERENCE_COUNT => Info::Uint(c.ref_count()),
                CL_CONTEXT_NUM_DEVICES => Info::Uint(c.obj.devices.len() as u32),
                CL_CONTEXT_DEVICES => Info::Ptrs(c.obj.devices.iter().map(|d| d.raw()).collect()),
                CL_CONTEXT_PROPERTIES => {
                    Info::Ptrs(c.obj.properties.iter().map(|p| *p as *mut c_void).collect())
                }
                _ => return Err(crate::core::reason::unknown_query("context", param_name)),
            })
        })
    }
}
