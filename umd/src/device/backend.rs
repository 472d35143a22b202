//! The two kernel-driver paths a device is reached through: i915 (execbuffer2 with softpin) and
//! xe (VM_BIND, exec queues). Both give the rest of the driver the same four operations: create a
//! BO at an address, wrap host memory, submit a batch, and replace a context the kernel banned.

use kmd_iface::drm_core::{syncobj_create, syncobj_destroy, syncobj_wait, SyncobjWait};
use kmd_iface::i915::{uapi as i915_uapi, ContextParams, Execbuf, MmapMode, PinnedObject, I915};
use kmd_iface::seam::{Errno, Mapping};
use kmd_iface::xe::{bind_op, sync, uapi as xe_uapi, GemCreate, Xe};

use crate::error::Result;

/// CPU caching of a BO's mapping: write-back for system memory on integrated parts, write-combined
/// for device-local memory (the only coherent choice there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Caching {
    Wb,
    Wc,
}

/// A BO's kernel handle and CPU view.
#[derive(Debug, Clone)]
pub struct RawBo {
    pub handle: u32,
    pub map: Mapping,
    pub caching: Caching,
}

/// One object of a submission.
#[derive(Debug, Clone, Copy)]
pub struct ExecObject {
    pub handle: u32,
    pub gpu_address: u64,
    pub write: bool,
}

/// What the kernel said about a submission once it was waited for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The wait succeeded (the fence value still has to be checked).
    Done,
    /// The kernel reported the batch failed (EIO: reset after a fault or hang).
    Failed,
}

/// The i915 path: one VM, one context on the render engine.
#[derive(Debug)]
pub struct I915Path {
    pub dev: I915,
    vm: u32,
    ctx: u32,
    local_memory: bool,
}

/// The xe path: one VM, one exec queue on a render (else compute) engine.
#[derive(Debug)]
pub struct XePath {
    pub dev: Xe,
    vm: u32,
    queue: u32,
    engine: xe_uapi::drm_xe_engine_class_instance,
    /// Placement mask and caching for new BOs.
    placement: u32,
    caching: Caching,
}

#[derive(Debug)]
pub enum Backend {
    I915(I915Path),
    Xe(XePath),
}

impl Backend {
    pub fn new_i915(dev: I915) -> Result<Backend> {
        let local_memory = dev.memory_regions()?.len() > 1;
        let vm = dev.vm_create()?;
        let ctx = dev.context_create(&ContextParams {
            vm_id: Some(vm),
            ..Default::default()
        })?;
        Ok(Backend::I915(I915Path {
            dev,
            vm,
            ctx,
            local_memory,
        }))
    }

    pub fn new_xe(dev: Xe) -> Result<Backend> {
        let engines = dev.engines()?;
        let pick = |class| engines.iter().find(|e| e.engine_class == class).copied();
        let engine = pick(xe_uapi::DRM_XE_ENGINE_CLASS_RENDER)
            .or_else(|| pick(xe_uapi::DRM_XE_ENGINE_CLASS_COMPUTE))
            .ok_or_else(|| {
                crate::Error::Unsupported("xe device without render or compute engines".into())
            })?;
        let regions = dev.mem_regions()?;
        let vram = regions
            .iter()
            .find(|r| r.mem_class == xe_uapi::DRM_XE_MEM_REGION_CLASS_VRAM);
        let sys = regions
            .iter()
            .find(|r| r.mem_class == xe_uapi::DRM_XE_MEM_REGION_CLASS_SYSMEM);
        let (placement, caching) = match (vram, sys) {
            (Some(v), _) => (1u32 << v.instance, Caching::Wc),
            (None, Some(s)) => (1u32 << s.instance, Caching::Wb),
            (None, None) => {
                return Err(crate::Error::Unsupported(
                    "xe device without memory regions".into(),
                ))
            }
        };
        let vm = dev.vm_create(0)?;
        let queue = dev.exec_queue_create(vm, &[engine], &[])?;
        Ok(Backend::Xe(XePath {
            dev,
            vm,
            queue,
            engine,
            placement,
            caching,
        }))
    }

    /// Smallest BO and VA granule the kernel accepts.
    pub fn granule(&self) -> Result<u64> {
        match self {
            Backend::I915(_) => Ok(4096),
            Backend::Xe(x) => Ok(x.dev.config()?.min_alignment().unwrap_or(4096)),
        }
    }

    /// A new BO of `size` bytes (a granule multiple), mapped for the CPU and, on xe, bound at
    /// `gpu_address` (i915 pins it there at each execbuffer2).
    pub fn create(&self, size: u64, gpu_address: u64) -> Result<RawBo> {
        match self {
            Backend::I915(d) => {
                let bo = d.dev.gem_create(size)?;
                let (mode, caching) = if d.local_memory {
                    // Discrete parts take only FIXED, whose caching follows placement (WC).
                    (MmapMode::Fixed, Caching::Wc)
                } else {
                    (MmapMode::Wb, Caching::Wb)
                };
                let map = d.dev.gem_mmap(bo.handle, size as usize, mode)?;
                Ok(RawBo {
                    handle: bo.handle,
                    map,
                    caching,
                })
            }
            Backend::Xe(x) => {
                let handle = x.dev.gem_create(&GemCreate {
                    size,
                    placement: x.placement,
                    flags: 0,
                    vm_id: x.vm,
                    cpu_caching: match x.caching {
                        Caching::Wb => xe_uapi::DRM_XE_GEM_CPU_CACHING_WB,
                        Caching::Wc => xe_uapi::DRM_XE_GEM_CPU_CACHING_WC,
                    },
                })?;
                let map = x.dev.gem_mmap(handle, size as usize)?;
                x.bind(bind_op::map(handle, 0, gpu_address, size, 0))?;
                Ok(RawBo {
                    handle,
                    map,
                    caching: x.caching,
                })
            }
        }
    }

    /// Wraps host memory `map` (page-aligned, a granule multiple long) as a BO at `gpu_address`.
    /// Returns 0 as the handle on xe, where a userptr binding has no BO.
    pub fn userptr(&self, map: &Mapping, gpu_address: u64) -> Result<u32> {
        match self {
            Backend::I915(d) => Ok(d.dev.gem_userptr(map, 0, map.len(), 0)?),
            Backend::Xe(x) => {
                x.bind(bind_op::map_userptr(
                    map.as_ptr() as u64,
                    gpu_address,
                    map.len() as u64,
                    0,
                ))?;
                Ok(0)
            }
        }
    }

    /// Releases a BO (or userptr range) at `gpu_address`.
    pub fn release(&self, handle: u32, gpu_address: u64, size: u64) {
        // Errors here mean the handle is already gone; nothing is left to free.
        match self {
            Backend::I915(d) => {
                let _ = d.dev.gem_close(handle);
            }
            Backend::Xe(x) => {
                let _ = x.bind(bind_op::unmap(gpu_address, size));
                if handle != 0 {
                    let _ = x.dev.gem_close(handle);
                }
            }
        }
    }

    /// Submits the batch at `objects[0]` and waits for the kernel to retire it.
    pub fn submit(&self, objects: &[ExecObject]) -> Result<Outcome> {
        let batch = objects
            .first()
            .ok_or_else(|| crate::Error::Unsupported("a submission without a batch".into()))?;
        match self {
            Backend::I915(d) => {
                let pinned: Vec<PinnedObject> = objects
                    .iter()
                    .map(|o| PinnedObject {
                        handle: o.handle,
                        gpu_address: o.gpu_address,
                        write: o.write,
                    })
                    .collect();
                d.dev.execbuffer2(&Execbuf {
                    objects: &pinned,
                    ctx_id: d.ctx,
                    engine: i915_uapi::I915_EXEC_RENDER,
                    ..Default::default()
                })?;
                match d.dev.gem_wait(batch.handle, -1) {
                    Ok(_) => Ok(Outcome::Done),
                    Err(e) if e.errno() == Some(Errno::EIO) => Ok(Outcome::Failed),
                    Err(e) => Err(e.into()),
                }
            }
            Backend::Xe(x) => {
                let s = syncobj_create(x.dev.file(), 0)?;
                let r = x
                    .dev
                    .exec(x.queue, batch.gpu_address, &[sync::syncobj(s, true)]);
                let out = match r {
                    Ok(()) => match syncobj_wait(x.dev.file(), &[s], i64::MAX, 0) {
                        Ok(SyncobjWait::Signaled { .. }) => Ok(Outcome::Done),
                        Ok(SyncobjWait::TimedOut) => Ok(Outcome::Failed),
                        Err(e) if e.errno() == Some(Errno::EIO) => Ok(Outcome::Failed),
                        Err(e) => Err(e.into()),
                    },
                    Err(e) if e.errno() == Some(Errno::ECANCELED) => Ok(Outcome::Failed),
                    Err(e) => Err(e.into()),
                };
                let _ = syncobj_destroy(x.dev.file(), s);
                out
            }
        }
    }

    /// After a failed submission: replaces the context (i915) or exec queue (xe), which the
    /// kernel bans after a fault or hang, so the next dispatch runs.
    pub fn recover(&mut self) -> Result<()> {
        match self {
            Backend::I915(d) => {
                let _ = d.dev.context_destroy(d.ctx);
                d.ctx = d.dev.context_create(&ContextParams {
                    vm_id: Some(d.vm),
                    ..Default::default()
                })?;
            }
            Backend::Xe(x) => {
                let _ = x.dev.exec_queue_destroy(x.queue);
                x.queue = x.dev.exec_queue_create(x.vm, &[x.engine], &[])?;
            }
        }
        Ok(())
    }
}

impl XePath {
    /// A synchronous VM_BIND (waits on an out-syncobj).
    fn bind(&self, op: xe_uapi::drm_xe_vm_bind_op) -> Result<()> {
        let s = syncobj_create(self.dev.file(), 0)?;
        let r = self
            .dev
            .vm_bind(self.vm, 0, &[op], &[sync::syncobj(s, true)])
            .map_err(crate::Error::from)
            .and_then(|()| {
                syncobj_wait(self.dev.file(), &[s], i64::MAX, 0)?;
                Ok(())
            });
        let _ = syncobj_destroy(self.dev.file(), s);
        r
    }
}
