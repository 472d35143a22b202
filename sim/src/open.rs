//! Opening a simulated render node: the GPU model built for a platform (or a fused part of
//! it) and the kernel driver personality its files speak.

use std::sync::Arc;
use std::time::Duration;

use kmd_iface::seam::DeviceFile;
use platform::Platform;

use crate::cs::{Budget, WalkerExecutor};
use crate::device::{Personality, SimDevice, SimGpu};
use crate::device_info::DeviceInfo;
use crate::dispatch::EuExecutor;
use crate::gpu::Gpu;
use crate::sysfs::SysfsTree;
use crate::{i915, xe, Kmd};

/// How a simulated device is built.
#[derive(Clone)]
pub struct SimConfig {
    /// The hang watchdog's limits per submission.
    pub budget: Budget,
    /// Who runs GPGPU_WALKER/COMPUTE_WALKER: the EU interpreter ([`EuExecutor`]) by default;
    /// [`crate::cs::NoWalkerExecutor`] makes every walker a reported GPU error.
    pub walker: Arc<dyn WalkerExecutor>,
    /// Caps every blocking wait (GEM_WAIT, SYNCOBJ_WAIT, WAIT_USER_FENCE): a longer wait ends
    /// with ETIME at the cap. For fuzzing, where an "infinite" timeout would stall the run.
    pub wait_limit: Option<Duration>,
    /// A directory to write every request's executed batch commands to (`<n>-<engine>.bin`:
    /// each command's dwords in the order the command streamer ran them, following chained
    /// and second-level batches), for `intel-gpu-run decode-batch`, and each walker's dispatch
    /// record (`<n>-<engine>.dispatch.jsonl`, `dispatch::record`), for `intel-gpu-run
    /// batch-diff`. None: nothing written.
    pub command_log: Option<std::path::PathBuf>,
    /// A fused-off part of the platform (`device_info::FUSED_PARTS`) instead of the full one.
    pub part: Option<&'static crate::device_info::FusedPart>,
    /// The sanitizer's checks; None: as `INTEL_GPU_SANITIZE` (and `INTEL_GPU_SANITIZE_LOG`)
    /// say when the GPU is created.
    pub sanitize: Option<crate::sanitize::Settings>,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            budget: Budget::default(),
            walker: Arc::new(EuExecutor::default()),
            wait_limit: None,
            command_log: None,
            part: None,
            sanitize: None,
        }
    }
}

/// Why a simulated device could not be opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    #[error("the {kmd:?} kernel driver does not support {platform} (xe starts at Gen12LP)")]
    Unsupported { platform: Platform, kmd: Kmd },
    #[error("cannot allocate the simulated device's memory")]
    NoMemory,
    #[error("{part} is not a simulated {platform} part")]
    NotAPart { platform: Platform, part: String },
    #[error("INTEL_GPU_SANITIZE: {0}")]
    Sanitize(#[from] sim_eu::sanitize::ChecksError),
    #[error(transparent)]
    Jit(#[from] crate::dispatch::jit::SwitchError),
}

/// Opens a render node of a new simulated `platform` GPU driven by `kmd`, as a
/// [`DeviceFile`] for kmd-iface's i915 or xe code.
///
/// ```
/// use kmd_iface::seam::DeviceFile;
/// let dev = sim::open(platform::Platform::Tgllp, sim::Kmd::Xe).unwrap();
/// let _: &dyn DeviceFile = dev.as_ref();
/// assert!(sim::open(platform::Platform::Skl, sim::Kmd::Xe).is_err());
/// ```
pub fn open(platform: Platform, kmd: Kmd) -> Result<Arc<dyn DeviceFile>, OpenError> {
    Ok(open_device(platform, kmd, SimConfig::default())?)
}

/// Like [`open`], with a configuration, returning the concrete device (for its error state).
pub fn open_device(
    platform: Platform,
    kmd: Kmd,
    config: SimConfig,
) -> Result<Arc<SimDevice>, OpenError> {
    Ok(SimGpu::new(platform, kmd, config)?.open_file())
}

/// The personality of `kmd`.
fn personality(kmd: Kmd) -> &'static dyn Personality {
    match kmd {
        Kmd::I915 => &i915::I915,
        Kmd::Xe => &xe::Xe,
    }
}

impl SimGpu {
    /// A freshly powered-on simulated `platform` GPU driven by `kmd`, with no file open yet.
    pub fn new(platform: Platform, kmd: Kmd, config: SimConfig) -> Result<SimGpu, OpenError> {
        let info = match config.part {
            None => DeviceInfo::get(platform),
            Some(p) => DeviceInfo::of_part(p)
                .filter(|i| i.platform == platform)
                .ok_or_else(|| OpenError::NotAPart {
                    platform,
                    part: p.name.into(),
                })?,
        };
        if !info.supports(kmd) {
            return Err(OpenError::Unsupported { platform, kmd });
        }
        // A bad INTEL_GPU_SIM_JIT fails here, not silently at the first walker.
        crate::dispatch::jit::from_env()?;
        let sysfs = Arc::new(SysfsTree::new(info, kmd));
        let personality = personality(kmd);
        let driver = personality.kernel_driver(info, sysfs.clone());
        let gpu = Gpu::new(info, config.budget, config.walker, Some(driver))
            .map_err(|_| OpenError::NoMemory)?
            .with_command_log(config.command_log)
            .with_sanitizer(crate::sanitize::Sanitizer::configured(config.sanitize)?);
        Ok(SimGpu::from_parts(
            personality,
            info,
            gpu,
            config.wait_limit,
            sysfs,
        ))
    }
}
