//! Contexts: their devices, the property list they were created with, the notify callback
//! (which hears of GPU faults and, when asked with CL_CONTEXT_SHOW_DIAGNOSTICS_INTEL, of the
//! driver's hints: cl_intel_driver_diagnostics) and the destructor callbacks.

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
    /// The hint levels asked for with CL_CONTEXT_SHOW_DIAGNOSTICS_INTEL (0: none).
    diagnostics: cl_diagnostic_verbose_level_intel,
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

/// A driver hint (cl_intel_driver_diagnostics) of `level` (one of the GOOD, BAD, NEUTRAL bits)
/// for the context's notify callback, when the context asked for that level. As NEO does, the
/// callback's private_info points at the level (`cb` its size).
pub fn hint(c: &Context, level: cl_diagnostic_verbose_level_intel, what: &str) {
    if c.diagnostics & level == 0 {
        return;
    }
    if let Some((f, data)) = c.notify {
        let text = std::ffi::CString::new(what.replace('\0', " ")).unwrap_or_default();
        let private = &level as *const cl_diagnostic_verbose_level_intel as *const c_void;
        // SAFETY: the application's callback with its own user data; the text and the level
        // outlive the call.
        unsafe {
            f(
                text.as_ptr(),
                private,
                std::mem::size_of_val(&level),
                data as *mut c_void,
            )
        };
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
    let diagnostics = diagnostics_level(&props);
    Handle::create(Context {
        devices,
        properties: props,
        notify,
        diagnostics,
        destructors: Default::default(),
        usm: Default::default(),
    })
    .0
}

/// The CL_CONTEXT_SHOW_DIAGNOSTICS_INTEL value in a context property list (0 when absent).
pub fn diagnostics_level(props: &[cl_context_properties]) -> cl_diagnostic_verbose_level_intel {
    props
        .chunks_exact(2)
        .find(|kv| kv[0] == CL_CONTEXT_SHOW_DIAGNOSTICS_INTEL as cl_context_properties)
        .map_or(0, |kv| kv[1] as cl_diagnostic_verbose_level_intel)
}
