//! The one platform and the devices `INTEL_GPU_DEVICES` selects.
//!
//! `INTEL_GPU_DEVICES` is a comma-separated list in `intel-gpu-run --device` syntax
//! (`sim:skl`, `sim:icllp`, `sim:tgllp`, `sim:dg2`, a render node path), each optionally
//! followed by `@i915` or `@xe`. Unset: every Intel render node; with none, `sim:tgllp`.

use std::ffi::c_void;
use std::sync::{Arc, OnceLock};

use opencl_sys::*;
use umd::device::{DeviceSpec, KmdChoice};

use crate::api::entry::entry;
use crate::device::Device;
use crate::extensions;
use crate::handle::{ClObject, Handle, Kind};
use crate::info::{self, Info};

/// The vendor, as Intel's own runtime (NEO) names it for platform and device alike: applications
/// take their Intel paths (cl_intel_subgroups kernels, Intel tuning tables) by this string.
pub const VENDOR: &str = "Intel(R) Corporation";
/// Whose driver this is, where OpenCL leaves the text to the implementation: the platform's
/// name and version and the device's version.
pub const DRIVER: &str = "intel-gpu-compute";
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
            .map(|d| crate::handle::leak(Device::new(d)))
            .collect();
        crate::handle::leak(Platform { devices, refused })
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

pub fn version(major: u32, minor: u32, patch: u32) -> u32 {
    make_version(major, minor, patch)
}

fn platform_info(param: cl_platform_info) -> Result<Info, cl_int> {
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
        CL_PLATFORM_HOST_TIMER_RESOLUTION => Info::Ulong(crate::timer::host_resolution_ns()),
        CL_PLATFORM_ICD_SUFFIX_KHR => Info::Str(ICD_SUFFIX.into()),
        _ => return Err(CL_INVALID_VALUE),
    })
}

/// The platform handle `raw` names (NULL means ours: there is one).
pub fn check(raw: cl_platform_id) -> Result<(), cl_int> {
    if raw.is_null() || raw == get().raw() {
        Ok(())
    } else {
        Err(CL_INVALID_PLATFORM)
    }
}

entry! {
    fn clGetPlatformIDs(
        num_entries: cl_uint,
        platforms: *mut cl_platform_id,
        num_platforms: *mut cl_uint,
    ) -> cl_int {
        if (num_entries == 0 && !platforms.is_null())
            || (platforms.is_null() && num_platforms.is_null())
        {
            return CL_INVALID_VALUE;
        }
        let p = get();
        if !platforms.is_null() {
            // SAFETY: the application's array of num_entries >= 1 platform ids.
            unsafe { *platforms = p.raw() };
        }
        if !num_platforms.is_null() {
            // SAFETY: the application's pointer.
            unsafe { *num_platforms = 1 };
        }
        CL_SUCCESS
    }
}

entry! {
    fn clGetPlatformInfo(
        platform: cl_platform_id,
        param_name: cl_platform_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        if let Err(e) = check(platform) {
            return e;
        }
        // SAFETY: the application's buffers as the entry point defines them.
        unsafe {
            info::answer(
                platform_info(param_name),
                param_value_size,
                param_value,
                param_value_size_ret,
            )
        }
    }
}
