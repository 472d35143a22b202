//! Pre-decoded executors for the fast path's plain operations (no condition, `cmp`, `sel` or
//! `csel`) on all channels of a 1-, 8-, 16- or 32-lane array, writing consecutive DWords: the
//! operation, the lane count and each source's form (one value, a DWord row, a strided region)
//! are chosen once per kernel ([`select`], from classification), so executing one is a call
//! with no form matching. A kernel computes what the fast path's loop computes for the same
//! instruction and returns false, having changed nothing, where a row would leave the register
//! file (that loop then runs it); the fast-vs-general proptest runs through them.

use std::fmt;

use crate::eu::program::fast::{Elem, Fast, FastOp, FastSrc, Num, Src};
use crate::eu::regfile::Thread;

use super::{read, store_row, word_op};

/// A kernel: runs its instruction on the thread with the store mask (enabled and predicated
/// channels); false when it does not apply (a region outside the register file).
pub type KernelFn = unsafe fn(&mut Thread, &Fast, u32) -> bool;

/// [`KernelFn`], comparable by address so that [`Fast`] stays comparable.
#[derive(Clone, Copy)]
pub struct Kernel(pub KernelFn);

impl PartialEq for Kernel {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::fn_addr_eq(self.0, other.0)
    }
}

impl Eq for Kernel {}

impl fmt::Debug for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Kernel")
    }
}

// The operation as a constant: `(FastOp, Num)` cannot be a const generic parameter.
const MOV: u8 = 0;
const NOT: u8 = 1;
const ADD: u8 = 2;
const MUL: u8 = 3;
const MAD: u8 = 4;
const AND: u8 = 5;
const OR: u8 = 6;
const XOR: u8 = 7;
const SHL: u8 = 8;
const SHR: u8 = 9;
const ASR: u8 = 10;
const FADD: u8 = 11;
const FMUL: u8 = 12;
const FMAD: u8 = 13;

const fn op_of(k: u8) -> (FastOp, Num) {
    match k {
        MOV => (FastOp::Mov, Num::Int),
        NOT => (FastOp::Not, Num::Int),
        ADD => (FastOp::Add, Num::Int),
        MUL => (FastOp::Mul, Num::Int),
        MAD => (FastOp::Mad, Num::Int),
        AND => (FastOp::And, Num::Int),
        OR => (FastOp::Or, Num::Int),
        XOR => (FastOp::Xor, Num::Int),
        SHL => (FastOp::Shl, Num::Int),
        SHR => (FastOp::Shr, Num::Int),
        ASR => (FastOp::Asr, Num::Int),
        FADD => (FastOp::Add, Num::F32),
        FMUL => (FastOp::Mul, Num::F32),
        _ => (FastOp::Mad, Num::F32),
    }
}

// A source's form: one value for every lane, a row of `L` consecutive DWords, or elements of
// any size at a constant byte stride (IGC's `<16;8,2>:w`), each extended to 32 bits.
const ONE: u8 = 0;
const ROW: u8 = 1;
const STRIDED: u8 = 2;

/// One source's lanes in form `F`.
struct Get<'a, const F: u8> {
    row: &'a [[u8; 4]],
    file: &'a [u8],
    base: usize,
    stride: usize,
    elem: Elem,
    one: u32,
}

impl<'a, const F: u8> Get<'a, F> {
    #[inline(always)]
    fn new<const L: usize>(file: &'a [u8], s: &FastSrc) -> Option<Self> {
        let mut g = Get {
            row: &[],
            file,
            base: 0,
            stride: 0,
            elem: s.elem,
            one: 0,
        };
        match (F, s.at) {
            (ROW, Src::Region { base, .. }) => {
                g.row = file.get(usize::from(base)..)?.as_chunks::<4>().0.get(..L)?;
            }
            (STRIDED, Src::Region { base, stride }) => {
                (g.base, g.stride) = (usize::from(base), usize::from(stride));
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
            STRIDED => read(self.file, self.base + i * self.stride, self.elem),
            _ => self.one,
        }
    }
}

#[inline(always)]
fn plain<const L: usize, const OP: u8, const A: u8, const B: u8, const C: u8>(
    t: &mut Thread,
    f: &Fast,
    mask: u32,
) -> bool {
    let Some(d) = f.dst else {
        return false;
    };
    let file = &t.file[..];
    let (Some(a), Some(b), Some(c)) = (
        Get::<A>::new::<L>(file, &f.src[0]),
        Get::<B>::new::<L>(file, &f.src[1]),
        Get::<C>::new::<L>(file, &f.src[2]),
    ) else {
        return false;
    };
    let (op, num) = op_of(OP);
    let Some(r) = word_op::<L>(op, num, |i| a.at(i), |i| b.at(i), |i| c.at(i)) else {
        return false;
    };
    store_row::<L>(t, usize::from(d.base), r, mask)
}

/// [`plain`] compiled for AVX2 + FMA (as `block_avx2` is): [`select`] hands these out only on
/// CPUs that have both.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn plain_avx2<const L: usize, const OP: u8, const A: u8, const B: u8, const C: u8>(
    t: &mut Thread,
    f: &Fast,
    mask: u32,
) -> bool {
    plain::<L, OP, A, B, C>(t, f, mask)
}

/// The kernel of `plain_avx2` for the forms `$f` of the sources an operation reads.
#[cfg(target_arch = "x86_64")]
macro_rules! pick {
    ($l:ident, $op:ident, $forms:expr, [$($a:ident $b:ident $c:ident),*]) => {
        match $forms {
            $(($a, $b, $c) => Some(plain_avx2::<$l, $op, $a, $b, $c> as KernelFn),)*
            _ => None,
        }
    };
}

#[cfg(target_arch = "x86_64")]
fn unary<const L: usize, const OP: u8>(a: u8) -> Option<KernelFn> {
    pick!(L, OP, (a, ONE, ONE), [ONE ONE ONE, ROW ONE ONE, STRIDED ONE ONE])
}

#[cfg(target_arch = "x86_64")]
fn binary<const L: usize, const OP: u8>(a: u8, b: u8) -> Option<KernelFn> {
    pick!(L, OP, (a, b, ONE), [
        ONE ONE ONE, ONE ROW ONE, ONE STRIDED ONE,
        ROW ONE ONE, ROW ROW ONE, ROW STRIDED ONE,
        STRIDED ONE ONE, STRIDED ROW ONE, STRIDED STRIDED ONE
    ])
}

/// `mad`: rows and values only (27 forms would be 27 kernels per lane count).
#[cfg(target_arch = "x86_64")]
fn ternary<const L: usize, const OP: u8>(a: u8, b: u8, c: u8) -> Option<KernelFn> {
    pick!(L, OP, (a, b, c), [
        ONE ONE ONE, ONE ONE ROW, ONE ROW ONE, ONE ROW ROW,
        ROW ONE ONE, ROW ONE ROW, ROW ROW ONE, ROW ROW ROW
    ])
}

#[cfg(target_arch = "x86_64")]
fn for_lanes<const L: usize>(op: u8, forms: [u8; 3]) -> Option<KernelFn> {
    let [a, b, c] = forms;
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
        _ => ternary::<L, FMAD>(a, b, c),
    }
}

/// One channel: every source is one value.
#[cfg(target_arch = "x86_64")]
fn scalar(op: u8, forms: [u8; 3]) -> Option<KernelFn> {
    if forms != [ONE; 3] {
        return None;
    }
    Some(match op {
        MOV => plain_avx2::<1, MOV, ONE, ONE, ONE>,
        NOT => plain_avx2::<1, NOT, ONE, ONE, ONE>,
        ADD => plain_avx2::<1, ADD, ONE, ONE, ONE>,
        MUL => plain_avx2::<1, MUL, ONE, ONE, ONE>,
        AND => plain_avx2::<1, AND, ONE, ONE, ONE>,
        OR => plain_avx2::<1, OR, ONE, ONE, ONE>,
        XOR => plain_avx2::<1, XOR, ONE, ONE, ONE>,
        SHL => plain_avx2::<1, SHL, ONE, ONE, ONE>,
        SHR => plain_avx2::<1, SHR, ONE, ONE, ONE>,
        ASR => plain_avx2::<1, ASR, ONE, ONE, ONE>,
        FADD => plain_avx2::<1, FADD, ONE, ONE, ONE>,
        FMUL => plain_avx2::<1, FMUL, ONE, ONE, ONE>,
        MAD => plain_avx2::<1, MAD, ONE, ONE, ONE>,
        _ => plain_avx2::<1, FMAD, ONE, ONE, ONE>,
    })
}

/// The kernel for a classified instruction, `None` when it is not a plain operation (no
/// condition, `cmp`, `sel` or `csel`) on all channels of a 1-, 8-, 16- or 32-lane array with
/// a destination of consecutive DWords (one DWord for one channel), or the CPU lacks AVX2 +
/// FMA: the fast path's general loop runs it then, as before.
pub fn select(f: &Fast) -> Option<Kernel> {
    let op = match (f.num, f.op) {
        (_, FastOp::Mov) => MOV,
        (Num::Int, FastOp::Not) => NOT,
        (Num::Int, FastOp::Add) => ADD,
        (Num::Int, FastOp::Mul) => MUL,
        (Num::Int, FastOp::Mad) => MAD,
        (Num::Int, FastOp::And) => AND,
        (Num::Int, FastOp::Or) => OR,
        (Num::Int, FastOp::Xor) => XOR,
        (Num::Int, FastOp::Shl) => SHL,
        (Num::Int, FastOp::Shr) => SHR,
        (Num::Int, FastOp::Asr) => ASR,
        (Num::F32, FastOp::Add) => FADD,
        (Num::F32, FastOp::Mul) => FMUL,
        (Num::F32, FastOp::Mad) => FMAD,
        _ => return None,
    };
    let dword_row = f
        .dst
        .is_some_and(|d| f.dst_elem.size == 4 && (d.stride == 4 || f.n == 1));
    if f.cond.is_some() || !dword_row {
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
    select_for(f.n, op, forms)
}

#[cfg(target_arch = "x86_64")]
fn select_for(n: u8, op: u8, forms: [u8; 3]) -> Option<Kernel> {
    if !(std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma"))
    {
        return None;
    }
    let k = match n {
        1 => scalar(op, forms),
        8 => for_lanes::<8>(op, forms),
        16 => for_lanes::<16>(op, forms),
        32 => for_lanes::<32>(op, forms),
        _ => None,
    }?;
    Some(Kernel(k))
}

#[cfg(not(target_arch = "x86_64"))]
fn select_for(_: u8, _: u8, _: [u8; 3]) -> Option<Kernel> {
    None
}
