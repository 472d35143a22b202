//! The conformance corpus through Intel's own OpenCL runtime (NEO 22.43, Debian
//! `intel-opencl-icd`, i915 only) on the simulator: the same OpenCL C source and build options
//! ocloc compiles for the umd runs, built by NEO in process (clCreateProgramWithSource +
//! clBuildProgram), run with the same inputs and checked against the same references.
//!
//! The test runs itself again under the simulator's preload shim (`sim-shim`) for skl, icllp, tgllp
//! and dg2 via i915, each child with `OCL_ICD_VENDORS` naming a `.icd` file that holds NEO
//! alone; no NEO debug key is set. The corpus is the hand-written one and the generated cross
//! product (`conformance::generate`). By default a slice runs: every [`EVERY`]th instance of
//! each file (the first, then every EVERY-th after it, in file order: deterministic), at
//! SIMD 8, 16 and 32. `NEO_FULL=1` runs the whole of both (about 9,000 cases per platform);
//! `CONFORMANCE_FILTER` narrows cases as elsewhere. The OpenCL API is reached through the ocl-icd loader (`libOpenCL.so.1`),
//! opened with dlopen so that nothing else in the workspace links it.

use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::ptr::{null, null_mut};

use conformance::case::{Arg, Case};
use conformance::compile::Compiler;
use conformance::runner::{Binary, Runner};
use libloading::Library;
use opencl_sys::*;
use oracles::ocloc::Format;
use platform::Platform;

/// Where Debian's intel-opencl-icd installs NEO.
const NEO: &str = "/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so";

/// The child's marker: the `INTEL_GPU_SIM` value it runs under.
const CHILD: &str = "CONFORMANCE_NEO_CHILD";

/// The marker of a child that runs the same cases through umd's render-node path under the
/// same shim: the other side of a side-by-side capture (`scripts/batch-diff-case`).
const UMD_CHILD: &str = "CONFORMANCE_NEO_UMD_CHILD";

/// Every how many instances of a file the default slice takes.
const EVERY: usize = 8;

/// NEO 22.43 drives i915 only. The flag: whether the run reaches the end (every platform does
/// since the simulator takes a scratch message's slice from the thread's dispatch, not from its
/// header, where IGC's spill code puts data; the fidelity list in `firmware-notes/simulator.md`
/// has the history). The test fails when that changes.
const UNDER_SHIM: [(&str, Platform, bool); 4] = [
    ("skl@i915", Platform::Skl, true),
    ("icllp@i915", Platform::Icllp, true),
    ("tgllp@i915", Platform::Tgllp, true),
    ("dg2@i915", Platform::Dg2, true),
];

macro_rules! api {
    ($($f:ident: ($($a:ty),*) -> $r:ty),* $(,)?) => {
        /// The OpenCL entry points the runner calls, from the ICD loader (named as in C).
        #[allow(non_snake_case)]
        struct Api {
            _lib: Library,
            $($f: unsafe extern "C" fn($($a),*) -> $r,)*
        }

        impl Api {
            #[allow(non_snake_case)]
            fn load() -> Result<Api, String> {
                // SAFETY: loading the system's ocl-icd loader, whose initialisers only read
                // its configuration (OCL_ICD_VENDORS).
                let lib = unsafe { Library::new("libOpenCL.so.1") }.map_err(|e| e.to_string())?;
                $(
                    // SAFETY: the symbol is the Khronos entry point of that name, and the
                    // field's type is its prototype from the Khronos headers (opencl-sys).
                    let $f = unsafe {
                        lib.get::<unsafe extern "C" fn($($a),*) -> $r>(concat!(stringify!($f), "\0").as_bytes())
                    }
                    .map(|s| *s)
                    .map_err(|e| e.to_string())?;
                )*
                Ok(Api { _lib: lib, $($f,)* })
            }
        }
    };
}

// The prototypes, as the Khronos headers declare them.
api! {
    clGetPlatformIDs: (cl_uint, *mut cl_platform_id, *mut cl_uint) -> cl_int,
    clGetDeviceIDs: (cl_platform_id, cl_device_type, cl_uint, *mut cl_device_id, *mut cl_uint) -> cl_int,
    clGetDeviceInfo: (cl_device_id, cl_device_info, usize, *mut c_void, *mut usize) -> cl_int,
    clCreateContext: (*const cl_context_properties, cl_uint, *const cl_device_id, *const c_void, *mut c_void, *mut cl_int) -> cl_context,
    clCreateCommandQueue: (cl_context, cl_device_id, cl_command_queue_properties, *mut cl_int) -> cl_command_queue,
    clCreateProgramWithSource: (cl_context, cl_uint, *const *const i8, *const usize, *mut cl_int) -> cl_program,
    clBuildProgram: (cl_program, cl_uint, *const cl_device_id, *const i8, *const c_void, *mut c_void) -> cl_int,
    clGetProgramBuildInfo: (cl_program, cl_device_id, cl_program_build_info, usize, *mut c_void, *mut usize) -> cl_int,
    clCreateKernel: (cl_program, *const i8, *mut cl_int) -> cl_kernel,
    clSetKernelArg: (cl_kernel, cl_uint, usize, *const c_void) -> cl_int,
    clCreateBuffer: (cl_context, cl_mem_flags, usize, *mut c_void, *mut cl_int) -> cl_mem,
    clCreateImage: (cl_context, cl_mem_flags, *const cl_image_format, *const cl_image_desc, *mut c_void, *mut cl_int) -> cl_mem,
    clEnqueueNDRangeKernel: (cl_command_queue, cl_kernel, cl_uint, *const usize, *const usize, *const usize, cl_uint, *const cl_event, *mut cl_event) -> cl_int,
    clEnqueueReadBuffer: (cl_command_queue, cl_mem, cl_bool, usize, usize, *mut c_void, cl_uint, *const cl_event, *mut cl_event) -> cl_int,
    clEnqueueReadImage: (cl_command_queue, cl_mem, cl_bool, *const usize, *const usize, usize, usize, *mut c_void, cl_uint, *const cl_event, *mut cl_event) -> cl_int,
    clFinish: (cl_command_queue) -> cl_int,
    clReleaseMemObject: (cl_mem) -> cl_int,
    clReleaseKernel: (cl_kernel) -> cl_int,
    clReleaseProgram: (cl_program) -> cl_int,
    clReleaseCommandQueue: (cl_command_queue) -> cl_int,
    clReleaseContext: (cl_context) -> cl_int,
}

fn check(what: &str, err: cl_int) -> Result<(), String> {
    if err == CL_SUCCESS {
        Ok(())
    } else {
        Err(format!("{what}: OpenCL error {err}"))
    }
}

/// The OpenCL image format of an `intel-gpu-run` format name the corpus uses.
fn image_format(name: &str) -> Result<cl_image_format, String> {
    let (order, ty) = match name {
        "r8ui" => (CL_R, CL_UNSIGNED_INT8),
        "r16ui" => (CL_R, CL_UNSIGNED_INT16),
        "r32ui" => (CL_R, CL_UNSIGNED_INT32),
        "rgba8ui" => (CL_RGBA, CL_UNSIGNED_INT8),
        other => return Err(format!("image format {other} has no OpenCL mapping here")),
    };
    Ok(cl_image_format {
        image_channel_order: order,
        image_channel_data_type: ty,
    })
}

/// A memory object the runner made for one case, released when the case ends.
struct Mem<'a> {
    api: &'a Api,
    mem: cl_mem,
    size: usize,
    image: Option<[usize; 2]>,
}

impl Drop for Mem<'_> {
    fn drop(&mut self) {
        // SAFETY: `mem` is a live object this runner created and releases once.
        unsafe { (self.api.clReleaseMemObject)(self.mem) };
    }
}

/// NEO's first GPU device through the loader: one context and in-order queue for every case,
/// each binary's source built once and each kernel created once.
struct Neo {
    api: Api,
    device: cl_device_id,
    context: cl_context,
    queue: cl_command_queue,
    programs: HashMap<PathBuf, cl_program>,
    kernels: HashMap<(PathBuf, String), cl_kernel>,
}

impl Neo {
    fn new() -> Result<Neo, String> {
        let api = Api::load()?;
        let mut platform: cl_platform_id = null_mut();
        let mut device: cl_device_id = null_mut();
        let mut err = 0;
        // SAFETY: out-pointers to locals of the types the prototypes name; the context and
        // queue are checked for errors before use and released in Drop.
        let (context, queue) = unsafe {
            check(
                "clGetPlatformIDs",
                (api.clGetPlatformIDs)(1, &mut platform, null_mut()),
            )?;
            check(
                "clGetDeviceIDs",
                (api.clGetDeviceIDs)(platform, CL_DEVICE_TYPE_GPU, 1, &mut device, null_mut()),
            )?;
            let context = (api.clCreateContext)(null(), 1, &device, null(), null_mut(), &mut err);
            check("clCreateContext", err)?;
            let queue = (api.clCreateCommandQueue)(context, device, 0, &mut err);
            if let Err(e) = check("clCreateCommandQueue", err) {
                (api.clReleaseContext)(context);
                return Err(e);
            }
            (context, queue)
        };
        Ok(Neo {
            api,
            device,
            context,
            queue,
            programs: HashMap::new(),
            kernels: HashMap::new(),
        })
    }

    fn device_name(&self) -> String {
        let mut name = [0u8; 256];
        // SAFETY: the buffer's size is passed; NEO writes a NUL-terminated string into it.
        let err = unsafe {
            (self.api.clGetDeviceInfo)(
                self.device,
                CL_DEVICE_NAME,
                name.len(),
                name.as_mut_ptr().cast(),
                null_mut(),
            )
        };
        if err != CL_SUCCESS {
            return format!("(clGetDeviceInfo: {err})");
        }
        let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
        String::from_utf8_lossy(&name[..end]).into_owned()
    }

    fn program(&mut self, bin: &Binary) -> Result<cl_program, String> {
        if let Some(p) = self.programs.get(&bin.path) {
            return Ok(*p);
        }
        let src = CString::new(bin.source.as_str()).map_err(|e| e.to_string())?;
        let opts = CString::new(bin.options.as_str()).map_err(|e| e.to_string())?;
        let mut err = 0;
        let ptr = src.as_ptr();
        // SAFETY: one NUL-terminated source string (length NULL: up to the NUL); the program
        // is released in Drop once stored, or here when its build fails.
        let program = unsafe {
            let p = (self.api.clCreateProgramWithSource)(self.context, 1, &ptr, null(), &mut err);
            check("clCreateProgramWithSource", err)?;
            let built =
                (self.api.clBuildProgram)(p, 1, &self.device, opts.as_ptr(), null(), null_mut());
            if built != CL_SUCCESS {
                let log = self.build_log(p);
                (self.api.clReleaseProgram)(p);
                return Err(format!("clBuildProgram: OpenCL error {built}: {log}"));
            }
            p
        };
        self.programs.insert(bin.path.clone(), program);
        Ok(program)
    }

    /// The last lines of NEO's build log for `p`.
    ///
    /// # Safety
    /// `p` is a live program of this runner's context.
    unsafe fn build_log(&self, p: cl_program) -> String {
        let mut log = vec![0u8; 1 << 16];
        let mut len = 0usize;
        (self.api.clGetProgramBuildInfo)(
            p,
            self.device,
            CL_PROGRAM_BUILD_LOG,
            log.len(),
            log.as_mut_ptr().cast(),
            &mut len,
        );
        let text = String::from_utf8_lossy(&log[..len.min(log.len())]);
        let lines: Vec<&str> = text.trim_end_matches('\0').trim().lines().collect();
        lines[lines.len().saturating_sub(4)..].join(" | ")
    }

    fn kernel(&mut self, bin: &Binary, name: &str) -> Result<cl_kernel, String> {
        let key = (bin.path.clone(), name.to_string());
        if let Some(k) = self.kernels.get(&key) {
            return Ok(*k);
        }
        let program = self.program(bin)?;
        let cname = CString::new(name).map_err(|e| e.to_string())?;
        let mut err = 0;
        // SAFETY: a live built program and a NUL-terminated kernel name; released in Drop.
        let k = unsafe { (self.api.clCreateKernel)(program, cname.as_ptr(), &mut err) };
        check(&format!("clCreateKernel {name}"), err)?;
        self.kernels.insert(key, k);
        Ok(k)
    }

    fn memory(&self, a: &Arg) -> Result<Option<Mem<'_>>, String> {
        let mut err = 0;
        let flags = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;
        match a {
            Arg::Buf(b) => {
                let mut bytes = b.clone();
                bytes.resize(b.len().max(4), 0);
                // SAFETY: COPY_HOST_PTR reads `bytes.len()` bytes from the vector during the
                // call.
                let mem = unsafe {
                    (self.api.clCreateBuffer)(
                        self.context,
                        flags,
                        bytes.len(),
                        bytes.as_mut_ptr().cast(),
                        &mut err,
                    )
                };
                check("clCreateBuffer", err)?;
                Ok(Some(Mem {
                    api: &self.api,
                    mem,
                    size: b.len(),
                    image: None,
                }))
            }
            Arg::Image {
                width,
                height,
                format,
                bytes,
            } => {
                let f = image_format(format)?;
                let (w, h) = (*width as usize, *height as usize);
                // SAFETY: an all-zero cl_image_desc is a valid (empty) description.
                let mut desc: cl_image_desc = unsafe { std::mem::zeroed() };
                desc.image_type = CL_MEM_OBJECT_IMAGE2D;
                desc.image_width = w;
                desc.image_height = h;
                let mut rows = bytes.clone();
                // SAFETY: COPY_HOST_PTR reads width × height packed elements (row pitch 0:
                // packed) from `rows`, which holds them, during the call.
                let mem = unsafe {
                    (self.api.clCreateImage)(
                        self.context,
                        flags,
                        &f,
                        &desc,
                        rows.as_mut_ptr().cast(),
                        &mut err,
                    )
                };
                check("clCreateImage", err)?;
                Ok(Some(Mem {
                    api: &self.api,
                    mem,
                    size: bytes.len(),
                    image: Some([w, h]),
                }))
            }
            Arg::U32(_) | Arg::I32(_) | Arg::Bytes(_) => Ok(None),
        }
    }

    fn run_case(&mut self, bin: &Binary, case: &Case) -> Result<Vec<Vec<u8>>, String> {
        let kernel = self.kernel(bin, &case.kernel)?;
        let mems = case
            .args
            .iter()
            .map(|a| self.memory(a))
            .collect::<Result<Vec<_>, _>>()?;
        for (i, (a, m)) in case.args.iter().zip(&mems).enumerate() {
            let value = match a {
                Arg::U32(v) => v.to_le_bytes().to_vec(),
                Arg::I32(v) => v.to_le_bytes().to_vec(),
                // clSetKernelArg takes a by-value argument at its OpenCL C size.
                Arg::Bytes(v) => v.clone(),
                _ => Vec::new(),
            };
            // SAFETY: a cl_mem argument passes the handle's address and size; a by-value
            // argument its bytes and their count.
            let err = unsafe {
                match m {
                    Some(m) => (self.api.clSetKernelArg)(
                        kernel,
                        i as cl_uint,
                        std::mem::size_of::<cl_mem>(),
                        (&m.mem as *const cl_mem).cast(),
                    ),
                    None => (self.api.clSetKernelArg)(
                        kernel,
                        i as cl_uint,
                        value.len(),
                        value.as_ptr().cast(),
                    ),
                }
            };
            check(&format!("clSetKernelArg {i}"), err)?;
        }
        let global: Vec<usize> = case.geometry.global.iter().map(|&g| g as usize).collect();
        let local: Vec<usize> = case.geometry.local.iter().map(|&l| l as usize).collect();
        // SAFETY: both size arrays hold work_dim entries; no events.
        let err = unsafe {
            (self.api.clEnqueueNDRangeKernel)(
                self.queue,
                kernel,
                global.len() as cl_uint,
                null(),
                global.as_ptr(),
                local.as_ptr(),
                0,
                null(),
                null_mut(),
            )
        };
        check("clEnqueueNDRangeKernel", err)?;
        let mut outs = Vec::new();
        for c in &case.checks {
            let m = mems
                .get(c.arg)
                .and_then(Option::as_ref)
                .ok_or_else(|| format!("argument {} is not memory", c.arg))?;
            let mut out = vec![0u8; m.size];
            // SAFETY: blocking reads of exactly `m.size` bytes (the buffer, or the image's
            // packed rows) into `out`, which is that long.
            let err = unsafe {
                match m.image {
                    None => (self.api.clEnqueueReadBuffer)(
                        self.queue,
                        m.mem,
                        CL_TRUE,
                        0,
                        m.size,
                        out.as_mut_ptr().cast(),
                        0,
                        null(),
                        null_mut(),
                    ),
                    Some([w, h]) => (self.api.clEnqueueReadImage)(
                        self.queue,
                        m.mem,
                        CL_TRUE,
                        [0usize; 3].as_ptr(),
                        [w, h, 1].as_ptr(),
                        0,
                        0,
                        out.as_mut_ptr().cast(),
                        0,
                        null(),
                        null_mut(),
                    ),
                }
            };
            check("read back", err)?;
            outs.push(out);
        }
        // SAFETY: a live queue.
        check("clFinish", unsafe { (self.api.clFinish)(self.queue) })?;
        Ok(outs)
    }
}

impl Runner for Neo {
    fn run(&mut self, bin: &Binary, case: &Case) -> Result<Vec<Vec<u8>>, String> {
        let r = self.run_case(bin, case);
        if r.is_err() {
            // A GPU hang bans NEO's context: later cases get a fresh one.
            *self = Neo::new()?;
        }
        r
    }
}

impl Drop for Neo {
    fn drop(&mut self) {
        // SAFETY: every handle is a live object this runner created; each is released once,
        // kernels before their programs, the queue before the context.
        unsafe {
            for k in self.kernels.values() {
                (self.api.clReleaseKernel)(*k);
            }
            for p in self.programs.values() {
                (self.api.clReleaseProgram)(*p);
            }
            (self.api.clReleaseCommandQueue)(self.queue);
            (self.api.clReleaseContext)(self.context);
        }
    }
}

/// The hand-written corpus and the generated one (`conformance::generate`).
fn files() -> Vec<conformance::corpus::File> {
    let mut files = conformance::corpus::files().expect("the corpus parses");
    files.extend(conformance::generate::files().expect("the generator's files parse"));
    if std::env::var_os("NEO_FULL").is_none() {
        for f in &mut files {
            f.instances = std::mem::take(&mut f.instances)
                .into_iter()
                .step_by(EVERY)
                .collect();
        }
    }
    files
}

fn run_through_neo(ocloc: PathBuf, p: Platform) {
    let compiler = Compiler::shared(ocloc);
    let work = tempfile::tempdir().unwrap();
    let neo = Neo::new().expect("NEO opens the simulated device");
    let name = neo.device_name();
    drop(neo);
    let report = conformance::suite::run_files(
        p,
        &compiler,
        Format::PatchTokens,
        1,
        work.path(),
        &files(),
        &|| Neo::new().map(|n| Box::new(n) as Box<dyn Runner>),
    );
    report.finish(&format!(
        "{} through NEO ({name}){}",
        p.name(),
        if std::env::var_os("NEO_FULL").is_some() {
            ""
        } else {
            " (slice)"
        }
    ));
}

/// A `.icd` file naming NEO alone.
fn neo_icd(dir: &Path) -> PathBuf {
    assert!(
        Path::new(NEO).is_file(),
        "{NEO} missing although intel-opencl-icd's ocloc is installed"
    );
    let icd = dir.join("neo.icd");
    std::fs::write(&icd, format!("{NEO}\n")).unwrap();
    icd
}

#[test]
fn corpus_through_neo() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    if let Ok(sim) = std::env::var(CHILD) {
        let (_, p, _) = UNDER_SHIM
            .iter()
            .find(|(s, ..)| *s == sim)
            .unwrap_or_else(|| panic!("{CHILD}={sim}: not one of the shim runs"));
        run_through_neo(ocloc, *p);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let icd = neo_icd(dir.path());
    let shim = oracles::workspace::cdylib("sim-shim", "libintel_gpu_sim_shim.so");
    let exe = std::env::current_exe().expect("test binary path");
    let mut failed = Vec::new();
    for (sim, _, reaches_the_end) in UNDER_SHIM {
        let out = Command::new(&exe)
            .args(["corpus_through_neo", "--exact", "--nocapture"])
            .args(["--test-threads=1"])
            .env("LD_PRELOAD", &shim)
            .env("INTEL_GPU_SIM", sim)
            .env("OCL_ICD_VENDORS", &icd)
            .env_remove("NEOReadDebugKeys")
            .env(CHILD, sim)
            .output()
            .expect("run the test under the shim");
        let stderr = String::from_utf8_lossy(&out.stderr);
        eprintln!("under INTEL_GPU_SIM={sim}:\n{stderr}");
        if out.status.success() != reaches_the_end {
            failed.push(format!(
                "{sim}: {} (expected to {})",
                out.status,
                if reaches_the_end {
                    "pass"
                } else {
                    "stop: update UNDER_SHIM and the fidelity list"
                }
            ));
        }
    }
    assert!(failed.is_empty(), "failed under the shim: {failed:?}");
}

/// The corpus slice (`CONFORMANCE_FILTER` narrows it) through umd's render-node path: what
/// NEO's run is compared with.
fn run_through_umd(ocloc: PathBuf, p: Platform) {
    use conformance::runner::{Umd, Via};
    let compiler = Compiler::shared(ocloc);
    let work = tempfile::tempdir().unwrap();
    let report = conformance::suite::run_files(
        p,
        &compiler,
        Format::PatchTokens,
        1,
        work.path(),
        &files(),
        &|| {
            Umd::via(p, umd::device::KmdChoice::I915, Via::Node)
                .map(|u| Box::new(u) as Box<dyn Runner>)
        },
    );
    report.finish(&format!("{} through umd's render node", p.name()));
}

/// Runs one corpus case under the shim on `sim` with the simulator's command log in `log`:
/// through NEO (`corpus_through_neo`'s child) or through umd (this test's child).
fn capture(neo: bool, sim: &str, case: &str, log: &Path, icd: &Path) {
    let shim = oracles::workspace::cdylib("sim-shim", "libintel_gpu_sim_shim.so");
    let exe = std::env::current_exe().expect("test binary path");
    std::fs::create_dir_all(log).unwrap();
    let (test, marker) = if neo {
        ("corpus_through_neo", CHILD)
    } else {
        ("batch_diff_of_neo_and_umd", UMD_CHILD)
    };
    let out = Command::new(&exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env("LD_PRELOAD", &shim)
        .env("INTEL_GPU_SIM", sim)
        .env("INTEL_GPU_SIM_COMMAND_LOG", log)
        .env("OCL_ICD_VENDORS", icd)
        .env("CONFORMANCE_FILTER", case)
        .env("NEO_FULL", "1")
        .env_remove("NEOReadDebugKeys")
        .env(marker, sim)
        .output()
        .expect("run the test under the shim");
    assert!(
        out.status.success(),
        "{case} through {} on {sim}: {}\n{}",
        if neo { "NEO" } else { "umd" },
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

fn batch_diff(tool: &Path, p: Platform, a: &Path, b: &Path) -> String {
    let out = Command::new(tool)
        .args(["batch-diff", "-p", p.name()])
        .args([a, b])
        .output()
        .expect("run intel-gpu-run batch-diff");
    assert!(
        out.status.success(),
        "batch-diff: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// One corpus case captured through NEO and through umd on sim:tgllp, compared with
/// `intel-gpu-run batch-diff`: the tool must name what `firmware-notes/neo-side-by-side.md`
/// first found by reading the two decoded batches by hand (NEO's CS_CHICKEN1 write and
/// STATE_COMPUTE_MODE, its 3D/GPGPU pipeline switches around them, its chained jump into the
/// queue's stream, one interface descriptor for both walkers where umd loads a second, 32 more
/// bytes of indirect data for the partial group), and a capture compared with itself must show
/// no difference.
#[test]
fn batch_diff_of_neo_and_umd() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    if let Ok(sim) = std::env::var(UMD_CHILD) {
        let (_, p, _) = UNDER_SHIM
            .iter()
            .find(|(s, ..)| *s == sim)
            .unwrap_or_else(|| panic!("{UMD_CHILD}={sim}: not one of the shim runs"));
        run_through_umd(ocloc, *p);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let icd = neo_icd(dir.path());
    let (neo, ours) = (dir.path().join("neo"), dir.path().join("umd"));
    let case = "shuffle_float simd16";
    capture(true, "tgllp@i915", case, &neo, &icd);
    capture(false, "tgllp@i915", case, &ours, &icd);
    let tool = oracles::workspace::binary("intel-gpu-run");
    let diff = batch_diff(&tool, Platform::Tgllp, &neo, &ours);
    eprintln!("{diff}");
    for want in [
        "MI_LOAD_REGISTER_IMM 0x2580 (CS_CHICKEN1): 0x00060004 | -",
        "STATE_COMPUTE_MODE: (instance): programmed | not programmed",
        "PIPELINE_SELECT sequence: 0 (3D), 2 (GPGPU), 0 (3D), 2 (GPGPU) | 2 (GPGPU)",
        "MI_BATCH_BUFFER_START commands: 1 | 0",
        "MEDIA_INTERFACE_DESCRIPTOR_LOAD commands: 0 | 1",
        "GPGPU_WALKER: Indirect Data Length: 320 | 288",
    ] {
        assert!(diff.contains(want), "batch-diff does not say {want:?}");
    }
    // Both runs dispatch the full group and the partial one as two walkers.
    assert!(diff.contains("2 walker(s) in A, 2 in B;"), "{diff}");
    let same = batch_diff(&tool, Platform::Tgllp, &neo, &neo);
    assert!(
        same.ends_with("2 walker(s) in A, 2 in B; no differences\n"),
        "{same}"
    );
    assert!(!same.contains(" | "), "{same}");
}
