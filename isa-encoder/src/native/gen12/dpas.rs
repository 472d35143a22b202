//! `dpas` / `dpasw` (Xe-HPG): systolic dot-product-accumulate. Operands are whole registers
//! (src2 with a subregister) without regions; src1/src2 precisions include 4- and 2-bit
//! integers. Field positions are in `fields.rs` (`DPAS_*`, [`T_SRCS`]).

use super::fields::*;
use super::{ill, missing, put, reg_at, reg_fields, type_code};
use crate::error::{DecodeError, EncodeError};
use crate::model::{DataType, Instruction, Operand, RegOperand, SrcMod, Subfunction};
use crate::native::Bits;

use crate::model::DPAS_OPERAND_REGION as DPAS_REGION;

/// Destination register number / subregister / file bit.
const DST_REG: (u32, u32) = (56, 63);
const DST_SUBREG: (u32, u32) = (51, 55);
const DST_FILE: u32 = 50;
const DST_TYPE: (u32, u32) = (36, 38);
const EXEC_FLOAT: u32 = 39;

fn ty3(code: u64, float: bool) -> Result<DataType, DecodeError> {
    let full = code | if float { 8 } else { 0 };
    TYPES
        .iter()
        .find(|t| u64::from(t.1) == full)
        .map(|t| t.0)
        .ok_or(ill("Type", full))
}

/// The byte type and its sub-byte flags -> the precision.
fn precision(base: DataType, four: bool, two: bool) -> Result<DataType, DecodeError> {
    if !four && !two {
        return Ok(base);
    }
    let row = DPAS_SUB_BYTE_TYPES
        .iter()
        .find(|r| r.0 == base)
        .ok_or(ill("DpasSubBytePrecision", 1))?;
    match (four, two) {
        (true, false) => Ok(row.1),
        (false, true) => Ok(row.2),
        _ => Err(ill("DpasSubBytePrecision", 3)),
    }
}

/// The precision -> (byte type, 4-bit flag, 2-bit flag).
fn precision_bits(ty: DataType) -> (DataType, bool, bool) {
    for r in DPAS_SUB_BYTE_TYPES {
        if ty == r.1 {
            return (r.0, true, false);
        }
        if ty == r.2 {
            return (r.0, false, true);
        }
    }
    (ty, false, false)
}

fn operand(
    b: &Bits,
    f: (u32, (u32, u32), (u32, u32)),
    ty: DataType,
) -> Result<Operand, DecodeError> {
    let (file, reg, sub) = f;
    let r = reg_at(b, b.bit(file), reg, sub, ty)?;
    Ok(Operand::Reg(RegOperand {
        addr: crate::model::Addressing::Direct(r),
        region: DPAS_REGION,
        ty,
        modifier: SrcMod::None,
    }))
}

/// Decodes the operands and subfunction of a dpas/dpasw (the header is already decoded).
pub(super) fn decode(b: &Bits, i: &mut Instruction) -> Result<(), DecodeError> {
    let float = b.bit(EXEC_FLOAT);
    i.func = Subfunction::Dpas {
        depth: 1 << b.get(DPAS_DEPTH_LOG2.0, DPAS_DEPTH_LOG2.1),
        repeat: b.get(DPAS_REPEAT_MINUS1.0, DPAS_REPEAT_MINUS1.1) as u8 + 1,
    };
    let dty = ty3(b.get(DST_TYPE.0, DST_TYPE.1), float)?;
    i.dst = Some(operand(b, (DST_FILE, DST_REG, DST_SUBREG), dty)?);
    for (k, f) in T_SRCS.iter().enumerate() {
        let mut ty = ty3(b.get(f.ty.0, f.ty.1), float)?;
        if k > 0 {
            let (four, two) = DPAS_SUB_BYTE[k - 1];
            ty = precision(ty, b.bit(four), b.bit(two))?;
        }
        i.src[k] = Some(operand(b, (f.file, f.reg, f.subreg), ty)?);
    }
    Ok(())
}

fn reg_operand(op: Option<Operand>) -> Result<RegOperand, EncodeError> {
    match op {
        Some(Operand::Reg(r)) if r.region == DPAS_REGION && r.modifier == SrcMod::None => Ok(r),
        Some(_) => Err(EncodeError::Unencodable(
            "dpas operands are plain registers without region or modifier".into(),
        )),
        None => Err(missing("dpas operand")),
    }
}

fn put_reg(
    b: &mut Bits,
    r: &RegOperand,
    (file, reg, sub): (u32, (u32, u32), (u32, u32)),
) -> Result<(), EncodeError> {
    let crate::model::Addressing::Direct(rg) = r.addr else {
        return Err(EncodeError::Unencodable("indirect dpas operand".into()));
    };
    let (grf, nr, s) = reg_fields(&rg, r.ty)?;
    b.set_bit(file, grf);
    put(b, (reg.0, reg.1), nr, "RegNum")?;
    put(b, (sub.0, sub.1), s, "SubRegNum")
}

pub(super) fn encode(b: &mut Bits, i: &Instruction) -> Result<(), EncodeError> {
    let Subfunction::Dpas { depth, repeat } = i.func else {
        return Err(missing("dpas systolic depth and repeat count"));
    };
    if !depth.is_power_of_two() || depth > 8 || !(1..=8).contains(&repeat) {
        return Err(EncodeError::Unencodable(format!(
            "dpas.{depth}x{repeat}: depth is 1, 2, 4 or 8 and repeat 1..=8"
        )));
    }
    if i.saturate || i.cond_mod.is_some() {
        return Err(EncodeError::Unencodable(
            "dpas takes no saturation or condition modifier".into(),
        ));
    }
    put(
        b,
        (DPAS_DEPTH_LOG2.0, DPAS_DEPTH_LOG2.1),
        u64::from(depth.trailing_zeros()),
        "SystolicDepth",
    )?;
    put(
        b,
        (DPAS_REPEAT_MINUS1.0, DPAS_REPEAT_MINUS1.1),
        u64::from(repeat - 1),
        "RepeatCount",
    )?;
    let dst = reg_operand(i.dst)?;
    let float = dst.ty.is_float();
    b.set_bit(EXEC_FLOAT, float);
    let ty3 = |ty: DataType| -> Result<u64, EncodeError> {
        let c = type_code(ty)?;
        if (c >= 8) != float {
            return Err(EncodeError::Unencodable(
                "dpas operands mix float and integer types".into(),
            ));
        }
        Ok(c & 7)
    };
    put(b, (DST_TYPE.0, DST_TYPE.1), ty3(dst.ty)?, "DstType")?;
    put_reg(b, &dst, (DST_FILE, DST_REG, DST_SUBREG))?;
    for (k, f) in T_SRCS.iter().enumerate() {
        let r = reg_operand(i.src[k])?;
        let (base, four, two) = precision_bits(r.ty);
        if k > 0 {
            let (f4, f2) = DPAS_SUB_BYTE[k - 1];
            b.set_bit(f4, four);
            b.set_bit(f2, two);
        } else if four || two {
            return Err(EncodeError::Unencodable(
                "sub-byte precision on dpas src0".into(),
            ));
        }
        put(b, (f.ty.0, f.ty.1), ty3(base)?, "SrcType")?;
        // Sub-byte subregisters count bytes.
        put_reg(b, &RegOperand { ty: base, ..r }, (f.file, f.reg, f.subreg))?;
    }
    Ok(())
}
