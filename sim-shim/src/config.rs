//! `INTEL_GPU_SIM=<platform>[@i915|@xe]`: which simulated GPU the process sees. A fused-off part
//! (`sim::device_info::FUSED_PARTS`, e.g. `tgllp-80eu`) stands where a platform may.

use platform::Platform;
use sim::device_info::{DeviceInfo, FusedPart};
use sim::Kmd;

/// The simulated GPU behind `/dev/dri/renderD128`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    pub platform: Platform,
    pub kmd: Kmd,
    /// A fused-off part of `platform` instead of the full one.
    pub part: Option<&'static FusedPart>,
}

/// The variable's name.
pub const VAR: &str = "INTEL_GPU_SIM";

/// A directory: when set, every request's executed batch commands and its walkers' dispatch
/// records are written there (`sim::SimConfig::command_log`), two files per request, for
/// `intel-gpu-run decode-batch` and `batch-diff`.
pub const COMMAND_LOG_VAR: &str = "INTEL_GPU_SIM_COMMAND_LOG";

/// Set to `denied`: opening the nodes fails with `EACCES`, what a user outside group `render`
/// gets from the kernel's `crw-rw---- root:render` nodes, so a program's report of a GPU it may
/// not use can be tested.
pub const NODE_ACCESS_VAR: &str = "INTEL_GPU_SIM_NODE_ACCESS";

/// Whether [`NODE_ACCESS_VAR`] denies this process the nodes.
pub fn node_access_denied() -> bool {
    std::env::var_os(NODE_ACCESS_VAR).is_some_and(|v| v == "denied")
}

/// Unset means tgllp behind i915.
pub const DEFAULT: Config = Config {
    platform: Platform::Tgllp,
    kmd: Kmd::I915,
    part: None,
};

/// Parses the variable's value (`None`: unset).
pub fn parse(value: Option<&str>) -> Result<Config, String> {
    let Some(value) = value else {
        return Ok(DEFAULT);
    };
    let (name, kmd) = match value.split_once('@') {
        None => (value, Kmd::I915),
        Some((name, "i915")) => (name, Kmd::I915),
        Some((name, "xe")) => (name, Kmd::Xe),
        Some((_, other)) => {
            return Err(format!(
                "{VAR}={value}: unknown kernel driver '{other}' (expected i915 or xe)"
            ))
        }
    };
    let (platform, part) = match FusedPart::named(name) {
        Some(part) => (part.platform, Some(part)),
        None => (
            name.parse().map_err(|e| format!("{VAR}={value}: {e}"))?,
            None,
        ),
    };
    if !DeviceInfo::get(platform).supports(kmd) {
        return Err(format!(
            "{VAR}={value}: the {kmd:?} kernel driver does not support {platform}"
        ));
    }
    Ok(Config {
        platform,
        kmd,
        part,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values() {
        assert_eq!(parse(None), Ok(DEFAULT));
        assert_eq!(
            parse(Some("dg2@xe")),
            Ok(Config {
                platform: Platform::Dg2,
                kmd: Kmd::Xe,
                part: None,
            })
        );
        assert_eq!(
            parse(Some("skl")),
            Ok(Config {
                platform: Platform::Skl,
                kmd: Kmd::I915,
                part: None,
            })
        );
        let a750 = parse(Some("dg2-a750@xe")).unwrap();
        assert_eq!((a750.platform, a750.kmd), (Platform::Dg2, Kmd::Xe));
        assert_eq!(a750.part.map(|p| p.pci_id), Some(0x56a1));
        assert!(parse(Some("skl-gt1@xe")).is_err());
        assert!(parse(Some("tgllp-70eu")).is_err());
        assert!(parse(Some("skl@xe"))
            .unwrap_err()
            .contains("does not support"));
        assert!(parse(Some("tgllp@amdgpu")).unwrap_err().contains("amdgpu"));
        assert!(parse(Some("gen99")).is_err());
    }
}
