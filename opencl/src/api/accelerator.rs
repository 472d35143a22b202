//! The cl_intel_accelerator entry points ([`crate::core::accelerator`]), reached through
//! clGetExtensionFunctionAddress(ForPlatform).

use std::ffi::c_void;

use opencl_sys::*;

use crate::api::entry::{entry, retain_release};
use crate::core::accelerator::{self, Accelerator};
use crate::core::handle::Handle;
use crate::core::info::Info;

entry! {
    fn clCreateAcceleratorINTEL(
        context: cl_context,
        accelerator_type: cl_accelerator_type_intel,
        descriptor_size: usize,
        descriptor: *const c_void,
    ) -> cl_accelerator_intel, errcode_ret {
        accelerator::create(context, accelerator_type, descriptor_size, || {
            // SAFETY: the application's descriptor of descriptor_size bytes (read only once
            // that size is the type's).
            (!descriptor.is_null()).then(|| unsafe {
                std::slice::from_raw_parts(descriptor.cast::<u8>(), descriptor_size).to_vec()
            })
        })
    }
}

retain_release!(
    clRetainAcceleratorINTEL,
    clReleaseAcceleratorINTEL,
    accelerator: cl_accelerator_intel => Accelerator
);

entry! {
    fn clGetAcceleratorInfoINTEL(
        accelerator: cl_accelerator_intel,
        param_name: cl_accelerator_info_intel,
    ) -> query {
        Handle::<Accelerator>::get(accelerator).and_then(|a| {
            Ok(match param_name {
                CL_ACCELERATOR_DESCRIPTOR_INTEL => Info::Bytes(a.obj.descriptor.clone()),
                CL_ACCELERATOR_REFERENCE_COUNT_INTEL => Info::Uint(a.ref_count()),
                CL_ACCELERATOR_CONTEXT_INTEL => Info::Ptr(a.obj.context.raw()),
                CL_ACCELERATOR_TYPE_INTEL => Info::Uint(a.obj.kind),
                _ => return Err(crate::core::reason::unknown_query("accelerator", param_name)),
            })
        })
    }
}
