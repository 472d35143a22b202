//! Pipeline and dispatch state: pipeline select, base addresses, VFE/CFE state, CURBE and
//! interface descriptors.

use super::enums::*;

packet! {
    /// PIPELINE_SELECT: Selects the 3D, media or GPGPU pipeline (Mask Bits enable the fields being written).
    PipelineSelect = "PIPELINE_SELECT" {
        len: [G9 | G11 | G12 | G125 => 1],
        header: [
            "3D Command Sub Opcode" (0, 16, 23) [ALL] = 4,
            "3D Command Opcode" (0, 24, 26) [ALL] = 1,
            "Command SubType" (0, 27, 28) [ALL] = 1,
            "Command Type" (0, 29, 31) [ALL] = 3,
        ],
        length: [],
        fields: [
            pipeline_selection: PipelineSelection as Enum "Pipeline Selection" [ALL => (0, 0, 1)],
            media_sampler_dop_clock_gate_enable: bool as Bool "Media Sampler DOP Clock Gate Enable" [ALL => (0, 4, 4)],
            force_media_awake: bool as Bool "Force Media Awake" [ALL => (0, 5, 5)],
            mask_bits: u32 as Uint "Mask Bits" [ALL => (0, 8, 15)],
            systolic_mode_enable: bool as Bool "Systolic Mode Enable" [G125 => (0, 7, 7)],
        ],
    }
}

packet! {
    /// STATE_BASE_ADDRESS: Base addresses, sizes and MOCS of the general, surface, dynamic, indirect and instruction state heaps.
    StateBaseAddress = "STATE_BASE_ADDRESS" {
        len: [G9 => 19, G11 | G12 | G125 => 22],
        header: [
            "3D Command Sub Opcode" (0, 16, 23) [ALL] = 1,
            "3D Command Opcode" (0, 24, 26) [ALL] = 1,
            "Command SubType" (0, 27, 28) [ALL] = 0,
            "Command Type" (0, 29, 31) [ALL] = 3,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            general_state_base_address_modify_enable: bool as Bool "General State Base Address Modify Enable" [ALL => (1, 0, 0)],
            general_state_mocs: u32 as Uint "General State MOCS" [ALL => (1, 4, 10)],
            general_state_base_address: u64 as Address "General State Base Address" [ALL => (1, 12, 63)],
            stateless_data_port_access_mocs: u32 as Uint "Stateless Data Port Access MOCS" [ALL => (3, 16, 22)],
            surface_state_base_address_modify_enable: bool as Bool "Surface State Base Address Modify Enable" [ALL => (4, 0, 0)],
            surface_state_mocs: u32 as Uint "Surface State MOCS" [ALL => (4, 4, 10)],
            surface_state_base_address: u64 as Address "Surface State Base Address" [ALL => (4, 12, 63)],
            dynamic_state_base_address_modify_enable: bool as Bool "Dynamic State Base Address Modify Enable" [ALL => (6, 0, 0)],
            dynamic_state_mocs: u32 as Uint "Dynamic State MOCS" [ALL => (6, 4, 10)],
            dynamic_state_base_address: u64 as Address "Dynamic State Base Address" [ALL => (6, 12, 63)],
            indirect_object_base_address_modify_enable: bool as Bool "Indirect Object Base Address Modify Enable" [ALL => (8, 0, 0)],
            indirect_object_mocs: u32 as Uint "Indirect Object MOCS" [ALL => (8, 4, 10)],
            indirect_object_base_address: u64 as Address "Indirect Object Base Address" [ALL => (8, 12, 63)],
            instruction_base_address_modify_enable: bool as Bool "Instruction Base Address Modify Enable" [ALL => (10, 0, 0)],
            instruction_mocs: u32 as Uint "Instruction MOCS" [ALL => (10, 4, 10)],
            instruction_base_address: u64 as Address "Instruction Base Address" [ALL => (10, 12, 63)],
            general_state_buffer_size_modify_enable: bool as Bool "General State Buffer Size Modify Enable" [ALL => (12, 0, 0)],
            general_state_buffer_size: u32 as Uint "General State Buffer Size" [ALL => (12, 12, 31)],
            dynamic_state_buffer_size_modify_enable: bool as Bool "Dynamic State Buffer Size Modify Enable" [ALL => (13, 0, 0)],
            dynamic_state_buffer_size: u32 as Uint "Dynamic State Buffer Size" [ALL => (13, 12, 31)],
            indirect_object_buffer_size_modify_enable: bool as Bool "Indirect Object Buffer Size Modify Enable" [ALL => (14, 0, 0)],
            indirect_object_buffer_size: u32 as Uint "Indirect Object Buffer Size" [ALL => (14, 12, 31)],
            instruction_buffer_size_modify_enable: bool as Bool "Instruction Buffer size Modify Enable" [ALL => (15, 0, 0)],
            instruction_buffer_size: u32 as Uint "Instruction Buffer Size" [ALL => (15, 12, 31)],
            bindless_surface_state_base_address_modify_enable: bool as Bool "Bindless Surface State Base Address Modify Enable" [ALL => (16, 0, 0)],
            bindless_surface_state_mocs: u32 as Uint "Bindless Surface State MOCS" [ALL => (16, 4, 10)],
            bindless_surface_state_base_address: u64 as Address "Bindless Surface State Base Address" [ALL => (16, 12, 63)],
            bindless_surface_state_size: u32 as Uint "Bindless Surface State Size" [G9 | G11 | G12 => (18, 12, 31), G125 => (18, 0, 31)],
            bindless_sampler_state_base_address_modify_enable: bool as Bool "Bindless Sampler State Base Address Modify Enable" [G11 | G12 | G125 => (19, 0, 0)],
            bindless_sampler_state_mocs: u32 as Uint "Bindless Sampler State MOCS" [G11 | G12 | G125 => (19, 4, 10)],
            bindless_sampler_state_base_address: u64 as Address "Bindless Sampler State Base Address" [G11 | G12 | G125 => (19, 12, 63)],
            bindless_sampler_state_buffer_size: u32 as Uint "Bindless Sampler State Buffer Size" [G11 | G12 | G125 => (21, 12, 31)],
            l1_cache_control: L1CacheControl as Enum "L1 Cache Control" [G125 => (3, 23, 25)],
        ],
    }
}

packet! {
    /// STATE_COMPUTE_MODE: compute modes (coherency, L1 behaviour; on Xe-HPG also large GRF and
    /// thread limits), each with its mask bit. Mesa's gen120.xml lacks the Gen12LP form, which
    /// NEO emits on TGL: its layout is NEO 22.43's `hw_cmds_generated_gen12lp.inl` (one Mask
    /// field over bits 16-31, a field's mask bit being its own bit + 16).
    StateComputeMode = "STATE_COMPUTE_MODE" {
        len: [G12 | G125 => 2],
        header: [
            "3D Command Sub Opcode" (0, 16, 23) [ALL] = 5,
            "3D Command Opcode" (0, 24, 26) [ALL] = 1,
            "Command SubType" (0, 27, 28) [ALL] = 0,
            "Command Type" (0, 29, 31) [ALL] = 3,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            z_pass_async_compute_thread_limit: ZPassAsyncComputeThreadLimit as Enum "Z Pass Async Compute Thread Limit" [G125 => (1, 0, 2)],
            force_non_coherent_dg2: ForceNonCoherentDg2 as Enum "Force Non-Coherent DG2" [G12 | G125 => (1, 3, 4)],
            fast_clear_disabled_on_compressed_surface: bool as Bool "Fast Clear Disabled on Compressed Surface" [G125 => (1, 5, 5)],
            disable_slm_read_merge_optimization: bool as Bool "Disable SLM Read Merge Optimization" [G125 => (1, 6, 6)],
            pixel_async_compute_thread_limit: PixelAsyncComputeThreadLimit as Enum "Pixel Async Compute Thread Limit" [G125 => (1, 7, 9)],
            disable_atomic_on_clear_data: bool as Bool "Disable Atomic on Clear Data" [G125 => (1, 11, 11)],
            disable_l1_invalidate_for_non_l1_cacheable_writes: bool as Bool "Disable L1 Invalidate for non-L1-cacheable Writes" [G12 | G125 => (1, 13, 13)],
            large_grf_mode: bool as Bool "Large GRF Mode" [G125 => (1, 15, 15)],
            z_pass_async_compute_thread_limit_mask: u32 as Uint "Z Pass Async Compute Thread Limit Mask" [G125 => (1, 16, 18)],
            force_non_coherent_dg2_mask: u32 as Uint "Force Non-Coherent DG2 Mask" [G12 | G125 => (1, 19, 20)],
            fast_clear_disabled_on_compressed_surface_mask: bool as Bool "Fast Clear Disabled on Compressed Surface Mask" [G125 => (1, 21, 21)],
            disable_slm_read_merge_optimization_mask: bool as Bool "Disable SLM Read Merge Optimization Mask" [G125 => (1, 22, 22)],
            pixel_async_compute_thread_limit_mask: u32 as Uint "Pixel Async Compute Thread Limit Mask" [G125 => (1, 23, 25)],
            disable_atomic_on_clear_data_mask: bool as Bool "Disable Atomic on Clear Data Mask" [G125 => (1, 27, 27)],
            disable_l1_invalidate_for_non_l1_cacheable_writes_mask: bool as Bool "Disable L1 Invalidate for non-L1-cacheable Writes Mask" [G12 | G125 => (1, 29, 29)],
            large_grf_mode_mask: bool as Bool "Large GRF Mode Mask" [G125 => (1, 31, 31)],
            binding_table_alignment: bool as Bool "Binding Table Alignment" [G12 => (1, 10, 10)],
            coherent_access_l1_cache_disable: bool as Bool "Coherent Access L1 Cache Disable" [G12 => (1, 12, 12)],
            binding_table_alignment_mask: bool as Bool "Binding Table Alignment Mask" [G12 => (1, 26, 26)],
            coherent_access_l1_cache_disable_mask: bool as Bool "Coherent Access L1 Cache Disable Mask" [G12 => (1, 28, 28)],
        ],
    }
}

packet! {
    /// 3DSTATE_BINDING_TABLE_POOL_ALLOC: Base and size of the binding table pool.
    BindingTablePoolAlloc = "3DSTATE_BINDING_TABLE_POOL_ALLOC" {
        len: [G9 | G11 | G12 | G125 => 4],
        header: [
            "3D Command Sub Opcode" (0, 16, 23) [ALL] = 25,
            "3D Command Opcode" (0, 24, 26) [ALL] = 1,
            "Command SubType" (0, 27, 28) [ALL] = 3,
            "Command Type" (0, 29, 31) [ALL] = 3,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            mocs: u32 as Uint "MOCS" [ALL => (1, 0, 6)],
            binding_table_pool_enable: bool as Bool "Binding Table Pool Enable" [G9 | G11 | G12 => (1, 11, 11)],
            binding_table_pool_base_address: u64 as Address "Binding Table Pool Base Address" [ALL => (1, 12, 63)],
            binding_table_pool_buffer_size: u32 as Uint "Binding Table Pool Buffer Size" [ALL => (3, 12, 31)],
        ],
    }
}

packet! {
    /// STATE_SIP: Address of the system instruction pointer (exception/debug handler).
    StateSip = "STATE_SIP" {
        len: [G9 | G11 | G12 | G125 => 3],
        header: [
            "3D Command Sub Opcode" (0, 16, 23) [ALL] = 2,
            "3D Command Opcode" (0, 24, 26) [ALL] = 1,
            "Command SubType" (0, 27, 28) [ALL] = 0,
            "Command Type" (0, 29, 31) [ALL] = 3,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            system_instruction_pointer: u64 as Offset "System Instruction Pointer" [ALL => (1, 4, 63)],
        ],
    }
}

packet! {
    /// MEDIA_VFE_STATE: Gen9–Gen12LP media/GPGPU front end: scratch, thread limits, URB and CURBE sizes.
    MediaVfeState = "MEDIA_VFE_STATE" {
        len: [G9 | G11 | G12 => 9],
        header: [
            "SubOpcode" (0, 16, 23) [ALL] = 0,
            "Media Command Opcode" (0, 24, 26) [ALL] = 0,
            "Pipeline" (0, 27, 28) [ALL] = 2,
            "Command Type" (0, 29, 31) [ALL] = 3,
        ],
        length: ["DWord Length" (0, 0, 15) bias 2],
        fields: [
            per_thread_scratch_space: u32 as Uint "Per Thread Scratch Space" [ALL => (1, 0, 3)],
            stack_size: u32 as Uint "Stack Size" [ALL => (1, 4, 7)],
            scratch_space_base_pointer: u64 as Address "Scratch Space Base Pointer" [ALL => (1, 10, 47)],
            reset_gateway_timer: ResetGatewayTimer as Enum "Reset Gateway Timer" [G9 => (3, 7, 7)],
            number_of_urb_entries: u32 as Uint "Number of URB Entries" [ALL => (3, 8, 15)],
            maximum_number_of_threads: u32 as Uint "Maximum Number of Threads" [ALL => (3, 16, 31)],
            slice_disable: SliceDisable as Enum "Slice Disable" [G9 => (4, 0, 1)],
            curbe_allocation_size: u32 as Uint "CURBE Allocation Size" [ALL => (5, 0, 15)],
            urb_entry_allocation_size: u32 as Uint "URB Entry Allocation Size" [ALL => (5, 16, 31)],
            scoreboard_mask: u32 as Uint "Scoreboard Mask" [G9 => (6, 0, 7)],
            scoreboard_type: ScoreboardType as Enum "Scoreboard Type" [G9 => (6, 30, 30)],
            scoreboard_enable: bool as Bool "Scoreboard Enable" [G9 => (6, 31, 31)],
            scoreboard_0_delta_x: i32 as Int "Scoreboard 0 Delta X" [G9 => (7, 0, 3)],
            scoreboard_0_delta_y: i32 as Int "Scoreboard 0 Delta Y" [G9 => (7, 4, 7)],
            scoreboard_1_delta_x: i32 as Int "Scoreboard 1 Delta X" [G9 => (7, 8, 11)],
            scoreboard_1_delta_y: i32 as Int "Scoreboard 1 Delta Y" [G9 => (7, 12, 15)],
            scoreboard_2_delta_x: i32 as Int "Scoreboard 2 Delta X" [G9 => (7, 16, 19)],
            scoreboard_2_delta_y: i32 as Int "Scoreboard 2 Delta Y" [G9 => (7, 20, 23)],
            scoreboard_3_delta_x: i32 as Int "Scoreboard 3 Delta X" [G9 => (7, 24, 27)],
            scoreboard_3_delta_y: i32 as Int "Scoreboard 3 Delta Y" [G9 => (7, 28, 31)],
            scoreboard_4_delta_x: i32 as Int "Scoreboard 4 Delta X" [G9 => (8, 0, 3)],
            scoreboard_4_delta_y: i32 as Int "Scoreboard 4 Delta Y" [G9 => (8, 4, 7)],
            scoreboard_5_delta_x: i32 as Int "Scoreboard 5 Delta X" [G9 => (8, 8, 11)],
            scoreboard_5_delta_y: i32 as Int "Scoreboard 5 Delta Y" [G9 => (8, 12, 15)],
            scoreboard_6_delta_x: i32 as Int "Scoreboard 6 Delta X" [G9 => (8, 16, 19)],
            scoreboard_6_delta_y: i32 as Int "Scoreboard 6 Delta Y" [G9 => (8, 20, 23)],
            scoreboard_7_delta_x: i32 as Int "Scoreboard 7 Delta X" [G9 => (8, 24, 27)],
            scoreboard_7_delta_y: i32 as Int "Scoreboard 7 Delta Y" [G9 => (8, 28, 31)],
            dispatch_load_balance: DispatchLoadBalance as Enum "Dispatch Load Balance" [G11 | G12 => (3, 2, 2)],
            maximum_number_of_dual_subslices: u32 as Uint "Maximum Number of Dual-Subslices" [G11 | G12 => (4, 0, 7)],
        ],
    }
}

packet! {
    /// CFE_STATE: Xe-HPG compute front end: scratch, thread limits, walker count.
    CfeState = "CFE_STATE" {
        len: [G125 => 6],
        header: [
            "CFE SubOpcode Variant" (0, 16, 17) [ALL] = 0,
            "CFE SubOpcode" (0, 18, 23) [ALL] = 0,
            "Compute Command Opcode" (0, 24, 26) [ALL] = 2,
            "Pipeline" (0, 27, 28) [ALL] = 2,
            "Command Type" (0, 29, 31) [ALL] = 3,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            scratch_space_buffer: u32 as Uint "Scratch Space Buffer" [ALL => (1, 10, 31)],
            number_of_walkers: u32 as Uint "Number of Walkers" [ALL => (3, 3, 5)],
            fused_eu_dispatch: bool as Bool "Fused EU Dispatch" [ALL => (3, 6, 6)],
            single_slice_dispatch_ccs_mode: bool as Bool "Single Slice Dispatch CCS Mode" [ALL => (3, 13, 13)],
            over_dispatch_control: OverDispatchControl as Enum "Over Dispatch Control" [ALL => (3, 14, 15)],
            maximum_number_of_threads: u32 as Uint "Maximum Number of Threads" [ALL => (3, 16, 31)],
        ],
    }
}

packet! {
    /// MEDIA_CURBE_LOAD: Loads the constant URB (cross-thread payload) from the indirect/dynamic state heap.
    MediaCurbeLoad = "MEDIA_CURBE_LOAD" {
        len: [G9 | G11 | G12 => 4],
        header: [
            "SubOpcode" (0, 16, 23) [ALL] = 1,
            "Media Command Opcode" (0, 24, 26) [ALL] = 0,
            "Pipeline" (0, 27, 28) [ALL] = 2,
            "Command Type" (0, 29, 31) [ALL] = 3,
        ],
        length: ["DWord Length" (0, 0, 15) bias 2],
        fields: [
            curbe_total_data_length: u32 as Uint "CURBE Total Data Length" [ALL => (2, 0, 16)],
            curbe_data_start_address: u32 as Uint "CURBE Data Start Address" [ALL => (3, 0, 31)],
        ],
    }
}

packet! {
    /// MEDIA_INTERFACE_DESCRIPTOR_LOAD: Loads interface descriptors from the dynamic state heap.
    MediaInterfaceDescriptorLoad = "MEDIA_INTERFACE_DESCRIPTOR_LOAD" {
        len: [G9 | G11 | G12 => 4],
        header: [
            "SubOpcode" (0, 16, 23) [ALL] = 2,
            "Media Command Opcode" (0, 24, 26) [ALL] = 0,
            "Pipeline" (0, 27, 28) [ALL] = 2,
            "Command Type" (0, 29, 31) [ALL] = 3,
        ],
        length: ["DWord Length" (0, 0, 15) bias 2],
        fields: [
            interface_descriptor_total_length: u32 as Uint "Interface Descriptor Total Length" [ALL => (2, 0, 16)],
            interface_descriptor_data_start_address: u32 as Offset "Interface Descriptor Data Start Address" [ALL => (3, 0, 31)],
        ],
    }
}

packet! {
    /// INTERFACE_DESCRIPTOR_DATA: Per-kernel dispatch state: kernel start, binding table, SLM, barriers, threads per group.
    InterfaceDescriptorData = "INTERFACE_DESCRIPTOR_DATA" {
        len: [G9 | G11 | G12 | G125 => 8],
        header: [
        ],
        length: [],
        fields: [
            kernel_start_pointer: u64 as Offset "Kernel Start Pointer" [G9 | G11 | G12 => (0, 6, 47), G125 => (0, 6, 31)],
            software_exception_enable: bool as Bool "Software Exception Enable" [ALL => (2, 7, 7)],
            mask_stack_exception_enable: bool as Bool "Mask Stack Exception Enable" [ALL => (2, 11, 11)],
            illegal_opcode_exception_enable: bool as Bool "Illegal Opcode Exception Enable" [ALL => (2, 13, 13)],
            floating_point_mode: FloatingPointMode as Enum "Floating Point Mode" [ALL => (2, 16, 16)],
            thread_priority: ThreadPriority as Enum "Thread Priority" [G9 | G11 | G12 => (2, 17, 17)],
            single_program_flow: bool as Bool "Single Program Flow" [ALL => (2, 18, 18)],
            denorm_mode: DenormMode as Enum "Denorm Mode" [ALL => (2, 19, 19)],
            sampler_count: SamplerCount as Enum "Sampler Count" [ALL => (3, 2, 4)],
            sampler_state_pointer: u32 as Offset "Sampler State Pointer" [ALL => (3, 5, 31)],
            binding_table_entry_count: u32 as Uint "Binding Table Entry Count" [ALL => (4, 0, 4)],
            binding_table_pointer: u32 as Offset "Binding Table Pointer" [G9 | G11 | G12 => (4, 5, 15), G125 => (4, 5, 20)],
            constant_urb_entry_read_offset: u32 as Uint "Constant URB Entry Read Offset" [G9 | G11 | G12 => (5, 0, 15)],
            constant_urb_entry_read_length: u32 as Uint "Constant URB Entry Read Length" [G9 | G11 | G12 => (5, 16, 31)],
            number_of_threads_in_gpgpu_thread_group: u32 as Uint "Number of Threads in GPGPU Thread Group" [G9 | G11 | G12 => (6, 0, 9), G125 => (5, 0, 9)],
            global_barrier_enable: bool as Bool "Global Barrier Enable" [G9 | G11 | G12 => (6, 15, 15)],
            shared_local_memory_size: SharedLocalMemorySize as Enum "Shared Local Memory Size" [G9 | G11 | G12 => (6, 16, 20), G125 => (5, 16, 20)],
            barrier_enable: bool as Bool "Barrier Enable" [G9 | G11 | G12 => (6, 21, 21), G125 => (5, 21, 21)],
            rounding_mode: RoundingMode as Enum "Rounding Mode" [G9 | G11 | G12 => (6, 22, 23), G125 => (5, 22, 23)],
            cross_thread_constant_data_read_length: u32 as Uint "Cross-Thread Constant Data Read Length" [G9 | G11 | G12 => (7, 0, 7)],
            thread_preemption_disable: bool as Bool "Thread Preemption Disable" [G12 | G125 => (2, 20, 20)],
            thread_group_dispatch_size: ThreadGroupDispatchSize as Enum "Thread Group Dispatch Size" [G125 => (5, 26, 27)],
            number_of_barriers: NumberOfBarriers as Enum "Number Of Barriers" [G125 => (5, 28, 30)],
            btd_mode: u32 as Uint "BTD Mode" [G125 => (5, 31, 31)],
            preferred_slm_allocation_size: u32 as Uint "Preferred SLM Allocation Size" [G125 => (6, 0, 3)],
        ],
    }
}
