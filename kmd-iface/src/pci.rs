//! PCI device id -> platform, for the Gen9, Gen11, Gen12LP and Xe-HPG ids.
//!
//! Data: Linux 6.12 `include/drm/intel/i915_pciids.h` (the `INTEL_*_IDS` lists named in each
//! row's codename). `xe_pciids.h` of the same release lists the Gen12LP and DG2 ids too, all of
//! them also in i915's list except ADL-N 0x46D3 and 0x46D4, which only i915 knows.
//! Gen9.5 parts (KBL, CFL, WHL, CML, AML) and the Gen9 Atoms (BXT, GLK) share Gen9's ISA, so they
//! map to [`Platform::Skl`]; EHL/JSL to [`Platform::Icllp`]; every Xe-LP part to
//! [`Platform::Tgllp`]; DG2 and ATS-M to [`Platform::Dg2`].

use platform::Platform;

/// One PCI device id of an Intel GPU this stack targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PciId {
    pub device_id: u16,
    pub platform: Platform,
    /// The kernel's platform abbreviation (the `INTEL_<CODENAME>_IDS` list the id comes from).
    pub codename: &'static str,
}

/// Every supported device id, in the header's order.
pub static PCI_IDS: &[PciId] = &[
    PciId {
        device_id: 0x1906,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x1913,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x190E,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x1915,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x1902,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x190A,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x190B,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x1917,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x1916,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x1921,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x191E,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x1912,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x191A,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x191B,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x191D,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x1923,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x1926,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x1927,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x192A,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x192B,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x192D,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x1932,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x193A,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x193B,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x193D,
        platform: Platform::Skl,
        codename: "SKL",
    },
    PciId {
        device_id: 0x5906,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x5913,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x590E,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x5915,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x5902,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x5908,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x590A,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x590B,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x5916,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x5921,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x591E,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x5912,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x5917,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x591A,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x591B,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x591D,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x5926,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x5923,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x5927,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x593B,
        platform: Platform::Skl,
        codename: "KBL",
    },
    PciId {
        device_id: 0x591C,
        platform: Platform::Skl,
        codename: "AML",
    },
    PciId {
        device_id: 0x87C0,
        platform: Platform::Skl,
        codename: "AML",
    },
    PciId {
        device_id: 0x87CA,
        platform: Platform::Skl,
        codename: "AML",
    },
    PciId {
        device_id: 0x3E90,
        platform: Platform::Skl,
        codename: "CFL",
    },
    PciId {
        device_id: 0x3E93,
        platform: Platform::Skl,
        codename: "CFL",
    },
    PciId {
        device_id: 0x3E99,
        platform: Platform::Skl,
        codename: "CFL",
    },
    PciId {
        device_id: 0x3E91,
        platform: Platform::Skl,
        codename: "CFL",
    },
    PciId {
        device_id: 0x3E92,
        platform: Platform::Skl,
        codename: "CFL",
    },
    PciId {
        device_id: 0x3E96,
        platform: Platform::Skl,
        codename: "CFL",
    },
    PciId {
        device_id: 0x3E98,
        platform: Platform::Skl,
        codename: "CFL",
    },
    PciId {
        device_id: 0x3E9A,
        platform: Platform::Skl,
        codename: "CFL",
    },
    PciId {
        device_id: 0x3E9C,
        platform: Platform::Skl,
        codename: "CFL",
    },
    PciId {
        device_id: 0x3E94,
        platform: Platform::Skl,
        codename: "CFL",
    },
    PciId {
        device_id: 0x3E9B,
        platform: Platform::Skl,
        codename: "CFL",
    },
    PciId {
        device_id: 0x3EA9,
        platform: Platform::Skl,
        codename: "CFL",
    },
    PciId {
        device_id: 0x3EA5,
        platform: Platform::Skl,
        codename: "CFL",
    },
    PciId {
        device_id: 0x3EA6,
        platform: Platform::Skl,
        codename: "CFL",
    },
    PciId {
        device_id: 0x3EA7,
        platform: Platform::Skl,
        codename: "CFL",
    },
    PciId {
        device_id: 0x3EA8,
        platform: Platform::Skl,
        codename: "CFL",
    },
    PciId {
        device_id: 0x3EA1,
        platform: Platform::Skl,
        codename: "WHL",
    },
    PciId {
        device_id: 0x3EA4,
        platform: Platform::Skl,
        codename: "WHL",
    },
    PciId {
        device_id: 0x3EA0,
        platform: Platform::Skl,
        codename: "WHL",
    },
    PciId {
        device_id: 0x3EA3,
        platform: Platform::Skl,
        codename: "WHL",
    },
    PciId {
        device_id: 0x3EA2,
        platform: Platform::Skl,
        codename: "WHL",
    },
    PciId {
        device_id: 0x9BA2,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x9BA4,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x9BA5,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x9BA8,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x9BC2,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x9BC4,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x9BC5,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x9BC6,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x9BC8,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x9BE6,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x9BF6,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x9B21,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x9BAA,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x9BAC,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x9B41,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x9BCA,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x9BCC,
        platform: Platform::Skl,
        codename: "CML",
    },
    PciId {
        device_id: 0x0A84,
        platform: Platform::Skl,
        codename: "BXT",
    },
    PciId {
        device_id: 0x1A84,
        platform: Platform::Skl,
        codename: "BXT",
    },
    PciId {
        device_id: 0x1A85,
        platform: Platform::Skl,
        codename: "BXT",
    },
    PciId {
        device_id: 0x5A84,
        platform: Platform::Skl,
        codename: "BXT",
    },
    PciId {
        device_id: 0x5A85,
        platform: Platform::Skl,
        codename: "BXT",
    },
    PciId {
        device_id: 0x3184,
        platform: Platform::Skl,
        codename: "GLK",
    },
    PciId {
        device_id: 0x3185,
        platform: Platform::Skl,
        codename: "GLK",
    },
    PciId {
        device_id: 0x8A50,
        platform: Platform::Icllp,
        codename: "ICL",
    },
    PciId {
        device_id: 0x8A52,
        platform: Platform::Icllp,
        codename: "ICL",
    },
    PciId {
        device_id: 0x8A53,
        platform: Platform::Icllp,
        codename: "ICL",
    },
    PciId {
        device_id: 0x8A54,
        platform: Platform::Icllp,
        codename: "ICL",
    },
    PciId {
        device_id: 0x8A56,
        platform: Platform::Icllp,
        codename: "ICL",
    },
    PciId {
        device_id: 0x8A57,
        platform: Platform::Icllp,
        codename: "ICL",
    },
    PciId {
        device_id: 0x8A58,
        platform: Platform::Icllp,
        codename: "ICL",
    },
    PciId {
        device_id: 0x8A59,
        platform: Platform::Icllp,
        codename: "ICL",
    },
    PciId {
        device_id: 0x8A5A,
        platform: Platform::Icllp,
        codename: "ICL",
    },
    PciId {
        device_id: 0x8A5B,
        platform: Platform::Icllp,
        codename: "ICL",
    },
    PciId {
        device_id: 0x8A5C,
        platform: Platform::Icllp,
        codename: "ICL",
    },
    PciId {
        device_id: 0x8A70,
        platform: Platform::Icllp,
        codename: "ICL",
    },
    PciId {
        device_id: 0x8A71,
        platform: Platform::Icllp,
        codename: "ICL",
    },
    PciId {
        device_id: 0x8A51,
        platform: Platform::Icllp,
        codename: "ICL",
    },
    PciId {
        device_id: 0x8A5D,
        platform: Platform::Icllp,
        codename: "ICL",
    },
    PciId {
        device_id: 0x4541,
        platform: Platform::Icllp,
        codename: "EHL",
    },
    PciId {
        device_id: 0x4551,
        platform: Platform::Icllp,
        codename: "EHL",
    },
    PciId {
        device_id: 0x4555,
        platform: Platform::Icllp,
        codename: "EHL",
    },
    PciId {
        device_id: 0x4557,
        platform: Platform::Icllp,
        codename: "EHL",
    },
    PciId {
        device_id: 0x4570,
        platform: Platform::Icllp,
        codename: "EHL",
    },
    PciId {
        device_id: 0x4571,
        platform: Platform::Icllp,
        codename: "EHL",
    },
    PciId {
        device_id: 0x4E51,
        platform: Platform::Icllp,
        codename: "JSL",
    },
    PciId {
        device_id: 0x4E55,
        platform: Platform::Icllp,
        codename: "JSL",
    },
    PciId {
        device_id: 0x4E57,
        platform: Platform::Icllp,
        codename: "JSL",
    },
    PciId {
        device_id: 0x4E61,
        platform: Platform::Icllp,
        codename: "JSL",
    },
    PciId {
        device_id: 0x4E71,
        platform: Platform::Icllp,
        codename: "JSL",
    },
    PciId {
        device_id: 0x9A60,
        platform: Platform::Tgllp,
        codename: "TGL",
    },
    PciId {
        device_id: 0x9A68,
        platform: Platform::Tgllp,
        codename: "TGL",
    },
    PciId {
        device_id: 0x9A70,
        platform: Platform::Tgllp,
        codename: "TGL",
    },
    PciId {
        device_id: 0x9A40,
        platform: Platform::Tgllp,
        codename: "TGL",
    },
    PciId {
        device_id: 0x9A49,
        platform: Platform::Tgllp,
        codename: "TGL",
    },
    PciId {
        device_id: 0x9A59,
        platform: Platform::Tgllp,
        codename: "TGL",
    },
    PciId {
        device_id: 0x9A78,
        platform: Platform::Tgllp,
        codename: "TGL",
    },
    PciId {
        device_id: 0x9AC0,
        platform: Platform::Tgllp,
        codename: "TGL",
    },
    PciId {
        device_id: 0x9AC9,
        platform: Platform::Tgllp,
        codename: "TGL",
    },
    PciId {
        device_id: 0x9AD9,
        platform: Platform::Tgllp,
        codename: "TGL",
    },
    PciId {
        device_id: 0x9AF8,
        platform: Platform::Tgllp,
        codename: "TGL",
    },
    PciId {
        device_id: 0x4C80,
        platform: Platform::Tgllp,
        codename: "RKL",
    },
    PciId {
        device_id: 0x4C8A,
        platform: Platform::Tgllp,
        codename: "RKL",
    },
    PciId {
        device_id: 0x4C8B,
        platform: Platform::Tgllp,
        codename: "RKL",
    },
    PciId {
        device_id: 0x4C8C,
        platform: Platform::Tgllp,
        codename: "RKL",
    },
    PciId {
        device_id: 0x4C90,
        platform: Platform::Tgllp,
        codename: "RKL",
    },
    PciId {
        device_id: 0x4C9A,
        platform: Platform::Tgllp,
        codename: "RKL",
    },
    PciId {
        device_id: 0x4680,
        platform: Platform::Tgllp,
        codename: "ADL-S",
    },
    PciId {
        device_id: 0x4682,
        platform: Platform::Tgllp,
        codename: "ADL-S",
    },
    PciId {
        device_id: 0x4688,
        platform: Platform::Tgllp,
        codename: "ADL-S",
    },
    PciId {
        device_id: 0x468A,
        platform: Platform::Tgllp,
        codename: "ADL-S",
    },
    PciId {
        device_id: 0x468B,
        platform: Platform::Tgllp,
        codename: "ADL-S",
    },
    PciId {
        device_id: 0x4690,
        platform: Platform::Tgllp,
        codename: "ADL-S",
    },
    PciId {
        device_id: 0x4692,
        platform: Platform::Tgllp,
        codename: "ADL-S",
    },
    PciId {
        device_id: 0x4693,
        platform: Platform::Tgllp,
        codename: "ADL-S",
    },
    PciId {
        device_id: 0x46A0,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x46A1,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x46A2,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x46A3,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x46A6,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x46A8,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x46AA,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x462A,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x4626,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x4628,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x46B0,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x46B1,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x46B2,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x46B3,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x46C0,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x46C1,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x46C2,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x46C3,
        platform: Platform::Tgllp,
        codename: "ADL-P",
    },
    PciId {
        device_id: 0x46D0,
        platform: Platform::Tgllp,
        codename: "ADL-N",
    },
    PciId {
        device_id: 0x46D1,
        platform: Platform::Tgllp,
        codename: "ADL-N",
    },
    PciId {
        device_id: 0x46D2,
        platform: Platform::Tgllp,
        codename: "ADL-N",
    },
    PciId {
        device_id: 0x46D3,
        platform: Platform::Tgllp,
        codename: "ADL-N",
    },
    PciId {
        device_id: 0x46D4,
        platform: Platform::Tgllp,
        codename: "ADL-N",
    },
    PciId {
        device_id: 0xA780,
        platform: Platform::Tgllp,
        codename: "RPL-S",
    },
    PciId {
        device_id: 0xA781,
        platform: Platform::Tgllp,
        codename: "RPL-S",
    },
    PciId {
        device_id: 0xA782,
        platform: Platform::Tgllp,
        codename: "RPL-S",
    },
    PciId {
        device_id: 0xA783,
        platform: Platform::Tgllp,
        codename: "RPL-S",
    },
    PciId {
        device_id: 0xA788,
        platform: Platform::Tgllp,
        codename: "RPL-S",
    },
    PciId {
        device_id: 0xA789,
        platform: Platform::Tgllp,
        codename: "RPL-S",
    },
    PciId {
        device_id: 0xA78A,
        platform: Platform::Tgllp,
        codename: "RPL-S",
    },
    PciId {
        device_id: 0xA78B,
        platform: Platform::Tgllp,
        codename: "RPL-S",
    },
    PciId {
        device_id: 0xA721,
        platform: Platform::Tgllp,
        codename: "RPL-U",
    },
    PciId {
        device_id: 0xA7A1,
        platform: Platform::Tgllp,
        codename: "RPL-U",
    },
    PciId {
        device_id: 0xA7A9,
        platform: Platform::Tgllp,
        codename: "RPL-U",
    },
    PciId {
        device_id: 0xA7AC,
        platform: Platform::Tgllp,
        codename: "RPL-U",
    },
    PciId {
        device_id: 0xA7AD,
        platform: Platform::Tgllp,
        codename: "RPL-U",
    },
    PciId {
        device_id: 0xA720,
        platform: Platform::Tgllp,
        codename: "RPL-P",
    },
    PciId {
        device_id: 0xA7A0,
        platform: Platform::Tgllp,
        codename: "RPL-P",
    },
    PciId {
        device_id: 0xA7A8,
        platform: Platform::Tgllp,
        codename: "RPL-P",
    },
    PciId {
        device_id: 0xA7AA,
        platform: Platform::Tgllp,
        codename: "RPL-P",
    },
    PciId {
        device_id: 0xA7AB,
        platform: Platform::Tgllp,
        codename: "RPL-P",
    },
    PciId {
        device_id: 0x4905,
        platform: Platform::Tgllp,
        codename: "DG1",
    },
    PciId {
        device_id: 0x4906,
        platform: Platform::Tgllp,
        codename: "DG1",
    },
    PciId {
        device_id: 0x4907,
        platform: Platform::Tgllp,
        codename: "DG1",
    },
    PciId {
        device_id: 0x4908,
        platform: Platform::Tgllp,
        codename: "DG1",
    },
    PciId {
        device_id: 0x4909,
        platform: Platform::Tgllp,
        codename: "DG1",
    },
    PciId {
        device_id: 0x5690,
        platform: Platform::Dg2,
        codename: "DG2-G10",
    },
    PciId {
        device_id: 0x5691,
        platform: Platform::Dg2,
        codename: "DG2-G10",
    },
    PciId {
        device_id: 0x5692,
        platform: Platform::Dg2,
        codename: "DG2-G10",
    },
    PciId {
        device_id: 0x56A0,
        platform: Platform::Dg2,
        codename: "DG2-G10",
    },
    PciId {
        device_id: 0x56A1,
        platform: Platform::Dg2,
        codename: "DG2-G10",
    },
    PciId {
        device_id: 0x56A2,
        platform: Platform::Dg2,
        codename: "DG2-G10",
    },
    PciId {
        device_id: 0x56BE,
        platform: Platform::Dg2,
        codename: "DG2-G10",
    },
    PciId {
        device_id: 0x56BF,
        platform: Platform::Dg2,
        codename: "DG2-G10",
    },
    PciId {
        device_id: 0x5693,
        platform: Platform::Dg2,
        codename: "DG2-G11",
    },
    PciId {
        device_id: 0x5694,
        platform: Platform::Dg2,
        codename: "DG2-G11",
    },
    PciId {
        device_id: 0x5695,
        platform: Platform::Dg2,
        codename: "DG2-G11",
    },
    PciId {
        device_id: 0x56A5,
        platform: Platform::Dg2,
        codename: "DG2-G11",
    },
    PciId {
        device_id: 0x56A6,
        platform: Platform::Dg2,
        codename: "DG2-G11",
    },
    PciId {
        device_id: 0x56B0,
        platform: Platform::Dg2,
        codename: "DG2-G11",
    },
    PciId {
        device_id: 0x56B1,
        platform: Platform::Dg2,
        codename: "DG2-G11",
    },
    PciId {
        device_id: 0x56BA,
        platform: Platform::Dg2,
        codename: "DG2-G11",
    },
    PciId {
        device_id: 0x56BB,
        platform: Platform::Dg2,
        codename: "DG2-G11",
    },
    PciId {
        device_id: 0x56BC,
        platform: Platform::Dg2,
        codename: "DG2-G11",
    },
    PciId {
        device_id: 0x56BD,
        platform: Platform::Dg2,
        codename: "DG2-G11",
    },
    PciId {
        device_id: 0x5696,
        platform: Platform::Dg2,
        codename: "DG2-G12",
    },
    PciId {
        device_id: 0x5697,
        platform: Platform::Dg2,
        codename: "DG2-G12",
    },
    PciId {
        device_id: 0x56A3,
        platform: Platform::Dg2,
        codename: "DG2-G12",
    },
    PciId {
        device_id: 0x56A4,
        platform: Platform::Dg2,
        codename: "DG2-G12",
    },
    PciId {
        device_id: 0x56B2,
        platform: Platform::Dg2,
        codename: "DG2-G12",
    },
    PciId {
        device_id: 0x56B3,
        platform: Platform::Dg2,
        codename: "DG2-G12",
    },
    PciId {
        device_id: 0x56C0,
        platform: Platform::Dg2,
        codename: "ATS-M150",
    },
    PciId {
        device_id: 0x56C2,
        platform: Platform::Dg2,
        codename: "ATS-M150",
    },
    PciId {
        device_id: 0x56C1,
        platform: Platform::Dg2,
        codename: "ATS-M75",
    },
];

/// The row for a PCI device id, if it is a supported Intel GPU.
pub fn platform_for(device_id: u16) -> Option<&'static PciId> {
    PCI_IDS.iter().find(|p| p.device_id == device_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique() {
        let mut ids: Vec<u16> = PCI_IDS.iter().map(|p| p.device_id).collect();
        ids.sort_unstable();
        let n = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), n);
    }

    #[test]
    fn representative_parts_map_to_their_generation() {
        // One id per representative platform, each from its INTEL_*_IDS list in the header.
        assert_eq!(platform_for(0x1912).unwrap().platform, Platform::Skl);
        assert_eq!(platform_for(0x8A52).unwrap().platform, Platform::Icllp);
        assert_eq!(platform_for(0x9A49).unwrap().platform, Platform::Tgllp);
        assert_eq!(platform_for(0x56A0).unwrap().platform, Platform::Dg2);
        assert_eq!(platform_for(0x56C0).unwrap().codename, "ATS-M150");
        // Meteor Lake (Xe-LPG) is not a target.
        assert!(platform_for(0x7D55).is_none());
    }
}
