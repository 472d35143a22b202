//! One `.ze_info` kernel entry plus its `.text` section and relocations, as a [`Kernel`].

use std::collections::BTreeMap;

use super::zeinfo::{MiscInfo, PayloadArgument, UserAttributes, ZeKernel};
use crate::program::elf::{ElfView, Symbol};
use crate::program::error::{invalid, ProgramError, Result};
use crate::program::hw::{grf_padded, SURFACE_STATE_SIZE};
use crate::program::kernel::*;
use crate::program::Segment;

/// What `arg_bypointer` says about an argument.
struct Pointer {
    addrspace: String,
    access: Option<String>,
    image_type: Option<String>,
    slot: Slot,
    slm_alignment: Option<u32>,
}

#[derive(Default)]
struct ArgParts {
    pieces: Vec<ValuePiece>,
    pointer: Option<Pointer>,
    sampler_index: Option<u32>,
    stateless: Option<Slot>,
    buffer_offset: Option<Slot>,
    params: Vec<(ArgParam, Slot)>,
}

pub fn kernel(
    file: &[u8],
    elf: &ElfView<'_>,
    symbols: &[Symbol],
    zk: &ZeKernel,
    misc: Option<&MiscInfo>,
) -> Result<Kernel> {
    let where_ = || format!(".ze_info kernel `{}`", zk.name);
    let text_name = format!(".text.{}", zk.name);
    let text = elf.by_name(&text_name).ok_or_else(|| ProgramError::Elf {
        context: format!("kernel `{}`", zk.name),
        message: format!("no {text_name} section"),
    })?;
    let unpadded = symbols
        .iter()
        .find(|s| s.section == text.index && s.name == zk.name)
        .map_or(text.data.len() as u64, |s| s.size);
    let env = &zk.execution_env;
    if !matches!(env.simd_size, 8 | 16 | 32) {
        return Err(invalid(
            where_(),
            text.offset,
            format!("simd_size {} (expected 8, 16 or 32)", env.simd_size),
        ));
    }
    let required_subgroup_size = env
        .required_sub_group_size
        .or(zk.user_attributes.intel_reqd_sub_group_size)
        .unwrap_or(0);
    let wg = env
        .required_work_group_size
        .as_ref()
        .or(zk.user_attributes.reqd_work_group_size.as_ref());
    let required_work_group_size = match wg.map(|v| v.as_slice()) {
        None => None,
        Some(&[x, y, z]) => Some([x, y, z]),
        Some(other) => {
            return Err(invalid(
                where_(),
                text.offset,
                format!("required work-group size {other:?} is not 3 numbers"),
            ))
        }
    };

    let mut args: BTreeMap<u32, ArgParts> = BTreeMap::new();
    let mut implicit = Vec::new();
    let mut cross_thread_end = 0u32;
    for p in &zk.payload_arguments {
        let slot = Slot {
            offset: p.offset,
            size: p.size,
        };
        cross_thread_end = cross_thread_end.max(p.offset.saturating_add(p.size));
        payload_argument(p, slot, &mut args, &mut implicit)
            .map_err(|m| invalid(where_(), text.offset, m))?;
    }
    implicit.sort();

    let btis: BTreeMap<u32, u32> = zk
        .binding_table_indices
        .iter()
        .map(|b| (b.arg_index, b.bti_value))
        .collect();
    let mut binding_table: Vec<BindingTableEntry> = zk
        .binding_table_indices
        .iter()
        .map(|b| BindingTableEntry {
            index: b.bti_value,
            ssh_offset: b.bti_value.saturating_mul(SURFACE_STATE_SIZE),
        })
        .collect();
    binding_table.sort_by_key(|e| e.index);

    let mut out_args = Vec::with_capacity(args.len());
    for (index, a) in args {
        out_args.push(KernelArg {
            index,
            kind: finish_arg(index, a, btis.get(&index).copied())
                .map_err(|m| invalid(where_(), text.offset, m))?,
        });
    }

    let mut per_thread = PerThreadPayload {
        pass_inline_data: env.inline_data_payload_size > 0,
        offset_to_skip_per_thread_data_load: env.offset_to_skip_per_thread_data_load,
        offset_to_skip_set_ffid_gp: env.offset_to_skip_set_ffid_gp,
        ..PerThreadPayload::default()
    };
    let order = |v: &Option<Vec<i64>>, what: &str| -> Result<Option<[u8; 3]>> {
        let Some(v) = v else { return Ok(None) };
        let dims: Option<[u8; 3]> = (|| {
            let d: [i64; 3] = v.as_slice().try_into().ok()?;
            let d = d.map(|x| u8::try_from(x).unwrap_or(u8::MAX));
            let mut seen = [false; 3];
            for x in d {
                *seen.get_mut(usize::from(x))? = true;
            }
            seen.iter().all(|&s| s).then_some(d)
        })();
        dims.map(Some).ok_or_else(|| {
            invalid(
                where_(),
                text.offset,
                format!("{what} {v:?} is not an order of the dimensions 0, 1, 2"),
            )
        })
    };
    let required = order(
        &zk.user_attributes.intel_reqd_workgroup_walk_order,
        "intel_reqd_workgroup_walk_order",
    )?;
    if let Some(dims) = order(
        &env.work_group_walk_order_dimensions,
        "work_group_walk_order_dimensions",
    )? {
        per_thread.walk_order = dims;
    }
    per_thread.walk_order_required = required.is_some();
    for p in &zk.per_thread_payload_arguments {
        let packed = match p.arg_type.as_str() {
            "local_id" => false,
            "packed_local_ids" => true,
            other => {
                return Err(invalid(
                    where_(),
                    text.offset,
                    format!("unknown per-thread argument `{other}`"),
                ))
            }
        };
        let bytes_per_dim = if packed {
            env.simd_size * 2
        } else {
            grf_padded(env.simd_size * 2)
        };
        let dims = p.size / bytes_per_dim;
        if p.size % bytes_per_dim != 0 || dims > 3 {
            return Err(invalid(
                where_(),
                text.offset,
                format!(
                    "{} of {} bytes is not 1-3 dimensions of {bytes_per_dim}",
                    p.arg_type, p.size
                ),
            ));
        }
        per_thread.local_id_dims = dims as u8;
        per_thread.packed = packed;
        per_thread.bytes_per_dim = bytes_per_dim;
        per_thread.size = p.offset.saturating_add(p.size);
    }

    let mut memory = MemoryNeeds {
        private: env.private_size,
        ..MemoryNeeds::default()
    };
    for b in &zk.per_thread_memory_buffers {
        match (b.alloc_type.as_str(), b.slot) {
            ("scratch", 0) => memory.scratch = b.size,
            ("scratch", 1) => memory.scratch_slot1 = b.size,
            ("global", _) => {
                memory.private = b.size;
                memory.private_is_simt = b.is_simt_thread;
            }
            (t, s) => {
                return Err(invalid(
                    where_(),
                    text.offset,
                    format!("per-thread memory buffer of type `{t}` slot {s}"),
                ))
            }
        }
    }

    let mut isa_relocations = Vec::new();
    for rel_name in [format!(".rel{text_name}"), format!(".rela{text_name}")] {
        let Some(sec) = elf.by_name(&rel_name) else {
            continue;
        };
        for r in elf.relocations(file, sec)? {
            let symbol = symbols.get(r.symbol).ok_or_else(|| ProgramError::Elf {
                context: format!("relocation at {:#x} of `{rel_name}`", r.offset),
                message: format!("symbol index {} is past the symbol table", r.symbol),
            })?;
            isa_relocations.push(IsaRelocation {
                offset: r.offset,
                kind: RelocKind::from_type(r.r_type),
                symbol: symbol.name.clone(),
                segment: elf
                    .sections
                    .get(symbol.section)
                    .and_then(|s| Segment::of_section(&s.name)),
                symbol_offset: symbol.value,
                addend: r.addend,
                // Section index 0 is SHN_UNDEF.
                defined: symbol.section != 0,
            });
        }
    }

    let arg_info = misc
        .map(|m| {
            let mut v: Vec<ArgInfo> = m
                .args_info
                .iter()
                .map(|a| ArgInfo {
                    index: a.index,
                    name: a.name.clone(),
                    type_name: a.type_name.clone(),
                    address_qualifier: a.address_qualifier.clone(),
                    access_qualifier: a.access_qualifier.clone(),
                    type_qualifiers: a.type_qualifiers.clone(),
                })
                .collect();
            v.sort_by_key(|a| a.index);
            v
        })
        .unwrap_or_default();

    Ok(Kernel {
        name: zk.name.clone(),
        isa: text.data.to_vec(),
        isa_unpadded_size: u32::try_from(unpadded).unwrap_or(u32::MAX),
        simd_size: env.simd_size,
        required_subgroup_size,
        required_work_group_size,
        attributes: attribute_text(&zk.user_attributes),
        grf_count: env.grf_count,
        barrier_count: env.barrier_count,
        slm_size: env.slm_size,
        memory,
        args: out_args,
        implicit,
        cross_thread_size: grf_padded(cross_thread_end),
        per_thread,
        binding_table,
        surface_state_heap: Vec::new(),
        dynamic_state_heap: Vec::new(),
        sampler_array: None,
        arg_info,
        isa_relocations,
        // Zebin kernels reach program data statelessly (ConstantBase/GlobalBase or relocations).
        driver_surfaces: Vec::new(),
        printf_strings: Vec::new(),
        source_lines: Default::default(),
    })
}

/// The source attributes `.ze_info` records, in the compiler's space-separated form (what the
/// patch-token format's attribute string holds).
fn attribute_text(u: &UserAttributes) -> String {
    let dims = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let mut out = Vec::new();
    if let Some(t) = &u.vec_type_hint {
        out.push(format!("vec_type_hint({t})"));
    }
    if let Some(v) = &u.reqd_work_group_size {
        out.push(format!("reqd_work_group_size({})", dims(v)));
    }
    if let Some(v) = &u.work_group_size_hint {
        out.push(format!("work_group_size_hint({})", dims(v)));
    }
    if let Some(n) = u.intel_reqd_sub_group_size {
        out.push(format!("intel_reqd_sub_group_size({n})"));
    }
    out.join(" ")
}

/// Three-component implicit values, split into one 4-byte element per dimension.
fn push_dims(
    implicit: &mut Vec<Implicit>,
    kind: ImplicitKind,
    slot: Slot,
) -> std::result::Result<(), String> {
    if !slot.size.is_multiple_of(4) || slot.size > 12 || slot.size == 0 {
        return Err(format!(
            "{kind:?} of {} bytes is not 1-3 dimensions of 4 bytes",
            slot.size
        ));
    }
    for dim in 0..slot.size / 4 {
        implicit.push(Implicit {
            kind,
            dim: dim as u8,
            offset: slot.offset.saturating_add(dim * 4),
            size: 4,
        });
    }
    Ok(())
}

fn payload_argument(
    p: &PayloadArgument,
    slot: Slot,
    args: &mut BTreeMap<u32, ArgParts>,
    implicit: &mut Vec<Implicit>,
) -> std::result::Result<(), String> {
    let dims = match p.arg_type.as_str() {
        "local_size" => Some(ImplicitKind::LocalSize),
        "global_size" => Some(ImplicitKind::GlobalSize),
        "group_count" => Some(ImplicitKind::NumGroups),
        "global_id_offset" => Some(ImplicitKind::GlobalOffset),
        "enqueued_local_size" => Some(ImplicitKind::EnqueuedLocalSize),
        _ => None,
    };
    if let Some(kind) = dims {
        return push_dims(implicit, kind, slot);
    }
    let scalar = match p.arg_type.as_str() {
        "work_dimensions" => Some(ImplicitKind::WorkDim),
        "private_base_stateless" => Some(ImplicitKind::PrivateBase),
        "printf_buffer" => Some(ImplicitKind::PrintfBuffer),
        "const_base" => Some(ImplicitKind::ConstantBase),
        "global_base" => Some(ImplicitKind::GlobalBase),
        "sync_buffer" => Some(ImplicitKind::SyncBuffer),
        "implicit_arg_buffer" => Some(ImplicitKind::ImplicitArgBuffer),
        _ => None,
    };
    if let Some(kind) = scalar {
        implicit.push(Implicit {
            kind,
            dim: 0,
            offset: slot.offset,
            size: slot.size,
        });
        return Ok(());
    }
    let index = p.arg_index.ok_or_else(|| {
        format!(
            "payload argument `{}` at offset {} has no arg_index",
            p.arg_type, p.offset
        )
    })?;
    let a = args.entry(index).or_default();
    let param = match p.arg_type.as_str() {
        "image_width" => Some(ArgParam::ImageWidth),
        "image_height" => Some(ArgParam::ImageHeight),
        "image_depth" => Some(ArgParam::ImageDepth),
        "image_channel_data_type" => Some(ArgParam::ImageChannelDataType),
        "image_channel_order" => Some(ArgParam::ImageChannelOrder),
        "image_array_size" => Some(ArgParam::ImageArraySize),
        "image_num_samples" => Some(ArgParam::ImageNumSamples),
        "image_num_mip_levels" => Some(ArgParam::ImageNumMipLevels),
        "flat_image_baseoffset" => Some(ArgParam::FlatImageBaseOffset),
        "flat_image_width" => Some(ArgParam::FlatImageWidth),
        "flat_image_height" => Some(ArgParam::FlatImageHeight),
        "flat_image_pitch" => Some(ArgParam::FlatImagePitch),
        "sampler_address" => Some(ArgParam::SamplerAddressMode),
        "sampler_normalized" => Some(ArgParam::SamplerNormalizedCoords),
        "sampler_snap_wa" => Some(ArgParam::SamplerSnapWa),
        _ => None,
    };
    if let Some(param) = param {
        a.params.push((param, slot));
        return Ok(());
    }
    match p.arg_type.as_str() {
        "arg_byvalue" => a.pieces.push(ValuePiece {
            offset: slot.offset,
            size: slot.size,
            source_offset: p.source_offset,
        }),
        "arg_bypointer" => {
            // A buffer may be listed twice, stateful and stateless, in either order.
            if p.addrmode.as_deref() == Some("stateless") {
                a.stateless = Some(slot);
            }
            a.pointer = Some(Pointer {
                addrspace: p.addrspace.clone().unwrap_or_default(),
                access: p.access_type.clone(),
                image_type: p.image_type.clone(),
                slot,
                slm_alignment: p.slm_alignment,
            });
            a.sampler_index = p.sampler_index;
        }
        "buffer_address" => a.stateless = Some(slot),
        "buffer_offset" => a.buffer_offset = Some(slot),
        other => {
            return Err(format!(
                "unknown payload arg_type `{other}` (argument {index})"
            ))
        }
    }
    Ok(())
}

fn finish_arg(
    index: u32,
    mut a: ArgParts,
    bti: Option<u32>,
) -> std::result::Result<ArgKind, String> {
    a.params.sort();
    let Some(Pointer {
        addrspace: space,
        access,
        image_type,
        slot,
        slm_alignment,
    }) = a.pointer
    else {
        normalize_pieces(&mut a.pieces);
        return Ok(ArgKind::Value { pieces: a.pieces });
    };
    let stateless = a.stateless;
    Ok(match space.as_str() {
        "global" | "constant" => ArgKind::Buffer {
            space: if space == "global" {
                AddressSpace::Global
            } else {
                AddressSpace::Constant
            },
            stateless,
            bti,
            buffer_offset: a.buffer_offset,
        },
        "local" => ArgKind::Local {
            slm_offset: slot,
            alignment: slm_alignment.unwrap_or(0),
        },
        "image" => ArgKind::Image {
            image_type: image_type_of(image_type.as_deref()),
            writable: access.as_deref() != Some("readonly"),
            bti,
            params: a.params,
        },
        "sampler" => ArgKind::Sampler {
            index: a
                .sampler_index
                .ok_or_else(|| format!("sampler argument {index} has no sampler_index"))?,
            params: a.params,
        },
        other => return Err(format!("argument {index} has unknown addrspace `{other}`")),
    })
}

fn image_type_of(s: Option<&str>) -> ImageType {
    use ImageType::*;
    match s {
        Some("image_buffer") => Buffer,
        Some("image_1d") => Image1D,
        Some("image_1d_array") => Image1DArray,
        Some("image_2d") => Image2D,
        Some("image_2d_array") => Image2DArray,
        Some("image_3d") => Image3D,
        Some("image_cube") => Cube,
        Some("image_cube_array") => CubeArray,
        Some("image_2d_depth") => Image2DDepth,
        Some("image_2d_array_depth") => Image2DArrayDepth,
        Some("image_2d_msaa") => Image2DMsaa,
        Some("image_2d_msaa_depth") => Image2DMsaaDepth,
        Some("image_2d_array_msaa") => Image2DArrayMsaa,
        Some("image_2d_array_msaa_depth") => Image2DArrayMsaaDepth,
        Some("image_2d_media") => Image2DMedia,
        Some("image_2d_media_block") => Image2DMediaBlock,
        _ => Unknown,
    }
}
