//! Per-generation dispatch facts the builder needs, as one table.

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
    /// Hardware threads of the representative GT (EUs × threads per EU), for the VFE/CFE
    /// Maximum Number of Threads field (which holds the count minus one).
    pub max_threads: u32,
    /// Hardware threads per EU (Mesa's `intel_device_info`: 7 on Gen9–Gen12LP, 8 on Xe-HPG);
    /// scratch has one slice per hardware thread.
    pub threads_per_eu: u32,
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
    // Skylake GT2: 24 EUs × 7 threads.
    GenData {
        walker: WalkerKind::Gpgpu,
        mocs_wb_index: 2,
        max_threads: 24 * 7,
        threads_per_eu: 7,
        halign: 1,
        valign: 1,
        full_mask_is_simd_width: false,
        group_threads: 64,
    },
    // Ice Lake GT2: 64 EUs × 7 threads.
    GenData {
        walker: WalkerKind::Gpgpu,
        mocs_wb_index: 2,
        max_threads: 64 * 7,
        threads_per_eu: 7,
        halign: 1,
        valign: 1,
        full_mask_is_simd_width: false,
        group_threads: 64,
    },
    // Tiger Lake GT2: 96 EUs × 7 threads.
    GenData {
        walker: WalkerKind::Gpgpu,
        mocs_wb_index: 2,
        max_threads: 96 * 7,
        threads_per_eu: 7,
        halign: 1,
        valign: 1,
        full_mask_is_simd_width: false,
        group_threads: 64,
    },
    // DG2-512 (ACM-G10): 512 EUs × 8 threads.
    GenData {
        walker: WalkerKind::Compute,
        mocs_wb_index: 3,
        max_threads: 512 * 8,
        threads_per_eu: 8,
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
