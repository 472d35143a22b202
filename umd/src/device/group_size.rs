//! The largest work-group a device runs, from the topology its kernel driver reports.
//!
//! A work-group's threads share one subslice (a dual-subslice from Gen12 on, an Xe-core on
//! Xe-HPG): barriers and shared local memory live there, so a group has at most the
//! subslice's EUs × threads per EU hardware threads, each running `simd` work-items. The
//! kernel drivers report EUs and (dual-)subslices (i915 `I915_PARAM_EU_TOTAL` /
//! `I915_PARAM_SUBSLICE_TOTAL`, xe's GT topology query); threads per EU are the platform's
//! (`batchbuffer::builder::gen_data`).
//!
//! CL_DEVICE_MAX_WORK_GROUP_SIZE follows Intel's runtime (NEO `Device::initializeCaps`):
//! the threads of one subslice at the narrowest SIMD width, rounded down to a power of two,
//! at most 1024. That gives 256 on skl GT2 (8 EUs × 7 threads × 8 = 448) and icllp GT2 (the
//! same), 512 on tgllp GT2 (16 × 7 × 8 = 896) and 1024 on DG2 (16 × 8 × 8).

use batchbuffer::builder::gen_data;

use super::{DeviceInfo, SUB_GROUP_SIZES};
use crate::ndrange::max_work_group;

/// OpenCL's and NEO's cap on any work-group (CL_DEVICE_MAX_WORK_GROUP_SIZE ≤ 1024 in NEO).
const WORK_GROUP_CAP: u32 = 1024;

impl DeviceInfo {
    /// Hardware threads per EU on this device's platform.
    pub fn threads_per_eu(&self) -> u32 {
        gen_data(self.platform).threads_per_eu
    }

    /// Hardware threads one subslice holds: the most one work-group can have. 0 when the
    /// kernel driver reported no subslice.
    pub fn threads_per_subslice(&self) -> u32 {
        self.eu_count
            .checked_div(self.subslice_count)
            .unwrap_or(0)
            .saturating_mul(self.threads_per_eu())
    }

    /// Work-items one work-group of a `simd`-lane kernel can have on this device, as the
    /// hardware allows: the walker's limit ([`max_work_group`]) and one subslice's threads
    /// times `simd` (the walker's alone when the kernel driver reported no subslice).
    pub fn max_group_items(&self, simd: u32) -> crate::error::Result<u32> {
        let walker = max_work_group(self.platform, simd)?;
        Ok(match self.threads_per_subslice() {
            0 => walker,
            t => walker.min(t.saturating_mul(simd)),
        })
    }

    /// CL_DEVICE_MAX_WORK_GROUP_SIZE (and each of CL_DEVICE_MAX_WORK_ITEM_SIZES): one
    /// subslice's threads at the narrowest SIMD width, as a power of two, at most 1024 and
    /// at most what a walker dispatches (see the module docs).
    pub fn max_work_group_size(&self) -> u32 {
        let narrowest = SUB_GROUP_SIZES.iter().copied().min().unwrap_or(8) as u32;
        let items = self.threads_per_subslice().saturating_mul(narrowest);
        let pow2 = match items {
            0 => 0,
            n => 1 << n.ilog2(),
        };
        let walker = SUB_GROUP_SIZES
            .iter()
            .filter_map(|&s| max_work_group(self.platform, s as u32).ok())
            .max()
            .unwrap_or(0);
        pow2.min(WORK_GROUP_CAP).min(walker)
    }

    /// CL_KERNEL_WORK_GROUP_SIZE of a kernel dispatched `simd` lanes wide: the device's
    /// maximum, within one subslice's threads at that width and the walker's limit for it.
    /// 0 for a width the walker cannot dispatch.
    pub fn kernel_work_group_size(&self, simd: u32) -> u32 {
        let Ok(walker) = max_work_group(self.platform, simd) else {
            return 0;
        };
        self.max_work_group_size()
            .min(walker)
            .min(self.threads_per_subslice().saturating_mul(simd))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::KmdChoice;
    use platform::Platform;

    /// A device of `p` with the GT2 topology of NEO's hardware-info tables (and Mesa's):
    /// skl 24 EUs in 3 subslices, icllp 64 in 8, tgllp 96 in 6 dual-subslices, DG2-512
    /// 512 in 32 Xe-cores.
    fn gt(p: Platform, eus: u32, subslices: u32) -> DeviceInfo {
        DeviceInfo {
            name: format!("test:{}", p.name()),
            device_id: 0,
            platform: p,
            kmd: KmdChoice::I915,
            eu_count: eus,
            subslice_count: subslices,
            slice_count: 1,
            simulated: true,
            topology: gen_data(p).representative,
            limits: batchbuffer::builder::DeviceLimits::representative(p),
        }
    }

    /// Expected values: NEO's CL_DEVICE_MAX_WORK_GROUP_SIZE rule applied to its GT2
    /// configurations (256 on skl and icllp, 512 on tgllp, 1024 on DG2).
    #[test]
    fn device_maximum_follows_neo() {
        assert_eq!(gt(Platform::Skl, 24, 3).max_work_group_size(), 256);
        assert_eq!(gt(Platform::Icllp, 64, 8).max_work_group_size(), 256);
        assert_eq!(gt(Platform::Tgllp, 96, 6).max_work_group_size(), 512);
        assert_eq!(gt(Platform::Dg2, 512, 32).max_work_group_size(), 1024);
    }

    /// A group never has more threads than one subslice holds: skl's 56 threads give
    /// SIMD8 448 work-items, below the device's power of two only where it is smaller.
    #[test]
    fn kernel_maximum_stays_in_one_subslice() {
        let skl = gt(Platform::Skl, 24, 3);
        assert_eq!(skl.threads_per_subslice(), 56);
        assert_eq!(skl.kernel_work_group_size(8), 256);
        assert_eq!(skl.kernel_work_group_size(32), 256);
        // A fused-off part: 2 subslices of 6 EUs (42 threads, SIMD8 336, power of two 256).
        let small = gt(Platform::Skl, 12, 2);
        assert_eq!(small.max_work_group_size(), 256);
        assert_eq!(small.kernel_work_group_size(8), 256);
        // One EU per subslice: 7 threads, SIMD16 112 work-items, power of two 32 device-wide.
        let tiny = gt(Platform::Skl, 1, 1);
        assert_eq!(tiny.max_work_group_size(), 32);
        assert_eq!(tiny.kernel_work_group_size(16), 32);
        // Gen12LP's GPGPU_WALKER gives a group 64 threads: 512 at SIMD8.
        assert_eq!(gt(Platform::Tgllp, 96, 6).kernel_work_group_size(8), 512);
        assert_eq!(gt(Platform::Tgllp, 96, 6).kernel_work_group_size(32), 512);
        assert_eq!(gt(Platform::Dg2, 512, 32).kernel_work_group_size(16), 1024);
    }

    /// What a dispatch may have: one subslice's threads (Gen9/Gen11 GT2: 8 EUs × 7 threads
    /// = 56, below GPGPU_WALKER's 64), the walker's 64 threads on Gen12LP (a dual-subslice
    /// holds 16 × 7 = 112), Xe-HPG's 1024 work-items (an Xe-core holds 16 × 8 = 128 threads).
    #[test]
    fn dispatch_maximum_is_the_walkers_within_one_subslice() {
        let skl = gt(Platform::Skl, 24, 3);
        assert_eq!(skl.max_group_items(8).unwrap(), 56 * 8);
        assert_eq!(skl.max_group_items(16).unwrap(), 56 * 16);
        assert_eq!(skl.max_group_items(32).unwrap(), 1024);
        assert_eq!(
            gt(Platform::Icllp, 64, 8).max_group_items(16).unwrap(),
            56 * 16
        );
        assert_eq!(
            gt(Platform::Tgllp, 96, 6).max_group_items(8).unwrap(),
            64 * 8
        );
        assert_eq!(gt(Platform::Dg2, 512, 32).max_group_items(8).unwrap(), 1024);
        assert_eq!(gt(Platform::Skl, 1, 1).max_group_items(16).unwrap(), 7 * 16);
        assert_eq!(gt(Platform::Skl, 24, 0).max_group_items(8).unwrap(), 64 * 8);
        assert!(skl.max_group_items(12).is_err());
    }

    #[test]
    fn no_topology_or_bad_width_gives_zero() {
        assert_eq!(gt(Platform::Tgllp, 96, 0).max_work_group_size(), 0);
        assert_eq!(gt(Platform::Tgllp, 96, 6).kernel_work_group_size(12), 0);
    }
}
