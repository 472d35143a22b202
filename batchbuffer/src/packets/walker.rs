//! Walkers: GPGPU_WALKER (Gen9–Gen12LP) and COMPUTE_WALKER with its body and post-sync data
//! (Xe-HPG), plus MEDIA_STATE_FLUSH.

use super::enums::*;
use super::state::InterfaceDescriptorData;

packet! {
    /// GPGPU_WALKER: Gen9–Gen12LP compute dispatch over a 3D grid of thread groups.
    GpgpuWalker = "GPGPU_WALKER" {
        len: [G9 | G11 | G12 => 15],
        header: [
            "SubOpcode" (0, 16, 23) [ALL] = 5,
            "Media Command Opcode" (0, 24, 26) [ALL] = 1,
            "Pipeline" (0, 27, 28) [ALL] = 2,
            "Command Type" (0, 29, 31) [ALL] = 3,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            predicate_enable: bool as Bool "Predicate Enable" [ALL => (0, 8, 8)],
            indirect_parameter_enable: bool as Bool "Indirect Parameter Enable" [ALL => (0, 10, 10)],
            interface_descriptor_offset: u32 as Uint "Interface Descriptor Offset" [ALL => (1, 0, 5)],
            indirect_data_length: u32 as Uint "Indirect Data Length" [ALL => (2, 0, 16)],
            indirect_data_start_address: u32 as Offset "Indirect Data Start Address" [ALL => (3, 6, 31)],
            thread_width_counter_maximum: u32 as Uint "Thread Width Counter Maximum" [ALL => (4, 0, 5)],
            thread_height_counter_maximum: u32 as Uint "Thread Height Counter Maximum" [ALL => (4, 8, 13)],
            thread_depth_counter_maximum: u32 as Uint "Thread Depth Counter Maximum" [ALL => (4, 16, 21)],
            simd_size: SimdSize as Enum "SIMD Size" [ALL => (4, 30, 31)],
            thread_group_id_starting_x: u32 as Uint "Thread Group ID Starting X" [ALL => (5, 0, 31)],
            thread_group_id_x_dimension: u32 as Uint "Thread Group ID X Dimension" [ALL => (7, 0, 31)],
            thread_group_id_starting_y: u32 as Uint "Thread Group ID Starting Y" [ALL => (8, 0, 31)],
            thread_group_id_y_dimension: u32 as Uint "Thread Group ID Y Dimension" [ALL => (10, 0, 31)],
            thread_group_id_starting_resume_z: u32 as Uint "Thread Group ID Starting/Resume Z" [ALL => (11, 0, 31)],
            thread_group_id_z_dimension: u32 as Uint "Thread Group ID Z Dimension" [ALL => (12, 0, 31)],
            right_execution_mask: u32 as Uint "Right Execution Mask" [ALL => (13, 0, 31)],
            bottom_execution_mask: u32 as Uint "Bottom Execution Mask" [ALL => (14, 0, 31)],
        ],
    }
}

packet! {
    /// MEDIA_STATE_FLUSH: Waits for media/GPGPU state to be consumed before it is changed.
    MediaStateFlush = "MEDIA_STATE_FLUSH" {
        len: [G9 | G11 | G12 => 2],
        header: [
            "SubOpcode" (0, 16, 23) [ALL] = 4,
            "Media Command Opcode" (0, 24, 26) [ALL] = 0,
            "Pipeline" (0, 27, 28) [ALL] = 2,
            "Command Type" (0, 29, 31) [ALL] = 3,
        ],
        length: ["DWord Length" (0, 0, 15) bias 2],
        fields: [
            interface_descriptor_offset: u32 as Uint "Interface Descriptor Offset" [ALL => (1, 0, 5)],
            watermark_required: u32 as Uint "Watermark Required" [G9 => (1, 6, 6)],
            flush_to_go: bool as Bool "Flush to GO" [ALL => (1, 7, 7)],
        ],
    }
}

packet! {
    /// COMPUTE_WALKER: Xe-HPG compute dispatch; its body carries the inline interface descriptor and post-sync.
    ComputeWalker = "COMPUTE_WALKER" {
        len: [G125 => 39],
        header: [
            "CFE SubOpcode Variant" (0, 16, 17) [ALL] = 0,
            "CFE SubOpcode" (0, 18, 23) [ALL] = 2,
            "Compute Command Opcode" (0, 24, 26) [ALL] = 2,
            "Pipeline" (0, 27, 28) [ALL] = 2,
            "Command Type" (0, 29, 31) [ALL] = 3,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            predicate_enable: bool as Bool "Predicate Enable" [ALL => (0, 8, 8)],
            workload_partition_enable: bool as Bool "Workload Partition Enable" [ALL => (0, 9, 9)],
            indirect_parameter_enable: bool as Bool "Indirect Parameter Enable" [ALL => (0, 10, 10)],
            systolic_mode_enable: bool as Bool "Systolic Mode Enable" [ALL => (0, 14, 14)],
            body: ComputeWalkerBody as Struct "body" [ALL => (1, 0, 1216)],
        ],
    }
}

packet! {
    /// COMPUTE_WALKER_BODY: Everything in COMPUTE_WALKER after its header dword.
    ComputeWalkerBody = "COMPUTE_WALKER_BODY" {
        len: [G125 => 38],
        header: [
        ],
        length: [],
        fields: [
            indirect_data_length: u32 as Uint "Indirect Data Length" [ALL => (1, 0, 16)],
            l3_prefetch_disable: bool as Bool "L3 prefetch disable" [ALL => (1, 17, 17)],
            partition_type: u32 as Uint "Partition Type" [ALL => (1, 30, 31)],
            indirect_data_start_address: u32 as Offset "Indirect Data Start Address" [ALL => (2, 6, 31)],
            message_simd: MessageSimd as Enum "Message SIMD" [ALL => (3, 17, 18)],
            tile_layout: TileLayout as Enum "Tile Layout" [ALL => (3, 19, 21)],
            walk_order: WalkOrder as Enum "Walk Order" [ALL => (3, 22, 24)],
            emit_inline_parameter: bool as Bool "Emit Inline Parameter" [ALL => (3, 25, 25)],
            emit_local: EmitLocal as Enum "Emit Local" [ALL => (3, 26, 28)],
            generate_local_id: bool as Bool "Generate Local ID" [ALL => (3, 29, 29)],
            simd_size: SimdSize as Enum "SIMD Size" [ALL => (3, 30, 31)],
            execution_mask: u32 as Uint "Execution Mask" [ALL => (4, 0, 31)],
            local_x_maximum: u32 as Uint "Local X Maximum" [ALL => (5, 0, 9)],
            local_y_maximum: u32 as Uint "Local Y Maximum" [ALL => (5, 10, 19)],
            local_z_maximum: u32 as Uint "Local Z Maximum" [ALL => (5, 20, 29)],
            thread_group_id_x_dimension: u32 as Uint "Thread Group ID X Dimension" [ALL => (6, 0, 31)],
            thread_group_id_y_dimension: u32 as Uint "Thread Group ID Y Dimension" [ALL => (7, 0, 31)],
            thread_group_id_z_dimension: u32 as Uint "Thread Group ID Z Dimension" [ALL => (8, 0, 31)],
            thread_group_id_starting_x: u32 as Uint "Thread Group ID Starting X" [ALL => (9, 0, 31)],
            thread_group_id_starting_y: u32 as Uint "Thread Group ID Starting Y" [ALL => (10, 0, 31)],
            thread_group_id_starting_z: u32 as Uint "Thread Group ID Starting Z" [ALL => (11, 0, 31)],
            partition_id: u32 as Uint "Partition ID" [ALL => (12, 0, 31)],
            partition_size: u32 as Uint "Partition Size" [ALL => (13, 0, 31)],
            preempt_x: u32 as Uint "Preempt X" [ALL => (14, 0, 31)],
            preempt_y: u32 as Uint "Preempt Y" [ALL => (15, 0, 31)],
            preempt_z: u32 as Uint "Preempt Z" [ALL => (16, 0, 31)],
            interface_descriptor: InterfaceDescriptorData as Struct "Interface Descriptor" [ALL => (17, 0, 255)],
            post_sync: PostsyncData as Struct "Post Sync" [ALL => (25, 0, 159)],
            inline_data: [u32; 8] as Dwords "Inline Data" [ALL => (30, 0, 255)],
        ],
    }
}

packet! {
    /// POSTSYNC_DATA: COMPUTE_WALKER post-sync operation: a write of immediate data or a timestamp.
    PostsyncData = "POSTSYNC_DATA" {
        len: [G125 => 5],
        header: [
        ],
        length: [],
        fields: [
            operation: Operation as Enum "Operation" [ALL => (0, 0, 1)],
            hdc_pipeline_flush: bool as Bool "HDC Pipeline Flush" [ALL => (0, 2, 2)],
            l3_flush: bool as Bool "L3 flush" [ALL => (0, 3, 3)],
            mocs: u32 as Uint "MOCS" [ALL => (0, 4, 10)],
            destination_address: u64 as Address "Destination Address" [ALL => (1, 0, 63)],
            immediate_data: u64 as Uint "Immediate Data" [ALL => (3, 0, 63)],
        ],
    }
}
