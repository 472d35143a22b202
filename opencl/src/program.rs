//! Programs from OpenCL C source and SPIR-V (compiled in process by libocloc) and from device
//! binaries; the build log, build cache and binaries.

use std::collections::{BTreeMap, HashMap};
use std::ffi::{c_char, c_void, CStr};
use std::sync::{Arc, LazyLock, Mutex};

use opencl_sys::*;

use crate::api::entry::entry;
use crate::compiler;
use crate::context::Context;
use crate::device::Device;
use crate::handle::{ClObject, Handle, Kind};
use crate::info::{self, Info};
use crate::spirv;

/// What a program was created from.
pub enum Origin {
    Source(String),
    Il(Vec<u8>),
    Binary,
}

/// One device's build.
#[derive(Clone)]
pub struct Build {
    pub status: cl_build_status,
    pub options: String,
    pub log: String,
    /// The device binary (ocloc's output, or what the application gave).
    pub binary: Option<Arc<Vec<u8>>>,
    pub kernels: Vec<String>,
    /// clGetKernelArgInfo may answer: the application built with `-cl-kernel-arg-info` (a
    /// program from a binary answers only when the binary carries the information too). Our
    /// builds from source and IL always carry it, because clSetKernelArg needs each by-value
    /// argument's declared size, so the option alone decides what the application sees.
    pub arg_info: bool,
    /// A compiled object or library (clCompileProgram, clLinkProgram `-create-library`), in
    /// place of a device binary.
    pub ir: Option<Arc<crate::link::Ir>>,
}

impl Build {
    pub(crate) fn none() -> Build {
        Build {
            status: CL_BUILD_NONE,
            options: String::new(),
            log: String::new(),
            binary: None,
            kernels: Vec::new(),
            arg_info: false,
            ir: None,
        }
    }

    /// An executable for its device: a device binary, built or given.
    pub fn executable(&self) -> bool {
        self.status == CL_BUILD_SUCCESS && self.binary.is_some()
    }

    /// What CL_PROGRAM_BINARIES holds for the device: the device binary or the IR.
    pub fn program_binary(&self) -> Option<&[u8]> {
        self.binary
            .as_deref()
            .map(|b| b.as_slice())
            .or(self.ir.as_ref().map(|ir| ir.binary.as_slice()))
    }
}

/// The build option asking the compiler for argument metadata (names, qualifiers and
/// `type;size` strings).
const ARG_INFO_OPTION: &str = "-cl-kernel-arg-info";

/// Whether the application's options ask for argument information.
fn asks_arg_info(options: &str) -> bool {
    options.split_whitespace().any(|w| w == ARG_INFO_OPTION)
}

pub struct Program {
    pub context: Arc<Handle<Context>>,
    pub devices: Vec<Arc<Handle<Device>>>,
    pub origin: Origin,
    /// Per device (in `devices` order).
    pub builds: Mutex<Vec<Build>>,
    /// Kernel objects alive (a program with kernels cannot be rebuilt).
    pub kernels_alive: std::sync::atomic::AtomicUsize,
    /// Specialization constant values set for an IL program's next build, by SpecId.
    pub spec_values: Mutex<BTreeMap<u32, Vec<u8>>>,
    /// Per device, the program-scope data its kernels share (with the binary it came from): one
    /// copy of each `global` variable per program and device, kept until the program is rebuilt.
    shared: Mutex<Vec<Option<SharedData>>>,
}

type SharedData = (Arc<Vec<u8>>, Arc<umd::segments::ProgramData>);

impl ClObject for Program {
    const KIND: Kind = Kind::Program;
    const INVALID: cl_int = CL_INVALID_PROGRAM;
}

impl Program {
    pub fn builds(&self) -> std::sync::MutexGuard<'_, Vec<Build>> {
        self.builds.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn device_index(&self, d: &Arc<Handle<Device>>) -> Option<usize> {
        self.devices.iter().position(|x| Arc::ptr_eq(x, d))
    }

    /// This program's IL `il` as the compiler takes it: a version the devices report, with the
    /// specialization constant values set so far.
    pub fn il_for_compiler(&self, il: &[u8]) -> Result<Vec<u8>, String> {
        let (major, minor) = spirv::version(il).map_err(|e| e.to_string())?;
        if !crate::device::SPIRV_VERSIONS.contains(&(major, minor)) {
            return Err(format!(
                "the module is SPIR-V {major}.{minor}, a version the device does not take \
                 (CL_DEVICE_IL_VERSION)"
            ));
        }
        let values = self.spec_values.lock().unwrap_or_else(|e| e.into_inner());
        spirv::specialize(il, &values).map_err(|e| e.to_string())
    }

    /// The parsed `binary` of device `k` and the data its kernels share.
    pub fn shared_data(
        &self,
        k: usize,
        binary: &Arc<Vec<u8>>,
    ) -> Result<(umd::program::Program, Arc<umd::segments::ProgramData>), cl_int> {
        let prog = umd::program::parse(binary).map_err(|_| CL_INVALID_PROGRAM_EXECUTABLE)?;
        let mut shared = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        if shared.len() <= k {
            shared.resize(k + 1, None);
        }
        let data = match &shared[k] {
            Some((b, d)) if Arc::ptr_eq(b, binary) => d.clone(),
            _ => {
                let d = umd::segments::ProgramData::of(&prog);
                shared[k] = Some((binary.clone(), d.clone()));
                d
            }
        };
        Ok((prog, data))
    }

    /// Forgets the program-scope data of device `k` (its program is being rebuilt).
    fn forget_data(&self, k: usize) {
        if let Some(s) = self
            .shared
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(k)
        {
            *s = None;
        }
    }
}

/// Whether `options` ask for OpenCL C 3.0 or later (`-cl-std=CL3.0`): then the compiler is
/// told the device's OpenCL C features too (NEO does the same).
pub(crate) fn asks_opencl_c_3(options: &str) -> bool {
    options.split_whitespace().any(|w| {
        w.strip_prefix("-cl-std=CL")
            .and_then(|v| v.split('.').next())
            .and_then(|major| major.parse::<u32>().ok())
            .is_some_and(|major| major >= 3)
    })
}

/// Compiler results by (input, options and internal options, ocloc device, SPIR-V?).
type CacheKey = (Vec<u8>, String, &'static str, bool);
/// (succeeded, log, binary).
type Compiled = (bool, String, Option<Arc<Vec<u8>>>);
static CACHE: LazyLock<Mutex<HashMap<CacheKey, Compiled>>> = LazyLock::new(Default::default);

/// Compiles `input` for `device` with `options`: (succeeded, log, binary).
fn compile(
    device: &Device,
    input: &[u8],
    spirv: bool,
    options: &str,
) -> (bool, String, Option<Arc<Vec<u8>>>) {
    let target = device.umd.platform().ocloc_device();
    // OpenCL C's macros and built-ins follow what the device reports; SPIR-V is compiled already.
    let internal = if spirv {
        String::new()
    } else {
        device.compiler_extensions(asks_opencl_c_3(options))
    };
    let key = (
        input.to_vec(),
        format!("{options}\0{internal}"),
        target,
        spirv,
    );
    if let Some(hit) = CACHE.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return hit.clone();
    }
    let name = if spirv { "program.spv" } else { "program.cl" };
    // -q: libocloc prints its messages to the application's stdout unless quiet; they still
    // come back as the stdout.log output.
    let mut args = vec![
        "-q",
        "-file",
        name,
        "-device",
        target,
        "-output",
        "program",
        "-output_no_suffix",
    ];
    if spirv {
        args.push("-spirv_input");
    }
    // Always with argument metadata: the declared size of every by-value argument (IGC widens
    // char/short ones to 4-byte payload slots) decides what clSetKernelArg accepts.
    let options = if asks_arg_info(options) {
        options.to_string()
    } else {
        format!("{options} {ARG_INFO_OPTION}")
    };
    args.extend(["-options", options.trim()]);
    if !internal.is_empty() {
        args.extend(["-internal_options", &internal]);
    }
    // ocloc reads an OpenCL C source as a C string.
    let mut data = input.to_vec();
    if !spirv {
        data.push(0);
    }
    let result = match compiler::invoke(&args, name, &data) {
        Err(e) => (false, e, None),
        Ok(out) => {
            let binary = out
                .files
                .into_iter()
                .find(|(n, _)| n == "program" || n == "program.bin")
                .map(|(_, b)| Arc::new(b));
            match (out.status, binary) {
                (0, Some(b)) => (true, out.log, Some(b)),
                (0, None) => (
                    false,
                    format!("{}\nocloc produced no device binary", out.log),
                    None,
                ),
                (_, _) => (false, out.log, None),
            }
        }
    };
    CACHE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, result.clone());
    result
}

/// The kernel names of a binary for `device`, or why it is not one.
pub(crate) fn check_binary(device: &Device, bytes: &[u8]) -> Result<Vec<String>, String> {
    let prog = umd::program::parse(bytes).map_err(|e| e.to_string())?;
    // ocloc names the target in every binary it makes (patch tokens: GFXCORE_FAMILY, zebin:
    // PRODUCT_FAMILY); one naming another platform, or none of ours, is not this device's.
    match prog.platform {
        Some(p) if p == device.umd.platform() => {}
        Some(p) => {
            return Err(format!(
                "the binary is for {p}, the device is {}",
                device.umd.platform()
            ))
        }
        None => {
            return Err(format!(
                "the binary names no platform this runtime knows; the device is {}",
                device.umd.platform()
            ))
        }
    }
    Ok(prog.kernels.iter().map(|k| k.name.clone()).collect())
}

pub(crate) fn create(
    context: Arc<Handle<Context>>,
    devices: Vec<Arc<Handle<Device>>>,
    origin: Origin,
    builds: Vec<Build>,
) -> cl_program {
    Handle::create(Program {
        context,
        devices,
        origin,
        builds: Mutex::new(builds),
        kernels_alive: Default::default(),
        spec_values: Default::default(),
        shared: Default::default(),
    })
    .0
}

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
        let n = c.obj.devices.len();
        Ok(create(
            c.clone(),
            c.obj.devices.clone(),
            Origin::Source(source),
            vec![Build::none(); n],
        ))
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
        let n = c.obj.devices.len();
        Ok(create(
            c.clone(),
            c.obj.devices.clone(),
            Origin::Il(bytes),
            vec![Build::none(); n],
        ))
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
        let r = (|| {
            let p = Handle::<Program>::get(program)?;
            let Origin::Il(il) = &p.obj.origin else {
                return Err(CL_INVALID_PROGRAM);
            };
            if spec_value.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            spirv::check(il, spec_id, spec_size).map_err(|e| match e {
                spirv::SpirvError::UnknownId(_) => CL_INVALID_SPEC_ID,
                _ => CL_INVALID_VALUE,
            })?;
            // SAFETY: the application's `spec_size` bytes at spec_value.
            let value = unsafe { std::slice::from_raw_parts(spec_value as *const u8, spec_size) };
            p.obj
                .spec_values
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(spec_id, value.to_vec());
            Ok(())
        })();
        r.map_or_else(|e| e, |()| CL_SUCCESS)
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
            // A compiled object or library (CL_PROGRAM_BINARIES of clCompileProgram's or
            // clLinkProgram -create-library's result, or bare SPIR-V).
            let target = d.obj.umd.platform().ocloc_device();
            let status = match crate::link::ir_from_binary(&bytes, target) {
                Ok(Some(ir)) => {
                    builds.push(Build {
                        ir: Some(Arc::new(ir)),
                        ..Build::none()
                    });
                    Some(CL_SUCCESS)
                }
                Ok(None) => None,
                Err(_) => {
                    all_ok = false;
                    builds.push(Build::none());
                    Some(CL_INVALID_BINARY)
                }
            };
            if let Some(status) = status {
                if !binary_status.is_null() {
                    // SAFETY: the application's array of num_devices statuses.
                    unsafe { *binary_status.add(k) = status };
                }
                continue;
            }
            let status = match check_binary(&d.obj, &bytes) {
                Ok(kernels) => {
                    builds.push(Build {
                        status: CL_BUILD_NONE,
                        options: String::new(),
                        log: String::new(),
                        binary: Some(Arc::new(bytes)),
                        kernels,
                        arg_info: false,
                        ir: None,
                    });
                    CL_SUCCESS
                }
                Err(_) => {
                    all_ok = false;
                    builds.push(Build::none());
                    CL_INVALID_BINARY
                }
            };
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

entry! {
    fn clRetainProgram(p: cl_program) -> cl_int {
        Handle::<Program>::retain(p)
    }
}

entry! {
    fn clReleaseProgram(p: cl_program) -> cl_int {
        Handle::<Program>::release(p)
    }
}

/// Builds `prog` for `devices` (all when `None`).
fn build(
    prog: &Program,
    devices: Option<Vec<Arc<Handle<Device>>>>,
    options: &str,
) -> Result<(), cl_int> {
    if prog.kernels_alive.load(std::sync::atomic::Ordering::SeqCst) > 0 {
        return Err(CL_INVALID_OPERATION);
    }
    let targets: Vec<usize> = match devices {
        None => (0..prog.devices.len()).collect(),
        Some(list) => list
            .iter()
            .map(|d| prog.device_index(d).ok_or(CL_INVALID_DEVICE))
            .collect::<Result<_, _>>()?,
    };
    let mut failed = false;
    for k in targets {
        prog.forget_data(k);
        let device = &prog.devices[k].obj;
        let (ok, log, binary) = match &prog.origin {
            Origin::Source(s) => compile(device, s.as_bytes(), false, options),
            Origin::Il(il) => match prog.il_for_compiler(il) {
                Ok(il) => compile(device, &il, true, options),
                Err(e) => (false, e, None),
            },
            Origin::Binary => {
                let b = prog.builds()[k].clone();
                match (b.binary, b.ir) {
                    (Some(b), _) => (true, String::new(), Some(b)),
                    // A compiled object or library given as a binary is linked alone into an
                    // executable.
                    (None, Some(ir)) => {
                        let built = crate::link::executable(device, &ir, options);
                        failed |= built.status != CL_BUILD_SUCCESS;
                        prog.builds()[k] = built;
                        continue;
                    }
                    (None, None) => return Err(CL_INVALID_BINARY),
                }
            }
        };
        let kernels = match &binary {
            Some(b) if ok => match check_binary(device, b) {
                Ok(k) => k,
                Err(e) => {
                    failed = true;
                    let mut builds = prog.builds();
                    builds[k] = Build {
                        status: CL_BUILD_ERROR,
                        options: options.into(),
                        log: format!("{log}\nthe compiled binary cannot be loaded: {e}"),
                        binary: None,
                        kernels: Vec::new(),
                        arg_info: false,
                        ir: None,
                    };
                    continue;
                }
            },
            _ => Vec::new(),
        };
        failed |= !ok;
        prog.builds()[k] = Build {
            status: if ok { CL_BUILD_SUCCESS } else { CL_BUILD_ERROR },
            options: options.into(),
            log,
            binary: if ok { binary } else { None },
            kernels,
            arg_info: asks_arg_info(options),
            ir: None,
        };
    }
    if failed {
        Err(CL_BUILD_PROGRAM_FAILURE)
    } else {
        Ok(())
    }
}

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
            if pfn_notify.is_none() && !user_data.is_null() {
                return Err(CL_INVALID_VALUE);
            }
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
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        let r = (|| {
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
                _ => return Err(CL_INVALID_VALUE),
            })
        })();
        // SAFETY: the application's buffers.
        unsafe { info::answer(r, param_value_size, param_value, param_value_size_ret) }
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
        crate::platform::check(platform).map_or_else(|e| e, |_| CL_SUCCESS)
    }
}
