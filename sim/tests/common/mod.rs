//! Shared test support: the simulated devices and batches built with `batchbuffer`.
#![allow(dead_code)]

use std::sync::Arc;

use batchbuffer::{
    AddressSpaceIndicator, CompareOperation, MiBatchBufferEnd, MiBatchBufferStart, MiSemaphoreWait,
    MiStoreDataImm, Packet, SecondLevelBatchBuffer, WaitMode,
};
use kmd_iface::i915::uapi::I915_EXEC_RENDER;
use kmd_iface::i915::{ContextParams, Execbuf, MmapMode, PinnedObject, I915};
use kmd_iface::seam::{DeviceFile, Errno};
use platform::Platform;
use sim::cs::WalkerExecutor;
use sim::{Kmd, SimConfig, SimDevice};

/// Every (platform, driver) pair the simulator offers.
pub fn combos() -> Vec<(Platform, Kmd)> {
    Platform::ALL
        .iter()
        .flat_map(|&p| [(p, Kmd::I915), (p, Kmd::Xe)])
        .filter(|&(p, k)| sim::open(p, k).is_ok())
        .collect()
}

pub fn platforms(kmd: Kmd) -> Vec<Platform> {
    combos()
        .into_iter()
        .filter(|&(_, k)| k == kmd)
        .map(|(p, _)| p)
        .collect()
}

pub fn open(p: Platform, kmd: Kmd) -> (Arc<SimDevice>, Arc<dyn DeviceFile>) {
    let dev = sim::open_device(p, kmd, SimConfig::default()).unwrap();
    let file: Arc<dyn DeviceFile> = dev.clone();
    (dev, file)
}

pub fn pack(p: Platform, out: &mut Vec<u32>, pk: &impl Packet) {
    let mut buf = [0u32; 16];
    let n = pk.pack(p, &mut buf).unwrap();
    out.extend_from_slice(&buf[..n]);
}

pub fn bytes(dw: &[u32]) -> Vec<u8> {
    dw.iter().flat_map(|d| d.to_le_bytes()).collect()
}

/// MI_STORE_DATA_IMM of `value` to `addr`, then MI_BATCH_BUFFER_END (gem_exec_store's batch).
pub fn store_batch(p: Platform, addr: u64, value: u32) -> Vec<u8> {
    let mut dw = Vec::new();
    pack(
        p,
        &mut dw,
        &MiStoreDataImm {
            address: addr,
            immediate_data: value.into(),
            ..Default::default()
        },
    );
    pack(p, &mut dw, &MiBatchBufferEnd::default());
    bytes(&dw)
}

/// MI_SEMAPHORE_WAIT until the dword at `sem` equals 1, then MI_STORE_DATA_IMM of `value` to
/// `addr` and MI_BATCH_BUFFER_END: a batch that stays busy until someone releases it.
pub fn semaphore_store_batch(p: Platform, sem: u64, addr: u64, value: u32) -> Vec<u8> {
    let mut dw = Vec::new();
    pack(
        p,
        &mut dw,
        &MiSemaphoreWait {
            compare_operation: CompareOperation::SadEqualSdd,
            wait_mode: WaitMode::PollingMode,
            semaphore_data_dword: 1,
            semaphore_address: sem,
            ..Default::default()
        },
    );
    let mut out = bytes(&dw);
    out.extend(store_batch(p, addr, value));
    out
}

/// Just MI_BATCH_BUFFER_END (gem_exec_basic's batch).
pub fn end_batch(p: Platform) -> Vec<u8> {
    let mut dw = Vec::new();
    pack(p, &mut dw, &MiBatchBufferEnd::default());
    bytes(&dw)
}

/// MI_BATCH_BUFFER_START back to itself: a batch that never ends.
pub fn self_loop(p: Platform, addr: u64) -> Vec<u8> {
    let mut dw = Vec::new();
    pack(
        p,
        &mut dw,
        &MiBatchBufferStart {
            address_space_indicator: AddressSpaceIndicator::Ppgtt,
            second_level_batch_buffer: SecondLevelBatchBuffer::FirstLevelBatch,
            batch_buffer_start_address: addr,
            ..Default::default()
        },
    );
    bytes(&dw)
}

/// A simulated i915 device reached through kmd-iface's wrappers, with `walker` running its
/// walkers, and the context submissions use.
pub struct I915Gpu {
    pub dev: Arc<SimDevice>,
    pub i915: I915,
    /// 0 (the default context) until [`I915Gpu::new_context`]: a GPU error bans a context.
    pub ctx: std::cell::Cell<u32>,
    /// [`i915_mmap_mode`] of the platform.
    pub mmap: MmapMode,
}

/// kmd-iface's i915 wrapper over a simulated device file.
pub fn i915_of(file: Arc<dyn DeviceFile>) -> I915 {
    let kmd_iface::Kmd::I915(i915) = kmd_iface::Kmd::new(file).unwrap() else {
        panic!("VERSION did not say i915")
    };
    i915
}

/// The CPU mapping i915 offers on `p`: FIXED on discrete parts (the only one there), WB on
/// integrated ones.
pub fn i915_mmap_mode(p: Platform) -> MmapMode {
    if sim::device_info::DeviceInfo::get(p).has_local_memory {
        MmapMode::Fixed
    } else {
        MmapMode::Wb
    }
}

/// Opens an i915 simulator for `p` whose walkers run on `walker`.
pub fn i915_gpu(p: Platform, walker: Arc<dyn WalkerExecutor>) -> I915Gpu {
    let config = SimConfig {
        walker,
        ..SimConfig::default()
    };
    let dev = sim::open_device(p, Kmd::I915, config).unwrap();
    I915Gpu {
        i915: i915_of(dev.clone()),
        dev,
        ctx: 0.into(),
        mmap: i915_mmap_mode(p),
    }
}

/// One softpinned buffer of a submission.
#[derive(Debug, Clone, Copy)]
pub struct Placed {
    pub gpu_address: u64,
    pub handle: u32,
    pub write: bool,
}

impl I915Gpu {
    /// Switches to a fresh context (after an error banned the current one).
    pub fn new_context(&self) {
        let ctx = self.i915.context_create(&ContextParams::default()).unwrap();
        self.ctx.set(ctx);
    }

    /// A GEM object of `size` bytes starting with `bytes`.
    pub fn bo(&self, bytes: &[u8], size: usize) -> u32 {
        let bo = self.i915.gem_create(size as u64).unwrap();
        let m = self.i915.gem_mmap(bo.handle, size, self.mmap).unwrap();
        m.write(0, bytes).unwrap();
        bo.handle
    }

    /// Runs the batch in `objects[0]` on the render engine with every object softpinned, and
    /// waits for `objects[wait]`.
    pub fn exec(&self, objects: &[Placed], wait: usize) -> Result<(), String> {
        self.exec_on(I915_EXEC_RENDER, objects, wait)
    }

    /// [`Self::exec`] on the engine `engine` selects (`I915_EXEC_RENDER`, `I915_EXEC_BLT`).
    pub fn exec_on(&self, engine: u64, objects: &[Placed], wait: usize) -> Result<(), String> {
        let pinned: Vec<PinnedObject> = objects
            .iter()
            .map(|o| PinnedObject {
                handle: o.handle,
                gpu_address: o.gpu_address,
                write: o.write,
            })
            .collect();
        self.i915
            .execbuffer2(&Execbuf {
                objects: &pinned,
                engine,
                ctx_id: self.ctx.get(),
                ..Default::default()
            })
            .map_err(|e| format!("execbuffer2: {e:?}"))?;
        self.i915
            .gem_wait(objects[wait].handle, -1)
            .map_err(|e| format!("wait: {e:?}"))?;
        // GEM_WAIT returns 0 after a failed batch too, as i915 does: a failure shows as the
        // context's guilty count.
        let ctx = self.ctx.get();
        match self.i915.reset_stats(ctx) {
            Ok(s) if s.batch_active > 0 => Err(format!(
                "GPU error: context {ctx} guilty of {} hang(s)",
                s.batch_active
            )),
            Ok(_) => Ok(()),
            Err(e) => Err(format!("reset stats: {e:?}")),
        }
    }

    /// The first `len` bytes of a GEM object of `size` bytes.
    pub fn read(&self, handle: u32, len: usize, size: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        let m = self.i915.gem_mmap(handle, size, self.mmap).unwrap();
        m.read(0, &mut out).unwrap();
        out
    }

    /// Closes every object.
    pub fn close(&self, objects: &[Placed]) {
        for o in objects {
            self.i915.gem_close(o.handle).unwrap();
        }
    }
}

/// One raw ioctl through the device-file seam, with a kmd-iface uAPI struct as its argument.
pub fn call<T: zerocopy::IntoBytes + zerocopy::FromBytes>(
    f: &dyn DeviceFile,
    req: u64,
    a: &mut T,
) -> Result<i32, Errno> {
    // SAFETY: the tests point a struct's pointer fields only at their own buffers, live
    // across the call, or at addresses nothing is mapped at (which the simulator answers
    // EFAULT for); the simulator is the only device file these tests open.
    unsafe { f.ioctl(req, a.as_mut_bytes()) }
}

/// The errno of an ioctl that must fail; its success fails the test.
pub fn errno<T: zerocopy::IntoBytes + zerocopy::FromBytes>(
    f: &dyn DeviceFile,
    req: u64,
    a: &mut T,
) -> Errno {
    match call(f, req, a) {
        Ok(r) => panic!("ioctl {req:#x} returned {r}, expected an error"),
        Err(e) => e,
    }
}

/// Memory for the three state heaps a dispatch writes (surface, dynamic, indirect), each
/// `dwords` long, softpinned at the given GPU addresses.
pub struct HeapMem {
    pub surface: Vec<u32>,
    pub dynamic: Vec<u32>,
    pub indirect: Vec<u32>,
}

impl HeapMem {
    pub fn new(dwords: usize) -> HeapMem {
        HeapMem {
            surface: vec![0; dwords],
            dynamic: vec![0; dwords],
            indirect: vec![0; dwords],
        }
    }

    /// The builder's view: heaps at `[surface, dynamic, indirect]` GPU addresses.
    pub fn heaps(&mut self, at: [u64; 3]) -> batchbuffer::builder::Heaps<'_> {
        use batchbuffer::builder::Heap;
        batchbuffer::builder::Heaps {
            surface: Heap::new("surface", at[0], &mut self.surface),
            dynamic: Heap::new("dynamic", at[1], &mut self.dynamic),
            indirect: Heap::new("indirect", at[2], &mut self.indirect),
        }
    }
}

/// kmd-iface's xe wrapper over a simulated device file.
pub fn xe_of(file: Arc<dyn DeviceFile>) -> kmd_iface::xe::Xe {
    let kmd_iface::Kmd::Xe(xe) = kmd_iface::Kmd::new(file).unwrap() else {
        panic!("VERSION did not say xe")
    };
    xe
}

/// An xe BO of `size` bytes in the device's own memory: VRAM with WC caching on discrete parts,
/// system memory with WB on integrated ones (xe refuses other combinations).
pub fn xe_local_bo(p: Platform, size: u64, vm_id: u32) -> kmd_iface::xe::GemCreate {
    use kmd_iface::xe::uapi::{DRM_XE_GEM_CPU_CACHING_WB, DRM_XE_GEM_CPU_CACHING_WC};
    let vram = sim::device_info::DeviceInfo::get(p).has_local_memory;
    kmd_iface::xe::GemCreate {
        size,
        placement: if vram { 0b10 } else { 0b01 },
        flags: kmd_iface::flags::xe::GemCreateFlags::empty(),
        vm_id,
        cpu_caching: if vram {
            DRM_XE_GEM_CPU_CACHING_WC
        } else {
            DRM_XE_GEM_CPU_CACHING_WB
        },
    }
}
