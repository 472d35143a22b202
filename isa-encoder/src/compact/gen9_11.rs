//! Compacted formats of Gen9 (skl) and Gen11 (icllp).
//!
//! Bit positions: Mesa `brw_eu_compact.c` / `brw_inst.h` (the `set_*_index` key layouts and the
//! compacted field macros), checked bit for bit against iga64 by `tests/compaction.rs`. Which
//! opcodes have a compacted form at all, and which treat src1 as absent, is iga64's behaviour
//! (IGA's GED model), found by probing iga64.

use super::layout::{
    direct, direct_not_imm, frag, frag_under_imm, DirectField, Fragment, ImmOperand, ImmRule,
    ImmSpec, IndexField, Layout, Scheme,
};
use super::tables_gen9_11 as t;

const CONTROL_KEY: [Fragment; 5] = [
    frag(33, 31, 16),
    frag(23, 12, 4),
    frag(10, 9, 2),
    frag(34, 34, 1),
    frag(8, 8, 0),
];
const DATATYPE_KEY: [Fragment; 3] = [frag(63, 61, 18), frag(94, 89, 12), frag(46, 35, 0)];
const SUBREG_KEY: [Fragment; 3] = [
    frag_under_imm(100, 96, 10),
    frag(68, 64, 5),
    frag(52, 48, 0),
];
const SRC0_KEY: [Fragment; 1] = [frag(88, 77, 0)];
const SRC1_KEY: [Fragment; 1] = [frag(120, 109, 0)];

const fn two_src_index(datatype: &'static [u64]) -> [IndexField; 5] {
    [
        IndexField {
            compact: (12, 8),
            table: &t::CONTROL,
            fragments: &CONTROL_KEY,
            absent_with_imm: false,
        },
        IndexField {
            compact: (17, 13),
            table: datatype,
            fragments: &DATATYPE_KEY,
            absent_with_imm: false,
        },
        IndexField {
            compact: (22, 18),
            table: &t::SUBREG,
            fragments: &SUBREG_KEY,
            absent_with_imm: false,
        },
        IndexField {
            compact: (34, 30),
            table: &t::SRC_INDEX,
            fragments: &SRC0_KEY,
            absent_with_imm: false,
        },
        IndexField {
            compact: (39, 35),
            table: &t::SRC_INDEX,
            fragments: &SRC1_KEY,
            absent_with_imm: true,
        },
    ]
}

const TWO_SRC_DIRECT: [DirectField; 7] = [
    direct((6, 0), (6, 0)),               // opcode
    direct((7, 7), (30, 30)),             // DebugCtrl
    direct((23, 23), (28, 28)),           // AccWrCtrl
    direct((27, 24), (27, 24)),           // CondModifier (math: function control)
    direct((47, 40), (60, 53)),           // Dst.RegNum
    direct((55, 48), (76, 69)),           // Src0.RegNum
    direct_not_imm((63, 56), (108, 101)), // Src1.RegNum
];

/// Gen9 immediate type codes (`:ud`=0 `:d`=1 `:uw`=2 `:w`=3 `:uv`=4 `:vf`=5 `:v`=6 `:f`=7
/// `:hf`=11): every 32-bit-wide immediate keeps 12 bits and a sign bit that fills the high 19.
/// The 64-bit types (`:uq`=8 `:q`=9 `:df`=10) have no compacted form.
const IMM_RULES_GEN9: [(u8, ImmRule); 9] = [
    (0, ImmRule::SignExtend),
    (1, ImmRule::SignExtend),
    (2, ImmRule::SignExtend),
    (3, ImmRule::SignExtend),
    (4, ImmRule::SignExtend),
    (5, ImmRule::SignExtend),
    (6, ImmRule::SignExtend),
    (7, ImmRule::SignExtend),
    (11, ImmRule::SignExtend),
];

/// Gen11 renumbered the types: `:ud`=0 `:d`=1 `:uw`=2 `:w`=3 `:uv`=4 `:v`=5 `:hf`=8 `:f`=9
/// `:vf`=11; 64-bit `:uq`=6 `:q`=7 `:df`=10 have no compacted form.
const IMM_RULES_GEN11: [(u8, ImmRule); 9] = [
    (0, ImmRule::SignExtend),
    (1, ImmRule::SignExtend),
    (2, ImmRule::SignExtend),
    (3, ImmRule::SignExtend),
    (4, ImmRule::SignExtend),
    (5, ImmRule::SignExtend),
    (8, ImmRule::SignExtend),
    (9, ImmRule::SignExtend),
    (11, ImmRule::SignExtend),
];

const fn imm_spec(rules: &'static [(u8, ImmRule)]) -> ImmSpec {
    ImmSpec {
        operands: [
            // RegFile 3 is "immediate"; the type follows it.
            ImmOperand {
                is_imm: (42, 41),
                value: 3,
                ty: (46, 43),
                // Src0.SubRegNum, part of SubRegIndex.
                unused: &[(68, 64)],
            },
            ImmOperand {
                is_imm: (90, 89),
                value: 3,
                ty: (94, 91),
                unused: &[],
            },
        ],
        native: (127, 96),
        // 13 bits: the Src1Index field holds the high 5, Src1.RegNum the low 8.
        compact: &[(39, 35), (63, 56)],
        rules,
    }
}

const THREE_SRC_INDEX: [IndexField; 2] = [
    IndexField {
        compact: (9, 8),
        table: &t::THREE_SRC_CONTROL,
        fragments: &[frag(36, 35, 24), frag(34, 32, 21), frag(28, 8, 0)],
        absent_with_imm: false,
    },
    IndexField {
        compact: (11, 10),
        table: &t::THREE_SRC_SOURCE,
        fragments: &[
            frag(126, 125, 47),
            frag(105, 104, 45),
            frag(84, 84, 44),
            frag(83, 83, 43),
            frag(114, 107, 35),
            frag(93, 86, 27),
            frag(72, 65, 19),
            frag(55, 37, 0),
        ],
        absent_with_imm: false,
    },
];

const THREE_SRC_DIRECT: [DirectField; 13] = [
    direct((6, 0), (6, 0)),       // opcode
    direct((18, 12), (62, 56)),   // Dst.RegNum (bit 63 must be clear)
    direct((28, 28), (64, 64)),   // Src0.RepCtrl
    direct((30, 30), (30, 30)),   // DebugCtrl
    direct((31, 31), (31, 31)),   // Saturate
    direct((32, 32), (85, 85)),   // Src1.RepCtrl
    direct((33, 33), (106, 106)), // Src2.RepCtrl
    direct((36, 34), (75, 73)),   // Src0.SubRegNum
    direct((39, 37), (96, 94)),   // Src1.SubRegNum
    direct((42, 40), (117, 115)), // Src2.SubRegNum
    direct((49, 43), (82, 76)),   // Src0.RegNum
    direct((56, 50), (103, 97)),  // Src1.RegNum
    direct((63, 57), (124, 118)), // Src2.RegNum
];

/// Opcodes with no compacted form on either platform: nop, send/sendc/sends/sendsc, and the
/// branches other than jmpi/brd/ret (if, else, endif, while, break, cont, halt, call, goto, join).
const NO_COMPACTED_FORM_GEN9: [u8; 15] = [
    0x7e, 0x31, 0x32, 0x33, 0x34, 0x22, 0x24, 0x25, 0x27, 0x28, 0x29, 0x2a, 0x2c, 0x2e, 0x2f,
];

/// Gen11 also lost the compacted 3-source format: bfe, bfi2, csel, mad, madm are native only.
const NO_COMPACTED_FORM_GEN11: [u8; 20] = [
    0x7e, 0x31, 0x32, 0x33, 0x34, 0x22, 0x24, 0x25, 0x27, 0x28, 0x29, 0x2a, 0x2c, 0x2e, 0x2f, 0x18,
    0x1a, 0x12, 0x5b, 0x5d,
];

/// 3-source opcodes of Gen9: bfe, bfi2, csel, mad, lrp, madm.
const THREE_SRC_GEN9: [u8; 6] = [0x18, 0x1a, 0x12, 0x5b, 0x5c, 0x5d];

/// Single-source opcodes: mov, not, bfrev, cbit, fbh, fbl, frc, lzd, rndd, rnde, rndu, rndz
/// (movi on Gen9 only: Gen11's takes two sources).
const UNARY_GEN9: [u8; 13] = [
    0x01, 0x03, 0x04, 0x17, 0x4d, 0x4b, 0x4c, 0x43, 0x4a, 0x45, 0x46, 0x44, 0x47,
];
const UNARY_GEN11: [u8; 12] = [
    0x01, 0x04, 0x17, 0x4d, 0x4b, 0x4c, 0x43, 0x4a, 0x45, 0x46, 0x44, 0x47,
];

/// The math opcode and its single-source functions (inv, log, exp, sqrt, rsq, sin, cos, rsqtm),
/// read from the function-control field.
const MATH: (u8, (u8, u8), &[u8]) = (0x38, (27, 24), &[1, 2, 3, 4, 5, 6, 7, 0xf]);

/// Src1's SubRegNum: the part of SubRegIndex that is don't-care without a src1.
const SRC1_SUBREG: [(u8, u8); 1] = [(100, 96)];

const TWO_SRC_INDEX_GEN9: [IndexField; 5] = two_src_index(&t::DATATYPE_GEN9);
const TWO_SRC_INDEX_GEN11: [IndexField; 5] = two_src_index(&t::DATATYPE_GEN11);

pub(super) const GEN9: Scheme = Scheme {
    two_src: Layout {
        index: &TWO_SRC_INDEX_GEN9,
        direct: &TWO_SRC_DIRECT,
        imm: Some(imm_spec(&IMM_RULES_GEN9)),
    },
    three_src: Some((
        &THREE_SRC_GEN9,
        Layout {
            index: &THREE_SRC_INDEX,
            direct: &THREE_SRC_DIRECT,
            imm: None,
        },
    )),
    no_compacted_form: &NO_COMPACTED_FORM_GEN9,
    unary: &UNARY_GEN9,
    unary_math: Some(MATH),
    src1_fields: &SRC1_SUBREG,
};

pub(super) const GEN11: Scheme = Scheme {
    two_src: Layout {
        index: &TWO_SRC_INDEX_GEN11,
        direct: &TWO_SRC_DIRECT,
        imm: Some(imm_spec(&IMM_RULES_GEN11)),
    },
    three_src: None,
    no_compacted_form: &NO_COMPACTED_FORM_GEN11,
    unary: &UNARY_GEN11,
    unary_math: Some(MATH),
    src1_fields: &SRC1_SUBREG,
};
