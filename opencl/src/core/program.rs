//! Programs: what each was created from (OpenCL C source, SPIR-V, device binaries), their
//! per-device builds, and the program-scope data their kernels share.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use opencl_sys::*;

use crate::compiler::spirv;
use crate::core::build::{asks_arg_info, check_binary, compile, Build};
use crate::core::context::Context;
use crate::core::device::{Device, SPIRV_VERSIONS};
use crate::core::handle::{ClObject, Handle, Kind};
use crate::core::link::executable;

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

    pub fn device_index(&self, d: &Arc<Handle<Device>>) -> Option<usize> {
        self.devices.iter().position(|x| Arc::ptr_eq(x, d))
    }

    /// This program's IL `il` as the compiler takes it: a version the devices report, with the
    /// specialization constant values set so far.
    pub fn il_for_compiler(&self, il: &[u8]) -> Result<Vec<u8>, String> {
        let (major, minor) = spirv::version(il).map_err(|e| e.to_string())?;
        if !SPIRV_VERSIONS.contains(&(major, minor)) {
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

/// Builds `prog` for `devices` (all when `None`).
pub fn build(
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
