//! Contexts.

use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use opencl_sys::*;

use crate::api::entry::entry;
use crate::device::Device;
use crate::handle::{ClObject, Handle, Kind};
use crate::info::{self, set_err, Info};
use crate::platform;

/// clCreateContext's pfn_notify.
pub type Notify = unsafe extern "C" fn(*const std::ffi::c_char, *const c_void, usize, *mut c_void);

/// clSetContextDestructorCallback's pfn_notify.
pub type Destructor = unsafe extern "C" fn(cl_context, *mut c_void);

pub struct Context {
    pub devices: Vec<Arc<Handle<Device>>>,
    pub properties: Vec<cl_context_properties>,
    notify: Option<(Notify, usize)>,
    /// Destructor callbacks with their user data (an address), in registration order.
    destructors: Mutex<Vec<(Destructor, usize)>>,
}

/// Tells the context's notify callback, if any, about an error (a GPU fault or hang).
pub fn report(c: &Context, what: &str) {
    if let Some((f, data)) = c.notify {
        let text = std::ffi::CString::new(what.replace('\0', " ")).unwrap_or_default();
        // SAFETY: the application's callback with its own user data; the text outlives the call.
        unsafe { f(text.as_ptr(), std::ptr::null(), 0, data as *mut c_void) };
    }
}

impl ClObject for Context {
    const KIND: Kind = Kind::Context;
    const INVALID: cl_int = CL_INVALID_CONTEXT;
    /// The context is destroyed once the application released it and every object made in
    /// it (each holds the context) is gone: its destructor callbacks run then, most recently
    /// registered first (OpenCL 3.0, clSetContextDestructorCallback).
    fn destroyed(&self, raw: *mut c_void) {
        let callbacks =
            std::mem::take(&mut *self.destructors.lock().unwrap_or_else(|e| e.into_inner()));
        for (f, data) in callbacks.into_iter().rev() {
            // SAFETY: the application's callback with its own user data.
            unsafe { f(raw as cl_context, data as *mut c_void) };
        }
    }
}

impl Context {
    pub fn has(&self, d: &Arc<Handle<Device>>) -> bool {
        self.devices.iter().any(|x| Arc::ptr_eq(x, d))
    }
}

/// Parses a zero-terminated property list (only CL_CONTEXT_PLATFORM is known).
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
            _ => return Err(CL_INVALID_PROPERTY),
        }
        out.extend([key, value]);
        k += 2;
    }
}

fn create(
    props: Vec<cl_context_properties>,
    devices: Vec<Arc<Handle<Device>>>,
    notify: Option<Notify>,
    user_data: *mut c_void,
) -> cl_context {
    let notify = notify.map(|f| (f, user_data as usize));
    Handle::create(Context {
        devices,
        properties: props,
        notify,
        destructors: Mutex::default(),
    })
    .0
}

entry! {
    fn clCreateContext(
        props: *const cl_context_properties,
        num_devices: cl_uint,
        devices: *const cl_device_id,
        pfn_notify: Option<Notify>,
        user_data: *mut c_void,
    ) -> cl_context, errcode_ret {
        if devices.is_null() || num_devices == 0 || (pfn_notify.is_none() && !user_data.is_null()) {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: the caller's property list and device array.
        let props = unsafe { properties(props) }?;
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
        if pfn_notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: the caller's property list.
        let props = unsafe { properties(props) }?;
        let ids = crate::device::by_type(device_type)?;
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

entry! {
    fn clRetainContext(c: cl_context) -> cl_int {
        Handle::<Context>::retain(c)
    }
}

entry! {
    fn clReleaseContext(c: cl_context) -> cl_int {
        Handle::<Context>::release(c)
    }
}

entry! {
    fn clSetContextDestructorCallback(
        context: cl_context,
        pfn_notify: Option<Destructor>,
        user_data: *mut c_void,
    ) -> cl_int {
        let c = match Handle::<Context>::get(context) {
            Ok(c) => c,
            Err(e) => return e,
        };
        let Some(f) = pfn_notify else {
            return CL_INVALID_VALUE;
        };
        c.obj
            .destructors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((f, user_data as usize));
        CL_SUCCESS
    }
}

entry! {
    fn clGetContextInfo(
        context: cl_context,
        param_name: cl_context_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        let r = Handle::<Context>::get(context).and_then(|c| {
            Ok(match param_name {
                CL_CONTEXT_REFERENCE_COUNT => Info::Uint(c.ref_count()),
                CL_CONTEXT_NUM_DEVICES => Info::Uint(c.obj.devices.len() as u32),
                CL_CONTEXT_DEVICES => Info::Ptrs(c.obj.devices.iter().map(|d| d.raw()).collect()),
                CL_CONTEXT_PROPERTIES => {
                    Info::Ptrs(c.obj.properties.iter().map(|p| *p as *mut c_void).collect())
                }
                _ => return Err(CL_INVALID_VALUE),
            })
        });
        // SAFETY: the application's buffers.
        unsafe { info::answer(r, param_value_size, param_value, param_value_size_ret) }
    }
}
