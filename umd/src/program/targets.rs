//! How each ocloc format names the target platform (one row per platform).

use platform::Platform;

struct Ids {
    platform: Platform,
    /// `SProgramBinaryHeader::Device` of patch-token binaries: GFXCORE_FAMILY.
    gfx_core_family: u32,
    /// The `.note.intelgt.compat` ProductFamily note of zebin: PRODUCT_FAMILY.
    product_family: u32,
}

const IDS: [Ids; 4] = [
    Ids {
        platform: Platform::Skl,
        gfx_core_family: 12,
        product_family: 18,
    },
    Ids {
        platform: Platform::Icllp,
        gfx_core_family: 15,
        product_family: 26,
    },
    Ids {
        platform: Platform::Tgllp,
        gfx_core_family: 18,
        product_family: 29,
    },
    Ids {
        platform: Platform::Dg2,
        gfx_core_family: 0xc07,
        product_family: 1270,
    },
];

pub(crate) fn from_gfx_core_family(v: u32) -> Option<Platform> {
    IDS.iter()
        .find(|i| i.gfx_core_family == v)
        .map(|i| i.platform)
}

pub(crate) fn from_product_family(v: u32) -> Option<Platform> {
    IDS.iter()
        .find(|i| i.product_family == v)
        .map(|i| i.platform)
}
