//! Math-macro instructions on Gen9 / Gen11: `math.invm` and `math.rsqtm` (two-source format)
//! and `madm` (three-source format), whose operands are whole GRFs with a special accumulator
//! index (`r30.mme2:df`). Field positions are in `fields.rs` ([`MACRO_MATH`] and the
//! `MACRO_A16_*` / `MACRO_A1_*` constants).

use platform::Platform;

use super::fields::*;
use super::{
    a1_types, acc_wr_and_sat, code_of, encode_flags_sat, gen, ill, lookup, missing, mod_bits, put,
    reg_type, reg_type_code, src_mod, unsupported,
};
use crate::error::{DecodeError, EncodeError};
use crate::model::{CondMod, DataType, Instruction, MacroOperand, MathFn, Operand, Subfunction};
use crate::native::shared::{acc_at, macro_of};
use crate::native::Bits;

fn macro_op(
    b: &Bits,
    grf: (u32, u32),
    acc: (u32, u32),
    ty: DataType,
) -> Result<Operand, DecodeError> {
    Ok(Operand::Macro(MacroOperand {
        grf: b.get(grf.0, grf.1) as u8,
        acc: acc_at(b, acc)?,
        ty,
        modifier: src_mod(false, false),
    }))
}

fn with_mod(op: Operand, abs: bool, neg: bool) -> Operand {
    match op {
        Operand::Macro(m) => Operand::Macro(MacroOperand {
            modifier: src_mod(abs, neg),
            ..m
        }),
        other => other,
    }
}

/// `math.invm` / `math.rsqtm` from the two-source format.
pub(super) fn decode_math(
    platform: Platform,
    b: &Bits,
    i: &mut Instruction,
    f: MathFn,
) -> Result<(), DecodeError> {
    let fmt = &MACRO_MATH[gen(platform)];
    let dty = reg_type(platform, b.get(DST_TYPE.0, DST_TYPE.1))?;
    i.dst = Some(macro_op(b, DST_REG, fmt.dst_acc, dty)?);
    acc_wr_and_sat(b, i);
    let n = if f.is_binary() { 2 } else { 1 };
    for (k, sf) in [&SRC0, &SRC1].into_iter().enumerate().take(n) {
        let ty = reg_type(platform, b.get(sf.ty.0, sf.ty.1))?;
        let op = macro_op(b, sf.reg, fmt.src_acc[k], ty)?;
        i.src[k] = Some(with_mod(op, b.bit(sf.abs), b.bit(sf.neg)));
    }
    i.func = Subfunction::Math(f);
    i.cond_mod = Some(CondMod::Eo);
    Ok(())
}

pub(super) fn encode_math(
    platform: Platform,
    b: &mut Bits,
    i: &Instruction,
) -> Result<(), EncodeError> {
    let Subfunction::Math(f) = i.func else {
        return Err(missing("math function"));
    };
    let fmt = &MACRO_MATH[gen(platform)];
    b.set_bit(ACCESS_MODE, fmt.align16);
    let dst = macro_of(i.dst)?;
    if dst.modifier != crate::model::SrcMod::None {
        return Err(unsupported("a source modifier on a destination"));
    }
    put(b, DST_FILE, FILE_GRF, "DstRegFile")?;
    put(b, DST_TYPE, reg_type_code(platform, dst.ty)?, "DstType")?;
    put(b, DST_REG, u64::from(dst.grf), "DstRegNum")?;
    put(
        b,
        fmt.dst_acc,
        u64::from(dst.acc.index()),
        "DstMathMacroAcc",
    )?;
    put(b, DST_HSTRIDE, fmt.dst_hstride, "DstHorzStride")?;
    encode_flags_sat(b, i);
    let n = if f.is_binary() { 2 } else { 1 };
    for (k, sf) in [&SRC0, &SRC1].into_iter().enumerate().take(n) {
        let s = macro_of(i.src[k])?;
        put(b, sf.file, FILE_GRF, "SrcRegFile")?;
        put(b, sf.ty, reg_type_code(platform, s.ty)?, "SrcType")?;
        put(b, sf.reg, u64::from(s.grf), "SrcRegNum")?;
        put(
            b,
            fmt.src_acc[k],
            u64::from(s.acc.index()),
            "SrcMathMacroAcc",
        )?;
        let (h, w) = fmt.src_hstride_width;
        put(b, sf.hstride, h, "HorzStride")?;
        put(b, sf.width, w, "Width")?;
        let v = code_of(&fmt.src_vstride, s.ty)
            .ok_or_else(|| unsupported("math-macro type other than :f / :df"))?;
        put(b, sf.vstride, v, "VertStride")?;
        let (abs, neg) = mod_bits(s.modifier);
        b.set_bit(sf.abs, abs);
        b.set_bit(sf.neg, neg);
    }
    if i.src[n].is_some() {
        return Err(unsupported("too many sources for this math function"));
    }
    put(b, FUNC, f as u64, "MathFC")
}

/// `madm` from the three-source format (align16 on Gen9, align1 on Gen11).
pub(super) fn decode_madm(
    platform: Platform,
    b: &Bits,
    i: &mut Instruction,
) -> Result<(), DecodeError> {
    let (dty, sty) = if platform == Platform::Skl {
        let d = b.get(A16_DST_TYPE.0, A16_DST_TYPE.1);
        let s = b.get(A16_SRC_TYPE.0, A16_SRC_TYPE.1);
        let d = lookup(&A16_TYPES, d).ok_or(ill("DstType", d))?;
        let s = lookup(&A16_TYPES, s).ok_or(ill("SrcType", s))?;
        (d, [s; 3])
    } else {
        let types = a1_types(b.bit(A1_EXEC_FLOAT));
        let ty = |f: (u32, u32)| {
            let c = b.get(f.0, f.1);
            lookup(types, c).ok_or(ill("Type", c))
        };
        let d = ty(A1_DST_TYPE)?;
        (
            d,
            [
                ty(A1_SRC_TYPE[0])?,
                ty(A1_SRC_TYPE[1])?,
                ty(A1_SRC_TYPE[2])?,
            ],
        )
    };
    let (dst_acc, src_acc) = madm_acc_fields(platform);
    i.dst = Some(macro_op(b, T_DST_REG, dst_acc, dty)?);
    acc_wr_and_sat(b, i);
    for k in 0..3 {
        let op = macro_op(b, T_SRC_REG[k], src_acc[k], sty[k])?;
        i.src[k] = Some(with_mod(op, b.bit(T_ABS[k]), b.bit(T_NEG[k])));
    }
    let fc = b.get(FUNC.0, FUNC.1);
    if fc != 0 {
        return Err(ill("CondMod", fc));
    }
    Ok(())
}

fn madm_acc_fields(platform: Platform) -> ((u32, u32), [(u32, u32); 3]) {
    if platform == Platform::Skl {
        (MACRO_A16_DST_ACC, MACRO_A16_SRC_ACC)
    } else {
        (MACRO_A1_DST_ACC, MACRO_A1_SRC_ACC)
    }
}

pub(super) fn encode_madm(
    platform: Platform,
    b: &mut Bits,
    i: &Instruction,
) -> Result<(), EncodeError> {
    let dst = macro_of(i.dst)?;
    let srcs = [
        macro_of(i.src[0])?,
        macro_of(i.src[1])?,
        macro_of(i.src[2])?,
    ];
    if dst.modifier != crate::model::SrcMod::None {
        return Err(unsupported("a source modifier on a destination"));
    }
    let (dst_acc, src_acc) = madm_acc_fields(platform);
    if platform == Platform::Skl {
        let code = |ty| code_of(&A16_TYPES, ty).ok_or_else(|| unsupported("align16 type"));
        if srcs.iter().any(|s| s.ty != srcs[0].ty) {
            return Err(unsupported("madm sources of different types"));
        }
        put(b, A16_DST_TYPE, code(dst.ty)?, "DstType")?;
        put(b, A16_SRC_TYPE, code(srcs[0].ty)?, "SrcType")?;
    } else {
        let float = dst.ty.is_float();
        b.set_bit(A1_EXEC_FLOAT, float);
        let types = a1_types(float);
        let code = |ty| code_of(types, ty).ok_or_else(|| unsupported("madm type"));
        put(b, A1_DST_TYPE, code(dst.ty)?, "DstType")?;
        for (k, s) in srcs.iter().enumerate() {
            put(b, A1_SRC_TYPE[k], code(s.ty)?, "SrcType")?;
        }
        for k in 0..2 {
            if let Some(v) = A1_VSTRIDE[k] {
                put(b, v, MACRO_A1_SRC_REGION.0, "VertStride")?;
            }
            put(b, A1_HSTRIDE[k], MACRO_A1_SRC_REGION.1, "HorzStride")?;
        }
        put(b, A1_HSTRIDE[2], MACRO_A1_SRC2_HSTRIDE, "HorzStride")?;
    }
    put(b, T_DST_REG, u64::from(dst.grf), "DstRegNum")?;
    put(b, dst_acc, u64::from(dst.acc.index()), "DstMathMacroAcc")?;
    encode_flags_sat(b, i);
    for (k, s) in srcs.iter().enumerate() {
        put(b, T_SRC_REG[k], u64::from(s.grf), "SrcRegNum")?;
        put(b, src_acc[k], u64::from(s.acc.index()), "SrcMathMacroAcc")?;
        let (abs, neg) = mod_bits(s.modifier);
        b.set_bit(T_ABS[k], abs);
        b.set_bit(T_NEG[k], neg);
    }
    Ok(())
}
