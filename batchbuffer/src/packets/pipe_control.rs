//! PIPE_CONTROL: flushes, invalidations and the post-sync write that signals completion.

use super::enums::*;

packet! {
    /// PIPE_CONTROL: Synchronises the pipeline: flushes, invalidations, stalls and an optional post-sync write.
    PipeControl = "PIPE_CONTROL" {
        len: [G9 | G11 | G12 | G125 => 6],
        header: [
            "3D Command Sub Opcode" (0, 16, 23) [ALL] = 0,
            "3D Command Opcode" (0, 24, 26) [ALL] = 2,
            "Command SubType" (0, 27, 28) [ALL] = 3,
            "Command Type" (0, 29, 31) [ALL] = 3,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            depth_cache_flush_enable: bool as Bool "Depth Cache Flush Enable" [ALL => (1, 0, 0)],
            stall_at_pixel_scoreboard: bool as Bool "Stall At Pixel Scoreboard" [ALL => (1, 1, 1)],
            state_cache_invalidation_enable: bool as Bool "State Cache Invalidation Enable" [ALL => (1, 2, 2)],
            constant_cache_invalidation_enable: bool as Bool "Constant Cache Invalidation Enable" [ALL => (1, 3, 3)],
            vf_cache_invalidation_enable: bool as Bool "VF Cache Invalidation Enable" [ALL => (1, 4, 4)],
            dc_flush_enable: bool as Bool "DC Flush Enable" [ALL => (1, 5, 5)],
            pipe_control_flush_enable: bool as Bool "Pipe Control Flush Enable" [ALL => (1, 7, 7)],
            notify_enable: bool as Bool "Notify Enable" [ALL => (1, 8, 8)],
            indirect_state_pointers_disable: bool as Bool "Indirect State Pointers Disable" [ALL => (1, 9, 9)],
            texture_cache_invalidation_enable: bool as Bool "Texture Cache Invalidation Enable" [ALL => (1, 10, 10)],
            instruction_cache_invalidate_enable: bool as Bool "Instruction Cache Invalidate Enable" [ALL => (1, 11, 11)],
            render_target_cache_flush_enable: bool as Bool "Render Target Cache Flush Enable" [ALL => (1, 12, 12)],
            depth_stall_enable: bool as Bool "Depth Stall Enable" [ALL => (1, 13, 13)],
            post_sync_operation: PostSyncOperation as Enum "Post Sync Operation" [ALL => (1, 14, 15)],
            generic_media_state_clear: bool as Bool "Generic Media State Clear" [ALL => (1, 16, 16)],
            tlb_invalidate: bool as Bool "TLB Invalidate" [ALL => (1, 18, 18)],
            global_snapshot_count_reset: bool as Bool "Global Snapshot Count Reset" [G9 | G11 | G12 => (1, 19, 19)],
            command_streamer_stall_enable: bool as Bool "Command Streamer Stall Enable" [ALL => (1, 20, 20)],
            store_data_index: u32 as Uint "Store Data Index" [ALL => (1, 21, 21)],
            lri_post_sync_operation: LriPostSyncOperation as Enum "LRI Post Sync Operation" [ALL => (1, 23, 23)],
            destination_address_type: DestinationAddressType as Enum "Destination Address Type" [ALL => (1, 24, 24)],
            flush_llc: bool as Bool "Flush LLC" [ALL => (1, 26, 26)],
            address: u64 as Address "Address" [ALL => (2, 2, 47)],
            immediate_data: u64 as Uint "Immediate Data" [ALL => (4, 0, 63)],
            psd_sync_enable: bool as Bool "PSD Sync Enable" [G11 | G12 => (1, 17, 17)],
            command_cache_invalidate_enable: bool as Bool "Command Cache Invalidate Enable" [G11 | G12 | G125 => (1, 29, 29)],
            hdc_pipeline_flush_enable: bool as Bool "HDC Pipeline Flush Enable" [G12 | G125 => (0, 9, 9)],
            l3_read_only_cache_invalidation_enable: bool as Bool "L3 Read Only Cache Invalidation Enable" [G12 | G125 => (0, 10, 10)],
            protected_memory_enable: bool as Bool "Protected Memory Enable" [G12 | G125 => (1, 22, 22)],
            protected_memory_disable: bool as Bool "Protected Memory Disable" [G12 | G125 => (1, 27, 27)],
            tile_cache_flush_enable: bool as Bool "Tile Cache Flush Enable" [G12 | G125 => (1, 28, 28)],
            l3_fabric_flush: bool as Bool "L3 Fabric Flush" [G12 | G125 => (1, 30, 30)],
            untyped_data_port_cache_flush_enable: bool as Bool "Untyped Data Port Cache Flush Enable" [G125 => (0, 11, 11)],
            ccs_flush_enable: bool as Bool "CCS Flush Enable" [G125 => (0, 13, 13)],
            workload_partition_id_offset_enable: bool as Bool "Workload Partition ID Offset Enable" [G125 => (0, 14, 14)],
            protected_memory_application_id: bool as Bool "Protected Memory Application ID" [G125 => (1, 6, 6)],
            pss_stall_sync_enable: bool as Bool "PSS Stall Sync Enable" [G125 => (1, 17, 17)],
            depth_stall_sync_enable: bool as Bool "Depth Stall Sync Enable" [G125 => (1, 19, 19)],
            amfs_flush_enable: bool as Bool "AMFS Flush Enable" [G125 => (1, 25, 25)],
            tbimr_force_batch_closure: TbimrForceBatchClosure as Enum "TBIMR Force Batch Closure" [G125 => (1, 31, 31)],
        ],
    }
}
