//! Finding Intel GPUs: enumerate render nodes, tell i915 from xe by the DRM VERSION name, and map
//! the PCI device id to a platform.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use drm::node::NodeType;

use crate::drm_core::version;
use crate::error::Result;
use crate::pci::{platform_for, PciId};
use crate::render_node::RenderNode;
use crate::seam::DeviceFile;

/// The kernel driver behind a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Driver {
    I915,
    Xe,
}

impl Driver {
    /// From `DRM_IOCTL_VERSION`'s name.
    pub fn from_version_name(name: &str) -> Option<Self> {
        match name {
            "i915" => Some(Driver::I915),
            "xe" => Some(Driver::Xe),
            _ => None,
        }
    }
}

/// An Intel GPU render node and what it is.
#[derive(Debug, Clone)]
pub struct Found {
    pub path: PathBuf,
    pub driver: Driver,
    /// From sysfs; `None` when sysfs does not say.
    pub device_id: Option<u16>,
    /// `None` for an id outside the supported generations.
    pub pci: Option<&'static PciId>,
    pub file: Arc<dyn DeviceFile>,
}

/// Why a node was passed over.
#[derive(Debug)]
pub enum Skipped {
    /// sysfs names a non-Intel PCI vendor.
    NotIntel { vendor: u16 },
    /// Another kernel driver (amdgpu, nouveau, vgem...).
    OtherDriver { name: String },
    /// Opening or asking it failed.
    Failed(crate::Error),
}

#[derive(Debug, Default)]
pub struct Discovery {
    pub found: Vec<Found>,
    pub skipped: Vec<(PathBuf, Skipped)>,
}

const INTEL_VENDOR: u16 = 0x8086;

/// `renderD<minor>` entries of `dev_dri`, by minor number.
pub fn render_nodes(dev_dri: &Path) -> std::io::Result<Vec<PathBuf>> {
    let prefix = NodeType::Render.minor_name_prefix();
    let mut nodes: Vec<(u32, PathBuf)> = std::fs::read_dir(dev_dri)?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let minor = name.strip_prefix(prefix)?.parse().ok()?;
            Some((minor, e.path()))
        })
        .collect();
    nodes.sort();
    Ok(nodes.into_iter().map(|(_, p)| p).collect())
}

/// A `0x1234` sysfs attribute (`vendor`, `device`) of the node's PCI device.
fn sysfs_hex(sysfs_class_drm: &Path, node: &str, attr: &str) -> Option<u16> {
    let text =
        std::fs::read_to_string(sysfs_class_drm.join(node).join("device").join(attr)).ok()?;
    u16::from_str_radix(text.trim().strip_prefix("0x")?, 16).ok()
}

/// Discovers Intel GPUs among the render nodes of `dev_dri`, reading PCI ids under
/// `sysfs_class_drm` (normally `/sys/class/drm`) and opening nodes with `open`.
pub fn discover_in(
    dev_dri: &Path,
    sysfs_class_drm: &Path,
    open: &dyn Fn(&Path) -> Result<Arc<dyn DeviceFile>>,
) -> std::io::Result<Discovery> {
    let mut d = Discovery::default();
    for path in render_nodes(dev_dri)? {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let vendor = sysfs_hex(sysfs_class_drm, name, "vendor");
        if let Some(v) = vendor.filter(|&v| v != INTEL_VENDOR) {
            d.skipped.push((path, Skipped::NotIntel { vendor: v }));
            continue;
        }
        let device_id = sysfs_hex(sysfs_class_drm, name, "device");
        let file = match open(&path) {
            Ok(f) => f,
            Err(e) => {
                d.skipped.push((path, Skipped::Failed(e)));
                continue;
            }
        };
        let v = match version(&*file) {
            Ok(v) => v,
            Err(e) => {
                d.skipped.push((path, Skipped::Failed(e)));
                continue;
            }
        };
        match Driver::from_version_name(&v.name) {
            Some(driver) => d.found.push(Found {
                path,
                driver,
                device_id,
                pci: device_id.and_then(platform_for),
                file,
            }),
            None => d
                .skipped
                .push((path, Skipped::OtherDriver { name: v.name })),
        }
    }
    Ok(d)
}

/// Discovers Intel GPUs on this machine (`/dev/dri`, `/sys/class/drm`). No `/dev/dri` means no
/// GPUs, not an error; an unreadable one is.
pub fn discover() -> std::io::Result<Discovery> {
    match discover_in(
        Path::new("/dev/dri"),
        Path::new("/sys/class/drm"),
        &RenderNode::open_shared,
    ) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Discovery::default()),
        other => other,
    }
}
