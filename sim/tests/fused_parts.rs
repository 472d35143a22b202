//! Fused-off parts (`sim::device_info::FUSED_PARTS`): what the kernel drivers' queries answer,
//! decoded by kmd-iface against the uAPI header layouts. The expected masks are written from
//! each SKU's published unit counts and the simulator's choice of which units are fused off
//! (named in `sim/src/device_info/parts.rs`), not read from the simulator's table.

use std::sync::Arc;

use kmd_iface::i915::uapi::{
    I915_PARAM_EU_TOTAL, I915_PARAM_SLICE_MASK, I915_PARAM_SUBSLICE_MASK, I915_PARAM_SUBSLICE_TOTAL,
};
use kmd_iface::seam::DeviceFile;
use kmd_iface::xe::uapi::{
    DRM_XE_TOPO_DSS_COMPUTE, DRM_XE_TOPO_DSS_GEOMETRY, DRM_XE_TOPO_EU_PER_DSS,
};
use platform::Platform;
use sim::device_info::FusedPart;
use sim::{Kmd, OpenError, SimConfig};

/// One part's expected answers.
struct Want {
    name: &'static str,
    pci_id: u16,
    /// i915 header: slices, subslices per slice, EUs per subslice (the full die's).
    max: (u16, u16, u16),
    /// Enabled subslices as (slice, subslice).
    subslices: &'static [(usize, usize)],
    /// Enabled EUs of each enabled subslice.
    eus: &'static [usize],
    /// xe: DSS mask bytes and EU mask bytes (Gen12 on).
    xe: Option<(&'static [u8], &'static [u8])>,
}

const WANT: [Want; 3] = [
    // SKL GT1 (HD 510, 0x1906): 2 subslices of 6 EUs, on the GT2 die's 1×3×8.
    Want {
        name: "skl-gt1",
        pci_id: 0x1906,
        max: (1, 3, 8),
        subslices: &[(0, 0), (0, 2)],
        eus: &[0, 1, 2, 3, 4, 5],
        xe: None,
    },
    // Iris Xe 80 EUs: 5 of 6 dual-subslices, DSS 2 fused off.
    Want {
        name: "tgllp-80eu",
        pci_id: 0x9a49,
        max: (1, 6, 16),
        subslices: &[(0, 0), (0, 1), (0, 3), (0, 4), (0, 5)],
        eus: &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        xe: Some((&[0x3b], &[0xff, 0xff])),
    },
    // Arc A750 (0x56a1): 28 of 32 Xe-cores, DSS 4-7 fused off.
    Want {
        name: "dg2-a750",
        pci_id: 0x56a1,
        max: (1, 32, 16),
        subslices: &[
            (0, 0),
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 8),
            (0, 9),
            (0, 10),
            (0, 11),
            (0, 12),
            (0, 13),
            (0, 14),
            (0, 15),
            (0, 16),
            (0, 17),
            (0, 18),
            (0, 19),
            (0, 20),
            (0, 21),
            (0, 22),
            (0, 23),
            (0, 24),
            (0, 25),
            (0, 26),
            (0, 27),
            (0, 28),
            (0, 29),
            (0, 30),
            (0, 31),
        ],
        eus: &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        xe: Some((&[0x0f, 0xff, 0xff, 0xff], &[0xff, 0xff])),
    },
];

fn open(w: &Want, kmd: Kmd) -> Arc<dyn DeviceFile> {
    let part = FusedPart::named(w.name).expect(w.name);
    let config = SimConfig {
        part: Some(part),
        ..SimConfig::default()
    };
    sim::open_device(part.platform, kmd, config).unwrap()
}

#[test]
fn i915_reports_the_parts_masks() {
    for w in &WANT {
        let kmd_iface::Kmd::I915(d) = kmd_iface::Kmd::new(open(w, Kmd::I915)).unwrap() else {
            panic!("not i915")
        };
        let t = d.topology().unwrap();
        assert_eq!(
            (t.max_slices, t.max_subslices, t.max_eus_per_subslice),
            w.max,
            "{}",
            w.name
        );
        let (slices, subslices, eus) = (
            usize::from(w.max.0),
            usize::from(w.max.1),
            usize::from(w.max.2),
        );
        for s in 0..slices {
            assert_eq!(
                t.slice_available(s),
                w.subslices.iter().any(|&(ws, _)| ws == s)
            );
            for ss in 0..subslices {
                let on = w.subslices.contains(&(s, ss));
                assert_eq!(t.subslice_available(s, ss), on, "{} {s}.{ss}", w.name);
                for eu in 0..eus {
                    let want = on && w.eus.contains(&eu);
                    assert_eq!(t.eu_available(s, ss, eu), want, "{} {s}.{ss}.{eu}", w.name);
                }
            }
        }
        let eu_total = (w.subslices.len() * w.eus.len()) as i32;
        assert_eq!(t.eu_total() as i32, eu_total);
        assert_eq!(d.params().unwrap().chipset_id, w.pci_id);
        assert_eq!(d.getparam(I915_PARAM_EU_TOTAL).unwrap(), eu_total);
        assert_eq!(
            d.getparam(I915_PARAM_SUBSLICE_TOTAL).unwrap(),
            w.subslices.len() as i32
        );
        assert_eq!(d.getparam(I915_PARAM_SLICE_MASK).unwrap(), 1);
        let ss0 = w
            .subslices
            .iter()
            .filter(|&&(s, _)| s == 0)
            .fold(0u32, |m, &(_, ss)| m | 1 << ss);
        assert_eq!(d.getparam(I915_PARAM_SUBSLICE_MASK).unwrap() as u32, ss0);
    }
}

#[test]
fn xe_reports_the_parts_masks() {
    for w in WANT.iter().filter(|w| w.xe.is_some()) {
        let kmd_iface::Kmd::Xe(x) = kmd_iface::Kmd::new(open(w, Kmd::Xe)).unwrap() else {
            panic!("not xe")
        };
        let (dss, eu) = w.xe.unwrap();
        let masks = x.gt_topology().unwrap();
        let of = |kind| {
            masks
                .iter()
                .find(|m| m.kind == kind && m.gt_id == 0)
                .map(|m| m.mask.clone())
        };
        assert_eq!(
            of(DRM_XE_TOPO_DSS_GEOMETRY).as_deref(),
            Some(dss),
            "{}",
            w.name
        );
        assert_eq!(
            of(DRM_XE_TOPO_DSS_COMPUTE).as_deref(),
            Some(dss),
            "{}",
            w.name
        );
        assert_eq!(
            of(DRM_XE_TOPO_EU_PER_DSS).as_deref(),
            Some(eu),
            "{}",
            w.name
        );
        assert_eq!(x.config().unwrap().device_id(), Some(w.pci_id));
    }
}

#[test]
fn a_part_opens_only_as_its_own_platform_and_drivers() {
    let skl = FusedPart::named("skl-gt1").unwrap();
    let config = SimConfig {
        part: Some(skl),
        ..SimConfig::default()
    };
    assert!(matches!(
        sim::open_device(Platform::Tgllp, Kmd::I915, config.clone()),
        Err(OpenError::NotAPart { .. })
    ));
    assert!(matches!(
        sim::open_device(Platform::Skl, Kmd::Xe, config),
        Err(OpenError::Unsupported { .. })
    ));
}
