//! Pre-decoded executors for the fast path's common forms on all channels of a 1-, 8-, 16- or
//! 32-lane array: plain operations writing consecutive DWords, flag-writing ones (`cmp`, a
//! condition modifier on a 32-bit result, `null` destination allowed), `sel` by predicate and
//! a one-channel `mov` to a Byte or Word. The operation, the lane count and which sources are
//! DWord rows are chosen once per kernel ([`select`], from classification): a row is read in
//! place with no form matching; any other source (one value, a strided region) goes through
//! one form switch into a lane buffer. One kernel per combination of the three forms (one
//! value, row, strided) made 660 kernels and most of the crate's compile time; rows or not
//! make about 350, at +2 to +6 % host instructions on umd's `sim_kernels` (BENCHMARKS.md).
//! A kernel computes what the fast path's loop computes for the same instruction and returns
//! false, having changed nothing, where a row would leave the register file (that loop then
//! runs it); the fast-vs-general proptests run through them.

use std::mem::MaybeUninit;

use crate::program::fast::forms::{
    Fast, FastDst, FastOp, FastSrc, Kernel, KernelFn, Num, Sign, Src,
};
use crate::regfile::Thread;

use super::{arity, commit, cond_row, pick_row, read, region, store_row, word_cmp, word_op};

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

/// Source `k`'s `L` lanes as little-endian DWords, `None` for a gather or a region that
/// leaves the register file: a row of consecutive DWords read in place, or lanes built once
/// in `buf` (one value broadcast; a strided region of any element size read and extended in
/// one vector walk rather than a bounds check and a sign decision per lane). The operation's
/// loop then reads every form through one pointer: two kernels per operation and lane count
/// (`ROWS`: every source a DWord row, the straight-line ALU code's form, which then reads no
/// form and fills no buffer) instead of one per combination of its sources' forms.
#[inline(always)]
fn src<'a, const L: usize, const ROWS: u8>(
    file: &'a [u8],
    f: &Fast,
    k: usize,
    buf: &'a mut MaybeUninit<[[u8; 4]; L]>,
) -> Option<&'a [[u8; 4]; L]> {
    let s = &f.src[k];
    let in_place = |base: u16| {
        file.get(usize::from(base)..)?
            .as_chunks::<4>()
            .0
            .first_chunk::<L>()
    };
    if L == 1 {
        // One channel: its element at the region's start, whatever the region's stride.
        let v = match s.at {
            Src::Imm(v) => v,
            Src::Region { base, .. } => read(file, usize::from(base), s.elem),
            Src::Gather => return None,
        };
        return Some(&*buf.write([v.to_le_bytes(); L]));
    }
    if ROWS >> k & 1 != 0 {
        // [`select`] chose this kernel for a DWord row here.
        return match s.at {
            Src::Region { base, .. } => in_place(base),
            _ => None,
        };
    }
    match s.at {
        Src::Imm(v) => Some(&*buf.write([v.to_le_bytes(); L])),
        Src::Region { base, stride: 0 } => {
            let v = read(file, usize::from(base), s.elem);
            Some(&*buf.write([v.to_le_bytes(); L]))
        }
        Src::Region { base, stride: 4 } if s.elem.size == 4 => in_place(base),
        Src::Region { base, stride } => {
            let (base, stride) = (usize::from(base), usize::from(stride));
            file.get(base..base + (L - 1) * stride + usize::from(s.elem.size))?;
            let lanes = region::<L>(file, base, stride, s.elem, L);
            Some(&*buf.write(lanes.map(u32::to_le_bytes)))
        }
        Src::Gather => None,
    }
}

#[inline(always)]
fn plain<const L: usize, const OP: u8, const ROWS: u8>(
    t: &mut Thread,
    f: &Fast,
    enabled: u32,
    pred: u32,
) -> bool {
    let Some(d) = f.dst else {
        return false;
    };
    let (op, num) = op_of(OP);
    let file = &t.file[..];
    // Lanes built for sources that are not DWord rows.
    let (mut ba, mut bb, mut bc) = (
        MaybeUninit::uninit(),
        MaybeUninit::uninit(),
        MaybeUninit::uninit(),
    );
    let r = match arity(op) {
        1 => {
            let Some(a) = src::<L, ROWS>(file, f, 0, &mut ba) else {
                return false;
            };
            word_op::<L>(op, num, |i| u32::from_le_bytes(a[i]), |_| 0, |_| 0)
        }
        2 => {
            let (Some(a), Some(b)) = (
                src::<L, ROWS>(file, f, 0, &mut ba),
                src::<L, ROWS>(file, f, 1, &mut bb),
            ) else {
                return false;
            };
            let (ga, gb) = (|i| u32::from_le_bytes(a[i]), |i| u32::from_le_bytes(b[i]));
            word_op::<L>(op, num, ga, gb, |_| 0)
        }
        _ => {
            let (Some(a), Some(b), Some(c)) = (
                src::<L, ROWS>(file, f, 0, &mut ba),
                src::<L, ROWS>(file, f, 1, &mut bb),
                src::<L, ROWS>(file, f, 2, &mut bc),
            ) else {
                return false;
            };
            let (ga, gb) = (|i| u32::from_le_bytes(a[i]), |i| u32::from_le_bytes(b[i]));
            word_op::<L>(op, num, ga, gb, |i| u32::from_le_bytes(c[i]))
        }
    };
    let Some(r) = r else {
        return false;
    };
    store_row::<L>(t, usize::from(d.base), r, enabled & pred)
}

/// An operation that writes flags: a `cmp` (its all-ones/zero row to a DWord destination, if
/// any) or an operation with a condition modifier on its 32-bit result (IGC's `and (eq)f1.0
/// null:d` bit test); sources as for [`plain`], src2 unused.
#[inline(always)]
fn flagged<const L: usize, const OP: u8, const ROWS: u8>(
    t: &mut Thread,
    f: &Fast,
    enabled: u32,
    pred: u32,
) -> bool {
    let Some(c) = f.cond else {
        return false;
    };
    let (op, num) = op_of(OP);
    let file = &t.file[..];
    let (mut ba, mut bb) = (MaybeUninit::uninit(), MaybeUninit::uninit());
    let (r, bits) = if arity(op) == 1 {
        let Some(a) = src::<L, ROWS>(file, f, 0, &mut ba) else {
            return false;
        };
        let Some(r) = word_op::<L>(op, num, |i| u32::from_le_bytes(a[i]), |_| 0, |_| 0) else {
            return false;
        };
        // `f.num`: a `mov`'s condition tests its value as the instruction's type.
        (r, cond_row::<L>(c, f.num, f.dst_elem.signed, &r))
    } else {
        let (Some(a), Some(b)) = (
            src::<L, ROWS>(file, f, 0, &mut ba),
            src::<L, ROWS>(file, f, 1, &mut bb),
        ) else {
            return false;
        };
        let (ga, gb) = (|i| u32::from_le_bytes(a[i]), |i| u32::from_le_bytes(b[i]));
        match op {
            FastOp::Cmp { nan_true } => {
                let Some(bits) = word_cmp::<L>(f, c, nan_true, ga, gb) else {
                    return false;
                };
                (pick_row::<L>(bits, |_| u32::MAX, |_| 0), bits)
            }
            _ => {
                let Some(r) = word_op::<L>(op, num, ga, gb, |_| 0) else {
                    return false;
                };
                // The constant `num` (these are integer operations): one condition loop
                // per condition instead of an integer and a float one.
                (r, cond_row::<L>(c, num, f.dst_elem.signed, &r))
            }
        }
    };
    let mask = enabled & pred;
    commit::<L>(t, f, r, Some((mask, bits)), mask)
}

/// `sel` without a condition: the predicate picks src0 or src1 for each enabled lane.
#[inline(always)]
fn select_by_predicate<const L: usize, const ROWS: u8>(
    t: &mut Thread,
    f: &Fast,
    enabled: u32,
    pred: u32,
) -> bool {
    let file = &t.file[..];
    let (mut ba, mut bb) = (MaybeUninit::uninit(), MaybeUninit::uninit());
    let (Some(a), Some(b)) = (
        src::<L, ROWS>(file, f, 0, &mut ba),
        src::<L, ROWS>(file, f, 1, &mut bb),
    ) else {
        return false;
    };
    let r = pick_row::<L>(
        pred,
        |i| u32::from_le_bytes(a[i]),
        |i| u32::from_le_bytes(b[i]),
    );
    commit::<L>(t, f, r, None, enabled)
}

/// A one-channel integer or raw `mov` to a Byte or Word (IGC's `(W) mov (1) r3.8:hf 0x1:hf`):
/// the value's low bytes.
#[inline(always)]
fn narrow_scalar_mov(t: &mut Thread, f: &Fast, enabled: u32, pred: u32) -> bool {
    let mut ba = MaybeUninit::uninit();
    let (Some(d), Some(a)) = (f.dst, src::<1, 0>(&t.file, f, 0, &mut ba)) else {
        return false;
    };
    let at = usize::from(d.base);
    let [[b0, b1, ..]] = *a;
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
    pub fn plain<const L: usize, const OP: u8, const ROWS: u8>(
        t: &mut Thread,
        f: &Fast,
        enabled: u32,
        pred: u32,
    ) -> bool {
        super::plain::<L, OP, ROWS>(t, f, enabled, pred)
    }

    #[target_feature(enable = "avx2,fma")]
    pub fn flagged<const L: usize, const OP: u8, const ROWS: u8>(
        t: &mut Thread,
        f: &Fast,
        enabled: u32,
        pred: u32,
    ) -> bool {
        super::flagged::<L, OP, ROWS>(t, f, enabled, pred)
    }

    #[target_feature(enable = "avx2,fma")]
    pub fn select_by_predicate<const L: usize, const ROWS: u8>(
        t: &mut Thread,
        f: &Fast,
        enabled: u32,
        pred: u32,
    ) -> bool {
        super::select_by_predicate::<L, ROWS>(t, f, enabled, pred)
    }

    #[target_feature(enable = "avx2,fma")]
    pub fn narrow_scalar_mov(t: &mut Thread, f: &Fast, enabled: u32, pred: u32) -> bool {
        super::narrow_scalar_mov(t, f, enabled, pred)
    }
}

/// The kernel of `$k` (operation `$op` on `$l` lanes) for the sources' `rows` mask, one arm
/// per mask value the operation's sources can have.
#[cfg(target_arch = "x86_64")]
macro_rules! by_rows {
    ($k:ident::<$l:ident, $op:ident>, $rows:expr, [$($m:literal),*]) => {
        match $rows {
            $($m => Some(avx2::$k::<$l, $op, $m> as KernelFn),)*
            _ => None,
        }
    };
}

#[cfg(target_arch = "x86_64")]
fn unary<const L: usize, const OP: u8>(rows: u8) -> Option<KernelFn> {
    by_rows!(plain::<L, OP>, rows, [0, 1])
}

#[cfg(target_arch = "x86_64")]
fn binary<const L: usize, const OP: u8>(rows: u8) -> Option<KernelFn> {
    by_rows!(plain::<L, OP>, rows, [0, 1, 2, 3])
}

#[cfg(target_arch = "x86_64")]
fn ternary<const L: usize, const OP: u8>(rows: u8) -> Option<KernelFn> {
    by_rows!(plain::<L, OP>, rows, [0, 1, 2, 3, 4, 5, 6, 7])
}

#[cfg(target_arch = "x86_64")]
fn flagging<const L: usize, const OP: u8>(rows: u8) -> Option<KernelFn> {
    by_rows!(flagged::<L, OP>, rows, [0, 1, 2, 3])
}

#[cfg(target_arch = "x86_64")]
fn selecting<const L: usize>(rows: u8) -> Option<KernelFn> {
    match rows {
        0 => Some(avx2::select_by_predicate::<L, 0>),
        1 => Some(avx2::select_by_predicate::<L, 1>),
        2 => Some(avx2::select_by_predicate::<L, 2>),
        3 => Some(avx2::select_by_predicate::<L, 3>),
        _ => None,
    }
}

/// The kernel of operation `op` on `L` lanes, `cond`: its flag-writing form; `rows`: which
/// of the sources it reads are DWord rows (bit k: source k).
#[cfg(target_arch = "x86_64")]
fn for_lanes<const L: usize>(op: u8, cond: bool, rows: u8) -> Option<KernelFn> {
    if cond {
        return match op {
            MOV => flagging::<L, MOV>(rows),
            ADD => flagging::<L, ADD>(rows),
            AND => flagging::<L, AND>(rows),
            OR => flagging::<L, OR>(rows),
            XOR => flagging::<L, XOR>(rows),
            SHL => flagging::<L, SHL>(rows),
            SHR => flagging::<L, SHR>(rows),
            ASR => flagging::<L, ASR>(rows),
            CMP => flagging::<L, CMP>(rows),
            FCMP => flagging::<L, FCMP>(rows),
            FCMPN => flagging::<L, FCMPN>(rows),
            _ => None,
        };
    }
    match op {
        MOV => unary::<L, MOV>(rows),
        NOT => unary::<L, NOT>(rows),
        ADD => binary::<L, ADD>(rows),
        MUL => binary::<L, MUL>(rows),
        AND => binary::<L, AND>(rows),
        OR => binary::<L, OR>(rows),
        XOR => binary::<L, XOR>(rows),
        SHL => binary::<L, SHL>(rows),
        SHR => binary::<L, SHR>(rows),
        ASR => binary::<L, ASR>(rows),
        FADD => binary::<L, FADD>(rows),
        FMUL => binary::<L, FMUL>(rows),
        MAD => ternary::<L, MAD>(rows),
        FMAD => ternary::<L, FMAD>(rows),
        SEL => selecting::<L>(rows),
        _ => None,
    }
}

/// One channel (sources read by the general form switch): the conditions IGC writes on
/// scalars (address and loop-counter tests) and the plain operations.
#[cfg(target_arch = "x86_64")]
fn scalar(op: u8, cond: bool) -> Option<KernelFn> {
    use avx2::{flagged, plain};
    if cond {
        return Some(match op {
            MOV => flagged::<1, MOV, 0>,
            ADD => flagged::<1, ADD, 0>,
            AND => flagged::<1, AND, 0>,
            CMP => flagged::<1, CMP, 0>,
            FCMP => flagged::<1, FCMP, 0>,
            _ => return None,
        });
    }
    Some(match op {
        MOV => plain::<1, MOV, 0>,
        NOT => plain::<1, NOT, 0>,
        ADD => plain::<1, ADD, 0>,
        MUL => plain::<1, MUL, 0>,
        AND => plain::<1, AND, 0>,
        OR => plain::<1, OR, 0>,
        XOR => plain::<1, XOR, 0>,
        SHL => plain::<1, SHL, 0>,
        SHR => plain::<1, SHR, 0>,
        ASR => plain::<1, ASR, 0>,
        FADD => plain::<1, FADD, 0>,
        FMUL => plain::<1, FMUL, 0>,
        MAD => plain::<1, MAD, 0>,
        FMAD => plain::<1, FMAD, 0>,
        SEL => avx2::select_by_predicate::<1, 0>,
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
    if f.num == Num::Half {
        return None;
    }
    if f.op == FastOp::Mov && f.num == Num::Int && f.ch.n == 1 && f.cond.is_none() {
        let narrow = f.dst.is_some() && f.dst_elem.size < 4;
        let one =
            matches!(f.src[0].at, Src::Imm(_) | Src::Region { .. }) && f.src[0].sign == Sign::NONE;
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
    let read = &f.src[..arity(f.op)];
    // Kernels read their sources as they are: a source modifier takes the loop.
    if read
        .iter()
        .any(|s| s.at == Src::Gather || s.sign != Sign::NONE)
    {
        return None;
    }
    let row = |s: &FastSrc| matches!(s.at, Src::Region { stride: 4, .. }) && s.elem.size == 4;
    let rows = read.iter().enumerate().map(|(k, s)| u8::from(row(s)) << k);
    select_for(f.ch.n, op, f.cond.is_some(), rows.sum())
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
fn select_for(n: u8, op: u8, cond: bool, rows: u8) -> Option<Kernel> {
    if !has_avx2_fma() {
        return None;
    }
    let k = match n {
        1 => scalar(op, cond),
        8 => for_lanes::<8>(op, cond, rows),
        16 => for_lanes::<16>(op, cond, rows),
        32 => for_lanes::<32>(op, cond, rows),
        _ => None,
    }?;
    Some(Kernel(k))
}

#[cfg(not(target_arch = "x86_64"))]
fn select_for(_: u8, _: u8, _: bool, _: u8) -> Option<Kernel> {
    None
}
