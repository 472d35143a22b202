//! Fused-off parts: real SKUs of a platform's die with subslices or EUs fused off, as the
//! kernel drivers report them (i915 `DRM_I915_QUERY_TOPOLOGY_INFO` masks, xe
//! `DRM_XE_DEVICE_QUERY_GT_TOPOLOGY` DSS and EU masks). Each keeps the full part's largest
//! topology and reports its own PCI id; everything else is the platform's row.
//!
//! Which subslices a die loses varies from die to die; the masks here pick one (not always the
//! top ones, so a reader that counts instead of decoding masks is caught).

use std::sync::OnceLock;

use platform::Platform;

use super::DeviceInfo;

/// One fused-off part: the name a device string gives it and what is enabled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FusedPart {
    /// `<platform>-<part>`, as `sim:<name>` and `INTEL_GPU_SIM=<name>` take it.
    pub name: &'static str,
    pub platform: Platform,
    /// The part's PCI device id (in `kmd_iface::pci::PCI_IDS`).
    pub pci_id: u16,
    /// Enabled subslices in the full part's index space (see `Topology::subslice_mask`).
    pub subslice_mask: u64,
    /// Enabled EUs of every enabled subslice.
    pub eu_mask: u16,
}

/// How many fused-off parts there are.
const PARTS: usize = 3;

pub static FUSED_PARTS: [FusedPart; PARTS] = [
    // HD Graphics 510 (SKL ULT GT1, 0x1906): NEO's SKL_1x2x6 configuration, 2 subslices of 6
    // EUs (12 EUs); here subslice 1 and EUs 6-7 of the GT2 shape fused off.
    FusedPart {
        name: "skl-gt1",
        platform: Platform::Skl,
        pci_id: 0x1906,
        subslice_mask: 0b101,
        eu_mask: 0b0011_1111,
    },
    // Iris Xe with 80 EUs (e.g. i5-1135G7; the same PCI id 0x9a49 as the 96-EU part): 5 of
    // the 6 dual-subslices of 16 EUs; here DSS 2 fused off.
    FusedPart {
        name: "tgllp-80eu",
        platform: Platform::Tgllp,
        pci_id: 0x9a49,
        subslice_mask: 0b11_1011,
        eu_mask: 0xffff,
    },
    // Arc A750 (DG2-G10, 0x56a1): 28 of the die's 32 Xe-cores (448 EUs); here the second
    // render slice's four Xe-cores (DSS 4-7) fused off.
    FusedPart {
        name: "dg2-a750",
        platform: Platform::Dg2,
        pci_id: 0x56a1,
        subslice_mask: 0xffff_ff0f,
        eu_mask: 0xffff,
    },
];

impl FusedPart {
    /// The part called `name`.
    pub fn named(name: &str) -> Option<&'static FusedPart> {
        FUSED_PARTS.iter().find(|p| p.name == name)
    }
}

impl DeviceInfo {
    /// The simulated device of a fused-off part: its platform's row with the part's topology
    /// and PCI id. Made once per part and kept, like the platform rows. None for a part not
    /// in [`FUSED_PARTS`].
    pub fn of_part(part: &FusedPart) -> Option<&'static DeviceInfo> {
        static MADE: [OnceLock<DeviceInfo>; PARTS] = [const { OnceLock::new() }; PARTS];
        let i = FUSED_PARTS.iter().position(|p| p == part)?;
        Some(MADE[i].get_or_init(|| {
            let full = DeviceInfo::get(part.platform);
            DeviceInfo {
                pci_id: part.pci_id,
                topology: full.topology.fused(part.subslice_mask, part.eu_mask),
                ..full.clone()
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_their_platforms_with_fewer_units() {
        let eus: Vec<_> = FUSED_PARTS
            .iter()
            .map(|p| {
                let d = DeviceInfo::of_part(p).unwrap();
                let full = DeviceInfo::get(p.platform);
                assert_eq!(d.platform, p.platform);
                let id = kmd_iface::pci::platform_for(d.pci_id).expect("known PCI id");
                assert_eq!(id.platform, p.platform, "{}", p.name);
                assert!(p.name.starts_with(&format!("{}-", p.platform.name())));
                // Masks within the full part's index space.
                assert_eq!(p.subslice_mask & !full.topology.subslice_mask, 0);
                assert_eq!(p.eu_mask & !full.topology.eu_mask, 0);
                assert_eq!(FusedPart::named(p.name), Some(p));
                (d.topology.subslice_total(), d.topology.eu_total())
            })
            .collect();
        // 12 EUs (SKL GT1), 80 (Iris Xe 80), 448 (Arc A750's 28 Xe-cores).
        assert_eq!(eus, [(2, 12), (5, 80), (28, 448)]);
        assert!(FusedPart::named("tgllp").is_none());
    }
}
