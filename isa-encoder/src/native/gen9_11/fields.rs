//! Gen9 (skl) and Gen11 (icllp) field positions and value tables. Bit numbers are inclusive
//! `(lo, hi)` like [`crate::native::Bits`]. Positions follow Mesa's brw_inst.h Gfx8+ columns
//! and were checked bit for bit against `iga64 -a` (see `tests/native_gen9_11.rs`); where the
//! two platforms differ the tables have one entry per platform (`[gen9, gen11]`).

use crate::model::{DataType, InstOpts};

/// Register type codes (4 bits), `[gen9, gen11]`: Gen11 renumbered the 64-bit and half types.
pub const REG_TYPES: [[(DataType, u8); 11]; 2] = [
    [
        (DataType::Ud, 0),
        (DataType::D, 1),
        (DataType::Uw, 2),
        (DataType::W, 3),
        (DataType::Ub, 4),
        (DataType::B, 5),
        (DataType::Df, 6),
        (DataType::F, 7),
        (DataType::Uq, 8),
        (DataType::Q, 9),
        (DataType::Hf, 10),
    ],
    [
        (DataType::Ud, 0),
        (DataType::D, 1),
        (DataType::Uw, 2),
        (DataType::W, 3),
        (DataType::Ub, 4),
        (DataType::B, 5),
        (DataType::Uq, 6),
        (DataType::Q, 7),
        (DataType::Hf, 8),
        (DataType::F, 9),
        (DataType::Df, 10),
    ],
];

/// Immediate type codes (4 bits), `[gen9, gen11]`: packed vectors take the byte codes' places.
pub const IMM_TYPES: [[(DataType, u8); 12]; 2] = [
    [
        (DataType::Ud, 0),
        (DataType::D, 1),
        (DataType::Uw, 2),
        (DataType::W, 3),
        (DataType::Uv, 4),
        (DataType::Vf, 5),
        (DataType::V, 6),
        (DataType::F, 7),
        (DataType::Uq, 8),
        (DataType::Q, 9),
        (DataType::Df, 10),
        (DataType::Hf, 11),
    ],
    [
        (DataType::Ud, 0),
        (DataType::D, 1),
        (DataType::Uw, 2),
        (DataType::W, 3),
        (DataType::Uv, 4),
        (DataType::V, 5),
        (DataType::Uq, 6),
        (DataType::Q, 7),
        (DataType::Hf, 8),
        (DataType::F, 9),
        (DataType::Df, 10),
        (DataType::Vf, 11),
    ],
];

/// Gen9 align16 three-source types (3 bits).
pub const A16_TYPES: [(DataType, u8); 5] = [
    (DataType::F, 0),
    (DataType::D, 1),
    (DataType::Ud, 2),
    (DataType::Df, 3),
    (DataType::Hf, 4),
];

/// Gen11 align1 three-source types (3 bits), chosen by the exec-type bit: integer, float.
pub const A1_INT_TYPES: [(DataType, u8); 6] = [
    (DataType::Ud, 0),
    (DataType::D, 1),
    (DataType::Uw, 2),
    (DataType::W, 3),
    (DataType::Ub, 4),
    (DataType::B, 5),
];
pub const A1_FLOAT_TYPES: [(DataType, u8); 3] =
    [(DataType::Hf, 0), (DataType::F, 1), (DataType::Df, 2)];

/// HorzStride codes (the whole two-source region table is in `native/shared.rs`).
pub use crate::native::shared::HSTRIDES;
/// Gen11 align1 three-source src0/src1 vertical stride (2 bits).
pub const A1_VSTRIDES: [u8; 4] = [0, 2, 4, 8];

/// Register files (2 bits) of the two-source format.
pub const FILE_ARF: u64 = 0;
pub const FILE_GRF: u64 = 1;
pub const FILE_IMM: u64 = 3;

/// The common instruction header.
pub const ACCESS_MODE: u32 = 8;
pub const NO_DD_CLR: u32 = 9;
pub const NO_DD_CHK: u32 = 10;
pub const NIB_CTRL: u32 = 11;
pub const QTR_CTRL: (u32, u32) = (12, 13);
pub const THREAD_CTRL: (u32, u32) = (14, 15);
pub const PRED_CTRL: (u32, u32) = (16, 19);
pub const PRED_INV: u32 = 20;
pub const EXEC_SIZE: (u32, u32) = (21, 23);
/// CondModifier, math function, or (sends) SFID.
pub const FUNC: (u32, u32) = (24, 27);
/// AccWrEn, or BranchCtrl on branches.
pub const ACC_WR: u32 = 28;
pub const DEBUG: u32 = 30;
pub const SATURATE: u32 = 31;
pub const FLAG_SUB: u32 = 32;
pub const FLAG_NUM: u32 = 33;
pub const NO_MASK: u32 = 34;

/// ThreadCtrl values and the options they print as, `[gen9, gen11]` (iga64 accepts
/// `{NoPreempt}` on Gen11 only).
pub const THREAD_CTRLS: [&[(InstOpts, u8)]; 2] = [
    &[(InstOpts::ATOMIC, 1), (InstOpts::SWITCH, 2)],
    &[
        (InstOpts::ATOMIC, 1),
        (InstOpts::SWITCH, 2),
        (InstOpts::NO_PREEMPT, 3),
    ],
];

/// Gen9/Gen11 `jmpi` encodes its target relative to the next (native, 16-byte) instruction;
/// IGA and the model count from the jmpi itself.
pub const JMPI_IP_BIAS: i32 = 16;

/// Destination of the two-source format.
pub const DST_FILE: (u32, u32) = (35, 36);
pub const DST_TYPE: (u32, u32) = (37, 40);
pub const DST_SUBREG: (u32, u32) = (48, 52);
pub const DST_REG: (u32, u32) = (53, 60);
pub const DST_HSTRIDE: (u32, u32) = (61, 62);
pub const DST_ADDR_MODE: u32 = 63;
/// Indirect destination: a0 subregister and the 10-bit address immediate (bit 47 is its sign).
pub const DST_IA_SUB: (u32, u32) = (57, 60);
pub const DST_IA_IMM: (u32, u32) = (48, 56);
pub const DST_IA_IMM9: u32 = 47;

/// Where a two-source-format source's fields sit.
pub struct SrcFields {
    pub file: (u32, u32),
    pub ty: (u32, u32),
    pub subreg: (u32, u32),
    pub reg: (u32, u32),
    pub abs: u32,
    pub neg: u32,
    pub addr_mode: u32,
    pub hstride: (u32, u32),
    pub width: (u32, u32),
    pub vstride: (u32, u32),
    pub ia_sub: (u32, u32),
    pub ia_imm: (u32, u32),
    pub ia_imm9: u32,
}

pub const SRC0: SrcFields = SrcFields {
    file: (41, 42),
    ty: (43, 46),
    subreg: (64, 68),
    reg: (69, 76),
    abs: 77,
    neg: 78,
    addr_mode: 79,
    hstride: (80, 81),
    width: (82, 84),
    vstride: (85, 88),
    ia_sub: (73, 76),
    ia_imm: (64, 72),
    ia_imm9: 95,
};

pub const SRC1: SrcFields = SrcFields {
    file: (89, 90),
    ty: (91, 94),
    subreg: (96, 100),
    reg: (101, 108),
    abs: 109,
    neg: 110,
    addr_mode: 111,
    hstride: (112, 113),
    width: (114, 116),
    vstride: (117, 120),
    ia_sub: (105, 108),
    ia_imm: (96, 104),
    ia_imm9: 121,
};

/// 32-bit immediate; a 64-bit one adds its low dword at 64..=95 and its high dword here.
pub const IMM: (u32, u32) = (96, 127);
pub const IMM_LOW64: (u32, u32) = (64, 95);

/// Three-source operands, shared by both formats: register numbers, modifiers, flags.
pub const T_DST_REG: (u32, u32) = (56, 63);
pub const T_SRC_REG: [(u32, u32); 3] = [(76, 83), (97, 104), (118, 125)];
pub const T_ABS: [u32; 3] = [37, 39, 41];
pub const T_NEG: [u32; 3] = [38, 40, 42];

/// Gen9 align16 three-source format.
pub const A16_DST_TYPE: (u32, u32) = (46, 48);
pub const A16_SRC_TYPE: (u32, u32) = (43, 45);
/// Half-float src1 / src2; clear, SrcType's type, or float when SrcType is half (mixed mode).
pub const A16_SRC1_HF: u32 = 36;
pub const A16_SRC2_HF: u32 = 35;
pub const A16_DST_WRITEMASK: (u32, u32) = (49, 52);
/// Destination subregister in dwords.
pub const A16_DST_SUBREG: (u32, u32) = (53, 55);
pub const A16_REP_CTRL: [u32; 3] = [64, 85, 106];
pub const A16_SWIZZLE: [(u32, u32); 3] = [(65, 72), (86, 93), (107, 114)];
/// Source subregisters in dwords.
pub const A16_SUBREG: [(u32, u32); 3] = [(73, 75), (94, 96), (115, 117)];
/// Source subregister bit 1 (two bytes): set for 16-bit sources starting mid-dword.
pub const A16_SUBREG_HI: [u32; 3] = [84, 105, 126];
/// The only swizzle IGA's align1-style syntax expresses (.xyzw) and the full write mask.
pub const A16_SWIZZLE_XYZW: u64 = 0xE4;
/// 64-bit scalars are not replicated with RepCtrl but read with a swizzle from a 16-byte
/// aligned subregister: .xyxy the row's first qword, .zwzw its second (iga64's encoding of
/// `r5.3<0;0>:df`: subregister 16 bytes, .zwzw).
pub const A16_SWIZZLE_SCALAR64: u64 = 0x44;
pub const A16_SWIZZLE_SCALAR64_HIGH: u64 = 0xEE;
pub const A16_WRITEMASK_ALL: u64 = 0xF;

/// Gen11 align1 three-source format.
pub const A1_EXEC_FLOAT: u32 = 35;
/// 0: GRF, 1: accumulator (ARF).
pub const A1_DST_FILE: u32 = 36;
/// Src0 / src2: 0 GRF, 1 immediate. Src1: 0 GRF, 1 accumulator.
pub const A1_SRC_FILE: [u32; 3] = [43, 44, 45];
pub const A1_DST_TYPE: (u32, u32) = (46, 48);
pub const A1_DST_HSTRIDE: u32 = 49;
/// Destination subregister in qwords.
pub const A1_DST_SUBREG: (u32, u32) = (54, 55);
pub const A1_SRC_TYPE: [(u32, u32); 3] = [(64, 66), (85, 87), (106, 108)];
pub const A1_VSTRIDE: [Option<(u32, u32)>; 3] = [Some((67, 68)), Some((88, 89)), None];
pub const A1_HSTRIDE: [(u32, u32); 3] = [(69, 70), (90, 91), (111, 112)];
pub const A1_SUBREG: [(u32, u32); 3] = [(71, 75), (92, 96), (113, 117)];
/// 16-bit immediates of src0 / src2.
pub const A1_IMM: [Option<(u32, u32)>; 3] = [Some((67, 82)), None, Some((109, 124))];

/// Unary `send`/`sendc`: the descriptor is src1 (immediate or a0.0); the extended descriptor's
/// nibbles are spread over spare fields, its low nibble is the SFID and its bit 5 is EOT.
pub const SEND_EXDESC_NIBBLES: [((u32, u32), u32); 4] = [
    ((64, 67), 16),
    ((80, 83), 20),
    ((85, 88), 24),
    ((91, 94), 28),
];
/// EOT (also descriptor bit 31 / ex_desc bit 5 as IGA prints them).
pub const SEND_EOT: u32 = 127;
pub const EXDESC_EOT_BIT: u32 = 5;

/// Split `sends`/`sendsc`.
pub const SENDS_DST_FILE: u32 = 35;
pub const SENDS_SRC1_FILE: u32 = 36;
pub const SENDS_SRC1_REG: (u32, u32) = (44, 51);
pub const SENDS_EXDESC_IS_REG: u32 = 61;
pub const SENDS_DESC_IS_REG: u32 = 77;
pub const SENDS_EXDESC_ADDR_SUB: (u32, u32) = (80, 82);
/// ex_desc[9:6] and ex_desc[31:16].
pub const SENDS_EXDESC_MID: (u32, u32) = (64, 67);
pub const SENDS_EXDESC_HI: (u32, u32) = (80, 95);

/// The implicit src0 region codes (hstride, width, vstride) of `call` and `ret`, `[gen9, gen11]`:
/// `<2;2,1>` everywhere except Gen11's call, `<2;4,1>`.
pub const CALL_SRC0_REGION: [(u64, u64, u64); 2] = [(1, 1, 2), (1, 2, 2)];
pub const RET_SRC0_REGION: [(u64, u64, u64); 2] = [(1, 1, 2), (1, 1, 2)];
/// `calla`'s implicit src0 region: `<2;2,1>` on Gen9, none on Gen11. `brc r..` carries
/// `<2;2,1>` on both, `brd r..` none.
pub const CALLA_SRC0_REGION: [(u64, u64, u64); 2] = [(1, 1, 2), (0, 0, 0)];
pub const BRC_REG_SRC0_REGION: (u64, u64, u64) = (1, 1, 2);

/// ARF register numbers the implicit branch operands use.
pub const ARF_IP: u64 = 0xA0;
pub const ARF_A0: u64 = 0x10;
pub const ARF_N0: u64 = 0x90;

/// Math macros (`math.invm`, `math.rsqtm`) in the two-source format: where the special
/// accumulator indices sit and the implied regions. Gen9 encodes them align16 (the indices
/// take the write mask and the low channel selects), Gen11 align1 (the indices take the
/// subregister fields). Checked against `iga64 -a` in `tests/math_macro.rs`.
pub struct MacroMathFormat {
    pub align16: bool,
    pub dst_acc: (u32, u32),
    /// DstHorzStride code.
    pub dst_hstride: u64,
    pub src_acc: [(u32, u32); 2],
    /// Source (HorzStride, Width) codes.
    pub src_hstride_width: (u64, u64),
    /// Source VertStride code per type.
    pub src_vstride: [(DataType, u8); 2],
}

pub const MACRO_MATH: [MacroMathFormat; 2] = [
    MacroMathFormat {
        align16: true,
        dst_acc: (48, 51),
        dst_hstride: 0,
        src_acc: [(64, 67), (96, 99)],
        src_hstride_width: (0, 0),
        src_vstride: [(DataType::Df, 2), (DataType::F, 3)],
    },
    MacroMathFormat {
        align16: false,
        dst_acc: (48, 52),
        dst_hstride: 1,
        src_acc: [(64, 68), (96, 100)],
        src_hstride_width: (1, 1),
        src_vstride: [(DataType::Df, 2), (DataType::F, 2)],
    },
];

/// `madm` on Gen9 (align16 three-source): the indices take the destination write mask and
/// each source's swizzle; RepCtrl and subregisters stay zero.
pub const MACRO_A16_DST_ACC: (u32, u32) = A16_DST_WRITEMASK;
pub const MACRO_A16_SRC_ACC: [(u32, u32); 3] = A16_SWIZZLE;

/// `madm` on Gen11 (align1 three-source): the indices take the upper subregister bits
/// (byte subregister = 2 x index); regions are implied as `<4;1>`, `<4;1>`, `<1>`, dst `<1>`.
pub const MACRO_A1_DST_ACC: (u32, u32) = (52, 55);
pub const MACRO_A1_SRC_ACC: [(u32, u32); 3] = [(72, 75), (93, 96), (114, 117)];
/// (VertStride code, HorzStride code) of src0/src1; src2 has HorzStride only.
pub const MACRO_A1_SRC_REGION: (u64, u64) = (2, 1);
pub const MACRO_A1_SRC2_HSTRIDE: u64 = 1;
