//! `madm`, `math.invm` and `math.rsqtm` lane by lane: each operand is its register element plus
//! its accumulator's extra bits; the arithmetic is [`crate::ieee_macro`]'s.

use isa_encoder::model::{CondMod, DataType, MathFn};

use super::flags::write_flags;
use crate::error::EuErrorKind;
use crate::ieee_macro::{self, Format, Out, Val, F32, F64, MME_BITS};
use crate::program::operand::NO_MME;
use crate::program::{Inst, Loc, Opnd};
use crate::regfile::{Thread, MME};
use crate::rounding::Rounding;

type R = Result<(), EuErrorKind>;

fn format(ty: DataType) -> Result<Format, EuErrorKind> {
    match ty {
        DataType::F => Ok(F32),
        DataType::Df => Ok(F64),
        other => Err(EuErrorKind::Illegal(format!(
            "math-macro operand of type {other:?} (only :f and :df)"
        ))),
    }
}

/// The operand's format, checked against the instruction's (all operands share one type).
fn checked(o: &Opnd, f: Format) -> R {
    if o.loc != Loc::File || format(o.ty)? != f {
        return Err(EuErrorKind::Illegal(
            "math-macro operands must be registers of one type".into(),
        ));
    }
    Ok(())
}

fn bytes(f: Format) -> usize {
    if f == F64 {
        8
    } else {
        4
    }
}

fn mme_at(o: &Opnd, lane: usize) -> Option<usize> {
    (o.mme < NO_MME).then(|| MME + usize::from(o.mme) * 32 + lane)
}

/// Lane `lane` of `o` with its accumulator bits and modifier. Decoding checked every lane of a
/// register operand against the register file (`program::operand`), so the read does not fail;
/// inlined: a value returned through memory cost more than the arithmetic on it.
#[inline(always)]
fn read(t: &Thread, o: &Opnd, f: Format, lane: usize) -> Val {
    let at = usize::from(o.offs[lane]);
    let bits = if f == F64 {
        t.file
            .get(at..at + 8)
            .and_then(|b| b.try_into().ok())
            .map_or(0, u64::from_le_bytes)
    } else {
        t.file
            .get(at..at + 4)
            .and_then(|b| b.try_into().ok())
            .map_or(0, |b| u64::from(u32::from_le_bytes(b)))
    };
    let extra = mme_at(o, lane).map_or(0, |k| t.file[k]);
    let v = f.decode(bits, extra);
    use isa_encoder::model::SrcMod;
    let flip = |v: Val, neg: Option<bool>| match v {
        Val::Num { neg: n, m, e } => Val::Num {
            neg: neg.unwrap_or(!n),
            m,
            e,
        },
        Val::Inf(n) => Val::Inf(neg.unwrap_or(!n)),
        nan => nan,
    };
    match o.modifier {
        SrcMod::None => v,
        SrcMod::Neg => flip(v, None),
        SrcMod::Abs => flip(v, Some(false)),
        SrcMod::NegAbs => flip(v, Some(true)),
    }
}

/// Writes lane `lane` of `d` (checked when decoded, as [`read`]'s) and its accumulator bits.
#[inline]
fn write(t: &mut Thread, d: &Opnd, f: Format, lane: usize, (bits, extra): Out) {
    if d.loc == Loc::Null {
        return;
    }
    let (at, n) = (usize::from(d.offs[lane]), bytes(f));
    if let Some(slot) = t.file.get_mut(at..at + n) {
        slot.copy_from_slice(&bits.to_le_bytes()[..n]);
    }
    if let Some(k) = mme_at(d, lane) {
        t.file[k] = extra;
    }
}

/// The format every operand shares; no saturation and no condition but `(eo)`.
fn prepare(inst: &Inst, nsrc: usize) -> Result<Format, EuErrorKind> {
    let f = format(inst.dst.ty)?;
    if inst.dst.loc != Loc::Null {
        checked(&inst.dst, f)?;
    }
    for s in &inst.src[..nsrc] {
        checked(s, f)?;
    }
    if inst.sat || inst.cond.is_some_and(|c| c != CondMod::Eo) {
        return Err(EuErrorKind::Illegal(
            "math macros take no saturation and no condition but (eo)".into(),
        ));
    }
    Ok(f)
}

/// `madm dst = src0 + src1 * src2`.
pub fn madm(t: &mut Thread, inst: &Inst, mask: u32) -> R {
    let f = prepare(inst, 3)?;
    let m = Rounding::of(t);
    let extra = if inst.dst.mme < NO_MME { MME_BITS } else { 0 };
    for lane in (0..usize::from(inst.n)).filter(|i| mask >> i & 1 != 0) {
        let a = read(t, &inst.src[0], f, lane);
        let b = read(t, &inst.src[1], f, lane);
        let c = read(t, &inst.src[2], f, lane);
        let out = f.fma(a, b, c, extra, m);
        write(t, &inst.dst, f, lane, out);
    }
    if inst.cond.is_some() {
        // (eo) belongs to invm/rsqtm; on madm it reports no early out.
        write_flags(t, inst, mask, 0);
    }
    Ok(())
}

/// `math.invm dst = approx(src0 / src1)`, `math.rsqtm dst = approx(1 / sqrt(src0))`, with
/// `(eo)` set where the destination already is the final IEEE result.
pub fn math(t: &mut Thread, inst: &Inst, mask: u32, func: MathFn) -> R {
    let nsrc = if func == MathFn::Invm { 2 } else { 1 };
    let f = prepare(inst, nsrc)?;
    let m = Rounding::of(t);
    let mut eo_bits = 0u32;
    for lane in (0..usize::from(inst.n)).filter(|i| mask >> i & 1 != 0) {
        let a = read(t, &inst.src[0], f, lane);
        let (out, eo) = if func == MathFn::Invm {
            ieee_macro::invm(f, a, read(t, &inst.src[1], f, lane), m)
        } else {
            ieee_macro::rsqtm(f, a, m)
        };
        // The accumulator bits are meaningful only for a refinement's starting value.
        let out = if inst.dst.mme < NO_MME || eo {
            out
        } else {
            (out.0, 0)
        };
        write(t, &inst.dst, f, lane, out);
        eo_bits |= u32::from(eo) << lane;
    }
    if inst.cond.is_some() {
        write_flags(t, inst, mask, eo_bits);
    }
    Ok(())
}
