//! The front end's thread count and the scratch buffer's slice count, from the GT topology the
//! kernel driver reports (i915 `DRM_I915_QUERY_TOPOLOGY_INFO`, xe
//! `DRM_XE_DEVICE_QUERY_GT_TOPOLOGY`).
//!
//! Both count thread slots as the thread dispatcher numbers them (FFTID: slice, subslice, EU,
//! thread), where fused-off parts keep their numbers:
//! - Maximum Number of Threads (MEDIA_VFE_STATE holds it minus one, CFE_STATE as is): every
//!   enabled subslice counted whole, as Mesa programs it (`max_cs_threads * subslice_total`),
//!   with the dispatcher's threads per EU (8 on Gen11/Gen12LP, as NEO's `getMaxThreadsForVfe`
//!   and the PRM's "(#EU * 8)").
//! - Scratch slices: the largest topology the query describes (slices × subslices per slice ×
//!   EUs per subslice × threads per EU, NEO's `getComputeUnitsUsedForScratch` with its
//!   `MaxSubSlicesSupported` and `MaxEuPerSubSlice` from the query), with Gen9's four subslices
//!   per slice, and never fewer than the front end's thread count.

use super::group_limits::field_capacity;
use super::gt_topology::GtTopology;
use super::platform_data::gen_data;
use super::BuildError;
use crate::codec::Packet;
use crate::packets::{CfeState, MediaVfeState};
use platform::Platform;

/// What a device's topology sets for the batches built for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceLimits {
    /// The front end's Maximum Number of Threads (the count; MEDIA_VFE_STATE gets it minus one).
    pub front_end_threads: u32,
    /// Slices a scratch (and private memory) buffer needs: one per thread slot.
    pub scratch_slices: u32,
}

/// Threads the front end's Maximum Number of Threads field can express on `p`.
fn front_end_capacity(p: Platform) -> u64 {
    let fields = [
        field_capacity(MediaVfeState::LAYOUT, "Maximum Number of Threads", 1, p),
        field_capacity(CfeState::LAYOUT, "Maximum Number of Threads", 0, p),
    ];
    fields.into_iter().flatten().min().unwrap_or(0)
}

/// The two counts before their range checks, in u64 so no product overflows.
fn counts(p: Platform, t: &GtTopology) -> (u64, u64) {
    let g = gen_data(p);
    let per_eu = u64::from(g.dispatch_threads_per_eu);
    let eus = u64::from(t.max_eus_per_subslice);
    let front = u64::from(t.subslices) * eus * per_eu;
    let per_slice = t
        .max_subslices_per_slice
        .max(g.scratch_min_subslices_per_slice);
    let scratch = u64::from(t.max_slices) * u64::from(per_slice) * eus * per_eu;
    (front, scratch.max(front))
}

impl DeviceLimits {
    /// The limits of a device of `p` whose kernel driver reports `t`.
    pub fn new(p: Platform, t: &GtTopology) -> Result<DeviceLimits, BuildError> {
        if t.subslices == 0 || t.eus == 0 || t.max_eus_per_subslice == 0 {
            return Err(BuildError::BadTopology("no enabled subslice or EU"));
        }
        let most = u64::from(t.max_slices) * u64::from(t.max_subslices_per_slice);
        if u64::from(t.subslices) > most {
            return Err(BuildError::BadTopology(
                "more enabled subslices than the topology has places for",
            ));
        }
        if u64::from(t.eus) > u64::from(t.subslices) * u64::from(t.max_eus_per_subslice) {
            return Err(BuildError::BadTopology(
                "more enabled EUs than the enabled subslices hold",
            ));
        }
        let (front, scratch) = counts(p, t);
        if front > front_end_capacity(p) {
            return Err(BuildError::BadTopology(
                "more threads than the front end's Maximum Number of Threads field holds",
            ));
        }
        Ok(DeviceLimits {
            front_end_threads: front as u32,
            scratch_slices: u32::try_from(scratch)
                .map_err(|_| BuildError::BadTopology("more scratch slices than 2^32"))?,
        })
    }

    /// The limits of `p`'s representative GT (the platform table's), for batches built
    /// without a device.
    pub fn representative(p: Platform) -> DeviceLimits {
        // The table's topologies are small and fully enabled (a test checks they pass `new`).
        let (front, scratch) = counts(p, &gen_data(p).representative);
        DeviceLimits {
            front_end_threads: front.min(front_end_capacity(p)) as u32,
            scratch_slices: scratch.min(u64::from(u32::MAX)) as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn representative_topologies_are_valid() {
        for p in Platform::ALL {
            let t = gen_data(p).representative;
            assert_eq!(
                DeviceLimits::new(p, &t).unwrap(),
                DeviceLimits::representative(p),
                "{p}"
            );
        }
    }
}
