//! Copy-engine (blitter) commands: linear copies and fills, and MI_FLUSH_DW, the copy engine's
//! flush with its post-sync write.
//!
//! Mesa's genxml has XY_BLOCK_COPY_BLT and XY_FAST_COLOR_BLT from Gen12 on (the commands NEO
//! and the kernel's `intel_migrate.c` use for copies and clears there); Gen9 and Gen11 blitter
//! commands are absent from it and are not declared here.

use super::enums::*;

packet! {
    /// MI_FLUSH_DW: Flushes the copy (or video) engine and optionally writes a dword/qword or
    /// the timestamp after the flush.
    MiFlushDw = "MI_FLUSH_DW" {
        len: [G9 | G11 | G12 | G125 => 5],
        header: [
            "MI Command Opcode" (0, 23, 28) [ALL] = 38,
            "Command Type" (0, 29, 31) [ALL] = 0,
        ],
        length: ["DWord Length" (0, 0, 5) bias 2],
        fields: [
            video_pipeline_cache_invalidate: bool as Bool "Video Pipeline Cache Invalidate" [ALL => (0, 7, 7)],
            notify_enable: bool as Bool "Notify Enable" [ALL => (0, 8, 8)],
            flush_llc: bool as Bool "Flush LLC" [ALL => (0, 9, 9)],
            // 0: none, 1: write the immediate data, 3: write the timestamp (genxml lists no values).
            post_sync_operation: u32 as Uint "Post-Sync Operation" [ALL => (0, 14, 15)],
            flush_ccs: bool as Bool "Flush CCS" [G125 => (0, 16, 16)],
            tlb_invalidate: bool as Bool "TLB Invalidate" [ALL => (0, 18, 18)],
            store_data_index: u32 as Uint "Store Data Index" [ALL => (0, 21, 21)],
            destination_address_type: DestinationAddressType as Enum "Destination Address Type" [ALL => (1, 2, 2)],
            address: u64 as Address "Address" [ALL => (1, 3, 47)],
            immediate_data: u64 as Uint "Immediate Data" [ALL => (3, 0, 63)],
        ],
    }
}

packet! {
    /// XY_FAST_COLOR_BLT: Fills a rectangle of a surface with a colour of 8 to 128 bits.
    XyFastColorBlt = "XY_FAST_COLOR_BLT" {
        len: [G12 => 11, G125 => 16],
        header: [
            "Opcode" (0, 22, 28) [G12 | G125] = 0x44,
            "Client" (0, 29, 31) [G12 | G125] = 2,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            special_mode_of_operation: u32 as Uint "Special Mode of Operation" [G125 => (0, 12, 13)],
            color_depth: XyColorDepth as Enum "Color Depth" [G12 | G125 => (0, 19, 21)],
            destination_pitch: u32 as Uint "Destination Pitch" [G12 | G125 => (1, 0, 17)],
            destination_auxiliary_surface_mode: u32 as Uint "Destination Auxiliary Surface Mode" [G125 => (1, 18, 20)],
            destination_mocs: u32 as Uint "Destination MOCS" [G12 | G125 => (1, 21, 27)],
            destination_compression_enable: bool as Bool "Destination Compression Enable" [G125 => (1, 29, 29)],
            destination_tiling: u32 as Uint "Destination Tiling" [G12 | G125 => (1, 30, 31)],
            destination_x1: i32 as Int "Destination X1" [G12 | G125 => (2, 0, 15)],
            destination_y1: i32 as Int "Destination Y1" [G12 | G125 => (2, 16, 31)],
            destination_x2: i32 as Int "Destination X2" [G12 | G125 => (3, 0, 15)],
            destination_y2: i32 as Int "Destination Y2" [G12 | G125 => (3, 16, 31)],
            destination_base_address: u64 as Address "Destination Base Address" [G12 | G125 => (4, 0, 63)],
            destination_x_offset: u32 as Uint "Destination X Offset" [G12 | G125 => (6, 0, 13)],
            destination_y_offset: u32 as Uint "Destination Y Offset" [G12 | G125 => (6, 16, 29)],
            destination_target_memory: u32 as Uint "Destination Target Memory" [G125 => (6, 31, 31)],
            fill_color: [u32; 4] as Dwords "Fill Color" [G12 | G125 => (7, 0, 127)],
        ],
    }
}

packet! {
    /// XY_BLOCK_COPY_BLT: Copies a rectangle of 8- to 128-bit pixels between two surfaces.
    XyBlockCopyBlt = "XY_BLOCK_COPY_BLT" {
        len: [G12 => 12, G125 => 22],
        header: [
            "Opcode" (0, 22, 28) [G12 | G125] = 0x41,
            "Client" (0, 29, 31) [G12 | G125] = 2,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            special_mode_of_operation: u32 as Uint "Special Mode of Operation" [G125 => (0, 12, 13)],
            color_depth: XyColorDepth as Enum "Color Depth" [G12 | G125 => (0, 19, 21)],
            destination_pitch: u32 as Uint "Destination Pitch" [G12 | G125 => (1, 0, 17)],
            destination_auxiliary_surface_mode: u32 as Uint "Destination Auxiliary Surface Mode" [G125 => (1, 18, 20)],
            destination_mocs: u32 as Uint "Destination MOCS" [G12 | G125 => (1, 21, 27)],
            destination_control_surface_type: u32 as Uint "Destination Control Surface Type" [G125 => (1, 28, 28)],
            destination_compression_enable: bool as Bool "Destination Compression Enable" [G125 => (1, 29, 29)],
            destination_tiling: u32 as Uint "Destination Tiling" [G12 | G125 => (1, 30, 31)],
            destination_x1: i32 as Int "Destination X1" [G12 | G125 => (2, 0, 15)],
            destination_y1: i32 as Int "Destination Y1" [G12 | G125 => (2, 16, 31)],
            destination_x2: i32 as Int "Destination X2" [G12 | G125 => (3, 0, 15)],
            destination_y2: i32 as Int "Destination Y2" [G12 | G125 => (3, 16, 31)],
            destination_base_address: u64 as Address "Destination Base Address" [G12 | G125 => (4, 0, 63)],
            destination_x_offset: u32 as Uint "Destination X Offset" [G12 | G125 => (6, 0, 13)],
            destination_y_offset: u32 as Uint "Destination Y Offset" [G12 | G125 => (6, 16, 29)],
            destination_target_memory: u32 as Uint "Destination Target Memory" [G125 => (6, 31, 31)],
            source_x1: i32 as Int "Source X1" [G12 | G125 => (7, 0, 15)],
            source_y1: i32 as Int "Source Y1" [G12 | G125 => (7, 16, 31)],
            source_pitch: u32 as Uint "Source Pitch" [G12 | G125 => (8, 0, 17)],
            source_auxiliary_surface_mode: u32 as Uint "Source Auxiliary Surface Mode" [G125 => (8, 18, 20)],
            source_mocs: u32 as Uint "Source MOCS" [G12 | G125 => (8, 21, 27)],
            source_control_surface_type: u32 as Uint "Source Control Surface Type" [G125 => (8, 28, 28)],
            source_compression_enable: bool as Bool "Source Compression Enable" [G125 => (8, 29, 29)],
            source_tiling: u32 as Uint "Source Tiling" [G12 | G125 => (8, 30, 31)],
            source_base_address: u64 as Address "Source Base Address" [G12 | G125 => (9, 0, 63)],
            source_x_offset: u32 as Uint "Source X Offset" [G12 | G125 => (11, 0, 13)],
            source_y_offset: u32 as Uint "Source Y Offset" [G12 | G125 => (11, 16, 29)],
            source_target_memory: u32 as Uint "Source Target Memory" [G125 => (11, 31, 31)],
            source_compression_format: u32 as Uint "Source Compression Format" [G125 => (12, 0, 4)],
            source_clear_value_enable: bool as Bool "Source Clear Value Enable" [G125 => (12, 5, 5)],
            source_clear_address: u64 as Address "Source Clear Address" [G125 => (12, 6, 47)],
            destination_compression_format: u32 as Uint "Destination Compression Format" [G125 => (14, 0, 4)],
            destination_clear_value_enable: bool as Bool "Destination Clear Value Enable" [G125 => (14, 5, 5)],
            destination_clear_address: u64 as Address "Destination Clear Address" [G125 => (14, 6, 47)],
            // The surface description (Xe-HPG): Width/Height hold the size minus one (IGT's
            // `fill_data_ext`); QPitch the rows between array slices / 4 (NEO's
            // `appendBlitCommandsForImages`, as RENDER_SURFACE_STATE's QPitch).
            destination_surface_height: u32 as Uint "Destination Surface Height" [G125 => (16, 0, 13)],
            destination_surface_width: u32 as Uint "Destination Surface Width" [G125 => (16, 14, 27)],
            destination_surface_type: XySurfaceType as Enum "Destination Surface Type" [G125 => (16, 29, 31)],
            destination_lod: u32 as Uint "Destination LOD" [G125 => (17, 0, 3)],
            destination_surface_qpitch: u32 as Uint "Destination Surface QPitch" [G125 => (17, 4, 18)],
            destination_surface_depth: u32 as Uint "Destination Surface Depth" [G125 => (17, 21, 31)],
            // 0..=3: HALIGN_16/32/64/128; 1..=3: VALIGN_4/8/16 (genxml).
            destination_horizontal_align: u32 as Uint "Destination Horizontal Align" [G125 => (18, 0, 1)],
            destination_vertical_align: u32 as Uint "Destination Vertical Align" [G125 => (18, 3, 4)],
            destination_mip_tail_start_lod: u32 as Uint "Destination Mip Tail Start LOD" [G125 => (18, 8, 11)],
            destination_depth_stencil_resource: bool as Bool "Destination Depth/Stencil Resource" [G125 => (18, 18, 18)],
            destination_array_index: u32 as Uint "Destination Array Index" [G125 => (18, 21, 31)],
            source_surface_height: u32 as Uint "Source Surface Height" [G125 => (19, 0, 13)],
            source_surface_width: u32 as Uint "Source Surface Width" [G125 => (19, 14, 27)],
            source_surface_type: XySurfaceType as Enum "Source Surface Type" [G125 => (19, 29, 31)],
            source_lod: u32 as Uint "Source LOD" [G125 => (20, 0, 3)],
            source_surface_qpitch: u32 as Uint "Source Surface QPitch" [G125 => (20, 4, 18)],
            source_surface_depth: u32 as Uint "Source Surface Depth" [G125 => (20, 21, 31)],
            source_horizontal_align: u32 as Uint "Source Horizontal Align" [G125 => (21, 0, 1)],
            source_vertical_align: u32 as Uint "Source Vertical Align" [G125 => (21, 3, 4)],
            source_mip_tail_start_lod: u32 as Uint "Source Mip Tail Start LOD" [G125 => (21, 8, 11)],
            source_depth_stencil_resource: bool as Bool "Source Depth/Stencil Resource" [G125 => (21, 18, 18)],
            source_array_index: u32 as Uint "Source Array Index" [G125 => (21, 21, 31)],
        ],
    }
}
