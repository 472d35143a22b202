//! The typed fast path: [`Fast`] instructions run on 32-bit lanes read straight from the
//! register file (one slice walk for consecutive lanes, one read for scalars), computed over a
//! fixed 32-lane array so the loops vectorise, and stored with the execution mask. Every
//! result equals the general path's (`alu::exec`); the tests run both on random instructions.

use crate::convert::f16_to_f32;
use crate::dataport::Memory;
use crate::lane_mask::lane_bits;
use crate::program::fast::forms::{
    extend, Elem, Fast, FastDst, FastOp, FastSrc, Kernel, Num, Sign, Src,
};
use crate::program::{Inst, Program};
use crate::regfile::Thread;
use crate::rounding::Rounding;

use isa_encoder::model::CondMod;

use super::alu::{cmp_f, cmp_int, cond_f, cond_int, sel_f, NanFirst};
use super::Flow;

/// Lane values; `L` (1, 8, 16 or 32) is the smallest that holds the instruction's channels.
type Lanes<const L: usize> = [u32; L];

/// Runs the fast-path instructions and the simple ones ([`super::Simple`]: quick sends, no-ops)
/// from `t.ip` on, up to `budget` of them, stopping at the first other instruction, at a send
/// whose quick form does not apply (left unexecuted), or after the end-of-thread message
/// (`t.ended` set). Each one counts and advances exactly as the run loop does. Returns how
/// many ran.
///
/// On x86-64 the loop exists once, compiled for AVX2 + FMA; a CPU without them runs none
/// (returns 0) and the run loop's general path executes everything. A second copy of the
/// loop compiled for baseline x86-64 doubled the loop's share of the crate's compile time
/// and ran on no machine the tests run on.
pub fn run_block(t: &mut Thread, prog: &Program, mem: &mut dyn Memory, budget: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if !kernel::has_avx2_fma() {
            return 0;
        }
        // SAFETY: `block_avx2` only requires the CPU to support AVX2 and FMA, checked just
        // above.
        unsafe { block_avx2(t, prog, mem, budget) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    block(t, prog, mem, budget)
}

/// The loop compiled for AVX2 + FMA: the lane loops become 8-wide vector code and `mad` a
/// fused multiply-add instruction instead of a library call per lane.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn block_avx2(t: &mut Thread, prog: &Program, mem: &mut dyn Memory, budget: u64) -> u64 {
    block(t, prog, mem, budget)
}

#[inline(always)]
fn block(t: &mut Thread, prog: &Program, mem: &mut dyn Memory, budget: u64) -> u64 {
    let mut ran = 0;
    while ran < budget {
        let ip = t.ip as usize;
        // The instruction itself is looked at only when its pre-decoded kernel does not run.
        let Some(f) = prog.fast.get(ip) else {
            break;
        };
        let inst = || prog.insts.get(ip);
        match f {
            Some(f) => {
                match f.kernel {
                    Some(k) if run_kernel(t, f, k) => {}
                    _ => {
                        let Some(inst) = inst() else {
                            break;
                        };
                        exec_body(t, f, inst);
                    }
                }
                t.executed += 1;
            }
            None => {
                let Some(Some(s)) = prog.simple.get(ip) else {
                    break;
                };
                match super::run_simple(t, s, mem) {
                    Some(Flow::Next) => t.executed += 1,
                    Some(Flow::Ended) => {
                        // As the run loop: counted, not advanced.
                        t.executed += 1;
                        return ran + 1;
                    }
                    _ => break,
                }
            }
        }
        super::advance(t);
        ran += 1;
    }
    ran
}

/// Runs `f`'s pre-decoded kernel with the enabled and the predicated channels; false, having
/// changed nothing, when it does not apply.
#[inline(always)]
fn run_kernel(t: &mut Thread, f: &Fast, k: Kernel) -> bool {
    let (enabled, pred) = super::masks(t, &f.ch);
    // SAFETY: `kernel::select` hands out kernels only when the CPU has the target features
    // they were compiled for (AVX2 and FMA).
    unsafe { (k.0)(t, f, enabled, pred) }
}

/// Picks the lane array length for the instruction's channel count. Scalar instructions
/// (IGC's `(1|M0)` address, flag and loop-counter arithmetic) get their own one-lane form.
#[inline(always)]
fn exec_body(t: &mut Thread, f: &Fast, inst: &Inst) {
    if f.op == FastOp::Keep {
        return;
    }
    match f.ch.n {
        0..=1 => exec_lanes::<1>(t, f, inst),
        2..=8 => exec_lanes::<8>(t, f, inst),
        9..=16 => exec_lanes::<16>(t, f, inst),
        _ => exec_lanes::<32>(t, f, inst),
    }
}

#[inline(always)]
fn exec_lanes<const L: usize>(t: &mut Thread, f: &Fast, inst: &Inst) {
    let (enabled, pred) = super::masks(t, &f.ch);
    let rot = f.ch.flag_rot();
    let n = usize::from(f.ch.n);
    if f.word && n == L && word::<L>(t, f, enabled, pred) {
        return;
    }
    // Each source read once, before the operation's match: a read per arm of the match
    // inlined the region reader a dozen times per lane count.
    let src = |k: usize| load::<L>(t, &f.src[k], inst, k, n);
    let a = src(0);
    let b = if arity(f.op) >= 2 { src(1) } else { [0; L] };
    let c = if arity(f.op) == 3 { src(2) } else { [0; L] };
    let (flags, store_mask, r) = match f.num {
        Num::Int => int_op(f, n, [&a, &b, &c], enabled, pred),
        Num::F32 => f32_op(f, n, [&a, &b, &c], enabled, pred),
        Num::Half => half_op(f, [&a, &b, &c], enabled, pred),
    };
    if let Some((mask, bits)) = flags {
        let m = u64::from(mask).rotate_left(rot);
        let v = u64::from(bits).rotate_left(rot);
        let old = t.flags();
        t.set_flags((old & !m) | (v & m));
    }
    if let Some(d) = f.dst {
        store(&mut t.file, d, f.dst_elem.size, n, store_mask, &r);
    }
}

/// The sources an operation reads (`mov`, `not`: 1; `mad`, `csel`: 3; otherwise 2).
pub const fn arity(op: FastOp) -> usize {
    match op {
        FastOp::Mov | FastOp::Not | FastOp::Keep => 1,
        FastOp::Mad | FastOp::Add3 | FastOp::Csel => 3,
        _ => 2,
    }
}

/// The row of `L` DWords at byte `base`.
#[inline(always)]
fn row<const L: usize>(file: &[u8], base: usize) -> Option<Lanes<L>> {
    let b = file.get(base..base + 4 * L)?;
    let mut r = [0u32; L];
    for (o, c) in r.iter_mut().zip(b.chunks_exact(4)) {
        *o = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    Some(r)
}

/// A word-form source's lanes: a row of `L` DWords, or one value for every lane.
#[inline(always)]
fn word_src<const L: usize>(file: &[u8], s: &FastSrc) -> Option<Lanes<L>> {
    let v = match s.at {
        Src::Imm(v) => [v; L],
        Src::Region { base, stride: 0 } => [read(file, usize::from(base), s.elem); L],
        Src::Region { base, .. } => row(file, usize::from(base))?,
        Src::Gather => return None,
    };
    Some(signed(s.sign, v))
}

/// `v` with the source modifier `sign` applied (one branch per source, none per lane).
#[inline(always)]
fn signed<const L: usize>(sign: Sign, v: Lanes<L>) -> Lanes<L> {
    if sign == Sign::NONE {
        v
    } else {
        v.map(|x| sign.apply(x))
    }
}

/// Lane results of a word-form operation, `None` for an operation it does not cover.
// Indexed loops over the constant `L`, as in the rest of this file: the form the measured
// vector code came from.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn word_op<const L: usize>(
    op: FastOp,
    num: Num,
    a: impl Fn(usize) -> u32,
    b: impl Fn(usize) -> u32,
    c: impl Fn(usize) -> u32,
) -> Option<Lanes<L>> {
    let f = f32::from_bits;
    let mut r = [0u32; L];
    match (num, op) {
        (_, FastOp::Mov) => {
            for i in 0..L {
                r[i] = a(i);
            }
        }
        (Num::Int, FastOp::Not) => {
            for i in 0..L {
                r[i] = !a(i);
            }
        }
        (Num::Int, FastOp::Add) => {
            for i in 0..L {
                r[i] = a(i).wrapping_add(b(i));
            }
        }
        (Num::Int, FastOp::Mul) => {
            for i in 0..L {
                r[i] = a(i).wrapping_mul(b(i));
            }
        }
        (Num::Int, FastOp::Mad) => {
            for i in 0..L {
                r[i] = a(i).wrapping_add(b(i).wrapping_mul(c(i)));
            }
        }
        (Num::Int, FastOp::Add3) => {
            for i in 0..L {
                r[i] = a(i).wrapping_add(b(i)).wrapping_add(c(i));
            }
        }
        (Num::Int, FastOp::And) => {
            for i in 0..L {
                r[i] = a(i) & b(i);
            }
        }
        (Num::Int, FastOp::Or) => {
            for i in 0..L {
                r[i] = a(i) | b(i);
            }
        }
        (Num::Int, FastOp::Xor) => {
            for i in 0..L {
                r[i] = a(i) ^ b(i);
            }
        }
        (Num::Int, FastOp::Shl) => {
            for i in 0..L {
                r[i] = a(i) << (b(i) & 31);
            }
        }
        (Num::Int, FastOp::Shr) => {
            for i in 0..L {
                r[i] = a(i) >> (b(i) & 31);
            }
        }
        (Num::Int, FastOp::Asr) => {
            for i in 0..L {
                r[i] = ((a(i) as i32) >> (b(i) & 31)) as u32;
            }
        }
        // IEEE results first, then the NaN rule only for a row that has a NaN: add, mul and
        // fma give NaN whenever a source is one, so a row without NaN results had none.
        (Num::F32, FastOp::Add) => {
            for i in 0..L {
                r[i] = (f(a(i)) + f(b(i))).to_bits();
            }
            if any_nan(&r) {
                for i in 0..L {
                    r[i] = f(a(i)).nan_first(f(b(i)), f(a(i)) + f(b(i))).to_bits();
                }
            }
        }
        (Num::F32, FastOp::Mul) => {
            for i in 0..L {
                r[i] = (f(a(i)) * f(b(i))).to_bits();
            }
            if any_nan(&r) {
                for i in 0..L {
                    r[i] = f(a(i)).nan_first(f(b(i)), f(a(i)) * f(b(i))).to_bits();
                }
            }
        }
        (Num::F32, FastOp::Mad) => {
            for i in 0..L {
                r[i] = f(b(i)).mul_add(f(c(i)), f(a(i))).to_bits();
            }
            if any_nan(&r) {
                for i in 0..L {
                    r[i] = f(a(i))
                        .nan_first3(f(b(i)), f(c(i)), f(b(i)).mul_add(f(c(i)), f(a(i))))
                        .to_bits();
                }
            }
        }
        _ => return None,
    }
    Some(r)
}

/// Whether any lane holds an f32 NaN (one OR over the row, so it vectorises).
#[inline(always)]
fn any_nan<const L: usize>(r: &Lanes<L>) -> bool {
    r.iter()
        .fold(false, |any, &v| any | (v & 0x7fff_ffff > 0x7f80_0000))
}

/// The lanes for which `p` holds, as a mask.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn lanes_where<const L: usize>(p: impl Fn(usize) -> bool) -> u32 {
    let mut m = 0u32;
    for i in 0..L {
        m |= u32::from(p(i)) << i;
    }
    m
}

/// `cmp_int` of two rows of 32-bit integers of the same signedness (`bias` flips the sign bit
/// of unsigned values, which orders them as signed ones), one loop per condition.
#[inline(always)]
fn int_cmp_row<const L: usize>(
    c: CondMod,
    bias: u32,
    a: impl Fn(usize) -> u32,
    b: impl Fn(usize) -> u32,
) -> u32 {
    let x = |i: usize| (a(i) ^ bias) as i32;
    let y = |i: usize| (b(i) ^ bias) as i32;
    match c {
        CondMod::Eq => lanes_where::<L>(|i| x(i) == y(i)),
        CondMod::Ne => lanes_where::<L>(|i| x(i) != y(i)),
        CondMod::Gt => lanes_where::<L>(|i| x(i) > y(i)),
        CondMod::Ge => lanes_where::<L>(|i| x(i) >= y(i)),
        CondMod::Lt => lanes_where::<L>(|i| x(i) < y(i)),
        CondMod::Le => lanes_where::<L>(|i| x(i) <= y(i)),
        CondMod::Ov | CondMod::Un | CondMod::Eo => 0,
    }
}

/// `cmp_f` (and `cmpn`'s NaN rule) of two rows of `:f`, one loop per condition.
#[inline(always)]
fn f32_cmp_row<const L: usize>(
    c: CondMod,
    nan_true: bool,
    a: impl Fn(usize) -> u32,
    b: impl Fn(usize) -> u32,
) -> u32 {
    let x = |i: usize| f32::from_bits(a(i));
    let y = |i: usize| f32::from_bits(b(i));
    let bits = match c {
        CondMod::Eq => lanes_where::<L>(|i| x(i) == y(i)),
        CondMod::Ne => lanes_where::<L>(|i| x(i) != y(i)),
        CondMod::Gt => lanes_where::<L>(|i| x(i) > y(i)),
        CondMod::Ge => lanes_where::<L>(|i| x(i) >= y(i)),
        CondMod::Lt => lanes_where::<L>(|i| x(i) < y(i)),
        CondMod::Le => lanes_where::<L>(|i| x(i) <= y(i)),
        CondMod::Un => lanes_where::<L>(|i| x(i).is_nan() || y(i).is_nan()),
        CondMod::Ov | CondMod::Eo => 0,
    };
    if nan_true {
        bits | lanes_where::<L>(|i| y(i).is_nan())
    } else {
        bits
    }
}

/// The condition modifier's flag bits of a row of results as the 32-bit destination type
/// holds them (`cond_int` / `cond_f` on each lane), one loop per condition.
#[inline(always)]
fn cond_row<const L: usize>(c: CondMod, num: Num, signed: bool, r: &Lanes<L>) -> u32 {
    match num {
        Num::Int => {
            // Unsigned values ordered as signed ones against zero's biased form.
            let bias = if signed { 0 } else { 0x8000_0000 };
            int_cmp_row::<L>(c, bias, |i| r[i], |_| 0)
        }
        Num::F32 => {
            let v = |i: usize| f32::from_bits(r[i]);
            match c {
                CondMod::Eq => lanes_where::<L>(|i| v(i) == 0.0),
                CondMod::Ne => lanes_where::<L>(|i| v(i) != 0.0),
                CondMod::Gt => lanes_where::<L>(|i| v(i) > 0.0),
                CondMod::Ge => lanes_where::<L>(|i| v(i) >= 0.0),
                CondMod::Lt => lanes_where::<L>(|i| v(i) < 0.0),
                CondMod::Le => lanes_where::<L>(|i| v(i) <= 0.0),
                CondMod::Ov => lanes_where::<L>(|i| v(i).is_infinite()),
                CondMod::Un => lanes_where::<L>(|i| v(i).is_nan()),
                CondMod::Eo => 0,
            }
        }
        // Half results have no word form ([`word`] and the kernels refuse them).
        Num::Half => 0,
    }
}

/// The lanes for which a word-form `cmp` or conditional `sel` compares true, `None` for
/// integer sources of different signedness (the typed path compares those).
#[inline(always)]
fn word_cmp<const L: usize>(
    f: &Fast,
    c: CondMod,
    nan_true: bool,
    a: impl Fn(usize) -> u32,
    b: impl Fn(usize) -> u32,
) -> Option<u32> {
    match f.num {
        Num::F32 => Some(f32_cmp_row::<L>(c, nan_true, a, b)),
        Num::Int if f.src[0].elem.signed == f.src[1].elem.signed => {
            let bias = if f.src[0].elem.signed { 0 } else { 0x8000_0000 };
            Some(int_cmp_row::<L>(c, bias, a, b))
        }
        Num::Int | Num::Half => None,
    }
}

/// Lane i is `a(i)` where `pick` has bit i, else `b(i)`.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn pick_row<const L: usize>(
    pick: u32,
    a: impl Fn(usize) -> u32,
    b: impl Fn(usize) -> u32,
) -> Lanes<L> {
    let mut r = [0u32; L];
    for i in 0..L {
        // All ones where `pick` has bit i: a blend without a branch per lane.
        let take = 0u32.wrapping_sub(pick >> i & 1);
        r[i] = (a(i) & take) | (b(i) & !take);
    }
    r
}

/// The word form ([`Fast::word`]) with all `L` channels: every source read as a whole row or
/// one value, the result computed and written back as one row (lanes outside the store mask
/// keep their bytes), and a condition modifier's or `cmp`'s flag bits computed from the row.
/// Returns false, having changed nothing, when it does not apply.
#[inline(always)]
fn word<const L: usize>(t: &mut Thread, f: &Fast, enabled: u32, pred: u32) -> bool {
    if f.num == Num::Half {
        return false;
    }
    let mask = enabled & pred;
    if f.cond.is_none() && !matches!(f.op, FastOp::Cmp { .. } | FastOp::Sel | FastOp::Csel) {
        return word_plain::<L>(t, f, mask);
    }
    let file = &t.file[..];
    let (Some(a), Some(b), Some(c)) = (
        word_src::<L>(file, &f.src[0]),
        word_src::<L>(file, &f.src[1]),
        word_src::<L>(file, &f.src[2]),
    ) else {
        return false;
    };
    // (result row, flag bits for the lanes in `mask`, lanes the row is stored to)
    let (r, flags, store_mask) = match f.op {
        FastOp::Cmp { nan_true } => {
            let c = f.cond.unwrap_or(CondMod::Eq);
            let Some(bits) = word_cmp::<L>(f, c, nan_true, |i| a[i], |i| b[i]) else {
                return false;
            };
            (pick_row::<L>(bits, |_| u32::MAX, |_| 0), Some(bits), mask)
        }
        FastOp::Sel => {
            let pick = match f.cond {
                Some(c) if f.num == Num::F32 => Some(lanes_where::<L>(|i| {
                    let (x, y) = (f32::from_bits(a[i]), f32::from_bits(b[i]));
                    sel_f(c, f64::from(x), f64::from(y))
                })),
                Some(c) => word_cmp::<L>(f, c, false, |i| a[i], |i| b[i]),
                None => Some(pred),
            };
            let Some(pick) = pick else {
                return false;
            };
            let r = pick_row::<L>(pick, |i| a[i], |i| b[i]);
            (r, None, enabled)
        }
        FastOp::Csel | FastOp::Keep => return false,
        op => {
            let Some(r) = word_op::<L>(op, f.num, |i| a[i], |i| b[i], |i| c[i]) else {
                return false;
            };
            let flags = f
                .cond
                .map(|c| cond_row::<L>(c, f.num, f.dst_elem.signed, &r));
            (r, flags, mask)
        }
    };
    commit::<L>(t, f, r, flags.map(|bits| (mask, bits)), store_mask)
}

/// Writes a word-form result: the flag bits `(lanes, bits)` into the instruction's flag
/// register, then the row `r` to the destination's lanes in `store_mask`. False, with nothing
/// written, where the row would leave the register file.
#[inline(always)]
fn commit<const L: usize>(
    t: &mut Thread,
    f: &Fast,
    r: Lanes<L>,
    flags: Option<(u32, u32)>,
    store_mask: u32,
) -> bool {
    let at = f.dst.map(|d| usize::from(d.base));
    if at.is_some_and(|base| t.file.get(base..base + 4 * L).is_none()) {
        return false;
    }
    if let Some((mask, bits)) = flags {
        let rot = f.ch.flag_rot();
        let m = u64::from(mask).rotate_left(rot);
        let v = u64::from(bits).rotate_left(rot);
        let old = t.flags();
        t.set_flags((old & !m) | (v & m));
    }
    if let Some(out) = at.and_then(|base| t.file.get_mut(base..base + 4 * L)) {
        write_row::<L>(out, r, store_mask);
    }
    true
}

/// The word form of an operation without condition, comparison or selection (the ALU mix
/// of straight-line code): kept apart from [`word`] so that its result row stays in
/// registers (returned through the general form's tuple it went through memory, +20 %
/// host instructions on `eu_alu` under callgrind).
#[inline(always)]
fn word_plain<const L: usize>(t: &mut Thread, f: &Fast, mask: u32) -> bool {
    let Some(d) = f.dst else {
        return false;
    };
    let file = &t.file[..];
    let (Some(a), Some(b), Some(c)) = (
        word_src::<L>(file, &f.src[0]),
        word_src::<L>(file, &f.src[1]),
        word_src::<L>(file, &f.src[2]),
    ) else {
        return false;
    };
    let Some(r) = word_op::<L>(f.op, f.num, |i| a[i], |i| b[i], |i| c[i]) else {
        return false;
    };
    store_row::<L>(t, usize::from(d.base), r, mask)
}

/// Stores the row `r` at register-file byte `base`; false, with nothing written, where the
/// row would leave the register file (the caller's slower path then reports it).
#[inline(always)]
fn store_row<const L: usize>(t: &mut Thread, base: usize, r: Lanes<L>, mask: u32) -> bool {
    let Some(out) = t.file.get_mut(base..base + 4 * L) else {
        return false;
    };
    write_row::<L>(out, r, mask);
    true
}

/// Stores the row `r` to `out` (`4 * L` bytes); lanes outside `mask` keep their bytes.
#[inline(always)]
fn write_row<const L: usize>(out: &mut [u8], mut r: Lanes<L>, mask: u32) {
    // As an array of `L` DWords: with a length known at compile time the row is stored with
    // vector moves (over a slice of unknown length it was a call to libc's memmove per
    // instruction, 4 % of a ResNet's time).
    let Some(out) = out.as_chunks_mut::<4>().0.first_chunk_mut::<L>() else {
        return;
    };
    if mask & lane_bits(L as u8) != lane_bits(L as u8) {
        // Without a branch per lane, so that it vectorises: a divergent loop's rows are
        // mostly partial (a per-lane `if` here was 9 % of `branchy`'s host instructions).
        for (i, (v, c)) in r.iter_mut().zip(out.iter()).enumerate() {
            let keep = (mask >> i & 1).wrapping_sub(1);
            *v = (*v & !keep) | (u32::from_le_bytes(*c) & keep);
        }
    }
    *out = r.map(u32::to_le_bytes);
}

type Outcome<const L: usize> = (Option<(u32, u32)>, u32, Lanes<L>);

/// Condition-modifier flag bits of integer results, tested as the destination type holds them.
#[inline(always)]
fn int_cond_bits<const L: usize>(f: &Fast, n: usize, r: &Lanes<L>) -> Option<u32> {
    let c = f.cond?;
    let e = f.dst_elem;
    let mut bits = 0u32;
    for (i, &v) in r.iter().enumerate().take(n) {
        let v = extend(v, e);
        let v = if e.signed {
            i64::from(v as i32)
        } else {
            i64::from(v)
        };
        bits |= u32::from(cond_int(c, v)) << i;
    }
    Some(bits)
}

#[inline(always)]
fn to_i64(v: u32, e: Elem) -> i64 {
    if e.signed {
        i64::from(v as i32)
    } else {
        i64::from(v)
    }
}

#[inline(always)]
fn zip2<const L: usize>(a: &Lanes<L>, b: &Lanes<L>, op: impl Fn(u32, u32) -> u32) -> Lanes<L> {
    let mut r = [0u32; L];
    for i in 0..L {
        r[i] = op(a[i], b[i]);
    }
    r
}

#[inline(always)]
fn int_op<const L: usize>(
    f: &Fast,
    n: usize,
    [a, b, c]: [&Lanes<L>; 3],
    enabled: u32,
    pred: u32,
) -> Outcome<L> {
    let mask = enabled & pred;
    let r = match f.op {
        FastOp::Mov => *a,
        FastOp::Not => {
            let mut r = [0u32; L];
            for i in 0..L {
                r[i] = !a[i];
            }
            r
        }
        FastOp::Add => zip2(a, b, u32::wrapping_add),
        FastOp::Mul => zip2(a, b, u32::wrapping_mul),
        FastOp::And => zip2(a, b, |x, y| x & y),
        FastOp::Or => zip2(a, b, |x, y| x | y),
        FastOp::Xor => zip2(a, b, |x, y| x ^ y),
        FastOp::Shl => zip2(a, b, |x, y| x << (y & 31)),
        FastOp::Shr => zip2(a, b, |x, y| x >> (y & 31)),
        FastOp::Asr => zip2(a, b, |x, y| ((x as i32) >> (y & 31)) as u32),
        FastOp::IntDiv { rem, unsigned } => {
            zip2(a, b, |x, y| super::alu::int_div32(x, y, rem, unsigned))
        }
        FastOp::Mad => {
            let mut r = [0u32; L];
            for i in 0..L {
                r[i] = a[i].wrapping_add(b[i].wrapping_mul(c[i]));
            }
            r
        }
        FastOp::Add3 => {
            let mut r = [0u32; L];
            for i in 0..L {
                r[i] = a[i].wrapping_add(b[i]).wrapping_add(c[i]);
            }
            r
        }
        FastOp::Cmp { .. } => {
            let c = f.cond.unwrap_or(isa_encoder::model::CondMod::Eq);
            let (ea, eb) = (f.src[0].elem, f.src[1].elem);
            let mut bits = 0u32;
            for i in 0..n {
                bits |= u32::from(cmp_int(c, to_i64(a[i], ea), to_i64(b[i], eb), false)) << i;
            }
            let r = blend(bits, &[u32::MAX; L], &[0; L]);
            return (Some((mask, bits)), mask, r);
        }
        FastOp::Sel => {
            let pick = match f.cond {
                Some(c) => {
                    let (ea, eb) = (f.src[0].elem, f.src[1].elem);
                    let mut bits = 0u32;
                    for i in 0..n {
                        bits |=
                            u32::from(cmp_int(c, to_i64(a[i], ea), to_i64(b[i], eb), false)) << i;
                    }
                    bits
                }
                None => pred,
            };
            let r = blend(pick, a, b);
            return (None, enabled, r);
        }
        // Stores nothing (`exec_body` returns before it gets here).
        FastOp::Keep => return (None, 0, [0; L]),
        FastOp::Csel => {
            let z = c;
            let c = f.cond.unwrap_or(isa_encoder::model::CondMod::Eq);
            let ez = f.src[2].elem;
            let mut pick = 0u32;
            for (i, &v) in z.iter().enumerate().take(n) {
                pick |= u32::from(cond_int(c, to_i64(v, ez))) << i;
            }
            return (None, enabled, blend(pick, a, b));
        }
    };
    let flags = int_cond_bits(f, n, &r).map(|bits| (mask, bits));
    (flags, mask, r)
}

#[inline(always)]
fn f32_lanes<const L: usize>(v: &Lanes<L>) -> [f32; L] {
    let mut r = [0f32; L];
    for i in 0..L {
        r[i] = f32::from_bits(v[i]);
    }
    r
}

#[inline(always)]
fn f32_bits<const L: usize>(v: &[f32; L]) -> Lanes<L> {
    let mut r = [0u32; L];
    for i in 0..L {
        r[i] = v[i].to_bits();
    }
    r
}

/// Lane i is `x[i]` where `pick` has bit i, else `y[i]`.
#[inline(always)]
fn blend<const L: usize>(pick: u32, x: &Lanes<L>, y: &Lanes<L>) -> Lanes<L> {
    let mut r = [0u32; L];
    for i in 0..L {
        r[i] = if pick >> i & 1 != 0 { x[i] } else { y[i] };
    }
    r
}

#[inline(always)]
fn f32_op<const L: usize>(
    f: &Fast,
    n: usize,
    [a, b, c]: [&Lanes<L>; 3],
    enabled: u32,
    pred: u32,
) -> Outcome<L> {
    let mask = enabled & pred;
    let x = f32_lanes(a);
    let r: [f32; L] = match f.op {
        FastOp::Mov => return (float_cond(f, n, &x).map(|b| (mask, b)), mask, *a),
        FastOp::Add => {
            let y = f32_lanes(b);
            let mut r = [0f32; L];
            for i in 0..L {
                r[i] = x[i].nan_first(y[i], x[i] + y[i]);
            }
            r
        }
        FastOp::Mul => {
            let y = f32_lanes(b);
            let mut r = [0f32; L];
            for i in 0..L {
                r[i] = x[i].nan_first(y[i], x[i] * y[i]);
            }
            r
        }
        FastOp::Mad => {
            let (y, z) = (f32_lanes(b), f32_lanes(c));
            let mut r = [0f32; L];
            for i in 0..L {
                r[i] = x[i].nan_first3(y[i], z[i], y[i].mul_add(z[i], x[i]));
            }
            r
        }
        FastOp::Cmp { nan_true } => {
            let c = f.cond.unwrap_or(isa_encoder::model::CondMod::Eq);
            let y = f32_lanes(b);
            let mut bits = 0u32;
            for i in 0..n {
                let (p, q) = (f64::from(x[i]), f64::from(y[i]));
                let v = (nan_true && q.is_nan()) || cmp_f(c, p, q);
                bits |= u32::from(v) << i;
            }
            let r = blend(bits, &[u32::MAX; L], &[0; L]);
            return (Some((mask, bits)), mask, r);
        }
        FastOp::Sel => {
            let pick = match f.cond {
                Some(c) => {
                    let y = f32_lanes(b);
                    let mut bits = 0u32;
                    for i in 0..n {
                        bits |= u32::from(sel_f(c, f64::from(x[i]), f64::from(y[i]))) << i;
                    }
                    bits
                }
                None => pred,
            };
            let r = blend(pick, a, b);
            return (None, enabled, r);
        }
        FastOp::Keep => return (None, 0, [0; L]),
        FastOp::Csel => {
            let z = f32_lanes(c);
            let c = f.cond.unwrap_or(isa_encoder::model::CondMod::Eq);
            let mut pick = 0u32;
            for (i, &v) in z.iter().enumerate().take(n) {
                pick |= u32::from(cond_f(c, f64::from(v))) << i;
            }
            return (None, enabled, blend(pick, a, b));
        }
        // Classification keeps logic, shifts, `add3` and division in the integer domain.
        FastOp::Not
        | FastOp::Add3
        | FastOp::And
        | FastOp::Or
        | FastOp::Xor
        | FastOp::Shl
        | FastOp::Shr
        | FastOp::Asr
        | FastOp::IntDiv { .. } => x,
    };
    let flags = float_cond(f, n, &r).map(|b| (mask, b));
    (flags, mask, f32_bits(&r))
}

/// [`Num::Half`] lanes: [`half_results`] in the enabled and predicated channels; `sel`'s
/// ([`half_sel`]) in the enabled ones, as the general path's `sel` writes.
#[inline(always)]
fn half_op<const L: usize>(f: &Fast, src: [&Lanes<L>; 3], enabled: u32, pred: u32) -> Outcome<L> {
    let hf = [0, 1, 2].map(|k| f.src[k].elem.size == 2);
    if f.op == FastOp::Sel {
        let [a, b, _] = src;
        return (
            None,
            enabled,
            half_sel(f.cond, pred, [hf[0], hf[1]], [a, b]),
        );
    }
    (None, enabled & pred, half_results(f.op, hf, src))
}

/// `sel` to `:hf` on `L` lanes of `a` and `b` (source k `:hf` where `hf[k]`, else `:f`): with
/// a condition, `a` where `a cond b` holds (the general path's comparison, NaN rules
/// included), else `b`; without one, `a` in the channels of `pred`. The picked value
/// rounded to half as a `mov` rounds it (exact for a `:hf` source).
pub fn half_sel<const L: usize>(
    cond: Option<CondMod>,
    pred: u32,
    hf: [bool; 2],
    [a, b]: [&Lanes<L>; 2],
) -> Lanes<L> {
    let pick = match cond {
        // Two halves compare as their sign-magnitude bits ordered as integers (both zeros
        // alike), a NaN as `sel_f` has it: the common case (a ReLU's `sel.ge x 0.0`) without
        // widening each lane.
        Some(c) if hf == [true, true] => {
            let nan = crate::convert::f16_is_nan;
            let key = |h: u32| {
                let magnitude = crate::convert::F16_MAGNITUDE;
                let m = (h & u32::from(magnitude)) as i32;
                if h & u32::from(!magnitude) != 0 {
                    -m
                } else {
                    m
                }
            };
            lanes_where::<L>(|i| match (nan(a[i]), nan(b[i])) {
                // The keys are exact in double precision: the general path's comparison.
                (false, false) => cmp_f(c, f64::from(key(a[i])), f64::from(key(b[i]))),
                (x, y) => sel_f(
                    c,
                    if x { f64::NAN } else { 0.0 },
                    if y { f64::NAN } else { 0.0 },
                ),
            })
        }
        Some(c) => {
            let wide = |v: u32, half: bool| {
                if half {
                    f64::from(f16_to_f32(v as u16))
                } else {
                    f64::from(f32::from_bits(v))
                }
            };
            lanes_where::<L>(|i| sel_f(c, wide(a[i], hf[0]), wide(b[i], hf[1])))
        }
        None => pred,
    };
    let zero = [0; L];
    let x = half_results(FastOp::Mov, [hf[0], false, false], [a, &zero, &zero]);
    let y = half_results(FastOp::Mov, [hf[1], false, false], [b, &zero, &zero]);
    blend(pick, &x, &y)
}

/// The half results of `op` (`mov`, `add`, `mul` or `mad`: the operations
/// [`Num::Half`] covers; zeros for others) on `L` lanes of `a`, `b`, `c`, source k `:hf`
/// (each lane's low 16 bits) where `hf[k]`, else `:f`: each result in its lane's low 16
/// bits. The sources widened exactly, the result rounded to half with the general path's
/// `Rounding::to_f16`; eight lanes at a time with the host's half conversions where the CPU
/// has them (`half_simd`, the same bits). Public so that translated code rounds exactly as
/// the interpreter does.
#[inline(always)]
pub fn half_results<const L: usize>(
    op: FastOp,
    hf: [bool; 3],
    [a, b, c]: [&Lanes<L>; 3],
) -> Lanes<L> {
    #[cfg(target_arch = "x86_64")]
    if L.is_multiple_of(8)
        && half_simd::available()
        && matches!(op, FastOp::Mov | FastOp::Add | FastOp::Mul | FastOp::Mad)
    {
        // SAFETY: `available` checked AVX2, FMA and F16C.
        return unsafe { half_simd::lanes::<L>(op, hf, [a, b, c]) };
    }
    let wide = |v: &Lanes<L>, half: bool| -> [f32; L] {
        v.map(|x| {
            if half {
                f16_to_f32(x as u16)
            } else {
                f32::from_bits(x)
            }
        })
    };
    let round = |v: f64| u32::from(Rounding::NearestEven.to_f16(v));
    let x = wide(a, hf[0]);
    let mut r = [0u32; L];
    match op {
        FastOp::Mov => {
            for i in 0..L {
                r[i] = round(f64::from(x[i]));
            }
        }
        FastOp::Add | FastOp::Mul => {
            let y = wide(b, hf[1]);
            let add = op == FastOp::Add;
            for i in 0..L {
                let v = if add { x[i] + y[i] } else { x[i] * y[i] };
                r[i] = round(f64::from(x[i].nan_first(y[i], v)));
            }
        }
        FastOp::Mad => {
            let (y, z) = (wide(b, hf[1]), wide(c, hf[2]));
            for i in 0..L {
                let (p, q, s) = (f64::from(x[i]), f64::from(y[i]), f64::from(z[i]));
                r[i] = round(p.nan_first3(q, s, q.mul_add(s, p)));
            }
        }
        // Classification gives half results to these four operations only.
        _ => {}
    }
    r
}

/// Bytes of one lane of a [`half_results_packed`] source: `:hf` or `:f`.
const fn packed_lane_bytes(hf: bool) -> usize {
    if hf {
        2
    } else {
        4
    }
}

/// Bytes of a group of eight lanes of a [`half_results_packed`] source.
pub const fn packed_group_bytes(hf: bool) -> usize {
    8 * packed_lane_bytes(hf)
}

/// [`half_results`] on sources laid out as translated code passes them: source k's lane i at
/// bytes `2i..2i + 2` of `src[k]` where `hf[k]` (a packed `:hf` row), else at `4i..4i + 4`
/// (`:f`); `groups` groups of eight lanes (at most 4, and no more than every source read
/// holds and `out` has room for). Lane i's half result is written to `out[i]`; returns the
/// groups written. `out` may be uninitialized memory (translated code's stack).
pub fn half_results_packed(
    op: FastOp,
    hf: [bool; 3],
    groups: usize,
    src: [&[u8]; 3],
    out: &mut [std::mem::MaybeUninit<u16>],
) -> usize {
    #[cfg(target_arch = "x86_64")]
    if half_simd::available() {
        // SAFETY: `available` checked AVX2, FMA and F16C.
        return unsafe { half_simd::packed(op, hf, groups, src, out) };
    }
    packed_by_lanes(op, hf, groups, src, out)
}

/// Whether [`half_results_packed_fixed`] may be called: the CPU has AVX2, FMA and F16C.
pub fn half_results_fixed_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    return half_simd::available();
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// The operations of [`half_results_packed_fixed`]'s `OP`, by index.
pub const HALF_FIXED_OPS: [FastOp; 4] = [FastOp::Mov, FastOp::Add, FastOp::Mul, FastOp::Mad];

/// [`half_results_packed`] of `HALF_FIXED_OPS[OP]` with source k `:hf` where bit k of `HF` is
/// set: the same results, compiled for that one operation and source layout (translated
/// code calls it per instruction, and the general form's choices and checks cost about as
/// much as an f16 convolution's arithmetic).
///
/// # Safety
/// [`half_results_fixed_available`] is true.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2,fma,f16c")]
pub unsafe fn half_results_packed_fixed<const OP: usize, const HF: u8>(
    groups: usize,
    src: [&[u8]; 3],
    out: &mut [std::mem::MaybeUninit<u16>],
) -> usize {
    half_simd::packed_fixed::<OP, HF>(groups, src, out)
}

/// [`half_results_packed`] through [`half_results`]' per-lane loop: on CPUs without F16C.
fn packed_by_lanes(
    op: FastOp,
    hf: [bool; 3],
    groups: usize,
    src: [&[u8]; 3],
    out: &mut [std::mem::MaybeUninit<u16>],
) -> usize {
    let held = (0..arity(op))
        .map(|k| src[k].len() / packed_group_bytes(hf[k]))
        .fold(groups.min(4).min(out.len() / 8), usize::min);
    let lanes = |k: usize| -> [u32; 32] {
        let e = Elem {
            size: packed_lane_bytes(hf[k]) as u8,
            signed: false,
        };
        std::array::from_fn(|i| read(src[k], i * usize::from(e.size), e))
    };
    let r = half_results::<32>(op, hf, [&lanes(0), &lanes(1), &lanes(2)]);
    for (o, &v) in out.iter_mut().zip(&r).take(8 * held) {
        o.write(v as u16);
    }
    held
}

#[inline(always)]
fn float_cond<const L: usize>(f: &Fast, n: usize, r: &[f32; L]) -> Option<u32> {
    let c = f.cond?;
    let mut bits = 0u32;
    for (i, &v) in r.iter().enumerate().take(n) {
        bits |= u32::from(cond_f(c, f64::from(v))) << i;
    }
    Some(bits)
}

/// One element at byte `o`, extended to 32 bits (zero if outside the file, which
/// classification already ruled out).
#[inline(always)]
fn read(b: &[u8], o: usize, e: Elem) -> u32 {
    let v = match e.size {
        1 => b.get(o).map_or(0, |&x| u32::from(x)),
        2 => b
            .get(o..o + 2)
            .map_or(0, |s| u32::from(u16::from_le_bytes([s[0], s[1]]))),
        _ => b
            .get(o..o + 4)
            .map_or(0, |s| u32::from_le_bytes([s[0], s[1], s[2], s[3]])),
    };
    extend(v, e)
}

/// Consecutive elements of `Z` bytes from `bytes`, extended by `ext`; a full `L` lanes take a
/// fixed-length loop the compiler turns into vector code.
#[inline(always)]
fn contiguous<const Z: usize, const L: usize>(
    bytes: &[u8],
    out: &mut Lanes<L>,
    n: usize,
    ext: impl Fn([u8; Z]) -> u32 + Copy,
) {
    match n {
        _ if n == L => fixed::<Z, L>(bytes, out, ext),
        _ => {
            for (o, c) in out.iter_mut().zip(bytes.chunks_exact(Z)) {
                let mut a = [0u8; Z];
                a.copy_from_slice(c);
                *o = ext(a);
            }
        }
    }
}

/// `L` elements of `Z` bytes as one array mapped by `ext`: the form the compiler turns into
/// whole-row loads and extensions (`vpmovzxwd`); a per-lane copy loop gave one load per lane.
#[inline(always)]
fn fixed<const Z: usize, const L: usize>(
    bytes: &[u8],
    out: &mut Lanes<L>,
    ext: impl Fn([u8; Z]) -> u32,
) {
    let Some(b) = bytes.as_chunks::<Z>().0.first_chunk::<L>() else {
        return;
    };
    *out = b.map(ext);
}

/// The low `Z` bytes of the first `L` lanes, consecutively.
#[inline(always)]
fn store_fixed<const Z: usize, const L: usize>(bytes: &mut [u8], r: &Lanes<L>) {
    let Some(b) = bytes.get_mut(..L * Z) else {
        return;
    };
    for i in 0..L {
        b[i * Z..i * Z + Z].copy_from_slice(&r[i].to_le_bytes()[..Z]);
    }
}

#[inline(always)]
fn store_contiguous<const Z: usize, const L: usize>(bytes: &mut [u8], n: usize, r: &Lanes<L>) {
    match n {
        _ if n == L => store_fixed::<Z, L>(bytes, r),
        _ => bytes
            .chunks_exact_mut(Z)
            .zip(r.iter())
            .for_each(|(c, v)| c.copy_from_slice(&v.to_le_bytes()[..Z])),
    }
}

/// Source `k`'s first `n` lanes (lanes past `n` are zero or repeat a scalar); a gather reads
/// the offsets of `inst`'s operand `k` ([`Inst::fast_sources`]).
#[inline(always)]
fn load<const L: usize>(t: &Thread, s: &FastSrc, inst: &Inst, k: usize, n: usize) -> Lanes<L> {
    let file = &t.file[..];
    let e = s.elem;
    let mut out = [0u32; L];
    match s.at {
        Src::Imm(v) => out = [v; L],
        Src::Region { base, stride: 0 } => out = [read(file, usize::from(base), e); L],
        Src::Region { base, stride } => {
            out = region::<L>(file, usize::from(base), usize::from(stride), e, n);
        }
        Src::Gather => {
            let offs = &inst.fast_sources()[k].offs;
            for (o, &at) in out.iter_mut().zip(offs.iter()).take(n) {
                *o = read(file, usize::from(at), e);
            }
        }
    }
    signed(s.sign, out)
}

/// The first `n` lanes of the region at byte `base` stepping `stride` bytes (consecutive
/// elements in one slice walk), each extended to 32 bits.
#[inline(always)]
fn region<const L: usize>(file: &[u8], base: usize, stride: usize, e: Elem, n: usize) -> Lanes<L> {
    let mut out = [0u32; L];
    if stride != usize::from(e.size) {
        let end = base + n.saturating_sub(1) * stride + usize::from(e.size);
        let Some(bytes) = file.get(base..end) else {
            for (i, o) in out.iter_mut().enumerate().take(n) {
                *o = read(file, base + i * stride, e);
            }
            return out;
        };
        // One loop per element type rather than a size and sign decision per lane (twice
        // the host instructions of a strided `:w` source).
        match (e.size, e.signed) {
            (4, _) => spaced::<4, L>(bytes, stride, n, &mut out, u32::from_le_bytes),
            (2, false) => spaced::<2, L>(bytes, stride, n, &mut out, |x| {
                u32::from(u16::from_le_bytes(x))
            }),
            (2, true) => spaced::<2, L>(bytes, stride, n, &mut out, |x| {
                i16::from_le_bytes(x) as i32 as u32
            }),
            (1, false) => spaced::<1, L>(bytes, stride, n, &mut out, |x| u32::from(x[0])),
            _ => spaced::<1, L>(bytes, stride, n, &mut out, |x| x[0] as i8 as i32 as u32),
        }
        return out;
    }
    let Some(bytes) = file.get(base..base + n * stride) else {
        return out;
    };
    match (e.size, e.signed) {
        (4, _) => contiguous::<4, L>(bytes, &mut out, n, u32::from_le_bytes),
        (2, false) => contiguous::<2, L>(bytes, &mut out, n, |x| u32::from(u16::from_le_bytes(x))),
        (2, true) => {
            contiguous::<2, L>(bytes, &mut out, n, |x| i16::from_le_bytes(x) as i32 as u32)
        }
        (1, false) => contiguous::<1, L>(bytes, &mut out, n, |x| u32::from(x[0])),
        _ => contiguous::<1, L>(bytes, &mut out, n, |x| x[0] as i8 as i32 as u32),
    }
    out
}

/// The first `n` elements of `Z` bytes, `stride` bytes apart from the start of `bytes`, mapped
/// by `ext`.
#[inline(always)]
fn spaced<const Z: usize, const L: usize>(
    bytes: &[u8],
    stride: usize,
    n: usize,
    out: &mut Lanes<L>,
    ext: impl Fn([u8; Z]) -> u32,
) {
    for (i, o) in out.iter_mut().enumerate().take(n) {
        if let Some(c) = bytes.get(i * stride..).and_then(<[u8]>::first_chunk::<Z>) {
            *o = ext(*c);
        }
    }
}

/// Writes the low `size` bytes of each lane in `mask` (one slice walk when all `n` lanes are
/// enabled and consecutive; otherwise lane by lane in order, as the general path does).
#[inline(always)]
fn store<const L: usize>(file: &mut [u8], d: FastDst, size: u8, n: usize, mask: u32, r: &Lanes<L>) {
    let (base, stride, size) = (
        usize::from(d.base),
        usize::from(d.stride),
        usize::from(size),
    );
    let full = mask & lane_bits(n as u8) == lane_bits(n as u8);
    if full && stride == size {
        let Some(bytes) = file.get_mut(base..base + n * size) else {
            return;
        };
        match size {
            4 => store_contiguous::<4, L>(bytes, n, r),
            2 => store_contiguous::<2, L>(bytes, n, r),
            _ => store_contiguous::<1, L>(bytes, n, r),
        }
        return;
    }
    for (i, v) in r.iter().enumerate().take(n) {
        if mask >> i & 1 == 0 {
            continue;
        }
        let at = base + i * stride;
        if let Some(c) = file.get_mut(at..at + size) {
            c.copy_from_slice(&v.to_le_bytes()[..size]);
        }
    }
}

mod half_simd;
pub mod kernel;
#[cfg(test)]
mod tests;
