//! Gen12LP / Xe-HPG field positions and value tables (bit numbers are inclusive `lo, hi`).

use crate::model::DataType;

/// Register-operand type codes (4 bits; ternary uses the low 3 bits plus an exec-type bit).
pub const TYPES: [(DataType, u8); 13] = [
    (DataType::Ub, 0x0),
    (DataType::Uw, 0x1),
    (DataType::Ud, 0x2),
    (DataType::Uq, 0x3),
    (DataType::B, 0x4),
    (DataType::W, 0x5),
    (DataType::D, 0x6),
    (DataType::Q, 0x7),
    (DataType::Hf, 0x9),
    (DataType::F, 0xA),
    (DataType::Df, 0xB),
    (DataType::Bf, 0xD),
    (DataType::Tf32, 0xE),
];

/// Immediate-only type codes: packed vectors reuse the byte codes (no byte immediates exist).
pub const IMM_TYPES: [(DataType, u8); 3] =
    [(DataType::Uv, 0x0), (DataType::V, 0x4), (DataType::Vf, 0x8)];

/// HorzStride codes (the whole two-source region table is in `native/shared.rs`).
pub use crate::native::shared::HSTRIDES;
/// Align1 ternary src0/src1 2-bit VertStride encoding -> stride.
pub const T_VSTRIDES: [u8; 4] = [0, 1, 4, 8];

/// Where a non-ternary source's fields sit.
pub struct SrcFields {
    pub reg: (u32, u32),
    /// Byte subregister; for indirect operands the address immediate spans
    /// `subreg.0 - 1 ..= reg.1 - 4` and the a0 subregister `reg.1 - 3 ..= reg.1`.
    pub subreg: (u32, u32),
    pub file: u32,
    pub addr_mode: u32,
    pub hstride: (u32, u32),
    pub width: (u32, u32),
    pub vstride: (u32, u32),
    pub abs: u32,
    pub neg: u32,
}

pub const SRC0: SrcFields = SrcFields {
    reg: (72, 79),
    subreg: (67, 71),
    file: 66,
    addr_mode: 80,
    hstride: (64, 65),
    width: (81, 83),
    vstride: (84, 87),
    abs: 44,
    neg: 45,
};

pub const SRC1: SrcFields = SrcFields {
    reg: (104, 111),
    subreg: (99, 103),
    file: 98,
    addr_mode: 112,
    hstride: (96, 97),
    width: (113, 115),
    vstride: (116, 119),
    abs: 120,
    neg: 121,
};

/// Where an align1 ternary source's fields sit.
pub struct TernarySrcFields {
    pub reg: (u32, u32),
    pub subreg: (u32, u32),
    pub file: u32,
    /// Bit that marks an immediate (src1 cannot be one).
    pub is_imm: Option<u32>,
    /// 16-bit immediate position.
    pub imm: (u32, u32),
    pub hstride: (u32, u32),
    /// (high bit, low bit) of the 2-bit vertical stride; src2 has none.
    pub vstride: Option<(u32, u32)>,
    /// 3-bit type.
    pub ty: (u32, u32),
    pub abs: u32,
    pub neg: u32,
}

pub const T_SRCS: [TernarySrcFields; 3] = [
    TernarySrcFields {
        reg: (72, 79),
        subreg: (67, 71),
        file: 66,
        is_imm: Some(46),
        imm: (64, 79),
        hstride: (64, 65),
        vstride: Some((43, 35)),
        ty: (40, 42),
        abs: 44,
        neg: 45,
    },
    TernarySrcFields {
        reg: (104, 111),
        subreg: (99, 103),
        file: 98,
        is_imm: None,
        imm: (0, 0),
        hstride: (96, 97),
        vstride: Some((91, 83)),
        ty: (88, 90),
        abs: 86,
        neg: 87,
    },
    TernarySrcFields {
        reg: (120, 127),
        subreg: (115, 119),
        file: 114,
        is_imm: Some(47),
        imm: (112, 127),
        hstride: (112, 113),
        vstride: None,
        ty: (80, 82),
        abs: 84,
        neg: 85,
    },
];

/// Per platform ([`platform::Platform::ALL`] order): is a send's src1 length its own field
/// (bits 103:99, printed `r12:2`) instead of ex_desc[10:6]? True on Xe-HPG for immediate
/// extended descriptors.
pub const SEND_SRC1_LEN_SEPARATE: [bool; 4] = [false, false, false, true];

/// `bfn`'s 8-bit function: high nibble in the CondMod field, low nibble over src1/src2's
/// source-modifier bits.
pub const BFN_FC_HI: (u32, u32) = (92, 95);
pub const BFN_FC_LO: (u32, u32) = (84, 87);

/// Per platform: whether sends have the ExBSO bit (Xe-HPG), and where it is.
pub const SEND_HAS_EX_BSO: [bool; 4] = [false, false, false, true];
pub const SEND_EX_BSO: u32 = 39;

/// `dpas` / `dpasw` (Xe-HPG): the three-source format without regions. The systolic depth
/// (log2) takes the destination-stride bits, the repeat count (minus one) src0's vertical
/// stride and modifier bits. Checked against `iga64 -a` in `tests/dpas.rs`.
pub const DPAS_DEPTH_LOG2: (u32, u32) = (48, 49);
pub const DPAS_REPEAT_MINUS1: (u32, u32) = (43, 45);
/// Sub-byte precisions of src1 and src2: (4-bit flag, 2-bit flag) beside a byte type, in
/// what are the modifier bits elsewhere.
pub const DPAS_SUB_BYTE: [(u32, u32); 2] = [(86, 87), (84, 85)];
/// (byte type, its 4-bit form, its 2-bit form).
pub const DPAS_SUB_BYTE_TYPES: [(DataType, DataType, DataType); 2] = [
    (DataType::Ub, DataType::U4, DataType::U2),
    (DataType::B, DataType::S4, DataType::S2),
];

/// Math macros (`math.invm`, `math.rsqtm`; `madm` on Xe-HPG): the special accumulator index
/// takes each operand's byte-subregister field; regions are implied. Two-source format:
/// destination HorzStride code, source (VertStride, Width, HorzStride) codes (`<1;1,0>`).
/// Three-source format: src0/src1 (VertStride, HorzStride) codes (`<4;1>`), src2 HorzStride
/// code, destination `<1>`. Checked against `iga64 -a` in `tests/math_macro.rs`.
pub const MACRO_DST_HSTRIDE: u64 = 1;
pub const MACRO_SRC_REGION: (u64, u64, u64) = (1, 0, 0);
pub const MACRO_T_SRC_REGION: (u64, u64) = (2, 1);
pub const MACRO_T_SRC2_HSTRIDE: u64 = 1;
