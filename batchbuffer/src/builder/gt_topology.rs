//! A GT's shape as the kernel driver reports it, which the platform table and the device
//! limits both describe.

/// A GT's shape as the kernel driver reports it: the largest topology (the index space of
/// slices, subslices and EUs) and what is enabled in it. From Gen12 on a "subslice" is a
/// dual-subslice (an Xe-core on Xe-HPG).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GtTopology {
    pub max_slices: u32,
    pub max_subslices_per_slice: u32,
    pub max_eus_per_subslice: u32,
    /// Enabled subslices over all slices.
    pub subslices: u32,
    /// Enabled EUs over all subslices.
    pub eus: u32,
}

impl GtTopology {
    /// A topology with nothing fused off.
    pub const fn full(slices: u32, subslices_per_slice: u32, eus_per_subslice: u32) -> Self {
        GtTopology {
            max_slices: slices,
            max_subslices_per_slice: subslices_per_slice,
            max_eus_per_subslice: eus_per_subslice,
            subslices: slices * subslices_per_slice,
            eus: slices * subslices_per_slice * eus_per_subslice,
        }
    }
}
