//! The command sequences around dispatches: the preamble each generation needs before a walker,
//! and the completion signal.

use super::dispatch::{prepare, DispatchDesc, Heaps};
use super::heap::Batch;
use super::limits::DeviceLimits;
use super::platform_data::{gen_data, mocs_wb, GenData, WalkerKind};
use super::scratch::{scratch_encoding, FrontEnd};
use super::BuildError;
use crate::codec::Packet;
use crate::packets::*;
use platform::Platform;

/// Heap base addresses and sizes for STATE_BASE_ADDRESS.
#[derive(Debug, Clone, Copy)]
struct Bases {
    general: u64,
    surface: u64,
    dynamic: (u64, usize),
    indirect: (u64, usize),
    instruction: (u64, usize),
}

/// Builds batches for one generation.
#[derive(Debug, Clone, Copy)]
pub struct Builder {
    p: Platform,
    g: &'static GenData,
    limits: DeviceLimits,
}

/// A `PIPE_CONTROL` field exists on this generation.
fn pc_has(p: Platform, name: &str) -> bool {
    PipeControl::LAYOUT
        .field(name)
        .is_some_and(|f| f.loc(p).is_some())
}

/// Pages of 4 KiB covering `bytes`, for the Buffer Size fields.
fn pages(bytes: usize) -> u32 {
    bytes.div_ceil(4096) as u32
}

impl Builder {
    /// A builder for `p`'s representative GT ([`DeviceLimits::representative`]).
    pub fn new(p: Platform) -> Self {
        Self::with_limits(p, DeviceLimits::representative(p))
    }

    /// A builder for a device of `p` with `limits` (from its kernel driver's topology).
    pub fn with_limits(p: Platform, limits: DeviceLimits) -> Self {
        Builder {
            p,
            g: gen_data(p),
            limits,
        }
    }

    /// The limits batches are built for.
    pub fn limits(&self) -> DeviceLimits {
        self.limits
    }

    /// The generation.
    pub fn platform(&self) -> Platform {
        self.p
    }

    /// Pipeline select, base addresses and front-end state. `general_base` and
    /// `instruction_base` (with the kernel heap's size) complete the heaps' addresses.
    pub fn preamble(
        &self,
        batch: &mut Batch,
        heaps: &Heaps,
        general_base: u64,
        instruction: (u64, usize),
        fe: FrontEnd,
    ) -> Result<(), BuildError> {
        let p = self.p;
        if self.limits.front_end_threads == 0 {
            return Err(BuildError::BadTopology("a front end of no threads"));
        }
        if fe.large_grf && p.large_grf_regs().is_none() {
            return Err(BuildError::Unsupported(
                "Large GRF Mode before Xe-HPG (its STATE_COMPUTE_MODE has no such field)",
            ));
        }
        // Every thread slot the dispatcher may number needs its slice.
        if fe.scratch_per_thread != 0 && fe.scratch_slices < self.limits.scratch_slices {
            return Err(BuildError::BadScratch(
                "fewer scratch slices than the device's thread slots",
            ));
        }
        let bases = Bases {
            general: general_base,
            surface: heaps.surface.gpu_base,
            dynamic: (heaps.dynamic.gpu_base, heaps.dynamic.size()),
            indirect: (heaps.indirect.gpu_base, heaps.indirect.size()),
            instruction,
        };
        batch.emit(
            p,
            &PipeControl {
                command_streamer_stall_enable: true,
                ..Default::default()
            },
        )?;
        // Mask Bits 1:0 let Pipeline Selection through (the Gen9+ write mask).
        batch.emit(
            p,
            &PipelineSelect {
                pipeline_selection: PipelineSelection::Gpgpu,
                mask_bits: 0x3,
                ..Default::default()
            },
        )?;
        if self.g.walker == WalkerKind::Compute {
            // The mask bit makes the packet set the mode either way: a batch never inherits
            // the previous one's.
            batch.emit(
                p,
                &StateComputeMode {
                    large_grf_mode: fe.large_grf,
                    large_grf_mode_mask: true,
                    ..Default::default()
                },
            )?;
            if !fe.scratch_surface_state.is_multiple_of(64) {
                return Err(BuildError::BadScratch(
                    "scratch surface state offset must be 64-byte aligned",
                ));
            }
            batch.emit(
                p,
                &CfeState {
                    // The scratch surface state's offset in 64-byte units (NEO shifts by 6).
                    scratch_space_buffer: if fe.scratch_per_thread != 0 {
                        fe.scratch_surface_state >> 6
                    } else {
                        0
                    },
                    // CFE counts threads; MEDIA_VFE_STATE below counts them minus one.
                    maximum_number_of_threads: self.limits.front_end_threads,
                    ..Default::default()
                },
            )?;
        }
        batch.emit(p, &self.state_base_address(&bases))?;
        if self.g.walker == WalkerKind::Compute {
            batch.emit(
                p,
                &BindingTablePoolAlloc {
                    mocs: mocs_wb(p),
                    binding_table_pool_base_address: bases.surface,
                    binding_table_pool_buffer_size: pages(heaps.surface.size()),
                    ..Default::default()
                },
            )?;
        }
        // New base addresses invalidate cached state.
        batch.emit(
            p,
            &PipeControl {
                command_streamer_stall_enable: true,
                state_cache_invalidation_enable: true,
                texture_cache_invalidation_enable: true,
                constant_cache_invalidation_enable: true,
                instruction_cache_invalidate_enable: true,
                ..Default::default()
            },
        )?;
        if self.g.walker == WalkerKind::Gpgpu {
            batch.emit(
                p,
                &MediaVfeState {
                    per_thread_scratch_space: scratch_encoding(fe.scratch_per_thread)?,
                    scratch_space_base_pointer: if fe.scratch_per_thread != 0 {
                        fe.scratch_offset
                    } else {
                        0
                    },
                    maximum_number_of_threads: self.limits.front_end_threads.saturating_sub(1),
                    // NEO's and IGT's values: one URB entry of 0x782 rows, no CURBE.
                    number_of_urb_entries: 1,
                    urb_entry_allocation_size: 0x782,
                    ..Default::default()
                },
            )?;
        }
        Ok(())
    }

    fn state_base_address(&self, b: &Bases) -> StateBaseAddress {
        let m = mocs_wb(self.p);
        StateBaseAddress {
            general_state_base_address_modify_enable: true,
            general_state_mocs: m,
            general_state_base_address: b.general,
            general_state_buffer_size_modify_enable: true,
            general_state_buffer_size: 0xFFFFF,
            stateless_data_port_access_mocs: m,
            surface_state_base_address_modify_enable: true,
            surface_state_mocs: m,
            surface_state_base_address: b.surface,
            dynamic_state_base_address_modify_enable: true,
            dynamic_state_mocs: m,
            dynamic_state_base_address: b.dynamic.0,
            dynamic_state_buffer_size_modify_enable: true,
            dynamic_state_buffer_size: pages(b.dynamic.1),
            indirect_object_base_address_modify_enable: true,
            indirect_object_mocs: m,
            indirect_object_base_address: b.indirect.0,
            indirect_object_buffer_size_modify_enable: true,
            indirect_object_buffer_size: pages(b.indirect.1),
            instruction_base_address_modify_enable: true,
            instruction_mocs: m,
            instruction_base_address: b.instruction.0,
            instruction_buffer_size_modify_enable: true,
            instruction_buffer_size: pages(b.instruction.1),
            ..Default::default()
        }
    }

    /// Writes one dispatch's state into `heaps` and its walker into `batch`.
    pub fn dispatch(
        &self,
        batch: &mut Batch,
        heaps: &mut Heaps,
        d: &DispatchDesc,
    ) -> Result<(), BuildError> {
        prepare(self.p, heaps, d)?.emit(batch)
    }

    /// Writes the command streamer's timestamp (64 bits, RING_TIMESTAMP ticks) to `address`
    /// once every command before it has completed (PIPE_CONTROL post-sync "Write Timestamp"
    /// with a command streamer stall): before the walkers it is their start, after them
    /// their end.
    pub fn timestamp(&self, batch: &mut Batch, address: u64) -> Result<(), BuildError> {
        batch.emit(
            self.p,
            &PipeControl {
                command_streamer_stall_enable: true,
                post_sync_operation: PostSyncOperation::WriteTimestamp,
                address,
                ..Default::default()
            },
        )
    }

    /// Waits for the dispatches, flushes their writes, writes `value` (64 bits) to `fence`
    /// (PIPE_CONTROL post-sync), and ends the batch.
    pub fn finish(&self, batch: &mut Batch, fence: u64, value: u64) -> Result<(), BuildError> {
        let p = self.p;
        batch.emit(
            p,
            &PipeControl {
                command_streamer_stall_enable: true,
                dc_flush_enable: true,
                hdc_pipeline_flush_enable: pc_has(p, "HDC Pipeline Flush Enable"),
                untyped_data_port_cache_flush_enable: pc_has(
                    p,
                    "Untyped Data Port Cache Flush Enable",
                ),
                post_sync_operation: PostSyncOperation::WriteImmediateData,
                address: fence,
                immediate_data: value,
                ..Default::default()
            },
        )?;
        batch.emit(p, &MiBatchBufferEnd::default())
    }

    /// Where [`Builder::finish`] puts its fence value: the dword, counted from the first
    /// dword `finish` emits, that starts the 64-bit value (little-endian, dword-aligned).
    /// A caller that keeps a finished batch can change only that value for its next run.
    pub fn finish_value_at(&self) -> Option<usize> {
        let loc = PipeControl::LAYOUT.field("Immediate Data")?.loc(self.p)?;
        (loc.lo == 0 && loc.width() == 64).then_some(loc.dw as usize)
    }
}
