//! Runs of f32 and f16 `mad`s on every channel, computed by one call from translated code. They are
//! the bulk of a convolution's instructions (a `while` body of 1,600 with runs of up to 128
//! `mad`s between its block reads), and Cranelift's x86-64 vectors are 128 bits: inline, a
//! SIMD16 `mad` is four FMAs, and its accumulator, one of more than the host's sixteen vector
//! registers hold, is loaded and stored as four rows. Here it is one 512-bit FMA (two 256-bit
//! ones without AVX-512), one load per source and one store.
//!
//! The result is the inline code's: src1 × src2 + src0 fused, IEEE, rounded to nearest even
//! (translated code runs only in that mode); every source read before the destination is
//! written. An f32 result with a NaN lane stops the run before that instruction writes
//! anything: the caller has the interpreter run it (the EU's NaN rule), as the inline code's
//! NaN test does. With AVX-512, groups of independent SIMD16 `mad`s ([`group`]) are computed
//! before any of them is stored, with the same results.
//!
//! Only the channels of the thread's execution mask are written (a thread that has diverged:
//! an image's edge, where some lanes' inputs lie outside); the call goes the fastest way when
//! every channel its `mad`s use executes.
//!
//! An f16 `mad` (every operand `:hf`, an f16 convolution's accumulation) gives the
//! interpreter's result ([`sim_eu::exec::fast::half_results`]): the sources widened, src1 ×
//! src2 + src0 in double precision, rounded once to half. With AVX-512 the sum is taken in
//! single precision rounded to odd (the product of two halves is exact there), which rounded
//! to half gives the same value; elsewhere the interpreter's own routine computes it, and so
//! it does an f16 `mad` with a NaN result (the EU's NaN rule): an f16 run never stops. A
//! `sync.nop` and the other instructions that change nothing may sit inside a run.

use crate::select::{Lanes, Op, Step};
use sim_eu::exec::fast::half_results;
use sim_eu::lane_mask::lane_bits;
use sim_eu::program::fast::FastOp;
use sim_eu::program::fast::Sign;
use sim_eu::regfile::FILE_BYTES;

/// The fewest consecutive `mad`s translated code computes by a call rather than inline.
pub const MIN_MADS: usize = 4;

/// The most `mad`s one call computes (a longer run is several calls): bounds the work of
/// finding a run at each instruction while a kernel is translated.
pub const MAX_MADS: usize = 256;

/// The fewest `mad`s between one that writes a row and one that reads it, in a run the call
/// computes. Through the call each result goes to the file and the next `mad` of its chain
/// loads it back: a chain of dependent `mad`s (`sim_kernels`' `mad_loop`, two chains
/// interleaved) runs faster inline, where its value stays in a host register; a
/// convolution's eight interleaved accumulators hide the store and load.
pub const MIN_APART: usize = 4;

/// What an entry of a run computes.
#[repr(u8)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    F32,
    F16,
    /// An instruction that changes nothing (counted as run).
    Nop,
}

/// One `mad` of a run: `lanes` (8, 16 or 32) DWords (halves for f16) from file byte `dst`
/// get src1 × src2 + src0, each source `lanes` consecutive elements from its byte, one
/// element for every lane, or (f16) an immediate.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mad {
    dst: u16,
    /// File bytes of src0 (the addend), src1 and src2; an immediate's half bits.
    src: [u16; 3],
    /// Bit k set: source k is one element for every lane.
    scalar: u8,
    /// Bit k set: source k is the immediate in `src[k]`.
    imm: u8,
    lanes: u8,
    /// On the first `mad` of a group ([`group`]) the group's length, else 0.
    group: u8,
    kind: Kind,
    /// Its first channel (`M0`..`M28`): its lane i is the thread's channel `chan + i`.
    chan: u8,
    /// Every lane written whatever the execution mask (`NoMask`).
    no_mask: bool,
}

impl Mad {
    const NOP: Mad = Mad {
        dst: 0,
        src: [0; 3],
        scalar: 0,
        imm: 0,
        lanes: 0,
        group: 0,
        kind: Kind::Nop,
        chan: 0,
        no_mask: false,
    };

    /// The call's form of `s` when it computes it: an f32 `mad` (sources DWord rows or
    /// scalars) or an f16 one (every operand `:hf`: word rows, scalars or immediates) on 8,
    /// 16 or 32 lanes without predicate, flag or source modifier; or an instruction that
    /// changes nothing.
    pub fn of(s: &Step) -> Option<Mad> {
        let (kind, size) = match s.op {
            Op::Keep => return Some(Mad::NOP),
            Op::FMad => (Kind::F32, 4),
            Op::Half {
                op: FastOp::Mad,
                hf: [true, true, true],
                cond: None,
            } => (Kind::F16, 2),
            _ => return None,
        };
        if !matches!(s.n, 8 | 16 | 32)
            || s.ch.pred.is_some()
            || s.flag.is_some()
            || s.dst_size != size
            || s.sign != [Sign::NONE; 3]
        {
            return None;
        }
        let mut src = [0; 3];
        let (mut scalar, mut imm) = (0, 0);
        for (k, l) in s.src.iter().enumerate() {
            src[k] = match *l {
                Lanes::Row { base, stride, elem } if stride == size && elem.size == size => base,
                Lanes::Scalar(base, elem) if elem.size == size => {
                    scalar |= 1 << k;
                    base
                }
                Lanes::Imm(v) if kind == Kind::F16 => {
                    imm |= 1 << k;
                    v as u16
                }
                _ => return None,
            };
        }
        let m = Mad {
            dst: s.dst?,
            src,
            scalar,
            imm,
            lanes: s.n,
            group: 0,
            kind,
            chan: s.ch.chan_off,
            no_mask: s.ch.no_mask,
        };
        (m.fits(FILE_BYTES) && u32::from(m.chan) + u32::from(m.lanes) <= 32).then_some(m)
    }

    /// The form of its sources: bit k source k is one element for every lane, bit 3 + k the
    /// immediate.
    fn form(&self) -> u8 {
        self.scalar & 7 | (self.imm & 7) << 3
    }

    /// The lanes it writes when the thread's execution mask is `active` (bit i for lane i).
    fn enabled(&self, active: u32) -> u32 {
        match self.kind {
            Kind::Nop => 0,
            _ if self.no_mask => lane_bits(self.lanes),
            _ => active.checked_shr(u32::from(self.chan)).unwrap_or(0) & lane_bits(self.lanes),
        }
    }

    /// The channels of a thread's execution mask it reads (none for a nop or `NoMask`).
    pub fn channels(&self) -> u32 {
        if self.kind == Kind::Nop || self.no_mask {
            return 0;
        }
        lane_bits(self.lanes)
            .checked_shl(u32::from(self.chan))
            .unwrap_or(0)
    }

    /// Bytes of one element.
    fn size(&self) -> usize {
        match self.kind {
            Kind::F32 => 4,
            Kind::F16 => 2,
            Kind::Nop => 0,
        }
    }

    /// Bytes of a row (none for a nop).
    fn bytes(&self) -> usize {
        self.size() * usize::from(self.lanes)
    }

    /// The file bytes source `k` reads (none for an immediate).
    fn source_bytes(&self, k: usize) -> std::ops::Range<usize> {
        let at = usize::from(self.src[k]);
        match (self.imm >> k & 1 != 0, self.scalar >> k & 1 != 0) {
            (true, _) => 0..0,
            (_, true) => at..at + self.size(),
            _ => at..at + self.bytes(),
        }
    }

    /// Whether every byte it reads or writes lies in a file of `len` bytes.
    fn fits(&self, len: usize) -> bool {
        usize::from(self.dst) + self.bytes() <= len
            && (0..3).all(|k| self.source_bytes(k).end <= len)
    }

    /// Whether it reads a byte `w` writes.
    fn reads_from(&self, w: &Mad) -> bool {
        let (lo, hi) = (usize::from(w.dst), usize::from(w.dst) + w.bytes());
        self.kind != Kind::Nop
            && (0..3).any(|k| {
                let r = self.source_bytes(k);
                r.start < hi && lo < r.end
            })
    }
}

/// Whether translated code should compute `mads` (consecutive, every channel enabled) by a
/// call: at least [`MIN_MADS`] of them `mad`s, none reading what one of the [`MIN_APART`] - 1
/// before it wrote.
pub fn worth_a_call(mads: &[Mad]) -> bool {
    mads.iter().filter(|m| m.kind != Kind::Nop).count() >= MIN_MADS
        && mads.iter().enumerate().all(|(j, m)| {
            mads[j.saturating_sub(MIN_APART - 1)..j]
                .iter()
                .all(|w| !m.reads_from(w))
        })
}

/// Whether [`run`] may stop before the end of `mads`: only at an f32 `mad` (a NaN result).
pub fn may_stop(mads: &[Mad]) -> bool {
    mads.iter().any(|m| m.kind == Kind::F32)
}

/// The most SIMD16 `mad`s in a group ([`group`]): for f32, the most the AVX-512 path computes
/// before it stores any of them.
pub const GROUP: usize = 8;

/// Marks groups in `mads`: runs of up to [`GROUP`] SIMD16 `mad`s none of which reads what an
/// earlier one of its group writes. A group's results do not depend on the order its `mad`s
/// run in, so the AVX-512 path computes them all, then tests them for NaN, then stores them
/// in order (up to the first with a NaN lane): a convolution's accumulators then pass from
/// one `mad` to the next without each waiting for the last one's store (about a sixth less
/// time per `mad` in a chain of eight accumulators, measured on this project's host). A
/// group's `mad`s are of one kind (f32 or f16: f16 groups store each result in turn, see
/// `group_f16`), and an f16 group's of one form of sources (row, scalar or immediate each:
/// the AVX-512 path picks the form's code once per group); other widths are groups of one.
pub fn group(mads: &mut [Mad]) {
    let mut at = 0;
    while at < mads.len() {
        let mut len = 1;
        let kind = mads[at].kind;
        let form = mads[at].form();
        if mads[at].lanes == 16 && kind != Kind::Nop {
            while at + len < mads.len()
                && len < GROUP
                && mads[at + len].lanes == 16
                && mads[at + len].kind == kind
                && (kind != Kind::F16 || mads[at + len].form() == form)
                && mads[at..at + len]
                    .iter()
                    .all(|w| !mads[at + len].reads_from(w))
            {
                len += 1;
            }
        }
        mads[at].group = len as u8;
        for m in &mut mads[at + 1..at + len] {
            m.group = 0;
        }
        at += len;
    }
}

/// Runs `mads` in order on `file` (a thread's register file) in the channels of `active`
/// (the execution mask; all ones when every channel they use executes, see
/// [`Mad::channels`]); returns how many ran: all of them, or the index of the first f32
/// one whose result has a NaN lane (it wrote nothing). None runs on a file shorter than a
/// thread's.
pub fn run(file: &mut [u8], mads: &[Mad], active: u32) -> usize {
    if file.len() < FILE_BYTES {
        return 0;
    }
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F; the file is a thread's.
            return unsafe { x86::run_avx512_in(file, mads, active) };
        }
        if active == u32::MAX
            && std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has AVX2 and FMA; the file is a thread's.
            return unsafe { x86::run_avx2(file, mads) };
        }
    }
    run_lanes(file, mads, active)
}

/// [`run`] lane by lane (hosts without the vector extensions, and the reference the tests
/// hold the others to).
pub fn run_lanes(file: &mut [u8], mads: &[Mad], active: u32) -> usize {
    for (i, m) in mads.iter().enumerate() {
        if !m.fits(file.len()) {
            return i;
        }
        let on = m.enabled(active);
        match m.kind {
            Kind::Nop => {}
            Kind::F32 if f32_by_lanes(file, m, on) => {}
            Kind::F32 => return i,
            Kind::F16 => f16_by_lanes(file, m, on),
        }
    }
    mads.len()
}

/// Element `l` of source `k` of `m` (which fits `file`), as its bits.
fn lane(file: &[u8], m: &Mad, k: usize, l: usize) -> u32 {
    if m.imm >> k & 1 != 0 {
        return u32::from(m.src[k]);
    }
    let size = m.size();
    let at = usize::from(m.src[k]) + if m.scalar >> k & 1 != 0 { 0 } else { size * l };
    let mut b = [0; 4];
    b[..size].copy_from_slice(&file[at..at + size]);
    u32::from_le_bytes(b)
}

/// The f32 `mad` `m` (which fits `file`) lane by lane in its lanes `on`: false, having
/// written nothing, when one of their results is NaN.
fn f32_by_lanes(file: &mut [u8], m: &Mad, on: u32) -> bool {
    let f = |k, l| f32::from_bits(lane(file, m, k, l));
    let mut r = [0f32; 32];
    for (l, r) in r.iter_mut().enumerate().take(usize::from(m.lanes)) {
        *r = f(1, l).mul_add(f(2, l), f(0, l));
    }
    let r = &r[..usize::from(m.lanes)];
    if r.iter()
        .enumerate()
        .any(|(l, x)| on >> l & 1 != 0 && x.is_nan())
    {
        return false;
    }
    let dst = usize::from(m.dst);
    for (l, (c, x)) in file[dst..dst + m.bytes()]
        .chunks_exact_mut(4)
        .zip(r)
        .enumerate()
    {
        if on >> l & 1 != 0 {
            c.copy_from_slice(&x.to_le_bytes());
        }
    }
    true
}

/// The f16 `mad` `m` (which fits `file`) in its lanes `on` by the interpreter's own half
/// arithmetic, NaN rule included.
fn f16_by_lanes(file: &mut [u8], m: &Mad, on: u32) {
    let n = usize::from(m.lanes);
    let src =
        |k| std::array::from_fn::<u32, 32, _>(|l| if l < n { lane(file, m, k, l) } else { 0 });
    let r = half_results::<32>(FastOp::Mad, [true; 3], [&src(0), &src(1), &src(2)]);
    let dst = usize::from(m.dst);
    for (l, (c, &h)) in file[dst..dst + m.bytes()]
        .chunks_exact_mut(2)
        .zip(&r[..n])
        .enumerate()
    {
        if on >> l & 1 != 0 {
            c.copy_from_slice(&(h as u16).to_le_bytes());
        }
    }
}

/// What translated code calls: [`run`] on the thread's file.
pub(crate) type MadsFn = unsafe extern "C" fn(*mut u8, *const Mad, u32, u32) -> u32;

/// [`run`] on the `FILE_BYTES` bytes at `file`, the `count` entries at `mads` and the
/// execution mask `active`.
///
/// # Safety
/// `file` points to a thread's register file ([`FILE_BYTES`] bytes), which nothing else
/// reads or writes during the call; `mads` points to `count` entries.
pub(crate) unsafe extern "C" fn call(
    file: *mut u8,
    mads: *const Mad,
    count: u32,
    active: u32,
) -> u32 {
    // SAFETY: the caller's contract.
    let file = unsafe { std::slice::from_raw_parts_mut(file, FILE_BYTES) };
    // SAFETY: the caller's contract.
    let mads = unsafe { std::slice::from_raw_parts(mads, count as usize) };
    run(file, mads, active) as u32
}

/// The function translated code calls for a run: [`call`], or where the CPU has AVX-512F
/// its vector paths directly (the feature test and the file's length check of [`run`] are
/// then made once, not per call: a convolution calls once per eight `mad`s).
pub(crate) fn callee() -> MadsFn {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512f") {
        return x86::call_avx512;
    }
    call
}

/// [`f16_by_lanes`] on the thread's file at `file`.
///
/// # Safety
/// `file` points to [`FILE_BYTES`] bytes, which `m` fits, and nothing else reads or writes
/// them during the call.
unsafe fn f16_at(file: *mut u8, m: &Mad, on: u32) {
    // SAFETY: the caller's contract.
    f16_by_lanes(
        unsafe { std::slice::from_raw_parts_mut(file, FILE_BYTES) },
        m,
        on,
    );
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{f16_at, Kind, Mad};

    /// Source `k` of `m` as 16 lanes from lane `16 * c`. Loads are whole (no masks): a
    /// masked load of bytes a recent store wrote is not forwarded from that store on some
    /// CPUs, and every accumulator is such a row.
    ///
    /// # Safety
    /// `file` points to at least `FILE_BYTES` bytes, which `m` fits ([`Mad::of`]); `c` is
    /// 0, or 1 for 32 lanes.
    #[inline(always)]
    unsafe fn source16(file: *const u8, m: &Mad, k: usize, c: usize) -> __m512 {
        let at = usize::from(m.src[k]);
        // SAFETY: the caller's contract: `m`'s bytes lie in the file.
        unsafe {
            if m.scalar >> k & 1 != 0 {
                _mm512_set1_ps(file.add(at).cast::<f32>().read_unaligned())
            } else {
                _mm512_loadu_ps(file.add(at + 64 * c).cast())
            }
        }
    }

    /// Chunk `c` (16 lanes) of `m`'s result.
    ///
    /// # Safety
    /// As [`source16`]'s.
    #[inline(always)]
    unsafe fn fma16(file: *const u8, m: &Mad, c: usize) -> __m512 {
        // SAFETY: the caller's contract.
        unsafe {
            _mm512_fmadd_ps(
                source16(file, m, 1, c),
                source16(file, m, 2, c),
                source16(file, m, 0, c),
            )
        }
    }

    /// [`fma16`], or `None` when a lane is NaN.
    ///
    /// # Safety
    /// As [`source16`]'s.
    #[inline(always)]
    unsafe fn result16(file: *const u8, m: &Mad, c: usize) -> Option<__m512> {
        // SAFETY: the caller's contract.
        let r = unsafe { fma16(file, m, c) };
        (_mm512_cmp_ps_mask::<_CMP_UNORD_Q>(r, r) == 0).then_some(r)
    }

    /// Source `k` of the f16 `m` as 16 lanes from lane `16 * c` (8 lanes, the rest zero,
    /// when `m` has 8), widened to single precision (exactly).
    ///
    /// # Safety
    /// As [`source16`]'s.
    #[inline(always)]
    unsafe fn half16(file: *const u8, m: &Mad, k: usize, c: usize) -> __m512 {
        let at = usize::from(m.src[k]);
        // SAFETY: the caller's contract: `m`'s bytes lie in the file.
        let h = unsafe {
            if m.imm >> k & 1 != 0 {
                _mm256_set1_epi16(m.src[k] as i16)
            } else if m.scalar >> k & 1 != 0 {
                _mm256_set1_epi16(file.add(at).cast::<i16>().read_unaligned())
            } else if m.lanes == 8 {
                _mm256_zextsi128_si256(_mm_loadu_si128(file.add(at).cast()))
            } else {
                _mm256_loadu_si256(file.add(at + 32 * c).cast())
            }
        };
        _mm512_cvtph_ps(h)
    }

    /// Chunk `c` (16 lanes, or 8 with the rest undefined) of the f16 `m`'s result as halves
    /// ([`half_sum`]).
    ///
    /// # Safety
    /// As [`source16`]'s.
    #[inline(always)]
    unsafe fn half_mad16(file: *const u8, m: &Mad, c: usize) -> __m256i {
        // SAFETY: the caller's contract.
        let (p, q, s) = unsafe {
            (
                half16(file, m, 0, c),
                half16(file, m, 1, c),
                half16(file, m, 2, c),
            )
        };
        // SAFETY: the caller's contract.
        unsafe { half_sum(p, q, s) }
    }

    /// `q` × `s` + `p` (widened halves) rounded once to half. The product of two halves is
    /// exact in single precision; the sum is rounded to odd there (of the sums rounded down
    /// and up, the one whose last bit is set: neighbours when inexact, so one is odd; equal
    /// when exact; an exact zero is +0, rounded up, as to nearest), which, rounded to nearest
    /// even half, gives the sum rounded once to half: the interpreter's value, whose
    /// double-precision sum of halves is exact whenever the result is finite. A NaN result
    /// follows the interpreter's rule: the first NaN source (src0, src1, src2), quieted, or
    /// where none is, the host's default NaN (as the interpreter's vector routine,
    /// `sim_eu::exec::fast::half_simd`, takes it); an f16 network's padding lanes give NaNs
    /// in every `mad` once one holds one, so they stay here rather than going lane by lane.
    /// (Without the odd rounding the `jit_alu` f16 case ran 5–10 % faster, without the
    /// conversions no faster; a test for a midpoint sum, to round to odd only there, ran
    /// slower, and so did rounding towards zero with the last bit set where down and up
    /// differ: a third rounding.)
    ///
    /// # Safety
    /// The CPU has AVX-512F (as every function here: [`run_avx512`] is their only caller).
    #[inline(always)]
    unsafe fn half_sum(p: __m512, q: __m512, s: __m512) -> __m256i {
        let down = _mm512_fmadd_round_ps::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(q, s, p);
        let nan = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(down, down);
        let up = _mm512_fmadd_round_ps::<{ _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC }>(q, s, p);
        let (down, up) = (_mm512_castps_si512(down), _mm512_castps_si512(up));
        let down_odd = _mm512_test_epi32_mask(down, _mm512_set1_epi32(1));
        let mut odd = _mm512_mask_blend_epi32(down_odd, up, down);
        if nan != 0 {
            // The last blended wins: src0's NaN over src1's over src2's. Widening a half
            // quietens its NaN already.
            for w in [s, q, p] {
                let w_nan = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(w, w);
                odd = _mm512_mask_blend_epi32(w_nan, odd, _mm512_castps_si512(w));
            }
        }
        _mm512_cvtps_ph::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(_mm512_castsi512_ps(
            odd,
        ))
    }

    /// Source `k` of the SIMD16 f16 `m` whose sources have the form `F` ([`form`]), widened.
    ///
    /// # Safety
    /// As [`source16`]'s.
    #[inline(always)]
    unsafe fn half16_in<const F: u8>(file: *const u8, m: &Mad, k: usize) -> __m512 {
        let at = usize::from(m.src[k]);
        // SAFETY: the caller's contract: `m`'s bytes lie in the file.
        let h = unsafe {
            if F >> (3 + k) & 1 != 0 {
                _mm256_set1_epi16(m.src[k] as i16)
            } else if F >> k & 1 != 0 {
                _mm256_set1_epi16(file.add(at).cast::<i16>().read_unaligned())
            } else {
                _mm256_loadu_si256(file.add(at).cast())
            }
        };
        _mm512_cvtph_ps(h)
    }

    /// The result of a SIMD16 `m` whose sources have the form `F` ([`half_sum`]): the
    /// operands' kinds known when compiled, so a group's `mad` takes one jump to its form's
    /// code instead of a test per operand (`jit_alu`'s f16 convolution case 7.4–7.5 →
    /// 8.0–8.2 G lane-ops/s).
    ///
    /// # Safety
    /// As [`source16`]'s; `m` has 16 lanes.
    #[inline(always)]
    unsafe fn half_mad16_in<const F: u8>(file: *const u8, m: &Mad) -> __m256i {
        // SAFETY: the caller's contract.
        let (p, q, s) = unsafe {
            (
                half16_in::<F>(file, m, 0),
                half16_in::<F>(file, m, 1),
                half16_in::<F>(file, m, 2),
            )
        };
        // SAFETY: the caller's contract.
        unsafe { half_sum(p, q, s) }
    }

    /// Calls macro `$m` with every form ([`Mad::form`]) whose scalar and immediate bits are
    /// apart (a form with both bits of a source set runs the general way).
    macro_rules! with_forms {
        ($m:ident) => {
            $m!(0 1 2 3 4 5 6 7 8 10 12 14 16 17 20 21 24 28 32 33 34 35 40 42 48 49 56)
        };
    }

    /// [`half_mad16_in`] for `m`'s form.
    ///
    /// # Safety
    /// As [`half_mad16_in`]'s.
    #[inline(always)]
    unsafe fn half_mad16_formed(file: *const u8, m: &Mad) -> __m256i {
        macro_rules! by_form {
            ($($f:literal)*) => {
                match m.form() {
                    // SAFETY: the caller's contract.
                    $($f => unsafe { half_mad16_in::<$f>(file, m) },)*
                    // SAFETY: the caller's contract.
                    _ => unsafe { half_mad16(file, m, 0) },
                }
            };
        }
        with_forms!(by_form)
    }

    /// Runs the group `g` of f32 SIMD16 `mad`s ([`super::group`]): computes all, then stores
    /// them in order up to the first with a NaN lane; returns how many it stored.
    ///
    /// # Safety
    /// As [`source16`]'s for each of `g`.
    #[inline(always)]
    unsafe fn group_f32(f: *mut u8, g: &[Mad]) -> usize {
        let mut r = [_mm512_setzero_ps(); super::GROUP];
        // The NaN lanes of all of them at once: one test for the group (a test per `mad` was
        // a tenth of the `jit_alu` convolution case's time); which one has them only when one
        // does.
        let mut any: __mmask16 = 0;
        for (m, r) in g.iter().zip(r.iter_mut()) {
            // SAFETY: the caller's contract.
            *r = unsafe { fma16(f, m, 0) };
            any |= _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(*r, *r);
        }
        let ok = if any == 0 {
            g.len()
        } else {
            r.iter()
                .take(g.len())
                .position(|&v| _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(v, v) != 0)
                .unwrap_or(g.len())
        };
        for (m, r) in g.iter().zip(r).take(ok) {
            // SAFETY: the caller's contract: the destination's 64 bytes lie in the file.
            unsafe { _mm512_storeu_ps(f.add(usize::from(m.dst)).cast(), r) };
        }
        ok
    }

    /// [`group_f32`] for a group of f16 SIMD16 `mad`s, though each is stored as soon as it is
    /// computed: an f16 `mad`'s arithmetic takes long enough that its store does not hold the
    /// next one up, and results kept for the group's end went through the stack (`jit_alu`'s
    /// f16 convolution case 8.4–8.7 G lane-ops/s so, 9.5–10.0 G storing each at once; the
    /// same loop as arms of [`run_avx512`]'s match, without groups, 6.5–7.0 G). An f16 group
    /// never stops: NaN results have their rule in [`half_sum`].
    ///
    /// # Safety
    /// As [`group_f32`]'s.
    #[inline(always)]
    unsafe fn group_f16(f: *mut u8, g: &[Mad]) {
        /// Not a form: sources tested one by one ([`half_mad16`]).
        const ANY: u8 = u8::MAX;
        /// The group, every `mad` of it of form `F`.
        #[inline(always)]
        unsafe fn each<const F: u8>(f: *mut u8, g: &[Mad]) {
            for m in g {
                // SAFETY: the caller's contract: the destination's 32 bytes lie in the file.
                unsafe {
                    let v = if F == ANY {
                        half_mad16(f, m, 0)
                    } else {
                        half_mad16_in::<F>(f, m)
                    };
                    _mm256_storeu_si256(f.add(usize::from(m.dst)).cast(), v);
                }
            }
        }
        // A group's `mad`s have one form ([`super::group`]): its code is picked once for
        // them (one jump per `mad` before: `jit_alu`'s f16 convolution case 9.0-10.2 ->
        // 11.8-12.1 G lane-ops/s).
        debug_assert!(g.iter().all(|m| m.form() == g[0].form()));
        macro_rules! by_form {
            ($($f:literal)*) => {
                match g.first().map_or(0, Mad::form) {
                    // SAFETY: the caller's contract.
                    $($f => unsafe { each::<$f>(f, g) },)*
                    // SAFETY: the caller's contract.
                    _ => unsafe { each::<ANY>(f, g) },
                }
            };
        }
        with_forms!(by_form)
    }

    /// [`super::call`] where the CPU has AVX-512F.
    ///
    /// # Safety
    /// [`super::call`]'s contract, and the CPU has AVX-512F.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub(super) unsafe extern "C" fn call_avx512(
        file: *mut u8,
        mads: *const Mad,
        count: u32,
        active: u32,
    ) -> u32 {
        // SAFETY: the caller's contract.
        let file = unsafe { std::slice::from_raw_parts_mut(file, super::FILE_BYTES) };
        // SAFETY: the caller's contract.
        let mads = unsafe { std::slice::from_raw_parts(mads, count as usize) };
        // SAFETY: the CPU has AVX-512F (the caller's contract); the file is a thread's.
        unsafe { run_avx512_in(file, mads, active) as u32 }
    }

    /// [`super::run`] with AVX-512: [`run_avx512`] where every channel executes (`active`
    /// all ones), else [`run_avx512_masked`].
    ///
    /// # Safety
    /// As [`run_avx512`]'s.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub unsafe fn run_avx512_in(file: &mut [u8], mads: &[Mad], active: u32) -> usize {
        if active == u32::MAX {
            // SAFETY: the caller's contract.
            unsafe { run_avx512(file, mads) }
        } else {
            // SAFETY: the caller's contract.
            unsafe { run_avx512_masked(file, mads, active) }
        }
    }

    /// [`super::run`] with 512-bit vectors (and 256-bit ones for 8 lanes).
    ///
    /// # Safety
    /// The CPU has AVX-512F (and so AVX2 and FMA); `file` has at least `FILE_BYTES` bytes.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub unsafe fn run_avx512(file: &mut [u8], mads: &[Mad]) -> usize {
        let f = file.as_mut_ptr();
        let mut i = 0;
        while let Some(m) = mads.get(i) {
            let len = usize::from(m.group).clamp(1, mads.len() - i);
            if len > 1 {
                // A group ([`super::group`]): SIMD16 `mad`s of one kind, each result
                // independent of the others' stores.
                let g = &mads[i..i + len];
                // SAFETY: `file` has `FILE_BYTES` bytes (the caller's contract), which every
                // `Mad` fits (its fields are private, made only by `Mad::of`).
                let ok = unsafe {
                    match m.kind {
                        Kind::F16 => {
                            group_f16(f, g);
                            len
                        }
                        _ => group_f32(f, g),
                    }
                };
                if ok < len {
                    return i + ok;
                }
                i += len;
                continue;
            }
            let dst = usize::from(m.dst);
            // SAFETY (each block): `file` has `FILE_BYTES` bytes (the caller's contract), which
            // every `Mad` fits (its fields are private, made only by `Mad::of`).
            match (m.kind, m.lanes) {
                (Kind::Nop, _) => {}
                // SAFETY: as above.
                (Kind::F32, 16) => unsafe {
                    let Some(r) = result16(f, m, 0) else {
                        return i;
                    };
                    _mm512_storeu_ps(f.add(dst).cast(), r);
                },
                // SAFETY: as above.
                (Kind::F32, 32) => unsafe {
                    let (Some(r0), Some(r1)) = (result16(f, m, 0), result16(f, m, 1)) else {
                        return i;
                    };
                    _mm512_storeu_ps(f.add(dst).cast(), r0);
                    _mm512_storeu_ps(f.add(dst + 64).cast(), r1);
                },
                // SAFETY: as above.
                (Kind::F32, _) => unsafe {
                    let Some(r) = result8(f, m, 0) else {
                        return i;
                    };
                    _mm256_storeu_ps(f.add(dst).cast(), r);
                },
                // SAFETY: as above.
                (Kind::F16, 16) => unsafe {
                    _mm256_storeu_si256(f.add(dst).cast(), half_mad16(f, m, 0));
                },
                // SAFETY: as above.
                (Kind::F16, 32) => unsafe {
                    // Both halves computed before either is stored (the destination may be a
                    // source).
                    let (r0, r1) = (half_mad16(f, m, 0), half_mad16(f, m, 1));
                    _mm256_storeu_si256(f.add(dst).cast(), r0);
                    _mm256_storeu_si256(f.add(dst + 32).cast(), r1);
                },
                // SAFETY: as above.
                (Kind::F16, _) => unsafe {
                    let r = half_mad16(f, m, 0);
                    _mm_storeu_si128(f.add(dst).cast(), _mm256_castsi256_si128(r));
                },
            }
            i += 1;
        }
        mads.len()
    }

    /// [`super::run`] for a thread whose execution mask `active` leaves out some channel the
    /// `mad`s use: each computed as [`run_avx512`] computes it, its enabled lanes stored (the
    /// others keep their bytes), one after another.
    ///
    /// # Safety
    /// As [`run_avx512`]'s.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub unsafe fn run_avx512_masked(file: &mut [u8], mads: &[Mad], active: u32) -> usize {
        let f = file.as_mut_ptr();
        // Bit l of lane l, to spread a lane mask over words.
        let bits = _mm256_setr_epi16(
            1,
            2,
            4,
            8,
            16,
            32,
            64,
            128,
            256,
            512,
            1024,
            2048,
            4096,
            8192,
            16384,
            i16::MIN,
        );
        for (i, m) in mads.iter().enumerate() {
            let on = m.enabled(active);
            if on == 0 {
                continue;
            }
            let d = usize::from(m.dst);
            // SAFETY (each block): `file` has `FILE_BYTES` bytes (the caller's contract), which
            // every `Mad` fits (its fields are private, made only by `Mad::of`).
            match (m.kind, m.lanes) {
                (Kind::Nop, _) => {}
                // SAFETY: as above.
                (Kind::F32, 16) => unsafe {
                    let r = fma16(f, m, 0);
                    let on = on as __mmask16;
                    if _mm512_mask_cmp_ps_mask::<_CMP_UNORD_Q>(on, r, r) != 0 {
                        return i;
                    }
                    _mm512_mask_storeu_ps(f.add(d).cast(), on, r);
                },
                // SAFETY: as above.
                (Kind::F16, 16) => unsafe {
                    let v = half_mad16_formed(f, m);
                    let spread = _mm256_set1_epi16(on as u16 as i16);
                    let pick = _mm256_cmpeq_epi16(_mm256_and_si256(spread, bits), bits);
                    let old = _mm256_loadu_si256(f.add(d).cast());
                    _mm256_storeu_si256(f.add(d).cast(), _mm256_blendv_epi8(old, v, pick));
                },
                // SAFETY: as above.
                (Kind::F16, _) => unsafe { f16_at(f, m, on) },
                // SAFETY: as above.
                (Kind::F32, _) => unsafe {
                    let file = std::slice::from_raw_parts_mut(f, super::FILE_BYTES);
                    if !super::f32_by_lanes(file, m, on) {
                        return i;
                    }
                },
            }
        }
        mads.len()
    }

    /// Source `k` of `m` as 8 lanes from lane `8 * c`.
    ///
    /// # Safety
    /// `file` points to at least `FILE_BYTES` bytes, which `m` fits ([`Mad::of`]); `8 * c`
    /// is below its lanes.
    #[inline(always)]
    unsafe fn source8(file: *const u8, m: &Mad, k: usize, c: usize) -> __m256 {
        let at = usize::from(m.src[k]);
        // SAFETY: the caller's contract: `m`'s bytes lie in the file.
        unsafe {
            if m.scalar >> k & 1 != 0 {
                _mm256_set1_ps(file.add(at).cast::<f32>().read_unaligned())
            } else {
                _mm256_loadu_ps(file.add(at + 32 * c).cast())
            }
        }
    }

    /// Chunk `c` (8 lanes) of `m`'s result, or `None` when a lane is NaN.
    ///
    /// # Safety
    /// As [`source8`]'s.
    #[inline(always)]
    unsafe fn result8(file: *const u8, m: &Mad, c: usize) -> Option<__m256> {
        // SAFETY: the caller's contract.
        let r = unsafe {
            _mm256_fmadd_ps(
                source8(file, m, 1, c),
                source8(file, m, 2, c),
                source8(file, m, 0, c),
            )
        };
        (_mm256_movemask_ps(_mm256_cmp_ps::<_CMP_UNORD_Q>(r, r)) == 0).then_some(r)
    }

    /// [`super::run`] with 256-bit vectors. Each width spelled out: a loop over an array of
    /// chunks compiled to copies through the stack.
    ///
    /// # Safety
    /// The CPU has AVX2 and FMA; `file` has at least `FILE_BYTES` bytes.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn run_avx2(file: &mut [u8], mads: &[Mad]) -> usize {
        for (i, m) in mads.iter().enumerate() {
            match m.kind {
                Kind::F32 => {}
                Kind::Nop => continue,
                // The interpreter's half arithmetic (its own vector code).
                Kind::F16 => {
                    super::f16_by_lanes(file, m, u32::MAX);
                    continue;
                }
            }
            let f = file.as_mut_ptr();
            // SAFETY (each block): `file` has `FILE_BYTES` bytes (the caller's contract), which
            // every `Mad` fits (its fields are private, made only by `Mad::of`), and each
            // chunk is below its lanes.
            let d = unsafe { f.add(usize::from(m.dst)) };
            match m.lanes {
                // SAFETY: as above.
                8 => unsafe {
                    let Some(r0) = result8(f, m, 0) else {
                        return i;
                    };
                    _mm256_storeu_ps(d.cast(), r0);
                },
                // SAFETY: as above.
                16 => unsafe {
                    let (Some(r0), Some(r1)) = (result8(f, m, 0), result8(f, m, 1)) else {
                        return i;
                    };
                    _mm256_storeu_ps(d.cast(), r0);
                    _mm256_storeu_ps(d.add(32).cast(), r1);
                },
                // SAFETY: as above.
                _ => unsafe {
                    let (Some(r0), Some(r1), Some(r2), Some(r3)) = (
                        result8(f, m, 0),
                        result8(f, m, 1),
                        result8(f, m, 2),
                        result8(f, m, 3),
                    ) else {
                        return i;
                    };
                    _mm256_storeu_ps(d.cast(), r0);
                    _mm256_storeu_ps(d.add(32).cast(), r1);
                    _mm256_storeu_ps(d.add(64).cast(), r2);
                    _mm256_storeu_ps(d.add(96).cast(), r3);
                },
            }
        }
        mads.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn mad() -> impl Strategy<Value = Mad> {
        (
            proptest::sample::select(vec![8u8, 16, 32]),
            0u16..64,
            proptest::array::uniform3(0u16..64),
            0u8..8,
        )
            .prop_map(|(lanes, dst, src, scalar)| Mad {
                dst: dst * 32,
                src: src.map(|r| r * 32 + if scalar != 0 { 4 } else { 0 }),
                scalar,
                lanes,
                ..Mad::NOP
            })
            .prop_map(|m| Mad {
                kind: Kind::F32,
                ..m
            })
    }

    /// Halves that matter to rounding: small values, both zeros, subnormals, the largest,
    /// infinities and NaNs.
    fn half() -> impl Strategy<Value = u16> {
        prop_oneof![
            20 => (-4.0f32..4.0).prop_map(sim_eu::convert::f32_to_f16),
            4 => any::<u16>(),
            1 => proptest::sample::select(vec![
                0u16, 0x8000, 1, 0x8001, 0x3ff, 0x400, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00,
                0x7c01, 0x3c00, 0x3c01, 0xbc00,
            ]),
        ]
    }

    /// An f16 `mad`: rows, scalars (at any half) and immediates.
    fn half_mad() -> impl Strategy<Value = Mad> {
        (
            proptest::sample::select(vec![8u8, 16, 32]),
            0u16..64,
            proptest::array::uniform3((0u16..64, 0u16..16)),
            0u8..8,
            0u8..8,
            half(),
        )
            .prop_map(|(lanes, dst, src, scalar, imm, h)| {
                let imm = imm & !scalar;
                Mad {
                    dst: dst * 32,
                    src: std::array::from_fn(|k| match (imm >> k & 1, scalar >> k & 1) {
                        (1, _) => h,
                        (_, 1) => src[k].0 * 32 + 2 * src[k].1,
                        _ => src[k].0 * 32,
                    }),
                    scalar,
                    imm,
                    lanes,
                    kind: Kind::F16,
                    ..Mad::NOP
                }
            })
    }

    /// A thread's execution mask: mostly every channel (the fast way), else any.
    fn active() -> impl Strategy<Value = u32> {
        prop_oneof![2 => Just(u32::MAX), 1 => any::<u32>(), 1 => Just(0xffff)]
    }

    /// `mads` with each one's first channel and `NoMask` bit from `chans` in turn.
    fn placed(mads: Vec<Mad>, chans: &[(u8, bool)]) -> Vec<Mad> {
        mads.into_iter()
            .zip(chans.iter().cycle())
            .map(|(m, &(c, no_mask))| Mad {
                chan: if u32::from(c) + u32::from(m.lanes) <= 32 {
                    c
                } else {
                    0
                },
                no_mask,
                ..m
            })
            .collect()
    }

    fn chans() -> impl Strategy<Value = Vec<(u8, bool)>> {
        proptest::collection::vec(
            (
                proptest::sample::select(vec![0u8, 0, 8, 16]),
                proptest::bool::weighted(0.1),
            ),
            1..4,
        )
    }

    proptest! {
        /// The host's vector paths give the lane-by-lane results: the same count run, the
        /// same bytes (destinations overlapping sources, NaN stops, execution masks and all).
        #[test]
        fn vectors_match_lanes(
            mads in proptest::collection::vec(mad(), 1..24),
            chans in chans(),
            active in active(),
            grouped in any::<bool>(),
            words in proptest::collection::vec(
                prop_oneof![
                    20 => (-3.0f32..3.0).prop_map(f32::to_bits),
                    1 => proptest::sample::select(vec![
                        0x7fc0_0000u32, 0xff80_0001, 0x7f80_0000, 0xff80_0000, 1, 0x8000_0000,
                    ]),
                ],
                FILE_BYTES / 4,
            ),
        ) {
            let mut mads = placed(mads, &chans);
            if grouped {
                group(&mut mads);
            }
            let file: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            same_by_every_path(&file, &mads, active)?;
        }

        /// So do f16 `mad`s (and nops) among f32 ones, on halves.
        #[test]
        fn half_vectors_match_lanes(
            mads in proptest::collection::vec(
                prop_oneof![4 => half_mad(), 1 => mad(), 1 => Just(Mad::NOP)],
                1..24,
            ),
            chans in chans(),
            active in active(),
            grouped in any::<bool>(),
            halves in proptest::collection::vec(half(), FILE_BYTES / 2),
        ) {
            let mut mads = placed(mads, &chans);
            if grouped {
                group(&mut mads);
            }
            let file: Vec<u8> = halves.iter().flat_map(|h| h.to_le_bytes()).collect();
            same_by_every_path(&file, &mads, active)?;
        }
    }

    /// [`run`] and the AVX2 path (where the host has it, every channel executing) give
    /// [`run_lanes`]' count and bytes.
    fn same_by_every_path(file: &[u8], mads: &[Mad], active: u32) -> Result<(), TestCaseError> {
        let mut want = file.to_vec();
        let n = run_lanes(&mut want, mads, active);
        let mut got = file.to_vec();
        prop_assert_eq!(run(&mut got, mads, active), n);
        prop_assert!(got == want);
        #[cfg(target_arch = "x86_64")]
        if active == u32::MAX
            && std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("fma")
        {
            let mut got = file.to_vec();
            // SAFETY: the CPU has AVX2 and FMA; the file is a thread's size.
            prop_assert_eq!(unsafe { x86::run_avx2(&mut got, mads) }, n);
            prop_assert!(got == want);
        }
        Ok(())
    }

    /// A convolution's shape: SIMD16 `mad`s of `kind` over `accs` accumulators in turn, each
    /// adding a row times a weight (a scalar) to its accumulator.
    fn conv(kind: Kind) -> impl Strategy<Value = Vec<Mad>> {
        let row = if kind == Kind::F16 { 32 } else { 64 };
        (
            2u16..11,
            8usize..48,
            proptest::collection::vec((0u16..4, 0u16..16), 48),
        )
            .prop_map(move |(accs, n, picks)| {
                (0..n)
                    .map(|j| {
                        let acc = row * (20 + j as u16 % accs);
                        let (r, w) = picks[j];
                        Mad {
                            dst: acc,
                            src: [acc, row * (2 + r), row * 10 + row / 16 * w],
                            scalar: 0b100,
                            lanes: 16,
                            kind,
                            ..Mad::NOP
                        }
                    })
                    .collect()
            })
    }

    /// Runs `mads` grouped on `file` both ways: the same count run and the same bytes.
    fn grouped_like_lanes(file: &[u8], mut mads: Vec<Mad>) -> Result<(), TestCaseError> {
        group(&mut mads);
        prop_assert!(mads.iter().all(|m| usize::from(m.group) <= GROUP));
        let mut want = file.to_vec();
        let n = run_lanes(&mut want, &mads, u32::MAX);
        let mut got = file.to_vec();
        prop_assert_eq!(run(&mut got, &mads, u32::MAX), n);
        prop_assert!(got == want);
        Ok(())
    }

    proptest! {
        /// Grouped, a convolution's `mad`s (groups of up to eight) give the lane-by-lane
        /// results, NaN stops inside a group included.
        #[test]
        fn groups_match_lanes(
            mads in conv(Kind::F32),
            words in proptest::collection::vec(
                prop_oneof![
                    60 => (-3.0f32..3.0).prop_map(f32::to_bits),
                    1 => Just(0x7fc0_0000u32),
                    1 => Just(0x7f80_0000u32),
                ],
                FILE_BYTES / 4,
            ),
        ) {
            let file: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            grouped_like_lanes(&file, mads)?;
        }

        /// So do an f16 convolution's, on halves (NaNs and infinities among them).
        #[test]
        fn half_groups_match_lanes(
            mads in conv(Kind::F16),
            halves in proptest::collection::vec(half(), FILE_BYTES / 2),
        ) {
            let file: Vec<u8> = halves.iter().flat_map(|h| h.to_le_bytes()).collect();
            grouped_like_lanes(&file, mads)?;
        }
    }

    /// Groups hold no `mad` that reads what an earlier one of its group writes, and stop at
    /// eight and at another width.
    #[test]
    fn groups_are_independent() {
        let m = |dst: u16, src0: u16, lanes: u8| Mad {
            dst,
            src: [src0, 1024, 1280],
            scalar: 0b100,
            lanes,
            kind: Kind::F32,
            ..Mad::NOP
        };
        let mut mads: Vec<Mad> = (0..10).map(|k| m(64 * k, 64 * k, 16)).collect();
        // Reads the destination of the one before it, in its group: a new group starts.
        mads.push(m(2048, 64 * 9, 16));
        mads.push(m(2112, 2112, 8));
        mads.push(m(2176, 2176, 16));
        group(&mut mads);
        let lens: Vec<u8> = mads.iter().map(|m| m.group).collect();
        assert_eq!(lens, [8, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 1, 1]);
    }

    /// A file shorter than a thread's runs nothing.
    #[test]
    fn a_short_file_runs_nothing() {
        let m = Mad {
            lanes: 16,
            kind: Kind::F32,
            ..Mad::NOP
        };
        assert_eq!(run(&mut [0; 64], &[m], u32::MAX), 0);
    }
}
