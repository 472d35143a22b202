//! An engine's ring buffer and hardware status page, in the engine's global GTT, and the
//! kernel's part of each submission: start the user batch, then write the breadcrumb.

use std::sync::Arc;

use batchbuffer::{
    AddressSpaceIndicator, MiBatchBufferStart, MiNoop, MiStoreDataImm, Packet,
    SecondLevelBatchBuffer,
};
use platform::Platform;

use super::compute::{CommandLog, ComputeState, WalkerExecutor};
use super::exec::{Cs, CsError};
use super::watchdog::{Budget, Watchdog};
use crate::clock::Clock;
use crate::device_info::EngineDesc;
use crate::gpu_error::{GpuErrorKind, HangReason};
use crate::mem::{AddressSpace, Bo, PAGE_SIZE};
use crate::regs::RegisterFile;

/// GGTT placement of the ring and the hardware status page (arbitrary but fixed, page aligned).
const RING_GGTT: u64 = 0x10_0000;
const RING_SIZE: u64 = 4 * PAGE_SIZE;
const HWSP_GGTT: u64 = 0x20_0000;
/// Where in the status page the breadcrumb (last completed seqno) lands.
const SEQNO_OFFSET: u64 = 0x40;
/// Dwords one submission writes into the ring (BB_START 3 + SDI 4 + NOOP 1 padding).
const REQUEST_DWORDS: u64 = 8;

/// One engine's ring.
pub struct EngineRing {
    pub desc: &'static EngineDesc,
    ggtt: AddressSpace,
    hwsp: Arc<Bo>,
    /// Next byte to write, relative to the ring start.
    tail: u64,
    seqno: u32,
}

/// What one submission needs besides the ring.
pub struct RingRun<'a> {
    pub platform: Platform,
    /// The GPU's enabled slices, subslices and EUs (walkers' thread capacity).
    pub topology: crate::device_info::Topology,
    pub clock: &'a Clock,
    pub ppgtt: &'a AddressSpace,
    pub regs: &'a mut RegisterFile,
    pub compute: &'a mut ComputeState,
    pub walker: &'a dyn WalkerExecutor,
    /// The sanitizer walkers run under, if on.
    pub sanitizer: Option<&'a crate::sanitize::Sanitizer>,
    pub budget: Budget,
    pub timer: &'a super::GpuTimer,
    pub batch: u64,
    /// Receives the dwords of every batch command executed and the walkers' dispatch records
    /// (`SimConfig::command_log`).
    pub log: Option<&'a mut CommandLog>,
}

impl EngineRing {
    pub fn new(desc: &'static EngineDesc) -> Result<Self, crate::mem::BoError> {
        let mut ggtt = AddressSpace::new();
        let ring = Bo::new(RING_SIZE)?;
        let hwsp = Bo::new(PAGE_SIZE)?;
        // Fixed, non-overlapping, page-aligned ranges inside both BOs: cannot fail.
        let bound = ggtt
            .bind(RING_GGTT, RING_SIZE, ring, 0, false)
            .and_then(|_| ggtt.bind(HWSP_GGTT, PAGE_SIZE, hwsp.clone(), 0, false));
        debug_assert!(bound.is_ok());
        Ok(EngineRing {
            desc,
            ggtt,
            hwsp,
            tail: 0,
            seqno: 0,
        })
    }

    /// The last seqno the engine wrote to its status page.
    pub fn completed_seqno(&self) -> u32 {
        self.hwsp
            .mapping()
            .load_u32(SEQNO_OFFSET as usize)
            .unwrap_or(0)
    }

    /// Emits a request for the batch at `run.batch` and executes it. On success the breadcrumb
    /// has landed; on a GPU error the engine is reset past the request (the ring's head moves to
    /// its tail) and the error is returned.
    pub fn submit(&mut self, run: RingRun<'_>) -> Result<(), CsError> {
        self.seqno = self.seqno.wrapping_add(1);
        let seqno = self.seqno;
        let head = self
            .emit(run.platform, run.batch, seqno)
            .map_err(|e| CsError {
                head: RING_GGTT + self.tail,
                kind: GpuErrorKind::Hang(HangReason::BadCommand {
                    header: 0,
                    detail: format!("cannot build the ring commands: {e}"),
                }),
            })?;
        let tail = RING_GGTT + self.tail;
        let mut cs = Cs {
            platform: run.platform,
            topology: run.topology,
            engine: self.desc,
            clock: run.clock,
            ggtt: &self.ggtt,
            ppgtt: run.ppgtt,
            regs: run.regs,
            compute: run.compute,
            walker: run.walker,
            sanitizer: run.sanitizer,
            watchdog: Watchdog::start(run.budget),
            timer: run.timer,
            ring: RING_GGTT..RING_GGTT + RING_SIZE,
            log: run.log,
        };
        cs.run(head, tail)?;
        if self.completed_seqno() != seqno {
            return Err(CsError {
                head: tail,
                kind: GpuErrorKind::Hang(HangReason::BadCommand {
                    header: 0,
                    detail: format!("request {seqno} finished without its breadcrumb"),
                }),
            });
        }
        Ok(())
    }

    /// Writes BB_START(batch) and the breadcrumb at the tail; returns the request's GGTT head.
    fn emit(&mut self, p: Platform, batch: u64, seqno: u32) -> Result<u64, batchbuffer::Error> {
        let mut dw = [0u32; REQUEST_DWORDS as usize];
        let mut n = MiBatchBufferStart {
            address_space_indicator: AddressSpaceIndicator::Ppgtt,
            second_level_batch_buffer: SecondLevelBatchBuffer::FirstLevelBatch,
            batch_buffer_start_address: batch,
            ..Default::default()
        }
        .pack(p, &mut dw)?;
        n += MiStoreDataImm {
            use_global_gtt: true,
            address: HWSP_GGTT + SEQNO_OFFSET,
            immediate_data: u64::from(seqno),
            ..Default::default()
        }
        .pack(p, &mut dw[n..])?;
        while n < dw.len() {
            n += MiNoop::default().pack(p, &mut dw[n..])?;
        }
        // Never let a request straddle the ring's end: pad to the start with NOOPs instead.
        let need = REQUEST_DWORDS * 4;
        let head = RING_GGTT + self.tail;
        if self.tail + need > RING_SIZE {
            let mut noop = [0u32; 1];
            MiNoop::default().pack(p, &mut noop)?;
            while self.tail < RING_SIZE {
                self.write_ring(self.tail, &noop);
                self.tail += 4;
            }
            self.tail = 0;
        }
        self.write_ring(self.tail, &dw);
        self.tail = (self.tail + need) % RING_SIZE;
        Ok(head)
    }

    fn write_ring(&self, offset: u64, dw: &[u32]) {
        let bytes: Vec<u8> = dw.iter().flat_map(|d| d.to_le_bytes()).collect();
        // The ring range is bound at construction and `offset` stays inside it.
        let written = self.ggtt.write(RING_GGTT + offset, &bytes);
        debug_assert!(written.is_ok());
    }
}
