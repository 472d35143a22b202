//! The kernel entry points: creation, arguments, the kernel, work-group and sub-group
//! queries ([`crate::core::kernel`], [`crate::core::kernel_args`]), and
//! clEnqueueNDRangeKernel ([`crate::core::ndrange`]).

use std::ffi::{c_char, c_void, CStr};

use opencl_sys::*;

use crate::api::entry::{entry, retain_release};
use crate::api::info;
use crate::core::handle::Handle;
use crate::core::info::Info;
use crate::core::kernel::{create, Arg, Kernel};
use crate::core::kernel_args::{ArgInput, ArgRead};
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
            let names = p
                .obj
                .builds()
                .iter()
                .find(|b| b.executable())
                .map(|b| b.kernels.clone())
                .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
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
        Handle::<Kernel>::get(kernel).and_then(|k| {
            Ok(match param_name {
                CL_KERNEL_FUNCTION_NAME => Info::Str(k.obj.name.clone()),
                CL_KERNEL_NUM_ARGS => Info::Uint(k.obj.signature.len() as u32),
                CL_KERNEL_REFERENCE_COUNT => Info::Uint(k.ref_count()),
                CL_KERNEL_CONTEXT => Info::Ptr(k.obj.program.obj.context.raw()),
                CL_KERNEL_PROGRAM => Info::Ptr(k.obj.program.raw()),
                CL_KERNEL_ATTRIBUTES => Info::Str(k.obj.attributes()),
                _ => return Err(CL_INVALID_VALUE),
            })
        })
    }
}

entry! {
    fn clGetKernelArgInfo(
        kernel: cl_kernel,
        arg_index: cl_uint,
        param_name: cl_kernel_arg_info,
    ) -> query {
        Handle::<Kernel>::get(kernel).and_then(|k| {
            if arg_index as usize >= k.obj.signature.len() {
                return Err(CL_INVALID_ARG_INDEX);
            }
            if !k.obj.arg_info {
                return Err(CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
            }
            let a = k
                .obj
                .described()
                .and_then(|d| d.arg_info.iter().find(|a| a.index == arg_index))
                .ok_or(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)?;
            Ok(match param_name {
                CL_KERNEL_ARG_ADDRESS_QUALIFIER => Info::Uint(match a.address_qualifier.as_str() {
                    "__global" | "global" => CL_KERNEL_ARG_ADDRESS_GLOBAL,
                    "__local" | "local" => CL_KERNEL_ARG_ADDRESS_LOCAL,
                    "__constant" | "constant" => CL_KERNEL_ARG_ADDRESS_CONSTANT,
                    _ => CL_KERNEL_ARG_ADDRESS_PRIVATE,
                }),
                CL_KERNEL_ARG_ACCESS_QUALIFIER => Info::Uint(match a.access_qualifier.as_str() {
                    "__read_only" | "read_only" => CL_KERNEL_ARG_ACCESS_READ_ONLY,
                    "__write_only" | "write_only" => CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
                    "__read_write" | "read_write" => CL_KERNEL_ARG_ACCESS_READ_WRITE,
                    _ => CL_KERNEL_ARG_ACCESS_NONE,
                }),
                // Patch tokens store "type;size".
                CL_KERNEL_ARG_TYPE_NAME => Info::Str(
                    a.type_name
                        .split(';')
                        .next()
                        .unwrap_or_default()
                        .to_string(),
                ),
                CL_KERNEL_ARG_TYPE_QUALIFIER => {
                    let q = &a.type_qualifiers;
                    let mut v: u64 = 0;
                    for (word, bit) in [
                        ("const", CL_KERNEL_ARG_TYPE_CONST),
                        ("restrict", CL_KERNEL_ARG_TYPE_RESTRICT),
                        ("volatile", CL_KERNEL_ARG_TYPE_VOLATILE),
                        ("pipe", CL_KERNEL_ARG_TYPE_PIPE),
                    ] {
                        if q.split_whitespace().any(|w| w == word) {
                            v |= bit as u64;
                        }
                    }
                    Info::Ulong(v)
                }
                CL_KERNEL_ARG_NAME => Info::Str(a.name.clone()),
                _ => return Err(CL_INVALID_VALUE),
            })
        })
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
            let uk = k.obj.on(&d)?;
            let described = k.obj.described();
            Ok(match param_name {
                CL_KERNEL_WORK_GROUP_SIZE => Info::Size(k.obj.max_group(&d.obj)),
                CL_KERNEL_COMPILE_WORK_GROUP_SIZE => Info::Sizes(
                    described
                        .and_then(|x| x.required_work_group_size)
                        .map_or([0; 3], |r| r.map(|v| v as usize))
                        .to_vec(),
                ),
                CL_KERNEL_LOCAL_MEM_SIZE => {
                    let args: u64 = k
                        .obj
                        .args
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .iter()
                        .map(|a| match a {
                            Some(Arg::Local(n)) => *n as u64,
                            _ => 0,
                        })
                        .sum();
                    Info::Ulong(described.map_or(0, |x| x.slm_size as u64) + args)
                }
                CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => Info::Size(uk.simd as usize),
                CL_KERNEL_PRIVATE_MEM_SIZE => Info::Ulong(described.map_or(0, |x| {
                    let m = x.memory;
                    let per_item = if m.private_is_simt {
                        m.private
                    } else {
                        m.private / x.simd_size.max(1)
                    };
                    (per_item + m.scratch / x.simd_size.max(1)) as u64
                })),
                CL_KERNEL_SPILL_MEM_SIZE_INTEL => Info::Ulong(uk.spill_mem_size()),
                // Only for custom devices and built-in kernels.
                CL_KERNEL_GLOBAL_WORK_SIZE => return Err(CL_INVALID_VALUE),
                _ => return Err(CL_INVALID_VALUE),
            })
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
            let uk = k.obj.on(&d)?;
            let size = std::mem::size_of::<usize>();
            // SAFETY: `input_value_size` bytes at input_value (checked non-NULL and sized).
            let sizes = |input: *const c_void| -> Result<Vec<usize>, cl_int> {
                if input.is_null()
                    || input_value_size == 0
                    || !input_value_size.is_multiple_of(size)
                    || input_value_size / size > 3
                {
                    return Err(CL_INVALID_VALUE);
                }
                // SAFETY: the application passes input_value_size bytes at `input` (checked
                // non-null above); a whole number of size_t values, at most three.
                Ok(unsafe {
                    std::slice::from_raw_parts(input as *const usize, input_value_size / size)
                }
                .to_vec())
            };
            let simd = uk.simd as usize;
            Ok(match param_name {
                CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE => Info::Size(
                    uk.max_sub_group_size_for_ndrange(&sizes(input_value)?)
                        .map_err(|_| CL_INVALID_VALUE)?,
                ),
                CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE => Info::Size(
                    uk.sub_group_count_for_ndrange(&sizes(input_value)?)
                        .map_err(|_| CL_INVALID_VALUE)?,
                ),
                CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT => {
                    if input_value.is_null() || input_value_size != size {
                        return Err(CL_INVALID_VALUE);
                    }
                    // SAFETY: one size_t (checked).
                    let count = unsafe { *(input_value as *const usize) };
                    let dims = (param_value_size / size).clamp(1, 3);
                    let mut out = vec![0usize; dims];
                    let local = count
                        .checked_mul(simd)
                        .filter(|&l| count > 0 && l <= k.obj.max_group(&d.obj));
                    if let Some(l) = local {
                        out[0] = l;
                        out[1..].fill(1);
                    }
                    Info::Sizes(out)
                }
                CL_KERNEL_MAX_NUM_SUB_GROUPS => Info::Size(k.obj.max_group(&d.obj).div_ceil(simd)),
                // No attribute requires a number of sub-groups in OpenCL C for this compiler.
                CL_KERNEL_COMPILE_NUM_SUB_GROUPS => Info::Size(0),
                CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL => Info::Size(uk.compile_sub_group_size()),
                _ => return Err(CL_INVALID_VALUE),
            })
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
