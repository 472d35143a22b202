//! What the walker and interface descriptor derive from the SIMD width and the local size:
//! threads per group, execution masks, the SIMD Size field, SLM encoding, local IDs.
//!
//! The rules are cl_intel_required_subgroup_size's (a work-group is split into subgroups of
//! exactly the SIMD width, the last one partial) and NEO's walker programming (right mask =
//! remainder lanes, bottom mask all ones, Thread Width Counter Maximum = threads − 1).

use super::walk_order::walk_dims;
use super::BuildError;
use crate::packets::{SimdSize, WalkOrder};

/// A dispatch SIMD width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Simd {
    /// SIMD8.
    S8,
    /// SIMD16.
    S16,
    /// SIMD32.
    S32,
}

impl Simd {
    /// From a lane count (`intel_reqd_sub_group_size` or the binary's SIMD).
    pub fn from_lanes(lanes: u32) -> Result<Simd, BuildError> {
        match lanes {
            8 => Ok(Simd::S8),
            16 => Ok(Simd::S16),
            32 => Ok(Simd::S32),
            other => Err(BuildError::BadSimd(other)),
        }
    }
    /// Lanes per hardware thread.
    pub fn lanes(self) -> u32 {
        match self {
            Simd::S8 => 8,
            Simd::S16 => 16,
            Simd::S32 => 32,
        }
    }
    /// The walker's SIMD Size (and Xe-HPG Message SIMD) field: 8→0, 16→1, 32→2.
    pub fn field(self) -> SimdSize {
        match self {
            Simd::S8 => SimdSize::Simd8,
            Simd::S16 => SimdSize::Simd16,
            Simd::S32 => SimdSize::Simd32,
        }
    }
}

/// Largest work-group the builder accepts (the devices' maximum work-group size).
pub const MAX_LOCAL_TOTAL: u32 = 1024;

/// The derived walker values for one work-group shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkerMath {
    /// Work-items per group.
    pub local_total: u32,
    /// Hardware threads per group: ceil(local_total / simd).
    pub threads: u32,
    /// Lanes enabled in the last thread of a group.
    pub right_mask: u32,
    /// Always all ones (only meaningful for 2D thread arrangements, which compute does not use).
    pub bottom_mask: u32,
    /// GPGPU_WALKER Thread Width Counter Maximum: threads − 1.
    pub thread_width_counter_max: u32,
}

/// Derives threads and masks; `full_mask_is_simd_width` picks NEO's COMPUTE_WALKER behaviour
/// (mask of the SIMD width when no lanes remain) over its GPGPU_WALKER one (all 32 ones).
pub fn walker_math(
    simd: Simd,
    local: [u32; 3],
    full_mask_is_simd_width: bool,
) -> Result<WalkerMath, BuildError> {
    let total = local
        .iter()
        .try_fold(
            1u32,
            |acc, &d| if d == 0 { None } else { acc.checked_mul(d) },
        )
        .filter(|&t| t <= MAX_LOCAL_TOTAL)
        .ok_or(BuildError::BadLocalSize(local))?;
    let lanes = simd.lanes();
    let threads = total.div_ceil(lanes);
    let remainder = total % lanes;
    let right_mask = match (remainder, full_mask_is_simd_width) {
        (0, false) => u32::MAX,
        (0, true) => mask_of(lanes),
        (r, _) => mask_of(r),
    };
    Ok(WalkerMath {
        local_total: total,
        threads,
        right_mask,
        bottom_mask: u32::MAX,
        thread_width_counter_max: threads - 1,
    })
}

fn mask_of(lanes: u32) -> u32 {
    if lanes >= 32 {
        u32::MAX
    } else {
        (1u32 << lanes) - 1
    }
}

/// INTERFACE_DESCRIPTOR_DATA Shared Local Memory Size: 0 for none, else log2 of the size
/// rounded up to a power of two of at least 1 KiB, in KiB, plus one (1K→1 … 64K→7).
pub fn slm_encoding(bytes: u32) -> Result<u32, BuildError> {
    if bytes == 0 {
        return Ok(0);
    }
    if bytes > 64 * 1024 {
        return Err(BuildError::SlmTooLarge(bytes));
    }
    let kib = bytes.div_ceil(1024).next_power_of_two();
    Ok(kib.trailing_zeros() + 1)
}

/// GRFs (32 bytes) one local-ID channel takes per thread: 16-bit IDs, one GRF for SIMD8/16,
/// two for SIMD32.
pub fn grfs_per_channel(simd: Simd) -> u32 {
    if simd == Simd::S32 {
        2
    } else {
        1
    }
}

/// Writes runtime-generated local IDs for thread `thread` of a group: `channels` blocks (x, y,
/// z) of `grfs_per_channel` GRFs, 16-bit IDs. Work items are laid over the threads' lanes in
/// `order` (its first dimension fastest, as NEO's software local-ID generation walks them);
/// lanes past the group end repeat zero. `out` must hold `channels * grfs_per_channel * 8`
/// dwords.
pub fn write_local_ids(
    simd: Simd,
    local: [u32; 3],
    order: WalkOrder,
    thread: u32,
    channels: u32,
    out: &mut [u32],
) {
    let lanes = simd.lanes();
    let per_channel = (grfs_per_channel(simd) * 8) as usize;
    let total = local[0] * local[1] * local[2];
    let [d0, d1, d2] = walk_dims(order).map(usize::from);
    let channels = (channels as usize).min(3);
    out[..channels * per_channel].fill(0);
    for lane in 0..lanes {
        let walked = thread * lanes + lane;
        if walked >= total {
            break;
        }
        let mut id = [0u32; 3];
        id[d0] = walked % local[d0];
        id[d1] = (walked / local[d0]) % local[d1];
        id[d2] = walked / (local[d0] * local[d1]);
        for (c, v) in id.iter().enumerate().take(channels) {
            let w = &mut out[c * per_channel + (lane / 2) as usize];
            *w |= (v & 0xFFFF) << (16 * (lane % 2));
        }
    }
}
