//! Compacted formats of Gen12LP (tgllp) and Xe-HPG (dg2).
//!
//! Bit positions: Mesa `brw_eu_compact.c` / `brw_inst.h` (the `set_*_index` key layouts and the
//! compacted field macros), checked bit for bit against iga64 by `tests/compaction.rs`. Which
//! opcodes have a compacted form is iga64's behaviour (IGA's GED model), found by probing iga64.

use super::layout::{
    direct, direct_not_imm, frag, frag_under_imm, DirectField, Fragment, ImmOperand, ImmRule,
    ImmSpec, IndexField, Layout, Scheme,
};
use super::tables_gen12 as t;

const CONTROL_KEY: [Fragment; 10] = [
    frag(95, 92, 17),
    frag(34, 34, 16),
    frag(33, 33, 15),
    frag(32, 32, 14),
    frag(31, 31, 13),
    frag(28, 28, 12),
    frag(27, 24, 8),
    frag(23, 22, 6),
    frag(21, 19, 3),
    frag(18, 16, 0),
];
const DATATYPE_KEY: [Fragment; 10] = [
    frag_under_imm(98, 98, 19), // Src1.RegFile overlaps the immediate
    frag(91, 88, 15),
    frag(66, 66, 14),
    frag(50, 50, 13),
    frag(49, 48, 11),
    frag(47, 47, 10),
    frag(46, 46, 9),
    frag(43, 40, 5),
    frag(39, 36, 1),
    frag(35, 35, 0),
];
const SUBREG_KEY: [Fragment; 3] = [
    frag_under_imm(103, 99, 10),
    frag(71, 67, 5),
    frag(55, 51, 0),
];
const SRC0_KEY: [Fragment; 6] = [
    frag(87, 87, 11),
    frag(86, 84, 8),
    frag(83, 81, 5),
    frag(80, 80, 4),
    frag(65, 64, 2),
    frag(45, 44, 0),
];
const SRC1_KEY: [Fragment; 5] = [
    frag(121, 120, 10),
    frag(119, 116, 6),
    frag(115, 113, 3),
    frag(112, 112, 2),
    frag(97, 96, 0),
];

const fn two_src_index(src0: &'static [u64], src1: &'static [u64]) -> [IndexField; 5] {
    [
        IndexField {
            compact: (28, 24),
            table: &t::CONTROL,
            fragments: &CONTROL_KEY,
            absent_with_imm: false,
        },
        IndexField {
            compact: (34, 30),
            table: &t::DATATYPE,
            fragments: &DATATYPE_KEY,
            absent_with_imm: false,
        },
        IndexField {
            compact: (39, 35),
            table: &t::SUBREG,
            fragments: &SUBREG_KEY,
            absent_with_imm: false,
        },
        IndexField {
            compact: (51, 48),
            table: src0,
            fragments: &SRC0_KEY,
            absent_with_imm: false,
        },
        IndexField {
            compact: (55, 52),
            table: src1,
            fragments: &SRC1_KEY,
            absent_with_imm: true,
        },
    ]
}

const TWO_SRC_DIRECT: [DirectField; 6] = [
    direct((6, 0), (6, 0)),               // opcode
    direct((7, 7), (30, 30)),             // DebugCtrl
    direct((15, 8), (15, 8)),             // SWSB
    direct((23, 16), (63, 56)),           // Dst.RegNum
    direct((47, 40), (79, 72)),           // Src0.RegNum
    direct_not_imm((63, 56), (111, 104)), // Src1.RegNum
];

/// Gen12 type codes of immediates: `:uv`=0 `:uw`=1 `:ud`=2 `:v`=4 `:w`=5 `:d`=6 `:vf`=8 `:hf`=9
/// `:f`=10. The 64-bit types (`:uq`=3 `:q`=7 `:df`=11) have no compacted form.
const IMM_RULES: [(u8, ImmRule); 9] = [
    (0, ImmRule::ZeroExtend),
    (1, ImmRule::Replicate16 { signed: false }),
    (2, ImmRule::ZeroExtend),
    (4, ImmRule::ZeroExtend),
    (5, ImmRule::Replicate16 { signed: true }),
    (6, ImmRule::SignExtend),
    (8, ImmRule::ZeroExtend),
    (9, ImmRule::HalfFloatHigh),
    (10, ImmRule::FloatHigh),
];

const IMM: ImmSpec = ImmSpec {
    operands: [
        // Src0.IsImm / Src1.IsImm flags; the type field of the same operand.
        ImmOperand {
            is_imm: (46, 46),
            value: 1,
            ty: (43, 40),
            unused: &[],
        },
        ImmOperand {
            is_imm: (47, 47),
            value: 1,
            ty: (91, 88),
            unused: &[],
        },
    ],
    native: (127, 96),
    // 12 bits: Src1.RegNum holds the high 8, Src1Index the low 4.
    compact: &[(63, 52)],
    rules: &IMM_RULES,
};

/// The three-source ControlIndex key. Xe-HPG widens the field at bit 48 to two bits (49:48),
/// which moves the four fields above it up by one.
const fn three_src_control_key(xehp: bool) -> [Fragment; 18] {
    let up = xehp as u8;
    [
        frag(95, 92, 32 + up),
        frag(90, 88, 29 + up),
        frag(82, 80, 26 + up),
        frag(50, 50, 25 + up),
        frag(48 + up, 48, 24),
        frag(42, 40, 21),
        frag(39, 39, 20),
        frag(38, 36, 17),
        frag(34, 34, 16),
        frag(33, 33, 15),
        frag(32, 32, 14),
        frag(31, 31, 13),
        frag(28, 28, 12),
        frag(27, 24, 8),
        frag(23, 23, 7),
        frag(22, 22, 6),
        frag(21, 19, 3),
        frag(18, 16, 0),
    ]
}
const THREE_SRC_CONTROL_KEY_GEN12: [Fragment; 18] = three_src_control_key(false);
const THREE_SRC_CONTROL_KEY_XEHP: [Fragment; 18] = three_src_control_key(true);
const THREE_SRC_SOURCE_KEY: [Fragment; 15] = [
    frag(114, 114, 20),
    frag(113, 112, 18),
    frag(98, 98, 17),
    frag(97, 96, 15),
    frag(91, 91, 14),
    frag(87, 86, 12),
    frag(85, 84, 10),
    frag(83, 83, 9),
    frag(66, 66, 8),
    frag(65, 64, 6),
    frag(47, 47, 5),
    frag(46, 46, 4),
    frag(45, 44, 2),
    frag(43, 43, 1),
    frag(35, 35, 0),
];
const THREE_SRC_SUBREG_KEY: [Fragment; 4] = [
    frag(119, 115, 15),
    frag(103, 99, 10),
    frag(71, 67, 5),
    frag(55, 51, 0),
];

const fn three_src_index(
    control: &'static [u64],
    control_key: &'static [Fragment],
    source: &'static [u64],
) -> [IndexField; 3] {
    [
        IndexField {
            compact: (28, 24),
            table: control,
            fragments: control_key,
            absent_with_imm: false,
        },
        IndexField {
            compact: (34, 30),
            table: source,
            fragments: &THREE_SRC_SOURCE_KEY,
            absent_with_imm: false,
        },
        IndexField {
            compact: (39, 35),
            table: &t::THREE_SRC_SUBREG,
            fragments: &THREE_SRC_SUBREG_KEY,
            absent_with_imm: false,
        },
    ]
}

const THREE_SRC_DIRECT: [DirectField; 7] = [
    direct((6, 0), (6, 0)),       // opcode
    direct((7, 7), (30, 30)),     // DebugCtrl
    direct((15, 8), (15, 8)),     // SWSB
    direct((23, 16), (63, 56)),   // Dst.RegNum
    direct((47, 40), (79, 72)),   // Src0.RegNum
    direct((63, 56), (111, 104)), // Src1.RegNum
    direct((55, 48), (127, 120)), // Src2.RegNum
];

const TWO_SRC_INDEX_GEN12: [IndexField; 5] = two_src_index(&t::SRC0_GEN12, &t::SRC1_GEN12);
const TWO_SRC_INDEX_XEHP: [IndexField; 5] = two_src_index(&t::SRC0_XEHP, &t::SRC1_XEHP);
const THREE_SRC_INDEX_GEN12: [IndexField; 3] = three_src_index(
    &t::THREE_SRC_CONTROL_GEN12,
    &THREE_SRC_CONTROL_KEY_GEN12,
    &t::THREE_SRC_SOURCE_GEN12,
);
const THREE_SRC_INDEX_XEHP: [IndexField; 3] = three_src_index(
    &t::THREE_SRC_CONTROL_XEHP,
    &THREE_SRC_CONTROL_KEY_XEHP,
    &t::THREE_SRC_SOURCE_XEHP,
);

/// 3-source opcodes of Gen12LP: bfe, bfi2, csel, dp4a, mad.
const THREE_SRC_GEN12: [u8; 5] = [0x78, 0x7a, 0x72, 0x58, 0x5b];
/// Xe-HPG adds add3, bfn, dpas, dpasw (and madm, which has no compacted form).
const THREE_SRC_XEHP: [u8; 9] = [0x78, 0x7a, 0x72, 0x58, 0x5b, 0x52, 0x6b, 0x59, 0x5a];

/// No compacted form: math, nop, send, sendc and every branch (0x20..=0x2f).
const NO_COMPACTED_FORM_GEN12: [u8; 20] = [
    0x38, 0x60, 0x31, 0x32, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b,
    0x2c, 0x2d, 0x2e, 0x2f,
];
const NO_COMPACTED_FORM_XEHP: [u8; 21] = [
    0x38, 0x60, 0x31, 0x32, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b,
    0x2c, 0x2d, 0x2e, 0x2f, 0x5d,
];

pub(super) const GEN12LP: Scheme = Scheme {
    two_src: Layout {
        index: &TWO_SRC_INDEX_GEN12,
        direct: &TWO_SRC_DIRECT,
        imm: Some(IMM),
    },
    three_src: Some((
        &THREE_SRC_GEN12,
        Layout {
            index: &THREE_SRC_INDEX_GEN12,
            direct: &THREE_SRC_DIRECT,
            imm: None,
        },
    )),
    no_compacted_form: &NO_COMPACTED_FORM_GEN12,
    unary: &[],
    unary_math: None,
    src1_fields: &[],
};

pub(super) const XEHPG: Scheme = Scheme {
    two_src: Layout {
        index: &TWO_SRC_INDEX_XEHP,
        direct: &TWO_SRC_DIRECT,
        imm: Some(IMM),
    },
    three_src: Some((
        &THREE_SRC_XEHP,
        Layout {
            index: &THREE_SRC_INDEX_XEHP,
            direct: &THREE_SRC_DIRECT,
            imm: None,
        },
    )),
    no_compacted_form: &NO_COMPACTED_FORM_XEHP,
    unary: &[],
    unary_math: None,
    src1_fields: &[],
};
