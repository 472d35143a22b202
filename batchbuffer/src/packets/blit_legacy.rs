//! The legacy blitter's copy and fill commands, which Mesa's genxml does not declare.
//!
//! Layouts from the Linux kernel's i915 `gt/intel_gpu_commands.h` (opcodes, `BLT_WRITE_*`,
//! `BLT_DEPTH_*`, `BLT_ROP_*`, `XY_SRC_COPY_BLT_{SRC,DST}_TILED`) and the dwords its blit
//! users emit (`gt/intel_migrate.c` `emit_copy`/`emit_clear`, `i915_gem_object_blt.c`),
//! second-checked against IGT (`lib/intel_reg.h`, `lib/intel_batchbuffer.c`
//! `intel_bb_emit_blt_copy`, `lib/igt_draw.c`, and `lib/intel_blt.c`'s
//! `struct gen12_fast_copy_data`) by `tests/genxml_crosscheck.rs`
//! (`not_in_genxml_layouts_match_their_source`). IGT's `lib/intel_cmds_info.c` gives all three
//! to Gen11, Gen12 (`gen12_cmds_info`) and DG2 (`gen12_dg2_cmds_info`), XY_SRC_COPY_BLT and
//! XY_COLOR_BLT also to Gen9 (`gen8_cmds_info`; Gen9's fast copy is what i915's `emit_copy`
//! uses from Gen9); MTL and later keep only XY_FAST_COPY_BLT. The layouts do not change
//! except XY_FAST_COPY_BLT's DWord 1 bits 30/31: Yf on Gen9/Gen11, Tile-4 on Xe-HPG.
//!
//! Unlike those, the pitch of a linear surface here is in bytes (not minus one); a tiled
//! surface's is in dwords.

use super::enums::*;

packet! {
    /// XY_SRC_COPY_BLT: Copies a rectangle through a raster operation (0xCC: the source).
    XySrcCopyBlt = "XY_SRC_COPY_BLT" {
        len: [G9 | G11 | G12 | G125 => 10],
        header: [
            "Opcode" (0, 22, 28) [G9 | G11 | G12 | G125] = 0x53,
            "Client" (0, 29, 31) [G9 | G11 | G12 | G125] = 2,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            destination_tiling_enable: bool as Bool "Destination Tiling Enable" [G9 | G11 | G12 | G125 => (0, 11, 11)],
            source_tiling_enable: bool as Bool "Source Tiling Enable" [G9 | G11 | G12 | G125 => (0, 15, 15)],
            // At 32 bpp: write bytes 0-2 (RGB) and byte 3 (alpha) of each pixel.
            write_rgb: bool as Bool "Write RGB" [G9 | G11 | G12 | G125 => (0, 20, 20)],
            write_alpha: bool as Bool "Write Alpha" [G9 | G11 | G12 | G125 => (0, 21, 21)],
            destination_pitch: i32 as Int "Destination Pitch" [G9 | G11 | G12 | G125 => (1, 0, 15)],
            raster_operation: u32 as Uint "Raster Operation" [G9 | G11 | G12 | G125 => (1, 16, 23)],
            color_depth: XyLegacyColorDepth as Enum "Color Depth" [G9 | G11 | G12 | G125 => (1, 24, 25)],
            destination_x1: i32 as Int "Destination X1" [G9 | G11 | G12 | G125 => (2, 0, 15)],
            destination_y1: i32 as Int "Destination Y1" [G9 | G11 | G12 | G125 => (2, 16, 31)],
            destination_x2: i32 as Int "Destination X2" [G9 | G11 | G12 | G125 => (3, 0, 15)],
            destination_y2: i32 as Int "Destination Y2" [G9 | G11 | G12 | G125 => (3, 16, 31)],
            destination_base_address: u64 as Address "Destination Base Address" [G9 | G11 | G12 | G125 => (4, 0, 63)],
            source_x1: i32 as Int "Source X1" [G9 | G11 | G12 | G125 => (6, 0, 15)],
            source_y1: i32 as Int "Source Y1" [G9 | G11 | G12 | G125 => (6, 16, 31)],
            source_pitch: i32 as Int "Source Pitch" [G9 | G11 | G12 | G125 => (7, 0, 15)],
            source_base_address: u64 as Address "Source Base Address" [G9 | G11 | G12 | G125 => (8, 0, 63)],
        ],
    }
}

packet! {
    /// XY_COLOR_BLT: Fills a rectangle with a solid colour of 8 to 32 bits through a raster
    /// operation (0xF0: the pattern, i.e. the colour).
    XyColorBlt = "XY_COLOR_BLT" {
        len: [G9 | G11 | G12 | G125 => 7],
        header: [
            "Opcode" (0, 22, 28) [G9 | G11 | G12 | G125] = 0x50,
            "Client" (0, 29, 31) [G9 | G11 | G12 | G125] = 2,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            destination_tiling_enable: bool as Bool "Destination Tiling Enable" [G9 | G11 | G12 | G125 => (0, 11, 11)],
            write_rgb: bool as Bool "Write RGB" [G9 | G11 | G12 | G125 => (0, 20, 20)],
            write_alpha: bool as Bool "Write Alpha" [G9 | G11 | G12 | G125 => (0, 21, 21)],
            destination_pitch: i32 as Int "Destination Pitch" [G9 | G11 | G12 | G125 => (1, 0, 15)],
            raster_operation: u32 as Uint "Raster Operation" [G9 | G11 | G12 | G125 => (1, 16, 23)],
            color_depth: XyLegacyColorDepth as Enum "Color Depth" [G9 | G11 | G12 | G125 => (1, 24, 25)],
            destination_x1: i32 as Int "Destination X1" [G9 | G11 | G12 | G125 => (2, 0, 15)],
            destination_y1: i32 as Int "Destination Y1" [G9 | G11 | G12 | G125 => (2, 16, 31)],
            destination_x2: i32 as Int "Destination X2" [G9 | G11 | G12 | G125 => (3, 0, 15)],
            destination_y2: i32 as Int "Destination Y2" [G9 | G11 | G12 | G125 => (3, 16, 31)],
            destination_base_address: u64 as Address "Destination Base Address" [G9 | G11 | G12 | G125 => (4, 0, 63)],
            solid_pattern_color: u32 as Uint "Solid Pattern Color" [G9 | G11 | G12 | G125 => (6, 0, 31)],
        ],
    }
}

packet! {
    /// XY_FAST_COPY_BLT: Copies a rectangle of 8- to 128-bit pixels (no raster operation).
    XyFastCopyBlt = "XY_FAST_COPY_BLT" {
        len: [G9 | G11 | G12 | G125 => 10],
        header: [
            "Opcode" (0, 22, 28) [G9 | G11 | G12 | G125] = 0x42,
            "Client" (0, 29, 31) [G9 | G11 | G12 | G125] = 2,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            // 0: linear, 1: X, 2: Y (legacy Y or Yf), 3: Ys.
            destination_tiling: u32 as Uint "Destination Tiling" [G9 | G11 | G12 | G125 => (0, 13, 14)],
            source_tiling: u32 as Uint "Source Tiling" [G9 | G11 | G12 | G125 => (0, 20, 21)],
            destination_pitch: u32 as Uint "Destination Pitch" [G9 | G11 | G12 | G125 => (1, 0, 15)],
            color_depth: XyFastCopyColorDepth as Enum "Color Depth" [G9 | G11 | G12 | G125 => (1, 24, 26)],
            // Which Y-major tiling value 2 means: Yf (else legacy Y) on Gen9/Gen11, Tile-4
            // on Xe-HPG (i915's XY_FAST_COPY_BLT_D1_{DST,SRC}_TILE4).
            destination_tiling_yf: bool as Bool "Destination Tiling Yf" [G9 | G11 => (1, 30, 30)],
            source_tiling_yf: bool as Bool "Source Tiling Yf" [G9 | G11 => (1, 31, 31)],
            destination_tile4: bool as Bool "Destination Tile4" [G125 => (1, 30, 30)],
            source_tile4: bool as Bool "Source Tile4" [G125 => (1, 31, 31)],
            destination_x1: i32 as Int "Destination X1" [G9 | G11 | G12 | G125 => (2, 0, 15)],
            destination_y1: i32 as Int "Destination Y1" [G9 | G11 | G12 | G125 => (2, 16, 31)],
            destination_x2: i32 as Int "Destination X2" [G9 | G11 | G12 | G125 => (3, 0, 15)],
            destination_y2: i32 as Int "Destination Y2" [G9 | G11 | G12 | G125 => (3, 16, 31)],
            destination_base_address: u64 as Address "Destination Base Address" [G9 | G11 | G12 | G125 => (4, 0, 63)],
            source_x1: i32 as Int "Source X1" [G9 | G11 | G12 | G125 => (6, 0, 15)],
            source_y1: i32 as Int "Source Y1" [G9 | G11 | G12 | G125 => (6, 16, 31)],
            source_pitch: u32 as Uint "Source Pitch" [G9 | G11 | G12 | G125 => (7, 0, 15)],
            source_base_address: u64 as Address "Source Base Address" [G9 | G11 | G12 | G125 => (8, 0, 63)],
        ],
    }
}
