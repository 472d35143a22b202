//! One dispatch: state written to the heaps (surface states, binding table, interface
//! descriptor, payload) and the walker, derived from a description.

use super::group_limits::max_threads_per_group;
use super::heap::{Batch, Heap};
use super::platform_data::{gen_data, WalkerKind};
use super::walker_math::{
    grfs_per_channel, slm_encoding, walker_math, write_local_ids, Simd, WalkerMath,
};
use super::BuildError;
use crate::codec::Packet;
use crate::layout::{write_bits, Layout, Loc};
use crate::packets::*;
use platform::Platform;

/// Bytes in one GRF, the unit payload lengths are counted in.
const GRF_BYTES: usize = platform::GRF_BYTES as usize;
/// Dwords of COMPUTE_WALKER inline data.
const INLINE_DWORDS: usize = 8;
/// Binding-table entries a dispatch may use: indices 240-255 are reserved for special
/// surfaces (SLM, stateless).
pub const MAX_BINDING_TABLE_ENTRIES: usize = 240;
/// Largest walker payload (cross-thread plus per-thread data): Indirect Data Length is 17 bits.
pub const MAX_INDIRECT_DATA_BYTES: u32 = (1 << 17) - 1;

/// Where each work-item's local ID comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocalIds {
    /// The kernel reads no local IDs.
    None,
    /// The kernel reads no local IDs, yet each thread's payload has one per-thread GRF before
    /// its cross-thread data (patch-token THREAD_PAYLOAD UnusedPerThreadConstantPresent: IGC
    /// places the arguments after it, and NEO adds one GRF to the per-thread payload size for
    /// it). The runtime writes it as zeros.
    UnusedGrf,
    /// The runtime writes them as per-thread payload (x, then y, then z blocks).
    Runtime {
        /// Channels the kernel reads (1 = x, 2 = x and y, 3 = x, y and z).
        channels: u32,
        /// Order the work items are laid over threads and lanes (the kernel's required
        /// walk order; [`WalkOrder::Walk012`] when it names none).
        walk_order: WalkOrder,
    },
    /// Xe-HPG generates them (COMPUTE_WALKER Generate Local ID, Emit Local, Walk Order).
    Hardware {
        /// Channels to emit (1–3).
        channels: u32,
        /// Dimension order the hardware walks.
        walk_order: WalkOrder,
    },
}

/// The granule of INTERFACE_DESCRIPTOR_DATA's Kernel Start Pointer: the field holds address
/// bits 6 and up, so a thread starts at a multiple of 64 bytes.
pub const KERNEL_START_GRANULE: u64 = 64;

/// What to dispatch.
#[derive(Debug, Clone, Copy)]
pub struct DispatchDesc<'a> {
    /// Kernel offset from the Instruction Base Address (a multiple of
    /// [`KERNEL_START_GRANULE`]).
    pub kernel_offset: u64,
    /// SIMD width: `intel_reqd_sub_group_size` when given, else the binary's.
    pub simd: Simd,
    /// Work-group size (each ≥ 1, product ≤ 1024).
    pub local_size: [u32; 3],
    /// Number of work-groups per dimension.
    pub group_count: [u32; 3],
    /// First work-group ID per dimension.
    pub group_start: [u32; 3],
    /// Cross-thread payload (kernel arguments, implicit args), dwords.
    pub cross_thread: &'a [u32],
    /// Local-ID delivery.
    pub local_ids: LocalIds,
    /// Xe-HPG: pass the first 8 cross-thread dwords as COMPUTE_WALKER inline data.
    pub inline_data: bool,
    /// Shared local memory per group in bytes.
    pub slm_bytes: u32,
    /// Named barriers the kernel uses (0 or 1 for OpenCL work-group barriers).
    pub barriers: u32,
    /// Surfaces, bound at binding table index 0.. in order.
    pub surfaces: &'a [RenderSurfaceState],
    /// The kernel's sampler states, if it samples.
    pub samplers: Option<SamplerTable<'a>>,
}

/// A kernel's dynamic state for the sampler: `heap` (a whole number of DWords) holds `count`
/// SAMPLER_STATEs from `array_offset` and the border colors their Border Color Pointers
/// name, relative to the start of `heap` (as an ocloc binary's dynamic state heap has them).
/// The builder copies it into the dynamic state heap and makes those pointers relative to
/// Dynamic State Base Address.
#[derive(Debug, Clone, Copy)]
pub struct SamplerTable<'a> {
    pub heap: &'a [u32],
    pub array_offset: u32,
    pub count: u32,
}

/// Bytes of one SAMPLER_STATE.
const SAMPLER_STATE_BYTES: u32 = 16;
/// The most samplers an interface descriptor's Sampler Count describes.
pub const MAX_SAMPLERS: u32 = 16;

/// Copies `t` into the dynamic state heap; returns the Sampler State Pointer and Sampler Count.
fn write_samplers(
    p: Platform,
    heap: &mut Heap,
    t: &SamplerTable,
) -> Result<(u32, SamplerCount), BuildError> {
    let end = u64::from(t.array_offset) + u64::from(t.count) * u64::from(SAMPLER_STATE_BYTES);
    if t.count == 0
        || t.count > MAX_SAMPLERS
        || !t.array_offset.is_multiple_of(32)
        || end > t.heap.len() as u64 * 4
    {
        return Err(BuildError::Unsupported(
            "sampler table: 1..=16 samplers, 32-byte aligned, inside its heap",
        ));
    }
    let (at, mem) = heap.alloc(t.heap.len(), 64)?;
    mem.copy_from_slice(t.heap);
    for i in 0..t.count as usize {
        let dw = t.array_offset as usize / 4 + 4 * i;
        let mut s = SamplerState::unpack(p, &mem[dw..dw + 4])?;
        s.border_color_pointer = s.border_color_pointer.wrapping_add(at);
        s.pack(p, &mut mem[dw..dw + 4])?;
    }
    let count = match t.count {
        1..=4 => SamplerCount::Between1And4SamplersUsed,
        5..=8 => SamplerCount::Between5And8SamplersUsed,
        9..=12 => SamplerCount::Between9And12SamplersUsed,
        _ => SamplerCount::Between13And16SamplersUsed,
    };
    Ok((at + t.array_offset, count))
}

/// The caller's state heaps, each at a fixed GPU address.
#[derive(Debug)]
pub struct Heaps<'a> {
    /// Surface states and binding tables (Surface State Base Address).
    pub surface: Heap<'a>,
    /// Interface descriptors (Dynamic State Base Address).
    pub dynamic: Heap<'a>,
    /// Walker payload (Indirect Object Base Address).
    pub indirect: Heap<'a>,
}

/// Dwords of the longest pre-packed dispatch (COMPUTE_WALKER is 39).
const MAX_PREPARED: usize = 48;

/// A dispatch whose state is already in the heaps and whose commands are already packed:
/// emitting it copies the dwords (pre-baked state), so repeated dispatches cost a copy.
/// It also says where its changeable parts went (group range, cross-thread data, surface
/// states), so a caller that keeps the heaps and batch can change those in place.
#[derive(Debug, Clone, Copy)]
pub struct Prepared {
    words: [u32; MAX_PREPARED],
    len: usize,
    /// Thread Group ID X/Y/Z Dimension, located inside `words`.
    group_count_at: [Loc; 3],
    /// Thread Group ID Starting X/Y/Z, located inside `words`.
    group_start_at: [Loc; 3],
    /// COMPUTE_WALKER Inline Data's first dword inside `words`, when the walker carries it.
    inline_at: Option<usize>,
    /// Cross-thread dwords carried inline, then in the indirect heap.
    cross_thread_split: (usize, usize),
    /// Indirect-heap offset of the payload (its cross-thread part comes first).
    payload_offset: u32,
    /// Surface-heap offset of the first surface state; the others follow every
    /// [`SURFACE_STATE_STRIDE`] bytes.
    surface_states_at: u32,
    surfaces: usize,
}

/// Bytes between consecutive surface states of one dispatch (16 dwords, 64-byte aligned).
pub const SURFACE_STATE_STRIDE: u32 = 64;

impl Prepared {
    /// The packed commands: on Gen9–Gen12LP MEDIA_STATE_FLUSH, MEDIA_INTERFACE_DESCRIPTOR_LOAD,
    /// GPGPU_WALKER, MEDIA_STATE_FLUSH; on Xe-HPG COMPUTE_WALKER.
    pub fn commands(&self) -> &[u32] {
        &self.words[..self.len]
    }

    /// Changes the group counts of the packed walker in place.
    pub fn set_group_count(&mut self, count: [u32; 3]) {
        for (loc, v) in self.group_count_at.iter().zip(count) {
            write_bits(&mut self.words, *loc, v as u64);
        }
    }

    /// Changes the first group IDs of the packed walker in place.
    pub fn set_group_start(&mut self, start: [u32; 3]) {
        for (loc, v) in self.group_start_at.iter().zip(start) {
            write_bits(&mut self.words, *loc, v as u64);
        }
    }

    /// Splits cross-thread data of the length this dispatch was prepared with into the part
    /// the walker carries inline and the part in the indirect heap (at
    /// [`Prepared::payload_offset`]). `None` when the length differs.
    pub fn split_cross_thread<'a>(
        &self,
        cross_thread: &'a [u32],
    ) -> Option<(&'a [u32], &'a [u32])> {
        let (inline, indirect) = self.cross_thread_split;
        (cross_thread.len() == inline + indirect).then(|| cross_thread.split_at(inline))
    }

    /// Replaces the walker's inline data (the first part of [`Prepared::split_cross_thread`]);
    /// the dwords after `data` are zero. False when the walker carries none or `data` is
    /// longer than it.
    pub fn set_inline_data(&mut self, data: &[u32]) -> bool {
        match self.inline_at {
            Some(at) if data.len() <= INLINE_DWORDS => {
                let dst = &mut self.words[at..at + INLINE_DWORDS];
                dst[..data.len()].copy_from_slice(data);
                dst[data.len()..].fill(0);
                true
            }
            _ => data.is_empty(),
        }
    }

    /// Where the payload is in the indirect heap (offset from its base).
    pub fn payload_offset(&self) -> u32 {
        self.payload_offset
    }

    /// Where surface `i`'s state is in the surface heap (offset from its base).
    pub fn surface_state_offset(&self, i: usize) -> Option<u32> {
        (i < self.surfaces).then(|| self.surface_states_at + i as u32 * SURFACE_STATE_STRIDE)
    }

    /// Appends the dispatch's commands to `batch`.
    #[inline]
    pub fn emit(&self, batch: &mut Batch) -> Result<(), BuildError> {
        batch.extend(self.commands())
    }
}

/// Where a walker field sits inside the packed words, following nested structs by name.
fn locate(p: Platform, layout: &'static Layout, path: &[&str], base: u16) -> Option<Loc> {
    let (first, rest) = path.split_first()?;
    let f = layout.field(first)?;
    let loc = f.loc(p)?;
    match (rest.is_empty(), f.nested) {
        (true, _) => Some(Loc::new(base + loc.dw, loc.lo, loc.hi)),
        (false, Some(n)) => locate(p, n, rest, base + loc.dw),
        (false, None) => None,
    }
}

/// Writes the dispatch's state into the heaps and derives its walker.
pub fn prepare(p: Platform, heaps: &mut Heaps, d: &DispatchDesc) -> Result<Prepared, BuildError> {
    let g = gen_data(p);
    let math = walker_math(d.simd, d.local_size, g.full_mask_is_simd_width)?;
    let max = max_threads_per_group(p);
    if math.threads > max {
        return Err(BuildError::GroupTooLarge {
            local: d.local_size,
            simd: d.simd.lanes(),
            threads: math.threads,
            max,
            platform: p,
        });
    }
    let bt = write_binding_table(p, &mut heaps.surface, d.surfaces)?;
    let hw_ids = match (d.local_ids, g.walker) {
        (LocalIds::Hardware { .. }, WalkerKind::Gpgpu) => {
            return Err(BuildError::Unsupported(
                "hardware local IDs need COMPUTE_WALKER (Xe-HPG)",
            ))
        }
        (
            LocalIds::Hardware {
                channels,
                walk_order,
            },
            _,
        ) => Some((check_channels(channels)?, walk_order)),
        _ => None,
    };
    let inline = d.inline_data && g.walker == WalkerKind::Compute;
    let (inline_part, indirect_ct) = if inline {
        d.cross_thread
            .split_at(d.cross_thread.len().min(INLINE_DWORDS))
    } else {
        (&[][..], d.cross_thread)
    };
    let payload = write_payload(&mut heaps.indirect, d, &math, indirect_ct, g.walker)?;
    let (sampler_state_pointer, sampler_count) = match &d.samplers {
        Some(t) => write_samplers(p, &mut heaps.dynamic, t)?,
        None => (0, SamplerCount::NoSamplersUsed),
    };
    let idd = InterfaceDescriptorData {
        sampler_state_pointer,
        sampler_count,
        kernel_start_pointer: d.kernel_offset,
        denorm_mode: DenormMode::Setbykernel,
        binding_table_pointer: bt.offset,
        binding_table_entry_count: bt.count.min(31),
        number_of_threads_in_gpgpu_thread_group: math.threads,
        shared_local_memory_size: slm_size(slm_encoding(d.slm_bytes)?),
        barrier_enable: d.barriers > 0,
        number_of_barriers: barriers(p, d.barriers)?,
        cross_thread_constant_data_read_length: payload.cross_thread_grfs,
        constant_urb_entry_read_length: payload.per_thread_grfs,
        ..Default::default()
    };
    let idd = clear_absent_idd_fields(p, idd);
    let mut words = [0u32; MAX_PREPARED];
    let mut cmds = Batch::new(&mut words);
    let dims = [
        "Thread Group ID X Dimension",
        "Thread Group ID Y Dimension",
        "Thread Group ID Z Dimension",
    ];
    let (group_count_at, group_start_at, inline_at) = match g.walker {
        WalkerKind::Gpgpu => {
            let (at, mem) = heaps.dynamic.alloc(8, 64)?;
            idd.pack(p, mem)?;
            cmds.emit(p, &MediaStateFlush::default())?;
            cmds.emit(
                p,
                &MediaInterfaceDescriptorLoad {
                    interface_descriptor_total_length: 32,
                    interface_descriptor_data_start_address: at,
                },
            )?;
            let walker_at = cmds.len() as u16;
            cmds.emit(
                p,
                &GpgpuWalker {
                    indirect_data_length: payload.bytes,
                    indirect_data_start_address: payload.offset,
                    thread_width_counter_maximum: math.thread_width_counter_max,
                    simd_size: d.simd.field(),
                    thread_group_id_starting_x: d.group_start[0],
                    thread_group_id_starting_y: d.group_start[1],
                    thread_group_id_starting_resume_z: d.group_start[2],
                    thread_group_id_x_dimension: d.group_count[0],
                    thread_group_id_y_dimension: d.group_count[1],
                    thread_group_id_z_dimension: d.group_count[2],
                    right_execution_mask: math.right_mask,
                    bottom_execution_mask: math.bottom_mask,
                    ..Default::default()
                },
            )?;
            cmds.emit(p, &MediaStateFlush::default())?;
            let at = |d: &str| locate(p, GpgpuWalker::LAYOUT, &[d], walker_at);
            (
                dims.map(at),
                [
                    "Thread Group ID Starting X",
                    "Thread Group ID Starting Y",
                    "Thread Group ID Starting/Resume Z",
                ]
                .map(at),
                None,
            )
        }
        WalkerKind::Compute => {
            let mut inline_data = [0u32; INLINE_DWORDS];
            inline_data[..inline_part.len()].copy_from_slice(inline_part);
            let (emit_local, walk_order, local_max) = match hw_ids {
                Some((channels, order)) => {
                    (emit_local(channels), order, d.local_size.map(|n| n - 1))
                }
                None => (EmitLocal::EmitNone, WalkOrder::Walk012, [0; 3]),
            };
            let simd = d.simd.field();
            cmds.emit(
                p,
                &ComputeWalker {
                    body: ComputeWalkerBody {
                        indirect_data_length: payload.bytes,
                        indirect_data_start_address: payload.offset,
                        message_simd: message_simd(simd),
                        walk_order,
                        emit_inline_parameter: inline,
                        emit_local,
                        generate_local_id: hw_ids.is_some(),
                        simd_size: simd,
                        execution_mask: math.right_mask,
                        local_x_maximum: local_max[0],
                        local_y_maximum: local_max[1],
                        local_z_maximum: local_max[2],
                        thread_group_id_x_dimension: d.group_count[0],
                        thread_group_id_y_dimension: d.group_count[1],
                        thread_group_id_z_dimension: d.group_count[2],
                        thread_group_id_starting_x: d.group_start[0],
                        thread_group_id_starting_y: d.group_start[1],
                        thread_group_id_starting_z: d.group_start[2],
                        interface_descriptor: idd,
                        inline_data,
                        ..Default::default()
                    },
                    ..Default::default()
                },
            )?;
            let at = |d: &str| locate(p, ComputeWalker::LAYOUT, &["body", d], 0);
            let inline_at = match inline {
                true => Some(
                    at("Inline Data")
                        .filter(|l| l.lo == 0 && l.width() == 32 * INLINE_DWORDS as u32)
                        .ok_or(BuildError::Unsupported(
                            "COMPUTE_WALKER without inline data",
                        ))?
                        .dw as usize,
                ),
                false => None,
            };
            (
                dims.map(at),
                [
                    "Thread Group ID Starting X",
                    "Thread Group ID Starting Y",
                    "Thread Group ID Starting Z",
                ]
                .map(at),
                inline_at,
            )
        }
    };
    let len = cmds.len();
    let found = |locs: [Option<Loc>; 3]| -> Result<[Loc; 3], BuildError> {
        let missing = BuildError::Unsupported("walker without group dimensions");
        Ok([
            locs[0].ok_or(missing.clone())?,
            locs[1].ok_or(missing.clone())?,
            locs[2].ok_or(missing)?,
        ])
    };
    Ok(Prepared {
        words,
        len,
        group_count_at: found(group_count_at)?,
        group_start_at: found(group_start_at)?,
        inline_at,
        cross_thread_split: (inline_part.len(), indirect_ct.len()),
        payload_offset: payload.offset,
        surface_states_at: bt.states_at,
        surfaces: d.surfaces.len(),
    })
}

fn check_channels(channels: u32) -> Result<u32, BuildError> {
    if (1..=3).contains(&channels) {
        Ok(channels)
    } else {
        Err(BuildError::BadLocalIdChannels(channels))
    }
}

fn emit_local(channels: u32) -> EmitLocal {
    match channels {
        1 => EmitLocal::EmitX,
        2 => EmitLocal::EmitXy,
        _ => EmitLocal::EmitXyz,
    }
}

/// Xe-HPG Message SIMD follows the dispatch SIMD (NEO copies one into the other).
fn message_simd(s: SimdSize) -> MessageSimd {
    match s {
        SimdSize::Simd8 => MessageSimd::Simd8,
        SimdSize::Simd16 => MessageSimd::Simd16,
        SimdSize::Simd32 => MessageSimd::Simd32,
    }
}

fn slm_size(code: u32) -> SharedLocalMemorySize {
    SharedLocalMemorySize::VARIANTS
        .iter()
        .copied()
        .find(|v| *v as u32 == code)
        .unwrap_or(SharedLocalMemorySize::Encodes0k)
}

/// Xe-HPG counts barriers (Number Of Barriers); earlier generations only enable one.
fn barriers(p: Platform, n: u32) -> Result<NumberOfBarriers, BuildError> {
    let has_count = InterfaceDescriptorData::LAYOUT
        .field("Number Of Barriers")
        .is_some_and(|f| f.loc(p).is_some());
    match (n, has_count) {
        (0, _) => Ok(NumberOfBarriers::None),
        (1, true) => Ok(NumberOfBarriers::B1),
        (1, false) => Ok(NumberOfBarriers::None),
        (other, _) => Err(BuildError::Unsupported(if other > 1 {
            "more than one barrier"
        } else {
            "barrier count"
        })),
    }
}

/// Clears descriptor fields the generation lacks, so one description serves every generation
/// (`Barrier Enable` before Xe-HPG, payload read lengths that Xe-HPG dropped).
fn clear_absent_idd_fields(
    p: Platform,
    mut idd: InterfaceDescriptorData,
) -> InterfaceDescriptorData {
    let has = |name: &str| {
        InterfaceDescriptorData::LAYOUT
            .field(name)
            .is_some_and(|f| f.loc(p).is_some())
    };
    if !has("Barrier Enable") {
        idd.barrier_enable = false;
    }
    if !has("Cross-Thread Constant Data Read Length") {
        idd.cross_thread_constant_data_read_length = 0;
    }
    if !has("Constant URB Entry Read Length") {
        idd.constant_urb_entry_read_length = 0;
    }
    if !has("Denorm Mode") {
        idd.denorm_mode = DenormMode::Ftz;
    }
    idd
}

struct BindingTable {
    offset: u32,
    count: u32,
    /// The first surface state's offset.
    states_at: u32,
}

/// Surface states (64-byte aligned) then the binding table (64-byte aligned) in the surface
/// heap; entries hold surface state offsets from Surface State Base Address.
fn write_binding_table(
    p: Platform,
    heap: &mut Heap,
    surfaces: &[RenderSurfaceState],
) -> Result<BindingTable, BuildError> {
    if surfaces.is_empty() {
        return Ok(BindingTable {
            offset: 0,
            count: 0,
            states_at: 0,
        });
    }
    if surfaces.len() > MAX_BINDING_TABLE_ENTRIES {
        return Err(BuildError::Unsupported(
            "more than 240 binding table entries",
        ));
    }
    let mut offsets = [0u32; MAX_BINDING_TABLE_ENTRIES];
    let stride = SURFACE_STATE_STRIDE as usize;
    for (s, slot) in surfaces.iter().zip(offsets.iter_mut()) {
        let (at, mem) = heap.alloc(stride / 4, stride)?;
        s.pack(p, mem)?;
        *slot = at;
    }
    // Consecutive allocations of a whole aligned unit are adjacent: one offset and the
    // stride locate every state.
    let states_at = offsets[0];
    let (bt, mem) = heap.alloc(surfaces.len(), 64)?;
    for (i, &off) in offsets[..surfaces.len()].iter().enumerate() {
        BindingTableState {
            surface_state_pointer: off,
        }
        .pack(p, &mut mem[i..])?;
    }
    Ok(BindingTable {
        offset: bt,
        count: surfaces.len() as u32,
        states_at,
    })
}

struct Payload {
    offset: u32,
    bytes: u32,
    cross_thread_grfs: u32,
    per_thread_grfs: u32,
}

/// Cross-thread data (padded to whole GRFs) followed by one per-thread block per thread.
fn write_payload(
    heap: &mut Heap,
    d: &DispatchDesc,
    math: &WalkerMath,
    cross_thread: &[u32],
    walker: WalkerKind,
) -> Result<Payload, BuildError> {
    let grf_dw = GRF_BYTES / 4;
    let ct_grfs = cross_thread.len().div_ceil(grf_dw);
    let (channels, order) = match d.local_ids {
        LocalIds::Runtime {
            channels,
            walk_order,
        } => (check_channels(channels)?, walk_order),
        _ => (0, WalkOrder::Walk012),
    };
    let mut pt_grfs = match d.local_ids {
        LocalIds::UnusedGrf => 1,
        _ => (channels * grfs_per_channel(d.simd)) as usize,
    };
    // GPGPU_WALKER threads with cross-thread data get at least one GRF of per-thread data
    // (Constant URB Entry Read Length ≥ 1): IGC places the arguments after it even when the
    // kernel reads no local IDs, and NEO's Gen9–Gen12LP interface descriptor sets the length
    // to max(per-thread GRFs, 1) for it (zebin carries no flag for this GRF).
    if walker == WalkerKind::Gpgpu && ct_grfs > 0 {
        pt_grfs = pt_grfs.max(1);
    }
    let pt_dw = pt_grfs * grf_dw;
    let total_dw = ct_grfs * grf_dw + pt_dw * math.threads as usize;
    if total_dw == 0 {
        return Ok(Payload {
            offset: 0,
            bytes: 0,
            cross_thread_grfs: 0,
            per_thread_grfs: 0,
        });
    }
    let bytes = u32::try_from(total_dw * 4).unwrap_or(u32::MAX);
    if bytes > MAX_INDIRECT_DATA_BYTES {
        return Err(BuildError::PayloadTooLarge(bytes));
    }
    let (offset, mem) = heap.alloc(total_dw, 64)?;
    let (ct, pt) = mem.split_at_mut(ct_grfs * grf_dw);
    ct[..cross_thread.len()].copy_from_slice(cross_thread);
    if channels > 0 {
        for (t, block) in pt.chunks_exact_mut(pt_dw).enumerate() {
            write_local_ids(d.simd, d.local_size, order, t as u32, channels, block);
        }
    } else {
        pt.fill(0);
    }
    Ok(Payload {
        offset,
        bytes,
        cross_thread_grfs: ct_grfs as u32,
        per_thread_grfs: pt_grfs as u32,
    })
}
