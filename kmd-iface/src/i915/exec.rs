//! `DRM_IOCTL_I915_GEM_EXECBUFFER2[_WR]` with softpinned objects: no relocations, every object at
//! a GPU address the caller chose.

use super::device::I915;
use super::uapi::*;
use crate::call::{addr_of, addr_of_mut, ioctl, to_u32};
use crate::error::Result;
use crate::flags::i915::{ExecFlags, ExecObjectFlags};

/// One buffer of a submission, pinned at `gpu_address` in the context's VM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PinnedObject {
    pub handle: u32,
    pub gpu_address: u64,
    /// The GPU writes it (`EXEC_OBJECT_WRITE`, for implicit sync).
    pub write: bool,
}

/// A submission. The batch is `objects[0]` (`I915_EXEC_BATCH_FIRST` is always set).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Execbuf<'a> {
    pub objects: &'a [PinnedObject],
    pub batch_start_offset: u32,
    /// Batch length in bytes; 0 lets the kernel use the whole object.
    pub batch_len: u32,
    pub ctx_id: u32,
    /// `I915_EXEC_RENDER`..., or the index into the context's engine map.
    pub engine: u64,
    /// A sync_file fd to wait for before running (`I915_EXEC_FENCE_IN`).
    pub in_fence: Option<i32>,
    /// Ask for a sync_file fd signalled on completion (`I915_EXEC_FENCE_OUT`, via `_WR`).
    pub out_fence: bool,
    /// Syncobjs to wait on / signal (`I915_EXEC_FENCE_ARRAY`; flags `I915_EXEC_FENCE_*`).
    pub fences: &'a [drm_i915_gem_exec_fence],
    /// Mark every object `EXEC_OBJECT_ASYNC`: the kernel then adds no implicit waits for the
    /// objects' earlier requests (for a caller that orders its work with fences itself).
    pub no_implicit_sync: bool,
}

impl Execbuf<'_> {
    /// The exec-object array the kernel reads, into `out` (cleared first).
    fn exec_objects(&self, out: &mut Vec<drm_i915_gem_exec_object2>) {
        out.clear();
        out.extend(self.objects.iter().map(|o| {
            drm_i915_gem_exec_object2 {
                handle: o.handle,
                offset: o.gpu_address,
                flags: (ExecObjectFlags::PINNED
                    | ExecObjectFlags::SUPPORTS_48B_ADDRESS
                    | if o.write {
                        ExecObjectFlags::WRITE
                    } else {
                        ExecObjectFlags::empty()
                    }
                    | if self.no_implicit_sync {
                        ExecObjectFlags::ASYNC
                    } else {
                        ExecObjectFlags::empty()
                    })
                .bits(),
                ..Default::default()
            }
        }));
    }
}

impl I915 {
    /// Submits `eb`; returns the out-fence fd when one was asked for.
    pub fn execbuffer2(&self, eb: &Execbuf) -> Result<Option<i32>> {
        self.execbuffer2_reusing(eb, &mut Vec::new())
    }

    /// [`I915::execbuffer2`] building the kernel's exec-object array in `objects`, whose
    /// memory a caller submitting often keeps from one call to the next.
    pub fn execbuffer2_reusing(
        &self,
        eb: &Execbuf,
        objects: &mut Vec<drm_i915_gem_exec_object2>,
    ) -> Result<Option<i32>> {
        eb.exec_objects(objects);
        let mut flags = ExecFlags::NO_RELOC | ExecFlags::HANDLE_LUT | ExecFlags::BATCH_FIRST;
        let mut rsvd2 = 0u64;
        if let Some(fd) = eb.in_fence {
            flags |= ExecFlags::FENCE_IN;
            rsvd2 = u64::from(fd as u32);
        }
        if eb.out_fence {
            flags |= ExecFlags::FENCE_OUT;
        }
        let (num_cliprects, cliprects_ptr) = if eb.fences.is_empty() {
            (0, 0)
        } else {
            // With FENCE_ARRAY the cliprects fields carry the fence array.
            flags |= ExecFlags::FENCE_ARRAY;
            (to_u32("exec fences", eb.fences.len())?, addr_of(eb.fences))
        };
        let mut arg = drm_i915_gem_execbuffer2 {
            // The kernel writes each object's address back into the array.
            buffers_ptr: addr_of_mut(objects),
            buffer_count: to_u32("exec objects", objects.len())?,
            batch_start_offset: eb.batch_start_offset,
            batch_len: eb.batch_len,
            num_cliprects,
            cliprects_ptr,
            // The engine selector shares the field with the flags.
            flags: eb.engine | flags.bits(),
            rsvd1: u64::from(eb.ctx_id),
            rsvd2,
            ..Default::default()
        };
        let request = if eb.out_fence {
            DRM_IOCTL_I915_GEM_EXECBUFFER2_WR
        } else {
            DRM_IOCTL_I915_GEM_EXECBUFFER2
        };
        ioctl(self.file(), request, &mut arg).map_err(|e| {
            e.context(|| format!("context {}, {} objects", eb.ctx_id, objects.len()))
        })?;
        // The out-fence fd comes back in the upper half of rsvd2.
        Ok(eb.out_fence.then_some((arg.rsvd2 >> 32) as i32))
    }
}
