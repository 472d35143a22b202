//! Gives the tokens of one patch-token kernel their meaning.

use std::collections::BTreeMap;

use super::function_tables;
use super::raw::{RawKernel, RawToken};
use super::tokens::{self as t, data as dp};
use crate::program::bytes::{c_string, Bytes};
use crate::program::error::{invalid, Result};
use crate::program::hw::{grf_padded, GRF_BYTES, SAMPLER_STATE_SIZE};
use crate::program::kernel::*;

/// Per-argument facts gathered while walking the tokens (they may come in any order).
#[derive(Default)]
struct ArgParts {
    pieces: Vec<ValuePiece>,
    buffer: Option<(AddressSpace, Option<Slot>, Option<u32>)>,
    buffer_offset: Option<Slot>,
    local: Option<(Slot, u32)>,
    image: Option<(ImageType, bool, u32)>,
    sampler: Option<u32>,
    params: Vec<(ArgParam, Slot)>,
}

pub fn kernel(raw: &RawKernel<'_>) -> Result<Kernel> {
    let mut args: BTreeMap<u32, ArgParts> = BTreeMap::new();
    let mut implicit = Vec::new();
    let mut arg_info = Vec::new();
    let mut k = Kernel {
        name: raw.name.clone(),
        isa: raw.kernel_heap.to_vec(),
        isa_unpadded_size: raw.header.kernel_unpadded_size,
        simd_size: 0,
        required_subgroup_size: 0,
        required_work_group_size: None,
        attributes: String::new(),
        grf_count: None,
        barrier_count: 0,
        slm_size: 0,
        memory: MemoryNeeds::default(),
        args: Vec::new(),
        implicit: Vec::new(),
        cross_thread_size: 0,
        per_thread: PerThreadPayload::default(),
        binding_table: Vec::new(),
        surface_state_heap: raw.surface_state_heap.to_vec(),
        dynamic_state_heap: raw.dynamic_state_heap.to_vec(),
        sampler_array: None,
        arg_info: Vec::new(),
        isa_relocations: Vec::new(),
        driver_surfaces: Vec::new(),
        printf_strings: Vec::new(),
        source_lines: Default::default(),
    };
    let mut thread_payload = None;
    let mut sampler_array_offset = 0;
    for tok in &raw.tokens {
        match tok.id {
            t::EXECUTION_ENVIRONMENT => {
                let wg = [tok.field(0)?, tok.field(1)?, tok.field(2)?];
                k.required_work_group_size = (wg != [0, 0, 0]).then_some(wg);
                k.simd_size = tok.field(3)?;
                k.barrier_count = tok.field(5)?;
                let grf = tok.field(20)?;
                k.grf_count = (grf != 0).then_some(grf);
            }
            t::THREAD_PAYLOAD => thread_payload = Some(tok),
            t::BINDING_TABLE_STATE => k.binding_table = binding_table(tok, raw.surface_state_heap)?,
            t::SAMPLER_STATE_ARRAY => {
                // { offset, count, border color offset }
                sampler_array_offset = tok.field(0)?;
                let count = tok.field(1)?;
                k.sampler_array = (count > 0).then_some((sampler_array_offset, count));
            }
            t::ALLOCATE_LOCAL_SURFACE => k.slm_size = tok.field(1)?,
            t::MEDIA_VFE_STATE => k.memory.scratch = tok.field(1)?,
            t::MEDIA_VFE_STATE_SLOT1 => k.memory.scratch_slot1 = tok.field(1)?,
            t::DATA_PARAMETER_STREAM => k.cross_thread_size = tok.field(0)?,
            // { surface state heap offset, data param offset, data param size, bytes per
            // thread or lane, per-lane flag }
            t::ALLOCATE_STATELESS_PRIVATE_MEMORY => {
                k.driver_surfaces.push(DriverSurface {
                    kind: DriverSurfaceKind::Private,
                    ssh_offset: tok.field(0)?,
                });
                push_slot(
                    &mut implicit,
                    ImplicitKind::PrivateBase,
                    tok.field(1)?,
                    tok.field(2)?,
                );
                k.memory.private = tok.field(3)?;
                // Per-lane or per-thread only means something when there is private memory.
                k.memory.private_is_simt = k.memory.private != 0 && tok.field(4)? != 0;
            }
            // { printf surface index, surface state heap offset, data param offset, size }
            t::ALLOCATE_STATELESS_PRINTF_SURFACE => {
                k.driver_surfaces.push(DriverSurface {
                    kind: DriverSurfaceKind::Printf,
                    ssh_offset: tok.field(1)?,
                });
                push_slot(
                    &mut implicit,
                    ImplicitKind::PrintfBuffer,
                    tok.field(2)?,
                    tok.field(3)?,
                )
            }
            // { index, string size } then the string: printf's strings.
            t::STRING => {
                let len = tok.field(1)?;
                let text = Bytes::new(tok.body, tok.offset + t::ITEM_HEADER_SIZE).slice(
                    8,
                    len as usize,
                    &|| t::name(tok.id),
                )?;
                k.printf_strings.push((tok.field(0)?, text.data.to_vec()));
            }
            // { buffer index, surface state heap offset, data param offset, data param size }:
            // the segment's base in cross-thread data and its surface for stateful access.
            t::ALLOCATE_STATELESS_GLOBAL_MEMORY_SURFACE_WITH_INITIALIZATION
            | t::ALLOCATE_STATELESS_CONSTANT_MEMORY_SURFACE_WITH_INITIALIZATION => {
                let (kind, surface) =
                    if tok.id == t::ALLOCATE_STATELESS_GLOBAL_MEMORY_SURFACE_WITH_INITIALIZATION {
                        (ImplicitKind::GlobalBase, DriverSurfaceKind::Global)
                    } else {
                        (ImplicitKind::ConstantBase, DriverSurfaceKind::Constant)
                    };
                push_slot(&mut implicit, kind, tok.field(2)?, tok.field(3)?);
                k.driver_surfaces.push(DriverSurface {
                    kind: surface,
                    ssh_offset: tok.field(1)?,
                });
            }
            t::ALLOCATE_SYNC_BUFFER => push_slot(
                &mut implicit,
                ImplicitKind::SyncBuffer,
                tok.field(1)?,
                tok.field(2)?,
            ),
            t::KERNEL_ATTRIBUTES_INFO => attributes(tok, &mut k)?,
            t::KERNEL_ARGUMENT_INFO => arg_info.push(argument_info(tok)?),
            t::GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT => {
                let a = args.entry(tok.field(0)?).or_default();
                a.buffer = Some((AddressSpace::Global, None, Some(tok.field(1)?)));
            }
            t::STATELESS_GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT
            | t::STATELESS_CONSTANT_MEMORY_OBJECT_KERNEL_ARGUMENT => {
                let space = if tok.id == t::STATELESS_GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT {
                    AddressSpace::Global
                } else {
                    AddressSpace::Constant
                };
                let slot = Slot {
                    offset: tok.field(2)?,
                    size: tok.field(3)?,
                };
                args.entry(tok.field(0)?).or_default().buffer =
                    Some((space, Some(slot), Some(tok.field(1)?)));
            }
            t::IMAGE_MEMORY_OBJECT_KERNEL_ARGUMENT => {
                args.entry(tok.field(0)?).or_default().image =
                    Some((image_type(tok.field(1)?), tok.field(5)? != 0, tok.field(2)?));
            }
            t::SAMPLER_KERNEL_ARGUMENT => {
                args.entry(tok.field(0)?).or_default().sampler = Some(tok.field(2)?);
            }
            t::DATA_PARAMETER_BUFFER => data_parameter(tok, &mut args, &mut implicit)?,
            // Whether each symbol is defined is known once every kernel's symbol table is read.
            t::PROGRAM_RELOCATION_TABLE => {
                for r in function_tables::relocations(tok)? {
                    k.isa_relocations.push(IsaRelocation {
                        offset: u64::from(r.offset),
                        kind: RelocKind::from_type(r.r_type),
                        symbol: r.symbol,
                        segment: None,
                        symbol_offset: 0,
                        addend: 0,
                        defined: false,
                    });
                }
            }
            _ => {}
        }
    }
    if !matches!(k.simd_size, 8 | 16 | 32) {
        return Err(invalid(
            format!("execution environment of kernel `{}`", k.name),
            raw.offset,
            format!(
                "SIMD size {} (expected 8, 16 or 32; is the token missing?)",
                k.simd_size
            ),
        ));
    }
    if let Some(tp) = thread_payload {
        k.per_thread = per_thread(tp, k.simd_size)?;
    }
    k.args = finish_args(args, &k, sampler_array_offset, raw.offset)?;
    implicit.sort();
    k.implicit = implicit;
    arg_info.sort_by_key(|a: &ArgInfo| a.index);
    k.arg_info = arg_info;
    Ok(k)
}

fn push_slot(implicit: &mut Vec<Implicit>, kind: ImplicitKind, offset: u32, size: u32) {
    implicit.push(Implicit {
        kind,
        dim: 0,
        offset,
        size,
    });
}

fn binding_table(tok: &RawToken<'_>, ssh: &[u8]) -> Result<Vec<BindingTableEntry>> {
    let (offset, count) = (tok.field(0)?, tok.field(1)?);
    let heap = Bytes::new(ssh, 0);
    let what = || format!("binding table at SSH offset {offset:#x} with {count} entries");
    let table = heap.slice(offset as usize, count as usize * 4, &what)?;
    (0..count)
        .map(|i| {
            Ok(BindingTableEntry {
                index: i,
                ssh_offset: table.u32_at(i as usize * 4, &what)?,
            })
        })
        .collect()
}

fn data_parameter(
    tok: &RawToken<'_>,
    args: &mut BTreeMap<u32, ArgParts>,
    implicit: &mut Vec<Implicit>,
) -> Result<()> {
    let kind = tok.field(0)?;
    let arg = tok.field(1)?;
    let slot = Slot {
        offset: tok.field(2)?,
        size: tok.field(3)?,
    };
    let source_offset = tok.field(4)?;
    let implicit_kind = match kind {
        dp::LOCAL_WORK_SIZE => Some(ImplicitKind::LocalSize),
        dp::GLOBAL_WORK_SIZE => Some(ImplicitKind::GlobalSize),
        dp::NUM_WORK_GROUPS => Some(ImplicitKind::NumGroups),
        dp::WORK_DIMENSIONS => Some(ImplicitKind::WorkDim),
        dp::GLOBAL_WORK_OFFSET => Some(ImplicitKind::GlobalOffset),
        dp::ENQUEUED_LOCAL_WORK_SIZE => Some(ImplicitKind::EnqueuedLocalSize),
        dp::MAX_WORKGROUP_SIZE => Some(ImplicitKind::MaxWorkGroupSize),
        dp::PREFERRED_WORKGROUP_MULTIPLE => Some(ImplicitKind::PreferredWorkGroupMultiple),
        dp::SIMD_SIZE => Some(ImplicitKind::SimdSize),
        dp::IMPL_ARG_BUFFER => Some(ImplicitKind::ImplicitArgBuffer),
        _ => None,
    };
    if let Some(kind) = implicit_kind {
        if source_offset % 4 != 0 || source_offset > 8 {
            return Err(invalid(
                t::name(tok.id),
                tok.offset,
                format!("SourceOffset {source_offset} is not a dimension (0, 4 or 8)"),
            ));
        }
        implicit.push(Implicit {
            kind,
            dim: (source_offset / 4) as u8,
            offset: slot.offset,
            size: slot.size,
        });
        return Ok(());
    }
    let param = match kind {
        dp::IMAGE_WIDTH => Some(ArgParam::ImageWidth),
        dp::IMAGE_HEIGHT => Some(ArgParam::ImageHeight),
        dp::IMAGE_DEPTH => Some(ArgParam::ImageDepth),
        dp::IMAGE_CHANNEL_DATA_TYPE => Some(ArgParam::ImageChannelDataType),
        dp::IMAGE_CHANNEL_ORDER => Some(ArgParam::ImageChannelOrder),
        dp::IMAGE_ARRAY_SIZE => Some(ArgParam::ImageArraySize),
        dp::IMAGE_NUM_SAMPLES => Some(ArgParam::ImageNumSamples),
        dp::IMAGE_NUM_MIP_LEVELS => Some(ArgParam::ImageNumMipLevels),
        dp::FLAT_IMAGE_BASEOFFSET => Some(ArgParam::FlatImageBaseOffset),
        dp::FLAT_IMAGE_WIDTH => Some(ArgParam::FlatImageWidth),
        dp::FLAT_IMAGE_HEIGHT => Some(ArgParam::FlatImageHeight),
        dp::FLAT_IMAGE_PITCH => Some(ArgParam::FlatImagePitch),
        dp::SAMPLER_ADDRESS_MODE => Some(ArgParam::SamplerAddressMode),
        dp::SAMPLER_NORMALIZED_COORDS => Some(ArgParam::SamplerNormalizedCoords),
        dp::SAMPLER_COORDINATE_SNAP_WA_REQUIRED => Some(ArgParam::SamplerSnapWa),
        _ => None,
    };
    if let Some(p) = param {
        args.entry(arg).or_default().params.push((p, slot));
        return Ok(());
    }
    match kind {
        dp::KERNEL_ARGUMENT => args.entry(arg).or_default().pieces.push(ValuePiece {
            offset: slot.offset,
            size: slot.size,
            source_offset,
        }),
        dp::SUM_OF_LOCAL_MEMORY_OBJECT_ARGUMENT_SIZES => {
            args.entry(arg).or_default().local = Some((slot, source_offset))
        }
        dp::BUFFER_OFFSET => args.entry(arg).or_default().buffer_offset = Some(slot),
        // Values the driver never supplies on these platforms (VME, device enqueue, stage-in).
        _ => {}
    }
    Ok(())
}

fn finish_args(
    args: BTreeMap<u32, ArgParts>,
    k: &Kernel,
    sampler_array_offset: u32,
    at: usize,
) -> Result<Vec<KernelArg>> {
    let bti_of = |ssh_offset: u32| {
        k.binding_table
            .iter()
            .find(|e| e.ssh_offset == ssh_offset)
            .map(|e| e.index)
    };
    let mut out = Vec::with_capacity(args.len());
    for (index, mut a) in args {
        a.params.sort();
        let kind = if let Some((space, stateless, ssh)) = a.buffer {
            ArgKind::Buffer {
                space,
                stateless,
                bti: ssh.and_then(bti_of),
                buffer_offset: a.buffer_offset,
            }
        } else if let Some((image_type, writable, ssh)) = a.image {
            ArgKind::Image {
                image_type,
                writable,
                bti: bti_of(ssh),
                params: a.params,
            }
        } else if let Some(dsh) = a.sampler {
            let rel = dsh.checked_sub(sampler_array_offset).ok_or_else(|| {
                invalid(
                    format!("sampler argument {index} of kernel `{}`", k.name),
                    at,
                    format!("sampler state offset {dsh:#x} precedes the sampler array at {sampler_array_offset:#x}"),
                )
            })?;
            ArgKind::Sampler {
                index: rel / SAMPLER_STATE_SIZE,
                params: a.params,
            }
        } else if let Some((slm_offset, alignment)) = a.local {
            ArgKind::Local {
                slm_offset,
                alignment,
            }
        } else {
            normalize_pieces(&mut a.pieces);
            ArgKind::Value { pieces: a.pieces }
        };
        out.push(KernelArg { index, kind });
    }
    Ok(out)
}

fn per_thread(tok: &RawToken<'_>, simd: u32) -> Result<PerThreadPayload> {
    let header = tok.field(0)? != 0;
    let present = [tok.field(1)? != 0, tok.field(2)? != 0, tok.field(3)? != 0];
    let flattened = tok.field(4)? != 0;
    let dims = present.iter().rposition(|&p| p).map_or(0, |i| i + 1) as u8;
    let bytes_per_dim = grf_padded(simd * 2);
    let channels = dims as u32 + flattened as u32;
    Ok(PerThreadPayload {
        local_id_dims: dims,
        packed: false,
        bytes_per_dim,
        size: if header { GRF_BYTES } else { 0 } + channels * bytes_per_dim,
        header,
        hw_generated_local_ids: tok.field(16)? != 0,
        pass_inline_data: tok.field(14)? != 0,
        offset_to_skip_per_thread_data_load: tok.field(12)?,
        offset_to_skip_set_ffid_gp: tok.field(13)?,
        unused_grf: tok.field(6)? != 0,
        // EXECUTION_ENVIRONMENT's WorkgroupWalkOrderDims is not read: the IGC here leaves it 0
        // (an IR kernel requiring 1, 0, 2 compiled to patch tokens has 0 there).
        ..PerThreadPayload::default()
    })
}

/// `IMAGE_MEMORY_OBJECT_TYPE` in patch_list.h order.
fn image_type(v: u32) -> ImageType {
    use ImageType::*;
    const TABLE: [ImageType; 16] = [
        Buffer,
        Image1D,
        Image1DArray,
        Image2D,
        Image2DArray,
        Image3D,
        Cube,
        CubeArray,
        Image2DDepth,
        Image2DArrayDepth,
        Image2DMsaa,
        Image2DMsaaDepth,
        Image2DArrayMsaa,
        Image2DArrayMsaaDepth,
        Image2DMedia,
        Image2DMediaBlock,
    ];
    (v as usize)
        .checked_sub(1)
        .and_then(|i| TABLE.get(i).copied())
        .unwrap_or(Unknown)
}

fn attributes(tok: &RawToken<'_>, k: &mut Kernel) -> Result<()> {
    let len = tok.field(0)?;
    let text =
        Bytes::new(tok.body, tok.offset + t::ITEM_HEADER_SIZE)
            .slice(4, len as usize, &|| t::name(tok.id))?;
    let text = c_string(text.data);
    k.attributes = text.trim().to_string();
    if let Some(v) = attribute_value(&text, "intel_reqd_sub_group_size") {
        k.required_subgroup_size = v.trim().parse().map_err(|_| {
            invalid(
                t::name(tok.id),
                tok.offset,
                format!("bad intel_reqd_sub_group_size in `{text}`"),
            )
        })?;
    }
    Ok(())
}

/// The text inside `name(...)` in a space-separated attribute list.
fn attribute_value<'s>(attrs: &'s str, name: &str) -> Option<&'s str> {
    attrs.split_whitespace().find_map(|a| {
        a.strip_prefix(name)
            .and_then(|r| r.strip_prefix('('))
            .and_then(|r| r.strip_suffix(')'))
    })
}

fn argument_info(tok: &RawToken<'_>) -> Result<ArgInfo> {
    let body = Bytes::new(tok.body, tok.offset + t::ITEM_HEADER_SIZE);
    let mut pos = 24usize;
    let mut next = |field: usize| -> Result<String> {
        let len = tok.field(field)? as usize;
        let s = body.slice(pos, len, &|| {
            format!("string {field} of {}", t::name(tok.id))
        })?;
        pos += len;
        Ok(c_string(s.data))
    };
    let address_qualifier = next(1)?;
    let access_qualifier = next(2)?;
    let name = next(3)?;
    let type_name = next(4)?;
    let type_qualifiers = next(5)?;
    Ok(ArgInfo {
        index: tok.field(0)?,
        name,
        type_name,
        address_qualifier,
        access_qualifier,
        type_qualifiers,
    })
}
