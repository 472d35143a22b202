//! The GuC hardware-configuration table (i915 `DRM_I915_QUERY_HWCONFIG_BLOB`, xe
//! `DRM_XE_DEVICE_QUERY_HWCONFIG`): a sequence of `u32 key, u32 count, u32 values[count]`.

use crate::blob::Blob;
use crate::error::Result;

/// Attribute ids (`INTEL_HWCONFIG_*`, the kernel's `intel_hwconfig_types.h`).
pub mod key {
    pub const MAX_SLICES_SUPPORTED: u32 = 1;
    pub const MAX_DUAL_SUBSLICES_SUPPORTED: u32 = 2;
    pub const MAX_NUM_EU_PER_DSS: u32 = 3;
    pub const NUM_THREADS_PER_EU: u32 = 15;
    pub const MAX_RCS: u32 = 23;
    pub const MAX_CCS: u32 = 24;
    pub const L3_BANK_SIZE_IN_KB: u32 = 64;
}

/// The first value of attribute `key`, if the table has it.
pub fn value(attrs: &[HwConfigAttr], key: u32) -> Option<u32> {
    attrs.iter().find(|a| a.key == key)?.values.first().copied()
}

/// The L3 cache's bytes as Intel's runtime counts them from the table (NEO 22.43
/// `Drm::setupHardwareInfo`, for parts whose device table gives no bank count, i.e. every
/// part with a GuC table): the bank size times the largest number of dual-subslices. None
/// without both attributes.
pub fn l3_bytes(attrs: &[HwConfigAttr]) -> Option<u64> {
    let bank_kib = value(attrs, key::L3_BANK_SIZE_IN_KB)?;
    let banks = value(attrs, key::MAX_DUAL_SUBSLICES_SUPPORTED)?;
    Some(u64::from(bank_kib) * u64::from(banks) * 1024)
}

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
