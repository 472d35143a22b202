//! Compute-pipeline state as the command streamer records it, and the seam through which
//! walkers reach an executor (the EU interpreter).

use std::collections::HashMap;

use batchbuffer::{PacketId, PipelineSelection};
use platform::Platform;

use crate::device_info::EngineDesc;
use crate::gpu::{Clock, HangReason};
use crate::mem::AddressSpace;

/// The state packets a context has programmed, kept as their raw dwords (the executor unpacks
/// what it needs with `batchbuffer`), plus the selected pipeline. Lives in the hardware context,
/// so it persists across batches like the hardware's context image.
#[derive(Debug, Default, Clone)]
pub struct ComputeState {
    pub pipeline: Option<PipelineSelection>,
    packets: HashMap<PacketId, Vec<u32>>,
}

impl ComputeState {
    /// Records the most recent instance of a state packet.
    pub fn record(&mut self, packet: PacketId, dwords: &[u32]) {
        self.packets.insert(packet, dwords.to_vec());
    }

    /// The last recorded dwords of `packet`, if it was programmed.
    pub fn get(&self, packet: PacketId) -> Option<&[u32]> {
        self.packets.get(&packet).map(Vec::as_slice)
    }
}

/// One walker command, with everything needed to run it.
pub struct Walker<'a> {
    pub platform: Platform,
    pub engine: &'static EngineDesc,
    /// GPGPU_WALKER or COMPUTE_WALKER.
    pub packet: PacketId,
    pub dwords: &'a [u32],
    /// GPU address of the walker command (for error reports).
    pub address: u64,
    pub state: &'a ComputeState,
    /// The context's GPU address space: every memory access of the kernel goes through it.
    pub memory: &'a AddressSpace,
    pub clock: &'a Clock,
}

/// Runs walkers. The command streamer calls it synchronously; a returned error is a GPU error
/// charged to the context like a command-streamer hang or fault.
pub trait WalkerExecutor: Send + Sync {
    fn dispatch(&self, walker: &Walker<'_>) -> Result<(), crate::gpu::GpuErrorKind>;
}

/// The executor used until an EU interpreter is plugged in: every walker is a GPU error saying
/// so, never a silent success.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoWalkerExecutor;

impl WalkerExecutor for NoWalkerExecutor {
    fn dispatch(&self, walker: &Walker<'_>) -> Result<(), crate::gpu::GpuErrorKind> {
        Err(crate::gpu::GpuErrorKind::Hang(HangReason::Unsupported {
            packet: format!("{} (no EU executor)", walker.packet.name()),
        }))
    }
}
