//! The GuC hardware-configuration table (i915 `DRM_I915_QUERY_HWCONFIG_BLOB`, xe
//! `DRM_XE_DEVICE_QUERY_HWCONFIG`): a sequence of `u32 key, u32 count, u32 values[count]`.

use crate::blob::Blob;
use crate::error::Result;

/// One attribute of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HwConfigAttr {
    /// The GuC attribute id (`INTEL_HWCONFIG_*` in the kernel's `intel_hwconfig_types.h`).
    pub key: u32,
    pub values: Vec<u32>,
}

/// Parses a whole table; a record that runs past the end is an error.
pub fn parse_hwconfig(bytes: &[u8]) -> Result<Vec<HwConfigAttr>> {
    let blob = Blob::new("hwconfig table", bytes);
    if !bytes.len().is_multiple_of(4) {
        return Err(blob.malformed(bytes.len() & !3, "length is not a multiple of 4"));
    }
    let mut attrs = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let key: u32 = blob.read(at)?;
        let count: u32 = blob.read(at + 4)?;
        let values = blob.array::<u32>(at + 8, count as usize)?;
        at += 8 + 4 * values.len();
        attrs.push(HwConfigAttr { key, values });
    }
    Ok(attrs)
}
