//! One device's build of a program: its status, log and binary, and how OpenCL C source and
//! SPIR-V are compiled for a device by libocloc (with a cache of results) and device binaries
//! checked.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use opencl_sys::*;

use crate::compiler;
use crate::compiler::link::Ir;
use crate::core::device::Device;

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
    pub ir: Option<Arc<Ir>>,
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
pub fn asks_arg_info(options: &str) -> bool {
    options.split_whitespace().any(|w| w == ARG_INFO_OPTION)
}

/// Whether `options` ask for OpenCL C 3.0 or later (`-cl-std=CL3.0`): then the compiler is
/// told the device's OpenCL C features too (NEO does the same).
pub fn asks_opencl_c_3(options: &str) -> bool {
    options.split_whitespace().any(|w| {
        w.strip_prefix("-cl-std=CL")
            .and_then(|v| v.split('.').next())
            .and_then(|major| major.parse::<u32>().ok())
            .is_some_and(|major| major >= 3)
    })
}

/// What a program's input to the compiler is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Input {
    OpenClC,
    SpirV,
    /// LLVM bitcode: a SPIR 1.2 binary (cl_khr_spir), which ocloc takes as `-llvm_input`.
    Spir,
}

impl Input {
    /// The file name ocloc is given and its input-format option.
    fn file_and_flag(self) -> (&'static str, Option<&'static str>) {
        match self {
            Input::OpenClC => ("program.cl", None),
            Input::SpirV => ("program.spv", Some("-spirv_input")),
            Input::Spir => ("program.bc", Some("-llvm_input")),
        }
    }
}

/// Compiler results by (input, options and internal options, ocloc device, input kind).
type CacheKey = (Vec<u8>, String, &'static str, Input);
/// (succeeded, log, binary).
type Compiled = (bool, String, Option<Arc<Vec<u8>>>);
static CACHE: LazyLock<Mutex<HashMap<CacheKey, Compiled>>> = LazyLock::new(Default::default);

/// Compiles `input` (of kind `kind`) for `device` with `options`: (succeeded, log, binary).
pub fn compile(
    device: &Device,
    input: &[u8],
    kind: Input,
    options: &str,
) -> (bool, String, Option<Arc<Vec<u8>>>) {
    let target = device.umd.platform().ocloc_device();
    // OpenCL C's macros and built-ins follow what the device reports; IL is compiled already.
    let internal = if kind == Input::OpenClC {
        device.compiler_extensions(asks_opencl_c_3(options))
    } else {
        String::new()
    };
    let key = (
        input.to_vec(),
        format!("{options}\0{internal}"),
        target,
        kind,
    );
    if let Some(hit) = CACHE.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return hit.clone();
    }
    let (name, flag) = kind.file_and_flag();
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
    args.extend(flag);
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
    if kind == Input::OpenClC {
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

/// The kernel names of an executable binary for `device`, or why it cannot run there: not
/// a binary for the device ([`device_binary`]), or a kernel calling a function nothing in the
/// program defines (an OpenCL C declaration without a body). Intel's runtime refuses the
/// latter when it links the program; so does this one, at build and link.
pub fn check_binary(device: &Device, bytes: &[u8]) -> Result<Vec<String>, String> {
    let prog = device_binary(device, bytes)?;
    let unresolved: Vec<String> = prog
        .kernels
        .iter()
        .flat_map(|k| {
            k.unresolved()
                .map(move |r| format!("error: unresolved {r} in kernel `{}`", k.name))
        })
        .collect();
    if !unresolved.is_empty() {
        return Err(unresolved.join("\n"));
    }
    Ok(prog.kernels.iter().map(|k| k.name.clone()).collect())
}

/// The parsed binary, when it is one for `device`, or why it is not.
pub fn device_binary(device: &Device, bytes: &[u8]) -> Result<umd::program::Program, String> {
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
    Ok(prog)
}
