//! Separate compilation: `clCompileProgram` turns OpenCL C (with its input headers) into a
//! compiled object, SPIR-V made by libocloc's `-spv_only`; `clLinkProgram` joins compiled
//! objects and libraries with `ocloc link` (SPIR-V or LLVM bitcode in, LLVM bitcode out) into a
//! library (`-create-library`) or, compiled by ocloc from that bitcode (`-llvm_input`), into an
//! executable. ocloc's link resolves nothing itself, so the names each module imports and
//! exports (SPIR-V LinkageAttributes) are tracked here and an executable whose imports are not
//! all defined fails to link. CL_PROGRAM_BINARIES of an object or library is a container
//! ([`crate::binary`]) carrying those names and the device, so clCreateProgramWithBinary takes
//! it back into clLinkProgram or clBuildProgram.

use std::collections::{BTreeSet, HashMap};
use std::ffi::{c_char, c_void, CStr};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use opencl_sys::*;

use crate::api::entry::entry;
use crate::binary::{BinaryError, Container, Payload};
use crate::compiler;
use crate::context::{finish, Context};
use crate::device::Device;
use crate::handle::Handle;
use crate::info;
use crate::program::{check_binary, create, device_list, Build, Origin, Program};

/// A compiled object (SPIR-V) or a library (LLVM bitcode) for one device.
pub struct Ir {
    /// CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT or CL_PROGRAM_BINARY_TYPE_LIBRARY.
    pub kind: cl_program_binary_type,
    /// The SPIR-V or bitcode ocloc takes.
    pub bytes: Vec<u8>,
    /// Functions and variables it defines for other modules.
    pub exports: BTreeSet<String>,
    /// Functions and variables it uses and does not define.
    pub imports: BTreeSet<String>,
    /// What CL_PROGRAM_BINARIES gives for it: the self-describing container (`binary`).
    pub binary: Vec<u8>,
}

impl Ir {
    /// The IR for the device ocloc calls `target`, with its container.
    pub fn new(
        kind: cl_program_binary_type,
        payload: Payload,
        bytes: Vec<u8>,
        exports: BTreeSet<String>,
        imports: BTreeSet<String>,
        target: &str,
    ) -> Ir {
        let container = Container {
            kind,
            payload,
            target: target.to_string(),
            exports,
            imports,
            bytes,
        };
        let binary = container.encode();
        Ir {
            kind,
            bytes: container.bytes,
            exports: container.exports,
            imports: container.imports,
            binary,
        }
    }

    /// A compiled object from SPIR-V, its linkage read from the module.
    pub fn object(spirv: Vec<u8>, target: &str) -> Result<Ir, String> {
        let (exports, imports) = linkage(&spirv)?;
        Ok(Ir::new(
            CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
            Payload::SpirV,
            spirv,
            exports,
            imports,
            target,
        ))
    }
}

/// SPIR-V: the magic number, the opcodes and decorations read here (SPIR-V specification 3.x).
const SPIRV_MAGIC: u32 = 0x0723_0203;
const OP_DECORATE: u32 = 71;
const DECORATION_BUILT_IN: u32 = 11;
const DECORATION_LINKAGE_ATTRIBUTES: u32 = 41;
const LINKAGE_EXPORT: u32 = 0;
const LINKAGE_IMPORT: u32 = 1;

/// The names a SPIR-V module exports and imports; built-in variables (decorated BuiltIn,
/// provided by the device) are not imports.
pub fn linkage(spirv: &[u8]) -> Result<(BTreeSet<String>, BTreeSet<String>), String> {
    if spirv.len() < 20 || !spirv.len().is_multiple_of(4) {
        return Err("not a SPIR-V module (size)".into());
    }
    let le: Vec<u32> = spirv
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let words: Vec<u32> = match le[0] {
        SPIRV_MAGIC => le,
        m if m.swap_bytes() == SPIRV_MAGIC => le.iter().map(|w| w.swap_bytes()).collect(),
        _ => return Err("not a SPIR-V module (magic number)".into()),
    };
    let mut built_in = BTreeSet::new();
    let mut linked: Vec<(u32, String, u32)> = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let opcode = words[at] & 0xffff;
        if count == 0 || at + count > words.len() {
            return Err(format!("truncated SPIR-V instruction at word {at}"));
        }
        let ops = &words[at + 1..at + count];
        if opcode == OP_DECORATE && ops.len() >= 2 {
            match ops[1] {
                DECORATION_BUILT_IN => {
                    built_in.insert(ops[0]);
                }
                DECORATION_LINKAGE_ATTRIBUTES if ops.len() >= 4 => {
                    let bytes: Vec<u8> = ops[2..ops.len() - 1]
                        .iter()
                        .flat_map(|w| w.to_le_bytes())
                        .collect();
                    let name = bytes.split(|b| *b == 0).next().unwrap_or_default();
                    linked.push((
                        ops[0],
                        String::from_utf8_lossy(name).into_owned(),
                        ops[ops.len() - 1],
                    ));
                }
                _ => {}
            }
        }
        at += count;
    }
    let mut exports = BTreeSet::new();
    let mut imports = BTreeSet::new();
    for (id, name, kind) in linked {
        match kind {
            LINKAGE_EXPORT => {
                exports.insert(name);
            }
            LINKAGE_IMPORT if !built_in.contains(&id) => {
                imports.insert(name);
            }
            _ => {}
        }
    }
    Ok((exports, imports))
}

/// A compiled object or library given back by the application (clCreateProgramWithBinary)
/// for the device ocloc calls `target`: our container (`binary`) for that device, or bare
/// SPIR-V (taken as a compiled object, as clCreateProgramWithIL would take it); `Ok(None)` for
/// anything else (a device binary, perhaps).
pub fn ir_from_binary(bytes: &[u8], target: &str) -> Result<Option<Ir>, BinaryError> {
    if bytes.starts_with(&crate::binary::MAGIC) {
        let c = Container::decode_for(bytes, target)?;
        if c.payload == Payload::SpirV {
            // The module must agree with the linkage the header claims.
            match linkage(&c.bytes) {
                Ok((e, i)) if e == c.exports && i == c.imports => {}
                _ => return Err(BinaryError::PayloadBytes(Payload::SpirV)),
            }
        }
        return Ok(Some(Ir {
            kind: c.kind,
            bytes: c.bytes,
            exports: c.exports,
            imports: c.imports,
            binary: bytes.to_vec(),
        }));
    }
    Ok(Ir::object(bytes.to_vec(), target).ok())
}

/// A private directory holding the input headers under their include names; removed on drop.
struct HeaderDir(PathBuf);

impl Drop for HeaderDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes `headers` (include name, text) into a new directory only this user can read.
fn header_dir(headers: &[(String, String)]) -> Result<HeaderDir, cl_int> {
    use std::os::unix::fs::DirBuilderExt;
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let path = std::env::temp_dir().join(format!(
        "intel-gpu-opencl-headers-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    ));
    // The path goes into ocloc's option string, which splits at white space.
    if path.to_string_lossy().contains(char::is_whitespace) {
        return Err(CL_OUT_OF_RESOURCES);
    }
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(&path)
        .map_err(|_| CL_OUT_OF_RESOURCES)?;
    let dir = HeaderDir(path);
    for (name, text) in headers {
        let file = dir.0.join(name);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent).map_err(|_| CL_OUT_OF_RESOURCES)?;
        }
        std::fs::write(&file, text).map_err(|_| CL_OUT_OF_RESOURCES)?;
    }
    Ok(dir)
}

/// An include name stays inside the header directory: relative, no `..`, not empty.
fn valid_include_name(name: &str) -> bool {
    !name.is_empty()
        && Path::new(name)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// Compiles OpenCL C `source` for `device` into SPIR-V: (log, the object or nothing).
fn compile_object(device: &Device, source: &str, options: &str) -> (String, Option<Ir>) {
    let target = device.umd.platform().ocloc_device();
    let mut args = vec![
        "-q",
        "-file",
        "object.cl",
        "-device",
        target,
        "-spv_only",
        "-output",
        "object",
        "-output_no_suffix",
    ];
    if !options.trim().is_empty() {
        args.extend(["-options", options]);
    }
    let internal = device.compiler_extensions(crate::program::asks_opencl_c_3(options));
    args.extend(["-internal_options", &internal]);
    let mut data = source.as_bytes().to_vec();
    data.push(0);
    match compiler::invoke(&args, "object.cl", &data) {
        Err(e) => (e, None),
        Ok(out) => {
            let spv = out.files.into_iter().find(|(n, _)| n == "object.spv");
            match (out.status, spv) {
                (0, Some((_, bytes))) => match Ir::object(bytes, target) {
                    Ok(ir) => (out.log, Some(ir)),
                    Err(e) => (
                        format!("{}\nocloc's SPIR-V is unreadable: {e}", out.log),
                        None,
                    ),
                },
                (0, None) => (format!("{}\nocloc produced no SPIR-V", out.log), None),
                _ => (out.log, None),
            }
        }
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
            if pfn_notify.is_none() && !user_data.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            if (num_input_headers == 0) != (input_headers.is_null() && header_include_names.is_null())
                || (num_input_headers != 0
                    && (input_headers.is_null() || header_include_names.is_null()))
            {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: the application's device array.
            let devices = unsafe { self::device_list(&p.obj.context.obj, num_devices, device_list) }?;
            let targets: Vec<usize> = match devices {
                None => (0..p.obj.devices.len()).collect(),
                Some(list) => list
                    .iter()
                    .map(|d| p.obj.device_index(d).ok_or(CL_INVALID_DEVICE))
                    .collect::<Result<_, _>>()?,
            };
            let mut headers = Vec::new();
            if num_input_headers != 0 {
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
                for (h, n) in progs.iter().zip(names) {
                    let h = Handle::<Program>::get(*h)?;
                    if n.is_null() {
                        return Err(CL_INVALID_VALUE);
                    }
                    // SAFETY: a NUL-terminated include name.
                    let name = unsafe { CStr::from_ptr(*n) }.to_string_lossy().into_owned();
                    if !valid_include_name(&name) {
                        return Err(CL_INVALID_VALUE);
                    }
                    let Origin::Source(text) = &h.obj.origin else {
                        return Err(CL_INVALID_OPERATION);
                    };
                    headers.push((name, text.clone()));
                }
            }
            if p.obj.kernels_alive.load(Ordering::SeqCst) > 0 {
                return Err(CL_INVALID_OPERATION);
            }
            // SAFETY: the application's option string.
            let opts = unsafe { self::options(options) };
            let result: Vec<(bool, String, Option<Arc<Ir>>)> = match &p.obj.origin {
                Origin::Binary => return Err(CL_INVALID_OPERATION),
                Origin::Il(il) => targets
                    .iter()
                    .map(|k| {
                        // The IL, specialized, is the compiled object, labelled with each device.
                        let target = p.obj.devices[*k].obj.umd.platform().ocloc_device();
                        match p
                            .obj
                            .il_for_compiler(il)
                            .and_then(|il| Ir::object(il, target))
                        {
                            Ok(ir) => (true, String::new(), Some(Arc::new(ir))),
                            Err(e) => (false, e, None),
                        }
                    })
                    .collect(),
                Origin::Source(source) => {
                    let dir = header_dir(&headers)?;
                    let full = format!("{opts} -I {}", dir.0.display());
                    // SPIR-V differs by device only through its macros: one compile per target.
                    let mut by_target: HashMap<&str, (bool, String, Option<Arc<Ir>>)> = HashMap::new();
                    targets
                        .iter()
                        .map(|k| {
                            let d = &p.obj.devices[*k].obj;
                            by_target
                                .entry(d.umd.platform().ocloc_device())
                                .or_insert_with(|| {
                                    let (log, ir) = compile_object(d, source, &full);
                                    (ir.is_some(), log, ir.map(Arc::new))
                                })
                                .clone()
                        })
                        .collect()
                }
            };
            let mut failed = false;
            {
                let mut builds = p.obj.builds();
                for (k, (ok, log, ir)) in targets.iter().zip(result) {
                    failed |= !ok;
                    builds[*k] = Build {
                        status: if ok { CL_BUILD_SUCCESS } else { CL_BUILD_ERROR },
                        options: opts.clone(),
                        ir,
                        log,
                        ..Build::none()
                    };
                }
            }
            if let Some(f) = pfn_notify {
                // SAFETY: the application's callback with its own data.
                unsafe { f(program, user_data) };
            }
            if failed {
                Err(CL_COMPILE_PROGRAM_FAILURE)
            } else {
                Ok(())
            }
        })
    }
}

/// clLinkProgram's options (OpenCL 3.0 API 5.8.6.4, 5.8.6.5).
struct LinkOptions {
    library: bool,
    /// The math options passed on to the compile of the executable.
    math: Vec<String>,
}

fn link_options(s: &str) -> Result<LinkOptions, cl_int> {
    let mut o = LinkOptions {
        library: false,
        math: Vec::new(),
    };
    let mut enable = false;
    for t in s.split_whitespace() {
        match t {
            "-create-library" => o.library = true,
            "-enable-link-options" => enable = true,
            "-cl-denorms-are-zero"
            | "-cl-no-signed-zeros"
            | "-cl-unsafe-math-optimizations"
            | "-cl-finite-math-only"
            | "-cl-fast-relaxed-math"
            | "-cl-no-subgroup-ifp" => o.math.push(t.to_string()),
            _ => return Err(CL_INVALID_LINKER_OPTIONS),
        }
    }
    if enable && !o.library {
        return Err(CL_INVALID_LINKER_OPTIONS);
    }
    Ok(o)
}

/// Links `inputs` for `device`: the build (status, log, library or executable).
fn link_device(device: &Device, inputs: &[Arc<Ir>], opts: &LinkOptions, text: &str) -> Build {
    let fail = |log: String| Build {
        status: CL_BUILD_ERROR,
        options: text.into(),
        log,
        ..Build::none()
    };
    let mut exports = BTreeSet::new();
    let mut imports = BTreeSet::new();
    for ir in inputs {
        for e in &ir.exports {
            if !exports.insert(e.clone()) {
                return fail(format!("error: `{e}` is defined by more than one input"));
            }
        }
        imports.extend(ir.imports.iter().cloned());
    }
    let unresolved: Vec<String> = imports.difference(&exports).cloned().collect();
    if !opts.library && !unresolved.is_empty() {
        return fail(format!(
            "error: undefined symbols: {}",
            unresolved.join(", ")
        ));
    }
    let names: Vec<String> = inputs
        .iter()
        .enumerate()
        .map(|(k, ir)| match ir.kind {
            CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT => format!("input{k}.spv"),
            _ => format!("input{k}.bc"),
        })
        .collect();
    let mut args = vec!["link"];
    for n in &names {
        args.extend(["-file", n.as_str()]);
    }
    args.extend(["-out", "linked.bc"]);
    let files: Vec<(&str, &[u8])> = names
        .iter()
        .zip(inputs)
        .map(|(n, ir)| (n.as_str(), ir.bytes.as_slice()))
        .collect();
    let bitcode = match compiler::invoke_files(&args, &files) {
        Err(e) => return fail(e),
        Ok(out) => match (
            out.status,
            out.files.into_iter().find(|(n, _)| n == "linked.bc"),
        ) {
            (0, Some((_, b))) => b,
            _ => return fail(format!("{}\nocloc link failed", out.log)),
        },
    };
    if opts.library {
        return Build {
            status: CL_BUILD_SUCCESS,
            options: text.into(),
            ir: Some(Arc::new(Ir::new(
                CL_PROGRAM_BINARY_TYPE_LIBRARY,
                Payload::LlvmBitcode,
                bitcode,
                exports,
                unresolved.into_iter().collect(),
                device.umd.platform().ocloc_device(),
            ))),
            ..Build::none()
        };
    }
    let math = opts.math.join(" ");
    let mut args = vec![
        "-q",
        "-file",
        "linked.bc",
        "-llvm_input",
        "-device",
        device.umd.platform().ocloc_device(),
        "-output",
        "program",
        "-output_no_suffix",
    ];
    if !math.is_empty() {
        args.extend(["-options", &math]);
    }
    let out = match compiler::invoke(&args, "linked.bc", &bitcode) {
        Err(e) => return fail(e),
        Ok(out) => out,
    };
    let binary = out.files.into_iter().find(|(n, _)| n == "program");
    match (out.status, binary) {
        (0, Some((_, b))) => match check_binary(device, &b) {
            Ok(kernels) => Build {
                status: CL_BUILD_SUCCESS,
                options: text.into(),
                log: out.log,
                binary: Some(Arc::new(b)),
                kernels,
                ir: None,
                // The linked SPIR-V carries no argument metadata: clGetKernelArgInfo answers
                // CL_KERNEL_ARG_INFO_NOT_AVAILABLE, and by-value sizes are checked against
                // the payload slot only.
                arg_info: false,
            },
            Err(e) => fail(format!(
                "{}\nthe linked binary cannot be loaded: {e}",
                out.log
            )),
        },
        _ => fail(format!(
            "{}\nocloc could not compile the linked program",
            out.log
        )),
    }
}

/// clBuildProgram of a compiled object or library given as a binary: linked alone; the math
/// options among `options` go on to the compiler.
pub fn executable(device: &Device, ir: &Arc<Ir>, options: &str) -> Build {
    let math = options
        .split_whitespace()
        .filter(|t| link_options(t).is_ok_and(|o| !o.math.is_empty()))
        .map(String::from)
        .collect();
    link_device(
        device,
        std::slice::from_ref(ir),
        &LinkOptions {
            library: false,
            math,
        },
        options,
    )
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
            if pfn_notify.is_none() && !user_data.is_null() {
                return Err(CL_INVALID_VALUE);
            }
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
            if inputs.iter().any(|p| !Arc::ptr_eq(&p.obj.context, &c)) {
                return Err(CL_INVALID_CONTEXT);
            }
            // SAFETY: the application's option string.
            let text = unsafe { self::options(options) };
            let opts = link_options(&text)?;
            // Per device: every input has a compiled object or library for it, or none has (and
            // the device gets no link); anything else is the application's error.
            let mut per_device: Vec<Option<Vec<Arc<Ir>>>> = Vec::new();
            for d in &devices {
                let irs: Vec<Option<Arc<Ir>>> = inputs
                    .iter()
                    .map(|p| {
                        p.obj.device_index(d).and_then(|k| {
                            // Compiled or linked (SUCCESS), or given as a binary (NONE).
                            let b = &p.obj.builds()[k];
                            b.ir.clone().filter(|_| b.status != CL_BUILD_ERROR)
                        })
                    })
                    .collect();
                per_device.push(match irs.iter().filter(|i| i.is_some()).count() {
                    0 => None,
                    n if n == irs.len() => Some(irs.into_iter().flatten().collect()),
                    _ => return Err(CL_INVALID_OPERATION),
                });
            }
            if per_device.iter().all(Option::is_none) {
                return Err(CL_INVALID_OPERATION);
            }
            let builds: Vec<Build> = devices
                .iter()
                .zip(&per_device)
                .map(|(d, irs)| match irs {
                    Some(irs) => link_device(&d.obj, irs, &opts, &text),
                    None => Build::none(),
                })
                .collect();
            let failed = builds.iter().any(|b| b.status == CL_BUILD_ERROR);
            let program = create(c.clone(), devices, Origin::Binary, builds);
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
