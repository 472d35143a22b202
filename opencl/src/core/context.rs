//! Contexts: their devices, the property list they were created with, the notify callback
//! (which hears of GPU faults) and the destructor callbacks.

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::*;

use crate::core::device::Device;
use crate::core::handle::{ClObject, Handle, Kind};

/// clCreateContext's pfn_notify.
pub type Notify = unsafe extern "C" fn(*const std::ffi::c_char, *const c_void, usize, *mut c_void);

/// clSetContextDestructorCallback's pfn_notify.
pub type Destructor = crate::core::destructors::Destructor<cl_context>;

pub struct Context {
    pub devices: Vec<Arc<Handle<Device>>>,
    pub properties: Vec<cl_context_properties>,
    notify: Option<(Notify, usize)>,
    /// clSetContextDestructorCallback's callbacks.
    pub destructors: crate::core::destructors::Destructors<cl_context>,
    /// Its unified shared memory allocations (cl_intel_unified_shared_memory).
    pub usm: crate::core::usm_alloc::Table,
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
        self.destructors.run(raw as cl_context);
    }
}

impl Context {
    pub fn has(&self, d: &Arc<Handle<Device>>) -> bool {
        self.devices.iter().any(|x| Arc::ptr_eq(x, d))
    }
}

pub fn create(
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
        destructors: Default::default(),
        usm: Default::default(),
    })
    .0
}
