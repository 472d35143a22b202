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
//! - Tile-64 of a 3D surface: 64 KiB volume tiles whose address bits are GmmLib's
//!   `INTEL_TILE_64_3D_8` … `_128` descriptors (`Z` the next bit of the slice), extents (bytes ×
//!   rows × slices) 64 × 32 × 32 for 8 and 16 bpp, 128 × 32 × 16 for 32, 256 × 16 × 16 for 64
//!   and 128 (GmmLib's `TILE__64_3D_*` tile-mode table); slices in slabs a tile deep, slab `k`
//!   QPitch × pitch × tile depth bytes after slab `k - 1` (GmmLib's `GetMipMapByteAddress`
//!   multiplies a 3D tiled surface's QPitch by the tile depth), tile rows pitch × tile rows ×
//!   tile depth bytes apart (the tiles of a slab row-major, 64 KiB each).

use crate::eu_support as support;

use batchbuffer::surface_format as sf;
use platform::Platform;
use sim::mem::tiling::Tiling;
use sim_eu::{ImageSurface, Program, Surface};
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
const V64_1: Tiling = Tiling::Tile64Volume { log2_bpe: 0 };
const V64_2: Tiling = Tiling::Tile64Volume { log2_bpe: 1 };
const V64_4: Tiling = Tiling::Tile64Volume { log2_bpe: 2 };
const V64_16: Tiling = Tiling::Tile64Volume { log2_bpe: 4 };

/// (3D Tile-64 layout, pitch in bytes, byte column, row, slice within the tile, offset),
/// worked by hand from GmmLib's descriptors (address bit 15 first; the bits of each coordinate
/// counted from the right):
/// `INTEL_TILE_64_3D_8`   `Z Z Z X Y Y Z Y Z X Y Y X X X X`,
/// `INTEL_TILE_64_3D_16`  `Z Z Z Y Y X Z Y Z X Y Y X X X X`,
/// `INTEL_TILE_64_3D_32`  `Z Z Y X Y X Z Y Z X Y Y X X X X`,
/// `INTEL_TILE_64_3D_128` `Z Z Y X X X Z Y Z X Y Y X X X X`.
const GOLDEN_3D: &[(Tiling, u64, u64, u64, u64, u64)] = &[
    // 3D_32 (128 B × 32 rows × 16 slices): x bits at 0-3, 6, 10, 12; y at 4, 5, 8, 11, 13;
    // z at 7, 9, 14, 15.
    (V64_4, 128, 15, 0, 0, 15),
    (V64_4, 128, 16, 0, 0, 64),
    (V64_4, 128, 32, 0, 0, 1024),
    (V64_4, 128, 64, 0, 0, 4096),
    (V64_4, 128, 0, 1, 0, 16),
    (V64_4, 128, 0, 4, 0, 256),
    (V64_4, 128, 0, 8, 0, 2048),
    (V64_4, 128, 0, 16, 0, 8192),
    (V64_4, 128, 0, 0, 1, 128),
    (V64_4, 128, 0, 0, 2, 512),
    (V64_4, 128, 0, 0, 4, 16384),
    (V64_4, 128, 0, 0, 8, 32768),
    (V64_4, 128, 127, 31, 15, 65535),
    // x 100 = 64 + 32 + 4: 4096 + 1024 + 4; y 13 = 8 + 4 + 1: 2048 + 256 + 16; z 5 = 4 + 1:
    // 16384 + 128.
    (V64_4, 128, 100, 13, 5, 23956),
    // Two tiles across (pitch 256): tile (1, 0) at 64 KiB; tile row 1 (row 32) after two tiles;
    // tile (1, 1) with x 2, y 1, z 1 inside: 196608 + 2 + 16 + 128.
    (V64_4, 256, 128, 0, 0, 65536),
    (V64_4, 256, 0, 32, 0, 131072),
    (V64_4, 256, 130, 33, 1, 196754),
    // 3D_8 (64 B × 32 rows × 32 slices): x at 0-3, 6, 12; y at 4, 5, 8, 10, 11; z at 7, 9,
    // 13, 14, 15.
    (V64_1, 64, 32, 0, 0, 4096),
    (V64_1, 64, 0, 8, 0, 1024),
    (V64_1, 64, 0, 16, 0, 2048),
    (V64_1, 64, 0, 0, 16, 32768),
    (V64_1, 64, 63, 31, 31, 65535),
    // x 37 = 32 + 4 + 1: 4096 + 4 + 1; y 21 = 16 + 4 + 1: 2048 + 256 + 16; z 19 = 16 + 2 + 1:
    // 32768 + 512 + 128.
    (V64_1, 64, 37, 21, 19, 39829),
    // 3D_16 (64 B × 32 rows × 32 slices): x at 0-3, 6, 10; y at 4, 5, 8, 11, 12; z at 7, 9,
    // 13, 14, 15.
    (V64_2, 64, 32, 0, 0, 1024),
    (V64_2, 64, 0, 8, 0, 2048),
    (V64_2, 64, 0, 16, 0, 4096),
    (V64_2, 64, 0, 0, 4, 8192),
    (V64_2, 64, 63, 31, 31, 65535),
    // 3D_128 (256 B × 16 rows × 16 slices): x at 0-3, 6, 10, 11, 12; y at 4, 5, 8, 13; z at
    // 7, 9, 14, 15.
    (V64_16, 256, 128, 0, 0, 4096),
    (V64_16, 256, 0, 8, 0, 8192),
    (V64_16, 256, 0, 0, 4, 16384),
    (V64_16, 256, 255, 15, 15, 65535),
    // x 200 = 128 + 64 + 8: 4096 + 2048 + 8; y 9 = 8 + 1: 8192 + 16; z 6 = 4 + 2: 16384 + 512.
    (V64_16, 256, 200, 9, 6, 31256),
    // Pitch 512: row 16 starts tile row 1, two tiles on.
    (V64_16, 512, 0, 16, 0, 131072),
];

#[test]
fn volume_tile_offsets_match_the_gmmlib_descriptors_worked_by_hand() {
    for &(t, pitch, x, y, z, want) in GOLDEN_3D {
        assert_eq!(
            t.volume_offset(pitch, x, y, z),
            want,
            "{t:?} pitch {pitch} ({x}, {y}, {z})"
        );
    }
    // A 3D surface's Tile-64 is the volume layout; the others keep their flat tiles.
    assert_eq!(T64_4.volume(), V64_4);
    assert_eq!(Tiling::Tile4.volume(), Tiling::Tile4);
    assert_eq!(Tiling::Linear.volume(), Tiling::Linear);
    // Slices in slabs a tile deep: slice 17 of 16-slice tiles, QPitch 64 rows, is slice 1 of
    // the slab at row 64; with pitch 256 that slab starts 64 × 256 × 16 bytes in.
    assert_eq!(V64_4.slice_start(17, 64), (64, 1));
    assert_eq!(V64_4.volume_offset(256, 0, 64, 1), 64 * 256 * 16 + 128);
    assert_eq!(V64_1.slice_start(33, 96), (96, 1));
    // Flat tiles: slice z is z QPitches down.
    assert_eq!(Tiling::Tile4.slice_start(17, 64), (17 * 64, 0));
    assert_eq!(T64_4.slice_start(17, 64), (17 * 64, 0));
}

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

/// GmmLib's 3D Tile-64 descriptors (`CpuSwizzleBlt.c`): `Z` is the next bit of the slice.
const GMMLIB_3D: &[(Tiling, &str)] = &[
    (V64_1, "ZZZX YYZY ZXYY XXXX"), // INTEL_TILE_64_3D_8
    (V64_2, "ZZZY YXZY ZXYY XXXX"), // INTEL_TILE_64_3D_16
    (V64_4, "ZZYX YXZY ZXYY XXXX"), // INTEL_TILE_64_3D_32
    (Tiling::Tile64Volume { log2_bpe: 3 }, "ZZYX XXZY ZXYY XXXX"), // INTEL_TILE_64_3D_64
    (V64_16, "ZZYX XXZY ZXYY XXXX"), // INTEL_TILE_64_3D_128
];

/// Where a descriptor puts byte `x` of row `y` inside one flat tile.
fn gmmlib_offset(descriptor: &str, x: u64, y: u64) -> u64 {
    gmmlib_offset_3d(descriptor, x, y, 0)
}

/// Where a descriptor puts byte `x` of row `y` of slice `z` inside one tile.
fn gmmlib_offset_3d(descriptor: &str, x: u64, y: u64, z: u64) -> u64 {
    let bits: Vec<char> = descriptor.chars().filter(|c| *c != ' ').collect();
    let (mut xi, mut yi, mut zi, mut off) = (0, 0, 0, 0);
    for (i, c) in bits.iter().rev().enumerate() {
        let (v, n) = match c {
            'X' => (x, &mut xi),
            'Y' => (y, &mut yi),
            'Z' => (z, &mut zi),
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
fn every_volume_tile_byte_sits_where_gmmlib_3d_descriptors_put_it() {
    for &(t, d) in GMMLIB_3D {
        let count = |c| d.matches(c).count() as u32;
        assert_eq!(t.tile_size(), (1 << count('X'), 1 << count('Y')), "{t:?}");
        assert_eq!(t.tile_depth(), 1 << count('Z'), "{t:?}");
        let (w, h) = t.tile_size();
        let tile = t.tile_bytes();
        assert_eq!(tile, 65536);
        for z in 0..t.tile_depth() {
            for y in 0..h {
                for x in 0..w {
                    let want = gmmlib_offset_3d(d, x, y, z);
                    assert_eq!(t.volume_offset(w, x, y, z), want, "{t:?} ({x}, {y}, {z})");
                    // Pitch two tiles: the tile to the right, then the next row of tiles.
                    assert_eq!(t.volume_offset(2 * w, x + w, y, z), tile + want, "{t:?}");
                    assert_eq!(t.volume_offset(2 * w, x, y + h, z), 2 * tile + want);
                }
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

/// Where the test's own statement of each flat layout puts byte `x` of row `y` (volume
/// tiles: [`gmmlib_offset_3d`]).
fn reference_offset(t: Tiling, pitch: u64, x: u64, y: u64) -> u64 {
    match t {
        Tiling::Tile64Volume { .. } => unreachable!("flat layouts only"),
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

/// Typed write RGBA (BTI 1): U in r2, V, R and the four channels in r3-r8; typed read RGBA
/// into r20-r23; as iga64 assembles them.
fn typed_rgba_write_and_read(iga: &std::path::Path) -> (Program, Program) {
    (
        program(
            iga,
            Platform::Tgllp,
            "send.dc1 (8|M0) null r2 r3 0x180 0x02035001",
        ),
        program(
            iga,
            Platform::Tgllp,
            "send.dc1 (8|M0) r20 r2 r3 0x80 0x02415001",
        ),
    )
}

#[test]
fn typed_writes_then_typed_and_media_block_reads_round_trip_through_tiled_images() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    // Media block read (BTI 1) of 32 bytes × 1 row into r12.
    let (write, read) = typed_rgba_write_and_read(&iga);
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

/// Typed writes fill a 3D Tile-64 image of 40 × 36 × 18 RGBA8 texels (slices 16 and 17 in the
/// second slab), every texel lands where GmmLib's `INTEL_TILE_64_3D_32` descriptor and slab
/// rule put it, and typed reads give every texel back.
#[test]
fn typed_writes_and_reads_address_3d_tile64_volume_tiles() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let (write, read) = typed_rgba_write_and_read(&iga);
    const DESCRIPTOR: &str = "ZZYX YXZY ZXYY XXXX"; // INTEL_TILE_64_3D_32
    let (depth, qpitch, pitch) = (18u32, 64u64, 256u64);
    let (tw, th, td) = (128, 32, 16);
    let slabs = u64::from(depth).div_ceil(td);
    let mut mem = TestMem::new(BASE, (slabs * qpitch * pitch * td) as usize);
    mem.surfaces.insert(
        1,
        Surface {
            base: BASE,
            width: u64::from(W) * 4,
            height: H,
            pitch,
            tiling: V64_4,
            image: Some(ImageSurface {
                format: sf::R8G8B8A8_UINT,
                dims: 3,
                array: false,
                size: [W, H, depth],
                slice_pitch: qpitch * pitch,
                row_pitch: pitch,
                mip: sim_eu::ImageMips::NONE,
                chroma_row: 0,
            }),
        },
    );
    let coords: Vec<[u32; 3]> = (0..depth)
        .flat_map(|r| (0..H).flat_map(move |v| (0..W).map(move |u| [u, v, r])))
        .collect();
    let col = |lanes: &[[u32; 3]], k: usize| -> Vec<u32> {
        (0..8).map(|i| lanes[i.min(lanes.len() - 1)][k]).collect()
    };
    for lanes in coords.chunks(8) {
        run_on(&write, 8, &mut mem, |t| {
            for k in 0..3 {
                set_u32s(t, 2 + k, &col(lanes, k));
            }
            for c in 0..4 {
                let chan: Vec<u32> = (0..8)
                    .map(|i| {
                        let [u, v, r] = lanes[i.min(lanes.len() - 1)];
                        texel(u, v, r)[c]
                    })
                    .collect();
                set_u32s(t, 5 + c, &chan);
            }
        })
        .unwrap();
    }
    for &[u, v, r] in &coords {
        let (x, y, z) = (u64::from(u) * 4, u64::from(v), u64::from(r));
        let at = (z / td) * qpitch * pitch * td
            + (y / th) * pitch * th * td
            + (x / tw) * 65536
            + gmmlib_offset_3d(DESCRIPTOR, x % tw, y % th, z % td);
        let at = at as usize;
        let want = texel(u, v, r).map(|c| c as u8);
        assert_eq!(mem.bytes[at..at + 4], want, "texel ({u}, {v}, {r})");
    }
    for lanes in coords.chunks(8).step_by(5) {
        let t = run_on(&read, 8, &mut mem, |t| {
            for k in 0..3 {
                set_u32s(t, 2 + k, &col(lanes, k));
            }
        })
        .unwrap();
        for (i, &[u, v, r]) in lanes.iter().enumerate() {
            let got: Vec<u32> = (0..4).map(|c| t.grf_u32(20 + c, i)).collect();
            assert_eq!(got, texel(u, v, r), "read ({u}, {v}, {r})");
        }
    }
}
