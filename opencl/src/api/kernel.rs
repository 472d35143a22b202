//! The kernel entry points: creation, arguments, the kernel, work-group and sub-group
//! queries, and clEnqueueNDRangeKernel ([`crate::core::kernel`]).

use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use opencl_sys::*;
use umd::kernel::ArgSlot;

use crate::api::entry::{entry, retain_release};
use crate::api::info;
use crate::core::device::Device;
use crate::core::handle::Handle;
use crate::core::info::Info;
use crate::core::kernel::{create, value_bytes_taken, Arg, Kernel};
use crate::core::memory::Mem;
use crate::core::program::Program;
use crate::core::queue::{Command, KernelRun, Queue, Work};
use crate::core::reason::why;
use crate::core::sampler::Sampler;

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
        let k = Handle::<Kernel>::get(source_kernel)?;
        k.obj
            .program
            .obj
            .kernels_alive
            .fetch_add(1, Ordering::SeqCst);
        let args = k.obj.args.lock().unwrap_or_else(|e| e.into_inner()).clone();
        // clCloneKernel copies the execution information set on the source too.
        let usm = k.obj.usm.lock().unwrap_or_else(|e| e.into_inner()).clone();
        Ok(Handle::create(Kernel {
            program: k.obj.program.clone(),
            name: k.obj.name.clone(),
            per_device: k.obj.per_device.clone(),
            signature: k.obj.signature.clone(),
            declared_sizes: k.obj.declared_sizes.clone(),
            arg_info: k.obj.arg_info,
            uniform_groups: k.obj.uniform_groups.clone(),
            args: Mutex::new(args),
            snapshot: Mutex::new(None),
            attached: AtomicBool::new(true),
            usm: Mutex::new(usm),
        })
        .0)
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
            let slot = k.obj.slot(arg_index)?;
            // A sampler's or image's handle (cl_sampler and cl_mem are both pointers).
            let handle_arg = || {
                if arg_size != std::mem::size_of::<*mut c_void>() {
                    return Err(why(CL_INVALID_ARG_SIZE, || {
                        format!("argument {arg_index} takes a handle (8 bytes); arg_size is {arg_size}")
                    }));
                }
                if arg_value.is_null() {
                    return Err(why(CL_INVALID_ARG_VALUE, || {
                        format!("argument {arg_index} takes a handle; arg_value is NULL")
                    }));
                }
                // SAFETY: arg_value points at a handle (arg_size checked).
                Ok(unsafe { *(arg_value as *const *mut c_void) })
            };
            let arg = match slot {
                ArgSlot::Buffer => {
                    if arg_size != std::mem::size_of::<cl_mem>() {
                        return Err(why(CL_INVALID_ARG_SIZE, || {
                            format!("argument {arg_index} is a buffer: arg_size must be sizeof(cl_mem) = 8, not {arg_size}")
                        }));
                    }
                    // A NULL arg_value, or one pointing at a NULL cl_mem, gives the kernel a
                    // NULL pointer (the specification's rule for buffer arguments).
                    let m = if arg_value.is_null() {
                        std::ptr::null_mut()
                    } else {
                        // SAFETY: arg_value points at a cl_mem (arg_size checked).
                        unsafe { *(arg_value as *const cl_mem) }
                    };
                    if m.is_null() {
                        Arg::NullMem
                    } else {
                        let m = Handle::<Mem>::get(m)?;
                        if m.obj.image.is_some() {
                            return Err(why(CL_INVALID_MEM_OBJECT, || {
                                format!("argument {arg_index} is a buffer; the cl_mem given is an image")
                            }));
                        }
                        if !Arc::ptr_eq(&m.obj.context, &k.obj.program.obj.context) {
                            return Err(why(CL_INVALID_MEM_OBJECT, || {
                                format!("argument {arg_index}'s buffer belongs to another context than the kernel's program")
                            }));
                        }
                        Arg::Mem(Arc::downgrade(&m))
                    }
                }
                ArgSlot::Local => {
                    if !arg_value.is_null() {
                        return Err(why(CL_INVALID_ARG_VALUE, || {
                            format!("argument {arg_index} is a local pointer: arg_value must be NULL")
                        }));
                    }
                    if arg_size == 0 || arg_size as u64 > crate::core::device::LOCAL_MEM_BYTES {
                        return Err(why(CL_INVALID_ARG_SIZE, || {
                            format!(
                                "argument {arg_index} is a local pointer: arg_size {arg_size} is not 1 to {} bytes",
                                crate::core::device::LOCAL_MEM_BYTES
                            )
                        }));
                    }
                    Arg::Local(arg_size as u32)
                }
                ArgSlot::Value(n) => {
                    let n = n as usize;
                    let declared = k.obj.declared_sizes.get(arg_index as usize).copied();
                    let Some(given) = value_bytes_taken(arg_size, n, declared.flatten()) else {
                        return Err(why(CL_INVALID_ARG_SIZE, || {
                            format!(
                                "argument {arg_index} is a {}-byte value; arg_size is {arg_size}",
                                declared.flatten().unwrap_or(n)
                            )
                        }));
                    };
                    if arg_value.is_null() {
                        return Err(why(CL_INVALID_ARG_VALUE, || {
                            format!("argument {arg_index} is a value; arg_value is NULL")
                        }));
                    }
                    // SAFETY: `arg_size` >= `given` readable bytes at arg_value.
                    let bytes = unsafe { std::slice::from_raw_parts(arg_value as *const u8, given) };
                    let mut v = bytes.to_vec();
                    v.resize(n, 0);
                    Arg::Value(v)
                }
                ArgSlot::Sampler => {
                    let s = Handle::<Sampler>::get(handle_arg()?)?;
                    if !Arc::ptr_eq(&s.obj.context, &k.obj.program.obj.context) {
                        return Err(CL_INVALID_SAMPLER);
                    }
                    Arg::Sampler(s.obj.sampler)
                }
                ArgSlot::Image => {
                    let m = Handle::<Mem>::get(handle_arg()?)?;
                    if m.obj.image.is_none() || !Arc::ptr_eq(&m.obj.context, &k.obj.program.obj.context)
                    {
                        return Err(CL_INVALID_MEM_OBJECT);
                    }
                    Arg::Mem(Arc::downgrade(&m))
                }
            };
            k.obj.set_arg(arg_index, arg);
            Ok(())
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

/// The range clEnqueueNDRangeKernel runs on `device`: `local`, or for NULL the one umd picks
/// for the kernel's SIMD width within the kernel's maximum (CL_KERNEL_WORK_GROUP_SIZE; its
/// required work-group size if it has one), at `offset`. clGetKernelSuggestedLocalWorkSizeKHR
/// answers with this range's local size, so its suggestion is what an enqueue with a NULL
/// local size runs.
fn nd_range(
    k: &Kernel,
    device: &Device,
    uk: &umd::kernel::Kernel,
    global: &[u32],
    local: Option<&[u32]>,
    offset: &[u32],
) -> Result<umd::ndrange::NdRange, cl_int> {
    let required = k.described().and_then(|d| d.required_work_group_size);
    let limit = u32::try_from(k.max_group(device)).unwrap_or(u32::MAX);
    umd::ndrange::NdRange::new_within(global, local, uk.simd, required, limit)
        .map_err(|_| CL_INVALID_WORK_GROUP_SIZE)?
        .with_offset(offset)
        .map_err(|_| CL_INVALID_GLOBAL_OFFSET)
}

entry! {
    /// cl_khr_suggested_local_work_size: the local size an enqueue of `kernel` on
    /// `command_queue` with a NULL local size would run (`nd_range`), after the checks
    /// clEnqueueNDRangeKernel makes of the same arguments.
    fn clGetKernelSuggestedLocalWorkSizeKHR(
        command_queue: cl_command_queue,
        kernel: cl_kernel,
        work_dim: cl_uint,
        global_work_offset: *const usize,
        global_work_size: *const usize,
        suggested_local_work_size: *mut usize,
    ) -> cl_int {
        info::status(|| {
            let (q, k, dims) = launch(command_queue, kernel, work_dim)?;
            let uk = k.obj.on(&q.obj.device)?;
            // SAFETY: the application's arrays of work_dim elements (or NULL).
            let global = unsafe { sizes(global_work_size, dims, CL_INVALID_GLOBAL_WORK_SIZE) }?
                .ok_or(CL_INVALID_GLOBAL_WORK_SIZE)?;
            if global[..dims].contains(&0) {
                return Err(CL_INVALID_GLOBAL_WORK_SIZE);
            }
            // SAFETY: as above.
            let offset = unsafe { sizes(global_work_offset, dims, CL_INVALID_GLOBAL_OFFSET) }?
                .unwrap_or([0; 3]);
            if offset.iter().zip(global).any(|(o, g)| o + g > u32::MAX as usize) {
                return Err(CL_INVALID_GLOBAL_OFFSET);
            }
            if suggested_local_work_size.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            k.obj.enqueued_args()?;
            let u32s = |v: [usize; 3]| v.map(|x| x as u32);
            let (g32, o32) = (u32s(global), u32s(offset));
            let r = nd_range(&k.obj, &q.obj.device.obj, uk, &g32[..dims], None, &o32[..dims])?;
            for (d, l) in r.local[..dims].iter().enumerate() {
                // SAFETY: the application's array of work_dim elements (checked non-NULL).
                unsafe { *suggested_local_work_size.add(d) = *l as usize };
            }
            Ok(())
        })
    }
}

/// An ND-range's queue, kernel and number of dimensions.
type Launch = (Arc<Handle<Queue>>, Arc<Handle<Kernel>>, usize);

/// The queue and kernel of an ND-range, checked in clEnqueueNDRangeKernel's order: both
/// valid, one context, the kernel built for the queue's device, `work_dim` 1 to 3 (returned
/// as the number of dimensions).
fn launch(queue: cl_command_queue, kernel: cl_kernel, work_dim: cl_uint) -> Result<Launch, cl_int> {
    let q = Handle::<Queue>::get(queue)?;
    let k = Handle::<Kernel>::get(kernel)?;
    if !Arc::ptr_eq(&q.obj.context, &k.obj.program.obj.context) {
        return Err(why(CL_INVALID_CONTEXT, || {
            "the queue and the kernel's program belong to different contexts".into()
        }));
    }
    k.obj.on(&q.obj.device)?;
    if !(1..=3).contains(&work_dim) {
        return Err(why(CL_INVALID_WORK_DIMENSION, || {
            format!("work_dim is {work_dim}, not 1, 2 or 3")
        }));
    }
    Ok((q, k, work_dim as usize))
}

/// `n` (1 to 3) size_t values at `p`, then zeros: None for NULL; `err` when one does not fit
/// in a u32.
///
/// # Safety
/// `p` NULL or `n` valid elements.
unsafe fn sizes(p: *const usize, n: usize, err: cl_int) -> Result<Option<[usize; 3]>, cl_int> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: forwarded.
    let given = unsafe { std::slice::from_raw_parts(p, n) };
    if given.iter().any(|&x| x > u32::MAX as usize) {
        return Err(why(err, || format!("{given:?} has a size above 2^32 - 1")));
    }
    let mut v = [0; 3];
    v[..n].copy_from_slice(given);
    Ok(Some(v))
}

/// clEnqueueNDRangeKernel's command.
///
/// # Safety
/// The offset and sizes NULL or `work_dim` (when 1 to 3) elements each.
unsafe fn ndrange(
    queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    (global_work_offset, global_work_size, local_work_size): (
        *const usize,
        *const usize,
        *const usize,
    ),
) -> Result<Command, cl_int> {
    let (q, k, dims) = launch(queue, kernel, work_dim)?;
    let uk = k.obj.on(&q.obj.device)?;
    // SAFETY: the application's arrays of work_dim elements.
    let global = unsafe { sizes(global_work_size, dims, CL_INVALID_GLOBAL_WORK_SIZE) }?
        // OpenCL 2.1+: a NULL global size, like a zero one, runs nothing (the
        // command still completes its event).
        .unwrap_or([0; 3]);
    let global = &global[..dims];
    // SAFETY: as above, the application's work_dim-element arrays (or NULL).
    let offset = unsafe { sizes(global_work_offset, dims, CL_INVALID_GLOBAL_OFFSET) }?;
    // SAFETY: as above.
    let local = unsafe { sizes(local_work_size, dims, CL_INVALID_WORK_ITEM_SIZE) }?;
    let local = local.as_ref().map(|l| &l[..dims]);
    let offset = offset.as_ref().map(|o| &o[..dims]);
    if let Some(o) = offset {
        if o.iter()
            .zip(global)
            .any(|(o, g)| o.checked_add(*g).is_none_or(|e| e > u32::MAX as usize))
        {
            return Err(CL_INVALID_GLOBAL_OFFSET);
        }
    }
    let required = k.obj.described().and_then(|d| d.required_work_group_size);
    if let Some(l) = local {
        if l.contains(&0) || l.iter().any(|&x| x > q.obj.device.obj.max_work_group()) {
            return Err(why(CL_INVALID_WORK_ITEM_SIZE, || {
                format!(
                    "local size {l:?} has a zero or one above the device's {} work-items per dimension",
                    q.obj.device.obj.max_work_group()
                )
            }));
        }
        let total: usize = l.iter().product();
        if total > k.obj.max_group(&q.obj.device.obj) {
            return Err(why(CL_INVALID_WORK_GROUP_SIZE, || {
                format!(
                    "local size {l:?} is {total} work-items, above the kernel's CL_KERNEL_WORK_GROUP_SIZE {}",
                    k.obj.max_group(&q.obj.device.obj)
                )
            }));
        }
        let uniform = k
            .obj
            .program
            .obj
            .device_index(&q.obj.device)
            .and_then(|d| k.obj.uniform_groups.get(d))
            .is_some_and(|&u| u);
        if uniform && global.iter().zip(l).any(|(g, l)| g % l != 0) {
            return Err(why(CL_INVALID_WORK_GROUP_SIZE, || {
                format!(
                    "the program was built with -cl-uniform-work-group-size and global size \
                     {global:?} is not a multiple of local size {l:?}"
                )
            }));
        }
        if let Some(r) = required {
            let mut padded = [1u32; 3];
            for (d, v) in l.iter().enumerate() {
                padded[d] = *v as u32;
            }
            if padded != r {
                return Err(why(CL_INVALID_WORK_GROUP_SIZE, || {
                    format!(
                        "local size {l:?} differs from the kernel's reqd_work_group_size({}, {}, {})",
                        r[0], r[1], r[2]
                    )
                }));
            }
        }
    }
    let (args, mems) = k.obj.enqueued_args()?;
    let resident = k.obj.usm_resident(
        &q.obj.context.obj.usm,
        &q.obj.device,
        &crate::core::usm::user(&q),
    )?;
    if mems
        .iter()
        .any(|m| !Arc::ptr_eq(&m.obj.device, &q.obj.device))
    {
        return Err(why(CL_INVALID_OPERATION, || {
            "a buffer argument lives on another device than the queue's".into()
        }));
    }
    // OpenCL 2.1+: a zero global size runs nothing.
    let empty = global.contains(&0);
    let u32s = |v: &[usize]| {
        let mut out = [0u32; 3];
        for (o, &x) in out.iter_mut().zip(v) {
            *o = x as u32;
        }
        out
    };
    let (g32, o32) = (u32s(global), offset.map_or([0; 3], u32s));
    let l32 = local.map(u32s);
    let work = if empty {
        Work::Nothing
    } else {
        Work::Kernel(KernelRun {
            kernel: k.clone(),
            range: nd_range(
                &k.obj,
                &q.obj.device.obj,
                uk,
                &g32[..dims],
                l32.as_ref().map(|l| &l[..dims]),
                &o32[..dims],
            )?,
            args,
            mems,
            resident,
        })
    };
    // A GPU fault or hang fails the event and reaches the context's callback.
    Ok(Command::new(&q, CL_COMMAND_NDRANGE_KERNEL, false, work))
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
        let ranges = (global_work_offset, global_work_size, local_work_size);
        // SAFETY: the application's arrays of work_dim elements (or NULL).
        unsafe { ndrange(queue, kernel, work_dim, ranges) }
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
