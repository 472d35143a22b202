//! `intel-gpu-run run` and `intel-gpu-run devices`.

use std::path::{Path, PathBuf};

use platform::Platform;
use umd::device::{Device, DeviceSpec, KmdChoice};
use umd::kernel::{Kernel, LoadError};
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

use crate::argspec::{sizes, ArgSpec, BufInit, OutSpec};

/// The `run` subcommand's options (the contract is written out in the README, `intel-gpu-run` section).
#[derive(clap::Args)]
pub struct RunArgs {
    /// An ocloc binary (.bin, patch tokens or zebin), IGA-syntax assembly (.asm) or raw ISA (.krn).
    pub file: PathBuf,
    /// The kernel to run (default: the binary's only kernel).
    #[arg(long)]
    pub kernel: Option<String>,
    /// auto, sim:<platform> or a render node path.
    #[arg(long, default_value = "auto")]
    pub device: String,
    /// Kernel-driver uAPI: i915 or xe (default: what the device offers).
    #[arg(long, value_parser = ["i915", "xe"])]
    pub kmd: Option<String>,
    /// Global size X[,Y[,Z]].
    #[arg(long)]
    pub global: String,
    /// Local size X[,Y[,Z]] (default: picked by the driver).
    #[arg(long)]
    pub local: Option<String>,
    /// Dispatch width for .asm/.krn kernels (8, 16 or 32).
    #[arg(long)]
    pub simd: Option<u32>,
    /// Platform of .asm/.krn kernels (skl, icllp, tgllp, dg2/acm-g10, or 9, 11, 12p1, 12p71).
    #[arg(long)]
    pub platform: Option<Platform>,
    /// One per kernel argument, in order: buf:SIZE, buf:@PATH, u32:V (u8..i64, f32, f64),
    /// img2d:WxH:FMT[:@PATH].
    #[arg(long = "arg")]
    pub args: Vec<ArgSpec>,
    /// After the run, write argument N's bytes (image rows packed) to PATH.
    #[arg(long = "out")]
    pub outs: Vec<OutSpec>,
    /// Write the primary batch buffer's bytes, as submitted, to PATH.
    #[arg(long)]
    pub dump_batch: Option<PathBuf>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
    /// Run the kernel under the simulator's sanitizer with these checks (comma-separated:
    /// memcheck, initcheck, racecheck, synccheck, alignment, api, or all; and stats, the
    /// kernel's execution statistics, not part of all), as `INTEL_GPU_SANITIZE` does (`api`
    /// checks OpenCL calls: nothing here); findings and statistics go to stderr (and, with
    /// `INTEL_GPU_SANITIZE_LOG=<file>`, to that file as JSON lines).
    #[arg(long, value_name = "CHECKS")]
    pub sanitize: Option<String>,
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The simulated device `spec` names (or the kernel's platform for `auto`), under the
/// sanitizer's `checks`; a hardware device cannot run it.
fn open_sanitized(
    spec: &umd::device::DeviceSpec,
    kmd: &Option<String>,
    kernel: Platform,
    checks: &str,
) -> Result<Device, String> {
    let p = match spec {
        umd::device::DeviceSpec::Sim(p) => *p,
        umd::device::DeviceSpec::Auto => kernel,
        other => {
            return Err(format!(
                "--sanitize needs a simulated device (sim:<platform> or auto), not {other:?}"
            ))
        }
    };
    let log = std::env::var_os("INTEL_GPU_SANITIZE_LOG").map(PathBuf::from);
    Device::open_sim_sanitized(p, kmd_choice(kmd), checks, log).map_err(|e| e.to_string())
}

fn kmd_choice(s: &Option<String>) -> Option<KmdChoice> {
    match s.as_deref() {
        Some("xe") => Some(KmdChoice::Xe),
        Some(_) => Some(KmdChoice::I915),
        None => None,
    }
}

/// How FILE was read.
fn load(a: &RunArgs, device_platform: Option<Platform>) -> Result<(Kernel, &'static str), String> {
    let bytes = read(&a.file)?;
    let ext = a.file.extension().and_then(|e| e.to_str()).unwrap_or("");
    let shown = a.file.display();
    let platform = || {
        a.platform.or(device_platform).ok_or_else(|| {
            format!("{shown}: a .{ext} kernel needs --platform (or --device sim:<platform>)")
        })
    };
    let simd = || {
        a.simd
            .ok_or_else(|| format!("{shown}: a .{ext} kernel needs --simd 8|16|32"))
    };
    let name = || {
        a.kernel.clone().unwrap_or_else(|| {
            a.file
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("kernel")
                .to_string()
        })
    };
    match ext {
        "asm" => {
            let text = String::from_utf8(bytes).map_err(|_| format!("{shown}: not UTF-8 text"))?;
            let k = Kernel::from_asm(platform()?, &text, simd()?, &name())
                .map_err(|e| format!("{shown}: {e}"))?;
            Ok((k, "IGA assembly"))
        }
        "krn" => {
            let k = Kernel::from_raw(platform()?, bytes, simd()?, &name())
                .map_err(|e| format!("{shown}: {e}"))?;
            Ok((k, "raw ISA"))
        }
        _ => {
            let format = umd::program::detect(&bytes)
                .map_err(|e| format!("{shown}: malformed binary: {e}"))?;
            let k = Kernel::from_ocloc(&bytes, a.kernel.as_deref(), a.platform).map_err(
                |e| match e {
                    LoadError::Malformed(e) => format!("{shown}: malformed binary: {e}"),
                    other => format!("{shown}: {other}"),
                },
            )?;
            if let Some(s) = a.simd.filter(|&s| s != k.simd) {
                return Err(format!(
                    "{shown}: kernel {} was compiled for SIMD{}, not SIMD{s}",
                    k.name, k.simd
                ));
            }
            Ok((
                k,
                match format {
                    umd::program::Format::PatchTokens => "ocloc patch-token binary",
                    umd::program::Format::Zebin => "ocloc zebin",
                },
            ))
        }
    }
}

/// Device memory for each `--arg`.
fn make_args(d: &Device, specs: &[ArgSpec]) -> Result<Vec<ArgValue>, String> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let e = |e: umd::Error| format!("argument {i}: {e}");
            Ok(match s {
                ArgSpec::Buffer(BufInit::Zeroed(n)) => {
                    ArgValue::Buffer(d.create_buffer(*n).map_err(e)?)
                }
                ArgSpec::Buffer(BufInit::File(p)) => {
                    let bytes = read(p)?;
                    if bytes.is_empty() {
                        return Err(format!("argument {i}: {} is empty", p.display()));
                    }
                    let b = d.create_buffer(bytes.len() as u64).map_err(e)?;
                    b.write(0, &bytes).map_err(e)?;
                    ArgValue::Buffer(b)
                }
                ArgSpec::Scalar(_, bytes) => ArgValue::Value(bytes.clone()),
                ArgSpec::Image {
                    width,
                    height,
                    format,
                    data,
                } => {
                    let img = d.create_image(*width, *height, *format).map_err(e)?;
                    if let Some(p) = data {
                        img.write_packed(&read(p)?).map_err(e)?;
                    }
                    ArgValue::Image(img)
                }
            })
        })
        .collect()
}

fn arg_bytes(a: &ArgValue) -> Result<Option<Vec<u8>>, String> {
    Ok(match a {
        ArgValue::Buffer(b) => Some(b.to_vec().map_err(|e| e.to_string())?),
        ArgValue::Image(i) => Some(i.read_packed().map_err(|e: umd::Error| e.to_string())?),
        ArgValue::NullBuffer | ArgValue::Value(_) | ArgValue::Local(_) | ArgValue::Sampler(_) => {
            None
        }
    })
}

fn preview(bytes: &[u8]) -> String {
    let shown: Vec<String> = bytes
        .chunks(4)
        .take(8)
        .map(|c| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            format!("{:#x}", u32::from_le_bytes(w))
        })
        .collect();
    let more = if bytes.len() > 32 { " ..." } else { "" };
    format!("[{}]{more}", shown.join(", "))
}

fn kind_of(a: &ArgValue, spec: &ArgSpec) -> String {
    match (a, spec) {
        (ArgValue::Buffer(b), _) => format!("buf {} bytes", b.size()),
        (ArgValue::Image(i), _) => {
            format!("img2d {}x{} {}", i.width, i.height, i.format.desc().name)
        }
        (_, ArgSpec::Scalar(ty, _)) => ty.to_string(),
        _ => "value".into(),
    }
}

pub fn run(a: RunArgs) -> Result<(), String> {
    let spec: DeviceSpec = a.device.parse().map_err(|e: umd::Error| e.to_string())?;
    let sim_platform = match &spec {
        DeviceSpec::Sim(p) | DeviceSpec::SimPart { platform: p, .. } => Some(*p),
        _ => None,
    };
    let (kernel, source) = load(&a, sim_platform)?;
    let global = sizes(&a.global).map_err(|e| format!("--global {e}"))?;
    let local = a
        .local
        .as_deref()
        .map(sizes)
        .transpose()
        .map_err(|e| format!("--local {e}"))?;
    if let Some(sig) = kernel.signature() {
        if sig.len() != a.args.len() {
            return Err(format!(
                "kernel {} takes {} arguments ({}), {} given",
                kernel.name,
                sig.len(),
                sig.iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                a.args.len()
            ));
        }
    }
    for o in &a.outs {
        if o.index >= a.args.len() || matches!(a.args[o.index], ArgSpec::Scalar(..)) {
            return Err(format!(
                "--out {}: argument {} is not a buffer or image",
                o.index, o.index
            ));
        }
    }
    let required = match kernel.description() {
        umd::kernel::Description::Ocloc(k, _) => k.required_work_group_size,
        umd::kernel::Description::Raw => None,
    };
    let range = NdRange::new(&global, local.as_deref(), kernel.simd, required)
        .map_err(|e| e.to_string())?;
    // `api` (the OpenCL ICD's check) is accepted, and says it has nothing to check here.
    let listed = a
        .sanitize
        .clone()
        .or_else(|| std::env::var("INTEL_GPU_SANITIZE").ok());
    if let Some(note) = listed.as_deref().and_then(umd::device::sanitize_api_note) {
        eprintln!("intel-gpu-run: sanitizer: {note}");
    }
    let device = match &a.sanitize {
        Some(checks) => open_sanitized(&spec, &a.kmd, kernel.platform(), checks)?,
        None => Device::open(&spec, kmd_choice(&a.kmd), Some(kernel.platform()))
            .map_err(|e| e.to_string())?,
    };
    let args = make_args(&device, &a.args)?;
    let report = device
        .dispatch(&kernel, &range, &args)
        .map_err(|e| e.to_string())?;
    if let Some(p) = &a.dump_batch {
        std::fs::write(p, &report.batch)
            .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    let mut outputs = Vec::new();
    for (i, (v, s)) in args.iter().zip(&a.args).enumerate() {
        if let Some(bytes) = arg_bytes(v)? {
            outputs.push((i, kind_of(v, s), bytes));
        }
    }
    for o in &a.outs {
        let bytes = &outputs
            .iter()
            .find(|(i, _, _)| *i == o.index)
            .ok_or_else(|| format!("--out {}: no such output", o.index))?
            .2;
        std::fs::write(&o.path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", o.path.display()))?;
    }
    let info = device.info();
    let ms = report.elapsed.as_secs_f64() * 1e3;
    let dims = range.dims as usize;
    if a.json {
        let v = serde_json::json!({
            "kernel": kernel.name,
            "source": source,
            "file": a.file.display().to_string(),
            "device": info.name,
            "platform": info.platform.name(),
            "kmd": info.kmd.name(),
            "eu_count": info.eu_count,
            "simulated": info.simulated,
            "simd": kernel.simd,
            "global": &range.global[..dims],
            "local": &range.local[..dims],
            "groups": &range.groups()[..dims],
            "walkers": report.walkers,
            "time_ms": ms,
            "batch_address": format!("{:#x}", report.batch_address),
            "batch_bytes": report.batch.len(),
            "dump_batch": a.dump_batch.as_ref().map(|p| p.display().to_string()),
            "outputs": outputs.iter().map(|(i, kind, bytes)| serde_json::json!({
                "arg": i,
                "kind": kind,
                "bytes": bytes.len(),
                "preview_u32": bytes.chunks(4).take(8).map(|c| {
                    let mut w = [0u8; 4];
                    w[..c.len()].copy_from_slice(c);
                    u32::from_le_bytes(w)
                }).collect::<Vec<_>>(),
                "written_to": a.outs.iter().find(|o| o.index == *i).map(|o| o.path.display().to_string()),
            })).collect::<Vec<_>>(),
        });
        println!("{v}");
    } else {
        println!(
            "ran {} ({source}, SIMD{}) on {} ({}, {}, {} EUs{})",
            kernel.name,
            kernel.simd,
            info.name,
            info.kmd.name(),
            info.platform.name(),
            info.eu_count,
            if info.simulated { ", simulated" } else { "" }
        );
        println!(
            "global {:?} local {:?}: {:?} work-groups, {} walker(s), {ms:.3} ms",
            &range.global[..dims],
            &range.local[..dims],
            &range.groups()[..dims],
            report.walkers
        );
        match &a.dump_batch {
            Some(p) => println!(
                "batch at {:#x}: {} bytes written to {}",
                report.batch_address,
                report.batch.len(),
                p.display()
            ),
            None => println!(
                "batch at {:#x}: {} bytes",
                report.batch_address,
                report.batch.len()
            ),
        }
        for (i, kind, bytes) in &outputs {
            let to = a
                .outs
                .iter()
                .find(|o| o.index == *i)
                .map(|o| format!(" -> {}", o.path.display()))
                .unwrap_or_default();
            println!("arg {i} ({kind}){to}: {}", preview(bytes));
        }
    }
    Ok(())
}

/// `devices`: hardware render nodes, then every simulated device.
pub fn devices() -> Result<(), String> {
    for d in umd::device::list() {
        let kmds: Vec<&str> = d.kmds.iter().map(|k| k.name()).collect();
        println!(
            "{:<22} {:<6} {:<8} {}",
            d.name,
            d.platform.map(|p| p.name()).unwrap_or("?"),
            kmds.join(","),
            d.detail
        );
    }
    Ok(())
}
