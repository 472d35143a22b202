//! Tiled surface layouts (`sim::mem::tiling`): the address function against golden offsets
//! worked by hand from independent statements of each layout, and a round trip through the
//! data port — typed writes fill a tiled 2D-array image, typed reads and media block reads
//! read it back, and a CPU detile of the memory (by the same independent statements) compares.
//!
//! The statements the golden values are worked from:
//! - Tile-X: 4 KiB tiles of 512 B × 8 rows, row-major inside the tile, tiles row-major
//!   (IGT `lib/intel_bufops.c` `x_ptr`).
//! - legacy Tile-Y: 4 KiB tiles of 128 B × 32 rows made of eight 16-byte (OWord) columns of 32
//!   rows each, column after column (IGT `y_ptr`; Mesa isl's Tile-Y bit table).
//! - Tile-4: 4 KiB tiles of 128 B × 32 rows made of 512 B blocks of 64 B × 8 rows, two across
//!   and four down, row-major; each block holds 64 B cells of 16 B × 4 rows, four across and
//!   two down, row-major; a cell's rows are 16 bytes each (Mesa isl `linear_to_tile4`'s
//!   picture of the tile).
//! - Tile-64 (2D, one sample): 64 KiB tiles of sixteen Tile-4 tiles, row-major in a grid
//!   2 × 8 (1-byte elements), 4 × 4 (2 and 4 bytes) or 8 × 2 (8 and 16 bytes): GmmLib's swizzle
//!   descriptors `INTEL_TILE_64_8` … `_128` in `CpuSwizzleBlt.c` (bits 15..12 Y Y Y X, Y Y X X,
//!   Y X X X above Tile-4's twelve), whose tile extents, 256 × 256 elements for 8 bpp down to
//!   64 × 64 for 128 bpp, are Mesa isl's Tile-64 extents.

#[path = "eu_support.rs"]
mod support;

use batchbuffer::surface_format as sf;
use platform::Platform;
use sim::mem::tiling::Tiling;
use sim_eu::{ImageSurface, Surface};
use support::*;

/// (layout, pitch in bytes, byte column, row, offset)
const GOLDEN: &[(Tiling, u64, u64, u64, u64)] = &[
    // Tile-X, 2 tiles across (pitch 1024): tile (1, 0) at 4096, tile row 1 at 8 * 1024 rows...
    (Tiling::X, 1024, 0, 0, 0),
    (Tiling::X, 1024, 511, 0, 511),
    (Tiling::X, 1024, 512, 0, 4096),
    (Tiling::X, 1024, 0, 1, 512),
    (Tiling::X, 1024, 5, 7, 7 * 512 + 5),
    (Tiling::X, 1024, 0, 8, 8192),
    // tile (1, 1): 8192 + 4096, row 1 of it: + 512, byte 188: + 188.
    (Tiling::X, 1024, 700, 9, 12988),
    (Tiling::X, 1024, 1023, 15, 16383),
    // Tile-Y, 2 tiles across (pitch 256).
    (Tiling::Y, 256, 15, 0, 15),
    // byte 16 starts OWord column 1, 32 rows × 16 B = 512 bytes in.
    (Tiling::Y, 256, 16, 0, 512),
    (Tiling::Y, 256, 0, 1, 16),
    // column 1 (512), row 3 (48), byte 1.
    (Tiling::Y, 256, 17, 3, 561),
    (Tiling::Y, 256, 127, 31, 4095),
    (Tiling::Y, 256, 128, 0, 4096),
    // tile (1, 1) at 8192 + 4096, column 0, row 1 (16), byte 2.
    (Tiling::Y, 256, 130, 33, 12306),
    (Tiling::Y, 256, 255, 63, 16383),
    // Tile-4, 2 tiles across (pitch 256).
    (Tiling::Tile4, 256, 15, 0, 15),
    // byte 16: cell 1 of block 0.
    (Tiling::Tile4, 256, 16, 0, 64),
    (Tiling::Tile4, 256, 0, 1, 16),
    // row 4: cell 4 (second cell row) of block 0.
    (Tiling::Tile4, 256, 0, 4, 256),
    // cell 1 (64), row 3 of it (48), byte 1.
    (Tiling::Tile4, 256, 17, 3, 113),
    // byte 64: block 1.
    (Tiling::Tile4, 256, 64, 0, 512),
    // row 8: block 2.
    (Tiling::Tile4, 256, 0, 8, 1024),
    // row 13, byte 100: block 3 (1536), cell 6 (384), row 1 of it (16), byte 4.
    (Tiling::Tile4, 256, 100, 13, 1940),
    (Tiling::Tile4, 256, 127, 31, 4095),
    (Tiling::Tile4, 256, 128, 0, 4096),
    (Tiling::Tile4, 256, 130, 33, 12306),
    (Tiling::Tile4, 256, 255, 63, 16383),
    // Tile-64 of 4-byte elements (512 B × 128 rows), 2 tiles across (pitch 1024).
    (T64_4, 1024, 0, 0, 0),
    // byte 128: Tile-4 sub-tile 1; byte 256: sub-tile 2; row 32: sub-tile 4.
    (T64_4, 1024, 128, 0, 4096),
    (T64_4, 1024, 256, 0, 8192),
    (T64_4, 1024, 0, 32, 16384),
    (T64_4, 1024, 511, 127, 65535),
    (T64_4, 1024, 512, 0, 65536),
    (T64_4, 1024, 0, 128, 131072),
    // tile 1 (65536), byte 188 row 45: sub-tile 1 + 4 * 1 (20480), Tile-4 (60, 13): block 2
    // (1024), cell 7 (448), row 1 of it (16), byte 12.
    (T64_4, 1024, 700, 45, 87516),
    // 1-byte elements (256 B × 256 rows, sub-tiles 2 across), pitch 512.
    (T64_1, 512, 128, 0, 4096),
    (T64_1, 512, 0, 32, 8192),
    (T64_1, 512, 255, 255, 65535),
    (T64_1, 512, 256, 0, 65536),
    (T64_1, 512, 0, 256, 131072),
    // 16-byte elements (1024 B × 64 rows, sub-tiles 8 across), pitch 2048.
    (T64_16, 2048, 128, 0, 4096),
    (T64_16, 2048, 896, 0, 28672),
    (T64_16, 2048, 0, 32, 32768),
    (T64_16, 2048, 1023, 63, 65535),
    (T64_16, 2048, 1024, 0, 65536),
    (T64_16, 2048, 0, 64, 131072),
];

const T64_1: Tiling = Tiling::Tile64 { log2_bpe: 0 };
const T64_4: Tiling = Tiling::Tile64 { log2_bpe: 2 };
const T64_16: Tiling = Tiling::Tile64 { log2_bpe: 4 };

#[test]
fn tiled_offsets_match_the_layouts_worked_by_hand() {
    for &(t, pitch, x, y, want) in GOLDEN {
        assert_eq!(
            t.offset(pitch, x, y),
            want,
            "{t:?} pitch {pitch} ({x}, {y})"
        );
    }
    assert_eq!(Tiling::Linear.offset(96, 5, 3), 3 * 96 + 5);
}

/// GmmLib's swizzle descriptors (`CpuSwizzleBlt.c`), address bit 15 first: `X`/`Y` is the next
/// bit of the byte column/row, `o` a bit above a 4 KiB tile.
const GMMLIB: &[(Tiling, &str)] = &[
    (Tiling::X, "oooo YYYX XXXX XXXX"),     // INTEL_TILE_X
    (Tiling::Y, "oooo XXXY YYYY XXXX"),     // INTEL_TILE_Y
    (Tiling::Tile4, "oooo YYXY XXYY XXXX"), // INTEL_TILE_4
    (T64_1, "YYYX YYXY XXYY XXXX"),         // INTEL_TILE_64_8
    (Tiling::Tile64 { log2_bpe: 1 }, "YYXX YYXY XXYY XXXX"), // INTEL_TILE_64_16
    (T64_4, "YYXX YYXY XXYY XXXX"),         // INTEL_TILE_64_32
    (Tiling::Tile64 { log2_bpe: 3 }, "YXXX YYXY XXYY XXXX"), // INTEL_TILE_64_64
    (T64_16, "YXXX YYXY XXYY XXXX"),        // INTEL_TILE_64_128
];

/// Where a descriptor puts byte `x` of row `y` inside one tile.
fn gmmlib_offset(descriptor: &str, x: u64, y: u64) -> u64 {
    let bits: Vec<char> = descriptor.chars().filter(|c| *c != ' ').collect();
    let (mut xi, mut yi, mut off) = (0, 0, 0);
    for (i, c) in bits.iter().rev().enumerate() {
        let (v, n) = match c {
            'X' => (x, &mut xi),
            'Y' => (y, &mut yi),
            _ => continue,
        };
        off |= ((v >> *n) & 1) << i;
        *n += 1;
    }
    off
}

#[test]
fn every_tile_byte_sits_where_gmmlib_swizzle_descriptors_put_it() {
    for &(t, d) in GMMLIB {
        let xs = d.matches('X').count() as u32;
        let ys = d.matches('Y').count() as u32;
        assert_eq!(t.tile_size(), (1 << xs, 1 << ys), "{t:?}");
        let (w, h) = t.tile_size();
        for y in 0..h {
            for x in 0..w {
                let want = gmmlib_offset(d, x, y);
                assert_eq!(t.offset(w, x, y), want, "{t:?} ({x}, {y})");
                // A tile to the right and one below, pitch two tiles: row-major tiles.
                let tile = w * h;
                assert_eq!(t.offset(2 * w, x + w, y), tile + want, "{t:?}");
                assert_eq!(t.offset(2 * w, x, y + h), 2 * tile + want, "{t:?}");
            }
        }
    }
}

#[test]
fn tile_modes_name_the_layouts_genxml_lists() {
    // RENDER_SURFACE_STATE Tile Mode: Gen9–Gen12LP LINEAR, WMAJOR, XMAJOR, YMAJOR (Tiled
    // Resource Mode NONE, 4KB = Yf, 64KB = Ys); Xe-HPG LINEAR, TILE64, XMAJOR, TILE4.
    assert_eq!(
        Tiling::from_surface_state(false, 0, 0, 4),
        Ok(Tiling::Linear)
    );
    assert_eq!(Tiling::from_surface_state(false, 2, 0, 4), Ok(Tiling::X));
    assert_eq!(Tiling::from_surface_state(false, 3, 0, 4), Ok(Tiling::Y));
    assert_eq!(Tiling::from_surface_state(true, 3, 0, 4), Ok(Tiling::Tile4));
    assert_eq!(Tiling::from_surface_state(true, 2, 0, 4), Ok(Tiling::X));
    assert_eq!(Tiling::from_surface_state(true, 1, 0, 4), Ok(T64_4));
    assert_eq!(Tiling::from_surface_state(true, 1, 0, 1), Ok(T64_1));
    for (xe_hpg, mode, trm, bpe) in [
        (false, 1, 0, 4),
        (false, 3, 1, 4),
        (false, 3, 2, 4),
        // Tile-64 has no 96-bpp layout (GmmLib lists 8..128 bpp powers of two).
        (true, 1, 0, 12),
    ] {
        let e = Tiling::from_surface_state(xe_hpg, mode, trm, bpe).unwrap_err();
        assert!(!e.to_string().is_empty());
    }
    // XY_BLOCK_COPY_BLT on Xe-HPG: LINEAR, X, 4, 64.
    assert_eq!(Tiling::from_block_copy(true, 1, 4), Ok(Tiling::X));
    assert_eq!(Tiling::from_block_copy(true, 2, 4), Ok(Tiling::Tile4));
    assert_eq!(Tiling::from_block_copy(true, 3, 16), Ok(T64_16));
    assert!(Tiling::from_block_copy(true, 3, 12).is_err());
    assert!(Tiling::from_block_copy(false, 1, 4).is_err());
}

const BASE: u64 = 0x40_0000;
/// The image: RGBA8, 40 × 36 texels, 2 layers 48 rows apart (QPitch).
const W: u32 = 40;
const H: u32 = 36;
const LAYERS: u32 = 2;
const QPITCH_ROWS: u64 = 48;

/// Where the test's own statement of each layout puts byte `x` of row `y`.
fn reference_offset(t: Tiling, pitch: u64, x: u64, y: u64) -> u64 {
    match t {
        Tiling::Linear => y * pitch + x,
        Tiling::X => (y / 8) * pitch * 8 + (x / 512) * 4096 + (y % 8) * 512 + x % 512,
        Tiling::Y => {
            let (tx, ty) = (x % 128, y % 32);
            (y / 32) * pitch * 32 + (x / 128) * 4096 + (tx / 16) * 512 + ty * 16 + tx % 16
        }
        Tiling::Tile4 => {
            let (tx, ty) = (x % 128, y % 32);
            let block = (ty / 8) * 2 + tx / 64;
            let cell = ((ty % 8) / 4) * 4 + (tx % 64) / 16;
            (y / 32) * pitch * 32
                + (x / 128) * 4096
                + block * 512
                + cell * 64
                + (ty % 4) * 16
                + tx % 16
        }
        Tiling::Tile64 { log2_bpe } => {
            let across = [2, 4, 4, 8, 8][usize::from(log2_bpe)];
            let (w, h) = (128 * across, 32 * 16 / across);
            let (tx, ty) = (x % w, y % h);
            let sub = (ty / 32) * across + tx / 128;
            (y / h) * pitch * h
                + (x / w) * 65536
                + sub * 4096
                + reference_offset(Tiling::Tile4, 128, tx % 128, ty % 32)
        }
    }
}

fn texel(u: u32, v: u32, r: u32) -> [u32; 4] {
    [u, v, r, (u * 7 + v * 3 + r * 11) & 0xff]
}

fn tiled_image(t: Tiling, pitch: u64) -> Surface {
    Surface {
        base: BASE,
        width: u64::from(W) * 4,
        height: H,
        pitch,
        tiling: t,
        image: Some(ImageSurface {
            format: sf::R8G8B8A8_UINT,
            dims: 2,
            array: true,
            size: [W, H, LAYERS],
            slice_pitch: QPITCH_ROWS * pitch,
            row_pitch: pitch,
            mip: sim_eu::ImageMips::NONE,
            chroma_row: 0,
        }),
    }
}

#[test]
fn typed_writes_then_typed_and_media_block_reads_round_trip_through_tiled_images() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    // Typed write RGBA (BTI 1): U in r2, V, R and the four channels in r3-r8. Typed read RGBA
    // into r20-r23. Media block read (BTI 1) of 32 bytes × 1 row into r12.
    let write = program(
        &iga,
        Platform::Tgllp,
        "send.dc1 (8|M0) null r2 r3 0x180 0x02035001",
    );
    let read = program(
        &iga,
        Platform::Tgllp,
        "send.dc1 (8|M0) r20 r2 r3 0x80 0x02415001",
    );
    let block = program(
        &iga,
        Platform::Tgllp,
        "send.dc1 (8|M0) r12 r2 null 0x0 0x02290001",
    );
    for (t, pitch) in [
        (Tiling::Y, 256),
        (Tiling::Tile4, 256),
        (Tiling::X, 512),
        (T64_4, 512),
    ] {
        let rows = (QPITCH_ROWS * u64::from(LAYERS)).next_multiple_of(t.tile_size().1);
        let mut mem = TestMem::new(BASE, (rows * pitch) as usize);
        mem.surfaces.insert(1, tiled_image(t, pitch));
        let coords: Vec<[u32; 3]> = (0..LAYERS)
            .flat_map(|r| (0..H).flat_map(move |v| (0..W).map(move |u| [u, v, r])))
            .collect();
        for lanes in coords.chunks(8) {
            let col = |k: usize| -> Vec<u32> {
                (0..8).map(|i| lanes[i.min(lanes.len() - 1)][k]).collect()
            };
            let chan = |c: usize| -> Vec<u32> {
                (0..8)
                    .map(|i| {
                        let [u, v, r] = lanes[i.min(lanes.len() - 1)];
                        texel(u, v, r)[c]
                    })
                    .collect()
            };
            run_on(&write, 8, &mut mem, |th| {
                set_u32s(th, 2, &col(0));
                set_u32s(th, 3, &col(1));
                set_u32s(th, 4, &col(2));
                for c in 0..4 {
                    set_u32s(th, 5 + c, &chan(c));
                }
            })
            .unwrap();
        }
        // The CPU detile: every texel where the layout's statement puts it.
        for &[u, v, r] in &coords {
            let row = u64::from(r) * QPITCH_ROWS + u64::from(v);
            let at = reference_offset(t, pitch, u64::from(u) * 4, row) as usize;
            let want = texel(u, v, r).map(|c| c as u8);
            assert_eq!(mem.bytes[at..at + 4], want, "{t:?} texel ({u}, {v}, {r})");
        }
        // Typed reads give every texel back.
        for lanes in coords.chunks(8).step_by(3) {
            let col = |k: usize| -> Vec<u32> { lanes.iter().map(|c| c[k]).collect() };
            let th = run_on(&read, 8, &mut mem, |th| {
                set_u32s(th, 2, &col(0));
                set_u32s(th, 3, &col(1));
                set_u32s(th, 4, &col(2));
            })
            .unwrap();
            for (i, &[u, v, r]) in lanes.iter().enumerate() {
                let got: Vec<u32> = (0..4).map(|c| th.grf_u32(20 + c, i)).collect();
                assert_eq!(got, texel(u, v, r), "{t:?} read ({u}, {v}, {r})");
            }
        }
        // Media block reads of layer 0 from unaligned byte columns, across 16-byte columns.
        for (x, y) in [(0u32, 0u32), (5, 1), (100, 31), (13, 32), (124, 35)] {
            let th = run_on(&block, 8, &mut mem, |th| set_u32s(th, 2, &[x, y, 31])).unwrap();
            for k in 0..8u32 {
                let mut want = [0u8; 4];
                for (j, w) in want.iter_mut().enumerate() {
                    let bx = x + 4 * k + j as u32;
                    // Past the row's 160 bytes the block reads the edge uint.
                    let bx = if x + 4 * k + 4 <= W * 4 {
                        bx
                    } else {
                        (W - 1) * 4 + j as u32
                    };
                    let at = reference_offset(t, pitch, u64::from(bx), u64::from(y)) as usize;
                    *w = mem.bytes[at];
                }
                assert_eq!(
                    th.grf_u32(12, k as usize),
                    u32::from_le_bytes(want),
                    "{t:?} block ({x}, {y}) uint {k}"
                );
            }
        }
    }
}
