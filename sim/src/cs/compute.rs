//! Compute-pipeline state as the command streamer records it, and the seam through which
//! walkers reach an executor (the EU interpreter).

use std::collections::HashMap;

use batchbuffer::{Error, Packet, PacketId, PipelineSelection, StateBaseAddress, StateComputeMode};
use platform::Platform;

use crate::clock::Clock;
use crate::device_info::EngineDesc;
use crate::gpu_error::HangReason;
use crate::mem::AddressSpace;

/// The state packets a context has programmed, kept as their raw dwords (the executor unpacks
/// what it needs with `batchbuffer`), plus the selected pipeline. Lives in the hardware context,
/// so it persists across batches like the hardware's context image.
#[derive(Debug, Default, Clone)]
pub struct ComputeState {
    pub pipeline: Option<PipelineSelection>,
    packets: HashMap<PacketId, Vec<u32>>,
    /// STATE_COMPUTE_MODE's Large GRF Mode as the packets so far left it (clear in a new
    /// context): each packet changes it only with its mask bit set.
    large_grf_mode: bool,
}

impl ComputeState {
    /// Records the most recent instance of a state packet.
    pub fn record(&mut self, packet: PacketId, dwords: &[u32]) {
        self.packets.insert(packet, dwords.to_vec());
    }

    /// Records a STATE_BASE_ADDRESS as the hardware applies it: fields whose Modify Enable is
    /// clear keep what the previous one set (`StateBaseAddress::applied_over`).
    pub fn record_base_addresses(&mut self, p: Platform, dwords: &[u32]) -> Result<(), Error> {
        // On the dwords: unpacking both packets, merging and packing again was a seventh of a
        // small dispatch's host instructions.
        let prev = self.get(PacketId::StateBaseAddress);
        let state = StateBaseAddress::apply_dwords(p, dwords, prev)?;
        self.packets.insert(PacketId::StateBaseAddress, state);
        Ok(())
    }

    /// Records a STATE_COMPUTE_MODE as the hardware applies it: a field changes only where its
    /// mask bit is set ("Mask bits ... only the fields whose mask bits are set are modified",
    /// the packet's description in the PRM and Mesa's genxml; NEO sets the mask for every field
    /// it programs), so a packet that programs only coherency leaves Large GRF Mode as it was.
    /// Only the fields a walker depends on are kept; the last packet's dwords are recorded too.
    pub fn record_compute_mode(&mut self, p: Platform, dwords: &[u32]) -> Result<(), Error> {
        let scm = StateComputeMode::unpack(p, dwords)?;
        if scm.large_grf_mode_mask {
            self.large_grf_mode = scm.large_grf_mode;
        }
        self.record(PacketId::StateComputeMode, dwords);
        Ok(())
    }

    /// Whether walkers run in Large GRF Mode (STATE_COMPUTE_MODE; never before Xe-HPG, whose
    /// packet has no such field).
    pub fn large_grf_mode(&self) -> bool {
        self.large_grf_mode
    }

    /// The last recorded dwords of `packet`, if it was programmed.
    pub fn get(&self, packet: PacketId) -> Option<&[u32]> {
        self.packets.get(&packet).map(Vec::as_slice)
    }
}

/// One walker command, with everything needed to run it.
pub struct Walker<'a> {
    pub platform: Platform,
    /// The GPU's enabled slices, subslices and EUs: how many threads run at once.
    pub topology: crate::device_info::Topology,
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
    /// The request's simulated GPU time and the kernel driver's hang rule.
    pub timer: &'a super::watchdog::GpuTimer,
    /// The sanitizer, when on: the executor runs the threads under its checks.
    pub sanitizer: Option<&'a crate::sanitize::Sanitizer>,
}

/// Runs walkers. The command streamer calls it synchronously; a returned error is a GPU error
/// charged to the context like a command-streamer hang or fault.
pub trait WalkerExecutor: Send + Sync {
    fn dispatch(&self, walker: &Walker<'_>) -> Result<(), crate::gpu_error::GpuErrorKind>;

    /// The walker's dispatch record for the command log (`crate::dispatch::record`): walker
    /// `ordinal` of the request, at byte `offset` of the logged commands. `None` from an
    /// executor that resolves nothing.
    fn record(&self, _walker: &Walker<'_>, _ordinal: usize, _offset: usize) -> Option<String> {
        None
    }

    /// A request was queued: host threads the executor keeps asleep between walkers may get
    /// ready for one (a request's walkers start some tens of microseconds later, about what a
    /// sleeping thread takes to wake in a virtual machine).
    fn wake(&self) {}
}

/// What the command log (`SimConfig::command_log`) keeps of one request: the dwords of every
/// batch command executed, in order, and one dispatch record per walker dispatched.
#[derive(Debug, Default, Clone)]
pub struct CommandLog {
    pub dwords: Vec<u32>,
    pub dispatches: Vec<String>,
}

/// The executor used until an EU interpreter is plugged in: every walker is a GPU error saying
/// so, never a silent success.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoWalkerExecutor;

impl WalkerExecutor for NoWalkerExecutor {
    fn dispatch(&self, walker: &Walker<'_>) -> Result<(), crate::gpu_error::GpuErrorKind> {
        Err(crate::gpu_error::GpuErrorKind::Hang(
            HangReason::Unsupported {
                packet: format!("{} (no EU executor)", walker.packet.name()),
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sba(p: Platform, s: &StateBaseAddress) -> Vec<u32> {
        let mut dw = vec![0; 32];
        let n = s.pack(p, &mut dw).unwrap();
        dw.truncate(n);
        dw
    }

    #[test]
    fn a_second_state_base_address_keeps_bases_it_does_not_enable() {
        for p in Platform::ALL {
            let mut c = ComputeState::default();
            let first = StateBaseAddress {
                surface_state_base_address_modify_enable: true,
                surface_state_base_address: 0x20_0000,
                instruction_base_address_modify_enable: true,
                instruction_base_address: 0x50_0000,
                instruction_buffer_size_modify_enable: true,
                instruction_buffer_size: 16,
                ..Default::default()
            };
            c.record_base_addresses(p, &sba(p, &first)).unwrap();
            let second = StateBaseAddress {
                general_state_base_address_modify_enable: true,
                general_state_base_address: 0x90_0000,
                // Not enabled: ignored.
                instruction_base_address: 0x1000,
                ..Default::default()
            };
            c.record_base_addresses(p, &sba(p, &second)).unwrap();
            let got = StateBaseAddress::unpack(p, c.get(PacketId::StateBaseAddress).unwrap());
            let want = StateBaseAddress {
                general_state_base_address_modify_enable: true,
                general_state_base_address: 0x90_0000,
                ..first
            };
            assert_eq!(got, Ok(want), "{p}");
        }
    }

    #[test]
    fn a_malformed_state_base_address_is_an_error_and_keeps_the_state() {
        let p = Platform::Tgllp;
        let mut c = ComputeState::default();
        let good = sba(
            p,
            &StateBaseAddress {
                instruction_base_address_modify_enable: true,
                instruction_base_address: 0x50_0000,
                ..Default::default()
            },
        );
        c.record_base_addresses(p, &good).unwrap();
        assert!(c.record_base_addresses(p, &good[..4]).is_err());
        assert_eq!(c.get(PacketId::StateBaseAddress), Some(&good[..]));
    }
}
