//! The GT topology as each kernel driver reports it, in the one shape the batch builder sizes
//! the front end and scratch from ([`GtTopology`]).

use batchbuffer::builder::GtTopology;
use kmd_iface::i915::query::Topology;
use kmd_iface::xe::query::TopologyMask;
use kmd_iface::xe::uapi::{
    DRM_XE_TOPO_DSS_COMPUTE, DRM_XE_TOPO_DSS_GEOMETRY, DRM_XE_TOPO_EU_PER_DSS,
    DRM_XE_TOPO_SIMD16_EU_PER_DSS,
};

/// i915's `DRM_I915_QUERY_TOPOLOGY_INFO`: the header gives the largest topology (slices,
/// subslices per slice, EUs per subslice), the masks what is enabled.
pub(crate) fn from_i915(t: &Topology) -> GtTopology {
    GtTopology {
        max_slices: u32::from(t.max_slices),
        max_subslices_per_slice: u32::from(t.max_subslices),
        max_eus_per_subslice: u32::from(t.max_eus_per_subslice),
        subslices: t.subslice_total() as u32,
        eus: t.eu_total() as u32,
    }
}

/// Bits up to and including the highest set one: the index space a mask spans.
fn span(mask: &[u8]) -> u32 {
    mask.iter()
        .enumerate()
        .rev()
        .find(|(_, b)| **b != 0)
        .map_or(0, |(i, b)| i as u32 * 8 + (8 - b.leading_zeros()))
}

/// The bitwise union of `gt`'s masks of the given kinds.
fn union(masks: &[TopologyMask], gt: u16, kinds: &[u16]) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::new();
    for m in masks
        .iter()
        .filter(|m| m.gt_id == gt && kinds.contains(&m.kind))
    {
        if out.len() < m.mask.len() {
            out.resize(m.mask.len(), 0);
        }
        for (o, b) in out.iter_mut().zip(&m.mask) {
            *o |= b;
        }
    }
    out
}

/// xe's `DRM_XE_DEVICE_QUERY_GT_TOPOLOGY` for GT 0: DSS masks (geometry and compute, whose
/// union is every present DSS) and one EU mask every DSS shares. xe reports no slices and no
/// largest topology: the DSS index space runs up to the highest present DSS, the EU index
/// space up to the highest present EU but never below `arch_eus` (the platform's EUs per
/// DSS, which fused-off EUs keep their numbers in).
pub(crate) fn from_xe(masks: &[TopologyMask], arch_eus: u32) -> GtTopology {
    let dss = union(
        masks,
        0,
        &[DRM_XE_TOPO_DSS_GEOMETRY, DRM_XE_TOPO_DSS_COMPUTE],
    );
    let eu = union(
        masks,
        0,
        &[DRM_XE_TOPO_EU_PER_DSS, DRM_XE_TOPO_SIMD16_EU_PER_DSS],
    );
    let count = |m: &[u8]| m.iter().map(|b| b.count_ones()).sum::<u32>();
    let subslices = count(&dss);
    GtTopology {
        max_slices: 1,
        max_subslices_per_slice: span(&dss),
        max_eus_per_subslice: span(&eu).max(arch_eus),
        subslices,
        eus: subslices.saturating_mul(count(&eu)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(kind: u16, mask: &[u8]) -> TopologyMask {
        TopologyMask {
            gt_id: 0,
            kind,
            mask: mask.to_vec(),
        }
    }

    #[test]
    fn xe_masks_give_the_index_spaces_and_counts() {
        // 5 of 6 DSS present (DSS 2 fused off), 14 of 16 EUs (the top two fused off, which
        // keep their numbers), and another GT's record that must not count.
        let masks = [
            rec(DRM_XE_TOPO_DSS_GEOMETRY, &[0b11_1011, 0, 0, 0]),
            rec(DRM_XE_TOPO_DSS_COMPUTE, &[0b11_1011, 0, 0, 0]),
            rec(DRM_XE_TOPO_EU_PER_DSS, &[0xff, 0x3f]),
            TopologyMask {
                gt_id: 1,
                kind: DRM_XE_TOPO_DSS_COMPUTE,
                mask: vec![0xff; 8],
            },
        ];
        let t = from_xe(&masks, 16);
        assert_eq!(
            t,
            GtTopology {
                max_slices: 1,
                max_subslices_per_slice: 6,
                max_eus_per_subslice: 16,
                subslices: 5,
                eus: 70,
            }
        );
        // Without the platform's floor, the highest present EU bounds the space.
        assert_eq!(from_xe(&masks, 0).max_eus_per_subslice, 14);
    }

    #[test]
    fn empty_masks_give_an_empty_topology() {
        let t = from_xe(&[], 16);
        assert_eq!((t.subslices, t.eus, t.max_subslices_per_slice), (0, 0, 0));
    }
}
