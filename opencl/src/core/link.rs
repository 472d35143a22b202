//! Separate compilation for a device: `clCompileProgram` turns OpenCL C (with its input
//! headers) into a compiled object, SPIR-V made by libocloc's `-spv_only`; `clLinkProgram`
//! joins compiled objects and libraries with `ocloc link` (SPIR-V or LLVM bitcode in, LLVM
//! bitcode out) into a library (`-create-library`) or, compiled by ocloc from that bitcode
//! (`-llvm_input`), into an executable. ocloc's link resolves nothing itself, so the names each
//! module imports and exports (SPIR-V LinkageAttributes, [`crate::compiler::link`]) are tracked
//! and an executable whose imports are not all defined fails to link.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use opencl_sys::*;

use crate::compiler;
use crate::compiler::binary::Payload;
use crate::compiler::link::Ir;
use crate::core::build::{asks_opencl_c_3, check_binary, Build};
use crate::core::device::Device;

/// A private directory holding the input headers under their include names; removed on drop.
pub struct HeaderDir(pub PathBuf);

impl Drop for HeaderDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes `headers` (include name, text) into a new directory only this user can read.
pub fn header_dir(headers: &[(String, String)]) -> Result<HeaderDir, cl_int> {
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
pub fn valid_include_name(name: &str) -> bool {
    !name.is_empty()
        && Path::new(name)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// Compiles OpenCL C `source` for `device` into SPIR-V: (log, the object or nothing). `headers`
/// is the directory of clCompileProgram's input headers and what it holds, searched for its
/// `#include`s; the compiler cache knows the compile by the headers' names and texts (the
/// directory's path is new each time).
pub fn compile_object(
    device: &Device,
    source: &str,
    options: &str,
    headers: Option<(&HeaderDir, &[(String, String)])>,
) -> (String, Option<Ir>) {
    let target = device.umd.platform().ocloc_device();
    let internal = device.compiler_extensions(asks_opencl_c_3(options));
    // What ocloc is given, and what the cache knows the compile by: the headers' directory is
    // new each time, so the key names it by a fixed word and holds the headers themselves.
    const HEADERS: &str = "<input headers>";
    let (run_options, key_options) = match headers {
        None => (options.to_string(), options.to_string()),
        Some((dir, _)) => (
            format!("{options} -I {}", dir.0.display()),
            format!("{options} -I {HEADERS}"),
        ),
    };
    let names: Vec<String> = headers
        .map_or(&[][..], |(_, h)| h)
        .iter()
        .map(|(name, _)| format!("{HEADERS}/{name}"))
        .collect();
    let key_inputs: Vec<(&str, &[u8])> = headers
        .map_or(&[][..], |(_, h)| h)
        .iter()
        .zip(&names)
        .map(|((_, text), name)| (name.as_str(), text.as_bytes()))
        .collect();
    let mut data = source.as_bytes().to_vec();
    data.push(0);
    let args = object_args(target, &run_options, &internal);
    let key_args = object_args(target, &key_options, &internal);
    match compiler::invoke_keyed(&args, &[("object.cl", &data)], &key_args, &key_inputs) {
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

/// ocloc's arguments for a compile of `object.cl` into SPIR-V for `target`.
fn object_args<'a>(target: &'a str, options: &'a str, internal: &'a str) -> Vec<&'a str> {
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
    args.extend(["-internal_options", internal]);
    args
}

/// clLinkProgram's options (OpenCL 3.0 API 5.8.6.4, 5.8.6.5).
pub struct LinkOptions {
    library: bool,
    /// The math options passed on to the compile of the executable.
    math: Vec<String>,
}

pub fn link_options(s: &str) -> Result<LinkOptions, cl_int> {
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
pub fn link_device(device: &Device, inputs: &[Arc<Ir>], opts: &LinkOptions, text: &str) -> Build {
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
