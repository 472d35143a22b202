//! Where the kernel drivers publish the GPU's frequency limits in sysfs, and reading the
//! maximum.
//!
//! `node_dir` is the render node's sysfs directory ([`crate::seam::DeviceFile::sysfs_dir`]);
//! its `device` link is the PCI device. Linux 6.12:
//! - i915 puts GT 0's RPS attributes on the primary node, `device/drm/cardN/gt_*_freq_mhz`
//!   (`gt/intel_gt_sysfs_pm.c`, the legacy attributes every i915 user reads, Intel's runtime
//!   among them), and every GT's under `cardN/gt/gtM/rps_*_freq_mhz`;
//! - xe puts them under the GT's directory, `device/tile0/gt0/freq0/*_freq` (`xe_gt_freq.c`).
//!
//! Each maximum starts at RP0, the part's highest frequency, and reads as a decimal number of
//! MHz with a newline.

use std::path::{Path, PathBuf};

use crate::discovery::Driver;

/// i915's maximum-frequency file on the primary node (`gt_max_freq_mhz`) and RP0's.
pub const I915_CARD_FILES: [&str; 2] = ["gt_max_freq_mhz", "gt_RP0_freq_mhz"];
/// i915's per-GT directory under the primary node and its files for the same two values.
pub const I915_GT0_DIR: &str = "gt/gt0";
pub const I915_GT_FILES: [&str; 2] = ["rps_max_freq_mhz", "rps_RP0_freq_mhz"];
/// xe's frequency directory under the PCI device and its maximum and RP0 files.
pub const XE_FREQ_DIR: &str = "tile0/gt0/freq0";
pub const XE_FILES: [&str; 2] = ["max_freq", "rp0_freq"];

/// The primary node's directory (`device/drm/cardN`, the lowest N) of the node at `node_dir`.
fn card_dir(node_dir: &Path) -> Option<PathBuf> {
    let mut cards: Vec<(u32, PathBuf)> = std::fs::read_dir(node_dir.join("device").join("drm"))
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            Some((name.strip_prefix("card")?.parse().ok()?, e.path()))
        })
        .collect();
    cards.sort();
    cards.into_iter().next().map(|(_, p)| p)
}

/// The file holding the current maximum frequency of the device at `node_dir`.
pub fn max_freq_path(node_dir: &Path, driver: Driver) -> Option<PathBuf> {
    match driver {
        Driver::I915 => Some(card_dir(node_dir)?.join(I915_CARD_FILES[0])),
        Driver::Xe => Some(node_dir.join("device").join(XE_FREQ_DIR).join(XE_FILES[0])),
    }
}

/// The maximum frequency in MHz, or None where the kernel publishes none (no sysfs, a
/// driver built without RPS) or the file does not hold a number.
pub fn max_freq_mhz(node_dir: &Path, driver: Driver) -> Option<u32> {
    let text = std::fs::read_to_string(max_freq_path(node_dir, driver)?).ok()?;
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn reads_each_drivers_file() {
        let dir = tempfile::tempdir().unwrap();
        let pci = dir.path().join("pci");
        let node = dir.path().join("node");
        std::fs::create_dir_all(&node).unwrap();
        std::os::unix::fs::symlink(&pci, node.join("device")).unwrap();
        assert_eq!(max_freq_mhz(&node, Driver::I915), None);
        write(&pci.join("drm/card1/gt_max_freq_mhz"), "1300\n");
        write(&pci.join("drm/renderD128/dev"), "226:128\n");
        assert_eq!(max_freq_mhz(&node, Driver::I915), Some(1300));
        write(&pci.join("tile0/gt0/freq0/max_freq"), "2400\n");
        assert_eq!(max_freq_mhz(&node, Driver::Xe), Some(2400));
        write(&pci.join("tile0/gt0/freq0/max_freq"), "fast\n");
        assert_eq!(max_freq_mhz(&node, Driver::Xe), None);
    }
}
