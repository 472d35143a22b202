//! The one platform and the devices `INTEL_GPU_DEVICES` selects.
//!
//! `INTEL_GPU_DEVICES` is a comma-separated list in `intel-gpu-run --device` syntax
//! (`sim:skl`, `sim:icllp`, `sim:tgllp`, `sim:dg2`, a render node path), each optionally
//! followed by `@i915` or `@xe`. Unset: every Intel render node; with none, `sim:tgllp`.

use std::sync::{Arc, OnceLock};

use opencl_sys::*;
use umd::device::{DeviceSpec, KmdChoice};

use crate::core::device::Device;
use crate::core::extensions;
use crate::core::handle::{ClObject, Handle, Kind};
use crate::core::identity::{version, DRIVER, VENDOR};
use crate::core::info::Info;

pub const ICD_SUFFIX: &str = "IGC";

pub struct Platform {
    pub devices: Vec<Arc<Handle<Device>>>,
    /// Entries of INTEL_GPU_DEVICES that could not be opened, with why (kept for the
    /// platform's name-free diagnostics; a platform with no device still exists).
    pub refused: Vec<String>,
}

impl ClObject for Platform {
    const KIND: Kind = Kind::Platform;
    const INVALID: cl_int = CL_INVALID_PLATFORM;
}

static PLATFORM: OnceLock<Arc<Handle<Platform>>> = OnceLock::new();

/// The platform, opening its devices on first use.
pub fn get() -> &'static Arc<Handle<Platform>> {
    PLATFORM.get_or_init(|| {
        let (opened, refused) = open_devices(std::env::var("INTEL_GPU_DEVICES").ok());
        let devices = opened
            .into_iter()
            .zip(0..)
            .map(|(d, index)| crate::core::handle::leak(Device::new(d, index)))
            .collect();
        crate::core::handle::leak(Platform { devices, refused })
    })
}

/// Parses one `INTEL_GPU_DEVICES` entry.
pub fn parse_entry(entry: &str) -> Result<(DeviceSpec, Option<KmdChoice>), String> {
    let (spec, kmd) = match entry.rsplit_once('@') {
        Some((s, "i915")) => (s, Some(KmdChoice::I915)),
        Some((s, "xe")) => (s, Some(KmdChoice::Xe)),
        Some((_, k)) => {
            return Err(format!(
                "`{entry}`: unknown kernel driver `{k}` (i915 or xe)"
            ))
        }
        None => (entry, None),
    };
    if spec == "auto" {
        return Err(format!(
            "`{entry}`: name a device (sim:<platform> or a render node)"
        ));
    }
    let spec = spec.parse::<DeviceSpec>().map_err(|e| e.to_string())?;
    Ok((spec, kmd))
}

fn open_devices(var: Option<String>) -> (Vec<umd::device::Device>, Vec<String>) {
    let mut opened = Vec::new();
    let mut refused = Vec::new();
    match var.filter(|v| !v.trim().is_empty()) {
        Some(list) => {
            for entry in list.split(',').map(str::trim).filter(|e| !e.is_empty()) {
                let r = parse_entry(entry).and_then(|(spec, kmd)| {
                    umd::device::Device::open(&spec, kmd, None).map_err(|e| format!("{entry}: {e}"))
                });
                match r {
                    Ok(d) => opened.push(d),
                    Err(e) => refused.push(e),
                }
            }
        }
        None => {
            for l in umd::device::list().into_iter().filter(|l| !l.simulated) {
                if l.platform.is_none() {
                    continue;
                }
                match umd::device::Device::open(
                    &DeviceSpec::Node(l.name.clone().into()),
                    None,
                    None,
                ) {
                    Ok(d) => opened.push(d),
                    Err(e) => refused.push(format!("{}: {e}", l.name)),
                }
            }
            if opened.is_empty() {
                match umd::device::Device::open_sim(platform::Platform::Tgllp, None) {
                    Ok(d) => opened.push(d),
                    Err(e) => refused.push(format!("sim:tgllp: {e}")),
                }
            }
        }
    }
    for r in &refused {
        eprintln!("intel_gpu_opencl: INTEL_GPU_DEVICES: {r}");
    }
    (opened, refused)
}

pub fn platform_info(param: cl_platform_info) -> Result<Info, cl_int> {
    Ok(match param {
        CL_PLATFORM_PROFILE => Info::Str("FULL_PROFILE".into()),
        CL_PLATFORM_VERSION => {
            Info::Str(format!("OpenCL 3.0 {DRIVER} {}", env!("CARGO_PKG_VERSION")))
        }
        CL_PLATFORM_NUMERIC_VERSION => Info::Uint(version(3, 0, 0)),
        CL_PLATFORM_NAME => Info::Str(format!("{DRIVER}: OpenCL for Intel(R) Graphics")),
        CL_PLATFORM_VENDOR => Info::Str(VENDOR.into()),
        CL_PLATFORM_EXTENSIONS => Info::Str(
            extensions::of_platform()
                .map(|e| e.name)
                .collect::<Vec<_>>()
                .join(" "),
        ),
        CL_PLATFORM_EXTENSIONS_WITH_VERSION => Info::NameVersions(
            extensions::of_platform()
                .map(|e| (e.name.to_string(), e.version()))
                .collect(),
        ),
        CL_PLATFORM_HOST_TIMER_RESOLUTION => Info::Ulong(crate::core::timer::host_resolution_ns()),
        CL_PLATFORM_ICD_SUFFIX_KHR => Info::Str(ICD_SUFFIX.into()),
        _ => return Err(crate::core::reason::unknown_query("platform", param)),
    })
}

/// The devices of the platform of `device_type`.
pub fn by_type(device_type: cl_device_type) -> Result<Vec<cl_device_id>, cl_int> {
    let known = CL_DEVICE_TYPE_DEFAULT
        | CL_DEVICE_TYPE_CPU
        | CL_DEVICE_TYPE_GPU
        | CL_DEVICE_TYPE_ACCELERATOR
        | CL_DEVICE_TYPE_CUSTOM;
    if device_type != CL_DEVICE_TYPE_ALL && (device_type & !known != 0 || device_type == 0) {
        return Err(CL_INVALID_DEVICE_TYPE);
    }
    let p = get();
    let wanted = device_type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT) != 0;
    let all: Vec<cl_device_id> = p.obj.devices.iter().map(|d| d.raw()).collect();
    match (wanted, all.as_slice()) {
        (false, _) | (_, []) => Err(CL_DEVICE_NOT_FOUND),
        // CL_DEVICE_TYPE_DEFAULT alone: one device.
        (true, [first, ..]) if device_type == CL_DEVICE_TYPE_DEFAULT => Ok(vec![*first]),
        (true, _) => Ok(all),
    }
}
