//! `DRM_IOCTL_I915_QUERY` with the two-call size protocol, and the reply parsers.

use super::device::I915;
use super::uapi::*;
use crate::blob::Blob;
use crate::call::{addr_of_mut, ioctl};
use crate::error::{Error, Result};
use crate::hwconfig::{parse_hwconfig, HwConfigAttr};
use crate::seam::Errno;

/// Replies larger than this are a broken device, not something to allocate for.
pub const MAX_QUERY_BYTES: usize = 64 << 20;

/// One engine from `DRM_I915_QUERY_ENGINE_INFO`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineInfo {
    pub class: u16,
    pub instance: u16,
    pub flags: u64,
    pub capabilities: u64,
    /// Present when the kernel sets `I915_ENGINE_INFO_HAS_LOGICAL_INSTANCE`.
    pub logical_instance: Option<u16>,
}

/// One memory region from `DRM_I915_QUERY_MEMORY_REGIONS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryRegion {
    pub class: u16,
    pub instance: u16,
    pub probed_size: u64,
    /// `u64::MAX` when the kernel does not tell (unprivileged callers).
    pub unallocated_size: u64,
    pub probed_cpu_visible_size: u64,
    pub unallocated_cpu_visible_size: u64,
}

/// Slice/subslice/EU availability from `DRM_I915_QUERY_TOPOLOGY_INFO`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topology {
    pub max_slices: u16,
    pub max_subslices: u16,
    pub max_eus_per_subslice: u16,
    subslice_stride: u16,
    eu_stride: u16,
    slice_mask: Vec<u8>,
    subslice_masks: Vec<u8>,
    eu_masks: Vec<u8>,
}

fn bit(mask: &[u8], index: usize) -> bool {
    mask.get(index / 8)
        .is_some_and(|b| b & (1 << (index % 8)) != 0)
}

impl Topology {
    pub fn slice_available(&self, s: usize) -> bool {
        bit(&self.slice_mask, s)
    }

    pub fn subslice_available(&self, s: usize, ss: usize) -> bool {
        let base = s * self.subslice_stride as usize;
        bit(self.subslice_masks.get(base..).unwrap_or_default(), ss)
    }

    pub fn eu_available(&self, s: usize, ss: usize, eu: usize) -> bool {
        let base = (s * self.max_subslices as usize + ss) * self.eu_stride as usize;
        bit(self.eu_masks.get(base..).unwrap_or_default(), eu)
    }

    fn subslices(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let (s_max, ss_max) = (self.max_slices as usize, self.max_subslices as usize);
        (0..s_max)
            .filter(|&s| self.slice_available(s))
            .flat_map(move |s| (0..ss_max).map(move |ss| (s, ss)))
            .filter(|&(s, ss)| self.subslice_available(s, ss))
    }

    /// Enabled slices.
    pub fn slice_total(&self) -> usize {
        (0..self.max_slices as usize)
            .filter(|&s| self.slice_available(s))
            .count()
    }

    /// Enabled subslices over all enabled slices.
    pub fn subslice_total(&self) -> usize {
        self.subslices().count()
    }

    /// Enabled EUs over all enabled subslices.
    pub fn eu_total(&self) -> usize {
        self.subslices()
            .map(|(s, ss)| {
                (0..self.max_eus_per_subslice as usize)
                    .filter(|&eu| self.eu_available(s, ss, eu))
                    .count()
            })
            .sum()
    }
}

/// Parses a `drm_i915_query_engine_info` reply.
pub fn parse_engine_info(bytes: &[u8]) -> Result<Vec<EngineInfo>> {
    let blob = Blob::new("i915 engine info", bytes);
    let head: drm_i915_query_engine_info = blob.read(0)?;
    let at = size_of::<drm_i915_query_engine_info>();
    let raw = blob.array::<drm_i915_engine_info>(at, head.num_engines as usize)?;
    blob.expect_end(at + raw.len() * size_of::<drm_i915_engine_info>())?;
    Ok(raw
        .iter()
        .map(|e| EngineInfo {
            class: e.engine.engine_class,
            instance: e.engine.engine_instance,
            flags: e.flags,
            capabilities: e.capabilities,
            logical_instance: (e.flags & I915_ENGINE_INFO_HAS_LOGICAL_INSTANCE != 0)
                .then_some(e.logical_instance),
        })
        .collect())
}

/// Parses a `drm_i915_query_memory_regions` reply.
pub fn parse_memory_regions(bytes: &[u8]) -> Result<Vec<MemoryRegion>> {
    let blob = Blob::new("i915 memory regions", bytes);
    let head: drm_i915_query_memory_regions = blob.read(0)?;
    let at = size_of::<drm_i915_query_memory_regions>();
    let raw = blob.array::<drm_i915_memory_region_info>(at, head.num_regions as usize)?;
    blob.expect_end(at + raw.len() * size_of::<drm_i915_memory_region_info>())?;
    Ok(raw
        .iter()
        .map(|r| MemoryRegion {
            class: r.region.memory_class,
            instance: r.region.memory_instance,
            probed_size: r.probed_size,
            unallocated_size: r.unallocated_size,
            probed_cpu_visible_size: r.probed_cpu_visible_size,
            unallocated_cpu_visible_size: r.unallocated_cpu_visible_size,
        })
        .collect())
}

/// Parses a `drm_i915_query_topology_info` reply: the slice mask, then per-slice subslice masks
/// at `subslice_offset`, then per-subslice EU masks at `eu_offset`, all within `data`.
pub fn parse_topology(bytes: &[u8]) -> Result<Topology> {
    let blob = Blob::new("i915 topology info", bytes);
    let h: drm_i915_query_topology_info = blob.read(0)?;
    let data = size_of::<drm_i915_query_topology_info>();
    let slices = h.max_slices as usize;
    let slice_bytes = slices.div_ceil(8);
    let ss_bytes = slices * h.subslice_stride as usize;
    let eu_bytes = slices * h.max_subslices as usize * h.eu_stride as usize;
    if (h.subslice_stride as usize) < (h.max_subslices as usize).div_ceil(8) {
        return Err(blob.malformed(10, "subslice_stride too small for max_subslices"));
    }
    if (h.eu_stride as usize) < (h.max_eus_per_subslice as usize).div_ceil(8) {
        return Err(blob.malformed(14, "eu_stride too small for max_eus_per_subslice"));
    }
    let ss_at = data + h.subslice_offset as usize;
    let eu_at = data + h.eu_offset as usize;
    if (h.subslice_offset as usize) < slice_bytes
        || (h.eu_offset as usize) < h.subslice_offset as usize + ss_bytes
    {
        return Err(blob.malformed(8, "mask offsets overlap"));
    }
    let topo = Topology {
        max_slices: h.max_slices,
        max_subslices: h.max_subslices,
        max_eus_per_subslice: h.max_eus_per_subslice,
        subslice_stride: h.subslice_stride,
        eu_stride: h.eu_stride,
        slice_mask: blob.slice(data, slice_bytes)?.to_vec(),
        subslice_masks: blob.slice(ss_at, ss_bytes)?.to_vec(),
        eu_masks: blob.slice(eu_at, eu_bytes)?.to_vec(),
    };
    blob.expect_end(eu_at + eu_bytes)?;
    Ok(topo)
}

/// Parses a `drm_i915_query_guc_submission_version` reply.
pub fn parse_guc_submission_version(bytes: &[u8]) -> Result<drm_i915_query_guc_submission_version> {
    Blob::new("i915 GuC submission version", bytes).exactly()
}

impl I915 {
    /// One query item, sized by a first call with `length` 0 and filled by a second.
    pub fn query(&self, query_id: u64, flags: u32) -> Result<Vec<u8>> {
        let op = "DRM_IOCTL_I915_QUERY";
        let mut item = drm_i915_query_item {
            query_id,
            flags,
            ..Default::default()
        };
        let len = self.query_item(&mut item)?;
        if len == 0 {
            return Ok(Vec::new());
        }
        let mut buf = vec![0u8; len];
        item.length = len as i32;
        item.data_ptr = addr_of_mut(&mut buf);
        let written = self.query_item(&mut item)?;
        if written > len {
            return Err(Error::Malformed {
                what: op,
                offset: 0,
                detail: format!("reply grew from {len} to {written} bytes between calls"),
            });
        }
        buf.truncate(written);
        Ok(buf)
    }

    fn query_item(&self, item: &mut drm_i915_query_item) -> Result<usize> {
        let mut q = drm_i915_query {
            num_items: 1,
            flags: 0,
            items_ptr: item as *mut drm_i915_query_item as u64,
        };
        let query_id = item.query_id;
        ioctl(self.file(), DRM_IOCTL_I915_QUERY, &mut q)
            .map_err(|e| e.context(|| format!("query {query_id}")))?;
        // A negative length is the item's own -errno.
        if item.length < 0 {
            return Err(Error::QueryItem {
                op: "DRM_IOCTL_I915_QUERY",
                query_id,
                errno: Errno::from_raw(-item.length),
            });
        }
        let len = item.length as usize;
        if len > MAX_QUERY_BYTES {
            return Err(Error::TooLarge {
                what: "i915 query reply",
                len,
            });
        }
        Ok(len)
    }

    pub fn engine_info(&self) -> Result<Vec<EngineInfo>> {
        parse_engine_info(&self.query(DRM_I915_QUERY_ENGINE_INFO, 0)?)
    }

    pub fn memory_regions(&self) -> Result<Vec<MemoryRegion>> {
        parse_memory_regions(&self.query(DRM_I915_QUERY_MEMORY_REGIONS, 0)?)
    }

    pub fn topology(&self) -> Result<Topology> {
        parse_topology(&self.query(DRM_I915_QUERY_TOPOLOGY_INFO, 0)?)
    }

    /// The GuC submission interface version (GuC-submission platforms; others answer ENODEV).
    pub fn guc_submission_version(&self) -> Result<drm_i915_query_guc_submission_version> {
        parse_guc_submission_version(&self.query(DRM_I915_QUERY_GUC_SUBMISSION_VERSION, 0)?)
    }

    /// The GuC hwconfig table (Gen12.5+; earlier parts answer the item with ENODEV).
    pub fn hwconfig(&self) -> Result<Vec<HwConfigAttr>> {
        parse_hwconfig(&self.query(DRM_I915_QUERY_HWCONFIG_BLOB, 0)?)
    }
}
