//! i915 address spaces (VMs) and contexts: creation with VM and engine-map parameters,
//! CONTEXT_SETPARAM/GETPARAM, reset statistics.

use zerocopy::IntoBytes;

use super::device::I915;
use super::uapi::*;
use crate::call::{ioctl, to_u32};
use crate::error::Result;
use crate::flags::i915::ContextCreateFlags;

/// What a new context is created with (`I915_CONTEXT_CREATE_EXT_SETPARAM` extensions).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContextParams {
    /// Run in this VM (`I915_CONTEXT_PARAM_VM`) instead of a private one.
    pub vm_id: Option<u32>,
    /// The engine map (`I915_CONTEXT_PARAM_ENGINES`); execbuf's ring index selects from it.
    pub engines: Option<Vec<i915_engine_class_instance>>,
    /// `I915_CONTEXT_CREATE_FLAGS_SINGLE_TIMELINE`.
    pub single_timeline: bool,
}

/// `drm_i915_reset_stats` for one context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResetStats {
    pub reset_count: u32,
    /// Hangs while a batch of this context was executing.
    pub batch_active: u32,
    /// Hangs while a batch of this context was queued.
    pub batch_pending: u32,
}

/// The bytes of an `I915_CONTEXT_PARAM_ENGINES` value: the header then the map.
fn engines_value(engines: &[i915_engine_class_instance]) -> Vec<u8> {
    let mut v = i915_context_param_engines::default().as_bytes().to_vec();
    v.extend_from_slice(engines.as_bytes());
    v
}

impl I915 {
    /// `DRM_IOCTL_I915_GEM_VM_CREATE`.
    pub fn vm_create(&self) -> Result<u32> {
        let mut arg = drm_i915_gem_vm_control::default();
        ioctl(self.file(), DRM_IOCTL_I915_GEM_VM_CREATE, &mut arg)?;
        Ok(arg.vm_id)
    }

    /// `DRM_IOCTL_I915_GEM_VM_DESTROY`.
    pub fn vm_destroy(&self, vm_id: u32) -> Result<()> {
        let mut arg = drm_i915_gem_vm_control {
            vm_id,
            ..Default::default()
        };
        ioctl(self.file(), DRM_IOCTL_I915_GEM_VM_DESTROY, &mut arg)
            .map_err(|e| e.context(|| format!("vm {vm_id}")))?;
        Ok(())
    }

    /// `DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT` with a SETPARAM extension per requested param.
    pub fn context_create(&self, params: &ContextParams) -> Result<u32> {
        let engines = params.engines.as_deref().map(engines_value);
        let mut exts: Vec<drm_i915_gem_context_create_ext_setparam> = Vec::new();
        if let Some(vm) = params.vm_id {
            exts.push(setparam_ext(I915_CONTEXT_PARAM_VM, 0, u64::from(vm)));
        }
        if let Some(value) = &engines {
            let size = to_u32("engine map", value.len())?;
            exts.push(setparam_ext(
                I915_CONTEXT_PARAM_ENGINES,
                size,
                value.as_ptr() as u64,
            ));
        }
        // Chain them; the Vec is not resized after this, so the addresses stay valid.
        for i in 1..exts.len() {
            exts[i - 1].base.next_extension = &exts[i] as *const _ as u64;
        }
        let mut flags = ContextCreateFlags::empty();
        flags.set(ContextCreateFlags::USE_EXTENSIONS, !exts.is_empty());
        flags.set(ContextCreateFlags::SINGLE_TIMELINE, params.single_timeline);
        let mut arg = drm_i915_gem_context_create_ext {
            ctx_id: 0,
            flags: flags.bits(),
            extensions: exts.first().map_or(0, |e| e as *const _ as u64),
        };
        ioctl(self.file(), DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT, &mut arg)
            .map_err(|e| e.context(|| format!("{params:?}")))?;
        Ok(arg.ctx_id)
    }

    /// `DRM_IOCTL_I915_GEM_CONTEXT_DESTROY`.
    pub fn context_destroy(&self, ctx_id: u32) -> Result<()> {
        let mut arg = drm_i915_gem_context_destroy { ctx_id, pad: 0 };
        ioctl(self.file(), DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &mut arg)
            .map_err(|e| e.context(|| format!("context {ctx_id}")))?;
        Ok(())
    }

    /// `DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM` with a scalar value.
    pub fn context_setparam(&self, ctx_id: u32, param: u64, value: u64) -> Result<()> {
        let mut arg = drm_i915_gem_context_param {
            ctx_id,
            size: 0,
            param,
            value,
        };
        ioctl(self.file(), DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &mut arg)
            .map_err(|e| e.context(|| format!("context {ctx_id}, param {param:#x}")))?;
        Ok(())
    }

    /// Replaces a context's engine map (`I915_CONTEXT_PARAM_ENGINES`).
    pub fn context_set_engines(
        &self,
        ctx_id: u32,
        engines: &[i915_engine_class_instance],
    ) -> Result<()> {
        let value = engines_value(engines);
        let mut arg = drm_i915_gem_context_param {
            ctx_id,
            size: to_u32("engine map", value.len())?,
            param: I915_CONTEXT_PARAM_ENGINES,
            value: value.as_ptr() as u64,
        };
        ioctl(self.file(), DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &mut arg)
            .map_err(|e| e.context(|| format!("context {ctx_id}, engines {engines:?}")))?;
        Ok(())
    }

    /// `DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM` of a scalar parameter.
    pub fn context_getparam(&self, ctx_id: u32, param: u64) -> Result<u64> {
        let mut arg = drm_i915_gem_context_param {
            ctx_id,
            size: 0,
            param,
            value: 0,
        };
        ioctl(self.file(), DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, &mut arg)
            .map_err(|e| e.context(|| format!("context {ctx_id}, param {param:#x}")))?;
        Ok(arg.value)
    }

    /// `DRM_IOCTL_I915_GET_RESET_STATS`.
    pub fn reset_stats(&self, ctx_id: u32) -> Result<ResetStats> {
        let mut arg = drm_i915_reset_stats {
            ctx_id,
            ..Default::default()
        };
        ioctl(self.file(), DRM_IOCTL_I915_GET_RESET_STATS, &mut arg)
            .map_err(|e| e.context(|| format!("context {ctx_id}")))?;
        Ok(ResetStats {
            reset_count: arg.reset_count,
            batch_active: arg.batch_active,
            batch_pending: arg.batch_pending,
        })
    }
}

fn setparam_ext(param: u64, size: u32, value: u64) -> drm_i915_gem_context_create_ext_setparam {
    drm_i915_gem_context_create_ext_setparam {
        base: i915_user_extension {
            name: I915_CONTEXT_CREATE_EXT_SETPARAM,
            ..Default::default()
        },
        param: drm_i915_gem_context_param {
            ctx_id: 0,
            size,
            param,
            value,
        },
    }
}
