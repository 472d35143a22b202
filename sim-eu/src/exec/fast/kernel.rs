//! Pre-decoded executors for the fast path's common forms on all channels of a 1-, 8-, 16- or
//! 32-lane array: plain operations writing consecutive DWords, flag-writing ones (`cmp`, a
//! condition modifier on a 32-bit result, `null` destination allowed), `sel` by predicate and
//! a one-channel `mov` to a Byte or Word. The operation, the lane count and each source's form
//! (one value, a DWord row, a strided region) are chosen once per kernel ([`select`], from
//! classification), so executing one is a call with no form matching. A kernel computes what
//! the fast path's loop computes for the same instruction and returns false, having changed
//! nothing, where a row would leave the register file (that loop then runs it); the
//! fast-vs-general proptests run through them.

use crate::program::fast::forms::{Fast, FastDst, FastOp, FastSrc, Kernel, KernelFn, Num, Src};
use crate::regfile::Thread;

use super::{commit, cond_row, pick_row, read, region, store_row, word_cmp, word_op, Lanes};

// The operation as a constant (`(FastOp, Num)` cannot be a const generic parameter): its index
// in `OPS`, the one table both directions read ([`op_of`], [`op_index`]).
macro_rules! ops {
    ($($name:ident = $op:expr, $num:ident;)*) => {
        const OPS: &[(FastOp, Num)] = &[$(($op, Num::$num)),*];
        ops!(@consts 0u8; $($name)*);
    };
    (@consts $i:expr;) => {};
    (@consts $i:expr; $name:ident $($rest:ident)*) => {
        const $name: u8 = $i;
        ops!(@consts $i + 1; $($rest)*);
    };
}

ops! {
    MOV = FastOp::Mov, Int;
    NOT = FastOp::Not, Int;
    ADD = FastOp::Add, Int;
    MUL = FastOp::Mul, Int;
    MAD = FastOp::Mad, Int;
    AND = FastOp::And, Int;
    OR = FastOp::Or, Int;
    XOR = FastOp::Xor, Int;
    SHL = FastOp::Shl, Int;
    SHR = FastOp::Shr, Int;
    ASR = FastOp::Asr, Int;
    FADD = FastOp::Add, F32;
    FMUL = FastOp::Mul, F32;
    FMAD = FastOp::Mad, F32;
    CMP = FastOp::Cmp { nan_true: false }, Int;
    FCMP = FastOp::Cmp { nan_true: false }, F32;
    FCMPN = FastOp::Cmp { nan_true: true }, F32;
    SEL = FastOp::Sel, Int;
}

const fn op_of(k: u8) -> (FastOp, Num) {
    OPS[k as usize]
}

/// The constant of `(op, num)`; a `mov`, `sel` (raw bits either way) and an integer `cmpn`
/// (no NaN) share their integer entry.
fn op_index(op: FastOp, num: Num) -> Option<u8> {
    let key = match (op, num) {
        (FastOp::Mov | FastOp::Sel, _) => (op, Num::Int),
        (FastOp::Cmp { .. }, Num::Int) => (FastOp::Cmp { nan_true: false }, Num::Int),
        _ => (op, num),
    };
    OPS.iter().position(|&e| e == key).map(|i| i as u8)
}

// A source's form: one value for every lane, a row of `L` consecutive DWords, or elements of
// any size at a constant byte stride (IGC's `<16;8,2>:w`), each extended to 32 bits.
const ONE: u8 = 0;
const ROW: u8 = 1;
const STRIDED: u8 = 2;
/// A source the operation does not read (a unary or binary operation's last ones): nothing
/// to look at.
const NONE: u8 = 3;

/// One source's lanes in form `F` on `L` channels.
struct Get<'a, const F: u8, const L: usize> {
    row: &'a [[u8; 4]],
    /// A strided region's lanes, read and extended once (consecutive words in one vector
    /// walk rather than a bounds check and a sign decision per lane).
    lanes: Lanes<L>,
    one: u32,
}

impl<'a, const F: u8, const L: usize> Get<'a, F, L> {
    #[inline(always)]
    fn new(file: &'a [u8], s: &FastSrc) -> Option<Self> {
        let mut g = Get {
            row: &[],
            lanes: [0; L],
            one: 0,
        };
        match (F, s.at) {
            (NONE, _) => {}
            (ROW, Src::Region { base, .. }) => {
                g.row = file.get(usize::from(base)..)?.as_chunks::<4>().0.get(..L)?;
            }
            (STRIDED, Src::Region { base, stride }) => {
                let (base, stride) = (usize::from(base), usize::from(stride));
                file.get(base..base + (L - 1) * stride + usize::from(s.elem.size))?;
                g.lanes = region::<L>(file, base, stride, s.elem, L);
            }
            (ONE, Src::Imm(v)) => g.one = v,
            (ONE, Src::Region { base, .. }) => g.one = read(file, usize::from(base), s.elem),
            _ => return None,
        }
        Some(g)
    }

    #[inline(always)]
    fn at(&self, i: usize) -> u32 {
        match F {
            ROW => u32::from_le_bytes(self.row[i]),
            STRIDED => self.lanes[i],
            _ => self.one,
        }
    }
}

/// Sources 0 and 1 in forms `A` and `B`, if the instruction's sources have those forms.
#[inline(always)]
fn two_sources<'a, const L: usize, const A: u8, const B: u8>(
    file: &'a [u8],
    f: &Fast,
) -> Option<(Get<'a, A, L>, Get<'a, B, L>)> {
    Some((
        Get::<A, L>::new(file, &f.src[0])?,
        Get::<B, L>::new(file, &f.src[1])?,
    ))
}

#[inline(always)]
fn plain<const L: usize, const OP: u8, const A: u8, const B: u8, const C: u8>(
    t: &mut Thread,
    f: &Fast,
    enabled: u32,
    pred: u32,
) -> bool {
    let Some(d) = f.dst else {
        return false;
    };
    let file = &t.file[..];
    let (Some(a), Some(b), Some(c)) = (
        Get::<A, L>::new(file, &f.src[0]),
        Get::<B, L>::new(file, &f.src[1]),
        Get::<C, L>::new(file, &f.src[2]),
    ) else {
        return false;
    };
    let (op, num) = op_of(OP);
    let Some(r) = word_op::<L>(op, num, |i| a.at(i), |i| b.at(i), |i| c.at(i)) else {
        return false;
    };
    store_row::<L>(t, usize::from(d.base), r, enabled & pred)
}

/// An operation that writes flags: a `cmp` (its all-ones/zero row to a DWord destination, if
/// any) or an operation with a condition modifier on its 32-bit result (IGC's `and (eq)f1.0
/// null:d` bit test); sources as for [`plain`], src2 unused.
#[inline(always)]
fn flagged<const L: usize, const OP: u8, const A: u8, const B: u8>(
    t: &mut Thread,
    f: &Fast,
    enabled: u32,
    pred: u32,
) -> bool {
    let Some(c) = f.cond else {
        return false;
    };
    let Some((a, b)) = two_sources::<L, A, B>(&t.file, f) else {
        return false;
    };
    let (ga, gb) = (|i| a.at(i), |i| b.at(i));
    let (r, bits) = match op_of(OP) {
        (FastOp::Cmp { nan_true }, _) => {
            let Some(bits) = word_cmp::<L>(f, c, nan_true, ga, gb) else {
                return false;
            };
            (pick_row::<L>(bits, |_| u32::MAX, |_| 0), bits)
        }
        (op, num) => {
            let Some(r) = word_op::<L>(op, num, ga, gb, |_| 0) else {
                return false;
            };
            // `f.num`: a `mov`'s condition tests its value as the instruction's type.
            (r, cond_row::<L>(c, f.num, f.dst_elem.signed, &r))
        }
    };
    let mask = enabled & pred;
    commit::<L>(t, f, r, Some((mask, bits)), mask)
}

/// `sel` without a condition: the predicate picks src0 or src1 for each enabled lane.
#[inline(always)]
fn select_by_predicate<const L: usize, const A: u8, const B: u8>(
    t: &mut Thread,
    f: &Fast,
    enabled: u32,
    pred: u32,
) -> bool {
    let Some((a, b)) = two_sources::<L, A, B>(&t.file, f) else {
        return false;
    };
    let r = pick_row::<L>(pred, |i| a.at(i), |i| b.at(i));
    commit::<L>(t, f, r, None, enabled)
}

/// A one-channel integer or raw `mov` to a Byte or Word (IGC's `(W) mov (1) r3.8:hf 0x1:hf`):
/// the value's low bytes.
#[inline(always)]
fn narrow_scalar_mov(t: &mut Thread, f: &Fast, enabled: u32, pred: u32) -> bool {
    let (Some(d), Some(a)) = (f.dst, Get::<ONE, 1>::new(&t.file, &f.src[0])) else {
        return false;
    };
    let at = usize::from(d.base);
    let [b0, b1, ..] = a.at(0).to_le_bytes();
    let write = enabled & pred & 1 != 0;
    // A Byte or a Word (`select` hands out no other size): stores of constant size rather
    // than a copy of a variable length (a library call).
    if f.dst_elem.size == 1 {
        let Some(out) = t.file.get_mut(at) else {
            return false;
        };
        if write {
            *out = b0;
        }
    } else {
        let Some(out) = t.file.get_mut(at..at + 2) else {
            return false;
        };
        if write {
            out.copy_from_slice(&[b0, b1]);
        }
    }
    true
}

/// The kernels compiled for AVX2 + FMA (as `block_avx2` is): [`select`] hands these out only
/// on CPUs that have both.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::*;

    #[target_feature(enable = "avx2,fma")]
    pub fn plain<const L: usize, const OP: u8, const A: u8, const B: u8, const C: u8>(
        t: &mut Thread,
        f: &Fast,
        enabled: u32,
        pred: u32,
    ) -> bool {
        super::plain::<L, OP, A, B, C>(t, f, enabled, pred)
    }

    #[target_feature(enable = "avx2,fma")]
    pub fn flagged<const L: usize, const OP: u8, const A: u8, const B: u8>(
        t: &mut Thread,
        f: &Fast,
        enabled: u32,
        pred: u32,
    ) -> bool {
        super::flagged::<L, OP, A, B>(t, f, enabled, pred)
    }

    #[target_feature(enable = "avx2,fma")]
    pub fn select_by_predicate<const L: usize, const A: u8, const B: u8>(
        t: &mut Thread,
        f: &Fast,
        enabled: u32,
        pred: u32,
    ) -> bool {
        super::select_by_predicate::<L, A, B>(t, f, enabled, pred)
    }

    #[target_feature(enable = "avx2,fma")]
    pub fn narrow_scalar_mov(t: &mut Thread, f: &Fast, enabled: u32, pred: u32) -> bool {
        super::narrow_scalar_mov(t, f, enabled, pred)
    }
}

/// The kernel of `$k` for the forms of the sources an operation reads.
#[cfg(target_arch = "x86_64")]
macro_rules! pick {
    ($k:ident::<$l:ident, $op:ident>, $forms:expr, [$($a:ident $b:ident $c:ident),*]) => {
        match $forms {
            $(($a, $b, $c) => Some(avx2::$k::<$l, $op, $a, $b, $c> as KernelFn),)*
            _ => None,
        }
    };
    ($k:ident::<$l:ident, $op:ident>, $forms:expr, [$($a:ident $b:ident),*]) => {
        match $forms {
            $(($a, $b) => Some(avx2::$k::<$l, $op, $a, $b> as KernelFn),)*
            _ => None,
        }
    };
    ($k:ident::<$l:ident>, $forms:expr, [$($a:ident $b:ident),*]) => {
        match $forms {
            $(($a, $b) => Some(avx2::$k::<$l, $a, $b> as KernelFn),)*
            _ => None,
        }
    };
}

#[cfg(target_arch = "x86_64")]
fn unary<const L: usize, const OP: u8>(a: u8) -> Option<KernelFn> {
    pick!(plain::<L, OP>, (a, NONE, NONE), [ONE NONE NONE, ROW NONE NONE, STRIDED NONE NONE])
}

#[cfg(target_arch = "x86_64")]
fn binary<const L: usize, const OP: u8>(a: u8, b: u8) -> Option<KernelFn> {
    pick!(plain::<L, OP>, (a, b, NONE), [
        ONE ONE NONE, ONE ROW NONE, ONE STRIDED NONE,
        ROW ONE NONE, ROW ROW NONE, ROW STRIDED NONE,
        STRIDED ONE NONE, STRIDED ROW NONE, STRIDED STRIDED NONE
    ])
}

/// `mad`: rows and values only (27 forms would be 27 kernels per lane count).
#[cfg(target_arch = "x86_64")]
fn ternary<const L: usize, const OP: u8>(a: u8, b: u8, c: u8) -> Option<KernelFn> {
    pick!(plain::<L, OP>, (a, b, c), [
        ONE ONE ONE, ONE ONE ROW, ONE ROW ONE, ONE ROW ROW,
        ROW ONE ONE, ROW ONE ROW, ROW ROW ONE, ROW ROW ROW
    ])
}

/// Flag-writing forms: rows, values and strided sources (IGC's `cmp null:w r1<16;16,1>:w`).
#[cfg(target_arch = "x86_64")]
fn flagging<const L: usize, const OP: u8>(a: u8, b: u8) -> Option<KernelFn> {
    pick!(flagged::<L, OP>, (a, b), [
        ONE ONE, ONE ROW, ONE STRIDED,
        ROW ONE, ROW ROW, ROW STRIDED,
        STRIDED ONE, STRIDED ROW, STRIDED STRIDED
    ])
}

#[cfg(target_arch = "x86_64")]
fn selecting<const L: usize>(a: u8, b: u8) -> Option<KernelFn> {
    pick!(select_by_predicate::<L>, (a, b), [
        ONE ONE, ONE ROW, ONE STRIDED,
        ROW ONE, ROW ROW, ROW STRIDED,
        STRIDED ONE, STRIDED ROW, STRIDED STRIDED
    ])
}

#[cfg(target_arch = "x86_64")]
fn for_lanes<const L: usize>(op: u8, cond: bool, forms: [u8; 3]) -> Option<KernelFn> {
    let [a, b, c] = forms;
    if cond {
        return match op {
            MOV => flagging::<L, MOV>(a, ONE),
            ADD => flagging::<L, ADD>(a, b),
            AND => flagging::<L, AND>(a, b),
            OR => flagging::<L, OR>(a, b),
            XOR => flagging::<L, XOR>(a, b),
            SHL => flagging::<L, SHL>(a, b),
            SHR => flagging::<L, SHR>(a, b),
            ASR => flagging::<L, ASR>(a, b),
            CMP => flagging::<L, CMP>(a, b),
            FCMP => flagging::<L, FCMP>(a, b),
            FCMPN => flagging::<L, FCMPN>(a, b),
            _ => None,
        };
    }
    match op {
        MOV => unary::<L, MOV>(a),
        NOT => unary::<L, NOT>(a),
        ADD => binary::<L, ADD>(a, b),
        MUL => binary::<L, MUL>(a, b),
        AND => binary::<L, AND>(a, b),
        OR => binary::<L, OR>(a, b),
        XOR => binary::<L, XOR>(a, b),
        SHL => binary::<L, SHL>(a, b),
        SHR => binary::<L, SHR>(a, b),
        ASR => binary::<L, ASR>(a, b),
        FADD => binary::<L, FADD>(a, b),
        FMUL => binary::<L, FMUL>(a, b),
        MAD => ternary::<L, MAD>(a, b, c),
        FMAD => ternary::<L, FMAD>(a, b, c),
        SEL => selecting::<L>(a, b),
        _ => None,
    }
}

/// One channel: every source is one value.
#[cfg(target_arch = "x86_64")]
fn scalar(op: u8, cond: bool, forms: [u8; 3]) -> Option<KernelFn> {
    if forms != [ONE; 3] {
        return None;
    }
    if cond {
        return match op {
            MOV => Some(avx2::flagged::<1, MOV, ONE, ONE> as KernelFn),
            ADD => Some(avx2::flagged::<1, ADD, ONE, ONE> as KernelFn),
            AND => Some(avx2::flagged::<1, AND, ONE, ONE> as KernelFn),
            CMP => Some(avx2::flagged::<1, CMP, ONE, ONE> as KernelFn),
            FCMP => Some(avx2::flagged::<1, FCMP, ONE, ONE> as KernelFn),
            _ => None,
        };
    }
    Some(match op {
        MOV => avx2::plain::<1, MOV, ONE, NONE, NONE>,
        NOT => avx2::plain::<1, NOT, ONE, NONE, NONE>,
        ADD => avx2::plain::<1, ADD, ONE, ONE, NONE>,
        MUL => avx2::plain::<1, MUL, ONE, ONE, NONE>,
        AND => avx2::plain::<1, AND, ONE, ONE, NONE>,
        OR => avx2::plain::<1, OR, ONE, ONE, NONE>,
        XOR => avx2::plain::<1, XOR, ONE, ONE, NONE>,
        SHL => avx2::plain::<1, SHL, ONE, ONE, NONE>,
        SHR => avx2::plain::<1, SHR, ONE, ONE, NONE>,
        ASR => avx2::plain::<1, ASR, ONE, ONE, NONE>,
        FADD => avx2::plain::<1, FADD, ONE, ONE, NONE>,
        FMUL => avx2::plain::<1, FMUL, ONE, ONE, NONE>,
        MAD => avx2::plain::<1, MAD, ONE, ONE, ONE>,
        FMAD => avx2::plain::<1, FMAD, ONE, ONE, ONE>,
        SEL => avx2::select_by_predicate::<1, ONE, ONE>,
        _ => return None,
    })
}

/// The kernel for a classified instruction, `None` when it has none or the CPU lacks AVX2 +
/// FMA (the fast path's general loop runs it then, as before). Kernels cover all channels of
/// a 1-, 8-, 16- or 32-lane array with a `null` destination (flag-writing forms) or one of
/// consecutive DWords (one DWord for one channel), running: a plain operation; a `cmp`, or
/// an operation with a condition modifier on a 32-bit result; a `sel` picked by the
/// predicate; and a one-channel `mov` to a Byte or Word.
pub fn select(f: &Fast) -> Option<Kernel> {
    if f.op == FastOp::Mov && f.num == Num::Int && f.ch.n == 1 && f.cond.is_none() {
        let narrow = f.dst.is_some() && f.dst_elem.size < 4;
        let one = matches!(f.src[0].at, Src::Imm(_) | Src::Region { .. });
        if narrow && one {
            return scalar_mov();
        }
    }
    let op = op_index(f.op, f.num)?;
    let cmp = matches!(f.op, FastOp::Cmp { .. });
    let dword_row = |d: FastDst| f.dst_elem.size == 4 && (d.stride == 4 || f.ch.n == 1);
    let form_ok = match f.dst {
        // `cmp` flags come from its sources; other conditions test the 32-bit result.
        None => f.cond.is_some() && (cmp || f.dst_elem.size == 4),
        Some(d) => dword_row(d),
    };
    // Integer compares of sources of different signedness stay on the loop (as `word`).
    let mixed = f.num == Num::Int && f.src[0].elem.signed != f.src[1].elem.signed;
    let sel_ok = f.op != FastOp::Sel || f.cond.is_none();
    if !form_ok || !sel_ok || (cmp && mixed) || (cmp && f.cond.is_none()) {
        return None;
    }
    let mut forms = [ONE; 3];
    for (form, s) in forms.iter_mut().zip(&f.src) {
        *form = match s.at {
            Src::Region { stride: 0, .. } | Src::Imm(_) => ONE,
            Src::Region { stride: 4, .. } if s.elem.size == 4 => ROW,
            Src::Region { .. } => STRIDED,
            Src::Gather => return None,
        };
    }
    select_for(f.ch.n, op, f.cond.is_some(), forms)
}

/// Whether the CPU runs the AVX2 + FMA code (`block_avx2` and the kernels).
#[cfg(target_arch = "x86_64")]
pub(super) fn has_avx2_fma() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
}

#[cfg(target_arch = "x86_64")]
fn scalar_mov() -> Option<Kernel> {
    has_avx2_fma().then_some(Kernel(avx2::narrow_scalar_mov))
}

#[cfg(not(target_arch = "x86_64"))]
fn scalar_mov() -> Option<Kernel> {
    None
}

#[cfg(target_arch = "x86_64")]
fn select_for(n: u8, op: u8, cond: bool, forms: [u8; 3]) -> Option<Kernel> {
    if !has_avx2_fma() {
        return None;
    }
    let k = match n {
        1 => scalar(op, cond, forms),
        8 => for_lanes::<8>(op, cond, forms),
        16 => for_lanes::<16>(op, cond, forms),
        32 => for_lanes::<32>(op, cond, forms),
        _ => None,
    }?;
    Some(Kernel(k))
}

#[cfg(not(target_arch = "x86_64"))]
fn select_for(_: u8, _: u8, _: bool, _: [u8; 3]) -> Option<Kernel> {
    None
}
