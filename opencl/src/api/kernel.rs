//! The kernel entry points: creation, arguments, the kernel, work-group and sub-group
//! queries ([`crate::core::kernel`], [`crate::core::kernel_args`]), and
//! clEnqueueNDRangeKernel ([`crate::core::ndrange`]).

use std::ffi::{c_char, c_void, CStr};

use opencl_sys::*;

use crate::api::entry::{entry, retain_release};
use crate::api::info;
use crate::core::handle::Handle;
use crate::core::kernel::{create, Kernel};
use crate::core::kernel_args::{ArgInput, ArgRead};
use crate::core::kernel_info::SubGroupInput;
use crate::core::ndrange::Launch;
use crate::core::program::Program;
use crate::core::queue::Queue;
use crate::core::reason::why;

entry! {
    fn clCreateKernel(program: cl_program, kernel_name: *const c_char) -> cl_kernel, errcode_ret {
        let p = Handle::<Program>::get(program)?;
        if kernel_name.is_null() {
            return Err(why(CL_INVALID_VALUE, || "kernel_name is NULL".into()));
        }
        // SAFETY: a NUL-terminated name.
        let name = unsafe { CStr::from_ptr(kernel_name) }
            .to_string_lossy()
            .into_owned();
        create(&p, &name)
    }
}

entry! {
    fn clCreateKernelsInProgram(
        program: cl_program,
        num_kernels: cl_uint,
        kernels: *mut cl_kernel,
        num_kernels_ret: *mut cl_uint,
    ) -> cl_int {
        info::status(|| {
            let p = Handle::<Program>::get(program)?;
            let names = p.obj.kernel_names()?;
            if !kernels.is_null() && (num_kernels as usize) < names.len() {
                return Err(CL_INVALID_VALUE);
            }
            if !kernels.is_null() {
                for (k, n) in names.iter().enumerate() {
                    let h = create(&p, n)?;
                    // SAFETY: the application's array of num_kernels >= names.len() handles.
                    unsafe { *kernels.add(k) = h };
                }
            }
            if !num_kernels_ret.is_null() {
                // SAFETY: the application's pointer.
                unsafe { *num_kernels_ret = names.len() as cl_uint };
            }
            Ok(())
        })
    }
}

entry! {
    fn clCloneKernel(source_kernel: cl_kernel) -> cl_kernel, errcode_ret {
        Ok(Handle::<Kernel>::get(source_kernel)?.obj.clone_kernel())
    }
}

retain_release!(clRetainKernel, clReleaseKernel, k: cl_kernel => Kernel);

entry! {
    fn clSetKernelArg(
        kernel: cl_kernel,
        arg_index: cl_uint,
        arg_size: usize,
        arg_value: *const c_void,
    ) -> cl_int {
        info::status(|| {
            let k = Handle::<Kernel>::get(kernel)?;
            // What the argument reads at arg_value, once arg_size fits it.
            let input = match k.obj.arg_read(arg_index, arg_size)? {
                _ if arg_value.is_null() => ArgInput::Null,
                // SAFETY: arg_value points at a handle (arg_size checked to be a pointer's).
                ArgRead::Handle => ArgInput::Handle(unsafe { *(arg_value as *const *mut c_void) }),
                ArgRead::Bytes(n) => ArgInput::Bytes(
                    // SAFETY: `arg_size` >= `n` readable bytes at arg_value.
                    unsafe { std::slice::from_raw_parts(arg_value as *const u8, n) },
                ),
                ArgRead::Nothing => ArgInput::Unread,
            };
            k.obj.set_arg_from(arg_index, arg_size, input)
        })
    }
}

entry! {
    fn clGetKernelInfo(kernel: cl_kernel, param_name: cl_kernel_info) -> query {
        Handle::<Kernel>::get(kernel).and_then(|k| Kernel::info(&k, param_name))
    }
}

entry! {
    fn clGetKernelArgInfo(
        kernel: cl_kernel,
        arg_index: cl_uint,
        param_name: cl_kernel_arg_info,
    ) -> query {
        Handle::<Kernel>::get(kernel).and_then(|k| k.obj.arg_info(arg_index, param_name))
    }
}

entry! {
    fn clGetKernelWorkGroupInfo(
        kernel: cl_kernel,
        device: cl_device_id,
        param_name: cl_kernel_work_group_info,
    ) -> query {
        Handle::<Kernel>::get(kernel).and_then(|k| {
            let d = k.obj.device_for(device)?;
            k.obj.work_group_info(&d, param_name)
        })
    }
}

entry! {
    fn clGetKernelSubGroupInfo(
        kernel: cl_kernel,
        device: cl_device_id,
        param_name: cl_kernel_sub_group_info,
        input_value_size: usize,
        input_value: *const c_void,
    ) -> query [param_value_size, param_value, param_value_size_ret] {
        Handle::<Kernel>::get(kernel).and_then(|k| {
            let d = k.obj.device_for(device)?;
            let size = std::mem::size_of::<usize>();
            let input = if input_value.is_null() || input_value_size == 0 {
                SubGroupInput::Invalid
            } else if param_name == CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT {
                if input_value_size == size {
                    // SAFETY: one size_t at input_value (non-NULL, size checked).
                    SubGroupInput::Count(unsafe { *(input_value as *const usize) })
                } else {
                    SubGroupInput::Invalid
                }
            } else if input_value_size.is_multiple_of(size) && input_value_size / size <= 3 {
                // SAFETY: the application passes input_value_size bytes at input_value
                // (non-NULL): a whole number of size_t values, at most three.
                SubGroupInput::LocalSize(
                    unsafe {
                        std::slice::from_raw_parts(
                            input_value as *const usize,
                            input_value_size / size,
                        )
                    }
                    .to_vec(),
                )
            } else {
                SubGroupInput::Invalid
            };
            k.obj.sub_group_info(&d, param_name, input, param_value_size / size)
        })
    }
}

/// An ND-range's launch: its queue and kernel, checked with `work_dim` ([`Launch::new`]).
fn launch(queue: cl_command_queue, kernel: cl_kernel, work_dim: cl_uint) -> Result<Launch, cl_int> {
    let q = Handle::<Queue>::get(queue)?;
    let k = Handle::<Kernel>::get(kernel)?;
    Launch::new(q, k, work_dim)
}

/// The `n` size_t values at `p`, or None for NULL.
///
/// # Safety
/// `p` NULL or `n` valid elements that outlive `'a`.
unsafe fn array<'a>(p: *const usize, n: usize) -> Option<&'a [usize]> {
    // SAFETY: forwarded.
    (!p.is_null()).then(|| unsafe { std::slice::from_raw_parts(p, n) })
}

entry! {
    /// cl_khr_suggested_local_work_size: the local size an enqueue of `kernel` on
    /// `command_queue` with a NULL local size would run, after the checks
    /// clEnqueueNDRangeKernel makes of the same arguments ([`Launch::suggested_local`]).
    fn clGetKernelSuggestedLocalWorkSizeKHR(
        command_queue: cl_command_queue,
        kernel: cl_kernel,
        work_dim: cl_uint,
        global_work_offset: *const usize,
        global_work_size: *const usize,
        suggested_local_work_size: *mut usize,
    ) -> cl_int {
        info::status(|| {
            let l = launch(command_queue, kernel, work_dim)?;
            // SAFETY: the application's arrays of work_dim elements (or NULL).
            let (global, offset) = unsafe {
                (array(global_work_size, l.dims), array(global_work_offset, l.dims))
            };
            let range = l.suggest_range(global, offset)?;
            if suggested_local_work_size.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let local = l.suggested_local(range)?;
            for (d, v) in local[..l.dims].iter().enumerate() {
                // SAFETY: the application's array of work_dim elements (checked non-NULL).
                unsafe { *suggested_local_work_size.add(d) = *v as usize };
            }
            Ok(())
        })
    }
}

entry! {
    fn clEnqueueNDRangeKernel(
        queue: cl_command_queue,
        kernel: cl_kernel,
        work_dim: cl_uint,
        global_work_offset: *const usize,
        global_work_size: *const usize,
        local_work_size: *const usize,
    ) -> enqueue [n, wait, event] {
        launch(queue, kernel, work_dim).and_then(|l| {
            // SAFETY: the application's arrays of work_dim elements (or NULL).
            let (global, offset, local) = unsafe {
                (
                    array(global_work_size, l.dims),
                    array(global_work_offset, l.dims),
                    array(local_work_size, l.dims),
                )
            };
            l.command(global, offset, local)
        })
    }
}

entry! {
    /// OpenCL 1.x task: one work-item.
    fn clEnqueueTask(
        queue: cl_command_queue,
        kernel: cl_kernel,
        n: cl_uint,
        wait: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        let one = [1usize];
        // SAFETY: forwarded, with a one-item range.
        unsafe {
            clEnqueueNDRangeKernel(
                queue,
                kernel,
                1,
                std::ptr::null(),
                one.as_ptr(),
                one.as_ptr(),
                n,
                wait,
                event,
            )
        }
    }
}
