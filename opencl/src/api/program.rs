//! The program entry points: creation from source, IL and binaries, builds, separate
//! compilation and linking (clCompileProgram, clLinkProgram), and the program queries
//! ([`crate::core::program`], [`crate::core::link`]).

use std::ffi::{c_char, c_void, CStr};
use std::sync::Arc;

use opencl_sys::*;

use crate::api::context::finish;
use crate::api::entry::{entry, retain_release};
use crate::api::info;
use crate::api::platform;
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::handle::Handle;
use crate::core::info::Info;
use crate::core::program::{
    binary_build, build, compile_objects, create, create_unbuilt, header, link, Origin, Program,
};

entry! {
    fn clCreateProgramWithSource(
        context: cl_context,
        count: cl_uint,
        strings: *mut *const c_char,
        lengths: *const usize,
    ) -> cl_program, errcode_ret {
        let c = Handle::<Context>::get(context)?;
        if count == 0 || strings.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let mut source = String::new();
        for k in 0..count as usize {
            // SAFETY: the application's array of `count` strings (and lengths, when given).
            let s = unsafe { *strings.add(k) };
            if s.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let len = if lengths.is_null() {
                0
            } else {
                // SAFETY: a non-NULL lengths array has `count` entries (clCreateProgramWithSource).
                unsafe { *lengths.add(k) }
            };
            let bytes = if len == 0 {
                // SAFETY: NUL-terminated when no length is given.
                unsafe { CStr::from_ptr(s) }.to_bytes()
            } else {
                // SAFETY: `len` bytes at s.
                unsafe { std::slice::from_raw_parts(s as *const u8, len) }
            };
            source.push_str(&String::from_utf8_lossy(bytes));
        }
        Ok(create_unbuilt(&c, Origin::Source(source)))
    }
}

entry! {
    fn clCreateProgramWithIL(
        context: cl_context,
        il: *const c_void,
        length: usize,
    ) -> cl_program, errcode_ret {
        let c = Handle::<Context>::get(context)?;
        if il.is_null() || length == 0 {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: `length` bytes at il.
        let bytes = unsafe { std::slice::from_raw_parts(il as *const u8, length) }.to_vec();
        // SPIR-V's magic number, in either byte order.
        if length < 20
            || !(bytes[..4] == [0x03, 0x02, 0x23, 0x07] || bytes[..4] == [0x07, 0x23, 0x02, 0x03])
        {
            return Err(CL_INVALID_VALUE);
        }
        Ok(create_unbuilt(&c, Origin::Il(bytes)))
    }
}

entry! {
    /// OpenCL 3.0: sets a SPIR-V specialization constant of an IL program for its next build; a
    /// later value for the same SpecId replaces an earlier one.
    fn clSetProgramSpecializationConstant(
        program: cl_program,
        spec_id: cl_uint,
        spec_size: usize,
        spec_value: *const c_void,
    ) -> cl_int {
        let p = match Handle::<Program>::get(program) {
            Ok(p) => p,
            Err(e) => return e,
        };
        // SAFETY: the application's `spec_size` bytes at spec_value (or NULL).
        unsafe { p.obj.set_spec_constant(spec_id, spec_size, spec_value) }
            .map_or_else(|e| e, |()| CL_SUCCESS)
    }
}

/// Devices named in a list, each of the context; `None` for an empty list.
///
/// # Safety
/// `list` NULL or `n` valid elements.
pub(crate) unsafe fn device_list(
    context: &Context,
    n: cl_uint,
    list: *const cl_device_id,
) -> Result<Option<Vec<Arc<Handle<Device>>>>, cl_int> {
    if (n == 0) != list.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    if n == 0 {
        return Ok(None);
    }
    // SAFETY: forwarded.
    let ids = unsafe { info::slice(list, n as usize) }?;
    let mut out = Vec::new();
    for id in ids {
        let d = Handle::<Device>::get(*id)?;
        if !context.has(&d) {
            return Err(CL_INVALID_DEVICE);
        }
        out.push(d);
    }
    Ok(Some(out))
}

entry! {
    fn clCreateProgramWithBinary(
        context: cl_context,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        lengths: *const usize,
        binaries: *mut *const u8,
        binary_status: *mut cl_int,
    ) -> cl_program, errcode_ret {
        let c = Handle::<Context>::get(context)?;
        if num_devices == 0 || device_list.is_null() || lengths.is_null() || binaries.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: the application's arrays of num_devices elements.
        let devices =
            unsafe { self::device_list(&c.obj, num_devices, device_list) }?.unwrap_or_default();
        let mut builds = Vec::new();
        let mut all_ok = true;
        for (k, d) in devices.iter().enumerate() {
            // SAFETY: as above.
            let (len, p) = unsafe { (*lengths.add(k), *binaries.add(k)) };
            if len == 0 || p.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: `len` bytes at p.
            let bytes = unsafe { std::slice::from_raw_parts(p, len) }.to_vec();
            let (build, status) = binary_build(&d.obj, bytes);
            all_ok &= status == CL_SUCCESS;
            builds.push(build);
            if !binary_status.is_null() {
                // SAFETY: the application's array of num_devices statuses.
                unsafe { *binary_status.add(k) = status };
            }
        }
        if !all_ok {
            return Err(CL_INVALID_BINARY);
        }
        Ok(create(c.clone(), devices, Origin::Binary, builds))
    }
}

retain_release!(clRetainProgram, clReleaseProgram, p: cl_program => Program);

entry! {
    fn clBuildProgram(
        program: cl_program,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        options: *const c_char,
        pfn_notify: Option<unsafe extern "C" fn(cl_program, *mut c_void)>,
        user_data: *mut c_void,
    ) -> cl_int {
        info::status(|| {
            let p = Handle::<Program>::get(program)?;
            info::notify_with_data(pfn_notify, user_data)?;
            // SAFETY: the application's device array.
            let devices = unsafe { self::device_list(&p.obj.context.obj, num_devices, device_list) }?;
            let options = if options.is_null() {
                String::new()
            } else {
                // SAFETY: a NUL-terminated option string.
                unsafe { CStr::from_ptr(options) }
                    .to_string_lossy()
                    .into_owned()
            };
            let r = build(&p.obj, devices, &options);
            if let Some(f) = pfn_notify {
                // SAFETY: the application's callback with its own data.
                unsafe { f(program, user_data) };
            }
            r
        })
    }
}

entry! {
    fn clGetProgramInfo(
        program: cl_program,
        param_name: cl_program_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        let p = match Handle::<Program>::get(program) {
            Ok(p) => p,
            Err(e) => return e,
        };
        let builds = p.obj.builds().clone();
        let built = builds
            .iter()
            .find(|b| b.status == CL_BUILD_SUCCESS || b.binary.is_some());
        if param_name == CL_PROGRAM_BINARIES {
            // An array of application pointers, one per device, each large enough.
            let n = builds.len();
            let need = n * std::mem::size_of::<*mut u8>();
            if !param_value.is_null() {
                if param_value_size < need {
                    return CL_INVALID_VALUE;
                }
                let ptrs = param_value as *const *mut u8;
                for (k, b) in builds.iter().enumerate() {
                    // SAFETY: the application's array of n pointers.
                    let dst = unsafe { *ptrs.add(k) };
                    if let (false, Some(bin)) = (dst.is_null(), b.program_binary()) {
                        // SAFETY: the application sized it from CL_PROGRAM_BINARY_SIZES.
                        unsafe { std::ptr::copy_nonoverlapping(bin.as_ptr(), dst, bin.len()) };
                    }
                }
            }
            if !param_value_size_ret.is_null() {
                // SAFETY: the application's pointer.
                unsafe { *param_value_size_ret = need };
            }
            return CL_SUCCESS;
        }
        let r = Ok(match param_name {
            CL_PROGRAM_REFERENCE_COUNT => Info::Uint(p.ref_count()),
            CL_PROGRAM_CONTEXT => Info::Ptr(p.obj.context.raw()),
            CL_PROGRAM_NUM_DEVICES => Info::Uint(p.obj.devices.len() as u32),
            CL_PROGRAM_DEVICES => Info::Ptrs(p.obj.devices.iter().map(|d| d.raw()).collect()),
            CL_PROGRAM_SOURCE => Info::Str(match &p.obj.origin {
                Origin::Source(s) => s.clone(),
                _ => String::new(),
            }),
            CL_PROGRAM_IL => Info::Bytes(match &p.obj.origin {
                Origin::Il(il) => il.clone(),
                _ => Vec::new(),
            }),
            CL_PROGRAM_BINARY_SIZES => Info::Sizes(
                builds
                    .iter()
                    .map(|b| b.program_binary().map_or(0, |b| b.len()))
                    .collect(),
            ),
            CL_PROGRAM_NUM_KERNELS | CL_PROGRAM_KERNEL_NAMES => {
                let Some(b) = built.filter(|b| b.executable()) else {
                    return CL_INVALID_PROGRAM_EXECUTABLE;
                };
                if param_name == CL_PROGRAM_NUM_KERNELS {
                    Info::Size(b.kernels.len())
                } else {
                    Info::Str(b.kernels.join(";"))
                }
            }
            CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT | CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT => {
                Info::Bool(false)
            }
            _ => return CL_INVALID_VALUE,
        });
        // SAFETY: the application's buffers.
        unsafe { info::answer(r, param_value_size, param_value, param_value_size_ret) }
    }
}

entry! {
    fn clGetProgramBuildInfo(
        program: cl_program,
        device: cl_device_id,
        param_name: cl_program_build_info,
    ) -> query {
        (|| {
            let p = Handle::<Program>::get(program)?;
            let d = Handle::<Device>::get(device)?;
            let k = p.obj.device_index(&d).ok_or(CL_INVALID_DEVICE)?;
            let b = p.obj.builds()[k].clone();
            Ok(match param_name {
                CL_PROGRAM_BUILD_STATUS => Info::Int(b.status),
                CL_PROGRAM_BUILD_OPTIONS => Info::Str(b.options),
                CL_PROGRAM_BUILD_LOG => Info::Str(b.log),
                CL_PROGRAM_BINARY_TYPE => Info::Uint(match (&b.binary, &b.ir) {
                    (Some(_), _) => CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
                    (None, Some(ir)) => ir.kind,
                    (None, None) => CL_PROGRAM_BINARY_TYPE_NONE,
                }),
                // The global-variable surface the program's kernels share on this device.
                CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE => Info::Size(
                    b.binary
                        .filter(|_| b.status == CL_BUILD_SUCCESS)
                        .and_then(|bin| umd::program::parse(&bin).ok())
                        .map_or(0, |p| p.global_data.len()),
                ),
                _ => return Err(crate::core::reason::unknown_query("program build", param_name)),
            })
        })()
    }
}

entry! {
    /// The compiler library stays loaded; unloading is a hint the specification lets us ignore.
    fn clUnloadCompiler() -> cl_int {
        CL_SUCCESS
    }
}

entry! {
    fn clUnloadPlatformCompiler(platform: cl_platform_id) -> cl_int {
        if platform.is_null() {
            return CL_INVALID_PLATFORM;
        }
        platform::check(platform).map_or_else(|e| e, |_| CL_SUCCESS)
    }
}

/// # Safety
/// `s` NULL or a NUL-terminated string.
unsafe fn options(s: *const c_char) -> String {
    if s.is_null() {
        String::new()
    } else {
        // SAFETY: forwarded.
        unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned()
    }
}

entry! {
    fn clCompileProgram(
        program: cl_program,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        options: *const c_char,
        num_input_headers: cl_uint,
        input_headers: *const cl_program,
        header_include_names: *mut *const c_char,
        pfn_notify: Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>,
        user_data: *mut c_void,
    ) -> cl_int {
        info::status(|| {
            let p = Handle::<Program>::get(program)?;
            info::notify_with_data(pfn_notify, user_data)?;
            if (num_input_headers == 0) != (input_headers.is_null() && header_include_names.is_null())
                || (num_input_headers != 0
                    && (input_headers.is_null() || header_include_names.is_null()))
            {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: the application's device array.
            let devices = unsafe { self::device_list(&p.obj.context.obj, num_devices, device_list) }?;
            let targets = p.obj.targets(devices)?;
            // SAFETY: the application's arrays of num_input_headers elements.
            let (progs, names) = unsafe {
                (
                    info::slice(input_headers, num_input_headers as usize)?,
                    info::slice(
                        header_include_names as *const *const c_char,
                        num_input_headers as usize,
                    )?,
                )
            };
            let mut headers = Vec::new();
            for (h, n) in progs.iter().zip(names) {
                let h = Handle::<Program>::get(*h)?;
                if n.is_null() {
                    return Err(CL_INVALID_VALUE);
                }
                // SAFETY: a NUL-terminated include name.
                let name = unsafe { CStr::from_ptr(*n) }.to_string_lossy().into_owned();
                headers.push(header(&h.obj, name)?);
            }
            // SAFETY: the application's option string.
            let opts = unsafe { self::options(options) };
            let all_ok = compile_objects(&p.obj, &targets, &opts, &headers)?;
            if let Some(f) = pfn_notify {
                // SAFETY: the application's callback with its own data.
                unsafe { f(program, user_data) };
            }
            if all_ok {
                Ok(())
            } else {
                Err(CL_COMPILE_PROGRAM_FAILURE)
            }
        })
    }
}

entry! {
    fn clLinkProgram(
        context: cl_context,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        options: *const c_char,
        num_input_programs: cl_uint,
        input_programs: *const cl_program,
        pfn_notify: Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>,
        user_data: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> cl_program {
        let r = info::guard(Err(CL_OUT_OF_HOST_MEMORY), || {
            let c = Handle::<Context>::get(context)?;
            info::notify_with_data(pfn_notify, user_data)?;
            if num_input_programs == 0 || input_programs.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: the application's device array.
            let devices = unsafe { self::device_list(&c.obj, num_devices, device_list) }?
                .unwrap_or_else(|| c.obj.devices.clone());
            // SAFETY: the application's array of num_input_programs programs.
            let inputs = unsafe { info::slice(input_programs, num_input_programs as usize) }?
                .iter()
                .map(|p| Handle::<Program>::get(*p))
                .collect::<Result<Vec<_>, _>>()?;
            // SAFETY: the application's option string.
            let text = unsafe { self::options(options) };
            let (program, failed) = link(&c, devices, &inputs, &text)?;
            if let Some(f) = pfn_notify {
                // SAFETY: the application's callback with its own data.
                unsafe { f(program, user_data) };
            }
            Ok((program, failed))
        });
        match r {
            Ok((program, failed)) => {
                // SAFETY: the application's errcode pointer (or NULL).
                unsafe {
                    info::set_err(
                        errcode_ret,
                        if failed {
                            CL_LINK_PROGRAM_FAILURE
                        } else {
                            CL_SUCCESS
                        },
                    )
                };
                program
            }
            // SAFETY: as above.
            Err(e) => unsafe { finish(Err(e), errcode_ret) },
        }
    }
}
