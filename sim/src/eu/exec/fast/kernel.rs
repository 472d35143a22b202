//! Pre-decoded executors for the word form's plain operations (no condition, `cmp`, `sel` or
//! `csel`; a destination; all channels of a 1-, 8-, 16- or 32-lane array): the operation, the
//! lane count and whether each source is a DWord row or one value are chosen once per kernel
//! ([`select`], from classification), so executing one is a call with no form matching.
//! Each kernel computes exactly what [`super::word_plain`] computes (and returns false, having
//! changed nothing, where that does); the fast-vs-general proptest runs through them.

use std::fmt;

use crate::eu::program::fast::{Fast, FastOp, FastSrc, Num, Src};
use crate::eu::regfile::Thread;

use super::{read, word_op, write_row};

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

/// One source's lanes: a row of `L` DWords (`ROW`) or one value for every lane.
struct Get<'a, const ROW: bool> {
    row: &'a [[u8; 4]],
    one: u32,
}

impl<'a, const ROW: bool> Get<'a, ROW> {
    #[inline(always)]
    fn new<const L: usize>(file: &'a [u8], s: &FastSrc) -> Option<Self> {
        if ROW {
            let Src::Region { base, .. } = s.at else {
                return None;
            };
            let row = file.get(usize::from(base)..)?.as_chunks::<4>().0.get(..L)?;
            Some(Get { row, one: 0 })
        } else {
            let one = match s.at {
                Src::Imm(v) => v,
                Src::Region { base, .. } => read(file, usize::from(base), s.elem),
                Src::Gather => return None,
            };
            Some(Get { row: &[], one })
        }
    }

    #[inline(always)]
    fn at(&self, i: usize) -> u32 {
        if ROW {
            u32::from_le_bytes(self.row[i])
        } else {
            self.one
        }
    }
}

#[inline(always)]
fn plain<const L: usize, const OP: u8, const RA: bool, const RB: bool, const RC: bool>(
    t: &mut Thread,
    f: &Fast,
    mask: u32,
) -> bool {
    let Some(d) = f.dst else {
        return false;
    };
    let file = &t.file[..];
    let (Some(a), Some(b), Some(c)) = (
        Get::<RA>::new::<L>(file, &f.src[0]),
        Get::<RB>::new::<L>(file, &f.src[1]),
        Get::<RC>::new::<L>(file, &f.src[2]),
    ) else {
        return false;
    };
    let (op, num) = op_of(OP);
    let Some(r) = word_op::<L>(op, num, |i| a.at(i), |i| b.at(i), |i| c.at(i)) else {
        return false;
    };
    let base = usize::from(d.base);
    let Some(out) = t.file.get_mut(base..base + 4 * L) else {
        return false;
    };
    write_row::<L>(out, r, mask);
    true
}

/// [`plain`] compiled for AVX2 + FMA (as `block_avx2` is): [`select`] hands these out only on
/// CPUs that have both.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn plain_avx2<const L: usize, const OP: u8, const RA: bool, const RB: bool, const RC: bool>(
    t: &mut Thread,
    f: &Fast,
    mask: u32,
) -> bool {
    plain::<L, OP, RA, RB, RC>(t, f, mask)
}

#[cfg(target_arch = "x86_64")]
fn unary<const L: usize, const OP: u8>(a: bool) -> KernelFn {
    match a {
        true => plain_avx2::<L, OP, true, false, false>,
        false => plain_avx2::<L, OP, false, false, false>,
    }
}

#[cfg(target_arch = "x86_64")]
fn binary<const L: usize, const OP: u8>(a: bool, b: bool) -> KernelFn {
    match (a, b) {
        (true, true) => plain_avx2::<L, OP, true, true, false>,
        (true, false) => plain_avx2::<L, OP, true, false, false>,
        (false, true) => plain_avx2::<L, OP, false, true, false>,
        (false, false) => plain_avx2::<L, OP, false, false, false>,
    }
}

#[cfg(target_arch = "x86_64")]
fn ternary<const L: usize, const OP: u8>(a: bool, b: bool, c: bool) -> KernelFn {
    match (a, b, c) {
        (true, true, true) => plain_avx2::<L, OP, true, true, true>,
        (true, true, false) => plain_avx2::<L, OP, true, true, false>,
        (true, false, true) => plain_avx2::<L, OP, true, false, true>,
        (true, false, false) => plain_avx2::<L, OP, true, false, false>,
        (false, true, true) => plain_avx2::<L, OP, false, true, true>,
        (false, true, false) => plain_avx2::<L, OP, false, true, false>,
        (false, false, true) => plain_avx2::<L, OP, false, false, true>,
        (false, false, false) => plain_avx2::<L, OP, false, false, false>,
    }
}

#[cfg(target_arch = "x86_64")]
fn for_lanes<const L: usize>(op: u8, r: [bool; 3]) -> KernelFn {
    let [a, b, c] = r;
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

/// The kernel for a classified instruction, `None` when it is not a plain word-form one with
/// all channels of a lane array, or the CPU lacks AVX2 + FMA (the fast path's general loop
/// runs it then, as before).
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
    if !f.word || f.cond.is_some() || f.dst.is_none() {
        return None;
    }
    let mut rows = [false; 3];
    for (r, s) in rows.iter_mut().zip(&f.src) {
        *r = match s.at {
            Src::Region { stride: 0, .. } | Src::Imm(_) => false,
            Src::Region { .. } => true,
            Src::Gather => return None,
        };
    }
    select_for(f.n, op, rows)
}

#[cfg(target_arch = "x86_64")]
fn select_for(n: u8, op: u8, rows: [bool; 3]) -> Option<Kernel> {
    if !(std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma"))
    {
        return None;
    }
    let k = match n {
        1 => for_lanes::<1>(op, rows),
        8 => for_lanes::<8>(op, rows),
        16 => for_lanes::<16>(op, rows),
        32 => for_lanes::<32>(op, rows),
        _ => return None,
    };
    Some(Kernel(k))
}

#[cfg(not(target_arch = "x86_64"))]
fn select_for(_: u8, _: u8, _: [bool; 3]) -> Option<Kernel> {
    None
}
