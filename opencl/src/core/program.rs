//! Programs: what each was created from (OpenCL C source, SPIR-V, device binaries), their
//! per-device builds (clBuildProgram, and separate compilation and linking: clCompileProgram,
//! clLinkProgram, whose compiler runs are in [`crate::core::link`]), and the program-scope data
//! their kernels share.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use opencl_sys::*;

use crate::compiler::link::{ir_from_binary, Ir};
use crate::compiler::spirv;
use crate::core::build::{asks_arg_info, check_binary, compile, device_binary, Build, Input};
use crate::core::context::Context;
use crate::core::device::{Device, SPIRV_ACCEPTED};
use crate::core::handle::{ClObject, Handle, Kind};
use crate::core::link::{
    compile_object, executable, header_dir, link_device, link_options, valid_include_name,
};
use crate::core::reason::why;

/// What a program was created from.
pub enum Origin {
    Source(String),
    Il(Vec<u8>),
    Binary,
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

    /// The kernels of the program's executable (its first device's build that succeeded),
    /// or CL_INVALID_PROGRAM_EXECUTABLE when no build did (clCreateKernelsInProgram).
    pub fn kernel_names(&self) -> Result<Vec<String>, cl_int> {
        self.builds()
            .iter()
            .find(|b| b.executable())
            .map(|b| b.kernels.clone())
            .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)
    }

    pub fn device_index(&self, d: &Arc<Handle<Device>>) -> Option<usize> {
        self.devices.iter().position(|x| Arc::ptr_eq(x, d))
    }

    /// This program's IL `il` as the compiler takes it: a version it compiles
    /// (`SPIRV_ACCEPTED`), with the specialization constant values set so far.
    pub fn il_for_compiler(&self, il: &[u8]) -> Result<Vec<u8>, String> {
        let (major, minor) = spirv::version(il).map_err(|e| e.to_string())?;
        if !SPIRV_ACCEPTED.contains(&(major, minor)) {
            return Err(format!(
                "the module is SPIR-V {major}.{minor}; the compiler takes SPIR-V 1.0 to 1.4"
            ));
        }
        let values = self.spec_values.lock().unwrap_or_else(|e| e.into_inner());
        spirv::specialize(il, &values).map_err(|e| e.to_string())
    }

    /// The indices of `devices` (all when `None`) among the program's, or CL_INVALID_DEVICE.
    pub fn targets(&self, devices: Option<Vec<Arc<Handle<Device>>>>) -> Result<Vec<usize>, cl_int> {
        match devices {
            None => Ok((0..self.devices.len()).collect()),
            Some(list) => list
                .iter()
                .map(|d| self.device_index(d).ok_or(CL_INVALID_DEVICE))
                .collect(),
        }
    }

    /// Sets a SPIR-V specialization constant of an IL program for its next build; a later
    /// value for the same SpecId replaces an earlier one.
    ///
    /// # Safety
    /// `value` NULL or `size` readable bytes.
    pub unsafe fn set_spec_constant(
        &self,
        spec_id: u32,
        size: usize,
        value: *const std::ffi::c_void,
    ) -> Result<(), cl_int> {
        let Origin::Il(il) = &self.origin else {
            return Err(CL_INVALID_PROGRAM);
        };
        if value.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        spirv::check(il, spec_id, size).map_err(|e| match e {
            spirv::SpirvError::UnknownId(_) => CL_INVALID_SPEC_ID,
            _ => CL_INVALID_VALUE,
        })?;
        // SAFETY: the caller's `size` bytes at value.
        let value = unsafe { std::slice::from_raw_parts(value as *const u8, size) };
        self.spec_values
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(spec_id, value.to_vec());
        Ok(())
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

/// A program of `context`'s devices made from source or IL, not yet built.
pub(crate) fn create_unbuilt(context: &Arc<Handle<Context>>, origin: Origin) -> cl_program {
    let builds = vec![Build::none(); context.obj.devices.len()];
    create(context.clone(), context.obj.devices.clone(), origin, builds)
}

/// The build of a device binary given to clCreateProgramWithBinary for `device`, with its
/// status: a compiled object or library (CL_PROGRAM_BINARIES of clCompileProgram's or
/// clLinkProgram -create-library's result, or bare SPIR-V), or an executable for the device.
pub fn binary_build(device: &Device, bytes: Vec<u8>) -> (Build, cl_int) {
    match ir_from_binary(&bytes, device.umd.platform().ocloc_device()) {
        Ok(Some(ir)) => {
            let build = Build {
                ir: Some(Arc::new(ir)),
                ..Build::none()
            };
            (build, CL_SUCCESS)
        }
        // An executable is checked for what it links against when it is built.
        Ok(None) => match device_binary(device, &bytes) {
            Ok(prog) => {
                let kernels = prog.kernels.iter().map(|k| k.name.clone()).collect();
                let build = Build {
                    status: CL_BUILD_NONE,
                    options: String::new(),
                    log: String::new(),
                    binary: Some(Arc::new(bytes)),
                    kernels,
                    arg_info: false,
                    ir: None,
                };
                (build, CL_SUCCESS)
            }
            Err(e) => (
                Build::none(),
                why(CL_INVALID_BINARY, || {
                    format!("not an executable for this device: {e}")
                }),
            ),
        },
        Err(e) => (
            Build::none(),
            why(CL_INVALID_BINARY, || {
                format!("not a program for this device: {e}")
            }),
        ),
    }
}

/// Builds `prog` for `devices` (all when `None`).
pub fn build(
    prog: &Program,
    devices: Option<Vec<Arc<Handle<Device>>>>,
    options: &str,
) -> Result<(), cl_int> {
    if prog.kernels_alive.load(std::sync::atomic::Ordering::SeqCst) > 0 {
        return Err(CL_INVALID_OPERATION);
    }
    let targets = prog.targets(devices)?;
    let mut failed = false;
    for k in targets {
        prog.forget_data(k);
        let device = &prog.devices[k].obj;
        // A SPIR binary stays the program's, built or not, for later builds and queries.
        let spir = match prog.origin {
            Origin::Binary => prog.builds()[k]
                .ir
                .clone()
                .filter(|ir| ir.kind == CL_PROGRAM_BINARY_TYPE_INTERMEDIATE),
            _ => None,
        };
        let (ok, log, binary) = match &prog.origin {
            Origin::Source(s) => compile(device, s.as_bytes(), Input::OpenClC, options),
            Origin::Il(il) => match prog.il_for_compiler(il) {
                Ok(il) => compile(device, &il, Input::SpirV, options),
                Err(e) => (false, e, None),
            },
            Origin::Binary => {
                let b = prog.builds()[k].clone();
                match (b.binary, b.ir) {
                    (Some(b), _) => (true, String::new(), Some(b)),
                    // A SPIR binary (cl_khr_spir) is compiled like SPIR-V; NEO does not insist
                    // on `-x spir`, whose absence the extension leaves implementation-defined,
                    // and neither does this runtime.
                    (None, Some(ir)) if ir.kind == CL_PROGRAM_BINARY_TYPE_INTERMEDIATE => {
                        compile(device, &ir.bytes, Input::Spir, options)
                    }
                    // A compiled object or library given as a binary is linked alone into an
                    // executable.
                    (None, Some(ir)) => {
                        let built = executable(device, &ir, options);
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
                        ir: spir,
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
            ir: spir,
        };
    }
    if failed {
        Err(why(CL_BUILD_PROGRAM_FAILURE, || {
            // The log's first error line names the cause (CL_PROGRAM_BUILD_LOG has it all).
            let builds = prog.builds();
            let log = builds
                .iter()
                .find(|b| b.status == CL_BUILD_ERROR)
                .map_or("", |b| b.log.as_str());
            let line = log
                .lines()
                .find(|l| l.contains("error"))
                .or_else(|| log.lines().find(|l| !l.trim().is_empty()))
                .unwrap_or("(empty build log)");
            format!("the build failed; the build log says: {}", line.trim())
        }))
    } else {
        Ok(())
    }
}

/// An input header of clCompileProgram: its include name and text (`h` made from source).
pub fn header(h: &Program, name: String) -> Result<(String, String), cl_int> {
    if !valid_include_name(&name) {
        return Err(CL_INVALID_VALUE);
    }
    let Origin::Source(text) = &h.origin else {
        return Err(CL_INVALID_OPERATION);
    };
    Ok((name, text.clone()))
}

/// clCompileProgram: compiles `prog`'s source or IL for the devices `targets` (indices) into
/// compiled objects, with `headers` (include name, text) for its `#include`s. Whether every
/// compile succeeded, or why none was tried.
pub fn compile_objects(
    prog: &Program,
    targets: &[usize],
    options: &str,
    headers: &[(String, String)],
) -> Result<bool, cl_int> {
    if prog.kernels_alive.load(std::sync::atomic::Ordering::SeqCst) > 0 {
        return Err(CL_INVALID_OPERATION);
    }
    let result: Vec<(bool, String, Option<Arc<Ir>>)> = match &prog.origin {
        Origin::Binary => return Err(CL_INVALID_OPERATION),
        Origin::Il(il) => targets
            .iter()
            .map(|k| {
                // The IL, specialized, is the compiled object, labelled with each device.
                let target = prog.devices[*k].obj.umd.platform().ocloc_device();
                match prog
                    .il_for_compiler(il)
                    .and_then(|il| Ir::object(il, target))
                {
                    Ok(ir) => (true, String::new(), Some(Arc::new(ir))),
                    Err(e) => (false, e, None),
                }
            })
            .collect(),
        Origin::Source(source) => {
            // The input headers go in a private directory ocloc searches; none: no directory.
            let dir = if headers.is_empty() {
                None
            } else {
                Some(header_dir(headers)?)
            };
            // SPIR-V differs by device only through its macros: one compile per target.
            let mut by_target: HashMap<&str, (bool, String, Option<Arc<Ir>>)> = HashMap::new();
            targets
                .iter()
                .map(|k| {
                    let d = &prog.devices[*k].obj;
                    by_target
                        .entry(d.umd.platform().ocloc_device())
                        .or_insert_with(|| {
                            let (log, ir) = compile_object(
                                d,
                                source,
                                options,
                                dir.as_ref().map(|dir| (dir, headers)),
                            );
                            (ir.is_some(), log, ir.map(Arc::new))
                        })
                        .clone()
                })
                .collect()
        }
    };
    let mut builds = prog.builds();
    let mut all_ok = true;
    for (k, (ok, log, ir)) in targets.iter().zip(result) {
        all_ok &= ok;
        builds[*k] = Build {
            status: if ok { CL_BUILD_SUCCESS } else { CL_BUILD_ERROR },
            options: options.to_string(),
            ir,
            log,
            ..Build::none()
        };
    }
    Ok(all_ok)
}

/// clLinkProgram: links the compiled objects and libraries `inputs` of `context` for `devices`
/// with the options `text`: the new program and whether a device's link failed.
pub fn link(
    context: &Arc<Handle<Context>>,
    devices: Vec<Arc<Handle<Device>>>,
    inputs: &[Arc<Handle<Program>>],
    text: &str,
) -> Result<(cl_program, bool), cl_int> {
    if inputs.iter().any(|p| !Arc::ptr_eq(&p.obj.context, context)) {
        return Err(CL_INVALID_CONTEXT);
    }
    let opts = link_options(text)?;
    // Per device: every input has a compiled object or library for it, or none has (and the
    // device gets no link); anything else is the application's error.
    let mut per_device: Vec<Option<Vec<Arc<Ir>>>> = Vec::new();
    for d in &devices {
        let irs: Vec<Option<Arc<Ir>>> = inputs
            .iter()
            .map(|p| {
                p.obj.device_index(d).and_then(|k| {
                    // Compiled or linked (SUCCESS), or given as a binary (NONE).
                    let b = &p.obj.builds()[k];
                    // A SPIR binary is not linked (only clBuildProgram takes it).
                    b.ir.clone().filter(|ir| {
                        b.status != CL_BUILD_ERROR && ir.kind != CL_PROGRAM_BINARY_TYPE_INTERMEDIATE
                    })
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
            Some(irs) => link_device(&d.obj, irs, &opts, text),
            None => Build::none(),
        })
        .collect();
    let failed = builds.iter().any(|b| b.status == CL_BUILD_ERROR);
    Ok((
        create(context.clone(), devices, Origin::Binary, builds),
        failed,
    ))
}
