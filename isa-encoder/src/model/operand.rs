//! Operands: direct and indirect registers with regions, immediates, and source modifiers.

use super::reg::Reg;
use super::types::DataType;

/// A region. Strides and width are element counts as written in IGA syntax (`<8;8,1>`), not
/// their encodings. Which parts are present depends on the operand's format:
/// - general sources `<vstride;width,hstride>`: all three;
/// - align1 ternary src0/src1 `<vstride;hstride>`: no width;
/// - ternary src2 and destinations `<hstride>`: hstride only;
/// - indirect VxH / Vx1 sources `<width,hstride>`: no vstride.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Region {
    pub vstride: Option<u8>,
    pub width: Option<u8>,
    pub hstride: u8,
}

impl Region {
    /// `<v;w,h>`.
    pub const fn full(v: u8, w: u8, h: u8) -> Region {
        Region {
            vstride: Some(v),
            width: Some(w),
            hstride: h,
        }
    }
    /// `<v;h>` (align1 ternary src0/src1).
    pub const fn vh(v: u8, h: u8) -> Region {
        Region {
            vstride: Some(v),
            width: None,
            hstride: h,
        }
    }
    /// `<h>` (destination, ternary src2).
    pub const fn h(h: u8) -> Region {
        Region {
            vstride: None,
            width: None,
            hstride: h,
        }
    }
    /// `<w,h>` (indirect VxH / Vx1).
    pub const fn wh(w: u8, h: u8) -> Region {
        Region {
            vstride: None,
            width: Some(w),
            hstride: h,
        }
    }
}

/// A source modifier. On logic instructions (`and`, `or`, `xor`, `not`, …) `Neg` is bitwise
/// not and prints as `~`; elsewhere it is arithmetic negation `-`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SrcMod {
    #[default]
    None,
    Neg,
    Abs,
    NegAbs,
}

/// How a register operand is addressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Addressing {
    /// A named register.
    Direct(Reg),
    /// `r[a0.{addr_sub}, {offset}]`: GRF at address register a0's subregister plus a byte offset.
    Indirect { addr_sub: u8, offset: i16 },
}

/// A register operand (destination or source).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RegOperand {
    pub addr: Addressing,
    pub region: Region,
    pub ty: DataType,
    pub modifier: SrcMod,
}

/// An immediate operand. `bits` holds the raw value as encoded (zero-extended to 64 bits), so
/// every type including `:v`, `:vf` and `:hf` round-trips exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Immediate {
    pub bits: u64,
    pub ty: DataType,
}

/// The special accumulator a math-macro operand names: `.mme0`..`.mme7`, or `.nomme` for
/// none. The value is the index IGA encodes (8 for `.nomme`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MathMacroAcc {
    Mme0 = 0,
    Mme1 = 1,
    Mme2 = 2,
    Mme3 = 3,
    Mme4 = 4,
    Mme5 = 5,
    Mme6 = 6,
    Mme7 = 7,
    NoMme = 8,
}

const MATH_MACRO_ACCS: [(MathMacroAcc, &str); 9] = [
    (MathMacroAcc::Mme0, "mme0"),
    (MathMacroAcc::Mme1, "mme1"),
    (MathMacroAcc::Mme2, "mme2"),
    (MathMacroAcc::Mme3, "mme3"),
    (MathMacroAcc::Mme4, "mme4"),
    (MathMacroAcc::Mme5, "mme5"),
    (MathMacroAcc::Mme6, "mme6"),
    (MathMacroAcc::Mme7, "mme7"),
    (MathMacroAcc::NoMme, "nomme"),
];

impl MathMacroAcc {
    /// All selectors, by index.
    pub const ALL: [MathMacroAcc; 9] = [
        MathMacroAcc::Mme0,
        MathMacroAcc::Mme1,
        MathMacroAcc::Mme2,
        MathMacroAcc::Mme3,
        MathMacroAcc::Mme4,
        MathMacroAcc::Mme5,
        MathMacroAcc::Mme6,
        MathMacroAcc::Mme7,
        MathMacroAcc::NoMme,
    ];
    /// IGA spelling after the register (`mme3`, `nomme`).
    pub fn syntax(self) -> &'static str {
        MATH_MACRO_ACCS[self as usize].1
    }
    /// From the spelling after the register.
    pub fn from_syntax(s: &str) -> Option<MathMacroAcc> {
        const KEYS: [u64; MATH_MACRO_ACCS.len()] = super::name_keys!(MATH_MACRO_ACCS, |a| a.1);
        let k = super::name_key(s)?;
        KEYS.iter()
            .position(|&x| x == k)
            .map(|i| MATH_MACRO_ACCS[i].0)
    }
    /// The encoded index, 0..=8.
    pub fn index(self) -> u8 {
        self as u8
    }
    /// From the encoded index.
    pub fn from_index(v: u64) -> Option<MathMacroAcc> {
        Self::ALL.get(usize::try_from(v).ok()?).copied()
    }
}

/// An operand of a math-macro instruction (`madm`, `math.invm`, `math.rsqtm`): a whole GRF
/// plus the special accumulator holding the extra precision bits, written `r30.mme2:df`.
/// It has no subregister or region; the hardware implies them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MacroOperand {
    pub grf: u8,
    pub acc: MathMacroAcc,
    pub ty: DataType,
    pub modifier: SrcMod,
}

/// Any source or destination operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operand {
    Reg(RegOperand),
    Imm(Immediate),
    /// Only in math-macro instructions, where every operand is one.
    Macro(MacroOperand),
}

impl Operand {
    /// A direct register operand.
    pub fn direct(reg: Reg, region: Region, ty: DataType) -> Operand {
        Operand::Reg(RegOperand {
            addr: Addressing::Direct(reg),
            region,
            ty,
            modifier: SrcMod::None,
        })
    }

    /// The operand's data type.
    pub fn ty(&self) -> DataType {
        match self {
            Operand::Reg(r) => r.ty,
            Operand::Imm(i) => i.ty,
            Operand::Macro(m) => m.ty,
        }
    }

    /// The register, if this is a direct register operand.
    pub fn reg(&self) -> Option<Reg> {
        match self {
            Operand::Reg(RegOperand {
                addr: Addressing::Direct(r),
                ..
            }) => Some(*r),
            _ => None,
        }
    }
}
