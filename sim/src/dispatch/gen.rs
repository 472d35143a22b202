//! Per-generation thread-dispatch facts, as one table (NEO's walker programming, IGT's
//! intel_compute batches and the r0 use of IGC-compiled kernels).

use platform::Platform;

/// Which STATE_BASE_ADDRESS base the walker's Indirect Data Start Address is relative to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndirectBase {
    /// Gen9–Gen12LP: Indirect Object Base Address (NEO's indirect object heap).
    IndirectObject,
    /// Xe-HPG: General State Base Address (IGT places COMPUTE_WALKER indirect data at
    /// General State Base + the offset; IGC's payload prologue reads it through the stateless
    /// binding-table index 253, which is General State Base relative).
    GeneralState,
}

/// How one generation dispatches threads.
#[derive(Debug, Clone, Copy)]
pub struct GenDispatch {
    pub indirect_base: IndirectBase,
    /// The hardware loads the interface descriptor's per-thread and cross-thread GRFs
    /// (Gen9–Gen12LP; Xe-HPG kernels load their payload themselves).
    pub loads_curbe: bool,
    /// Lowest bit of the barrier ID in r0.2 (IGC masks r0.2 with 0x8F000000 on Gen9/11,
    /// 0x7F000000 on Gen12LP and copies byte 11 on Xe-HPG).
    pub barrier_id_shift: u32,
    /// r0.2\[7:0\] holds the thread's index in its group and r0.0\[31:6\] the Indirect Data
    /// Start Address (Xe-HPG: IGC's prologue locates the per-thread data with them).
    pub r0_payload_pointers: bool,
    /// Bits of r0.5 that hold the FFTID, the hardware thread slot, which IGC reads as the
    /// thread's hardware thread ID on Gen9–Gen12LP (its `__builtin_IB_hw_thread_id` compiles
    /// to `and r0.5, 0x1ff` for skl and `0x3ff` for icllp and tgllp).
    pub fftid_bits: u32,
    /// Where sr0.0 holds the slot's bits, low bits first, as (width, shift): IGC's Xe-HPG
    /// hardware thread ID (its private memory index) concatenates sr0.0\[2:0\], \[5:4\] and
    /// \[13:7\] (the ocloc-compiled code for dg2). Empty where IGC takes the ID from r0.5.
    pub sr0_slot_fields: &'static [(u32, u32)],
}

const DATA: [GenDispatch; 4] = [
    // Skl
    GenDispatch {
        indirect_base: IndirectBase::IndirectObject,
        loads_curbe: true,
        barrier_id_shift: 24,
        r0_payload_pointers: false,
        fftid_bits: 9,
        sr0_slot_fields: &[],
    },
    // Icllp
    GenDispatch {
        indirect_base: IndirectBase::IndirectObject,
        loads_curbe: true,
        barrier_id_shift: 24,
        r0_payload_pointers: false,
        fftid_bits: 10,
        sr0_slot_fields: &[],
    },
    // Tgllp
    GenDispatch {
        indirect_base: IndirectBase::IndirectObject,
        loads_curbe: true,
        barrier_id_shift: 24,
        r0_payload_pointers: false,
        fftid_bits: 10,
        sr0_slot_fields: &[],
    },
    // Dg2
    GenDispatch {
        indirect_base: IndirectBase::GeneralState,
        loads_curbe: false,
        barrier_id_shift: 24,
        r0_payload_pointers: true,
        fftid_bits: 10,
        sr0_slot_fields: &[(3, 0), (2, 4), (7, 7)],
    },
];

/// The dispatch facts of `p`.
pub fn gen_dispatch(p: Platform) -> &'static GenDispatch {
    &DATA[p as usize]
}

/// r0 dword holding the thread-group ID of each dimension (X, Y, Z).
pub const R0_GROUP_ID: [usize; 3] = [1, 6, 7];
/// r0 dword holding the barrier ID (and, on Xe-HPG, the thread index in bits 7:0).
pub const R0_BARRIER: usize = 2;
/// r0 dword holding the FFTID (bits 9:0) and the scratch pointer (bits 31:10).
pub const R0_FFTID: usize = sim_eu::dataport::scratch::R0_SCRATCH_POINTER;
/// Barrier IDs the gateway hands out (4 bits on Gen9/11, the narrowest field).
pub const BARRIER_IDS: u32 = 16;

impl GenDispatch {
    /// Hardware thread slots the FFTID field can name.
    pub fn fftid_slots(&self) -> u32 {
        1 << self.fftid_bits
    }

    /// sr0.0 of a thread in hardware thread slot `slot`.
    pub fn sr0_ids(&self, slot: u32) -> u32 {
        let mut rest = slot;
        let mut sr0 = 0;
        for &(width, shift) in self.sr0_slot_fields {
            sr0 |= (rest & ((1 << width) - 1)) << shift;
            rest >>= width;
        }
        sr0
    }
}
