//! MI commands: batch control, register and memory writes, semaphores.

use super::enums::*;
use crate::repeat::Repeat;

packet! {
    /// MI_NOOP: Does nothing; pads batches and can write its identification number.
    MiNoop = "MI_NOOP" {
        len: [G9 | G11 | G12 | G125 => 1],
        header: [
            "MI Command Opcode" (0, 23, 28) [ALL] = 0,
            "Command Type" (0, 29, 31) [ALL] = 0,
        ],
        length: [],
        fields: [
            identification_number: u32 as Uint "Identification Number" [ALL => (0, 0, 21)],
            identification_number_register_write_enable: bool as Bool "Identification Number Register Write Enable" [ALL => (0, 22, 22)],
        ],
    }
}

packet! {
    /// MI_BATCH_BUFFER_END: Ends the current batch buffer.
    MiBatchBufferEnd = "MI_BATCH_BUFFER_END" {
        len: [G9 | G11 | G12 | G125 => 1],
        header: [
            "MI Command Opcode" (0, 23, 28) [ALL] = 10,
            "Command Type" (0, 29, 31) [ALL] = 0,
        ],
        length: [],
        fields: [
            end_context: bool as Bool "End Context" [G11 | G12 | G125 => (0, 0, 0)],
        ],
    }
}

packet! {
    /// MI_BATCH_BUFFER_START: Jumps to (or calls, as a second-level batch) another batch buffer.
    MiBatchBufferStart = "MI_BATCH_BUFFER_START" {
        len: [G9 | G11 | G12 | G125 => 3],
        header: [
            "MI Command Opcode" (0, 23, 28) [ALL] = 49,
            "Command Type" (0, 29, 31) [ALL] = 0,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            address_space_indicator: AddressSpaceIndicator as Enum "Address Space Indicator" [ALL => (0, 8, 8)],
            resource_streamer_enable: bool as Bool "Resource Streamer Enable" [ALL => (0, 10, 10)],
            predication_enable: bool as Bool "Predication Enable" [ALL => (0, 15, 15)],
            add_offset_enable: bool as Bool "Add Offset Enable" [G9 => (0, 16, 16)],
            second_level_batch_buffer: SecondLevelBatchBuffer as Enum "Second Level Batch Buffer" [ALL => (0, 22, 22)],
            batch_buffer_start_address: u64 as Address "Batch Buffer Start Address" [ALL => (1, 2, 63)],
        ],
    }
}

packet! {
    /// MI_LOAD_REGISTER_IMM: Writes immediate dwords to one or more MMIO registers: the first
    /// (offset, data) pair, then `more_registers` (genxml's open-ended trailing group), as many as
    /// DWord Length announces (up to 128 pairs in all).
    MiLoadRegisterImm = "MI_LOAD_REGISTER_IMM" {
        len: [G9 | G11 | G12 | G125 => 3],
        header: [
            "MI Command Opcode" (0, 23, 28) [ALL] = 34,
            "Command Type" (0, 29, 31) [ALL] = 0,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            byte_write_disables: u32 as Uint "Byte Write Disables" [ALL => (0, 8, 11)],
            register_offset: u32 as Offset "Register Offset" [ALL => (1, 2, 22)],
            data_dword: u32 as Uint "Data DWord" [ALL => (2, 0, 31)],
            add_cs_mmio_start_offset: u32 as Uint "Add CS MMIO Start Offset" [G11 | G12 | G125 => (0, 19, 19)],
            more_registers: Repeat<RegisterImm, 127> as Repeated "More Registers" [ALL => (3, 0, 63)],
        ],
        dyn_len(s) => 3 + 2 * s.more_registers.len(),
    }
}

packet! {
    /// One element of MI_LOAD_REGISTER_IMM's trailing group: a register and the dword to load.
    RegisterImm = "MI_LOAD_REGISTER_IMM register" {
        len: [G9 | G11 | G12 | G125 => 2],
        header: [],
        length: [],
        fields: [
            register_offset: u32 as Offset "Register Offset" [ALL => (0, 2, 22)],
            data_dword: u32 as Uint "Data DWord" [ALL => (1, 0, 31)],
        ],
    }
}

packet! {
    /// MI_LOAD_REGISTER_REG: Copies one MMIO register to another.
    MiLoadRegisterReg = "MI_LOAD_REGISTER_REG" {
        len: [G9 | G11 | G12 | G125 => 3],
        header: [
            "MI Command Opcode" (0, 23, 28) [ALL] = 42,
            "Command Type" (0, 29, 31) [ALL] = 0,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            source_register_address: u32 as Offset "Source Register Address" [ALL => (1, 2, 22)],
            destination_register_address: u32 as Offset "Destination Register Address" [ALL => (2, 2, 22)],
            add_cs_mmio_start_offset_source: u32 as Uint "Add CS MMIO Start Offset Source" [G11 | G12 | G125 => (0, 18, 18)],
            add_cs_mmio_start_offset_destination: u32 as Uint "Add CS MMIO Start Offset Destination" [G11 | G12 | G125 => (0, 19, 19)],
        ],
    }
}

packet! {
    /// MI_LOAD_REGISTER_MEM: Loads an MMIO register from memory.
    MiLoadRegisterMem = "MI_LOAD_REGISTER_MEM" {
        len: [G9 | G11 | G12 | G125 => 4],
        header: [
            "MI Command Opcode" (0, 23, 28) [ALL] = 41,
            "Command Type" (0, 29, 31) [ALL] = 0,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            async_mode_enable: bool as Bool "Async Mode Enable" [ALL => (0, 21, 21)],
            use_global_gtt: bool as Bool "Use Global GTT" [ALL => (0, 22, 22)],
            register_address: u32 as Offset "Register Address" [ALL => (1, 2, 22)],
            memory_address: u64 as Address "Memory Address" [ALL => (2, 2, 63)],
            add_cs_mmio_start_offset: u32 as Uint "Add CS MMIO Start Offset" [G11 | G12 | G125 => (0, 19, 19)],
            add_loop_variable: u32 as Uint "Add Loop Variable" [G11 | G12 | G125 => (0, 20, 20)],
        ],
    }
}

packet! {
    /// MI_STORE_REGISTER_MEM: Stores an MMIO register to memory.
    MiStoreRegisterMem = "MI_STORE_REGISTER_MEM" {
        len: [G9 | G11 | G12 | G125 => 4],
        header: [
            "MI Command Opcode" (0, 23, 28) [ALL] = 36,
            "Command Type" (0, 29, 31) [ALL] = 0,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            predicate_enable: bool as Bool "Predicate Enable" [ALL => (0, 21, 21)],
            use_global_gtt: bool as Bool "Use Global GTT" [ALL => (0, 22, 22)],
            register_address: u32 as Offset "Register Address" [ALL => (1, 2, 22)],
            memory_address: u64 as Address "Memory Address" [ALL => (2, 2, 63)],
            add_cs_mmio_start_offset: u32 as Uint "Add CS MMIO Start Offset" [G11 | G12 | G125 => (0, 19, 19)],
        ],
    }
}

packet! {
    /// MI_STORE_DATA_IMM: Stores an immediate dword (4-dword form) or qword (5-dword form, Store Qword) to memory.
    MiStoreDataImm = "MI_STORE_DATA_IMM" {
        len: [G9 | G11 | G12 | G125 => 4],
        header: [
            "MI Command Opcode" (0, 23, 28) [ALL] = 32,
            "Command Type" (0, 29, 31) [ALL] = 0,
        ],
        length: ["DWord Length" (0, 0, 9) bias 2],
        fields: [
            store_qword: u32 as Uint "Store Qword" [ALL => (0, 21, 21)],
            use_global_gtt: bool as Bool "Use Global GTT" [ALL => (0, 22, 22)],
            core_mode_enable: u32 as Uint "Core Mode Enable" [ALL => (1, 0, 0)],
            address: u64 as Address "Address" [ALL => (1, 2, 47)],
            immediate_data: u64 as Uint "Immediate Data" [ALL => (3, 0, 63)],
            force_write_completion_check: bool as Bool "Force Write Completion Check " [G12 | G125 => (0, 10, 10)],
        ],
        dyn_len(s) => if s.store_qword != 0 { 5 } else { 4 },
    }
}

packet! {
    /// MI_SEMAPHORE_WAIT: Waits until a memory dword compares true against inline data.
    MiSemaphoreWait = "MI_SEMAPHORE_WAIT" {
        len: [G9 | G11 | G12 | G125 => 4],
        header: [
            "MI Command Opcode" (0, 23, 28) [ALL] = 28,
            "Command Type" (0, 29, 31) [ALL] = 0,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            compare_operation: CompareOperation as Enum "Compare Operation" [ALL => (0, 12, 14)],
            wait_mode: WaitMode as Enum "Wait Mode" [ALL => (0, 15, 15)],
            register_poll_mode: bool as Bool "Register Poll Mode" [ALL => (0, 16, 16)],
            memory_type: MemoryType as Enum "Memory Type" [ALL => (0, 22, 22)],
            semaphore_data_dword: u32 as Uint "Semaphore Data Dword" [ALL => (1, 0, 31)],
            semaphore_address: u64 as Address "Semaphore Address" [ALL => (2, 2, 63)],
        ],
    }
}

packet! {
    /// MI_ARB_CHECK: A preemption/arbitration point.
    MiArbCheck = "MI_ARB_CHECK" {
        len: [G9 | G11 | G12 | G125 => 1],
        header: [
            "MI Command Opcode" (0, 23, 28) [ALL] = 5,
            "Command Type" (0, 29, 31) [ALL] = 0,
        ],
        length: [],
        fields: [
            pre_parser_disable: bool as Bool "Pre-Parser Disable" [G12 | G125 => (0, 0, 0)],
            pre_parser_disable_mask: bool as Bool "Pre-Parser Disable Mask" [G12 | G125 => (0, 8, 8)],
        ],
    }
}

impl MiLoadRegisterImm {
    /// Most (register, value) pairs one packet carries: DWord Length is 8 bits, bias 2.
    pub const MAX_PAIRS: usize = 128;

    /// A packet loading every `(register offset, value)` pair in order, or `None` when there are
    /// none or more than [`Self::MAX_PAIRS`]. Offsets are checked (dword-aligned, 23 bits) when
    /// packing.
    pub fn from_pairs(pairs: &[(u32, u32)]) -> Option<Self> {
        let (&(register_offset, data_dword), rest) = pairs.split_first()?;
        let mut more_registers = Repeat::default();
        for &(register_offset, data_dword) in rest {
            more_registers
                .push(RegisterImm {
                    register_offset,
                    data_dword,
                })
                .ok()?;
        }
        Some(MiLoadRegisterImm {
            register_offset,
            data_dword,
            more_registers,
            ..Default::default()
        })
    }

    /// Every (register offset, value) pair, the first one included, in load order.
    pub fn pairs(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        std::iter::once((self.register_offset, self.data_dword)).chain(
            self.more_registers
                .as_slice()
                .iter()
                .map(|r| (r.register_offset, r.data_dword)),
        )
    }
}

packet! {
    /// MI_ATOMIC: An atomic read-modify-write of a dword or qword in memory by the command
    /// streamer. Operands are inline (`inline_data`, the 11-dword form) or absent (3 dwords).
    MiAtomic = "MI_ATOMIC" {
        len: [G9 | G11 | G12 | G125 => 3],
        header: [
            "MI Command Opcode" (0, 23, 28) [ALL] = 47,
            "Command Type" (0, 29, 31) [ALL] = 0,
        ],
        length: ["DWord Length" (0, 0, 7) bias 2],
        fields: [
            atomic_opcode: AtomicOpcode as Enum "ATOMIC OPCODE" [ALL => (0, 8, 15)],
            return_data_control: bool as Bool "Return Data Control" [ALL => (0, 16, 16)],
            cs_stall: bool as Bool "CS STALL" [ALL => (0, 17, 17)],
            inline_data: bool as Bool "Inline Data" [ALL => (0, 18, 18)],
            data_size: AtomicDataSize as Enum "Data Size" [ALL => (0, 19, 20)],
            post_sync_operation: bool as Bool "Post-Sync Operation" [ALL => (0, 21, 21)],
            memory_type: MemoryType as Enum "Memory Type" [ALL => (0, 22, 22)],
            memory_address: u64 as Address "Memory Address" [ALL => (1, 2, 47)],
            operand1_data_dword_0: u32 as Uint "Operand1 Data Dword 0" [ALL => (3, 0, 31)],
            operand2_data_dword_0: u32 as Uint "Operand2 Data Dword 0" [ALL => (4, 0, 31)],
            operand1_data_dword_1: u32 as Uint "Operand1 Data Dword 1" [ALL => (5, 0, 31)],
            operand2_data_dword_1: u32 as Uint "Operand2 Data Dword 1" [ALL => (6, 0, 31)],
            operand1_data_dword_2: u32 as Uint "Operand1 Data Dword 2" [ALL => (7, 0, 31)],
            operand2_data_dword_2: u32 as Uint "Operand2 Data Dword 2" [ALL => (8, 0, 31)],
            operand1_data_dword_3: u32 as Uint "Operand1 Data Dword 3" [ALL => (9, 0, 31)],
            operand2_data_dword_3: u32 as Uint "Operand2 Data Dword 3" [ALL => (10, 0, 31)],
        ],
        dyn_len(s) => if s.inline_data { 11 } else { 3 },
    }
}

packet! {
    /// MI_PREDICATE: Computes the command streamer's predicate from MI_PREDICATE_SRC0/SRC1 and
    /// combines it with the current one; walkers, MI_BATCH_BUFFER_START and
    /// MI_STORE_REGISTER_MEM with Predicate Enable run only while it is set.
    MiPredicate = "MI_PREDICATE" {
        len: [G9 | G11 | G12 | G125 => 1],
        header: [
            "MI Command Opcode" (0, 23, 28) [ALL] = 12,
            "Command Type" (0, 29, 31) [ALL] = 0,
        ],
        length: [],
        fields: [
            compare_operation: PredicateCompare as Enum "Compare Operation" [ALL => (0, 0, 1)],
            combine_operation: PredicateCombine as Enum "Combine Operation" [ALL => (0, 3, 4)],
            load_operation: PredicateLoad as Enum "Load Operation" [ALL => (0, 6, 7)],
        ],
    }
}
