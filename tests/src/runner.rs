//! Running a case: in process through umd, or through the `intel-gpu-run` binary.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use platform::Platform;
use umd::device::{Device, KmdChoice};
use umd::image::ImageFormat;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

use crate::case::{Arg, Case};

/// A compiled corpus binary: its bytes, a file holding them, and the program parsed once; and
/// the OpenCL C source and build options ocloc made it from (for runtimes that compile).
pub struct Binary {
    pub bytes: Vec<u8>,
    pub path: PathBuf,
    pub program: umd::program::Program,
    pub source: String,
    pub options: String,
}

pub trait Runner {
    /// The final bytes of each checked argument (buffers whole, images as packed rows).
    fn run(&mut self, bin: &Binary, case: &Case) -> Result<Vec<Vec<u8>>, String>;
}

/// umd → batchbuffer → kmd-iface → simulator, in this process; one device for every case,
/// each kernel taken from its parsed binary (and uploaded) once.
pub struct Umd {
    device: Device,
    platform: Platform,
    kmd: KmdChoice,
    via: Via,
    kernels: HashMap<(PathBuf, String), Kernel>,
}

/// Where a [`Umd`] runner's device comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Via {
    /// umd's in-process simulator (`sim:<platform>`).
    Sim,
    /// The in-process simulator running every sanitizer check, its findings appended to this
    /// file as JSON lines.
    Sanitized(PathBuf),
    /// The in-process simulator with its translated code on (`true`) or off, whatever
    /// `INTEL_GPU_SIM_JIT` says.
    Jit(bool),
    /// The in-process simulator with its translated code on and every kernel translated
    /// before its first run (not once it is hot), so that the translated code runs them all.
    JitEveryKernel,
    /// The render node umd's discovery finds (`DeviceSpec::Auto`): real `open`/`ioctl`/`mmap`
    /// through kmd-iface. The simulator fallback is refused, and the node must be the platform
    /// and kernel driver asked for.
    Node,
}

impl Umd {
    pub fn new(p: Platform, kmd: KmdChoice) -> Result<Umd, String> {
        Self::via(p, kmd, Via::Sim)
    }

    pub fn via(p: Platform, kmd: KmdChoice, via: Via) -> Result<Umd, String> {
        Ok(Umd {
            device: open(p, kmd, &via)?,
            platform: p,
            kmd,
            via,
            kernels: HashMap::new(),
        })
    }
}

fn open(p: Platform, kmd: KmdChoice, via: &Via) -> Result<Device, String> {
    match via {
        Via::Sim => Device::open_sim(p, Some(kmd)).map_err(|e| e.to_string()),
        Via::Sanitized(log) => Device::open_sim_sanitized(p, Some(kmd), "all", Some(log.clone()))
            .map_err(|e| e.to_string()),
        Via::Jit(on) => Device::open_sim_with_jit(p, Some(kmd), *on).map_err(|e| e.to_string()),
        Via::JitEveryKernel => {
            Device::open_sim_translating_every_kernel(p, Some(kmd)).map_err(|e| e.to_string())
        }
        Via::Node => {
            let d = Device::open(&umd::device::DeviceSpec::Auto, Some(kmd), None)
                .map_err(|e| e.to_string())?;
            let info = d.info();
            if info.simulated || info.platform != p || info.kmd != kmd {
                return Err(format!(
                    "discovery gave {} ({}, {}, simulated: {}), not a {} {} render node",
                    info.name,
                    info.platform,
                    info.kmd.name(),
                    info.simulated,
                    p,
                    kmd.name()
                ));
            }
            Ok(d)
        }
    }
}

impl Runner for Umd {
    fn run(&mut self, bin: &Binary, case: &Case) -> Result<Vec<Vec<u8>>, String> {
        let r = self.run_on_device(bin, case);
        if r.is_err() {
            // A hang bans the context (as the kernel drivers do): later cases get a fresh
            // device (and kernels uploaded to it), so one failure does not fail every case
            // after it.
            self.device = open(self.platform, self.kmd, &self.via)?;
            self.kernels.clear();
        }
        r
    }
}

impl Umd {
    fn run_on_device(&mut self, bin: &Binary, case: &Case) -> Result<Vec<Vec<u8>>, String> {
        let d = &self.device;
        let key = (bin.path.clone(), case.kernel.clone());
        let kernel = match self.kernels.get(&key) {
            Some(k) => k,
            None => {
                let k = Kernel::from_program(&bin.program, Some(&case.kernel), Some(self.platform))
                    .map_err(|e| e.to_string())?;
                self.kernels.entry(key).or_insert(k)
            }
        };
        let e = |e: umd::Error| e.to_string();
        let mut args = Vec::new();
        for a in &case.args {
            args.push(match a {
                Arg::Buf(b) => {
                    let buf = d.create_buffer(b.len().max(4) as u64).map_err(e)?;
                    buf.write(0, b).map_err(e)?;
                    ArgValue::Buffer(buf)
                }
                Arg::U32(v) => ArgValue::Value(v.to_le_bytes().to_vec()),
                Arg::I32(v) => ArgValue::Value(v.to_le_bytes().to_vec()),
                Arg::Bytes(v) => {
                    let slot = match kernel.signature().and_then(|s| s.get(args.len()).copied()) {
                        Some(umd::kernel::ArgSlot::Value(n)) => n as usize,
                        _ => v.len(),
                    };
                    let mut v = v.clone();
                    if slot > v.len() {
                        v.resize(slot, 0);
                    }
                    ArgValue::Value(v)
                }
                Arg::Image {
                    width,
                    height,
                    format,
                    bytes,
                } => {
                    let f: ImageFormat = format.parse().map_err(e)?;
                    let im = d.create_image(*width, *height, f).map_err(e)?;
                    im.write_packed(bytes).map_err(e)?;
                    ArgValue::Image(im)
                }
            });
        }
        let range = NdRange::new(
            &case.geometry.global,
            Some(&case.geometry.local),
            kernel.simd,
            None,
        )
        .map_err(e)?;
        d.dispatch(kernel, &range, &args).map_err(e)?;
        case.checks
            .iter()
            .map(|c| match &args[c.arg] {
                ArgValue::Buffer(b) => b.to_vec().map_err(e),
                ArgValue::Image(i) => i.read_packed().map_err(e),
                _ => Err(format!("argument {} is not memory", c.arg)),
            })
            .collect()
    }
}

/// `intel-gpu-run run` as a user runs it: files in, files out, one process per case.
pub struct Cli {
    pub exe: PathBuf,
    pub device: String,
    pub kmd: &'static str,
    pub dir: tempfile::TempDir,
}

impl Cli {
    pub fn new(exe: &Path, p: Platform, kmd: KmdChoice) -> Result<Cli, String> {
        Ok(Cli {
            exe: exe.to_path_buf(),
            device: format!("sim:{}", p.name()),
            kmd: kmd.name(),
            dir: tempfile::tempdir().map_err(|e| e.to_string())?,
        })
    }
}

fn dims(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

impl Runner for Cli {
    fn run(&mut self, bin: &Binary, case: &Case) -> Result<Vec<Vec<u8>>, String> {
        let dir = self.dir.path();
        let mut cmd = Command::new(&self.exe);
        cmd.arg("run")
            .arg(&bin.path)
            .args(["--kernel", &case.kernel, "--device", &self.device])
            .args(["--kmd", self.kmd])
            .args(["--global", &dims(&case.geometry.global)])
            .args(["--local", &dims(&case.geometry.local)]);
        let mut outs = Vec::new();
        for (i, a) in case.args.iter().enumerate() {
            let file = dir.join(format!("arg{i}"));
            let spec = match a {
                Arg::Buf(b) => {
                    std::fs::write(&file, b).map_err(|e| e.to_string())?;
                    format!("buf:@{}", file.display())
                }
                Arg::U32(v) => format!("u32:{v}"),
                Arg::I32(v) => format!("i32:{v}"),
                Arg::Bytes(v) => {
                    let kind = match v.len() {
                        1 => "u8",
                        2 => "u16",
                        4 => "u32",
                        8 => "u64",
                        n => {
                            return Err(format!(
                                "a by-value argument of {n} bytes has no intel-gpu-run --arg kind"
                            ))
                        }
                    };
                    let mut word = [0u8; 8];
                    word[..v.len()].copy_from_slice(v);
                    format!("{kind}:{:#x}", u64::from_le_bytes(word))
                }
                Arg::Image {
                    width,
                    height,
                    format,
                    bytes,
                } => {
                    std::fs::write(&file, bytes).map_err(|e| e.to_string())?;
                    format!("img2d:{width}x{height}:{format}:@{}", file.display())
                }
            };
            cmd.arg("--arg").arg(spec);
        }
        for c in &case.checks {
            let file = dir.join(format!("out{}", c.arg));
            cmd.arg("--out")
                .arg(format!("{}={}", c.arg, file.display()));
            outs.push(file);
        }
        let o = cmd.output().map_err(|e| e.to_string())?;
        if !o.status.success() {
            return Err(format!(
                "intel-gpu-run failed: {}",
                String::from_utf8_lossy(&o.stderr).trim()
            ));
        }
        outs.iter()
            .map(|f| std::fs::read(f).map_err(|e| format!("{}: {e}", f.display())))
            .collect()
    }
}
