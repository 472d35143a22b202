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
}

const DATA: [GenDispatch; 4] = [
    // Skl
    GenDispatch {
        indirect_base: IndirectBase::IndirectObject,
        loads_curbe: true,
        barrier_id_shift: 24,
        r0_payload_pointers: false,
    },
    // Icllp
    GenDispatch {
        indirect_base: IndirectBase::IndirectObject,
        loads_curbe: true,
        barrier_id_shift: 24,
        r0_payload_pointers: false,
    },
    // Tgllp
    GenDispatch {
        indirect_base: IndirectBase::IndirectObject,
        loads_curbe: true,
        barrier_id_shift: 24,
        r0_payload_pointers: false,
    },
    // Dg2
    GenDispatch {
        indirect_base: IndirectBase::GeneralState,
        loads_curbe: false,
        barrier_id_shift: 24,
        r0_payload_pointers: true,
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
