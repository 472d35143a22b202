//! Math macros on Gen12LP / Xe-HPG: `math.invm` and `math.rsqtm` (two-source format) and, on
//! Xe-HPG, `madm` (three-source format). Their operands are whole GRFs whose byte-subregister
//! field holds the special accumulator index (`r30.mme2:df`). Field positions: [`SRC0`],
//! [`SRC1`], [`T_SRCS`] and the `MACRO_*` constants in `fields.rs`.

use super::fields::*;
use super::{acc_wr_and_sat, data_type, ill, missing, mod_bits, put, src_mod, type_code};
use crate::error::{DecodeError, EncodeError};
use crate::model::{
    CondMod, DataType, Instruction, MacroOperand, MathFn, Operand, SrcMod, Subfunction,
};
use crate::native::shared::unsupported;
use crate::native::shared::{acc_at, macro_of};
use crate::native::Bits;

/// Destination fields shared by both formats: file bit, register, byte subregister.
const DST_FILE: u32 = 50;
const DST_REG: (u32, u32) = (56, 63);
const DST_SUBREG: (u32, u32) = (51, 55);
const SATURATE: u32 = 34;
const ACC_WR: u32 = 33;
const FUNC: (u32, u32) = (92, 95);

fn operand(
    b: &Bits,
    reg: (u32, u32),
    acc: (u32, u32),
    ty: DataType,
    m: SrcMod,
) -> Result<Operand, DecodeError> {
    Ok(Operand::Macro(MacroOperand {
        grf: b.get(reg.0, reg.1) as u8,
        acc: acc_at(b, acc)?,
        ty,
        modifier: m,
    }))
}

fn put_operand(
    b: &mut Bits,
    file: u32,
    reg: (u32, u32),
    acc: (u32, u32),
    m: &MacroOperand,
) -> Result<(), EncodeError> {
    b.set_bit(file, true);
    put(b, reg, u64::from(m.grf), "RegNum")?;
    put(b, acc, u64::from(m.acc.index()), "MathMacroAcc")
}

fn put_dst(b: &mut Bits, i: &Instruction) -> Result<MacroOperand, EncodeError> {
    let d = macro_of(i.dst)?;
    if d.modifier != SrcMod::None {
        return Err(unsupported("a source modifier on a destination"));
    }
    put_operand(b, DST_FILE, DST_REG, DST_SUBREG, &d)?;
    b.set_bit(SATURATE, i.saturate);
    b.set_bit(ACC_WR, i.opts.contains(crate::model::InstOpts::ACC_WR_EN));
    Ok(d)
}

fn sources(f: MathFn) -> usize {
    if f.is_binary() {
        2
    } else {
        1
    }
}

/// `math.invm` / `math.rsqtm` from the two-source format.
pub(super) fn decode_math(b: &Bits, i: &mut Instruction, f: MathFn) -> Result<(), DecodeError> {
    let dty = data_type(b.get(36, 39))?;
    i.dst = Some(operand(b, DST_REG, DST_SUBREG, dty, SrcMod::None)?);
    acc_wr_and_sat(b, i);
    for (k, (sf, ty)) in [(&SRC0, (40, 43)), (&SRC1, (88, 91))]
        .into_iter()
        .enumerate()
        .take(sources(f))
    {
        let ty = data_type(b.get(ty.0, ty.1))?;
        let m = src_mod(b.bit(sf.abs), b.bit(sf.neg));
        i.src[k] = Some(operand(b, sf.reg, sf.subreg, ty, m)?);
    }
    i.func = Subfunction::Math(f);
    i.cond_mod = Some(CondMod::Eo);
    Ok(())
}

pub(super) fn encode_math(b: &mut Bits, i: &Instruction) -> Result<(), EncodeError> {
    let Subfunction::Math(f) = i.func else {
        return Err(missing("math function"));
    };
    let d = put_dst(b, i)?;
    put(b, (36, 39), type_code(d.ty)?, "DstType")?;
    put(b, (48, 49), MACRO_DST_HSTRIDE, "DstHorzStride")?;
    let (v, w, h) = MACRO_SRC_REGION;
    for (k, (sf, ty)) in [(&SRC0, (40, 43)), (&SRC1, (88, 91))]
        .into_iter()
        .enumerate()
        .take(sources(f))
    {
        let s = macro_of(i.src[k])?;
        put(b, ty, type_code(s.ty)?, "SrcType")?;
        put_operand(b, sf.file, sf.reg, sf.subreg, &s)?;
        put(b, sf.vstride, v, "VertStride")?;
        put(b, sf.width, w, "Width")?;
        put(b, sf.hstride, h, "HorzStride")?;
        let (abs, neg) = mod_bits(s.modifier);
        b.set_bit(sf.abs, abs);
        b.set_bit(sf.neg, neg);
    }
    if i.src[sources(f)].is_some() {
        return Err(unsupported("too many sources for this math function"));
    }
    put(b, FUNC, f as u64, "MathFC")
}

fn ty3(code: u64, float: bool) -> Result<DataType, DecodeError> {
    data_type(code | if float { 8 } else { 0 })
}

/// `madm` from the three-source format (Xe-HPG).
pub(super) fn decode_madm(b: &Bits, i: &mut Instruction) -> Result<(), DecodeError> {
    let float = b.bit(39);
    let dty = ty3(b.get(36, 38), float)?;
    i.dst = Some(operand(b, DST_REG, DST_SUBREG, dty, SrcMod::None)?);
    acc_wr_and_sat(b, i);
    for (k, f) in T_SRCS.iter().enumerate() {
        let ty = ty3(b.get(f.ty.0, f.ty.1), float)?;
        let m = src_mod(b.bit(f.abs), b.bit(f.neg));
        i.src[k] = Some(operand(b, f.reg, f.subreg, ty, m)?);
    }
    let fc = b.get(FUNC.0, FUNC.1);
    if fc != 0 {
        return Err(ill("CondMod", fc));
    }
    Ok(())
}

pub(super) fn encode_madm(b: &mut Bits, i: &Instruction) -> Result<(), EncodeError> {
    if i.saturate {
        // iga64 drops `(sat)` from an Xe-HPG madm and ignores the bit when reading one.
        return Err(unsupported("(sat) on madm on Xe-HPG"));
    }
    let d = put_dst(b, i)?;
    let float = d.ty.is_float();
    b.set_bit(39, float);
    let code3 = |ty: DataType| -> Result<u64, EncodeError> {
        let c = type_code(ty)?;
        if (c >= 8) != float {
            return Err(unsupported("madm operands mix float and integer types"));
        }
        Ok(c & 7)
    };
    put(b, (36, 38), code3(d.ty)?, "DstType")?;
    for (k, f) in T_SRCS.iter().enumerate() {
        let s = macro_of(i.src[k])?;
        put(b, f.ty, code3(s.ty)?, "SrcType")?;
        put_operand(b, f.file, f.reg, f.subreg, &s)?;
        match f.vstride {
            Some((hi, lo)) => {
                let (v, h) = MACRO_T_SRC_REGION;
                b.set_bit(hi, v & 2 != 0);
                b.set_bit(lo, v & 1 != 0);
                put(b, f.hstride, h, "HorzStride")?;
            }
            None => put(b, f.hstride, MACRO_T_SRC2_HSTRIDE, "HorzStride")?,
        }
        let (abs, neg) = mod_bits(s.modifier);
        b.set_bit(f.abs, abs);
        b.set_bit(f.neg, neg);
    }
    Ok(())
}
