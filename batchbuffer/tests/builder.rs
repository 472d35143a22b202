//! Full batches per generation: the command sequence, and every derived field read back through
//! the packet decoders (not through the builder's own values).

use batchbuffer::builder::*;
use batchbuffer::*;
use platform::Platform;
use Platform::*;

const SURFACE_BASE: u64 = 0x20_0000;
const DYNAMIC_BASE: u64 = 0x30_0000;
const INDIRECT_BASE: u64 = 0x40_0000;
const GENERAL_BASE: u64 = 0x60_0000;
const INSTRUCTION_BASE: u64 = 0x80_0000;
const FENCE: u64 = 0x1_0000;

struct Built {
    batch: Vec<u32>,
    surface: Vec<u32>,
    dynamic: Vec<u32>,
    indirect: Vec<u32>,
}

fn build(p: Platform, d: &DispatchDesc) -> Result<Built, BuildError> {
    let (mut b, mut s, mut dy, mut ind) =
        (vec![0; 512], vec![0; 1024], vec![0; 256], vec![0; 4096]);
    {
        let mut batch = Batch::new(&mut b);
        let mut heaps = Heaps {
            surface: Heap::new("surface", SURFACE_BASE, &mut s),
            dynamic: Heap::new("dynamic", DYNAMIC_BASE, &mut dy),
            indirect: Heap::new("indirect", INDIRECT_BASE, &mut ind),
        };
        let builder = Builder::new(p);
        builder.preamble(
            &mut batch,
            &heaps,
            GENERAL_BASE,
            (INSTRUCTION_BASE, 1 << 16),
            FrontEnd::default(),
        )?;
        builder.dispatch(&mut batch, &mut heaps, d)?;
        builder.finish(&mut batch, FENCE, 0xC0FFEE)?;
        let n = batch.len();
        b.truncate(n);
    }
    Ok(Built {
        batch: b,
        surface: s,
        dynamic: dy,
        indirect: ind,
    })
}

/// (offset, packet) of every command, by the identification API.
fn walk(p: Platform, batch: &[u32]) -> Vec<(usize, PacketId)> {
    let mut at = 0;
    let mut out = Vec::new();
    while at < batch.len() {
        let id = identify(p, &batch[at..]).unwrap();
        out.push((at, id.packet));
        at += id.len;
    }
    out
}

fn find(cmds: &[(usize, PacketId)], id: PacketId) -> usize {
    cmds.iter().find(|(_, x)| *x == id).unwrap().0
}

fn desc<'a>(surfaces: &'a [RenderSurfaceState], ct: &'a [u32]) -> DispatchDesc<'a> {
    DispatchDesc {
        kernel_offset: 0x1000,
        simd: Simd::S16,
        local_size: [20, 1, 1],
        group_count: [4, 2, 1],
        group_start: [0, 0, 0],
        cross_thread: ct,
        local_ids: LocalIds::Runtime {
            channels: 1,
            walk_order: WalkOrder::Walk012,
        },
        inline_data: false,
        slm_bytes: 4096,
        barriers: 1,
        surfaces,
        samplers: None,
    }
}

#[test]
fn gen9_to_gen12_sequence_and_fields() {
    for p in [Skl, Icllp, Tgllp] {
        let surfaces = [
            buffer_surface(p, 0x4000_0000, 1000).unwrap(),
            buffer_surface(p, 0x8000_0000, 1 << 20).unwrap(),
        ];
        let ct = [0xAAAA_0001u32, 0xBBBB_0002, 3];
        let b = build(p, &desc(&surfaces, &ct)).unwrap();
        let cmds = walk(p, &b.batch);
        let ids: Vec<_> = cmds.iter().map(|c| c.1).collect();
        use PacketId::*;
        assert_eq!(
            ids,
            [
                PipeControl,
                PipelineSelect,
                StateBaseAddress,
                PipeControl,
                MediaVfeState,
                MediaStateFlush,
                MediaInterfaceDescriptorLoad,
                GpgpuWalker,
                MediaStateFlush,
                PipeControl,
                MiBatchBufferEnd
            ],
            "{p}"
        );
        let ps = batchbuffer::PipelineSelect::unpack(p, &b.batch[find(&cmds, PipelineSelect)..])
            .unwrap();
        assert_eq!(
            (ps.pipeline_selection, ps.mask_bits),
            (PipelineSelection::Gpgpu, 3)
        );
        let sba =
            batchbuffer::StateBaseAddress::unpack(p, &b.batch[find(&cmds, StateBaseAddress)..])
                .unwrap();
        assert_eq!(sba.surface_state_base_address, SURFACE_BASE);
        assert_eq!(sba.dynamic_state_base_address, DYNAMIC_BASE);
        assert_eq!(sba.indirect_object_base_address, INDIRECT_BASE);
        assert_eq!(sba.instruction_base_address, INSTRUCTION_BASE);
        assert_eq!(sba.stateless_data_port_access_mocs, 2 << 1);
        assert!(sba.surface_state_base_address_modify_enable);

        let w = batchbuffer::GpgpuWalker::unpack(p, &b.batch[find(&cmds, GpgpuWalker)..]).unwrap();
        assert_eq!(w.simd_size as u32, 1);
        assert_eq!(w.thread_width_counter_maximum, 1); // 2 threads
        assert_eq!(
            (w.right_execution_mask, w.bottom_execution_mask),
            (0xF, u32::MAX)
        );
        assert_eq!(
            (
                w.thread_group_id_x_dimension,
                w.thread_group_id_y_dimension,
                w.thread_group_id_z_dimension
            ),
            (4, 2, 1)
        );
        // Payload: one GRF of cross-thread data, then one GRF of x IDs per thread.
        assert_eq!(w.indirect_data_length, 32 * 3);
        let pay = &b.indirect[w.indirect_data_start_address as usize / 4..];
        assert_eq!(&pay[..4], &[0xAAAA_0001, 0xBBBB_0002, 3, 0]);
        assert_eq!(pay[16], 16 | 17 << 16); // thread 1 lanes 0,1 = items 16,17

        let midl = batchbuffer::MediaInterfaceDescriptorLoad::unpack(
            p,
            &b.batch[find(&cmds, MediaInterfaceDescriptorLoad)..],
        )
        .unwrap();
        assert_eq!(midl.interface_descriptor_total_length, 32);
        let at = midl.interface_descriptor_data_start_address as usize / 4;
        let idd = batchbuffer::InterfaceDescriptorData::unpack(p, &b.dynamic[at..]).unwrap();
        assert_eq!(idd.kernel_start_pointer, 0x1000);
        assert_eq!(idd.number_of_threads_in_gpgpu_thread_group, 2);
        assert_eq!(
            idd.shared_local_memory_size,
            SharedLocalMemorySize::Encodes4k
        );
        assert!(idd.barrier_enable);
        assert_eq!(idd.cross_thread_constant_data_read_length, 1);
        assert_eq!(idd.constant_urb_entry_read_length, 1);
        assert_eq!(idd.binding_table_entry_count, 2);
        check_binding_table(
            p,
            &b,
            idd.binding_table_pointer,
            &[(0x4000_0000, 1000), (0x8000_0000, 1 << 20)],
        );

        let pc = batchbuffer::PipeControl::unpack(p, &b.batch[cmds[cmds.len() - 2].0..]).unwrap();
        assert_eq!(
            pc.post_sync_operation,
            PostSyncOperation::WriteImmediateData
        );
        assert_eq!((pc.address, pc.immediate_data), (FENCE, 0xC0FFEE));
        assert!(pc.command_streamer_stall_enable && pc.dc_flush_enable);
    }
}

/// Follows binding table entries to surface states and decodes each buffer's size.
fn check_binding_table(p: Platform, b: &Built, bt: u32, want: &[(u64, u64)]) {
    for (i, &(addr, bytes)) in want.iter().enumerate() {
        let e = BindingTableState::unpack(p, &b.surface[bt as usize / 4 + i..]).unwrap();
        let rss = RenderSurfaceState::unpack(p, &b.surface[e.surface_state_pointer as usize / 4..])
            .unwrap();
        assert_eq!(rss.surface_type, surface_type::BUFFER);
        assert_eq!(rss.surface_base_address, addr);
        let n = rss.width | rss.height << 7 | rss.depth << 21;
        assert_eq!(n as u64 + 1, bytes);
    }
}

#[test]
fn xe_hpg_sequence_and_fields() {
    let p = Dg2;
    let surfaces = [buffer_surface(p, 0x4000_0000, 256).unwrap()];
    let ct: Vec<u32> = (1..=10).collect();
    let d = DispatchDesc {
        simd: Simd::S32,
        local_size: [64, 1, 1],
        group_count: [16, 1, 1],
        local_ids: LocalIds::Hardware {
            channels: 3,
            walk_order: WalkOrder::Walk012,
        },
        inline_data: true,
        ..desc(&surfaces, &ct)
    };
    let b = build(p, &d).unwrap();
    let cmds = walk(p, &b.batch);
    let ids: Vec<_> = cmds.iter().map(|c| c.1).collect();
    use PacketId::*;
    assert_eq!(
        ids,
        [
            PipeControl,
            PipelineSelect,
            StateComputeMode,
            CfeState,
            StateBaseAddress,
            BindingTablePoolAlloc,
            PipeControl,
            ComputeWalker,
            PipeControl,
            MiBatchBufferEnd
        ]
    );
    let at = find(&cmds, ComputeWalker);
    // IGT's DG2 compute batch for the same shape (SIMD32, hardware XYZ local IDs, inline data,
    // 64 work-items, 16 groups): body dword 3 = 0xbe040000, mask all ones, Local X Maximum 63.
    assert_eq!(
        &b.batch[at + 4..at + 8],
        &[0xbe04_0000, 0xFFFF_FFFF, 0x3F, 16]
    );
    let w = batchbuffer::ComputeWalker::unpack(p, &b.batch[at..]).unwrap();
    assert_eq!(w.body.message_simd, MessageSimd::Simd32);
    assert_eq!(w.body.emit_local, EmitLocal::EmitXyz);
    assert!(w.body.generate_local_id && w.body.emit_inline_parameter);
    assert_eq!(w.body.inline_data, [1, 2, 3, 4, 5, 6, 7, 8]);
    // The remaining two cross-thread dwords go through indirect data, one GRF.
    assert_eq!(w.body.indirect_data_length, 32);
    let pay = &b.indirect[w.body.indirect_data_start_address as usize / 4..];
    assert_eq!(&pay[..3], &[9, 10, 0]);
    let idd = w.body.interface_descriptor;
    assert_eq!(idd.number_of_threads_in_gpgpu_thread_group, 2);
    assert_eq!(idd.number_of_barriers, NumberOfBarriers::B1);
    check_binding_table(p, &b, idd.binding_table_pointer, &[(0x4000_0000, 256)]);
    let pc = batchbuffer::PipeControl::unpack(p, &b.batch[cmds[cmds.len() - 2].0..]).unwrap();
    assert!(pc.hdc_pipeline_flush_enable && pc.untyped_data_port_cache_flush_enable);
    assert_eq!((pc.address, pc.immediate_data), (FENCE, 0xC0FFEE));
}

#[test]
fn gen12_walker_matches_igt() {
    // IGT's Tiger Lake compute batch: SIMD32 with 16 threads -> GPGPU_WALKER dword 4 0x8000000f,
    // masks all ones.
    let p = Tgllp;
    let d = DispatchDesc {
        simd: Simd::S32,
        local_size: [512, 1, 1],
        local_ids: LocalIds::None,
        slm_bytes: 0,
        barriers: 0,
        ..desc(&[], &[])
    };
    let b = build(p, &d).unwrap();
    let cmds = walk(p, &b.batch);
    let at = find(&cmds, PacketId::GpgpuWalker);
    assert_eq!(b.batch[at + 4], 0x8000_000F);
    assert_eq!(&b.batch[at + 13..at + 15], &[u32::MAX, u32::MAX]);
}

#[test]
fn builder_errors() {
    let surfaces = [];
    let ct = [];
    let hw = DispatchDesc {
        local_ids: LocalIds::Hardware {
            channels: 1,
            walk_order: WalkOrder::Walk012,
        },
        ..desc(&surfaces, &ct)
    };
    assert!(matches!(build(Skl, &hw), Err(BuildError::Unsupported(_))));
    let bad = DispatchDesc {
        local_size: [0, 1, 1],
        ..desc(&surfaces, &ct)
    };
    assert_eq!(
        build(Tgllp, &bad).err(),
        Some(BuildError::BadLocalSize([0, 1, 1]))
    );
    let misaligned = DispatchDesc {
        kernel_offset: 0x1004,
        ..desc(&surfaces, &ct)
    };
    assert!(matches!(
        build(Icllp, &misaligned),
        Err(BuildError::Packet(Error::Misaligned {
            field: "Kernel Start Pointer",
            ..
        }))
    ));
    let mut tiny = [0u32; 8];
    let mut batch = Batch::new(&mut tiny);
    assert!(matches!(
        Builder::new(Dg2).finish(&mut batch, 0, 0),
        Ok(()) | Err(BuildError::BatchFull { .. })
    ));
    let mut tiny = [0u32; 3];
    let mut batch = Batch::new(&mut tiny);
    assert_eq!(
        Builder::new(Dg2).finish(&mut batch, 0, 0),
        Err(BuildError::BatchFull { need: 6, room: 3 })
    );
    assert!(buffer_surface(Skl, 0, 0).is_err());
    assert!(linear_2d_surface(Skl, 0, format::R8_UINT.number, 0, 1, 1).is_err());
}

#[test]
fn linear_2d_surface_fields() {
    for p in Platform::ALL {
        let s = linear_2d_surface(p, 0x10_0000, format::R32_UINT.number, 640, 480, 2560).unwrap();
        let mut dw = [0u32; 16];
        s.pack(p, &mut dw).unwrap();
        let r = RenderSurfaceState::unpack(p, &dw).unwrap();
        assert_eq!(
            (r.surface_type, r.width, r.height, r.surface_pitch),
            (1, 639, 479, 2559)
        );
        assert_eq!((r.tile_mode, r.surface_format), (0, 0xD7));
    }
}

/// Image surfaces: a 2D array and a 3D image put the layer distance in Surface QPitch shifted
/// right by 2 (Mesa's isl: `SurfaceQPitch = get_qpitch(surf) >> 2`), a 1D array its distance
/// in texels; Depth holds layers or depth minus one. Shapes the fields cannot hold are refused.
#[test]
fn linear_image_surface_fields() {
    let img = |surface_type, array, [width, height, depth]: [u32; 3], qpitch| LinearImage {
        surface_type,
        array,
        format: format::R8G8B8A8_UNORM.number,
        width,
        height,
        depth,
        pitch: 64,
        qpitch,
        levels: 1,
    };
    let cases = [
        (
            img(surface_type::SURF_2D, true, [9, 5, 3], 8),
            (1, true, 2, 2),
        ),
        (
            img(surface_type::SURF_3D, false, [9, 5, 3], 8),
            (2, false, 2, 2),
        ),
        (
            img(surface_type::SURF_1D, true, [9, 1, 4], 16),
            (0, true, 3, 4),
        ),
        (
            img(surface_type::SURF_1D, false, [9, 1, 1], 0),
            (0, false, 0, 0),
        ),
    ];
    for p in Platform::ALL {
        for (shape, (ty, array, depth, qpitch)) in cases {
            let s = linear_image_surface(p, 0x10_0000, &shape).unwrap();
            let mut dw = [0u32; 16];
            s.pack(p, &mut dw).unwrap();
            let r = RenderSurfaceState::unpack(p, &dw).unwrap();
            assert_eq!(
                (r.surface_type, r.surface_array, r.depth, r.surface_qpitch),
                (ty, array, depth, qpitch),
                "{p} {shape:?}"
            );
            assert_eq!(
                (r.width, r.height, r.surface_format),
                (8, shape.height - 1, 199)
            );
        }
        for bad in [
            img(surface_type::SURF_2D, true, [9, 5, 3], 6),
            img(surface_type::SURF_2D, true, [9, 5, 3], 0),
            img(surface_type::SURF_1D, false, [9, 2, 1], 0),
            img(surface_type::SURF_3D, true, [9, 5, 3], 8),
            img(surface_type::SURF_2D, false, [0, 5, 1], 0),
            img(surface_type::SURF_3D, false, [9, 5, 4096], 8),
            img(surface_type::BUFFER, false, [9, 5, 1], 0),
        ] {
            assert!(linear_image_surface(p, 0, &bad).is_err(), "{p} {bad:?}");
        }
        // Mip levels: MIP Count / LOD holds the last level (4 bits), Surface Min LOD 0.
        let mip = |levels| LinearImage {
            levels,
            ..img(surface_type::SURF_2D, false, [16, 16, 1], 0)
        };
        let s = linear_image_surface(p, 0, &mip(5)).unwrap();
        assert_eq!((s.mip_count_lod, s.surface_min_lod), (4, 0), "{p}");
        for bad in [0, 16] {
            assert!(linear_image_surface(p, 0, &mip(bad)).is_err(), "{p} {bad}");
        }
    }
}

/// Typed buffers (image1d_buffer): SURFTYPE_BUFFER with the element format; the count minus
/// one split as Mesa's isl splits it (Width = bits 6:0, Height = bits 20:7, Depth = bits 26:21),
/// Surface Pitch the element size minus one. 0, more than 2^27 elements, RAW or a 0-byte
/// element are refused.
#[test]
fn typed_buffer_surface_fields() {
    let rgba32 = format::R32G32B32A32_UINT.number;
    for p in Platform::ALL {
        for (elements, (w, h, d)) in [
            (1, (0, 0, 0)),
            (1000, (999 & 0x7f, 999 >> 7, 0)),
            (1 << 27, (0x7f, 0x3fff, 0x3f)),
            ((1 << 21) + 5, (4, 0, 1)),
        ] {
            let s = typed_buffer_surface(p, 0x10_0010, rgba32, elements, 16).unwrap();
            let mut dw = [0u32; 16];
            s.pack(p, &mut dw).unwrap();
            let r = RenderSurfaceState::unpack(p, &dw).unwrap();
            assert_eq!(
                (r.surface_type, r.surface_format, r.surface_pitch),
                (surface_type::BUFFER, rgba32, 15),
                "{p} {elements}"
            );
            assert_eq!((r.width, r.height, r.depth), (w, h, d), "{p} {elements}");
            assert_eq!(r.surface_base_address, 0x10_0010);
        }
        assert!(typed_buffer_surface(p, 0, rgba32, 0, 16).is_err());
        assert!(typed_buffer_surface(p, 0, rgba32, (1 << 27) + 1, 16).is_err());
        assert!(typed_buffer_surface(p, 0, format::RAW.number, 16, 1).is_err());
        assert!(typed_buffer_surface(p, 0, rgba32, 16, 0).is_err());
    }
}

/// A kernel's sampler table goes into the dynamic state heap: the interface descriptor points
/// at its SAMPLER_STATEs with the count's genxml encoding, and each Border Color Pointer is
/// moved from the table's start to Dynamic State Base Address. Tables the descriptor cannot
/// describe (none, more than 16, past the heap, misaligned) are refused.
#[test]
fn sampler_table_in_the_dynamic_state() {
    let p = Tgllp;
    let mut heap = vec![0u32; 24];
    heap[..4].copy_from_slice(&[1, 2, 3, 4]);
    let modes = [TextureCoordinateMode::Wrap, TextureCoordinateMode::Mirror];
    for i in 0..2 {
        let s = SamplerState {
            min_mode_filter: MapFilter::Linear,
            mag_mode_filter: MapFilter::Linear,
            tcx_address_control_mode: modes[i as usize],
            ..Default::default()
        };
        s.pack(p, &mut heap[16 + 4 * i as usize..20 + 4 * i as usize])
            .unwrap();
    }
    let table = SamplerTable {
        heap: &heap,
        array_offset: 64,
        count: 2,
    };
    let d = DispatchDesc {
        samplers: Some(table),
        ..desc(&[], &[])
    };
    let b = build(p, &d).unwrap();
    let cmds = walk(p, &b.batch);
    let at = find(&cmds, PacketId::MediaInterfaceDescriptorLoad);
    let load = MediaInterfaceDescriptorLoad::unpack(p, &b.batch[at..]).unwrap();
    let idd_at = load.interface_descriptor_data_start_address as usize / 4;
    let idd = InterfaceDescriptorData::unpack(p, &b.dynamic[idd_at..]).unwrap();
    assert_eq!(idd.sampler_count, SamplerCount::Between1And4SamplersUsed);
    let table_at = idd.sampler_state_pointer as usize - 64;
    for (i, mode) in modes.into_iter().enumerate() {
        let dw = idd.sampler_state_pointer as usize / 4 + 4 * i;
        let s = SamplerState::unpack(p, &b.dynamic[dw..dw + 4]).unwrap();
        assert_eq!(
            (s.min_mode_filter, s.tcx_address_control_mode),
            (MapFilter::Linear, mode)
        );
        assert_eq!(s.border_color_pointer as usize, table_at);
        assert_eq!(&b.dynamic[table_at / 4..table_at / 4 + 4], &[1, 2, 3, 4]);
    }
    for (count, array_offset) in [(0, 64), (17, 0), (2, 80), (1 << 30, 64), (2, 48)] {
        let d = DispatchDesc {
            samplers: Some(SamplerTable {
                heap: &heap,
                array_offset,
                count,
            }),
            ..desc(&[], &[])
        };
        assert!(build(p, &d).is_err(), "{count} at {array_offset}");
    }
}

#[test]
fn prepared_dispatch_repeats_with_new_group_counts() {
    for p in Platform::ALL {
        let (mut s, mut dy, mut ind) = (vec![0; 1024], vec![0; 256], vec![0; 4096]);
        let mut heaps = Heaps {
            surface: Heap::new("surface", SURFACE_BASE, &mut s),
            dynamic: Heap::new("dynamic", DYNAMIC_BASE, &mut dy),
            indirect: Heap::new("indirect", INDIRECT_BASE, &mut ind),
        };
        let mut prepared = prepare(p, &mut heaps, &desc(&[], &[1, 2])).unwrap();
        let mut mem = vec![0u32; 256];
        let mut batch = Batch::new(&mut mem);
        prepared.emit(&mut batch).unwrap();
        prepared.set_group_count([7, 8, 9]);
        prepared.emit(&mut batch).unwrap();
        let words = batch.as_slice().to_vec();
        let cmds = walk(p, &words);
        let walkers: Vec<_> = cmds
            .iter()
            .filter(|c| matches!(c.1, PacketId::GpgpuWalker | PacketId::ComputeWalker))
            .map(|c| c.0)
            .collect();
        let dims = |at: usize| -> [u32; 3] {
            if p == Dg2 {
                let w = batchbuffer::ComputeWalker::unpack(p, &words[at..])
                    .unwrap()
                    .body;
                [
                    w.thread_group_id_x_dimension,
                    w.thread_group_id_y_dimension,
                    w.thread_group_id_z_dimension,
                ]
            } else {
                let w = batchbuffer::GpgpuWalker::unpack(p, &words[at..]).unwrap();
                [
                    w.thread_group_id_x_dimension,
                    w.thread_group_id_y_dimension,
                    w.thread_group_id_z_dimension,
                ]
            }
        };
        assert_eq!(walkers.len(), 2, "{p}");
        assert_eq!(dims(walkers[0]), [4, 2, 1], "{p}");
        assert_eq!(dims(walkers[1]), [7, 8, 9], "{p}");
    }
}

/// A prepared dispatch changed in place (group range, inline data, the indirect payload and
/// surface states at the offsets it reports) equals the new dispatch prepared afresh: commands
/// and all three heaps, on every platform, with and without inline data.
#[test]
fn prepared_dispatch_patched_in_place_equals_a_fresh_one() {
    for p in Platform::ALL {
        for (inline, ct_len) in [(false, 3), (true, 3), (true, 12), (false, 12)] {
            let old_ct: Vec<u32> = (0..ct_len).map(|i| 0xA000 + i).collect();
            let new_ct: Vec<u32> = (0..ct_len).map(|i| 0xB000 + 3 * i).collect();
            let old_s = [
                buffer_surface(p, 0x4000_0000, 1000).unwrap(),
                buffer_surface(p, 0x8000_0000, 1 << 20).unwrap(),
            ];
            let new_s = [old_s[0], buffer_surface(p, 0x9000_0000, 4096).unwrap()];
            let with = |s, ct, start, count| DispatchDesc {
                inline_data: inline,
                group_start: start,
                group_count: count,
                ..desc(s, ct)
            };
            let (mut s1, mut d1, mut i1) = (vec![0; 1024], vec![0; 256], vec![0; 4096]);
            let (mut s2, mut d2, mut i2) = (vec![0; 1024], vec![0; 256], vec![0; 4096]);
            let mut patched = {
                let mut heaps = Heaps {
                    surface: Heap::new("surface", SURFACE_BASE, &mut s1),
                    dynamic: Heap::new("dynamic", DYNAMIC_BASE, &mut d1),
                    indirect: Heap::new("indirect", INDIRECT_BASE, &mut i1),
                };
                prepare(p, &mut heaps, &with(&old_s, &old_ct, [0; 3], [4, 2, 1])).unwrap()
            };
            let fresh = {
                let mut heaps = Heaps {
                    surface: Heap::new("surface", SURFACE_BASE, &mut s2),
                    dynamic: Heap::new("dynamic", DYNAMIC_BASE, &mut d2),
                    indirect: Heap::new("indirect", INDIRECT_BASE, &mut i2),
                };
                prepare(p, &mut heaps, &with(&new_s, &new_ct, [1, 2, 3], [5, 6, 7])).unwrap()
            };
            let ctx = format!("{p} inline {inline} cross-thread {ct_len}");
            patched.set_group_start([1, 2, 3]);
            patched.set_group_count([5, 6, 7]);
            let (inl, ind) = patched.split_cross_thread(&new_ct).unwrap();
            assert!(patched.set_inline_data(inl), "{ctx}");
            let at = patched.payload_offset() as usize / 4;
            i1[at..at + ind.len()].copy_from_slice(ind);
            let at = patched.surface_state_offset(1).unwrap() as usize / 4;
            new_s[1].pack(p, &mut s1[at..at + 16]).unwrap();
            assert_eq!(patched.surface_state_offset(2), None, "{ctx}");
            assert_eq!(patched.split_cross_thread(&new_ct[1..]), None, "{ctx}");
            assert_eq!(patched.commands(), fresh.commands(), "{ctx}");
            assert_eq!((s1, d1, i1), (s2, d2, i2), "{ctx}");
        }
    }
}

#[test]
fn built_batches_decode_cleanly() {
    use batchbuffer::decode::{decode_to_string, Mode};
    for p in Platform::ALL {
        let surfaces = [buffer_surface(p, 0x4000_0000, 64).unwrap()];
        let b = build(p, &desc(&surfaces, &[1, 2, 3])).unwrap();
        let bytes: Vec<u8> = b.batch.iter().flat_map(|d| d.to_le_bytes()).collect();
        let (text, stats) = decode_to_string(p, &bytes, Mode::Full);
        assert_eq!((stats.unknown, stats.truncated), (0, false), "{p}\n{text}");
        assert!(text.contains("    Pipeline Selection: 2 (GPGPU)\n"), "{p}");
        let walker = if p == Dg2 {
            "COMPUTE_WALKER"
        } else {
            "GPGPU_WALKER"
        };
        assert!(text.contains(walker), "{p}");
        let last = text.lines().rfind(|l| l.starts_with("0x")).unwrap();
        assert!(last.ends_with(": MI_BATCH_BUFFER_END"), "{p}: {last}");
    }
}
