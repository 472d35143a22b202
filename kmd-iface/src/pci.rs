//! PCI device id -> platform, for the Gen9, Gen11, Gen12LP and Xe-HPG ids.
//!
//! Data: Linux 6.12 `include/drm/intel/i915_pciids.h` (the `INTEL_*_IDS` lists named in each
//! row's codename). `xe_pciids.h` of the same release lists the Gen12LP and DG2 ids too, all of
//! them also in i915's list except ADL-N 0x46D3 and 0x46D4, which only i915 knows.
//! Gen9.5 parts (KBL, CFL, WHL, CML, AML) and the Gen9 Atoms (BXT, GLK) share Gen9's ISA, so they
//! map to [`Platform::Skl`]; EHL/JSL to [`Platform::Icllp`]; every Xe-LP part to
//! [`Platform::Tgllp`]; DG2 and ATS-M to [`Platform::Dg2`].

use platform::Platform;
use Platform::{Dg2, Icllp, Skl, Tgllp};

/// One PCI device id of an Intel GPU this stack targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PciId {
    pub device_id: u16,
    pub platform: Platform,
    /// The kernel's abbreviation from the `INTEL_*_IDS` list the id is in: SKL, KBL, AML, CFL,
    /// WHL, CML, BXT, GLK, ICL, EHL, JSL, TGL, RKL, DG1, ADL-S/-P/-N, RPL-S/-U/-P, and for Xe-HPG
    /// the die: DG2-G10/-G11/-G12, ATS-M150/-M75.
    pub codename: &'static str,
}

const fn id(device_id: u16, platform: Platform, codename: &'static str) -> PciId {
    PciId {
        device_id,
        platform,
        codename,
    }
}

/// Every supported device id, in the header's order.
pub static PCI_IDS: &[PciId] = &[
    id(0x1906, Skl, "SKL"),
    id(0x1913, Skl, "SKL"),
    id(0x190E, Skl, "SKL"),
    id(0x1915, Skl, "SKL"),
    id(0x1902, Skl, "SKL"),
    id(0x190A, Skl, "SKL"),
    id(0x190B, Skl, "SKL"),
    id(0x1917, Skl, "SKL"),
    id(0x1916, Skl, "SKL"),
    id(0x1921, Skl, "SKL"),
    id(0x191E, Skl, "SKL"),
    id(0x1912, Skl, "SKL"),
    id(0x191A, Skl, "SKL"),
    id(0x191B, Skl, "SKL"),
    id(0x191D, Skl, "SKL"),
    id(0x1923, Skl, "SKL"),
    id(0x1926, Skl, "SKL"),
    id(0x1927, Skl, "SKL"),
    id(0x192A, Skl, "SKL"),
    id(0x192B, Skl, "SKL"),
    id(0x192D, Skl, "SKL"),
    id(0x1932, Skl, "SKL"),
    id(0x193A, Skl, "SKL"),
    id(0x193B, Skl, "SKL"),
    id(0x193D, Skl, "SKL"),
    id(0x5906, Skl, "KBL"),
    id(0x5913, Skl, "KBL"),
    id(0x590E, Skl, "KBL"),
    id(0x5915, Skl, "KBL"),
    id(0x5902, Skl, "KBL"),
    id(0x5908, Skl, "KBL"),
    id(0x590A, Skl, "KBL"),
    id(0x590B, Skl, "KBL"),
    id(0x5916, Skl, "KBL"),
    id(0x5921, Skl, "KBL"),
    id(0x591E, Skl, "KBL"),
    id(0x5912, Skl, "KBL"),
    id(0x5917, Skl, "KBL"),
    id(0x591A, Skl, "KBL"),
    id(0x591B, Skl, "KBL"),
    id(0x591D, Skl, "KBL"),
    id(0x5926, Skl, "KBL"),
    id(0x5923, Skl, "KBL"),
    id(0x5927, Skl, "KBL"),
    id(0x593B, Skl, "KBL"),
    id(0x591C, Skl, "AML"),
    id(0x87C0, Skl, "AML"),
    id(0x87CA, Skl, "AML"),
    id(0x3E90, Skl, "CFL"),
    id(0x3E93, Skl, "CFL"),
    id(0x3E99, Skl, "CFL"),
    id(0x3E91, Skl, "CFL"),
    id(0x3E92, Skl, "CFL"),
    id(0x3E96, Skl, "CFL"),
    id(0x3E98, Skl, "CFL"),
    id(0x3E9A, Skl, "CFL"),
    id(0x3E9C, Skl, "CFL"),
    id(0x3E94, Skl, "CFL"),
    id(0x3E9B, Skl, "CFL"),
    id(0x3EA9, Skl, "CFL"),
    id(0x3EA5, Skl, "CFL"),
    id(0x3EA6, Skl, "CFL"),
    id(0x3EA7, Skl, "CFL"),
    id(0x3EA8, Skl, "CFL"),
    id(0x3EA1, Skl, "WHL"),
    id(0x3EA4, Skl, "WHL"),
    id(0x3EA0, Skl, "WHL"),
    id(0x3EA3, Skl, "WHL"),
    id(0x3EA2, Skl, "WHL"),
    id(0x9BA2, Skl, "CML"),
    id(0x9BA4, Skl, "CML"),
    id(0x9BA5, Skl, "CML"),
    id(0x9BA8, Skl, "CML"),
    id(0x9BC2, Skl, "CML"),
    id(0x9BC4, Skl, "CML"),
    id(0x9BC5, Skl, "CML"),
    id(0x9BC6, Skl, "CML"),
    id(0x9BC8, Skl, "CML"),
    id(0x9BE6, Skl, "CML"),
    id(0x9BF6, Skl, "CML"),
    id(0x9B21, Skl, "CML"),
    id(0x9BAA, Skl, "CML"),
    id(0x9BAC, Skl, "CML"),
    id(0x9B41, Skl, "CML"),
    id(0x9BCA, Skl, "CML"),
    id(0x9BCC, Skl, "CML"),
    id(0x0A84, Skl, "BXT"),
    id(0x1A84, Skl, "BXT"),
    id(0x1A85, Skl, "BXT"),
    id(0x5A84, Skl, "BXT"),
    id(0x5A85, Skl, "BXT"),
    id(0x3184, Skl, "GLK"),
    id(0x3185, Skl, "GLK"),
    id(0x8A50, Icllp, "ICL"),
    id(0x8A52, Icllp, "ICL"),
    id(0x8A53, Icllp, "ICL"),
    id(0x8A54, Icllp, "ICL"),
    id(0x8A56, Icllp, "ICL"),
    id(0x8A57, Icllp, "ICL"),
    id(0x8A58, Icllp, "ICL"),
    id(0x8A59, Icllp, "ICL"),
    id(0x8A5A, Icllp, "ICL"),
    id(0x8A5B, Icllp, "ICL"),
    id(0x8A5C, Icllp, "ICL"),
    id(0x8A70, Icllp, "ICL"),
    id(0x8A71, Icllp, "ICL"),
    id(0x8A51, Icllp, "ICL"),
    id(0x8A5D, Icllp, "ICL"),
    id(0x4541, Icllp, "EHL"),
    id(0x4551, Icllp, "EHL"),
    id(0x4555, Icllp, "EHL"),
    id(0x4557, Icllp, "EHL"),
    id(0x4570, Icllp, "EHL"),
    id(0x4571, Icllp, "EHL"),
    id(0x4E51, Icllp, "JSL"),
    id(0x4E55, Icllp, "JSL"),
    id(0x4E57, Icllp, "JSL"),
    id(0x4E61, Icllp, "JSL"),
    id(0x4E71, Icllp, "JSL"),
    id(0x9A60, Tgllp, "TGL"),
    id(0x9A68, Tgllp, "TGL"),
    id(0x9A70, Tgllp, "TGL"),
    id(0x9A40, Tgllp, "TGL"),
    id(0x9A49, Tgllp, "TGL"),
    id(0x9A59, Tgllp, "TGL"),
    id(0x9A78, Tgllp, "TGL"),
    id(0x9AC0, Tgllp, "TGL"),
    id(0x9AC9, Tgllp, "TGL"),
    id(0x9AD9, Tgllp, "TGL"),
    id(0x9AF8, Tgllp, "TGL"),
    id(0x4C80, Tgllp, "RKL"),
    id(0x4C8A, Tgllp, "RKL"),
    id(0x4C8B, Tgllp, "RKL"),
    id(0x4C8C, Tgllp, "RKL"),
    id(0x4C90, Tgllp, "RKL"),
    id(0x4C9A, Tgllp, "RKL"),
    id(0x4680, Tgllp, "ADL-S"),
    id(0x4682, Tgllp, "ADL-S"),
    id(0x4688, Tgllp, "ADL-S"),
    id(0x468A, Tgllp, "ADL-S"),
    id(0x468B, Tgllp, "ADL-S"),
    id(0x4690, Tgllp, "ADL-S"),
    id(0x4692, Tgllp, "ADL-S"),
    id(0x4693, Tgllp, "ADL-S"),
    id(0x46A0, Tgllp, "ADL-P"),
    id(0x46A1, Tgllp, "ADL-P"),
    id(0x46A2, Tgllp, "ADL-P"),
    id(0x46A3, Tgllp, "ADL-P"),
    id(0x46A6, Tgllp, "ADL-P"),
    id(0x46A8, Tgllp, "ADL-P"),
    id(0x46AA, Tgllp, "ADL-P"),
    id(0x462A, Tgllp, "ADL-P"),
    id(0x4626, Tgllp, "ADL-P"),
    id(0x4628, Tgllp, "ADL-P"),
    id(0x46B0, Tgllp, "ADL-P"),
    id(0x46B1, Tgllp, "ADL-P"),
    id(0x46B2, Tgllp, "ADL-P"),
    id(0x46B3, Tgllp, "ADL-P"),
    id(0x46C0, Tgllp, "ADL-P"),
    id(0x46C1, Tgllp, "ADL-P"),
    id(0x46C2, Tgllp, "ADL-P"),
    id(0x46C3, Tgllp, "ADL-P"),
    id(0x46D0, Tgllp, "ADL-N"),
    id(0x46D1, Tgllp, "ADL-N"),
    id(0x46D2, Tgllp, "ADL-N"),
    id(0x46D3, Tgllp, "ADL-N"),
    id(0x46D4, Tgllp, "ADL-N"),
    id(0xA780, Tgllp, "RPL-S"),
    id(0xA781, Tgllp, "RPL-S"),
    id(0xA782, Tgllp, "RPL-S"),
    id(0xA783, Tgllp, "RPL-S"),
    id(0xA788, Tgllp, "RPL-S"),
    id(0xA789, Tgllp, "RPL-S"),
    id(0xA78A, Tgllp, "RPL-S"),
    id(0xA78B, Tgllp, "RPL-S"),
    id(0xA721, Tgllp, "RPL-U"),
    id(0xA7A1, Tgllp, "RPL-U"),
    id(0xA7A9, Tgllp, "RPL-U"),
    id(0xA7AC, Tgllp, "RPL-U"),
    id(0xA7AD, Tgllp, "RPL-U"),
    id(0xA720, Tgllp, "RPL-P"),
    id(0xA7A0, Tgllp, "RPL-P"),
    id(0xA7A8, Tgllp, "RPL-P"),
    id(0xA7AA, Tgllp, "RPL-P"),
    id(0xA7AB, Tgllp, "RPL-P"),
    id(0x4905, Tgllp, "DG1"),
    id(0x4906, Tgllp, "DG1"),
    id(0x4907, Tgllp, "DG1"),
    id(0x4908, Tgllp, "DG1"),
    id(0x4909, Tgllp, "DG1"),
    id(0x5690, Dg2, "DG2-G10"),
    id(0x5691, Dg2, "DG2-G10"),
    id(0x5692, Dg2, "DG2-G10"),
    id(0x56A0, Dg2, "DG2-G10"),
    id(0x56A1, Dg2, "DG2-G10"),
    id(0x56A2, Dg2, "DG2-G10"),
    id(0x56BE, Dg2, "DG2-G10"),
    id(0x56BF, Dg2, "DG2-G10"),
    id(0x5693, Dg2, "DG2-G11"),
    id(0x5694, Dg2, "DG2-G11"),
    id(0x5695, Dg2, "DG2-G11"),
    id(0x56A5, Dg2, "DG2-G11"),
    id(0x56A6, Dg2, "DG2-G11"),
    id(0x56B0, Dg2, "DG2-G11"),
    id(0x56B1, Dg2, "DG2-G11"),
    id(0x56BA, Dg2, "DG2-G11"),
    id(0x56BB, Dg2, "DG2-G11"),
    id(0x56BC, Dg2, "DG2-G11"),
    id(0x56BD, Dg2, "DG2-G11"),
    id(0x5696, Dg2, "DG2-G12"),
    id(0x5697, Dg2, "DG2-G12"),
    id(0x56A3, Dg2, "DG2-G12"),
    id(0x56A4, Dg2, "DG2-G12"),
    id(0x56B2, Dg2, "DG2-G12"),
    id(0x56B3, Dg2, "DG2-G12"),
    id(0x56C0, Dg2, "ATS-M150"),
    id(0x56C2, Dg2, "ATS-M150"),
    id(0x56C1, Dg2, "ATS-M75"),
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
