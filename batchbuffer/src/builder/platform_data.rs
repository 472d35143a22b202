//! Per-generation dispatch facts the builder needs, as one table.

use super::gt_topology::GtTopology;
use platform::Platform;

/// How a generation launches compute work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalkerKind {
    /// MEDIA_VFE_STATE + MEDIA_INTERFACE_DESCRIPTOR_LOAD + GPGPU_WALKER (Gen9–Gen12LP).
    Gpgpu,
    /// CFE_STATE + COMPUTE_WALKER with an inline interface descriptor (Xe-HPG).
    Compute,
}

/// Dispatch facts for one generation.
#[derive(Debug, Clone, Copy)]
pub struct GenData {
    /// Which walker family.
    pub walker: WalkerKind,
    /// Write-back MOCS table index (IGT `get_mocs_index`: I915_MOCS_CACHED on Gen9/11, 2 on
    /// Gen12, 3 on DG2). MOCS fields hold `index << 1`.
    pub mocs_wb_index: u32,
    /// Hardware threads per EU (Mesa's `intel_device_info`: 7 on Gen9–Gen12LP, 8 on Xe-HPG).
    pub threads_per_eu: u32,
    /// Thread slots per EU as the thread dispatcher numbers them (FFTID), which the front end's
    /// Maximum Number of Threads and the scratch slices count: the threads per EU on Gen9 and
    /// Xe-HPG; 8 on Gen11 and Gen12LP, whose MEDIA_VFE_STATE text (as Mesa quotes it) says "the
    /// Maximum Number of Threads must be set to (#EU * 8) for GPGPU dispatches … the FFTID is
    /// calculated as if there are 8 threads per EU" (NEO: `extraQuantityThreadsPerEU` 1 there).
    pub dispatch_threads_per_eu: u32,
    /// Scratch counts at least this many subslices per slice: Gen9's 3DSTATE_PS "Scratch Space
    /// per slice is computed based on 4 sub-slices" (Mesa applies it to compute); 0 elsewhere.
    pub scratch_min_subslices_per_slice: u32,
    /// The representative GT as the kernel driver reports it, for builders made without a
    /// device's topology ([`crate::builder::Builder::new`]).
    pub representative: GtTopology,
    /// RENDER_SURFACE_STATE Surface Horizontal/Vertical Alignment raw values for buffers and
    /// linear surfaces (HALIGN_4/VALIGN_4 before Xe-HPG; HALIGN_16/VALIGN_4 on it).
    pub halign: u32,
    /// See `halign`.
    pub valign: u32,
    /// Right execution mask with no remainder lanes: NEO writes all 32 ones for GPGPU_WALKER
    /// and a mask of the SIMD width for COMPUTE_WALKER.
    pub full_mask_is_simd_width: bool,
    /// Hardware threads one thread group may have, before the walker's field widths cap it
    /// (see `group_limits`): 64 for GPGPU_WALKER compute on Gen9–Gen12LP; on Xe-HPG one Xe
    /// core's threads (16 EUs × 8), where a group with barriers or SLM must stay.
    pub group_threads: u32,
}

/// The table, ordered like [`Platform`].
const DATA: [GenData; 4] = [
    // Skylake GT2: 3 subslices of 8 EUs.
    GenData {
        walker: WalkerKind::Gpgpu,
        mocs_wb_index: 2,
        threads_per_eu: 7,
        dispatch_threads_per_eu: 7,
        scratch_min_subslices_per_slice: 4,
        representative: GtTopology::full(1, 3, 8),
        halign: 1,
        valign: 1,
        full_mask_is_simd_width: false,
        group_threads: 64,
    },
    // Ice Lake GT2: 8 subslices of 8 EUs.
    GenData {
        walker: WalkerKind::Gpgpu,
        mocs_wb_index: 2,
        threads_per_eu: 7,
        dispatch_threads_per_eu: 8,
        scratch_min_subslices_per_slice: 0,
        representative: GtTopology::full(1, 8, 8),
        halign: 1,
        valign: 1,
        full_mask_is_simd_width: false,
        group_threads: 64,
    },
    // Tiger Lake GT2: 6 dual-subslices of 16 EUs.
    GenData {
        walker: WalkerKind::Gpgpu,
        mocs_wb_index: 2,
        threads_per_eu: 7,
        dispatch_threads_per_eu: 8,
        scratch_min_subslices_per_slice: 0,
        representative: GtTopology::full(1, 6, 16),
        halign: 1,
        valign: 1,
        full_mask_is_simd_width: false,
        group_threads: 64,
    },
    // DG2-512 (ACM-G10): 32 Xe-cores of 16 EUs.
    GenData {
        walker: WalkerKind::Compute,
        mocs_wb_index: 3,
        threads_per_eu: 8,
        dispatch_threads_per_eu: 8,
        scratch_min_subslices_per_slice: 0,
        representative: GtTopology::full(1, 32, 16),
        halign: 0,
        valign: 1,
        full_mask_is_simd_width: true,
        group_threads: 16 * 8,
    },
];

/// The dispatch facts of `p`.
pub fn gen_data(p: Platform) -> &'static GenData {
    &DATA[p as usize]
}

/// The MOCS field value (table index in bits 6:1) for write-back caching on `p`.
pub fn mocs_wb(p: Platform) -> u32 {
    gen_data(p).mocs_wb_index << 1
}
