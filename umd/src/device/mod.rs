//! Devices: a render node or the simulator, reached through i915 or xe.
//!
//! [`DeviceSpec`] names a device as the CLI does: `auto`, `sim:<platform>` or a render node
//! path. [`Device::open`] resolves it, picks the kernel-driver uAPI and sets up one VM and one
//! context (i915) or exec queue (xe) that every dispatch of the device runs in.

mod backend;
mod va;

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::{Arc, Mutex, MutexGuard};

use kmd_iface::discovery::Driver;
use kmd_iface::Kmd;
use platform::Platform;

pub(crate) use backend::Backend;
pub use backend::{Caching, ExecObject, Outcome};
pub use va::VaHeap;

use crate::error::{Error, Result};

/// CL_DEVICE_SUB_GROUP_SIZES_INTEL: the SIMD widths a kernel can be compiled for, on every
/// platform this driver supports (Gen9 to Xe-HPG all dispatch SIMD8, SIMD16 and SIMD32).
pub const SUB_GROUP_SIZES: [usize; 3] = [8, 16, 32];

/// Which device to open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeviceSpec {
    /// The first Intel render node, else the simulator for the kernel's platform, else
    /// `sim:tgllp`.
    Auto,
    Sim(Platform),
    Node(PathBuf),
}

impl FromStr for DeviceSpec {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        if s == "auto" {
            return Ok(DeviceSpec::Auto);
        }
        if let Some(p) = s.strip_prefix("sim:") {
            return p
                .parse::<Platform>()
                .map(DeviceSpec::Sim)
                .map_err(|_| Error::BadDeviceName(s.into()));
        }
        if s.starts_with('/') {
            return Ok(DeviceSpec::Node(s.into()));
        }
        Err(Error::BadDeviceName(s.into()))
    }
}

/// The kernel-driver uAPI to use (`--kmd`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KmdChoice {
    I915,
    Xe,
}

impl KmdChoice {
    pub fn name(self) -> &'static str {
        match self {
            KmdChoice::I915 => "i915",
            KmdChoice::Xe => "xe",
        }
    }
    fn of(d: Driver) -> KmdChoice {
        match d {
            Driver::I915 => KmdChoice::I915,
            Driver::Xe => KmdChoice::Xe,
        }
    }
    fn sim(self) -> sim::Kmd {
        match self {
            KmdChoice::I915 => sim::Kmd::I915,
            KmdChoice::Xe => sim::Kmd::Xe,
        }
    }
}

/// The kernel drivers the simulator offers for `p` (i915 everywhere, xe from Gen12LP).
pub fn sim_kmds(p: Platform) -> Vec<KmdChoice> {
    sim::device_info::DeviceInfo::get(p)
        .kmds
        .iter()
        .map(|k| match k {
            sim::Kmd::I915 => KmdChoice::I915,
            sim::Kmd::Xe => KmdChoice::Xe,
        })
        .collect()
}

/// One entry of [`list`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// What `--device` takes to open it.
    pub name: String,
    pub platform: Option<Platform>,
    pub kmds: Vec<KmdChoice>,
    pub simulated: bool,
    /// PCI device id and codename, for hardware.
    pub detail: String,
}

/// Hardware render nodes (Intel ones) followed by every simulated device.
pub fn list() -> Vec<Listed> {
    let mut out = Vec::new();
    if let Ok(d) = kmd_iface::discovery::discover() {
        for f in d.found {
            out.push(Listed {
                name: f.path.display().to_string(),
                platform: f.pci.map(|p| p.platform),
                kmds: vec![KmdChoice::of(f.driver)],
                simulated: false,
                detail: match (f.device_id, f.pci) {
                    (Some(id), Some(p)) => format!("{id:#06x} {}", p.codename),
                    (Some(id), None) => format!("{id:#06x} (unsupported)"),
                    _ => String::new(),
                },
            });
        }
    }
    for p in Platform::ALL {
        out.push(Listed {
            name: format!("sim:{}", p.name()),
            platform: Some(p),
            kmds: sim_kmds(p),
            simulated: true,
            detail: "functional simulator".into(),
        });
    }
    out
}

/// What a device is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    /// `sim:tgllp` or the render node path.
    pub name: String,
    pub platform: Platform,
    pub kmd: KmdChoice,
    pub eu_count: u32,
    pub simulated: bool,
}

impl DeviceInfo {
    /// CL_DEVICE_SUB_GROUP_SIZES_INTEL.
    pub fn sub_group_sizes(&self) -> &'static [usize] {
        &SUB_GROUP_SIZES
    }
}

pub(crate) struct Inner {
    pub info: DeviceInfo,
    backend: Mutex<Backend>,
    va: Mutex<VaHeap>,
    /// The simulator's error log (hardware reports errors in sysfs / devcoredump instead, read
    /// by `Backend::hardware_error`).
    sim: Option<Arc<sim::SimDevice>>,
    errors_seen: Mutex<usize>,
}

impl std::fmt::Debug for Inner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device").field("info", &self.info).finish()
    }
}

/// An open device. Cloning shares it.
#[derive(Debug, Clone)]
pub struct Device {
    pub(crate) inner: Arc<Inner>,
    /// The scratch buffer every dispatch uses, kept and grown across dispatches. Held here,
    /// not in `Inner`, because a BO holds its `Inner`.
    pub(crate) scratch: Arc<Mutex<crate::scratch::ScratchCache>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere cannot leave these in a torn state (every update is one assignment).
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Device {
    /// Opens `spec`. `kmd` forces a uAPI; `kernel_platform` steers `auto` when no GPU is present.
    pub fn open(
        spec: &DeviceSpec,
        kmd: Option<KmdChoice>,
        kernel_platform: Option<Platform>,
    ) -> Result<Device> {
        match spec {
            DeviceSpec::Sim(p) => Self::open_sim(*p, kmd),
            DeviceSpec::Node(path) => {
                let file = kmd_iface::render_node::RenderNode::open_shared(path)?;
                Self::open_file(path.display().to_string(), file, kmd, None)
            }
            DeviceSpec::Auto => {
                let found = kmd_iface::discovery::discover()
                    .ok()
                    .and_then(|d| d.found.into_iter().find(|f| f.pci.is_some()));
                match found {
                    Some(f) => Self::open_file(f.path.display().to_string(), f.file, kmd, None),
                    None => Self::open_sim(kernel_platform.unwrap_or(Platform::Tgllp), kmd),
                }
            }
        }
    }

    /// Opens a new simulated `p` through `kmd` (default i915, which every platform offers).
    pub fn open_sim(p: Platform, kmd: Option<KmdChoice>) -> Result<Device> {
        Self::open_sim_with(p, kmd, sim::SimConfig::default())
    }

    /// Like [`Device::open_sim`] with a simulator configuration (watchdog budget, walker
    /// executor).
    pub fn open_sim_with(
        p: Platform,
        kmd: Option<KmdChoice>,
        config: sim::SimConfig,
    ) -> Result<Device> {
        let k = kmd.unwrap_or(KmdChoice::I915);
        let dev = sim::open_device(p, k.sim(), config)?;
        let file: Arc<dyn kmd_iface::seam::DeviceFile> = dev.clone();
        Self::open_file(format!("sim:{}", p.name()), file, kmd, Some(dev))
    }

    fn open_file(
        name: String,
        file: Arc<dyn kmd_iface::seam::DeviceFile>,
        want: Option<KmdChoice>,
        sim: Option<Arc<sim::SimDevice>>,
    ) -> Result<Device> {
        let kmd = Kmd::new(file)?;
        let got = KmdChoice::of(kmd.driver());
        if let Some(w) = want.filter(|&w| w != got) {
            return Err(Error::Node {
                path: name,
                reason: format!("is driven by {}, not {}", got.name(), w.name()),
            });
        }
        let (device_id, eu_count, backend) = match kmd {
            Kmd::I915(d) => {
                let params = d.params()?;
                let eu = params.eu_total.max(0) as u32;
                (params.chipset_id, eu, Backend::new_i915(d)?)
            }
            Kmd::Xe(x) => {
                let id = x.config()?.device_id().unwrap_or(0);
                let topo = x.gt_topology()?;
                let count = |kind| -> u32 {
                    topo.iter()
                        .filter(|t| t.gt_id == 0 && t.kind == kind)
                        .map(|t| t.count())
                        .sum()
                };
                use kmd_iface::xe::uapi::*;
                let dss = count(DRM_XE_TOPO_DSS_GEOMETRY).max(count(DRM_XE_TOPO_DSS_COMPUTE));
                let eu_per = count(DRM_XE_TOPO_EU_PER_DSS) + count(DRM_XE_TOPO_SIMD16_EU_PER_DSS);
                (id, dss * eu_per, Backend::new_xe(x)?)
            }
        };
        let platform = kmd_iface::pci::platform_for(device_id)
            .ok_or(Error::UnknownDeviceId(device_id))?
            .platform;
        let granule = backend.granule()?;
        Ok(Device {
            inner: Arc::new(Inner {
                info: DeviceInfo {
                    name,
                    platform,
                    kmd: got,
                    eu_count,
                    simulated: sim.is_some(),
                },
                backend: Mutex::new(backend),
                va: Mutex::new(VaHeap::new(granule)),
                sim,
                errors_seen: Mutex::new(0),
            }),
            scratch: Arc::default(),
        })
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.inner.info
    }

    pub fn platform(&self) -> Platform {
        self.inner.info.platform
    }
}

impl Inner {
    pub(crate) fn backend(&self) -> MutexGuard<'_, Backend> {
        lock(&self.backend)
    }

    pub(crate) fn va(&self) -> MutexGuard<'_, VaHeap> {
        lock(&self.va)
    }

    /// Turns a failed submission into an error naming what the GPU reported, and replaces the
    /// banned context so the device stays usable.
    pub(crate) fn explain_failure(&self, batch_address: u64) -> Error {
        let err = match &self.sim {
            Some(sim) => {
                let records = sim.error_states();
                let mut seen = lock(&self.errors_seen);
                let new = records.get(*seen..).unwrap_or_default().to_vec();
                *seen = records.len();
                match new.last() {
                    Some(r) => Error::from(r),
                    None => Error::Incomplete(format!(
                        "batch at {batch_address:#x} failed and the simulator logged no error"
                    )),
                }
            }
            // Hardware: the kernel's error capture (i915 error state, xe devcoredump).
            None => self.backend().hardware_error(batch_address),
        };
        if let Err(e) = self.backend().recover() {
            return Error::GpuHang {
                at: err.instruction(),
                detail: format!("{err}; and the context could not be replaced: {e}"),
            };
        }
        err
    }
}
