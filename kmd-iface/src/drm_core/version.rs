//! `DRM_IOCTL_VERSION`: which kernel driver is behind a file (i915 or xe).

use super::uapi::{drm_version, DRM_IOCTL_VERSION};
use crate::call::{addr_of_mut, ioctl};
use crate::error::{Error, Result};

/// Longer driver strings than this are a broken reply, not something to allocate for.
const MAX_STRING: u64 = 4096;
use crate::seam::DeviceFile;

/// The driver's identity, as `DRM_IOCTL_VERSION` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub major: i32,
    pub minor: i32,
    pub patchlevel: i32,
    /// "i915", "xe", ...
    pub name: String,
    pub date: String,
    pub desc: String,
}

/// Asks for the lengths, then for the strings (the protocol libdrm's `drmGetVersion` uses).
pub fn version(dev: &dyn DeviceFile) -> Result<Version> {
    let mut v = drm_version::default();
    ioctl(dev, DRM_IOCTL_VERSION, &mut v)?;
    for (what, len) in [
        ("driver name", v.name_len),
        ("driver date", v.date_len),
        ("driver description", v.desc_len),
    ] {
        if len > MAX_STRING {
            return Err(Error::TooLarge {
                what,
                len: len as usize,
            });
        }
    }
    let mut name = vec![0u8; v.name_len as usize];
    let mut date = vec![0u8; v.date_len as usize];
    let mut desc = vec![0u8; v.desc_len as usize];
    v.name = addr_of_mut(&mut name);
    v.date = addr_of_mut(&mut date);
    v.desc = addr_of_mut(&mut desc);
    ioctl(dev, DRM_IOCTL_VERSION, &mut v)?;
    // The kernel reports the full length but copies at most the buffer's; never trust more.
    let text = |buf: &[u8], len: u64| {
        let n = (len as usize).min(buf.len());
        String::from_utf8_lossy(&buf[..n]).into_owned()
    };
    Ok(Version {
        major: v.version_major,
        minor: v.version_minor,
        patchlevel: v.version_patchlevel,
        name: text(&name, v.name_len),
        date: text(&date, v.date_len),
        desc: text(&desc, v.desc_len),
    })
}
