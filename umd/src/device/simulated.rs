//! The simulator as a device (cargo feature `sim`, on by default): opening it and the kernel
//! drivers it offers. Its GPU errors reach umd as a kernel driver's do, through the error
//! capture in its sysfs tree. Without the feature, `sim:` devices are an error.

#[cfg(feature = "sim")]
pub use with::*;

#[cfg(feature = "sim")]
mod with {
    use platform::Platform;

    use super::super::{Device, KmdChoice};
    use crate::error::{Error, Result};

    fn sim_kmd(k: KmdChoice) -> sim::Kmd {
        match k {
            KmdChoice::I915 => sim::Kmd::I915,
            KmdChoice::Xe => sim::Kmd::Xe,
        }
    }

    /// What a program that makes no OpenCL calls says when the sanitizer checks `checks` (as
    /// `INTEL_GPU_SANITIZE` lists them) include `api`, the OpenCL ICD's check of its calls;
    /// None when they do not (or do not parse: opening the device says why).
    pub fn sanitize_api_note(checks: &str) -> Option<&'static str> {
        sim::sanitize::Checks::parse(checks)
            .is_ok_and(|c| c.has(sim::sanitize::Check::Api))
            .then_some(sim::sanitize::API_ELSEWHERE)
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

    /// The simulator's fused-off parts: name (`<platform>-<part>`) and platform.
    pub fn sim_parts() -> Vec<(&'static str, Platform)> {
        sim::device_info::FUSED_PARTS
            .iter()
            .map(|p| (p.name, p.platform))
            .collect()
    }

    impl Device {
        /// Opens a new simulated fused-off part (`tgllp-80eu`, see [`sim_parts`]) through `kmd`
        /// (default i915): its kernel driver reports the part's topology, and the limits
        /// follow it.
        pub fn open_sim_part(name: &str, kmd: Option<KmdChoice>) -> Result<Device> {
            let part = sim::device_info::FusedPart::named(name).ok_or_else(|| {
                let known: Vec<_> = sim_parts().into_iter().map(|(n, _)| n).collect();
                Error::Sim(format!(
                    "sim:{name}: no such simulated part (known: {})",
                    known.join(", ")
                ))
            })?;
            let k = kmd.unwrap_or(KmdChoice::I915);
            let config = sim::SimConfig {
                part: Some(part),
                ..sim::SimConfig::default()
            };
            let dev = sim::open_device(part.platform, sim_kmd(k), config)
                .map_err(|e| Error::Sim(e.to_string()))?;
            let sanitizer = dev.sanitizer();
            let d = Self::open_device_file(format!("sim:{name}"), dev, kmd)?;
            d.attach_sanitizer(sanitizer);
            Ok(d)
        }

        /// Opens a new simulated `p` through `kmd` (default i915, which every platform offers).
        pub fn open_sim(p: Platform, kmd: Option<KmdChoice>) -> Result<Device> {
            let k = kmd.unwrap_or(KmdChoice::I915);
            let dev = sim::open_device(p, sim_kmd(k), sim::SimConfig::default())
                .map_err(|e| Error::Sim(e.to_string()))?;
            let sanitizer = dev.sanitizer();
            let d = Self::open_device_file(format!("sim:{}", p.name()), dev, kmd)?;
            d.attach_sanitizer(sanitizer);
            Ok(d)
        }

        /// Opens a new simulated `p` through `kmd` whose threads run translated host code for
        /// their straight-line ALU runs (`jit`) or the interpreter alone, whatever
        /// `INTEL_GPU_SIM_JIT` says. Results are the same either way.
        pub fn open_sim_with_jit(p: Platform, kmd: Option<KmdChoice>, jit: bool) -> Result<Device> {
            Self::open_sim_with_executor(p, kmd, sim::dispatch::EuExecutor::default().with_jit(jit))
        }

        /// Opens a new simulated `p` through `kmd` with translated code on and every kernel
        /// translated before its first run, not once it is hot (for tests of the translated
        /// code: slower on small kernels, the same results).
        pub fn open_sim_translating_every_kernel(
            p: Platform,
            kmd: Option<KmdChoice>,
        ) -> Result<Device> {
            let exec = sim::dispatch::EuExecutor::default()
                .with_jit(true)
                .with_jit_hot_after(0);
            Self::open_sim_with_executor(p, kmd, exec)
        }

        fn open_sim_with_executor(
            p: Platform,
            kmd: Option<KmdChoice>,
            exec: sim::dispatch::EuExecutor,
        ) -> Result<Device> {
            let k = kmd.unwrap_or(KmdChoice::I915);
            let config = sim::SimConfig {
                walker: std::sync::Arc::new(exec),
                ..sim::SimConfig::default()
            };
            let dev =
                sim::open_device(p, sim_kmd(k), config).map_err(|e| Error::Sim(e.to_string()))?;
            let sanitizer = dev.sanitizer();
            let d = Self::open_device_file(format!("sim:{}", p.name()), dev, kmd)?;
            d.attach_sanitizer(sanitizer);
            Ok(d)
        }

        /// Opens a new simulated `p` through `kmd` running the sanitizer's `checks` (a
        /// comma-separated list as `INTEL_GPU_SANITIZE` takes it; empty: off, whatever the
        /// environment says), its findings reported on stderr and appended to `log` as JSON
        /// lines.
        pub fn open_sim_sanitized(
            p: Platform,
            kmd: Option<KmdChoice>,
            checks: &str,
            log: Option<std::path::PathBuf>,
        ) -> Result<Device> {
            let checks = sim::sanitize::Checks::parse(checks)
                .map_err(|e| Error::Argument(format!("sanitizer: {e}")))?;
            let config = sim::SimConfig {
                sanitize: Some(sim::sanitize::Settings { checks, log }),
                ..sim::SimConfig::default()
            };
            Self::open_sim_config(p, kmd, config)
        }

        /// Opens a new simulated `p` through `kmd` made as `config` says (its walker executor,
        /// its sanitizer), umd telling the sanitizer of its buffers and dispatches.
        pub fn open_sim_config(
            p: Platform,
            kmd: Option<KmdChoice>,
            config: sim::SimConfig,
        ) -> Result<Device> {
            let k = kmd.unwrap_or(KmdChoice::I915);
            let dev =
                sim::open_device(p, sim_kmd(k), config).map_err(|e| Error::Sim(e.to_string()))?;
            let sanitizer = dev.sanitizer();
            let d = Self::open_device_file(format!("sim:{}", p.name()), dev, kmd)?;
            d.attach_sanitizer(sanitizer);
            Ok(d)
        }

        /// Tells the simulator's sanitizer (if it runs one) of this device's buffers and
        /// dispatches.
        fn attach_sanitizer(&self, s: Option<std::sync::Arc<sim::sanitize::Sanitizer>>) {
            if let Some(s) = s {
                self.inner.sanitize.attach(s);
            }
        }
    }
}

#[cfg(not(feature = "sim"))]
mod without {
    use platform::Platform;

    use super::super::{Device, KmdChoice};
    use crate::error::{Error, Result};

    impl Device {
        /// Refused: this build has no simulator.
        pub fn open_sim(p: Platform, _kmd: Option<KmdChoice>) -> Result<Device> {
            Err(Error::Sim(format!(
                "sim:{} needs umd's `sim` feature, which this build leaves out",
                p.name()
            )))
        }

        /// Refused: this build has no simulator.
        pub fn open_sim_part(name: &str, _kmd: Option<KmdChoice>) -> Result<Device> {
            Err(Error::Sim(format!(
                "sim:{name} needs umd's `sim` feature, which this build leaves out"
            )))
        }
    }
}
