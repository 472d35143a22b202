//! The simulator as a device (cargo feature `sim`, on by default): opening it, the kernel
//! drivers it offers, and its GPU error log. Without the feature, `sim:` devices are an error.

#[cfg(feature = "sim")]
pub use with::*;
#[cfg(not(feature = "sim"))]
pub(crate) use without::*;

#[cfg(feature = "sim")]
mod with {
    use std::sync::Arc;

    use platform::Platform;

    use super::super::{Device, KmdChoice};
    use crate::error::{Error, Result};

    /// The simulator's GPU error log.
    pub(crate) type Log = Arc<sim::SimDevice>;

    fn sim_kmd(k: KmdChoice) -> sim::Kmd {
        match k {
            KmdChoice::I915 => sim::Kmd::I915,
            KmdChoice::Xe => sim::Kmd::Xe,
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

    impl Device {
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
            let dev =
                sim::open_device(p, sim_kmd(k), config).map_err(|e| Error::Sim(e.to_string()))?;
            let file: Arc<dyn kmd_iface::seam::DeviceFile> = dev.clone();
            Self::open_file(format!("sim:{}", p.name()), file, kmd, Some(dev))
        }
    }

    /// The error the simulator logged for the batch at `batch_address` (the newest record of
    /// that batch not reported yet; `reported` lists those that were).
    pub(crate) fn explain(log: &Log, reported: &mut Vec<u64>, batch_address: u64) -> Error {
        let records = log.error_states();
        let mine = records
            .iter()
            .rev()
            .find(|r| r.batch == batch_address && !reported.contains(&r.id));
        match mine {
            Some(r) => {
                reported.push(r.id);
                Error::from_sim_record(r)
            }
            None => Error::Incomplete(format!(
                "batch at {batch_address:#x} did not complete and the simulator logged no \
                 error for it (an earlier failure on its queue cancels the work queued \
                 behind it)"
            )),
        }
    }
}

#[cfg(not(feature = "sim"))]
mod without {
    use platform::Platform;

    use super::super::{Device, KmdChoice};
    use crate::error::{Error, Result};

    /// Never built: there is no simulator.
    pub(crate) type Log = std::convert::Infallible;

    impl Device {
        /// Refused: this build has no simulator.
        pub fn open_sim(p: Platform, _kmd: Option<KmdChoice>) -> Result<Device> {
            Err(Error::Sim(format!(
                "sim:{} needs umd's `sim` feature, which this build leaves out",
                p.name()
            )))
        }
    }
}
