//! Entry points of functionality this platform does not have, each answering with the error the
//! specification gives for its absence (a NULL dispatch entry would crash ocl-icd's caller).
//! One table per answer: the functions' C signatures, and what they return.

use std::ffi::{c_char, c_void};

use opencl_sys::*;

use crate::api::entry::entry;
use crate::api::info::set_err;

/// Entry points that only answer `$status`: a status, or (`-> handle`) NULL with `$status` in
/// `errcode_ret`.
macro_rules! answer {
    ($status:expr => $(fn $name:ident($($arg:ident: $ty:ty),* $(,)?);)*) => {
        $(entry! {
            #[allow(clippy::too_many_arguments)]
            fn $name($($arg: $ty),*) -> cl_int {
                $status
            }
        })*
    };
    ($status:expr => $(fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> handle $ret:ty;)*) => {
        $(entry! {
            fn $name($($arg: $ty,)* errcode_ret: *mut cl_int) -> $ret {
                // SAFETY: the application's errcode pointer (or NULL).
                unsafe { set_err(errcode_ret, $status) };
                std::ptr::null_mut()
            }
        })*
    };
}

/// clSVMFree's callback for clEnqueueSVMFree.
type SvmFreeFn =
    Option<unsafe extern "C" fn(cl_command_queue, cl_uint, *mut *mut c_void, *mut c_void)>;
/// clSetProgramReleaseCallback's callback.
type ProgramFn = Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>;

// Shared virtual memory: CL_DEVICE_SVM_CAPABILITIES is 0. Native kernels:
// CL_EXEC_NATIVE_KERNEL is not in CL_DEVICE_EXECUTION_CAPABILITIES. On-device queues: none are
// supported. Not provided by this runtime: program-release callbacks (no program-scope global
// destructors), changing queue properties.
answer! { CL_INVALID_OPERATION =>
    fn clEnqueueSVMFree(_command_queue: cl_command_queue, _num_svm_pointers: cl_uint, _svm_pointers: *mut *mut c_void, _pfn_free_func: SvmFreeFn, _user_data: *mut c_void, _num_events_in_wait_list: cl_uint, _event_wait_list: *const cl_event, _event: *mut cl_event);
    fn clEnqueueSVMMemcpy(_command_queue: cl_command_queue, _blocking_copy: cl_bool, _dst_ptr: *mut c_void, _src_ptr: *const c_void, _size: usize, _num_events_in_wait_list: cl_uint, _event_wait_list: *const cl_event, _event: *mut cl_event);
    fn clEnqueueSVMMemFill(_command_queue: cl_command_queue, _svm_ptr: *mut c_void, _pattern: *const c_void, _pattern_size: usize, _size: usize, _num_events_in_wait_list: cl_uint, _event_wait_list: *const cl_event, _event: *mut cl_event);
    fn clEnqueueSVMMap(_command_queue: cl_command_queue, _blocking_map: cl_bool, _flags: cl_map_flags, _svm_ptr: *mut c_void, _size: usize, _num_events_in_wait_list: cl_uint, _event_wait_list: *const cl_event, _event: *mut cl_event);
    fn clEnqueueSVMUnmap(_command_queue: cl_command_queue, _svm_ptr: *mut c_void, _num_events_in_wait_list: cl_uint, _event_wait_list: *const cl_event, _event: *mut cl_event);
    fn clEnqueueSVMMigrateMem(_command_queue: cl_command_queue, _num_svm_pointers: cl_uint, _svm_pointers: *mut *const c_void, _sizes: *const usize, _flags: cl_mem_migration_flags, _num_events_in_wait_list: cl_uint, _event_wait_list: *const cl_event, _event: *mut cl_event);
    fn clSetKernelArgSVMPointer(_kernel: cl_kernel, _arg_index: cl_uint, _arg_value: *const c_void);
    fn clEnqueueNativeKernel(_command_queue: cl_command_queue, _user_func: Option<unsafe extern "C" fn(arg1: *mut c_void)>, _args: *mut c_void, _cb_args: usize, _num_mem_objects: cl_uint, _mem_list: *const cl_mem, _args_mem_loc: *mut *const c_void, _num_events_in_wait_list: cl_uint, _event_wait_list: *const cl_event, _event: *mut cl_event);
    fn clSetDefaultDeviceCommandQueue(_context: cl_context, _device: cl_device_id, _command_queue: cl_command_queue);
    fn clSetProgramReleaseCallback(_program: cl_program, _pfn_notify: ProgramFn, _user_data: *mut c_void);
    fn clSetCommandQueueProperty(_command_queue: cl_command_queue, _properties: cl_command_queue_properties, _enable: cl_bool, _old_properties: *mut cl_command_queue_properties);
}

// Pipes: CL_DEVICE_PIPE_SUPPORT is false.
answer! { CL_INVALID_OPERATION =>
    fn clCreatePipe(_context: cl_context, _flags: cl_mem_flags, _pipe_packet_size: cl_uint, _pipe_max_packets: cl_uint, _properties: *const cl_pipe_properties) -> handle cl_mem;
}

// Not a pipe: this platform makes none.
answer! { CL_INVALID_MEM_OBJECT =>
    fn clGetPipeInfo(_pipe: cl_mem, _param_name: cl_pipe_info, _param_value_size: usize, _param_value: *mut c_void, _param_value_size_ret: *mut usize);
}

// Sub-devices: CL_DEVICE_PARTITION_PROPERTIES lists no partition type.
answer! { CL_INVALID_VALUE =>
    fn clCreateSubDevices(_in_device: cl_device_id, _properties: *const cl_device_partition_property, _num_devices: cl_uint, _out_devices: *mut cl_device_id, _num_devices_ret: *mut cl_uint);
}

// Built-in kernels: CL_DEVICE_BUILT_IN_KERNELS is empty, so no name is one.
answer! { CL_INVALID_VALUE =>
    fn clCreateProgramWithBuiltInKernels(_context: cl_context, _num_devices: cl_uint, _device_list: *const cl_device_id, _kernel_names: *const c_char) -> handle cl_program;
}

// Shared virtual memory: allocation fails (NULL) and freeing does nothing.
entry! {
    fn clSVMAlloc(
        _context: cl_context,
        _flags: cl_svm_mem_flags,
        _size: usize,
        _alignment: cl_uint,
    ) -> *mut c_void {
        std::ptr::null_mut()
    }
}

entry! {
    fn clSVMFree(_context: cl_context, _svm_pointer: *mut c_void) -> () {}
}
