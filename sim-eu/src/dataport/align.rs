//! What each data-port message needs of the addresses it accesses: one row per message kind,
//! each with its source. The sources are IGC's vISA instruction documentation
//! (`documentation/visa/instructions/*.md`, the messages IGC lowers each vISA instruction to),
//! Mesa's Intel compiler (`src/intel/compiler/brw_nir.c`, `get_mem_access_size_align`, which
//! decides the alignment each 8/16/32/64-bit access it emits may have) and the messages Debian's
//! ocloc (IGC 1.0.12504) emits for `vloadn`/`vstoren` of char and short data at byte addresses,
//! which `umd/tests/byte_addressed_sim.rs` disassembles and runs.
//!
//! Where a row requires alignment, the sources only forbid misaligned addresses ("must be
//! aligned"); none of them says what the hardware does with one, so the simulator stops the
//! thread with [`EuErrorKind::Misaligned`] (a GPU error naming the address and the instruction)
//! instead of guessing between ignored low bits and a fault.

use crate::error::EuErrorKind;

/// A data-port access as the alignment rules tell them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// HDC byte scattered read/write (DC0 types 0x04/0x0C, BTI or SLM), 1, 2 or 4 bytes per
    /// lane.
    ByteScattered,
    /// HDC DWord scattered read/write (DC0 types 0x03/0x0B).
    DwordScattered,
    /// Untyped surface read/write, BTI (DC1 0x01/0x09) and A64 (DC1 0x11/0x19).
    Untyped,
    /// A64 scattered read/write (DC1 0x10/0x1A) with this many bytes per block: 1 (byte
    /// sub-type, whatever the block count), 4 (DWord) or 8 (QWord).
    A64Scattered { block: u32 },
    /// OWord block read (aligned form) and every OWord block write, BTI and A64.
    OwordBlock,
    /// OWord block read, unaligned form: BTI type 0x01, A64 sub-type 1.
    OwordBlockUnaligned,
    /// A64 HWord block read/write (sub-type 3).
    HwordBlock,
    /// 32-bit integer/float atomics, HDC and LSC.
    Atomic32,
    /// 64-bit integer atomics: HDC A64 with QWord data, LSC D64.
    Atomic64,
    /// LSC load/store, one element of `elem` bytes in memory per lane (vector size 1).
    LscLane { elem: u32 },
    /// LSC load/store with several elements per lane (vector size > 1, or quad).
    LscVector { elem: u32 },
    /// LSC transposed load/store (one address, the vector in consecutive register bytes).
    LscTransposed { elem: u32 },
}

/// Bytes an address of `access` must be a multiple of (1: any byte address).
pub(crate) const fn alignment(access: Access) -> u32 {
    match access {
        // vISA GATHER_SCALED / SCATTER_SCALED: "For each channel <num_blocks> bytes are read"
        // at each byte offset, no alignment required; Mesa gives the 8/16/32-bit accesses it
        // lowers to byte scattered messages `.align = 1`; IGC emits 16/32-bit byte scattered
        // messages for `vload2`/`vload4` of uchar at odd addresses.
        Access::ByteScattered => 1,
        // vISA GATHER / SCATTER (4-byte elements): the offsets are "in the unit of element
        // size", so every address is a DWord multiple.
        Access::DwordScattered => 4,
        // vISA GATHER4_SCALED / SCATTER4_SCALED and SVM_GATHER4_SCALED: "the final address
        // must be dword-aligned".
        Access::Untyped => 4,
        // vISA SVM_GATHER / SVM_SCATTER: "Each address must be aligned to the <block_size>"
        // (1, 4 or 8 bytes); IGC emits the byte form with 2 and 4 blocks at odd addresses.
        Access::A64Scattered { block } => block,
        // vISA OWORD_LD / OWORD_ST: "oword-aligned"; SVM_BLOCK_LD bit 3 clear: "address must
        // be oword aligned"; SVM_BLOCK_ST: "The address must be oword-aligned".
        Access::OwordBlock => 16,
        // vISA OWORD_LD_UNALIGNED: "the offset is dword-aligned instead of oword-aligned";
        // SVM_BLOCK_LD bit 3 set: "address can be dword aligned".
        Access::OwordBlockUnaligned => 4,
        // No source consulted states it; kept at the OWord rule of the other block messages.
        Access::HwordBlock => 16,
        // vISA DWORD_ATOMIC operates on the dword at each offset; OpenCL C atomics act on
        // naturally aligned objects, so no compiler emits less.
        Access::Atomic32 => 4,
        // vISA SVM_ATOMIC on 64-bit data and LSC D64 atomics act on the naturally aligned
        // QWord (OpenCL C `atom_*` on long: a naturally aligned object).
        Access::Atomic64 => 8,
        // Mesa (brw_nir.c) gives 8, 16 and 32-bit single-component accesses `.align = 1` on
        // LSC platforms too and loads non-DWord-aligned constants with LSC D32 loads
        // (brw_lower_logical_sends.cpp); IGC emits load/store.ugm d16u32 and d32 (a32 and
        // a64) at odd addresses for `vload2`/`vload8` of uchar on acm-g10. 64-bit elements:
        // oneDNN's GEMM kernels for acm-g10 test their leading dimensions' low two bits and,
        // when they are not DWord multiples, take a path that loads with load.ugm.d64.a32 per
        // lane at the rows' addresses (OpenVINO's f16 `test_operator_mm` through NEO: A 2×3,
        // its second row at byte 6), where the aligned path uses transposed block loads. So
        // the per-lane (scattered) message takes any address whatever its element size, and
        // only the transposed and vector forms below keep an alignment.
        Access::LscLane { .. } => 1,
        // Mesa emits multi-component LSC accesses only at the element's alignment (32-bit
        // vectors `.align = 4`, 64-bit `.align = 8`); IGC splits a byte-aligned uchar8 into
        // two d32 lanes instead of one d32x2, and sends d64xN only for 8-byte-aligned data.
        Access::LscVector { elem } => elem,
        // Block (transposed) LSC messages: unchanged rule, DWord or the element's size.
        Access::LscTransposed { elem } => {
            if elem > 4 {
                elem
            } else {
                4
            }
        }
    }
}

/// Checks `addr` against the rule of `access`.
pub(crate) fn check(access: Access, addr: u64) -> Result<(), EuErrorKind> {
    let align = alignment(access);
    if !addr.is_multiple_of(u64::from(align)) {
        return Err(EuErrorKind::Misaligned {
            address: addr,
            align,
        });
    }
    Ok(())
}
