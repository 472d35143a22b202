//! An i915 device file and its GETPARAM values.

use std::sync::Arc;

use super::uapi::*;
use crate::call::ioctl;
use crate::error::Result;
use crate::seam::{DeviceFile, Errno};

/// An open i915 render node (or the simulator's i915 personality). The wrappers in this module's
/// files are its methods; each issues one uAPI call through the [`DeviceFile`] seam.
#[derive(Debug, Clone)]
pub struct I915 {
    file: Arc<dyn DeviceFile>,
}

/// The GETPARAM values a compute driver reads at start-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params {
    /// PCI device id.
    pub chipset_id: u16,
    pub revision: i32,
    pub eu_total: i32,
    pub subslice_total: i32,
    /// Command-streamer timestamp ticks per second.
    pub cs_timestamp_frequency: i32,
    pub has_exec_softpin: bool,
    pub has_exec_fence_array: bool,
    pub has_exec_timeline_fences: bool,
    pub has_userptr_probe: bool,
}

impl I915 {
    pub fn new(file: Arc<dyn DeviceFile>) -> Self {
        I915 { file }
    }

    pub fn file(&self) -> &dyn DeviceFile {
        &*self.file
    }

    /// `DRM_IOCTL_I915_GETPARAM`.
    pub fn getparam(&self, param: i32) -> Result<i32> {
        let mut value: i32 = 0;
        let mut arg = drm_i915_getparam {
            param,
            pad0: 0,
            value: &mut value as *mut i32 as u64,
        };
        ioctl(self.file(), DRM_IOCTL_I915_GETPARAM, &mut arg)
            .map_err(|e| e.context(|| format!("param {param}")))?;
        Ok(value)
    }

    /// A boolean GETPARAM, false where the kernel does not know the parameter (EINVAL), as on
    /// kernels older than the feature.
    pub fn has(&self, param: i32) -> Result<bool> {
        match self.getparam(param) {
            Ok(v) => Ok(v > 0),
            Err(e) if e.errno() == Some(Errno::EINVAL) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Reads [`Params`].
    pub fn params(&self) -> Result<Params> {
        Ok(Params {
            // The kernel returns the 16-bit PCI device id widened to int.
            chipset_id: self.getparam(I915_PARAM_CHIPSET_ID)? as u16,
            revision: self.getparam(I915_PARAM_REVISION)?,
            eu_total: self.getparam(I915_PARAM_EU_TOTAL)?,
            subslice_total: self.getparam(I915_PARAM_SUBSLICE_TOTAL)?,
            cs_timestamp_frequency: self.getparam(I915_PARAM_CS_TIMESTAMP_FREQUENCY)?,
            has_exec_softpin: self.has(I915_PARAM_HAS_EXEC_SOFTPIN)?,
            has_exec_fence_array: self.has(I915_PARAM_HAS_EXEC_FENCE_ARRAY)?,
            has_exec_timeline_fences: self.has(I915_PARAM_HAS_EXEC_TIMELINE_FENCES)?,
            has_userptr_probe: self.has(I915_PARAM_HAS_USERPTR_PROBE)?,
        })
    }
}
