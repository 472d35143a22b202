//! The copy engine (bcs0) on every simulated platform through i915 (`I915_EXEC_BLT`) and xe
//! (a `DRM_XE_ENGINE_CLASS_COPY` exec queue): linear copies and fills with the blitter packets
//! of Gen12 and Xe-HPG (XY_BLOCK_COPY_BLT, XY_FAST_COLOR_BLT) and the legacy ones of Gen9
//! to Xe-HPG (XY_SRC_COPY_BLT, XY_COLOR_BLT, XY_FAST_COPY_BLT) checked against a host memcpy/memset,
//! MI_FLUSH_DW's post-sync write, and the errors of bad blits, which reach the same error
//! capture as bad compute batches.

use crate::common;

use std::sync::Arc;

use batchbuffer::{
    MiBatchBufferEnd, MiFlushDw, Packet, PacketId, XyBlockCopyBlt, XyColorBlt, XyColorDepth,
    XyFastColorBlt, XyFastCopyBlt, XyFastCopyColorDepth, XyLegacyColorDepth, XySrcCopyBlt,
};
use common::*;
use kmd_iface::drm_core::{syncobj_create, syncobj_wait};
use kmd_iface::flags::{drm::SyncobjWaitFlags, xe::VmCreateFlags};
use kmd_iface::i915::uapi::{I915_EXEC_BLT, I915_EXEC_RENDER};
use kmd_iface::xe::uapi::DRM_XE_ENGINE_CLASS_COPY;
use kmd_iface::xe::{bind_op, sync};
use platform::Platform;
use sim::cs::NoWalkerExecutor;
use sim::gpu::{GpuErrorKind, GpuErrorRecord, HangReason};
use sim::Kmd;

const BATCH_VA: u64 = 0x1a_0000;
const SRC_VA: u64 = 0x40_0000;
const DST_VA: u64 = 0x80_0000;
/// Large enough for DG2's 64 KiB VRAM pages.
const BO_SIZE: u64 = 64 << 10;

/// What a batch left behind: the destination buffer and the device's error records.
struct Outcome {
    dst: Vec<u8>,
    errors: Vec<GpuErrorRecord>,
}

/// `cmds` then MI_BATCH_BUFFER_END.
fn batch(p: Platform, cmds: &[Vec<u32>]) -> Vec<u8> {
    let mut dw: Vec<u32> = cmds.concat();
    let mut end = [0u32; 1];
    MiBatchBufferEnd::default().pack(p, &mut end).unwrap();
    dw.push(end[0]);
    bytes(&dw)
}

fn pack(p: Platform, pk: &impl Packet) -> Vec<u32> {
    let mut buf = vec![0u32; 32];
    let n = pk.pack(p, &mut buf).unwrap();
    buf.truncate(n);
    buf
}

/// Runs `batch` with the source buffer holding `src` on the copy engine (or the render engine)
/// of a fresh device.
fn run(p: Platform, kmd: Kmd, batch: &[u8], src: &[u8], copy_engine: bool) -> Outcome {
    run_at(p, kmd, batch, src, copy_engine, SRC_VA, DST_VA)
}

/// [`run`] with the source and destination buffers at `src_va` and `dst_va` (canonical form:
/// i915 softpins them there, xe binds their 48-bit form).
fn run_at(
    p: Platform,
    kmd: Kmd,
    batch: &[u8],
    src: &[u8],
    copy_engine: bool,
    src_va: u64,
    dst_va: u64,
) -> Outcome {
    match kmd {
        Kmd::I915 => {
            let g = i915_gpu(p, Arc::new(NoWalkerExecutor));
            let size = BO_SIZE as usize;
            let objects = [
                Placed {
                    gpu_address: BATCH_VA,
                    handle: g.bo(batch, size),
                    write: false,
                },
                Placed {
                    gpu_address: src_va,
                    handle: g.bo(src, size),
                    write: false,
                },
                Placed {
                    gpu_address: dst_va,
                    handle: g.bo(&[], size),
                    write: true,
                },
            ];
            let engine = if copy_engine {
                I915_EXEC_BLT
            } else {
                I915_EXEC_RENDER
            };
            // A failed batch still completes its request; the error is in the capture.
            let _ = g.exec_on(engine, &objects, 2);
            Outcome {
                dst: g.read(objects[2].handle, size, size),
                errors: g.dev.error_states(),
            }
        }
        Kmd::Xe => {
            let (dev, file) = open(p, Kmd::Xe);
            let x = xe_of(file);
            let vm = x.vm_create(VmCreateFlags::empty()).unwrap();
            let mut maps = Vec::new();
            let va48 = |va: u64| va & ((1 << 48) - 1);
            for (va, init) in [
                (BATCH_VA, batch),
                (va48(src_va), src),
                (va48(dst_va), &[][..]),
            ] {
                let h = x.gem_create(&xe_local_bo(p, BO_SIZE, vm)).unwrap();
                let m = x.gem_mmap(h, BO_SIZE as usize).unwrap();
                m.write(0, init).unwrap();
                let s = syncobj_create(x.file(), 0).unwrap();
                x.vm_bind(
                    vm,
                    0,
                    &[bind_op::map(h, 0, va, BO_SIZE, 0)],
                    &[sync::syncobj(s, true)],
                )
                .unwrap();
                syncobj_wait(x.file(), &[s], i64::MAX, SyncobjWaitFlags::empty()).unwrap();
                maps.push(m);
            }
            let eci = x
                .engines()
                .unwrap()
                .into_iter()
                .find(|e| (e.engine_class == DRM_XE_ENGINE_CLASS_COPY) == copy_engine)
                .expect("the engine");
            let q = x.exec_queue_create(vm, &[eci], &[]).unwrap();
            let s = syncobj_create(x.file(), 0).unwrap();
            x.exec(q, BATCH_VA, &[sync::syncobj(s, true)]).unwrap();
            let _ = syncobj_wait(x.file(), &[s], i64::MAX, SyncobjWaitFlags::empty());
            let mut dst = vec![0u8; BO_SIZE as usize];
            maps[2].read(0, &mut dst).unwrap();
            Outcome {
                dst,
                errors: dev.error_states(),
            }
        }
    }
}

/// The source's contents: bytes no two of which in a row are equal.
fn pattern_src(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + 3) as u8).collect()
}

/// Platforms (with their drivers) whose genxml has the Gen12 blitter packets.
fn blit_combos() -> Vec<(Platform, Kmd)> {
    combos()
        .into_iter()
        .filter(|&(p, _)| PacketId::XyBlockCopyBlt.exists_on(p))
        .collect()
}

/// A linear copy of `len` bytes as one row of 8-bit pixels, from byte `src_off` to `dst_off`.
fn copy_row(src_off: u64, dst_off: u64, len: i32) -> XyBlockCopyBlt {
    XyBlockCopyBlt {
        color_depth: XyColorDepth::Bpp8,
        destination_pitch: len as u32 - 1,
        destination_x2: len,
        destination_y2: 1,
        destination_base_address: DST_VA + dst_off,
        source_pitch: len as u32 - 1,
        source_base_address: SRC_VA + src_off,
        ..Default::default()
    }
}

#[test]
fn every_device_has_a_copy_engine_in_its_engine_list() {
    for (p, kmd) in combos() {
        let (_, file) = open(p, kmd);
        let classes: Vec<u16> = match kmd {
            Kmd::I915 => i915_of(file)
                .engine_info()
                .unwrap()
                .iter()
                .map(|e| e.class)
                .collect(),
            Kmd::Xe => xe_of(file)
                .engines()
                .unwrap()
                .iter()
                .map(|e| e.engine_class)
                .collect(),
        };
        // Both uAPIs number the copy class 1.
        assert!(classes.contains(&1), "{p} {kmd:?}: {classes:?}");
    }
}

#[test]
fn block_copy_of_a_range_matches_memcpy() {
    for (p, kmd) in blit_combos() {
        // Unaligned start, end and length on both sides.
        let (so, d_o, len) = (13u64, 1001u64, 2049i32);
        let b = batch(p, &[pack(p, &copy_row(so, d_o, len))]);
        assert_range_copied(p, kmd, &b, (so, d_o, len));
    }
}

/// DG2 compresses through flat CCS: a surface marked compressed (Compression Enable with
/// Auxiliary Surface Mode CCS_E, as NEO marks its compressed allocations, or none) keeps its
/// data as written, so a copy between compressed surfaces is a plain copy; an auxiliary mode
/// other than CCS_E names an auxiliary surface, which is refused.
#[test]
fn dg2_compressed_copies_are_plain_copies() {
    const AUX_CCS_E: u32 = 5;
    for (p, kmd) in blit_combos()
        .into_iter()
        .filter(|(p, _)| *p == Platform::Dg2)
    {
        let (so, d_o, len) = (13u64, 1001u64, 2049i32);
        for (aux, compressed) in [(AUX_CCS_E, true), (0, true)] {
            let cmd = XyBlockCopyBlt {
                destination_auxiliary_surface_mode: aux,
                destination_compression_enable: compressed,
                source_auxiliary_surface_mode: aux,
                source_compression_enable: compressed,
                ..copy_row(so, d_o, len)
            };
            assert_range_copied(p, kmd, &batch(p, &[pack(p, &cmd)]), (so, d_o, len));
        }
        let cmd = XyBlockCopyBlt {
            destination_auxiliary_surface_mode: 1,
            ..copy_row(so, d_o, len)
        };
        let e = bad_command(&run(p, kmd, &batch(p, &[pack(p, &cmd)]), &[], true));
        assert!(e.contains("compressed surface"), "{p} {kmd:?}: {e}");
    }
}

/// Addresses in the upper half of the 48-bit space, written in canonical form (bit 47 copied
/// into 63:48) as drivers write them (NEO does): the blitter translates their 48 bits.
#[test]
fn block_copy_takes_canonical_addresses() {
    const UPPER: u64 = 0xffff_8000_0000_0000;
    for (p, kmd) in blit_combos() {
        let src = pattern_src(4096);
        let blit = XyBlockCopyBlt {
            destination_base_address: UPPER | DST_VA,
            source_base_address: UPPER | SRC_VA,
            ..copy_row(0, 0, 4096)
        };
        let b = batch(p, &[pack(p, &blit)]);
        let out = run_at(p, kmd, &b, &src, true, UPPER | SRC_VA, UPPER | DST_VA);
        assert!(out.errors.is_empty(), "{p} {kmd:?}: {:?}", out.errors);
        assert_eq!(&out.dst[..4096], &src[..], "{p} {kmd:?}");
    }
}

#[test]
fn block_copy_of_a_rectangle_follows_pitch_and_bpp() {
    for (p, kmd) in blit_combos() {
        let src = pattern_src(4096);
        // 5x3 pixels of 4 bytes from (1, 2) of a 64-byte-pitch surface to (3, 1) of a
        // 128-byte-pitch one.
        let cmd = XyBlockCopyBlt {
            color_depth: XyColorDepth::Bpp32,
            destination_pitch: 127,
            destination_x1: 3,
            destination_y1: 1,
            destination_x2: 8,
            destination_y2: 4,
            destination_base_address: DST_VA,
            source_x1: 1,
            source_y1: 2,
            source_pitch: 63,
            source_base_address: SRC_VA,
            ..Default::default()
        };
        let out = run(p, kmd, &batch(p, &[pack(p, &cmd)]), &src, true);
        assert!(out.errors.is_empty(), "{p} {kmd:?}: {:?}", out.errors);
        let mut want = vec![0u8; 1024];
        for row in 0..3 {
            let s = (2 + row) * 64 + 4;
            let d = (1 + row) * 128 + 3 * 4;
            want[d..d + 20].copy_from_slice(&src[s..s + 20]);
        }
        assert_eq!(&out.dst[..1024], &want[..], "{p} {kmd:?}");
    }
}

/// Where the layouts' statements put byte `x` of row `y` of a 512-byte-pitch surface: Tile-4
/// as Mesa isl's `linear_to_tile4` pictures it (512 B blocks of 64 B × 8 rows, 2 across, of
/// 64 B cells of 16 B × 4 rows, 4 across), Tile-64 of 4-byte pixels as GmmLib's
/// `INTEL_TILE_64_32` descriptor (sixteen Tile-4 tiles, 4 × 4 row-major).
fn tiled_at(tile64: bool, x: u64, y: u64) -> u64 {
    let tile4 = |x: u64, y: u64| {
        let block = (y / 8) * 2 + x / 64;
        let cell = ((y % 8) / 4) * 4 + (x % 64) / 16;
        block * 512 + cell * 64 + (y % 4) * 16 + x % 16
    };
    if tile64 {
        let sub = (y % 128 / 32) * 4 + x % 512 / 128;
        (y / 128) * 512 * 128 + sub * 4096 + tile4(x % 128, y % 32)
    } else {
        (y / 32) * 512 * 32 + (x / 128) * 4096 + tile4(x % 128, y % 32)
    }
}

/// dg2's XY_BLOCK_COPY_BLT into a Tile-4 and a Tile-64 surface of 4-byte pixels, pitch 512
/// bytes programmed in DWords (as NEO and IGT program tiled pitches): every pixel lands where
/// the layout's statement puts it, and a copy back to linear gives the source.
#[test]
fn block_copy_to_tile4_and_tile64_places_pixels_as_the_layouts_state() {
    for (p, kmd) in blit_combos()
        .into_iter()
        .filter(|(p, _)| *p >= Platform::Dg2)
    {
        let src = pattern_src(BO_SIZE as usize);
        for (tiling, tile64) in [(2u32, false), (3, true)] {
            // Pixels (3..77, 2..101) of the linear 512-byte-pitch source to the same place.
            let (x1, y1, x2, y2) = (3i32, 2i32, 77i32, 101i32);
            let cmd = XyBlockCopyBlt {
                color_depth: XyColorDepth::Bpp32,
                destination_pitch: 512 / 4 - 1,
                destination_tiling: tiling,
                // No mip tail (GmmLib's 15, as NEO programs it for its Tile-64 images).
                destination_mip_tail_start_lod: NO_MIP_TAIL,
                destination_x1: x1,
                destination_y1: y1,
                destination_x2: x2,
                destination_y2: y2,
                destination_base_address: DST_VA,
                source_x1: x1,
                source_y1: y1,
                source_pitch: 511,
                source_base_address: SRC_VA,
                ..Default::default()
            };
            let out = run(p, kmd, &batch(p, &[pack(p, &cmd)]), &src, true);
            assert!(out.errors.is_empty(), "{p} {kmd:?}: {:?}", out.errors);
            let mut want = vec![0u8; BO_SIZE as usize];
            for y in y1 as u64..y2 as u64 {
                for bx in x1 as u64 * 4..x2 as u64 * 4 {
                    want[tiled_at(tile64, bx, y) as usize] = src[(y * 512 + bx) as usize];
                }
            }
            assert!(out.dst == want, "{p} {kmd:?} tiling {tiling}");
            // And back: the tiled image as source, a linear destination.
            let back = XyBlockCopyBlt {
                destination_pitch: 511,
                destination_tiling: 0,
                source_pitch: 512 / 4 - 1,
                source_tiling: tiling,
                source_base_address: SRC_VA,
                source_mip_tail_start_lod: NO_MIP_TAIL,
                ..cmd
            };
            let out = run(p, kmd, &batch(p, &[pack(p, &back)]), &want, true);
            assert!(out.errors.is_empty(), "{p} {kmd:?}: {:?}", out.errors);
            for y in y1 as usize..y2 as usize {
                let r = y * 512 + x1 as usize * 4..y * 512 + x2 as usize * 4;
                assert_eq!(
                    out.dst[r.clone()],
                    src[r],
                    "{p} {kmd:?} tiling {tiling} row {y}"
                );
            }
        }
    }
}

/// Mip Tail Start LOD 15: the surface has no mip tail.
const NO_MIP_TAIL: u32 = 15;

/// dg2's XY_BLOCK_COPY_BLT into slice `a` of a tiled array (2D, or 3D in Tile-4) surface of
/// 4-byte pixels, 512-byte pitch, slices QPitch rows apart: slice `a`'s row `y` is row
/// `a * QPitch + y` of the surface's 2D layout (the PRM's array layout; QPitch field = rows /
/// 4), bytes placed by the layouts' statements (`tiled_at`); and a copy from that slice back to
/// linear gives the source. Tile-64's QPitch (40 rows) is not a multiple of its 128-row tile,
/// so slices share tiles.
#[test]
fn block_copy_addresses_array_slices_qpitch_rows_apart() {
    use batchbuffer::XySurfaceType::{ThreeD, TwoD};
    for (p, kmd) in blit_combos()
        .into_iter()
        .filter(|(p, _)| *p >= Platform::Dg2)
    {
        let src = pattern_src(BO_SIZE as usize);
        // (tiling, Tile-64?, surface type, QPitch rows, slices, slice addressed)
        for (tiling, tile64, ty, qpitch, depth, a) in [
            (2u32, false, TwoD, 32u64, 4u32, 1u32),
            (2, false, TwoD, 32, 4, 3),
            (2, false, ThreeD, 32, 4, 2),
            (3, true, TwoD, 40, 3, 2),
        ] {
            let (x1, y1, x2, y2) = (5i32, 3i32, 70i32, 29i32);
            let cmd = XyBlockCopyBlt {
                color_depth: XyColorDepth::Bpp32,
                destination_pitch: 512 / 4 - 1,
                destination_tiling: tiling,
                destination_x1: x1,
                destination_y1: y1,
                destination_x2: x2,
                destination_y2: y2,
                destination_base_address: DST_VA,
                destination_surface_type: ty,
                destination_surface_width: 127,
                destination_surface_height: qpitch as u32 - 1,
                destination_surface_depth: depth - 1,
                destination_surface_qpitch: qpitch as u32 / 4,
                destination_mip_tail_start_lod: NO_MIP_TAIL,
                destination_array_index: a,
                source_x1: x1,
                source_y1: y1,
                source_pitch: 511,
                source_base_address: SRC_VA,
                ..Default::default()
            };
            let what = format!("{p} {kmd:?} tiling {tiling} {ty:?} slice {a}");
            let out = run(p, kmd, &batch(p, &[pack(p, &cmd)]), &src, true);
            assert!(out.errors.is_empty(), "{what}: {:?}", out.errors);
            let mut want = vec![0u8; BO_SIZE as usize];
            for y in y1 as u64..y2 as u64 {
                for bx in x1 as u64 * 4..x2 as u64 * 4 {
                    let at = tiled_at(tile64, bx, u64::from(a) * qpitch + y) as usize;
                    want[at] = src[(y * 512 + bx) as usize];
                }
            }
            assert!(out.dst == want, "{what}");
            // Back from the slice to linear.
            let back = XyBlockCopyBlt {
                destination_pitch: 511,
                destination_tiling: 0,
                destination_surface_type: TwoD,
                destination_surface_depth: 0,
                destination_array_index: 0,
                source_pitch: 512 / 4 - 1,
                source_tiling: tiling,
                source_base_address: SRC_VA,
                source_surface_type: ty,
                source_surface_depth: depth - 1,
                source_surface_qpitch: qpitch as u32 / 4,
                source_mip_tail_start_lod: NO_MIP_TAIL,
                source_array_index: a,
                ..cmd
            };
            let out = run(p, kmd, &batch(p, &[pack(p, &back)]), &want, true);
            assert!(out.errors.is_empty(), "{what}: {:?}", out.errors);
            for y in y1 as usize..y2 as usize {
                let r = y * 512 + x1 as usize * 4..y * 512 + x2 as usize * 4;
                assert_eq!(out.dst[r.clone()], src[r], "{what} row {y}");
            }
        }
    }
}

/// Where GmmLib's swizzle descriptor (`CpuSwizzleBlt.c`, address bit 15 first; `X`, `Y`, `Z`
/// the next bit of the byte column, row and slice) puts byte `x` of row `y` of slice `z` inside
/// one tile.
fn descriptor_offset(descriptor: &str, x: u64, y: u64, z: u64) -> u64 {
    let (mut next, mut off) = ([0u32; 3], 0);
    for (i, c) in descriptor.chars().filter(|c| *c != ' ').rev().enumerate() {
        let k = match c {
            'X' => 0,
            'Y' => 1,
            'Z' => 2,
            _ => continue,
        };
        off |= (([x, y, z][k] >> next[k]) & 1) << i;
        next[k] += 1;
    }
    off
}

/// dg2's XY_BLOCK_COPY_BLT into slice 5 of a 3D Tile-64 surface of 4-byte pixels (one volume
/// tile across: 128 B × 32 rows × 16 slices, GmmLib's `INTEL_TILE_64_3D_32`): every pixel
/// lands where the descriptor puts it in slice 5 of the tile, and a copy back to linear gives
/// the source.
#[test]
fn block_copy_addresses_3d_tile64_slices_inside_volume_tiles() {
    use batchbuffer::XySurfaceType::{ThreeD, TwoD};
    const DESCRIPTOR: &str = "ZZYX YXZY ZXYY XXXX"; // INTEL_TILE_64_3D_32
    for (p, kmd) in blit_combos()
        .into_iter()
        .filter(|(p, _)| *p >= Platform::Dg2)
    {
        let src = pattern_src(BO_SIZE as usize);
        let (x1, y1, x2, y2, a) = (2i32, 3i32, 29i32, 30i32, 5u32);
        let cmd = XyBlockCopyBlt {
            color_depth: XyColorDepth::Bpp32,
            destination_pitch: 128 / 4 - 1,
            destination_tiling: 3,
            destination_x1: x1,
            destination_y1: y1,
            destination_x2: x2,
            destination_y2: y2,
            destination_base_address: DST_VA,
            destination_surface_type: ThreeD,
            destination_surface_width: 31,
            destination_surface_height: 31,
            destination_surface_depth: 15,
            destination_surface_qpitch: 32 / 4,
            destination_mip_tail_start_lod: NO_MIP_TAIL,
            destination_array_index: a,
            source_x1: x1,
            source_y1: y1,
            source_pitch: 511,
            source_base_address: SRC_VA,
            ..Default::default()
        };
        let out = run(p, kmd, &batch(p, &[pack(p, &cmd)]), &src, true);
        assert!(out.errors.is_empty(), "{p} {kmd:?}: {:?}", out.errors);
        let mut want = vec![0u8; BO_SIZE as usize];
        for y in y1 as u64..y2 as u64 {
            for bx in x1 as u64 * 4..x2 as u64 * 4 {
                let at = descriptor_offset(DESCRIPTOR, bx, y, u64::from(a)) as usize;
                want[at] = src[(y * 512 + bx) as usize];
            }
        }
        assert!(out.dst == want, "{p} {kmd:?}");
        let back = XyBlockCopyBlt {
            destination_pitch: 511,
            destination_tiling: 0,
            destination_surface_type: TwoD,
            destination_surface_depth: 0,
            destination_array_index: 0,
            source_pitch: 128 / 4 - 1,
            source_tiling: 3,
            source_base_address: SRC_VA,
            source_surface_type: ThreeD,
            source_surface_depth: 15,
            source_surface_qpitch: 32 / 4,
            source_mip_tail_start_lod: NO_MIP_TAIL,
            source_array_index: a,
            ..cmd
        };
        let out = run(p, kmd, &batch(p, &[pack(p, &back)]), &want, true);
        assert!(out.errors.is_empty(), "{p} {kmd:?}: {:?}", out.errors);
        for y in y1 as usize..y2 as usize {
            let r = y * 512 + x1 as usize * 4..y * 512 + x2 as usize * 4;
            assert_eq!(out.dst[r.clone()], src[r], "{p} {kmd:?} row {y}");
        }
    }
}

/// Block-copy surfaces the simulator does not model, or that do not exist, are refused with
/// their reason rather than copied wrong.
#[test]
fn block_copy_refuses_unmodelled_surface_descriptions() {
    use batchbuffer::XySurfaceType::TwoD;
    for (p, kmd) in blit_combos()
        .into_iter()
        .filter(|(p, _)| *p >= Platform::Dg2)
    {
        let ok = XyBlockCopyBlt {
            color_depth: XyColorDepth::Bpp32,
            destination_pitch: 512 / 4 - 1,
            destination_tiling: 2,
            destination_x2: 16,
            destination_y2: 4,
            destination_base_address: DST_VA,
            destination_surface_type: TwoD,
            destination_surface_depth: 1,
            destination_surface_qpitch: 8,
            destination_mip_tail_start_lod: NO_MIP_TAIL,
            source_pitch: 511,
            source_base_address: SRC_VA,
            ..Default::default()
        };
        let out = run(p, kmd, &batch(p, &[pack(p, &ok)]), &[], true);
        assert!(out.errors.is_empty(), "{p} {kmd:?}: {:?}", out.errors);
        let cases = [
            (
                XyBlockCopyBlt {
                    destination_array_index: 2,
                    ..ok
                },
                "past the surface's 2 slices",
            ),
            (
                XyBlockCopyBlt {
                    destination_lod: 1,
                    ..ok
                },
                "LOD 1",
            ),
            (
                XyBlockCopyBlt {
                    destination_tiling: 3,
                    destination_mip_tail_start_lod: 0,
                    ..ok
                },
                "mip tail",
            ),
            (
                XyBlockCopyBlt {
                    source_clear_value_enable: true,
                    ..ok
                },
                "clear value",
            ),
            (
                XyBlockCopyBlt {
                    destination_depth_stencil_resource: true,
                    ..ok
                },
                "depth/stencil",
            ),
        ];
        for (cmd, reason) in cases {
            let out = run(p, kmd, &batch(p, &[pack(p, &cmd)]), &[], true);
            let e = bad_command(&out);
            assert!(e.contains(reason), "{p} {kmd:?} {reason}: {e}");
        }
    }
}

#[test]
fn fast_color_fills_with_1_to_16_byte_patterns() {
    let depths = [
        XyColorDepth::Bpp8,
        XyColorDepth::Bpp16,
        XyColorDepth::Bpp32,
        XyColorDepth::Bpp64,
        XyColorDepth::Bpp96,
        XyColorDepth::Bpp128,
    ];
    let colour = [0x1122_3344u32, 0x5566_7788, 0x99aa_bbcc, 0xddee_ff01];
    let colour_bytes: Vec<u8> = colour.iter().flat_map(|d| d.to_le_bytes()).collect();
    for (p, kmd) in blit_combos() {
        // One fill per depth, each into its own 1 KiB row, starting `pixels` in (unaligned)
        // and covering 37 pixels; then MI_FLUSH_DW writes a completion value.
        let mut cmds: Vec<Vec<u32>> = depths
            .iter()
            .enumerate()
            .map(|(i, &d)| {
                let x1 = 3 + i as i32;
                pack(
                    p,
                    &XyFastColorBlt {
                        color_depth: d,
                        destination_pitch: 1023,
                        destination_x1: x1,
                        destination_y1: i as i32,
                        destination_x2: x1 + 37,
                        destination_y2: i as i32 + 1,
                        destination_base_address: DST_VA,
                        fill_color: colour,
                        ..Default::default()
                    },
                )
            })
            .collect();
        cmds.push(pack(
            p,
            &MiFlushDw {
                post_sync_operation: 1,
                address: DST_VA + 0x8000,
                immediate_data: 0x1234_5678_9abc_def0,
                ..Default::default()
            },
        ));
        let out = run(p, kmd, &batch(p, &cmds), &[], true);
        assert!(out.errors.is_empty(), "{p} {kmd:?}: {:?}", out.errors);
        let mut want = vec![0u8; 1024 * depths.len()];
        for (i, d) in depths.iter().enumerate() {
            let bpp = d.bytes();
            let start = i * 1024 + (3 + i) * bpp;
            for (k, b) in want[start..start + 37 * bpp].iter_mut().enumerate() {
                *b = colour_bytes[k % bpp];
            }
        }
        assert_eq!(&out.dst[..want.len()], &want[..], "{p} {kmd:?}");
        assert_eq!(
            &out.dst[0x8000..0x8008],
            &0x1234_5678_9abc_def0u64.to_le_bytes(),
            "{p} {kmd:?}: MI_FLUSH_DW post-sync"
        );
    }
}

#[test]
fn empty_rectangles_write_nothing() {
    for (p, kmd) in blit_combos() {
        let fill = XyFastColorBlt {
            color_depth: XyColorDepth::Bpp32,
            destination_pitch: 1023,
            destination_x1: 5,
            destination_x2: 5,
            destination_y2: 4,
            destination_base_address: DST_VA,
            fill_color: [!0; 4],
            ..Default::default()
        };
        let out = run(p, kmd, &batch(p, &[pack(p, &fill)]), &[], true);
        assert!(out.errors.is_empty(), "{p} {kmd:?}: {:?}", out.errors);
        assert!(out.dst[..4096].iter().all(|&b| b == 0), "{p} {kmd:?}");
    }
}

fn bad_command(out: &Outcome) -> String {
    match out.errors.as_slice() {
        [e] => match &e.kind {
            GpuErrorKind::Hang(HangReason::BadCommand { detail, .. }) => detail.clone(),
            GpuErrorKind::Hang(HangReason::Unsupported { packet }) => packet.clone(),
            k => panic!("{k:?}"),
        },
        other => panic!("expected one error, got {other:?}"),
    }
}

#[test]
fn bad_blits_are_reported_with_their_reason() {
    for (p, kmd) in blit_combos() {
        let run1 = |cmd: Vec<u32>, copy| run(p, kmd, &batch(p, &[cmd]), &[], copy);
        let ok = copy_row(0, 0, 64);
        // The render engine has no blitter.
        let e = bad_command(&run1(pack(p, &ok), false));
        assert!(e.contains("not a command of rcs0"), "{p} {kmd:?}: {e}");
        // Tiling value 3: reserved on Gen12; Tile-64 on dg2, which has no 96-bpp layout.
        let tiled = XyBlockCopyBlt {
            destination_tiling: 3,
            color_depth: XyColorDepth::Bpp96,
            ..ok
        };
        let e = bad_command(&run1(pack(p, &tiled), true));
        assert!(e.contains("tiling is not modelled"), "{p} {kmd:?}: {e}");
        // A row wider than the pitch.
        let wide = XyBlockCopyBlt {
            destination_pitch: 31,
            ..ok
        };
        let e = bad_command(&run1(pack(p, &wide), true));
        assert!(e.contains("past the surface pitch"), "{p} {kmd:?}: {e}");
        // Negative coordinates (the packets have no clip rectangle).
        let negative = XyBlockCopyBlt {
            source_x1: -1,
            ..ok
        };
        let e = bad_command(&run1(pack(p, &negative), true));
        assert!(e.contains("negative"), "{p} {kmd:?}: {e}");
        // A walker-side command on the copy engine.
        let e = bad_command(&run1(pack(p, &batchbuffer::PipeControl::default()), true));
        assert!(e.contains("not a command of bcs0"), "{p} {kmd:?}: {e}");
    }
}

#[test]
fn a_blit_to_unbound_memory_faults_on_xe_bcs0() {
    for (p, kmd) in blit_combos() {
        let cmd = XyBlockCopyBlt {
            destination_base_address: 0x7f00_0000,
            ..copy_row(0, 0, 64)
        };
        assert_unbound_destination_on_bcs0(p, kmd, pack(p, &cmd), 0x7f00_0000);
    }
}

/// Gen9 and Gen11 copy engines run MI commands, and do not know Gen12's XY_BLOCK_COPY_BLT.
#[test]
fn gen9_and_gen11_copy_engines_run_mi_commands_and_not_gen12_packets() {
    let pre_gen12 = legacy_combos()
        .into_iter()
        .filter(|&(p, _)| !PacketId::XyBlockCopyBlt.exists_on(p));
    for (p, kmd) in pre_gen12 {
        let flush = MiFlushDw {
            post_sync_operation: 1,
            address: DST_VA + 16,
            immediate_data: 77,
            ..Default::default()
        };
        let out = run(p, kmd, &batch(p, &[pack(p, &flush)]), &[], true);
        assert!(out.errors.is_empty(), "{p} {kmd:?}: {:?}", out.errors);
        assert_eq!(&out.dst[16..24], &77u64.to_le_bytes(), "{p} {kmd:?}");
        // XY_BLOCK_COPY_BLT's Gen12 header (client 2, opcode 0x41, 12 dwords).
        let mut gen12 = vec![0u32; 12];
        gen12[0] = 2 << 29 | 0x41 << 22 | 10;
        let e = bad_command(&run(p, kmd, &batch(p, &[gen12]), &[], true));
        assert!(
            e.contains("unknown") || e.contains("Unknown"),
            "{p} {kmd:?}: {e}"
        );
    }
}

/// Platforms (with their drivers) with the legacy blitter packets: IGT's
/// `lib/intel_cmds_info.c` gives them to every simulated platform (Gen9 to DG2).
fn legacy_combos() -> Vec<(Platform, Kmd)> {
    let out: Vec<_> = combos()
        .into_iter()
        .filter(|&(p, _)| PacketId::XySrcCopyBlt.exists_on(p))
        .collect();
    for p in [
        Platform::Skl,
        Platform::Icllp,
        Platform::Tgllp,
        Platform::Dg2,
    ] {
        assert!(out.iter().any(|&(q, _)| q == p), "{p}: {out:?}");
    }
    out
}

/// XY_SRC_COPY_BLT copying one row of `len` bytes (8-bit pixels, the copy ROP).
fn src_copy_row(src_off: u64, dst_off: u64, len: i32) -> XySrcCopyBlt {
    XySrcCopyBlt {
        raster_operation: 0xcc,
        color_depth: XyLegacyColorDepth::Bpp8,
        destination_pitch: len,
        destination_x2: len,
        destination_y2: 1,
        destination_base_address: DST_VA + dst_off,
        source_pitch: len,
        source_base_address: SRC_VA + src_off,
        ..Default::default()
    }
}

#[test]
fn src_copy_of_a_range_matches_memcpy() {
    for (p, kmd) in legacy_combos() {
        let (so, d_o, len) = (13u64, 1001u64, 2049i32);
        let b = batch(p, &[pack(p, &src_copy_row(so, d_o, len))]);
        assert_range_copied(p, kmd, &b, (so, d_o, len));
    }
}

/// A 5x3 rectangle from (1, 2) of a 64-byte-pitch surface to (3, 1) of a 128-byte-pitch one,
/// at every legacy depth (pitches in bytes, as programmed): by XY_SRC_COPY_BLT with all bytes
/// written, and at 32 bpp with Write Alpha alone, which copies byte 3 of each pixel only.
#[test]
fn src_copy_of_a_rectangle_follows_pitch_depth_and_byte_mask() {
    let depths = [
        XyLegacyColorDepth::Bpp8,
        XyLegacyColorDepth::Bpp16Rgb565,
        XyLegacyColorDepth::Bpp16Argb1555,
        XyLegacyColorDepth::Bpp32,
    ];
    for (p, kmd) in legacy_combos() {
        let src = pattern_src(4096);
        for (depth, rgb, alpha) in depths.iter().map(|&d| (d, true, true)).chain([(
            XyLegacyColorDepth::Bpp32,
            false,
            true,
        )]) {
            let cmd = XySrcCopyBlt {
                write_rgb: rgb,
                write_alpha: alpha,
                raster_operation: 0xcc,
                color_depth: depth,
                destination_pitch: 128,
                destination_x1: 3,
                destination_y1: 1,
                destination_x2: 8,
                destination_y2: 4,
                destination_base_address: DST_VA,
                source_x1: 1,
                source_y1: 2,
                source_pitch: 64,
                source_base_address: SRC_VA,
                ..Default::default()
            };
            let out = run(p, kmd, &batch(p, &[pack(p, &cmd)]), &src, true);
            assert!(out.errors.is_empty(), "{p} {kmd:?}: {:?}", out.errors);
            let bpp = depth.bytes();
            let mut want = vec![0u8; 1024];
            for row in 0..3 {
                let s = (2 + row) * 64 + bpp;
                let d = (1 + row) * 128 + 3 * bpp;
                for k in 0..5 * bpp {
                    if rgb || k % 4 == 3 {
                        want[d + k] = src[s + k];
                    }
                }
            }
            assert_eq!(&out.dst[..1024], &want[..], "{p} {kmd:?} {depth:?} {rgb}");
        }
    }
}

/// Raster operations over source and destination: copy, then S xor D (zero), on one row;
/// NOT S on another.
#[test]
fn src_copy_applies_its_raster_operation() {
    for (p, kmd) in legacy_combos() {
        let src = pattern_src(256);
        let rop = |op: u32, dst_off: u64| XySrcCopyBlt {
            raster_operation: op,
            ..src_copy_row(0, dst_off, 100)
        };
        let cmds = [
            pack(p, &rop(0xcc, 0)),
            pack(p, &rop(0x66, 0)),
            pack(p, &rop(0x33, 128)),
        ];
        let out = run(p, kmd, &batch(p, &cmds), &src, true);
        assert!(out.errors.is_empty(), "{p} {kmd:?}: {:?}", out.errors);
        assert!(out.dst[..128].iter().all(|&b| b == 0), "{p} {kmd:?}");
        let not: Vec<u8> = src[..100].iter().map(|b| !b).collect();
        assert_eq!(&out.dst[128..228], &not[..], "{p} {kmd:?}");
    }
}

/// XY_COLOR_BLT at 8, 16 and 32 bpp (its depths), each into its own 1 KiB row from an
/// unaligned pixel, 37 pixels long; a 32-bpp fill with Write RGB alone leaves byte 3.
#[test]
fn color_blt_fills_8_16_and_32_bit_patterns() {
    let colour = 0x1122_3344u32;
    let fills = [
        (XyLegacyColorDepth::Bpp8, true, true),
        (XyLegacyColorDepth::Bpp16Rgb565, true, true),
        (XyLegacyColorDepth::Bpp32, true, true),
        (XyLegacyColorDepth::Bpp32, true, false),
    ];
    for (p, kmd) in legacy_combos() {
        let cmds: Vec<Vec<u32>> = fills
            .iter()
            .enumerate()
            .map(|(i, &(depth, rgb, alpha))| {
                let x1 = 3 + i as i32;
                pack(
                    p,
                    &XyColorBlt {
                        write_rgb: rgb,
                        write_alpha: alpha,
                        raster_operation: 0xf0,
                        color_depth: depth,
                        destination_pitch: 1024,
                        destination_x1: x1,
                        destination_y1: i as i32,
                        destination_x2: x1 + 37,
                        destination_y2: i as i32 + 1,
                        destination_base_address: DST_VA,
                        solid_pattern_color: colour,
                        ..Default::default()
                    },
                )
            })
            .collect();
        let out = run(p, kmd, &batch(p, &cmds), &[], true);
        assert!(out.errors.is_empty(), "{p} {kmd:?}: {:?}", out.errors);
        let mut want = vec![0u8; 1024 * fills.len()];
        for (i, &(depth, _, alpha)) in fills.iter().enumerate() {
            let bpp = depth.bytes();
            let start = i * 1024 + (3 + i) * bpp;
            for (k, b) in want[start..start + 37 * bpp].iter_mut().enumerate() {
                if alpha || k % 4 != 3 {
                    *b = colour.to_le_bytes()[k % bpp];
                }
            }
        }
        assert_eq!(&out.dst[..want.len()], &want[..], "{p} {kmd:?}");
    }
}

/// XY_FAST_COPY_BLT at each of its depths (1 to 16 bytes): a 5x3 rectangle between pitches.
#[test]
fn fast_copy_at_every_depth_matches_memcpy() {
    let depths = [
        XyFastCopyColorDepth::Bpp8,
        XyFastCopyColorDepth::Bpp16,
        XyFastCopyColorDepth::Bpp32,
        XyFastCopyColorDepth::Bpp64,
        XyFastCopyColorDepth::Bpp128,
    ];
    for (p, kmd) in legacy_combos() {
        let src = pattern_src(4096);
        for depth in depths {
            let cmd = XyFastCopyBlt {
                color_depth: depth,
                destination_pitch: 256,
                destination_x1: 3,
                destination_y1: 1,
                destination_x2: 8,
                destination_y2: 4,
                destination_base_address: DST_VA,
                source_x1: 1,
                source_y1: 2,
                source_pitch: 128,
                source_base_address: SRC_VA,
                ..Default::default()
            };
            let out = run(p, kmd, &batch(p, &[pack(p, &cmd)]), &src, true);
            assert!(out.errors.is_empty(), "{p} {kmd:?}: {:?}", out.errors);
            let bpp = depth.bytes();
            let mut want = vec![0u8; 2048];
            for row in 0..3 {
                let s = (2 + row) * 128 + bpp;
                let d = (1 + row) * 256 + 3 * bpp;
                want[d..d + 5 * bpp].copy_from_slice(&src[s..s + 5 * bpp]);
            }
            assert_eq!(&out.dst[..2048], &want[..], "{p} {kmd:?} {depth:?}");
        }
    }
}

#[test]
fn bad_legacy_blits_are_reported_with_their_reason() {
    for (p, kmd) in legacy_combos() {
        let run1 = |cmd: Vec<u32>, copy| run(p, kmd, &batch(p, &[cmd]), &[], copy);
        let ok = src_copy_row(0, 0, 64);
        let e = bad_command(&run1(pack(p, &ok), false));
        assert!(e.contains("not a command of rcs0"), "{p} {kmd:?}: {e}");
        for tiled in [
            XySrcCopyBlt {
                source_tiling_enable: true,
                ..ok
            },
            XySrcCopyBlt {
                destination_tiling_enable: true,
                ..ok
            },
        ] {
            let e = bad_command(&run1(pack(p, &tiled), true));
            assert!(
                e.contains("XY_SRC_COPY_BLT with a tiled"),
                "{p} {kmd:?}: {e}"
            );
        }
        let fast_tiled = XyFastCopyBlt {
            source_tiling: 1,
            destination_pitch: 64,
            destination_x2: 64,
            destination_y2: 1,
            destination_base_address: DST_VA,
            source_pitch: 64,
            source_base_address: SRC_VA,
            ..Default::default()
        };
        // Tile-4 (DG2's bit 30) alone is tiled as well.
        let tile4 = XyFastCopyBlt {
            source_tiling: 0,
            destination_tile4: true,
            ..fast_tiled
        };
        let has_tile4 = PacketId::XyFastCopyBlt
            .layout()
            .field("Destination Tile4")
            .and_then(|f| f.loc(p))
            .is_some();
        let mut tiled = vec![fast_tiled];
        tiled.extend(has_tile4.then_some(tile4));
        for t in tiled {
            let e = bad_command(&run1(pack(p, &t), true));
            assert!(
                e.contains("XY_FAST_COPY_BLT with a tiled"),
                "{p} {kmd:?}: {e}"
            );
        }
        let fill_tiled = XyColorBlt {
            destination_tiling_enable: true,
            raster_operation: 0xf0,
            destination_pitch: 64,
            destination_x2: 1,
            destination_y2: 1,
            destination_base_address: DST_VA,
            ..Default::default()
        };
        let e = bad_command(&run1(pack(p, &fill_tiled), true));
        assert!(e.contains("XY_COLOR_BLT with a tiled"), "{p} {kmd:?}: {e}");
        // XY_SRC_COPY_BLT has no pattern, XY_COLOR_BLT no source.
        let e = bad_command(&run1(
            pack(
                p,
                &XySrcCopyBlt {
                    raster_operation: 0xf0,
                    ..ok
                },
            ),
            true,
        ));
        assert!(e.contains("reads a pattern"), "{p} {kmd:?}: {e}");
        let e = bad_command(&run1(
            pack(
                p,
                &XyColorBlt {
                    destination_tiling_enable: false,
                    raster_operation: 0xcc,
                    ..fill_tiled
                },
            ),
            true,
        ));
        assert!(e.contains("reads a source"), "{p} {kmd:?}: {e}");
        let e = bad_command(&run1(
            pack(
                p,
                &XySrcCopyBlt {
                    source_pitch: -64,
                    ..ok
                },
            ),
            true,
        ));
        assert!(e.contains("negative pitch"), "{p} {kmd:?}: {e}");
        let e = bad_command(&run1(
            pack(
                p,
                &XySrcCopyBlt {
                    destination_pitch: 32,
                    ..ok
                },
            ),
            true,
        ));
        assert!(e.contains("past the surface pitch"), "{p} {kmd:?}: {e}");
        // A reserved colour depth of XY_FAST_COPY_BLT (2).
        let mut reserved = pack(
            p,
            &XyFastCopyBlt {
                source_tiling: 0,
                ..fast_tiled
            },
        );
        reserved[1] |= 2 << 24;
        let e = bad_command(&run1(reserved, true));
        assert!(e.contains("Color Depth"), "{p} {kmd:?}: {e}");
    }
}

#[test]
fn a_legacy_blit_to_unbound_memory_faults_on_xe_bcs0() {
    for (p, kmd) in legacy_combos() {
        let cmd = XySrcCopyBlt {
            destination_base_address: 0x7f00_0000,
            ..src_copy_row(0, 0, 64)
        };
        assert_unbound_destination_on_bcs0(p, kmd, pack(p, &cmd), 0x7f00_0000);
    }
}

/// Runs one blit whose destination is unbound. On xe (a VM without a scratch page): one error,
/// a page fault at `address` on bcs0. On i915 none: the PPGTT's unused entries reach its scratch
/// page (`gen8_init_scratch`; what lands there: `sim/tests/i915_exec.rs`).
fn assert_unbound_destination_on_bcs0(p: Platform, kmd: Kmd, cmd: Vec<u32>, address: u64) {
    let out = run(p, kmd, &batch(p, &[cmd]), &[], true);
    if kmd == Kmd::I915 {
        assert!(out.errors.is_empty(), "{p}: {:?}", out.errors);
        return;
    }
    match out.errors.as_slice() {
        [e] => {
            assert_eq!(e.engine, "bcs0", "{p} {kmd:?}");
            assert!(
                matches!(&e.kind, GpuErrorKind::PageFault { fault, .. } if fault.address == address),
                "{p} {kmd:?}: {:?}",
                e.kind
            );
        }
        other => panic!("{p} {kmd:?}: {other:?}"),
    }
}

/// Runs a batch copying `len` bytes from source byte `so` to destination byte `d_o` over the
/// 4 KiB pattern source: the destination is memcpy's result, the rest zero.
fn assert_range_copied(p: Platform, kmd: Kmd, b: &[u8], (so, d_o, len): (u64, u64, i32)) {
    let src = pattern_src(4096);
    let out = run(p, kmd, b, &src, true);
    assert!(out.errors.is_empty(), "{p} {kmd:?}: {:?}", out.errors);
    let mut want = vec![0u8; 4096];
    want[d_o as usize..d_o as usize + len as usize]
        .copy_from_slice(&src[so as usize..so as usize + len as usize]);
    assert_eq!(&out.dst[..4096], &want[..], "{p} {kmd:?}");
}
