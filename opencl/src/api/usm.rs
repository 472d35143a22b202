//! cl_intel_unified_shared_memory's entry points (reached through
//! clGetExtensionFunctionAddress), and clSetKernelExecInfo, whose only settings here are the
//! extension's ([`crate::core::usm`]).

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::*;

use crate::api::entry::entry;
use crate::api::info;
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::handle::Handle;
use crate::core::info::Info;
use crate::core::kernel::Kernel;
use crate::core::kernel_args::{exec_info_read, ExecRead, ExecValue};
use crate::core::queue::Queue;
use crate::core::usm::{self, Kind};

/// CL_MEM_ALLOC_FLAGS_INTEL as a clGetMemAllocInfoINTEL query (the header types it as a
/// property name).
const FLAGS_QUERY: cl_mem_info_intel = CL_MEM_ALLOC_FLAGS_INTEL as cl_mem_info_intel;

/// The three allocation entry points' common part.
///
/// # Safety
/// `properties` NULL or a 0-terminated list of pairs.
unsafe fn alloc(
    context: cl_context,
    device: Option<cl_device_id>,
    properties: *const cl_mem_properties_intel,
    size: usize,
    alignment: cl_uint,
    kind: Kind,
) -> Result<*mut c_void, cl_int> {
    let c = Handle::<Context>::get(context)?;
    let device = match device {
        Some(d) if !d.is_null() => Some(Handle::<Device>::get(d)?),
        Some(_) if kind == Kind::Device => return Err(CL_INVALID_DEVICE),
        _ => None,
    };
    // SAFETY: the application's list (or NULL).
    let flags = unsafe { usm::alloc_flags(properties, kind) }?;
    usm::alloc(&c, kind, device, (size, alignment, flags))
}

entry! {
    fn clHostMemAllocINTEL(
        context: cl_context,
        properties: *const cl_mem_properties_intel,
        size: usize,
        alignment: cl_uint,
    ) -> *mut c_void, errcode_ret {
        // SAFETY: the application's property list.
        unsafe { alloc(context, None, properties, size, alignment, Kind::Host) }
    }
}

entry! {
    fn clDeviceMemAllocINTEL(
        context: cl_context,
        device: cl_device_id,
        properties: *const cl_mem_properties_intel,
        size: usize,
        alignment: cl_uint,
    ) -> *mut c_void, errcode_ret {
        // SAFETY: the application's property list.
        unsafe { alloc(context, Some(device), properties, size, alignment, Kind::Device) }
    }
}

entry! {
    fn clSharedMemAllocINTEL(
        context: cl_context,
        device: cl_device_id,
        properties: *const cl_mem_properties_intel,
        size: usize,
        alignment: cl_uint,
    ) -> *mut c_void, errcode_ret {
        // SAFETY: the application's property list.
        unsafe { alloc(context, Some(device), properties, size, alignment, Kind::Shared) }
    }
}

entry! {
    fn clMemFreeINTEL(context: cl_context, ptr: *mut c_void) -> cl_int {
        info::status(|| usm::free(&Handle::<Context>::get(context)?.obj, ptr, false))
    }
}

entry! {
    fn clMemBlockingFreeINTEL(context: cl_context, ptr: *mut c_void) -> cl_int {
        info::status(|| usm::free(&Handle::<Context>::get(context)?.obj, ptr, true))
    }
}

entry! {
    fn clGetMemAllocInfoINTEL(
        context: cl_context,
        ptr: *const c_void,
        param_name: cl_mem_info_intel,
    ) -> query {
        let c = Handle::<Context>::get(context);
        c.and_then(|c| {
            let found = c.obj.usm.find(ptr as usize).map(|(a, _)| a);
            Ok(match param_name {
                CL_MEM_ALLOC_TYPE_INTEL => Info::Uint(
                    found.map_or(CL_MEM_TYPE_UNKNOWN_INTEL, |a| a.kind.cl()),
                ),
                CL_MEM_ALLOC_BASE_PTR_INTEL => {
                    Info::Ptr(found.map_or(std::ptr::null_mut(), |a| a.base() as *mut c_void))
                }
                CL_MEM_ALLOC_SIZE_INTEL => Info::Size(found.map_or(0, |a| a.size)),
                FLAGS_QUERY => Info::Ulong(found.map_or(0, |a| a.flags)),
                CL_MEM_ALLOC_DEVICE_INTEL => Info::Ptr(
                    found
                        .and_then(|a| a.device.as_ref().map(|d| d.raw()))
                        .unwrap_or(std::ptr::null_mut()),
                ),
                _ => return Err(crate::core::reason::unknown_query("USM allocation", param_name)),
            })
        })
    }
}

entry! {
    fn clSetKernelArgMemPointerINTEL(
        kernel: cl_kernel,
        arg_index: cl_uint,
        arg_value: *const c_void,
    ) -> cl_int {
        info::status(|| Handle::<Kernel>::get(kernel)?.obj.set_usm_arg(arg_index, arg_value as usize))
    }
}

entry! {
    fn clSetKernelExecInfo(
        kernel: cl_kernel,
        param_name: cl_kernel_exec_info,
        param_value_size: usize,
        param_value: *const c_void,
    ) -> cl_int {
        info::status(|| {
            let k = Handle::<Kernel>::get(kernel)?;
            let read = exec_info_read(param_name, param_value_size)?;
            if param_value.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let value = match read {
                // SAFETY: the application's cl_bool (size checked).
                ExecRead::Flag => ExecValue::Flag(unsafe { *(param_value as *const cl_bool) } != CL_FALSE),
                // SAFETY: the application's array of param_value_size bytes of pointers.
                ExecRead::Pointers(n) => ExecValue::Pointers(
                    unsafe { std::slice::from_raw_parts(param_value as *const usize, n) }.to_vec(),
                ),
            };
            k.obj.set_exec_info(param_name, value)
        })
    }
}

/// A USM command's queue.
fn queue(q: cl_command_queue) -> Result<Arc<Handle<Queue>>, cl_int> {
    Handle::<Queue>::get(q)
}

entry! {
    fn clEnqueueMemcpyINTEL(
        command_queue: cl_command_queue,
        blocking: cl_bool,
        dst_ptr: *mut c_void,
        src_ptr: *const c_void,
        size: usize,
    ) -> enqueue [num_events_in_wait_list, event_wait_list, event] {
        queue(command_queue)
            .and_then(|q| usm::memcpy(&q, blocking != CL_FALSE, dst_ptr, src_ptr, size))
    }
}

entry! {
    fn clEnqueueMemFillINTEL(
        command_queue: cl_command_queue,
        dst_ptr: *mut c_void,
        pattern: *const c_void,
        pattern_size: usize,
        size: usize,
    ) -> enqueue [num_events_in_wait_list, event_wait_list, event] {
        queue(command_queue).and_then(|q| {
            if pattern.is_null() || pattern_size == 0 || pattern_size > 128 {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: the application's pattern of pattern_size bytes.
            let pat = unsafe { std::slice::from_raw_parts(pattern as *const u8, pattern_size) };
            usm::fill(&q, dst_ptr, pat, size)
        })
    }
}

entry! {
    /// Deprecated by clEnqueueMemFillINTEL: a one-byte pattern.
    fn clEnqueueMemsetINTEL(
        command_queue: cl_command_queue,
        dst_ptr: *mut c_void,
        value: cl_int,
        size: usize,
    ) -> enqueue [num_events_in_wait_list, event_wait_list, event] {
        queue(command_queue).and_then(|q| usm::fill(&q, dst_ptr, &[value as u8], size))
    }
}

entry! {
    fn clEnqueueMigrateMemINTEL(
        command_queue: cl_command_queue,
        ptr: *const c_void,
        size: usize,
        flags: cl_mem_migration_flags,
    ) -> enqueue [num_events_in_wait_list, event_wait_list, event] {
        queue(command_queue).and_then(|q| usm::migrate(&q, ptr, size, flags))
    }
}

entry! {
    fn clEnqueueMemAdviseINTEL(
        command_queue: cl_command_queue,
        ptr: *const c_void,
        size: usize,
        advice: cl_mem_advice_intel,
    ) -> enqueue [num_events_in_wait_list, event_wait_list, event] {
        let _ = advice;
        queue(command_queue).and_then(|q| usm::advise(&q, ptr, size))
    }
}
