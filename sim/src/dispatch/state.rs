//! Everything one walker needs, gathered from the walker packet and the recorded state:
//! heap bases, the interface descriptor, the thread-group range and the thread geometry.

use batchbuffer::{
    BindingTablePoolAlloc, CfeState, ComputeWalker, EmitLocal, GpgpuWalker,
    InterfaceDescriptorData, MediaInterfaceDescriptorLoad, MediaVfeState, Packet, PacketId,
    PostsyncData, SimdSize, StateBaseAddress, WalkOrder,
};
use platform::Platform;

use super::gen::{gen_dispatch, IndirectBase};
use crate::cs::Walker;
use crate::gpu_error::{GpuErrorKind, HangReason};

/// Heap base addresses as STATE_BASE_ADDRESS (and the binding table pool) set them. The
/// command streamer records the merged state (`ComputeState::record_base_addresses`), so a
/// Modify Enable is clear only when no STATE_BASE_ADDRESS ever set that base: it reads as 0, the
/// value after a context reset.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bases {
    pub general: u64,
    pub surface: u64,
    pub dynamic: u64,
    pub indirect: u64,
    pub instruction: u64,
    pub bindless: u64,
    /// Where binding table pointers point: the pool when one is enabled, else `surface`.
    pub binding_tables: u64,
}

/// Hardware-generated local IDs (Xe-HPG COMPUTE_WALKER).
#[derive(Debug, Clone, Copy)]
pub struct HwLocalIds {
    pub channels: u32,
    /// Work-group size per dimension.
    pub size: [u32; 3],
    /// Dimensions from fastest to slowest varying.
    pub order: [usize; 3],
}

/// One walker, resolved.
#[derive(Debug, Clone)]
pub struct Dispatch {
    pub bases: Bases,
    pub idd: InterfaceDescriptorData,
    /// Absolute GPU address of the kernel's first instruction.
    pub kernel: u64,
    pub simd: u32,
    /// First group ID and end (exclusive) per dimension.
    pub group_start: [u32; 3],
    pub group_end: [u32; 3],
    pub threads_per_group: u32,
    /// Dispatch mask of the last thread of a group (right and bottom masks applied).
    pub last_mask: u32,
    /// Absolute GPU address of the indirect data.
    pub indirect: u64,
    pub indirect_offset: u32,
    pub hw_ids: Option<HwLocalIds>,
    pub inline: Option<[u32; 8]>,
    pub post_sync: Option<PostsyncData>,
    pub scratch: ScratchR0,
    /// The front end's Maximum Number of Threads (0: no front-end state): the hardware thread
    /// slots (FFTIDs) the walker's threads occupy. Threads running at the same time hold
    /// different slots, hence different scratch slices and hardware thread IDs.
    pub front_end_threads: u32,
}

/// The scratch fields the dispatcher writes into r0 (see `sim_eu::dataport::scratch`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScratchR0 {
    /// r0.3\[3:0\]: Per Thread Scratch Space (Gen9–Gen12LP).
    pub size_code: u32,
    /// r0.5\[31:10\] of a group's first thread: the slice offset from General State Base
    /// (Gen9–Gen12LP) or CFE_STATE's Scratch Space Buffer (Xe-HPG).
    pub pointer: u64,
    /// Added to `pointer` per thread index in the group: the slice size (Gen9–Gen12LP; Xe-HPG
    /// threads find their slice through the scratch surface).
    pub stride: u64,
}

/// The scratch r0 fields and the thread slots from the front-end state (zero when none was
/// programmed). MEDIA_VFE_STATE holds the thread count minus one, CFE_STATE the count.
fn front_end(w: &Walker<'_>) -> Result<(ScratchR0, u32), GpuErrorKind> {
    let p = w.platform;
    if let Some(dw) = w.state.get(PacketId::MediaVfeState) {
        let v: MediaVfeState = unpack(p, "MEDIA_VFE_STATE", dw)?;
        let scratch = ScratchR0 {
            size_code: v.per_thread_scratch_space,
            pointer: v.scratch_space_base_pointer,
            stride: 1024 << v.per_thread_scratch_space.min(11),
        };
        return Ok((scratch, v.maximum_number_of_threads.saturating_add(1)));
    }
    if let Some(dw) = w.state.get(PacketId::CfeState) {
        let c: CfeState = unpack(p, "CFE_STATE", dw)?;
        let scratch = ScratchR0 {
            size_code: 0,
            pointer: u64::from(c.scratch_space_buffer) << 10,
            stride: 0,
        };
        return Ok((scratch, c.maximum_number_of_threads));
    }
    Ok((ScratchR0::default(), 0))
}

fn bad(detail: impl Into<String>) -> GpuErrorKind {
    GpuErrorKind::Hang(HangReason::BadCommand {
        header: 0,
        detail: detail.into(),
    })
}

fn unpack<P: Packet>(p: Platform, what: &str, dw: &[u32]) -> Result<P, GpuErrorKind> {
    P::unpack(p, dw).map_err(|e| bad(format!("{what}: {e}")))
}

fn simd_lanes(s: SimdSize) -> u32 {
    match s {
        SimdSize::Simd8 => 8,
        SimdSize::Simd16 => 16,
        SimdSize::Simd32 => 32,
    }
}

fn lane_mask(lanes: u32) -> u32 {
    if lanes >= 32 {
        u32::MAX
    } else {
        (1 << lanes) - 1
    }
}

fn bases(w: &Walker<'_>) -> Result<Bases, GpuErrorKind> {
    let p = w.platform;
    let sba = w
        .state
        .get(PacketId::StateBaseAddress)
        .ok_or_else(|| bad("walker without STATE_BASE_ADDRESS"))?;
    let s: StateBaseAddress = unpack(p, "STATE_BASE_ADDRESS", sba)?;
    let pick = |on: bool, v: u64| if on { v } else { 0 };
    let mut b = Bases {
        general: pick(
            s.general_state_base_address_modify_enable,
            s.general_state_base_address,
        ),
        surface: pick(
            s.surface_state_base_address_modify_enable,
            s.surface_state_base_address,
        ),
        dynamic: pick(
            s.dynamic_state_base_address_modify_enable,
            s.dynamic_state_base_address,
        ),
        indirect: pick(
            s.indirect_object_base_address_modify_enable,
            s.indirect_object_base_address,
        ),
        instruction: pick(
            s.instruction_base_address_modify_enable,
            s.instruction_base_address,
        ),
        bindless: pick(
            s.bindless_surface_state_base_address_modify_enable,
            s.bindless_surface_state_base_address,
        ),
        binding_tables: 0,
    };
    b.binding_tables = b.surface;
    if let Some(dw) = w.state.get(PacketId::BindingTablePoolAlloc) {
        let pool: BindingTablePoolAlloc = unpack(p, "3DSTATE_BINDING_TABLE_POOL_ALLOC", dw)?;
        // Xe-HPG has no enable bit: the pool is always in use once programmed.
        let has_enable = BindingTablePoolAlloc::LAYOUT
            .field("Binding Table Pool Enable")
            .is_some_and(|f| f.loc(p).is_some());
        if pool.binding_table_pool_enable || !has_enable {
            b.binding_tables = pool.binding_table_pool_base_address;
        }
    }
    Ok(b)
}

/// Resolves a GPGPU_WALKER or COMPUTE_WALKER.
pub fn resolve(w: &Walker<'_>) -> Result<Dispatch, GpuErrorKind> {
    let p = w.platform;
    let bases = bases(w)?;
    let g = gen_dispatch(p);
    let indirect_base = match g.indirect_base {
        IndirectBase::IndirectObject => bases.indirect,
        IndirectBase::GeneralState => bases.general,
    };
    let mut d = match w.packet {
        PacketId::GpgpuWalker => {
            let gw: GpgpuWalker = unpack(p, "GPGPU_WALKER", w.dwords)?;
            // Predication is the command streamer's: a predicated walker reaching here runs.
            if gw.indirect_parameter_enable {
                return Err(GpuErrorKind::Hang(HangReason::Unsupported {
                    packet: "GPGPU_WALKER with indirect parameters".into(),
                }));
            }
            let midl = w
                .state
                .get(PacketId::MediaInterfaceDescriptorLoad)
                .ok_or_else(|| bad("GPGPU_WALKER without MEDIA_INTERFACE_DESCRIPTOR_LOAD"))?;
            let midl: MediaInterfaceDescriptorLoad =
                unpack(p, "MEDIA_INTERFACE_DESCRIPTOR_LOAD", midl)?;
            let at = bases
                .dynamic
                .wrapping_add(u64::from(midl.interface_descriptor_data_start_address))
                .wrapping_add(32 * u64::from(gw.interface_descriptor_offset));
            let mut bytes = [0u8; 32];
            w.memory.read(at, &mut bytes)?;
            let dw: Vec<u32> = bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            let idd: InterfaceDescriptorData = unpack(p, "INTERFACE_DESCRIPTOR_DATA", &dw)?;
            let simd = simd_lanes(gw.simd_size);
            let threads = (gw.thread_width_counter_maximum + 1)
                * (gw.thread_height_counter_maximum + 1)
                * (gw.thread_depth_counter_maximum + 1);
            // Compute walks one row of threads: the last thread is both rightmost and in
            // the bottom row.
            let last_mask = gw.right_execution_mask & gw.bottom_execution_mask & lane_mask(simd);
            Dispatch {
                bases,
                kernel: 0,
                simd,
                group_start: [
                    gw.thread_group_id_starting_x,
                    gw.thread_group_id_starting_y,
                    gw.thread_group_id_starting_resume_z,
                ],
                group_end: [
                    gw.thread_group_id_x_dimension,
                    gw.thread_group_id_y_dimension,
                    gw.thread_group_id_z_dimension,
                ],
                threads_per_group: threads,
                last_mask,
                indirect: indirect_base.wrapping_add(u64::from(gw.indirect_data_start_address)),
                indirect_offset: gw.indirect_data_start_address,
                hw_ids: None,
                inline: None,
                post_sync: None,
                scratch: ScratchR0::default(),
                front_end_threads: 0,
                idd,
            }
        }
        PacketId::ComputeWalker => {
            let cw: ComputeWalker = unpack(p, "COMPUTE_WALKER", w.dwords)?;
            if cw.indirect_parameter_enable {
                return Err(GpuErrorKind::Hang(HangReason::Unsupported {
                    packet: "COMPUTE_WALKER with indirect parameters".into(),
                }));
            }
            let b = cw.body;
            let simd = simd_lanes(b.simd_size);
            let channels = match b.emit_local {
                EmitLocal::EmitNone => 0,
                EmitLocal::EmitX => 1,
                EmitLocal::EmitXy => 2,
                EmitLocal::EmitXyz => 3,
            };
            let hw_ids = (b.generate_local_id && channels > 0).then(|| HwLocalIds {
                channels,
                size: [
                    b.local_x_maximum + 1,
                    b.local_y_maximum + 1,
                    b.local_z_maximum + 1,
                ],
                order: walk_order(b.walk_order),
            });
            let post_sync =
                (b.post_sync.operation != batchbuffer::Operation::NoWrite).then_some(b.post_sync);
            Dispatch {
                bases,
                kernel: 0,
                simd,
                group_start: [
                    b.thread_group_id_starting_x,
                    b.thread_group_id_starting_y,
                    b.thread_group_id_starting_z,
                ],
                group_end: [
                    b.thread_group_id_x_dimension,
                    b.thread_group_id_y_dimension,
                    b.thread_group_id_z_dimension,
                ],
                threads_per_group: b
                    .interface_descriptor
                    .number_of_threads_in_gpgpu_thread_group,
                last_mask: b.execution_mask & lane_mask(simd),
                indirect: indirect_base.wrapping_add(u64::from(b.indirect_data_start_address)),
                indirect_offset: b.indirect_data_start_address,
                hw_ids,
                inline: b.emit_inline_parameter.then_some(b.inline_data),
                post_sync,
                scratch: ScratchR0::default(),
                front_end_threads: 0,
                idd: b.interface_descriptor,
            }
        }
        other => return Err(bad(format!("{} is not a walker", other.name()))),
    };
    if d.threads_per_group == 0 || d.threads_per_group > 1024 {
        return Err(bad(format!(
            "{} threads per thread group",
            d.threads_per_group
        )));
    }
    d.kernel = d.bases.instruction.wrapping_add(d.idd.kernel_start_pointer);
    (d.scratch, d.front_end_threads) = front_end(w)?;
    Ok(d)
}

/// Walk Order as the dimensions from fastest to slowest varying. The code's digits *abc* are the
/// ranks of x, y and z in the walk (0 = fastest), not the dimensions in walk order: "Walk 201"
/// walks y fastest, then z, then x. The two readings differ only for 120 and 201 (the other
/// four are their own inverses). Source: the hardware table NEO keeps for COMPUTE_WALKER
/// (`HwWalkOrderHelper::compatibleDimensionOrders`, value 3 = {z, x, y}, 4 = {y, z, x}), which
/// its walker encoding selects from when the hardware generates local IDs.
fn walk_order(w: WalkOrder) -> [usize; 3] {
    let ranks = match w {
        WalkOrder::Walk012 => [0, 1, 2],
        WalkOrder::Walk021 => [0, 2, 1],
        WalkOrder::Walk102 => [1, 0, 2],
        WalkOrder::Walk120 => [1, 2, 0],
        WalkOrder::Walk201 => [2, 0, 1],
        WalkOrder::Walk210 => [2, 1, 0],
    };
    let mut order = [0; 3];
    for (dim, rank) in ranks.into_iter().enumerate() {
        order[rank] = dim;
    }
    order
}

/// Bytes of shared local memory an interface descriptor's SLM size code gives a group.
pub fn slm_bytes(idd: &InterfaceDescriptorData) -> usize {
    match idd.shared_local_memory_size as u32 {
        0 => 0,
        code => 1024 << (code - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each code's walk, fastest dimension first, as NEO's hardware table lists them
    /// (`HwWalkOrderHelper::compatibleDimensionOrders`, indexed by the field's value).
    #[test]
    fn walk_order_digits_are_the_ranks_of_x_y_z() {
        let (x, y, z) = (0, 1, 2);
        let table = [
            (WalkOrder::Walk012, [x, y, z]),
            (WalkOrder::Walk021, [x, z, y]),
            (WalkOrder::Walk102, [y, x, z]),
            (WalkOrder::Walk120, [z, x, y]),
            (WalkOrder::Walk201, [y, z, x]),
            (WalkOrder::Walk210, [z, y, x]),
        ];
        for (code, want) in table {
            assert_eq!(walk_order(code), want, "{code:?}");
        }
    }
}
