//! Helpers both native codec families share: field errors, element and register codes,
//! source modifiers and the two-source region rule. Field positions stay in each family's
//! `fields.rs`.

use super::Bits;
use crate::error::{DecodeError, EncodeError};
use crate::model::{
    DataType, Instruction, MacroOperand, MathMacroAcc, Operand, Reg, RegFile, Region, SrcMod,
};

/// Two-source region encodings -> element counts, the same on every platform here.
pub const HSTRIDES: [u8; 4] = [0, 1, 2, 4];
pub const WIDTHS: [u8; 5] = [1, 2, 4, 8, 16];
pub const VSTRIDES: [u8; 7] = [0, 1, 2, 4, 8, 16, 32];
/// The VertStride code of a `<w,h>` (VxH / Vx1) region, indirect operands only.
pub const VSTRIDE_VXH: u64 = 0xF;

pub(super) fn ill(field: &'static str, value: u64) -> DecodeError {
    DecodeError::IllegalField { field, value }
}

pub(super) fn unsupported(what: &str) -> EncodeError {
    EncodeError::Unencodable(what.to_string())
}

pub(super) fn missing(what: &str) -> EncodeError {
    EncodeError::Unencodable(format!("missing {what}"))
}

/// A 64-bit immediate fills the instruction's upper 64 bits, where a second source's fields
/// lie: only a one-source instruction has one (iga64 refuses `add (1|M0) r10.0<1>:q
/// r10.0<0;1,0>:q 0x100000000:q` on every platform here: `GED_SetSrc1DataType`).
pub(super) fn imm64_alone(i: &Instruction) -> Result<(), EncodeError> {
    let imm64 = i
        .src
        .iter()
        .any(|s| matches!(s, Some(Operand::Imm(imm)) if imm.ty.is_64bit()));
    if imm64 && i.src[1].is_some() {
        return Err(unsupported(
            "a 64-bit immediate in a two-source instruction (it fills src1's fields)",
        ));
    }
    Ok(())
}

pub(super) fn macro_operand() -> EncodeError {
    unsupported("a math-macro operand outside a math macro")
}

/// Writes `v` to bits `lo..=hi`; an error naming `field` if it does not fit.
#[inline(always)]
pub(super) fn put(
    b: &mut Bits,
    (lo, hi): (u32, u32),
    v: u64,
    field: &'static str,
) -> Result<(), EncodeError> {
    b.set(lo, hi, v)
        .map_err(|_| EncodeError::FieldOutOfRange { field, value: v })
}

/// The code of `v` in a (value, code) table.
pub(super) fn code_of<T: Copy + PartialEq>(table: &[(T, u8)], v: T) -> Option<u64> {
    table.iter().find(|t| t.0 == v).map(|t| u64::from(t.1))
}

/// A (type, code) table indexed by type, for encoding without a search: the code of each
/// type, [`NO_CODE`] for a type the table lacks.
pub(super) const fn codes_by_type(table: &[(DataType, u8)]) -> [u8; TYPE_SLOTS] {
    let mut by_type = [NO_CODE; TYPE_SLOTS];
    let mut k = 0;
    while k < table.len() {
        // The first row for a type wins, as in `code_of`.
        if by_type[table[k].0 as usize] == NO_CODE {
            by_type[table[k].0 as usize] = table[k].1;
        }
        k += 1;
    }
    by_type
}

/// Slots of a [`codes_by_type`] table: more than there are types.
pub(super) const TYPE_SLOTS: usize = 32;
/// No code: the type is not in the table.
pub(super) const NO_CODE: u8 = 0xFF;

/// The code of `ty` in a [`codes_by_type`] table.
#[inline(always)]
pub(super) fn code_by_type(by_type: &[u8; TYPE_SLOTS], ty: DataType) -> Option<u64> {
    match by_type.get(ty as usize) {
        Some(&c) if c != NO_CODE => Some(u64::from(c)),
        _ => None,
    }
}

/// The value of `code` in a (value, code) table.
pub(super) fn lookup<T: Copy + PartialEq>(table: &[(T, u8)], code: u64) -> Option<T> {
    table.iter().find(|t| u64::from(t.1) == code).map(|t| t.0)
}

/// Element size in bytes, which turns byte subregisters into IGA's element subregisters.
pub(super) fn elem_bytes(ty: DataType) -> u8 {
    (ty.bits() / 8).max(1) as u8
}

pub(super) fn sign_extend(v: u64, bits: u32) -> i16 {
    let s = 64 - bits;
    (((v << s) as i64) >> s) as i16
}

pub(super) fn src_mod(abs: bool, neg: bool) -> SrcMod {
    match (neg, abs) {
        (false, false) => SrcMod::None,
        (true, false) => SrcMod::Neg,
        (false, true) => SrcMod::Abs,
        (true, true) => SrcMod::NegAbs,
    }
}

/// (abs, neg) bits of a modifier.
#[inline(always)]
pub(super) fn mod_bits(m: SrcMod) -> (bool, bool) {
    match m {
        SrcMod::None => (false, false),
        SrcMod::Neg => (false, true),
        SrcMod::Abs => (true, false),
        SrcMod::NegAbs => (true, true),
    }
}

/// A register from its file flag, encoded number (ARF: file nibble and number) and byte
/// subregister.
pub(super) fn reg_from(grf: bool, nr: u8, sub_bytes: u8, ty: DataType) -> Result<Reg, DecodeError> {
    let (file, num) = if grf {
        (RegFile::Grf, nr)
    } else {
        (
            RegFile::from_arf_nibble(nr >> 4).ok_or(ill("ArfRegNum", u64::from(nr)))?,
            nr & 0xF,
        )
    };
    Ok(Reg {
        file,
        num,
        sub: sub_bytes / elem_bytes(ty),
    })
}

/// A direct register from its file flag and its register-number and byte-subregister fields.
pub(super) fn reg_at(
    b: &Bits,
    grf: bool,
    (reg_lo, reg_hi): (u32, u32),
    (sub_lo, sub_hi): (u32, u32),
    ty: DataType,
) -> Result<Reg, DecodeError> {
    reg_from(
        grf,
        b.get(reg_lo, reg_hi) as u8,
        b.get(sub_lo, sub_hi) as u8,
        ty,
    )
}

/// (is GRF, encoded register number, byte subregister).
#[inline(always)]
pub(super) fn reg_fields(r: &Reg, ty: DataType) -> Result<(bool, u64, u64), EncodeError> {
    let sub = u64::from(r.sub) * u64::from(elem_bytes(ty));
    match r.file {
        RegFile::Grf => Ok((true, u64::from(r.num), sub)),
        f => {
            let arf = f.arf().ok_or_else(|| unsupported("register file"))?;
            if r.num > 0xF {
                return Err(EncodeError::FieldOutOfRange {
                    field: "ArfRegNum",
                    value: u64::from(r.num),
                });
            }
            Ok((false, (u64::from(arf.nibble) << 4) | u64::from(r.num), sub))
        }
    }
}

/// The element count a stride or width code stands for.
pub(super) fn table_get(code: u64, table: &[u8], field: &'static str) -> Result<u8, DecodeError> {
    table.get(code as usize).copied().ok_or(ill(field, code))
}

/// The code of a stride or width.
#[inline(always)]
pub(super) fn stride_code(v: u8, table: &[u8], field: &'static str) -> Result<u64, EncodeError> {
    table
        .iter()
        .position(|&x| x == v)
        .map(|p| p as u64)
        .ok_or(EncodeError::FieldOutOfRange {
            field,
            value: u64::from(v),
        })
}

/// A two-source-format source region from its (VertStride, Width, HorzStride) fields:
/// `<v;w,h>`, or `<w,h>` for the VxH code (indirect operands only).
pub(super) fn src_region(
    b: &Bits,
    [v, w, h]: [(u32, u32); 3],
    indirect: bool,
) -> Result<Region, DecodeError> {
    let v = b.get(v.0, v.1);
    let w = table_get(b.get(w.0, w.1), &WIDTHS, "Width")?;
    let h = table_get(b.get(h.0, h.1), &HSTRIDES, "HorzStride")?;
    if v == VSTRIDE_VXH {
        if !indirect {
            return Err(ill("VertStride", v));
        }
        return Ok(Region::wh(w, h));
    }
    Ok(Region::full(table_get(v, &VSTRIDES, "VertStride")?, w, h))
}

/// Writes a two-source-format source region (the inverse of [`src_region`]) and the
/// source's abs/neg bits.
#[inline(always)]
pub(super) fn put_src_region_mods(
    b: &mut Bits,
    [v, w, h]: [(u32, u32); 3],
    (abs, neg): (u32, u32),
    region: Region,
    modifier: SrcMod,
) -> Result<(), EncodeError> {
    let vcode = match region.vstride {
        Some(x) => stride_code(x, &VSTRIDES, "VertStride")?,
        None => VSTRIDE_VXH,
    };
    put(b, v, vcode, "VertStride")?;
    let width = region.width.ok_or_else(|| missing("region width"))?;
    put(b, w, stride_code(width, &WIDTHS, "Width")?, "Width")?;
    put(
        b,
        h,
        stride_code(region.hstride, &HSTRIDES, "HorzStride")?,
        "HorzStride",
    )?;
    let (a, n) = mod_bits(modifier);
    b.set_bit(abs, a);
    b.set_bit(neg, n);
    Ok(())
}

/// A math-macro special accumulator index from its field.
pub(super) fn acc_at(b: &Bits, (lo, hi): (u32, u32)) -> Result<MathMacroAcc, DecodeError> {
    let v = b.get(lo, hi);
    MathMacroAcc::from_index(v).ok_or(ill("MathMacroAcc", v))
}

/// The math-macro operand a macro instruction must have here.
pub(super) fn macro_of(op: Option<Operand>) -> Result<MacroOperand, EncodeError> {
    match op {
        Some(Operand::Macro(m)) => Ok(m),
        Some(_) => Err(unsupported("math-macro operand must be rN.mmeK / rN.nomme")),
        None => Err(missing("math-macro operand")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index by type gives what the search of the table gives, for every type.
    #[test]
    fn codes_by_type_agree_with_the_search() {
        let names = [
            "ub", "b", "uw", "w", "ud", "d", "uq", "q", "hf", "f", "df", "bf", "v", "uv", "vf",
            "u4", "s4", "u2", "s2", "tf32",
        ];
        let table = [
            (DataType::F, 7),
            (DataType::Ud, 2),
            (DataType::F, 9),
            (DataType::B, 0),
        ];
        let by_type = codes_by_type(&table);
        for n in names {
            let ty = DataType::from_syntax(n).expect("a type name");
            assert!((ty as usize) < TYPE_SLOTS);
            assert_eq!(code_by_type(&by_type, ty), code_of(&table, ty), "{n}");
        }
    }
}
