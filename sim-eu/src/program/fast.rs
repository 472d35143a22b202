//! The typed fast path's pre-decoded form. The common ALU instructions IGC emits (`mov`, `add`,
//! `add3`, `mul`, `mad`, `mac`, logic, shifts, `cmp`, `sel` on 8/16/32-bit integers or `:f`, direct regions
//! whose lanes step by a constant number of bytes, source modifiers on `:f` and an integer's
//! negation where only the result's low 32 bits matter, no saturation, no accumulator write) are classified once per kernel into a [`Fast`] that the executor runs on
//! 32-bit lanes without the general path's per-operand conversions.
//!
//! Classification reads the lowered [`Inst`], so it sees exactly the operands the general path
//! would execute; anything it does not recognise stays on the general path.

use isa_encoder::model::{DataType, MathFn, Opcode, SrcMod, Subfunction};

use super::channels::Channels;
use super::{type_bytes, Domain, Inst, Loc, Opnd};
use crate::exec::fast::kernel;

pub mod forms;

pub use forms::{extend, Elem, Fast, FastDst, FastOp, FastSrc, Kernel, KernelFn, Num, Sign, Src};

const UNUSED: FastSrc = FastSrc {
    at: Src::Imm(0),
    elem: Elem {
        size: 4,
        signed: false,
    },
    sign: Sign::NONE,
};

fn int_elem(ty: DataType) -> Option<Elem> {
    let signed = match ty {
        DataType::B | DataType::W | DataType::D => true,
        DataType::Ub | DataType::Uw | DataType::Ud => false,
        _ => return None,
    };
    Some(Elem {
        size: type_bytes(ty) as u8,
        signed,
    })
}

/// The bits of a 1-, 2- or 4-byte element, whatever its type (raw moves).
fn raw_elem(ty: DataType) -> Option<Elem> {
    use DataType::*;
    matches!(ty, Ub | B | Uw | W | Ud | D | Hf | Bf | F).then_some(Elem {
        size: type_bytes(ty) as u8,
        signed: false,
    })
}

/// A [`Num::Half`] operand: `:hf` or `:f`, told apart by size.
fn half_elem(ty: DataType) -> Option<Elem> {
    matches!(ty, DataType::Hf | DataType::F).then_some(Elem {
        size: type_bytes(ty) as u8,
        signed: false,
    })
}

fn f32_elem(ty: DataType) -> Option<Elem> {
    (ty == DataType::F).then_some(Elem {
        size: 4,
        signed: false,
    })
}

/// The first of the first `n` lane offsets and the constant byte step between them, if
/// there is one (0 for one lane).
pub fn step(offs: &[u16; 32], n: usize) -> Option<(u16, u16)> {
    let base = offs[0];
    if n < 2 {
        return Some((base, 0));
    }
    let stride = offs[1].checked_sub(base)?;
    (0..n)
        .all(|i| usize::from(offs[i]) == usize::from(base) + i * usize::from(stride))
        .then_some((base, stride))
}

/// `o`'s fast form as an integer source of `n` lanes without a modifier (what a translator
/// reading an instruction the fast path does not classify may take, as this path would).
pub fn int_source(o: &Opnd, n: usize) -> Option<FastSrc> {
    source(o, n, int_elem, false, false)
}

/// `o`'s fast form as an `:f` source of `n` lanes without a modifier (a translator's
/// conversion from single precision).
pub fn f32_source(o: &Opnd, n: usize) -> Option<FastSrc> {
    source(o, n, f32_elem, false, false)
}

/// `o`'s fast form; a source modifier where `float` (`:f` sources: a sign-bit operation), or
/// an integer's negation where `int_neg` ([`Sign::INT_NEG`]; other integer modifiers take the
/// 64-bit value the general path computes on).
fn source(
    o: &Opnd,
    n: usize,
    elem: fn(DataType) -> Option<Elem>,
    float: bool,
    int_neg: bool,
) -> Option<FastSrc> {
    let sign = match o.modifier {
        SrcMod::None => Sign::NONE,
        m if float => Sign::of(m),
        // Not of a signed byte or word: the general path negates those in the instruction's
        // execution width (-(-32768:w) is -32768 in word arithmetic), which a negation of the
        // extended 32-bit value is not.
        SrcMod::Neg if int_neg && !matches!(o.ty, DataType::B | DataType::W) => Sign::INT_NEG,
        _ => return None,
    };
    let e = elem(o.ty)?;
    let at = match o.loc {
        Loc::File => match step(&o.offs, n) {
            Some((base, stride)) => Src::Region { base, stride },
            None => Src::Gather,
        },
        Loc::Imm if o.scalar => {
            let mut b = [0u8; 4];
            b[..usize::from(e.size)].copy_from_slice(&o.imm[..usize::from(e.size)]);
            Src::Imm(extend(u32::from_le_bytes(b), e))
        }
        Loc::Imm | Loc::Null | Loc::Indirect { .. } => return None,
    };
    Some(FastSrc { at, elem: e, sign })
}

/// Whether `inst` writes the accumulators through its destination.
pub fn writes_accumulator(inst: &Inst) -> bool {
    inst.dst.loc == Loc::File && crate::regfile::acc_dword(inst.dst.offs[0]).is_some()
}

/// Per instruction of `insts`, whether an integer write of it to the accumulator must keep
/// the accumulator's wide values, the general path's (`exec::alu` keeps each integer
/// result's full value beside its DWord, which only a `mach` with AccWrEn reads). Where every
/// such `mach` directly follows a `mul` that fills the accumulator DWords it reads in every
/// channel it runs, and no jump lands between the two (IGC's `mul acc0; mach` pair), only
/// those `mul`s: whatever else wrote the accumulator, the `mach` reads what its `mul` left.
/// Otherwise every instruction.
pub fn keeps_wide_accumulator(insts: &[Inst]) -> Vec<bool> {
    let machs = insts
        .iter()
        .enumerate()
        .filter(|(_, i)| i.opcode == Opcode::Mach && i.acc_wr);
    let mut keep = vec![false; insts.len()];
    let Some(landed) = landing_points(insts) else {
        return vec![true; insts.len()];
    };
    for (k, mach) in machs {
        match k.checked_sub(1) {
            Some(m) if !landed[k] && fills_wide_accumulator(&insts[m], mach) => keep[m] = true,
            _ => return vec![true; insts.len()],
        }
    }
    keep
}

/// Whether `mul` writes the wide values of every accumulator DWord the `mach` after it reads,
/// in every channel the `mach` runs: an integer `mul` without AccWrEn to DWords, without a
/// predicate, to the `mach`'s accumulator region, in the same channels or all of them.
fn fills_wide_accumulator(mul: &Inst, mach: &Inst) -> bool {
    let n = usize::from(mach.n);
    mul.opcode == Opcode::Mul
        && mul.invalid.is_none()
        && mul.domain == Domain::Int
        && !mul.acc_wr
        && mul.pred.is_none()
        && mul.n == mach.n
        && mul.dst.loc == Loc::File
        && type_bytes(mul.dst.ty) == 4
        && mul.dst.offs[..n] == mach.acc.offs[..n]
        && (mul.no_mask || (!mach.no_mask && mul.chan_off == mach.chan_off))
}

/// Per instruction of `insts`, whether control may arrive there other than from the
/// instruction before it: a branch's target, the instruction after a call (where its return
/// lands). `None` when a jump's target is computed at run time (`jmpi` from a register, `ret`
/// to the address a register holds).
fn landing_points(insts: &[Inst]) -> Option<Vec<bool>> {
    let mut landed = vec![false; insts.len() + 1];
    for (k, i) in insts.iter().enumerate() {
        match i.opcode {
            Opcode::Jmpi if i.jip.is_none() => return None,
            Opcode::Ret => return None,
            Opcode::Call | Opcode::Calla => landed[k + 1] = true,
            _ => {}
        }
        for t in [i.jip, i.uip].into_iter().flatten().flatten() {
            if let Some(x) = landed.get_mut(t as usize) {
                *x = true;
            }
        }
    }
    Some(landed)
}

/// The fast form of `inst`, or `None` when only the general path executes it.
pub fn classify(inst: &Inst) -> Option<Fast> {
    if inst.invalid.is_some() || inst.reads_ce || inst.sat || inst.acc_wr {
        return None;
    }
    // A write that may change the rounding mode, which the fast path does not follow, ends a
    // fast run so the next instruction sees the new mode (`rounding`). Other cr0 writes
    // (IGC's prologue `or cr0.0 cr0.0 0x4C0`) are plain register writes.
    if super::sets_rounding(inst) {
        return None;
    }
    let (op, arity) = match inst.opcode {
        Opcode::Mov => (FastOp::Mov, 1),
        Opcode::Not => (FastOp::Not, 1),
        Opcode::Add => (FastOp::Add, 2),
        Opcode::Mul => (FastOp::Mul, 2),
        Opcode::And => (FastOp::And, 2),
        Opcode::Or => (FastOp::Or, 2),
        Opcode::Xor => (FastOp::Xor, 2),
        Opcode::Shl => (FastOp::Shl, 2),
        Opcode::Shr => (FastOp::Shr, 2),
        Opcode::Asr => (FastOp::Asr, 2),
        Opcode::Cmp if inst.cond.is_some() => (FastOp::Cmp { nan_true: false }, 2),
        Opcode::Cmpn if inst.cond.is_some() => (FastOp::Cmp { nan_true: true }, 2),
        Opcode::Sel => (FastOp::Sel, 2),
        Opcode::Mad => (FastOp::Mad, 3),
        // Without a condition (IGC's forms): an `add3` setting flags stays on the general path,
        // which the property tests do not compare it against.
        Opcode::Add3 if inst.domain == Domain::Int && inst.cond.is_none() => (FastOp::Add3, 3),
        // Without AccWrEn `mach` leaves the low DWord of the product in dst (IGC's
        // `mul acc0; mach` idiom for a 32-bit multiply): a 32-bit `mul`. It reads no
        // accumulator on the general path either.
        Opcode::Mach if inst.domain == Domain::Int => (FastOp::Mul, 2),
        // `mac` is `mad` with the implicit accumulator as its addend (Gen11's IGC emits it for
        // `mad`s whose addend it kept in acc0): the general path computes both alike.
        Opcode::Mac => (FastOp::Mad, 3),
        Opcode::Csel if inst.cond.is_some() => (FastOp::Csel, 3),
        Opcode::Math if inst.domain == Domain::Int && inst.cond.is_none() => {
            let unsigned = crate::exec::alu::int_div_unsigned(inst);
            match inst.func {
                Subfunction::Math(MathFn::Iqot) => (
                    FastOp::IntDiv {
                        rem: false,
                        unsigned,
                    },
                    2,
                ),
                Subfunction::Math(MathFn::Irem) => (
                    FastOp::IntDiv {
                        rem: true,
                        unsigned,
                    },
                    2,
                ),
                _ => return None,
            }
        }
        _ => return None,
    };
    let operands = inst.fast_sources();
    let explicit = arity - usize::from(inst.opcode == Opcode::Mac);
    if usize::from(inst.nsrc) != explicit {
        return None;
    }
    // A raw `mov` (same type in and out, no modifier, no condition) copies bits of any
    // element size up to a DWord (`:hf`, `:bf` included): the integer lanes do exactly that.
    let raw = op == FastOp::Mov
        && inst.cond.is_none()
        && operands[0].ty == inst.dst.ty
        && operands[0].modifier == SrcMod::None
        && type_bytes(inst.dst.ty) <= 4;
    // `sel` to `:hf` picks one source's value, which `:hf` holds exactly (a ReLU: `sel.ge`
    // with 0.0).
    let half = inst.dst.ty == DataType::Hf
        && ((inst.cond.is_none()
            && matches!(op, FastOp::Mov | FastOp::Add | FastOp::Mul | FastOp::Mad))
            || op == FastOp::Sel);
    let num = match inst.domain {
        _ if raw => Num::Int,
        Domain::Int => Num::Int,
        Domain::F32 if half => Num::Half,
        Domain::F32 => Num::F32,
        Domain::F64 => return None,
    };
    let logic_or_shift = matches!(
        op,
        FastOp::And | FastOp::Or | FastOp::Xor | FastOp::Not | FastOp::Shl | FastOp::Shr
    ) || op == FastOp::Asr;
    if num != Num::Int && logic_or_shift {
        return None;
    }
    let elem: fn(DataType) -> Option<Elem> = match num {
        _ if raw => raw_elem,
        Num::Int => int_elem,
        Num::F32 => f32_elem,
        Num::Half => half_elem,
    };
    let n = usize::from(inst.n);
    // Integer negation (IGC's `a - b` as `add a -b`) where only the result's low 32 bits
    // matter: arithmetic and moves without a condition (logic instructions read `-` as
    // `not`; comparisons and conditions see the 64-bit value).
    let int_neg = num == Num::Int
        && !raw
        && inst.cond.is_none()
        && matches!(
            inst.opcode,
            Opcode::Add | Opcode::Add3 | Opcode::Mul | Opcode::Mad | Opcode::Mov | Opcode::Sel
        );
    let mut src = [UNUSED; 3];
    for (k, s) in src.iter_mut().enumerate().take(arity) {
        *s = source(operands[k], n, elem, num == Num::F32 && !raw, int_neg)?;
    }
    // The general path shifts src0 at its own width: only 32-bit src0 is the u32 shift here.
    if matches!(op, FastOp::Shr | FastOp::Asr) && src[0].elem.size != 4 {
        return None;
    }
    // `cmp` stores raw all-ones/zero bits of the destination's size, whatever its type.
    let dst_elem = match op {
        FastOp::Cmp { .. } => {
            let size = type_bytes(inst.dst.ty);
            if size > 4 {
                return None;
            }
            Elem {
                size: size as u8,
                signed: false,
            }
        }
        _ => elem(inst.dst.ty)?,
    };
    let dst = match inst.dst.loc {
        Loc::Null => None,
        Loc::File => {
            let (base, stride) = step(&inst.dst.offs, n)?;
            Some(FastDst { base, stride })
        }
        Loc::Imm | Loc::Indirect { .. } => return None,
    };
    // Integer `cmp` and conditional `sel` compare each source by its own signedness: the word
    // form covers sources that agree.
    let compares = matches!(op, FastOp::Cmp { .. }) || (op == FastOp::Sel && inst.cond.is_some());
    // A `null` destination's type matters only to a condition on the result: `cmp` flags
    // come from its sources.
    let cmp_to_null = dst.is_none() && matches!(op, FastOp::Cmp { .. });
    let word = num != Num::Half
        && op != FastOp::Csel
        && !matches!(op, FastOp::IntDiv { .. })
        && !(compares && num == Num::Int && src[0].elem.signed != src[1].elem.signed)
        && (dst_elem.size == 4 || cmp_to_null)
        && dst.is_none_or(|d| d.stride == 4 || n == 1)
        && src.iter().take(arity).all(|s| match s.at {
            Src::Imm(_) | Src::Region { stride: 0, .. } => true,
            Src::Region { stride: 4, .. } => s.elem.size == 4,
            _ => false,
        });
    // An integer `csel` whose picks are both its destination's own bytes, or a `null`
    // destination without a condition (IGC's `mov null r23` after a fence): nothing changes.
    let own_csel = op == FastOp::Csel
        && num == Num::Int
        && src[0] == src[1]
        && dst.is_some_and(|d| {
            src[0].at
                == Src::Region {
                    base: d.base,
                    stride: d.stride,
                }
                && src[0].elem.size == dst_elem.size
        });
    let keep = own_csel || (dst.is_none() && inst.cond.is_none());
    let mut f = Fast {
        op: if keep { FastOp::Keep } else { op },
        num,
        ch: Channels::of(inst),
        cond: inst.cond,
        dst,
        dst_elem,
        src,
        word,
        kernel: None,
    };
    f.kernel = kernel::select(&f);
    Some(f)
}
