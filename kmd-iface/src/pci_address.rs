//! A GPU's PCI address (domain:bus:device.function) as the kernel presents it: the
//! `PCI_SLOT_NAME` of the render node's PCI device, in `<node's sysfs dir>/device/uevent`
//! (written by `pci_uevent`, Linux `drivers/pci/pci-driver.c`, in `pci_name()`'s
//! `%04x:%02x:%02x.%d` form). libdrm's `drmGetDevice2` reads it from the same file. The
//! render-node ioctls give no way to ask (DRM_IOCTL_GET_UNIQUE is not allowed on render nodes).

use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// Where a PCI function sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PciAddress {
    /// PCI segment; 16 bits on most machines, wider behind Intel VMD (`10000:…`).
    pub domain: u32,
    pub bus: u8,
    /// 0 to 31.
    pub device: u8,
    /// 0 to 7.
    pub function: u8,
}

/// Text that is not a `domain:bus:device.function` address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a PCI address (domain:bus:device.function in hex)")]
pub struct BadPciAddress(pub String);

impl FromStr for PciAddress {
    type Err = BadPciAddress;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadPciAddress(s.to_string());
        let (domain, rest) = s.split_once(':').ok_or_else(bad)?;
        let (bus, rest) = rest.split_once(':').ok_or_else(bad)?;
        let (device, function) = rest.split_once('.').ok_or_else(bad)?;
        let hex = |t: &str, max: u32| {
            (!t.is_empty() && t.len() <= 8 && t.bytes().all(|b| b.is_ascii_hexdigit()))
                .then(|| u32::from_str_radix(t, 16).ok())
                .flatten()
                .filter(|&v| v <= max)
                .ok_or_else(bad)
        };
        Ok(PciAddress {
            domain: hex(domain, u32::MAX)?,
            bus: hex(bus, 0xff)? as u8,
            device: hex(device, 0x1f)? as u8,
            function: hex(function, 7)? as u8,
        })
    }
}

impl fmt::Display for PciAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:04x}:{:02x}:{:02x}.{}",
            self.domain, self.bus, self.device, self.function
        )
    }
}

/// The PCI address of the device behind the render node whose sysfs directory is `node_dir`
/// ([`crate::seam::DeviceFile::sysfs_dir`]); None when sysfs does not say (not mounted, not a
/// PCI device).
pub fn of_node(node_dir: &Path) -> Option<PciAddress> {
    let uevent = std::fs::read_to_string(node_dir.join("device").join("uevent")).ok()?;
    uevent
        .lines()
        .find_map(|l| l.strip_prefix("PCI_SLOT_NAME="))
        .and_then(|v| v.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_pci_name_prints() {
        let a: PciAddress = "0000:03:00.0".parse().unwrap();
        assert_eq!(
            a,
            PciAddress {
                domain: 0,
                bus: 3,
                device: 0,
                function: 0
            }
        );
        assert_eq!(a.to_string(), "0000:03:00.0");
        let vmd: PciAddress = "10000:e1:1f.7".parse().unwrap();
        assert_eq!(
            (vmd.domain, vmd.bus, vmd.device, vmd.function),
            (0x10000, 0xe1, 0x1f, 7)
        );
        assert_eq!(vmd.to_string(), "10000:e1:1f.7");
    }

    #[test]
    fn refuses_what_is_not_an_address() {
        for bad in [
            "",
            "0000:00:02",
            "0000:00.02.0",
            "0000:100:02.0",
            "0000:00:20.0",
            "0000:00:02.8",
            "0000:00:02.x",
            "pci:0000:00:02.0",
            "0000::02.0",
        ] {
            assert!(bad.parse::<PciAddress>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn reads_the_slot_name_of_the_nodes_device() {
        let root = tempfile::tempdir().unwrap();
        let pci = root.path().join("devices/pci0000:00/0000:00:02.0");
        let node = pci.join("drm/renderD128");
        std::fs::create_dir_all(&node).unwrap();
        std::os::unix::fs::symlink("../../../0000:00:02.0", node.join("device")).unwrap();
        assert_eq!(of_node(&node), None, "no uevent yet");
        std::fs::write(
            pci.join("uevent"),
            "DRIVER=i915\nPCI_CLASS=30000\nPCI_SLOT_NAME=0000:00:02.0\nMODALIAS=pci:v00008086\n",
        )
        .unwrap();
        assert_eq!(of_node(&node), Some("0000:00:02.0".parse().unwrap()));
    }
}
