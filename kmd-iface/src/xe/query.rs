//! `DRM_IOCTL_XE_DEVICE_QUERY` with the two-call size protocol, and the reply parsers.

use zerocopy::IntoBytes;

use super::device::Xe;
use super::uapi::*;
use crate::blob::Blob;
use crate::call::{addr_of_mut, ioctl};
use crate::error::{Error, Result};
use crate::hwconfig::{parse_hwconfig, HwConfigAttr};

/// Replies larger than this are a broken device, not something to allocate for.
pub const MAX_QUERY_BYTES: usize = 64 << 20;

/// `DRM_XE_DEVICE_QUERY_CONFIG`, by index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// All values, including indices newer than this crate.
    pub info: Vec<u64>,
}

impl Config {
    fn get(&self, index: usize) -> Option<u64> {
        self.info.get(index).copied()
    }
    /// PCI device id (low 16 bits of `REV_AND_DEVICE_ID`).
    pub fn device_id(&self) -> Option<u16> {
        self.get(DRM_XE_QUERY_CONFIG_REV_AND_DEVICE_ID)
            .map(|v| v as u16)
    }
    /// Revision (bits 16..24 of `REV_AND_DEVICE_ID`).
    pub fn revision(&self) -> Option<u8> {
        self.get(DRM_XE_QUERY_CONFIG_REV_AND_DEVICE_ID)
            .map(|v| (v >> 16) as u8)
    }
    pub fn has_vram(&self) -> Option<bool> {
        self.get(DRM_XE_QUERY_CONFIG_FLAGS)
            .map(|v| v & DRM_XE_QUERY_CONFIG_FLAG_HAS_VRAM != 0)
    }
    pub fn min_alignment(&self) -> Option<u64> {
        self.get(DRM_XE_QUERY_CONFIG_MIN_ALIGNMENT)
    }
    pub fn va_bits(&self) -> Option<u64> {
        self.get(DRM_XE_QUERY_CONFIG_VA_BITS)
    }
    pub fn max_exec_queue_priority(&self) -> Option<u64> {
        self.get(DRM_XE_QUERY_CONFIG_MAX_EXEC_QUEUE_PRIORITY)
    }
}

/// One record of `DRM_XE_DEVICE_QUERY_GT_TOPOLOGY`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopologyMask {
    pub gt_id: u16,
    /// `DRM_XE_TOPO_*`.
    pub kind: u16,
    pub mask: Vec<u8>,
}

impl TopologyMask {
    /// Number of set bits (enabled DSS, or EUs per DSS).
    pub fn count(&self) -> u32 {
        self.mask.iter().map(|b| b.count_ones()).sum()
    }
}

/// A header-plus-array reply: `count` entries of `T` after a header of `head` bytes.
fn header_array<T: zerocopy::FromBytes>(blob: &Blob, head: usize, count: u32) -> Result<Vec<T>> {
    let items = blob.array::<T>(head, count as usize)?;
    blob.expect_end(head + items.len() * size_of::<T>())?;
    Ok(items)
}

pub fn parse_engines(bytes: &[u8]) -> Result<Vec<drm_xe_engine_class_instance>> {
    let blob = Blob::new("xe engines", bytes);
    let h: drm_xe_query_engines = blob.read(0)?;
    let engines: Vec<drm_xe_engine> =
        header_array(&blob, size_of::<drm_xe_query_engines>(), h.num_engines)?;
    Ok(engines.into_iter().map(|e| e.instance).collect())
}

pub fn parse_mem_regions(bytes: &[u8]) -> Result<Vec<drm_xe_mem_region>> {
    let blob = Blob::new("xe memory regions", bytes);
    let h: drm_xe_query_mem_regions = blob.read(0)?;
    header_array(
        &blob,
        size_of::<drm_xe_query_mem_regions>(),
        h.num_mem_regions,
    )
}

pub fn parse_config(bytes: &[u8]) -> Result<Config> {
    let blob = Blob::new("xe config", bytes);
    let h: drm_xe_query_config = blob.read(0)?;
    let info = header_array(&blob, size_of::<drm_xe_query_config>(), h.num_params)?;
    Ok(Config { info })
}

pub fn parse_gt_list(bytes: &[u8]) -> Result<Vec<drm_xe_gt>> {
    let blob = Blob::new("xe GT list", bytes);
    let h: drm_xe_query_gt_list = blob.read(0)?;
    header_array(&blob, size_of::<drm_xe_query_gt_list>(), h.num_gt)
}

/// Parses the sequence of variable-length `drm_xe_query_topology_mask` records.
pub fn parse_gt_topology(bytes: &[u8]) -> Result<Vec<TopologyMask>> {
    let blob = Blob::new("xe GT topology", bytes);
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let h: drm_xe_query_topology_mask = blob.read(at)?;
        let mask_at = at + size_of::<drm_xe_query_topology_mask>();
        let mask = blob.slice(mask_at, h.num_bytes as usize)?.to_vec();
        at = mask_at + mask.len();
        out.push(TopologyMask {
            gt_id: h.gt_id,
            kind: h.r#type,
            mask,
        });
    }
    Ok(out)
}

pub fn parse_engine_cycles(bytes: &[u8]) -> Result<drm_xe_query_engine_cycles> {
    Blob::new("xe engine cycles", bytes).exactly()
}

pub fn parse_uc_fw_version(bytes: &[u8]) -> Result<drm_xe_query_uc_fw_version> {
    Blob::new("xe uC firmware version", bytes).exactly()
}

impl Xe {
    /// One query: a first call with `size` 0 returns the size, a second fills the buffer. `input`
    /// pre-fills the buffer for queries that take arguments in it (ENGINE_CYCLES).
    pub fn query(&self, query: u32, input: &[u8]) -> Result<Vec<u8>> {
        let op = "DRM_IOCTL_XE_DEVICE_QUERY";
        let mut arg = drm_xe_device_query {
            query,
            ..Default::default()
        };
        ioctl(self.file(), DRM_IOCTL_XE_DEVICE_QUERY, &mut arg)
            .map_err(|e| e.context(|| format!("size of query {query}")))?;
        let len = arg.size as usize;
        if len > MAX_QUERY_BYTES {
            return Err(Error::TooLarge {
                what: "xe query reply",
                len,
            });
        }
        if len == 0 {
            return Ok(Vec::new());
        }
        let mut buf = vec![0u8; len];
        let n = input.len().min(len);
        buf[..n].copy_from_slice(&input[..n]);
        arg.data = addr_of_mut(&mut buf);
        ioctl(self.file(), DRM_IOCTL_XE_DEVICE_QUERY, &mut arg)
            .map_err(|e| e.context(|| format!("query {query}")))?;
        let written = arg.size as usize;
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

    pub fn engines(&self) -> Result<Vec<drm_xe_engine_class_instance>> {
        parse_engines(&self.query(DRM_XE_DEVICE_QUERY_ENGINES, &[])?)
    }

    pub fn mem_regions(&self) -> Result<Vec<drm_xe_mem_region>> {
        parse_mem_regions(&self.query(DRM_XE_DEVICE_QUERY_MEM_REGIONS, &[])?)
    }

    pub fn config(&self) -> Result<Config> {
        parse_config(&self.query(DRM_XE_DEVICE_QUERY_CONFIG, &[])?)
    }

    pub fn gt_list(&self) -> Result<Vec<drm_xe_gt>> {
        parse_gt_list(&self.query(DRM_XE_DEVICE_QUERY_GT_LIST, &[])?)
    }

    pub fn hwconfig(&self) -> Result<Vec<HwConfigAttr>> {
        parse_hwconfig(&self.query(DRM_XE_DEVICE_QUERY_HWCONFIG, &[])?)
    }

    pub fn gt_topology(&self) -> Result<Vec<TopologyMask>> {
        parse_gt_topology(&self.query(DRM_XE_DEVICE_QUERY_GT_TOPOLOGY, &[])?)
    }

    /// Correlated engine and CPU timestamps for `engine`, CPU side on `clockid`
    /// (e.g. `libc::CLOCK_MONOTONIC`).
    pub fn engine_cycles(
        &self,
        engine: drm_xe_engine_class_instance,
        clockid: i32,
    ) -> Result<drm_xe_query_engine_cycles> {
        let input = drm_xe_query_engine_cycles {
            eci: engine,
            clockid,
            ..Default::default()
        };
        parse_engine_cycles(&self.query(DRM_XE_DEVICE_QUERY_ENGINE_CYCLES, input.as_bytes())?)
    }

    /// The firmware version of a microcontroller (`XE_QUERY_UC_TYPE_GUC_SUBMISSION` gives the
    /// GuC submission interface version, `XE_QUERY_UC_TYPE_HUC` the HuC's).
    pub fn uc_fw_version(&self, uc_type: u16) -> Result<drm_xe_query_uc_fw_version> {
        let input = drm_xe_query_uc_fw_version {
            uc_type,
            ..Default::default()
        };
        parse_uc_fw_version(&self.query(DRM_XE_DEVICE_QUERY_UC_FW_VERSION, input.as_bytes())?)
    }
}
