//! Devices: a render node or the simulator, reached through i915 or xe.
//!
//! [`DeviceSpec`] names a device as the CLI does: `auto`, `sim:<platform>`,
//! `sim:<platform>-<part>` (a fused-off part, e.g. `sim:tgllp-80eu`) or a render node path. [`Device::open`] resolves it, picks the kernel-driver uAPI and sets up the VM every
//! queue of the device runs in, and the default queue of the synchronous calls (see
//! [`crate::queue`]).
//!
//! This file is the device's core (`Inner`: kernel driver, VM, the list of its queues),
//! which buffers, kernels and queues are built on; the public [`Device`] adds the default
//! queue on top of them, in `handle.rs`.

mod backend;
pub(crate) mod bo_reuse;
mod group_size;
mod handle;
pub(crate) mod sanitize;
mod simulated;
mod topology;
mod va;

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use batchbuffer::builder::{gen_data, DeviceLimits};
use kmd_iface::discovery::Driver;
use kmd_iface::Kmd;
use platform::Platform;

pub(crate) use backend::Backend;
pub(crate) use backend::RawBo;
pub(crate) use backend::SubmitScratch;
pub use backend::{Caching, Engine, ExecObject, GpuClock, Outcome, QueuePriority};
pub use handle::Device;
#[cfg(feature = "sim")]
pub use simulated::{sanitize_api_note, sim_kmds, sim_parts};
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
    /// A fused-off part of a simulated platform, by the simulator's name for it
    /// (`<platform>-<part>`, e.g. `tgllp-80eu`).
    SimPart {
        platform: Platform,
        part: String,
    },
    Node(PathBuf),
}

impl FromStr for DeviceSpec {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        if s == "auto" {
            return Ok(DeviceSpec::Auto);
        }
        if let Some(p) = s.strip_prefix("sim:") {
            if let Ok(platform) = p.parse::<Platform>() {
                return Ok(DeviceSpec::Sim(platform));
            }
            return match p.split_once('-').map(|(plat, _)| plat.parse::<Platform>()) {
                Some(Ok(platform)) => Ok(DeviceSpec::SimPart {
                    platform,
                    part: p.into(),
                }),
                _ => Err(Error::BadDeviceName(s.into())),
            };
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
    #[cfg(feature = "sim")]
    for p in Platform::ALL {
        out.push(Listed {
            name: format!("sim:{}", p.name()),
            platform: Some(p),
            kmds: sim_kmds(p),
            simulated: true,
            detail: "functional simulator".into(),
        });
    }
    #[cfg(feature = "sim")]
    for (name, p) in sim_parts() {
        out.push(Listed {
            name: format!("sim:{name}"),
            platform: Some(p),
            kmds: sim_kmds(p),
            simulated: true,
            detail: "functional simulator, fused-off part".into(),
        });
    }
    out
}

/// What a device is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    /// `sim:tgllp` or the render node path.
    pub name: String,
    /// The PCI device id the kernel driver reports (I915_PARAM_CHIPSET_ID, xe's config).
    pub device_id: u16,
    pub platform: Platform,
    pub kmd: KmdChoice,
    pub eu_count: u32,
    /// Subslices the kernel driver reports (dual-subslices from Gen12 on, Xe-cores on
    /// Xe-HPG): a work-group runs in one (see [`DeviceInfo::max_work_group_size`]).
    pub subslice_count: u32,
    /// Enabled slices the kernel driver reports (i915's topology query; xe reports DSS
    /// without slices: 1).
    pub slice_count: u32,
    pub simulated: bool,
    /// The GT topology the kernel driver reports.
    pub topology: batchbuffer::builder::GtTopology,
    /// The front end's thread count and the scratch slices, from `topology`.
    pub limits: batchbuffer::builder::DeviceLimits,
}

impl DeviceInfo {
    /// CL_DEVICE_SUB_GROUP_SIZES_INTEL.
    pub fn sub_group_sizes(&self) -> &'static [usize] {
        &SUB_GROUP_SIZES
    }
}

/// A queue as the device sees it: work held back until host events are signalled. A trait
/// so the device keeps its queues without depending on the queue module, which is built on it.
pub(crate) trait HoldsWork: Send + Sync {
    /// Submits held work whose dependencies are now submitted; true if any was.
    fn flush(&self) -> bool;
}

pub(crate) struct Inner {
    pub info: DeviceInfo,
    backend: Backend,
    va: Mutex<VaHeap>,
    /// Every live queue, to hand over held work when a host event is signalled.
    queues: Mutex<Vec<Weak<dyn HoldsWork>>>,
    /// The in-process simulator's sanitizer, told of buffers and dispatches.
    pub(crate) sanitize: sanitize::Sanitize,
    /// Freed BOs kept for the next allocation of about their size.
    pub(crate) kept: bo_reuse::Kept,
}

impl Drop for Inner {
    /// Last of the device to go (every buffer, kernel upload and queue holds it): the BOs it
    /// kept are all its VM still holds.
    fn drop(&mut self) {
        let kept = self.kept.drain();
        self.give_back(kept);
        self.backend.vm_destroy();
    }
}

impl std::fmt::Debug for Inner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device").field("info", &self.info).finish()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere cannot leave these in a torn state (every update is one assignment).
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// `auto`'s render node: the first Intel one. None only when there is no render node to
/// consider, so the simulator never stands in for a GPU that is there: a node that cannot be
/// opened or asked is an error naming it and the errno, and so is an Intel GPU outside the
/// supported platforms.
fn auto_node() -> Result<Option<kmd_iface::discovery::Found>> {
    use kmd_iface::discovery::{discover, Skipped};
    let d = discover().map_err(|e| Error::Node {
        path: "/dev/dri".into(),
        reason: format!("cannot be listed: {e}"),
    })?;
    if let Some((path, Skipped::Failed(e))) = d
        .skipped
        .iter()
        .find(|(_, s)| matches!(s, Skipped::Failed(_)))
    {
        return Err(Error::Node {
            path: path.display().to_string(),
            reason: format!("cannot be opened: {e}"),
        });
    }
    let mut found = d.found.into_iter();
    match found.next() {
        None => Ok(None),
        Some(f) if f.pci.is_some() => Ok(Some(f)),
        Some(f) => Err(match f.device_id {
            Some(id) => Error::UnknownDeviceId(id),
            None => Error::Node {
                path: f.path.display().to_string(),
                reason: "sysfs does not give its PCI device id".into(),
            },
        }),
    }
}

impl Inner {
    /// Opens the device behind `file` (called `name` in reports) through `want`, or the
    /// uAPI its kernel driver offers, and sets up its VM.
    fn open(
        name: String,
        file: Arc<dyn kmd_iface::seam::DeviceFile>,
        want: Option<KmdChoice>,
    ) -> Result<Arc<Inner>> {
        let kmd = Kmd::new(file)?;
        let got = KmdChoice::of(kmd.driver());
        if let Some(w) = want.filter(|&w| w != got) {
            return Err(Error::Node {
                path: name,
                reason: format!("is driven by {}, not {}", got.name(), w.name()),
            });
        }
        let (device_id, backend, topo, slice_count) = match kmd {
            Kmd::I915(d) => {
                let params = d.params()?;
                let t = d.topology()?;
                let topo = topology::from_i915(&t);
                let slices = t.slice_total() as u32;
                (params.chipset_id, Backend::new_i915(d)?, topo, slices)
            }
            Kmd::Xe(x) => {
                let id = x.config()?.device_id().unwrap_or(0);
                let p = kmd_iface::pci::platform_for(id)
                    .ok_or(Error::UnknownDeviceId(id))?
                    .platform;
                let arch_eus = gen_data(p).representative.max_eus_per_subslice;
                let topo = topology::from_xe(&x.gt_topology()?, arch_eus);
                (id, Backend::new_xe(x, p)?, topo, 1)
            }
        };
        let platform = kmd_iface::pci::platform_for(device_id)
            .ok_or(Error::UnknownDeviceId(device_id))?
            .platform;
        let limits = DeviceLimits::new(platform, &topo)?;
        let va = VaHeap::with_end(backend.granule()?, backend.va_end()?);
        Ok(Arc::new(Inner {
            info: DeviceInfo {
                simulated: name.starts_with("sim:"),
                name,
                device_id,
                platform,
                kmd: got,
                eu_count: topo.eus,
                subslice_count: topo.subslices,
                slice_count,
                topology: topo,
                limits,
            },
            backend,
            va: Mutex::new(va),
            queues: Mutex::default(),
            sanitize: sanitize::Sanitize::default(),
            kept: Default::default(),
        }))
    }

    pub(crate) fn backend(&self) -> &Backend {
        &self.backend
    }

    pub(crate) fn va(&self) -> MutexGuard<'_, VaHeap> {
        lock(&self.va)
    }

    pub(crate) fn register_queue(&self, q: Weak<dyn HoldsWork>) {
        let mut qs = lock(&self.queues);
        qs.retain(|w| w.strong_count() > 0);
        qs.push(q);
    }

    /// Hands held work to the kernel on every queue until none moves (work on one queue may
    /// be what another's waits for).
    pub(crate) fn flush_queues(&self) {
        loop {
            let live: Vec<Arc<dyn HoldsWork>> = lock(&self.queues)
                .iter()
                .filter_map(Weak::upgrade)
                .collect();
            let mut progress = false;
            for q in live {
                progress |= q.flush();
            }
            if !progress {
                break;
            }
        }
    }

    /// The error of a batch whose syncobj signalled without its fence landing: what the
    /// kernel driver's error capture (i915 error state, xe devcoredump) reports for it, on
    /// hardware and on the simulator alike.
    pub(crate) fn explain_failure(&self, ctx: u32, batch_address: u64) -> Error {
        self.backend().hardware_error(ctx, batch_address)
    }
}
