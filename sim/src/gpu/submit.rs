//! The GPU as the personalities drive it: engines with their rings, hardware contexts, and the
//! reset path that turns a fault or hang into an error record, a banned context and a failed
//! fence while every other context keeps running.

use std::sync::Arc;

use crate::cs::{Budget, ComputeState, EngineRing, RingRun, WalkerExecutor};
use crate::device_info::{DeviceInfo, EngineClass};
use crate::mem::{AddressSpace, BoError};
use crate::sync::Fence;

use super::{Clock, ErrorLog, RegisterFile};

/// A hardware context (i915 context or xe exec queue): its saved engine state and its record
/// of resets.
#[derive(Debug, Default)]
pub struct HwContext {
    /// The uAPI id, for error records.
    pub id: u32,
    /// Banned contexts accept no more work (i915: EIO, xe: ECANCELED).
    pub banned: bool,
    /// Requests of this context that caused a reset (i915 `batch_active`).
    pub guilty: u32,
    /// Requests of this context lost to another context's reset (i915 `batch_pending`); always
    /// zero here because execution is synchronous and nothing is queued behind a hang.
    pub innocent: u32,
    /// Register and compute state per engine index (the context image).
    regs: Vec<RegisterFile>,
    compute: Vec<ComputeState>,
}

impl HwContext {
    pub fn new(id: u32) -> Self {
        HwContext {
            id,
            ..Default::default()
        }
    }
}

/// The device's engines and everything they share.
pub struct Gpu {
    pub info: &'static DeviceInfo,
    pub clock: Clock,
    pub errors: ErrorLog,
    rings: Vec<EngineRing>,
    budget: Budget,
    walker: Arc<dyn WalkerExecutor>,
}

impl Gpu {
    pub fn new(
        info: &'static DeviceInfo,
        budget: Budget,
        walker: Arc<dyn WalkerExecutor>,
    ) -> Result<Self, BoError> {
        let rings = info
            .engines
            .iter()
            .map(EngineRing::new)
            .collect::<Result<_, _>>()?;
        Ok(Gpu {
            info,
            clock: Clock::new(info.timestamp_hz),
            errors: ErrorLog::default(),
            rings,
            budget,
            walker,
        })
    }

    /// Index of the engine `class`/`instance`, if the device has it.
    pub fn engine_index(&self, class: EngineClass, instance: u16) -> Option<usize> {
        self.info
            .engines
            .iter()
            .position(|e| e.class == class && e.instance == instance)
    }

    /// Runs the batch at `batch` in `vm` on engine `engine` for `ctx`. Execution is synchronous:
    /// the returned fence is already signalled, with the error id if the GPU faulted or hung, in
    /// which case the context is banned and charged with the reset.
    pub fn submit(
        &mut self,
        engine: usize,
        ctx: &mut HwContext,
        vm: &AddressSpace,
        batch: u64,
    ) -> Arc<Fence> {
        let fence = Fence::new();
        let Some(ring) = self.rings.get_mut(engine) else {
            return fence;
        };
        let n = self.info.engines.len();
        ctx.regs.resize_with(n, Default::default);
        ctx.compute.resize_with(n, Default::default);
        let run = RingRun {
            platform: self.info.platform,
            clock: &self.clock,
            ppgtt: vm,
            regs: &mut ctx.regs[engine],
            compute: &mut ctx.compute[engine],
            walker: self.walker.as_ref(),
            budget: self.budget,
            batch,
        };
        match ring.submit(run) {
            Ok(()) => fence.signal(None),
            Err(e) => {
                let id = self.report(engine, ctx, e.head, batch, e.kind);
                fence.signal(Some(id));
            }
        }
        fence
    }

    /// Captures a GPU error of `ctx` on `engine` at `head` and resets: the context is banned and
    /// charged. Returns the error's id.
    pub fn report(
        &mut self,
        engine: usize,
        ctx: &mut HwContext,
        head: u64,
        batch: u64,
        kind: super::GpuErrorKind,
    ) -> u64 {
        let name = self.info.engines.get(engine).map_or("?", |e| e.name);
        ctx.banned = true;
        ctx.guilty += 1;
        self.errors.capture(name, ctx.id, head, batch, kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cs::NoWalkerExecutor;
    use crate::mem::Bo;
    use crate::sync::FenceStatus;
    use platform::Platform;

    #[test]
    fn a_hang_bans_only_the_guilty_context() {
        let info = DeviceInfo::get(Platform::Tgllp);
        let mut gpu = Gpu::new(info, Budget::default(), Arc::new(NoWalkerExecutor)).unwrap();
        let mut vm = AddressSpace::new();
        let bo = Bo::new(4096).unwrap();
        vm.bind(0x1000, 4096, bo.clone(), 0, false).unwrap();
        // 0x1000: an unknown command; 0x1800: MI_BATCH_BUFFER_END.
        bo.write(0, &0x1f80_0000u32.to_le_bytes()).unwrap();
        bo.write(0x800, &0x0500_0000u32.to_le_bytes()).unwrap();
        let (mut bad, mut good) = (HwContext::new(1), HwContext::new(2));
        let f = gpu.submit(0, &mut bad, &vm, 0x1000);
        assert_eq!(f.status(), FenceStatus::Error { error_id: 1 });
        assert!(bad.banned && bad.guilty == 1);
        let f = gpu.submit(0, &mut good, &vm, 0x1800);
        assert_eq!(f.status(), FenceStatus::Signaled);
        assert!(!good.banned);
        let rec = &gpu.errors.records()[0];
        assert_eq!((rec.engine, rec.context, rec.head), ("rcs0", 1, 0x1000));
    }
}
