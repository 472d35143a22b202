//! The two kernel-driver paths a device is reached through: i915 (execbuffer2 with softpin) and
//! xe (VM_BIND, exec queues). Both give the rest of the driver the same operations: create a BO
//! at an address, wrap host memory, create a context per queue, submit a batch with syncobjs to
//! wait on and signal, and wait for syncobjs.

use kmd_iface::discovery::Driver;
use kmd_iface::drm_core::{syncobj_create, syncobj_destroy, syncobj_wait, SyncobjWait};
use kmd_iface::flags::drm::SyncobjWaitFlags;
use kmd_iface::flags::i915::ExecFenceFlags;
use kmd_iface::flags::xe::{GemCreateFlags, VmCreateFlags};
use kmd_iface::gpu_error::{capture_path, read_capture, Capture, CaptureError};
use kmd_iface::i915::{uapi as i915_uapi, ContextParams, Execbuf, MmapMode, PinnedObject, I915};
use kmd_iface::seam::{Errno, Mapping, SharedHostMemory};
use kmd_iface::xe::{bind_op, sync, uapi as xe_uapi, GemCreate, Xe};

use crate::error::Result;

/// CPU caching of a BO's mapping: write-back for system memory on integrated parts, write-combined
/// for device-local memory (the only coherent choice there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Caching {
    Wb,
    Wc,
}

impl Caching {
    /// xe's `DRM_XE_GEM_CPU_CACHING_*` for it.
    fn xe_cpu_caching(self) -> u16 {
        match self {
            Caching::Wb => xe_uapi::DRM_XE_GEM_CPU_CACHING_WB,
            Caching::Wc => xe_uapi::DRM_XE_GEM_CPU_CACHING_WC,
        }
    }
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

/// A GPU timestamp and the host time it was read at, to place GPU timestamps on the host's
/// clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GpuClock {
    /// RING_TIMESTAMP ticks per second (i915 CS_TIMESTAMP_FREQUENCY, xe's GT reference clock).
    pub hz: u64,
    pub ticks: u64,
    /// CLOCK_MONOTONIC nanoseconds when `ticks` was read.
    pub host_ns: i64,
    /// Bits of the counter (it wraps there).
    pub width: u32,
}

impl GpuClock {
    /// `ticks` (read from the same counter within half its wrap period) as CLOCK_MONOTONIC
    /// nanoseconds; None without a frequency.
    pub fn host_ns_of(&self, ticks: u64) -> Option<i64> {
        if self.hz == 0 {
            return None;
        }
        let shift = 64 - self.width.clamp(1, 64);
        // The difference, sign-extended from the counter's width.
        let delta = ((ticks.wrapping_sub(self.ticks) << shift) as i64) >> shift;
        let ns = i128::from(delta) * 1_000_000_000 / i128::from(self.hz);
        i64::try_from(i128::from(self.host_ns) + ns).ok()
    }

    /// Nanoseconds per tick, rounded (CL_DEVICE_PROFILING_TIMER_RESOLUTION).
    pub fn resolution_ns(&self) -> u64 {
        (1_000_000_000 + self.hz / 2)
            .checked_div(self.hz)
            .unwrap_or(0)
    }
}

/// The kernel-driver argument arrays of a submission, kept by a queue so that submitting
/// allocates nothing once they have grown to its usual sizes.
#[derive(Debug, Default)]
pub struct SubmitScratch {
    pinned: Vec<PinnedObject>,
    exec_objects: Vec<i915_uapi::drm_i915_gem_exec_object2>,
    fences: Vec<i915_uapi::drm_i915_gem_exec_fence>,
    syncs: Vec<xe_uapi::drm_xe_sync>,
}

/// What the kernel said when a batch was handed to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Queued: its out-syncobj signals when the kernel retires it.
    Submitted,
    /// The context (i915: EIO) or exec queue (xe: ECANCELED) was banned after an earlier
    /// failure; nothing was queued.
    Banned,
}

/// How the kernel driver schedules a queue's work against other work (OpenCL's
/// cl_khr_priority_hints). Only lowering is asked for: raising a context above the default
/// needs CAP_SYS_NICE under both drivers, as Intel's runtime (NEO) also leaves high at the
/// default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum QueuePriority {
    /// i915: `I915_CONTEXT_PARAM_PRIORITY` = I915_CONTEXT_MIN_USER_PRIORITY (-1023), NEO's
    /// value for a low-priority queue; xe: `DRM_XE_EXEC_QUEUE_SET_PROPERTY_PRIORITY` =
    /// XE_EXEC_QUEUE_PRIORITY_LOW (0).
    Low,
    /// The kernel driver's default.
    #[default]
    Normal,
}

/// I915_CONTEXT_MIN_USER_PRIORITY (i915_drm.h).
const I915_MIN_USER_PRIORITY: i64 = -1023;
/// XE_EXEC_QUEUE_PRIORITY_LOW (xe_exec_queue_types.h).
const XE_PRIORITY_LOW: u64 = 0;

impl QueuePriority {
    /// The xe exec-queue properties this priority asks for.
    fn xe_properties(self) -> &'static [(u32, u64)] {
        match self {
            QueuePriority::Low => &[(
                xe_uapi::DRM_XE_EXEC_QUEUE_SET_PROPERTY_PRIORITY,
                XE_PRIORITY_LOW,
            )],
            QueuePriority::Normal => &[],
        }
    }
}

/// The engine a submission runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// The render engine (i915) or the queue's render/compute engine (xe): walkers.
    Compute,
    /// The copy engine (blitter).
    Copy,
}

/// The i915 path: one VM; each queue has its own context, whose render engine runs walkers and
/// whose copy engine (selected with `I915_EXEC_BLT`) runs blits.
#[derive(Debug)]
pub struct I915Path {
    pub dev: I915,
    vm: u32,
    local_memory: bool,
    /// The engine query lists a copy engine.
    copy: bool,
}

impl I915Path {
    /// How BOs are mapped for the CPU: discrete parts take only FIXED, whose caching follows
    /// placement (WC).
    fn mmap_mode(&self) -> (MmapMode, Caching) {
        if self.local_memory {
            (MmapMode::Fixed, Caching::Wc)
        } else {
            (MmapMode::Wb, Caching::Wb)
        }
    }
}

/// The xe path: one VM; each queue has its own exec queue on a render (else compute) engine.
#[derive(Debug)]
pub struct XePath {
    pub dev: Xe,
    vm: u32,
    engine: xe_uapi::drm_xe_engine_class_instance,
    /// The device has VRAM (a discrete GPU).
    local_memory: bool,
    /// The copy engine, if the device has one: a queue's blits get their own exec queue on it.
    copy_engine: Option<xe_uapi::drm_xe_engine_class_instance>,
    /// Placement mask and caching for new BOs.
    placement: u32,
    caching: Caching,
    /// VM_BIND pat_index for BOs (for their CPU caching) and for userptr ranges (CPU
    /// write-back memory, which needs a coherent entry): see `kmd_iface::xe::pat`.
    bo_pat: u16,
    userptr_pat: u16,
}

impl XePath {
    /// A new BO of `size` bytes with the device's placement and CPU caching, private to the VM.
    fn gem_create(&self, size: u64) -> kmd_iface::Result<u32> {
        self.dev.gem_create(&GemCreate {
            size,
            placement: self.placement,
            flags: GemCreateFlags::empty(),
            vm_id: self.vm,
            cpu_caching: self.caching.xe_cpu_caching(),
        })
    }
}

/// The device's kernel-driver state. Immutable once opened (contexts belong to queues), so
/// threads share it without a lock: allocation never waits behind a submission.
#[derive(Debug)]
pub enum Backend {
    I915(I915Path),
    Xe(XePath),
}

impl Backend {
    pub fn new_i915(dev: I915) -> Result<Backend> {
        let local_memory = dev.memory_regions()?.len() > 1;
        // Kernels without the engine query (before 4.20) have no copy engine for us.
        let copy = dev.engine_info().is_ok_and(|engines| {
            engines
                .iter()
                .any(|e| e.class == i915_uapi::I915_ENGINE_CLASS_COPY)
        });
        let vm = dev.vm_create()?;
        Ok(Backend::I915(I915Path {
            dev,
            vm,
            local_memory,
            copy,
        }))
    }

    pub fn new_xe(dev: Xe, platform: platform::Platform) -> Result<Backend> {
        let engines = dev.engines()?;
        let pick = |class| engines.iter().find(|e| e.engine_class == class).copied();
        let engine = pick(xe_uapi::DRM_XE_ENGINE_CLASS_RENDER)
            .or_else(|| pick(xe_uapi::DRM_XE_ENGINE_CLASS_COMPUTE))
            .ok_or_else(|| {
                crate::Error::Unsupported("xe device without render or compute engines".into())
            })?;
        let copy_engine = pick(xe_uapi::DRM_XE_ENGINE_CLASS_COPY);
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
        let pat = |cpu_caching| {
            kmd_iface::xe::pat::index_for(platform, cpu_caching).ok_or_else(|| {
                crate::Error::Unsupported(format!(
                    "xe on {platform}: no PAT entry for CPU caching mode {cpu_caching}"
                ))
            })
        };
        let bo_pat = pat(caching.xe_cpu_caching())?;
        let userptr_pat = pat(xe_uapi::DRM_XE_GEM_CPU_CACHING_WB)?;
        let vm = dev.vm_create(VmCreateFlags::empty())?;
        Ok(Backend::Xe(XePath {
            dev,
            vm,
            engine,
            local_memory: vram.is_some(),
            copy_engine,
            placement,
            caching,
            bo_pat,
            userptr_pat,
        }))
    }

    /// A new context (i915) or exec queue (xe) in the device's VM, for one queue, scheduled
    /// at `priority`.
    pub fn context_create(&self, priority: QueuePriority) -> Result<u32> {
        Ok(match self {
            Backend::I915(d) => {
                let ctx = d.dev.context_create(&ContextParams {
                    vm_id: Some(d.vm),
                    ..Default::default()
                })?;
                if priority == QueuePriority::Low {
                    let low = I915_MIN_USER_PRIORITY as u64;
                    if let Err(e) =
                        d.dev
                            .context_setparam(ctx, i915_uapi::I915_CONTEXT_PARAM_PRIORITY, low)
                    {
                        let _ = d.dev.context_destroy(ctx);
                        return Err(e.into());
                    }
                }
                ctx
            }
            Backend::Xe(x) => {
                x.dev
                    .exec_queue_create(x.vm, &[x.engine], priority.xe_properties())?
            }
        })
    }

    /// Whether the kernel driver reports device-local memory (i915: a region besides system
    /// memory; xe: a VRAM region): a discrete GPU.
    pub fn has_local_memory(&self) -> bool {
        match self {
            Backend::I915(d) => d.local_memory,
            Backend::Xe(x) => x.local_memory,
        }
    }

    /// The short name (as i915 and xe name engine classes: rcs, ccs) of the engine kernels are
    /// submitted to: i915's render engine (`I915_EXEC_RENDER`), xe's render else compute.
    pub fn kernel_engine_name(&self) -> &'static str {
        match self {
            Backend::I915(_) => "rcs",
            Backend::Xe(x) if x.engine.engine_class == xe_uapi::DRM_XE_ENGINE_CLASS_COMPUTE => {
                "ccs"
            }
            Backend::Xe(_) => "rcs",
        }
    }

    /// Whether blits can be submitted ([`Engine::Copy`]).
    pub fn has_copy_engine(&self) -> bool {
        match self {
            Backend::I915(d) => d.copy,
            Backend::Xe(x) => x.copy_engine.is_some(),
        }
    }

    /// The context a queue whose context is `ctx` submits blits on: the same one on i915 (its
    /// copy engine), a new exec queue on the copy engine on xe.
    pub fn copy_context_create(&self, ctx: u32, priority: QueuePriority) -> Result<u32> {
        match self {
            Backend::I915(_) => Ok(ctx),
            Backend::Xe(x) => {
                let eci = x.copy_engine.ok_or_else(|| {
                    crate::Error::Unsupported("the device has no copy engine".into())
                })?;
                Ok(x.dev
                    .exec_queue_create(x.vm, &[eci], priority.xe_properties())?)
            }
        }
    }

    /// Whether [`Backend::copy_context_create`] makes a context of its own (to destroy).
    pub fn copy_context_is_separate(&self) -> bool {
        matches!(self, Backend::Xe(_))
    }

    /// Destroys a context from [`Backend::context_create`].
    pub fn context_destroy(&self, ctx: u32) {
        // An error means the id is already gone; nothing is left to free.
        let _ = match self {
            Backend::I915(d) => d.dev.context_destroy(ctx),
            Backend::Xe(x) => x.dev.exec_queue_destroy(ctx),
        };
    }

    /// Destroys the device's VM, once nothing in it is used any more (the device is dropped):
    /// the kernel frees it with the file, but a file shared by several devices outlives each.
    pub fn vm_destroy(&self) {
        // An error means the VM is already gone; nothing is left to free.
        let _ = match self {
            Backend::I915(d) => d.dev.vm_destroy(d.vm),
            Backend::Xe(x) => x.dev.vm_destroy(x.vm),
        };
    }

    /// Smallest BO and VA granule the kernel accepts.
    pub fn granule(&self) -> Result<u64> {
        match self {
            Backend::I915(_) => Ok(4096),
            Backend::Xe(x) => Ok(x.dev.config()?.min_alignment().unwrap_or(4096)),
        }
    }

    /// End of the GPU VA range BOs may be placed in, as the kernel driver reports it: i915's
    /// `I915_CONTEXT_PARAM_GTT_SIZE` (of the default context; every full-PPGTT VM has the
    /// same size), xe's `DRM_XE_QUERY_CONFIG_VA_BITS`; below the canonical hole of a 48-bit
    /// or larger range (the heap ends at [`super::va::HEAP_END`]).
    pub fn va_end(&self) -> Result<u64> {
        let size = match self {
            Backend::I915(d) => d
                .dev
                .context_getparam(0, kmd_iface::i915::uapi::I915_CONTEXT_PARAM_GTT_SIZE)?,
            Backend::Xe(x) => match x.dev.config()?.va_bits() {
                Some(64) => u64::MAX,
                Some(bits @ 32..=63) => 1u64 << bits,
                other => {
                    return Err(crate::Error::Unsupported(format!(
                        "xe reports {other:?} VA bits"
                    )))
                }
            },
        };
        if size <= super::va::HEAP_START {
            return Err(crate::Error::Unsupported(format!(
                "the kernel driver reports a {size:#x}-byte GPU VA range, no room for buffers"
            )));
        }
        // A 48-bit (or wider) range is canonical: its upper half is the kernel's.
        Ok(if size >= 1 << 48 { size / 2 } else { size })
    }

    /// A new BO of `size` bytes (a granule multiple), mapped for the CPU and, on xe, bound at
    /// `gpu_address` (i915 pins it there at each execbuffer2).
    pub fn create(&self, size: u64, gpu_address: u64) -> Result<RawBo> {
        match self {
            Backend::I915(d) => {
                let bo = d.dev.gem_create(size)?;
                let (mode, caching) = d.mmap_mode();
                let map = d.dev.gem_mmap(bo.handle, size as usize, mode)?;
                Ok(RawBo {
                    handle: bo.handle,
                    map,
                    caching,
                })
            }
            Backend::Xe(x) => {
                let handle = x.gem_create(size)?;
                let map = x.dev.gem_mmap(handle, size as usize)?;
                x.bind(bind_op::map(handle, 0, gpu_address, size, x.bo_pat))?;
                Ok(RawBo {
                    handle,
                    map,
                    caching: x.caching,
                })
            }
        }
    }

    /// As [`Self::create`] at GPU address `at`, with the CPU mapping also at `at`: one pointer
    /// for the host and the GPU.
    ///
    /// # Safety
    /// `at..at + size` is the caller's reservation of host address space. On success it is
    /// given up to the returned mapping ([`kmd_iface::seam::DeviceFile::mmap_at`]); on failure
    /// it stays the caller's (to unmap).
    pub unsafe fn create_mapped_at(&self, size: u64, at: *mut u8) -> Result<RawBo> {
        let gpu_address = at as u64;
        let len = size as usize;
        match self {
            Backend::I915(d) => {
                let bo = d.dev.gem_create(size)?;
                let (mode, caching) = d.mmap_mode();
                // SAFETY: forwarded from this function's contract.
                match unsafe { d.dev.gem_mmap_at(bo.handle, len, mode, at) } {
                    Ok(map) => Ok(RawBo {
                        handle: bo.handle,
                        map,
                        caching,
                    }),
                    Err(e) => {
                        let _ = d.dev.gem_close(bo.handle);
                        Err(e.into())
                    }
                }
            }
            Backend::Xe(x) => {
                let handle = x.gem_create(size)?;
                if let Err(e) = x.bind(bind_op::map(handle, 0, gpu_address, size, x.bo_pat)) {
                    let _ = x.dev.gem_close(handle);
                    return Err(e);
                }
                // SAFETY: forwarded from this function's contract.
                match unsafe { x.dev.gem_mmap_at(handle, len, at) } {
                    Ok(map) => Ok(RawBo {
                        handle,
                        map,
                        caching: x.caching,
                    }),
                    Err(e) => {
                        self.release(handle, gpu_address, size);
                        Err(e.into())
                    }
                }
            }
        }
    }

    /// How this device best makes memory the host and the GPU share at one address.
    pub fn shared_host_memory(&self) -> SharedHostMemory {
        self.file().shared_host_memory()
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
                    x.userptr_pat,
                ))?;
                Ok(0)
            }
        }
    }

    /// Releases a BO (or userptr range) at `gpu_address`. The kernel keeps a BO a running
    /// batch uses until the batch retires, so this never waits for the GPU.
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

    /// A new binary syncobj, unsignalled.
    pub fn syncobj(&self) -> Result<u32> {
        Ok(syncobj_create(self.file(), 0)?)
    }

    pub fn syncobj_destroy(&self, handle: u32) {
        // An error means the handle is already gone.
        let _ = syncobj_destroy(self.file(), handle);
    }

    /// Waits until every syncobj in `handles` has signalled or the absolute CLOCK_MONOTONIC
    /// `deadline_ns` passes: `true` when they have.
    pub fn wait(&self, handles: &[u32], deadline_ns: i64) -> Result<bool> {
        match syncobj_wait(
            self.file(),
            handles,
            deadline_ns,
            SyncobjWaitFlags::WAIT_ALL,
        )? {
            SyncobjWait::Signaled { .. } => Ok(true),
            SyncobjWait::TimedOut => Ok(false),
        }
    }

    /// Queues the batch at `objects[0]` on context `ctx`, after the syncobjs in `waits`;
    /// `signal` is signalled when it retires (the kernel replaces a fence it already has).
    /// Returns without waiting for the GPU. The argument arrays are built in `scratch`.
    pub fn submit(
        &self,
        ctx: u32,
        engine: Engine,
        objects: &[ExecObject],
        waits: &[u32],
        signal: u32,
        scratch: &mut SubmitScratch,
    ) -> Result<Outcome> {
        let batch = objects
            .first()
            .ok_or_else(|| crate::Error::Unsupported("a submission without a batch".into()))?;
        match self {
            Backend::I915(d) => {
                let SubmitScratch {
                    pinned,
                    exec_objects,
                    fences,
                    ..
                } = scratch;
                pinned.clear();
                pinned.extend(objects.iter().map(|o| PinnedObject {
                    handle: o.handle,
                    gpu_address: o.gpu_address,
                    write: o.write,
                }));
                fences.clear();
                fences.extend(
                    waits
                        .iter()
                        .map(|&handle| (handle, ExecFenceFlags::WAIT))
                        .chain(std::iter::once((signal, ExecFenceFlags::SIGNAL)))
                        .map(|(handle, flags)| i915_uapi::drm_i915_gem_exec_fence {
                            handle,
                            flags: flags.bits(),
                        }),
                );
                let r = d.dev.execbuffer2_reusing(
                    &Execbuf {
                        objects: pinned,
                        ctx_id: ctx,
                        engine: match engine {
                            Engine::Compute => i915_uapi::I915_EXEC_RENDER,
                            Engine::Copy => i915_uapi::I915_EXEC_BLT,
                        },
                        fences,
                        // Work is ordered by the syncobjs above (queues, events); OpenCL
                        // orders nothing across queues that share memory, so no implicit
                        // waits either.
                        no_implicit_sync: true,
                        ..Default::default()
                    },
                    exec_objects,
                );
                match r {
                    Ok(_) => Ok(Outcome::Submitted),
                    Err(e) if e.errno() == Some(Errno::EIO) => Ok(Outcome::Banned),
                    Err(e) => Err(e.into()),
                }
            }
            Backend::Xe(x) => {
                let syncs = &mut scratch.syncs;
                syncs.clear();
                syncs.extend(
                    waits
                        .iter()
                        .map(|&h| sync::syncobj(h, false))
                        .chain(std::iter::once(sync::syncobj(signal, true))),
                );
                match x.dev.exec(ctx, batch.gpu_address, syncs) {
                    Ok(()) => Ok(Outcome::Submitted),
                    Err(e) if e.errno() == Some(Errno::ECANCELED) => Ok(Outcome::Banned),
                    Err(e) => Err(e.into()),
                }
            }
        }
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
                syncobj_wait(self.dev.file(), &[s], i64::MAX, SyncobjWaitFlags::empty())?;
                Ok(())
            });
        let _ = syncobj_destroy(self.dev.file(), s);
        r
    }
}

impl Backend {
    fn file(&self) -> &dyn kmd_iface::seam::DeviceFile {
        match self {
            Backend::I915(d) => d.dev.file(),
            Backend::Xe(x) => x.dev.file(),
        }
    }

    /// The device's sysfs directory (the render node's), if it has one.
    pub(crate) fn sysfs_dir(&self) -> Option<std::path::PathBuf> {
        self.file().sysfs_dir()
    }

    /// The GPU's maximum frequency in MHz as the kernel driver publishes it in sysfs.
    pub(crate) fn max_freq_mhz(&self) -> Option<u32> {
        kmd_iface::gt_freq::max_freq_mhz(&self.sysfs_dir()?, self.driver())
    }

    /// The GuC hardware-configuration table, where the kernel driver has one (Xe-HPG on).
    pub(crate) fn hwconfig(&self) -> Option<Vec<kmd_iface::hwconfig::HwConfigAttr>> {
        match self {
            Backend::I915(d) => d.dev.hwconfig().ok(),
            Backend::Xe(x) => x.dev.hwconfig().ok(),
        }
    }

    fn driver(&self) -> Driver {
        match self {
            Backend::I915(_) => Driver::I915,
            Backend::Xe(_) => Driver::Xe,
        }
    }

    /// What the kernel says about our context after a reset: i915's reset stats (hangs while
    /// our batch ran), xe's exec-queue ban. Empty when the ioctl is refused.
    fn reset_status(&self, ctx: u32) -> String {
        match self {
            Backend::I915(d) => d.dev.reset_stats(ctx).map_or_else(
                |_| String::new(),
                |s| format!("; context {ctx} guilty of {} hang(s)", s.batch_active),
            ),
            Backend::Xe(x) => x
                .dev
                .exec_queue_get_property(ctx, xe_uapi::DRM_XE_EXEC_QUEUE_GET_PROPERTY_BAN)
                .map_or_else(
                    |_| String::new(),
                    |b| format!("; exec queue {ctx} banned: {}", b != 0),
                ),
        }
    }

    /// The GPU timestamp now, with the CLOCK_MONOTONIC time it was read at: i915 reads the
    /// render engine's RING_TIMESTAMP (REG_READ) between two host clock reads; xe's
    /// ENGINE_CYCLES query correlates them itself.
    pub fn gpu_clock(&self) -> Result<GpuClock> {
        Ok(match self {
            Backend::I915(d) => {
                let hz = d.dev.params()?.cs_timestamp_frequency;
                let before = kmd_iface::drm_core::monotonic_now_ns();
                let ticks = d.dev.gpu_timestamp()?;
                let after = kmd_iface::drm_core::monotonic_now_ns();
                GpuClock {
                    hz: u64::try_from(hz).unwrap_or(0),
                    ticks,
                    host_ns: before + (after - before) / 2,
                    width: 64,
                }
            }
            Backend::Xe(d) => {
                let hz = d
                    .dev
                    .gt_list()?
                    .first()
                    .map_or(0, |g| u64::from(g.reference_clock));
                let c = d.dev.engine_cycles(d.engine, nix::libc::CLOCK_MONOTONIC)?;
                GpuClock {
                    hz,
                    ticks: c.engine_cycles,
                    host_ns: i64::try_from(c.cpu_timestamp.saturating_add(c.cpu_delta / 2))
                        .unwrap_or(i64::MAX),
                    width: c.width.clamp(1, 64),
                }
            }
        })
    }

    /// After a failed submission on a kernel driver: the error the kernel's GPU error capture
    /// (i915 error state, xe devcoredump) describes, found through the device's sysfs
    /// directory. `ctx` is the context (i915) or exec queue (xe) the batch ran on; call
    /// before it is replaced.
    pub fn hardware_error(&self, ctx: u32, batch_address: u64) -> crate::Error {
        let status = self.reset_status(ctx);
        let reset = format!("batch at {batch_address:#x} was reset by the kernel driver{status}");
        let capture = match self.file().sysfs_dir() {
            Some(dir) => {
                let c = read_capture(&dir, self.driver());
                // The kernel keeps one capture until it is cleared (i915: a write to `error`;
                // xe: a write to the devcoredump's `data`); clear it so the next error is
                // captured. Needs root on a real system; without it the next report may be
                // of this error, which error_from_capture says.
                if c.is_ok() {
                    if let Some(path) = capture_path(&dir, self.driver()) {
                        let _ = std::fs::write(path, "1");
                    }
                }
                c
            }
            None => Err(CaptureError::NotFound("a device without sysfs".into())),
        };
        match capture {
            Ok(c) => error_from_capture(&c, batch_address, &reset),
            Err(e) => crate::Error::GpuHang {
                at: None,
                detail: format!("{reset}; no fault address: {e}"),
            },
        }
    }
}

/// A fault when the capture has an address, else a hang; the detail names the engine, batch,
/// command-streamer head and headline, and says so when the capture is about another batch
/// (i915 keeps the first error until it is cleared).
fn error_from_capture(c: &Capture, batch_address: u64, reset: &str) -> crate::Error {
    let mut detail = reset.to_owned();
    if let Some(e) = &c.engine {
        detail += &format!("; engine {e}");
    }
    if let Some(b) = c.batch_address {
        detail += &format!(", captured batch {b:#x}");
        // The capture's batch is where the engine's batch object starts; ours too.
        if b != batch_address {
            detail += " (the capture may be of an earlier error)";
        }
    }
    if let Some(h) = c.acthd {
        detail += &format!(", ACTHD {h:#x}");
    }
    if let Some(s) = &c.summary {
        detail += &format!(": {s}");
    }
    let at = c.instruction.map(|i| crate::error::KernelOffset {
        kernel: i.kernel,
        offset: i.offset,
    });
    match c.fault {
        Some(f) => crate::Error::GpuFault {
            address: f.address,
            access: f.write.map(|w| {
                if w {
                    crate::error::FaultAccess::Write
                } else {
                    crate::error::FaultAccess::Read
                }
            }),
            by: at,
            detail,
        },
        None => crate::Error::GpuHang { at, detail },
    }
}

#[cfg(all(test, feature = "sim"))]
mod tests {
    use std::path::{Path, PathBuf};
    use std::sync::Arc;

    use kmd_iface::seam::{DeviceFile, Errno, Mapping};

    use super::*;

    /// The simulator's ioctls, with the sysfs directory of a fake tree: the hardware path.
    #[derive(Debug)]
    struct WithSysfs(Arc<sim::SimDevice>, PathBuf);

    impl DeviceFile for WithSysfs {
        unsafe fn ioctl(&self, request: u64, arg: &mut [u8]) -> std::result::Result<i32, Errno> {
            // SAFETY: forwarded unchanged under the caller's contract.
            unsafe { self.0.ioctl(request, arg) }
        }
        fn mmap(&self, offset: u64, len: usize) -> std::result::Result<Mapping, Errno> {
            self.0.mmap(offset, len)
        }
        unsafe fn mmap_at(
            &self,
            offset: u64,
            len: usize,
            at: *mut u8,
        ) -> std::result::Result<Mapping, Errno> {
            // SAFETY: forwarded from the trait's contract.
            unsafe { self.0.mmap_at(offset, len, at) }
        }
        fn shared_host_memory(&self) -> kmd_iface::seam::SharedHostMemory {
            self.0.shared_host_memory()
        }
        fn sysfs_dir(&self) -> Option<PathBuf> {
            Some(self.1.clone())
        }
    }

    fn backend(kmd: sim::Kmd, node: &Path) -> Backend {
        let dev =
            sim::open_device(platform::Platform::Tgllp, kmd, sim::SimConfig::default()).unwrap();
        let file: Arc<dyn DeviceFile> = Arc::new(WithSysfs(dev, node.to_owned()));
        match kmd {
            sim::Kmd::I915 => Backend::new_i915(I915::new(file)).unwrap(),
            sim::Kmd::Xe => Backend::new_xe(Xe::new(file), platform::Platform::Tgllp).unwrap(),
        }
    }

    fn touch(p: &Path, text: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    // Lines laid out by i915_gpu_error.c's format strings (Linux 6.12), values ours.
    const I915_FAULT: &str = "GPU HANG: ecode 12:1:85dffffb, in intel-gpu-run [7]\n\
        Kernel: 6.12.9 x86_64\n\
        FAULT_TLB_DATA: 0x00000000 0x00012345\n\
        rcs0 command stream:\n  ACTHD: 0x00000000 00400040\n\
        \x20 batch: [0x00000000_00400000, 0x00000000_00401000]\n\
        \x20 FAULT_REG: 0x00000001\n  hung: 1\n";

    /// A low-priority queue's context is at I915_CONTEXT_MIN_USER_PRIORITY, read back from the
    /// kernel driver (i915 `CONTEXT_GETPARAM`); a normal one at i915's default, 0. Under xe
    /// the exec queue is created with the low priority property (an unknown or privileged
    /// value would be refused).
    #[test]
    fn a_low_priority_queue_asks_the_kernel_driver_for_it() {
        let root = tempfile::tempdir().unwrap();
        let b = backend(sim::Kmd::I915, &root.path().join("renderD128"));
        let Backend::I915(d) = &b else { unreachable!() };
        let prio = i915_uapi::I915_CONTEXT_PARAM_PRIORITY;
        let low = b.context_create(QueuePriority::Low).unwrap();
        assert_eq!(d.dev.context_getparam(low, prio).unwrap() as i64, -1023);
        let normal = b.context_create(QueuePriority::Normal).unwrap();
        assert_eq!(d.dev.context_getparam(normal, prio).unwrap(), 0);
        let x = backend(sim::Kmd::Xe, &root.path().join("renderD129"));
        let q = x.context_create(QueuePriority::Low).unwrap();
        x.copy_context_create(q, QueuePriority::Low).unwrap();
    }

    #[test]
    fn i915_fault_error_names_the_captured_address() {
        let root = tempfile::tempdir().unwrap();
        let node = root.path().join("sys/class/drm/renderD128");
        touch(&node.join("device/drm/card0/error"), I915_FAULT);
        let b = backend(sim::Kmd::I915, &node);
        let ctx = b.context_create(QueuePriority::Normal).unwrap();
        let err = b.hardware_error(ctx, 0x40_0000);
        match &err {
            crate::Error::GpuFault {
                address, detail, ..
            } => {
                assert_eq!(*address, 0x1234_5000);
                assert!(detail.contains("engine rcs0"), "{detail}");
                assert!(!detail.contains("earlier error"), "{detail}");
            }
            other => panic!("{other:?}"),
        }
        assert!(err.to_string().contains("0x12345000"), "{err}");
        // Reading clears the capture (as a write to `error` does), so the next error is kept.
        assert_eq!(
            std::fs::read_to_string(node.join("device/drm/card0/error")).unwrap(),
            "1"
        );
        touch(&node.join("device/drm/card0/error"), I915_FAULT);
        // Another batch than the capture's: said, not hidden.
        let stale = b.hardware_error(ctx, 0x80_0000);
        assert!(stale.to_string().contains("earlier error"), "{stale}");
    }

    #[test]
    fn xe_hang_names_engine_and_head_and_no_capture_is_a_hang() {
        let root = tempfile::tempdir().unwrap();
        let node = root.path().join("renderD129");
        let b = backend(sim::Kmd::Xe, &node);
        let q = b.context_create(QueuePriority::Normal).unwrap();
        match b.hardware_error(q, 0x20_0000) {
            crate::Error::GpuHang { detail, .. } => {
                assert!(detail.contains("no error capture"), "{detail}")
            }
            other => panic!("{other:?}"),
        }
        // xe_devcoredump.c / xe_sched_job.c / xe_hw_engine.c format strings, values ours.
        touch(
            &node.join("device/devcoredump/data"),
            "**** Xe Device Coredump ****\nProcess: intel-gpu-run\n\n**** Job ****\n\
             batch_addr[0]: 0x0000000000200000\n\n**** HW Engines ****\n\
             ccs0 (physical), logical instance=0\n\tACTHD: 0x0000000000200080\n",
        );
        match b.hardware_error(q, 0x20_0000) {
            crate::Error::GpuHang { detail, .. } => {
                assert!(detail.contains("engine ccs0"), "{detail}");
                assert!(detail.contains("ACTHD 0x200080"), "{detail}");
                assert!(detail.contains("banned"), "{detail}");
            }
            other => panic!("{other:?}"),
        }
    }
}
