//! The largest work-group a dispatch can have, derived from the fields that carry the thread
//! count and the generation's threads-per-group fact, so the builder, umd and the ICD agree.
//!
//! genxml (third_party/genxml): GPGPU_WALKER's Thread Width Counter Maximum is bits 128–133
//! (6 bits, holds threads − 1) on gen90/gen110/gen120; INTERFACE_DESCRIPTOR_DATA's Number of
//! Threads in GPGPU Thread Group is 10 bits (holds threads) on every generation, and it is the
//! only thread count COMPUTE_WALKER (gen125) has.

use super::platform_data::gen_data;
use super::walker_math::{Simd, MAX_LOCAL_TOTAL};
use crate::codec::Packet;
use crate::layout::{low_mask, Layout};
use crate::packets::{GpgpuWalker, InterfaceDescriptorData};
use platform::Platform;

/// Threads a field of `layout` can express on `p`: `bias` is what the field holds below the
/// count (1 for a "maximum" that holds count − 1). `None` when the packet or field is absent
/// on `p` (field locations say `ALL` even where the packet itself does not exist).
pub(super) fn field_capacity(
    layout: &'static Layout,
    name: &str,
    bias: u64,
    p: Platform,
) -> Option<u64> {
    layout.len_on(p)?;
    let loc = layout.field(name)?.loc(p)?;
    Some(low_mask(loc.width()) + bias)
}

/// Hardware threads one work-group can have on `p`.
pub fn max_threads_per_group(p: Platform) -> u32 {
    let fields = [
        field_capacity(GpgpuWalker::LAYOUT, "Thread Width Counter Maximum", 1, p),
        field_capacity(
            InterfaceDescriptorData::LAYOUT,
            "Number of Threads in GPGPU Thread Group",
            0,
            p,
        ),
    ];
    let hw = gen_data(p).group_threads as u64;
    fields.into_iter().flatten().fold(hw, u64::min) as u32
}

/// Work-items one work-group can have on `p` at `simd`: the threads times the lanes, within
/// the builder's [`MAX_LOCAL_TOTAL`].
pub fn max_local_total(p: Platform, simd: Simd) -> u32 {
    (max_threads_per_group(p) * simd.lanes()).min(MAX_LOCAL_TOTAL)
}
