//! Where a render node's error capture lives in sysfs, and reading it.
//!
//! `node_dir` is the node's sysfs directory (`/sys/class/drm/renderD128`, or
//! `/sys/dev/char/226:128`, which links to the same place; [`crate::seam::DeviceFile::sysfs_dir`]
//! gives it for an open node). Its `device` link is the PCI device, shared with the primary
//! node `cardN`:
//! - i915 puts the error state on the primary node: `device/drm/cardN/error`
//!   (`i915_sysfs.c`, `CONFIG_DRM_I915_CAPTURE_ERROR`);
//! - xe's devcoredump hangs off the PCI device: `device/devcoredump/data`
//!   (`drivers/base/devcoredump.c`, `CONFIG_DEV_COREDUMP`).

use std::path::{Path, PathBuf};

use super::{i915, xe, Capture, CaptureError};
use crate::discovery::Driver;

/// The capture file for `driver` under `node_dir`, if the kernel made one.
pub fn capture_path(node_dir: &Path, driver: Driver) -> Option<PathBuf> {
    let device = node_dir.join("device");
    match driver {
        Driver::I915 => {
            let mut cards: Vec<(u32, PathBuf)> = std::fs::read_dir(device.join("drm"))
                .ok()?
                .filter_map(|e| e.ok())
                .filter_map(|e| {
                    let name = e.file_name().into_string().ok()?;
                    let n = name.strip_prefix("card")?.parse().ok()?;
                    Some((n, e.path().join("error")))
                })
                .filter(|(_, p)| p.exists())
                .collect();
            cards.sort();
            cards.into_iter().next().map(|(_, p)| p)
        }
        Driver::Xe => Some(device.join("devcoredump").join("data")).filter(|p| p.exists()),
    }
}

/// Reads and parses the capture of the node at `node_dir`.
pub fn read_capture(node_dir: &Path, driver: Driver) -> Result<Capture, CaptureError> {
    let path = capture_path(node_dir, driver)
        .ok_or_else(|| CaptureError::NotFound(node_dir.display().to_string()))?;
    let bytes = std::fs::read(&path).map_err(|e| CaptureError::Read {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    // The texts are ASCII but carry user strings (process names); never fail on those.
    let text = String::from_utf8_lossy(&bytes);
    match driver {
        Driver::I915 => i915::parse(&text),
        Driver::Xe => xe::parse(&text),
    }
}
