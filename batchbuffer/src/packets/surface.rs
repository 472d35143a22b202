//! Surface state and binding tables.

use super::enums::*;

packet! {
    /// RENDER_SURFACE_STATE: Surface state: the buffer and linear-2D fields data port messages and bounds checks read.
    RenderSurfaceState = "RENDER_SURFACE_STATE" {
        len: [G9 | G11 | G12 | G125 => 16],
        header: [
        ],
        length: [],
        fields: [
            render_cache_read_write_mode: RenderCacheReadWriteMode as Enum "Render Cache Read Write Mode" [ALL => (0, 8, 8)],
            sampler_l2_bypass_mode_disable: bool as Bool "Sampler L2 Bypass Mode Disable" [ALL => (0, 9, 9)],
            vertical_line_stride_offset: u32 as Uint "Vertical Line Stride Offset" [ALL => (0, 10, 10)],
            vertical_line_stride: u32 as Uint "Vertical Line Stride" [ALL => (0, 11, 11)],
            tile_mode: u32 as Uint "Tile Mode" [ALL => (0, 12, 13)],
            surface_horizontal_alignment: u32 as Uint "Surface Horizontal Alignment" [ALL => (0, 14, 15)],
            surface_vertical_alignment: u32 as Uint "Surface Vertical Alignment" [ALL => (0, 16, 17)],
            surface_format: u32 as Uint "Surface Format" [G9 | G11 | G12 => (0, 18, 27), G125 => (0, 18, 26)],
            surface_array: bool as Bool "Surface Array" [ALL => (0, 28, 28)],
            surface_type: u32 as Uint "Surface Type" [ALL => (0, 29, 31)],
            surface_qpitch: u32 as Uint "Surface QPitch" [ALL => (1, 0, 14)],
            mocs: u32 as Uint "MOCS" [ALL => (1, 24, 30)],
            width: u32 as Uint "Width" [ALL => (2, 0, 13)],
            height: u32 as Uint "Height" [ALL => (2, 16, 29)],
            surface_pitch: u32 as Uint "Surface Pitch" [ALL => (3, 0, 17)],
            depth: u32 as Uint "Depth" [ALL => (3, 21, 31)],
            number_of_multisamples: NumberOfMultisamples as Enum "Number of Multisamples" [ALL => (4, 3, 5)],
            render_target_view_extent: u32 as Uint "Render Target View Extent" [ALL => (4, 7, 17)],
            minimum_array_element: u32 as Uint "Minimum Array Element" [ALL => (4, 18, 28)],
            mip_count_lod: u32 as Uint "MIP Count / LOD" [ALL => (5, 0, 3)],
            surface_min_lod: u32 as Uint "Surface Min LOD" [ALL => (5, 4, 7)],
            mip_tail_start_lod: u32 as Uint "Mip Tail Start LOD" [ALL => (5, 8, 11)],
            coherency_type: CoherencyType as Enum "Coherency Type" [G9 | G11 | G12 => (5, 14, 14)],
            tiled_resource_mode: u32 as Uint "Tiled Resource Mode" [G9 | G11 | G12 => (5, 18, 19)],
            y_offset: u32 as Uint "Y Offset" [ALL => (5, 21, 23)],
            x_offset: u32 as Uint "X Offset" [ALL => (5, 25, 31)],
            auxiliary_surface_mode: u32 as Uint "Auxiliary Surface Mode" [ALL => (6, 0, 2)],
            // DWord 6 of a planar surface (PLANAR_420_8): where its chroma plane starts, in rows
            // and texels from the base (the same bits as the auxiliary surface fields).
            y_offset_for_u_or_uv_plane: u32 as Uint "Y Offset for U or UV Plane" [ALL => (6, 0, 13)],
            x_offset_for_u_or_uv_plane: u32 as Uint "X Offset for U or UV Plane" [ALL => (6, 16, 29)],
            shader_channel_select_alpha: ShaderChannelSelect as Enum "Shader Channel Select Alpha" [ALL => (7, 16, 18)],
            shader_channel_select_blue: ShaderChannelSelect as Enum "Shader Channel Select Blue" [ALL => (7, 19, 21)],
            shader_channel_select_green: ShaderChannelSelect as Enum "Shader Channel Select Green" [ALL => (7, 22, 24)],
            shader_channel_select_red: ShaderChannelSelect as Enum "Shader Channel Select Red" [ALL => (7, 25, 27)],
            surface_base_address: u64 as Address "Surface Base Address" [ALL => (8, 0, 63)],
            l1_cache_control: L1CacheControl as Enum "L1 Cache Control" [G125 => (5, 16, 18)],
        ],
    }
}

packet! {
    /// BINDING_TABLE_STATE: One binding table entry: a surface state offset.
    BindingTableState = "BINDING_TABLE_STATE" {
        len: [G9 | G11 | G12 | G125 => 1],
        header: [
        ],
        length: [],
        fields: [
            surface_state_pointer: u32 as Offset "Surface State Pointer" [ALL => (0, 6, 31)],
        ],
    }
}

packet! {
    /// SAMPLER_STATE: one sampler of a kernel's sampler table: the filter and address-mode fields OpenCL samplers set.
    SamplerState = "SAMPLER_STATE" {
        len: [G9 | G11 | G12 | G125 => 4],
        header: [
        ],
        length: [],
        fields: [
            min_mode_filter: MapFilter as Enum "Min Mode Filter" [ALL => (0, 14, 16)],
            mag_mode_filter: MapFilter as Enum "Mag Mode Filter" [ALL => (0, 17, 19)],
            mip_mode_filter: u32 as Uint "Mip Mode Filter" [ALL => (0, 20, 21)],
            max_lod: u32 as Uint "Max LOD" [ALL => (1, 8, 19)],
            min_lod: u32 as Uint "Min LOD" [ALL => (1, 20, 31)],
            border_color_pointer: u32 as Offset "Border Color Pointer" [G9 | G11 => (2, 6, 23), G12 | G125 => (2, 6, 31)],
            tcz_address_control_mode: TextureCoordinateMode as Enum "TCZ Address Control Mode" [ALL => (3, 0, 2)],
            tcy_address_control_mode: TextureCoordinateMode as Enum "TCY Address Control Mode" [ALL => (3, 3, 5)],
            tcx_address_control_mode: TextureCoordinateMode as Enum "TCX Address Control Mode" [ALL => (3, 6, 8)],
            non_normalized_coordinate_enable: bool as Bool "Non-normalized Coordinate Enable" [ALL => (3, 10, 10)],
        ],
    }
}
