//! [`Num::Half`](crate::program::fast::forms::Num) lanes eight at a time with the host's
//! half conversions (F16C: `vcvtph2ps`, `vcvtps2ph`), bit for bit what the per-lane loop
//! computes with `f16_to_f32` and `Rounding::to_f16`: `:hf` sources widened exactly, `mov`,
//! `add` and `mul` in f32 rounded to nearest even half, `mad` in f64 (exact product, one
//! rounding of the sum) narrowed to f32 rounding to odd and then to nearest even half (which
//! rounds the f64 value once: single precision carries more than twice half's bits) — or,
//! with three `:hf` sources, rounded to odd in f32 directly (the exact sum of three halves'
//! `mad` is f64's value: it rounds on a half midpoint only where it is one), and the
//! first NaN source, quieted, where there is one.
//!
//! The per-lane loop spends most of an f16 network's convolution time in its branchy
//! conversions; here they are one instruction per eight lanes.

#![cfg(target_arch = "x86_64")]

use std::arch::x86_64::*;
use std::mem::MaybeUninit;

use super::{arity, packed_group_bytes};
use crate::program::fast::forms::FastOp;

/// Whether the CPU has what [`lanes`] needs: AVX2, FMA and F16C.
pub fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("fma")
        && std::arch::is_x86_feature_detected!("f16c")
}

/// The f32 quiet bit.
const QUIET: i32 = crate::exec::alu::F32_QUIET as i32;

/// Eight lanes of source `v` from lane `at`: `:hf` bits (each lane's low 16 bits, zero
/// above) widened, or f32 bits as they are. A macro, not a function: debug builds do not
/// inline, and a call per source and eight lanes cost more than the conversion.
macro_rules! widen {
    ($v:expr, $at:expr, $half:expr) => {{
        let v: &[u32] = $v;
        let lanes = &v[$at..$at + 8];
        // SAFETY: `lanes` is 8 DWords (32 readable bytes); unaligned loads are allowed.
        let x = unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) };
        if $half {
            // Each DWord is below 2^16: the saturating pack is exact. It packs within
            // 128-bit halves; the permute brings the two packed quarters together.
            let packed = _mm256_packus_epi32(x, x);
            let h = _mm256_permute4x64_epi64::<0b1000>(packed);
            _mm256_cvtph_ps(_mm256_castsi256_si128(h))
        } else {
            _mm256_castsi256_ps(x)
        }
    }};
}

/// `p + q * s` in f64 on four lanes, narrowed to f32 rounding to odd (the nearest f32 toward
/// zero, its last bit set when inexact).
#[inline]
#[target_feature(enable = "avx2,fma,f16c")]
fn mad_to_odd(p: __m128, q: __m128, s: __m128) -> __m128 {
    let (p, q, s) = (_mm256_cvtps_pd(p), _mm256_cvtps_pd(q), _mm256_cvtps_pd(s));
    // The product of two f32 values is exact in f64: one rounding, as `mul_add`.
    let x = _mm256_add_pd(p, _mm256_mul_pd(q, s));
    let r = _mm256_cvtpd_ps(x);
    let back = _mm256_cvtps_pd(r);
    let abs = _mm256_castsi256_pd(_mm256_set1_epi64x(i64::MAX));
    // Rounded away from zero: one step back toward it (the magnitude's bits minus one).
    let away = _mm256_cmp_pd::<_CMP_GT_OQ>(_mm256_and_pd(back, abs), _mm256_and_pd(x, abs));
    let inexact = _mm256_cmp_pd::<_CMP_NEQ_UQ>(back, x);
    let low = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    let narrow = |m: __m256d| {
        _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(m), low))
    };
    let bits = _mm_castps_si128(r);
    let bits = _mm_add_epi32(bits, narrow(away));
    let bits = _mm_or_si128(bits, _mm_and_si128(narrow(inexact), _mm_set1_epi32(1)));
    _mm_castsi128_ps(bits)
}

/// `p + q * s` for eight lanes of halves widened to f32, rounded to odd in f32: the product
/// of two halves (11 significant bits each) is exact in f32, the sum's rounding error is
/// exact too (TwoSum: no overflow, and every value is a multiple of 2^-48, far above f32's
/// smallest), so the exact sum is `sum + err` and its truncation toward zero is `sum`, or
/// one step below it in magnitude where the error points toward zero; inexact results get
/// their last bit set. Twice the lanes per instruction of [`mad_to_odd`]'s f64 route, which
/// `:f` sources need (their product is not exact in f32).
#[inline]
#[target_feature(enable = "avx2,fma,f16c")]
fn mad_halves_to_odd(p: __m256, q: __m256, s: __m256) -> __m256 {
    let prod = _mm256_mul_ps(q, s);
    let sum = _mm256_add_ps(p, prod);
    let back = _mm256_sub_ps(sum, p);
    let err = _mm256_add_ps(
        _mm256_sub_ps(p, _mm256_sub_ps(sum, back)),
        _mm256_sub_ps(prod, back),
    );
    // Ordered: an infinite or NaN sum (its error NaN) stays as it is.
    let inexact = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_NEQ_OQ>(err, _mm256_setzero_ps()));
    let bits = _mm256_castps_si256(sum);
    // All ones where the error's sign differs from the sum's: the exact value is smaller in
    // magnitude, one step back (the magnitude's bits minus one).
    let toward_zero = _mm256_srai_epi32::<31>(_mm256_xor_si256(bits, _mm256_castps_si256(err)));
    let bits = _mm256_add_epi32(bits, _mm256_and_si256(toward_zero, inexact));
    let bits = _mm256_or_si256(bits, _mm256_and_si256(inexact, _mm256_set1_epi32(1)));
    _mm256_castsi256_ps(bits)
}

/// Eight half results of `op` on sources `w` widened to f32 (`half[k]`: source k was `:hf`).
#[inline]
#[target_feature(enable = "avx2,fma,f16c")]
fn eight(op: FastOp, half: [bool; 3], w: [__m256; 3]) -> __m128i {
    let mut x = match op {
        FastOp::Add => _mm256_add_ps(w[0], w[1]),
        FastOp::Mul => _mm256_mul_ps(w[0], w[1]),
        FastOp::Mad if half == [true; 3] => mad_halves_to_odd(w[0], w[1], w[2]),
        FastOp::Mad => {
            let lo = |v: __m256| _mm256_castps256_ps128(v);
            let hi = |v: __m256| _mm256_extractf128_ps::<1>(v);
            let l = mad_to_odd(lo(w[0]), lo(w[1]), lo(w[2]));
            let h = mad_to_odd(hi(w[0]), hi(w[1]), hi(w[2]));
            _mm256_set_m128(h, l)
        }
        _ => w[0],
    };
    // The first NaN source, quieted (applied last for the first source, so it wins);
    // `mov` rounds its NaN as it is (the conversion quiets it). A NaN source gives a NaN
    // result (the odd rounding keeps it one), so results without NaN need no rule.
    let any_nan = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_UNORD_Q>(x, x)) != 0;
    if op != FastOp::Mov && any_nan {
        let quiet = _mm256_castsi256_ps(_mm256_set1_epi32(QUIET));
        for k in (0..arity(op)).rev() {
            let nan = _mm256_cmp_ps::<_CMP_UNORD_Q>(w[k], w[k]);
            x = _mm256_blendv_ps(x, _mm256_or_ps(w[k], quiet), nan);
        }
    }
    _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(x)
}

/// The half results of `op` on lanes `a`, `b`, `c` (`half[k]`: source k is `:hf`) for
/// `L` (a multiple of 8) lanes, each in its lane's low 16 bits.
#[target_feature(enable = "avx2,fma,f16c")]
pub fn lanes<const L: usize>(op: FastOp, half: [bool; 3], [a, b, c]: [&[u32; L]; 3]) -> [u32; L] {
    let mut r = [0u32; L];
    for at in (0..L).step_by(8) {
        let srcs = [a, b, c];
        let mut w = [_mm256_setzero_ps(); 3];
        for k in 0..arity(op) {
            w[k] = widen!(srcs[k], at, half[k]);
        }
        let h = eight(op, half, w);
        let out = &mut r[at..at + 8];
        // SAFETY: `out` is 8 DWords (32 writable bytes); unaligned stores are allowed.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), _mm256_cvtepu16_epi32(h)) };
    }
    r
}

/// [`lanes`] on sources laid out as `super::half_results_packed` takes them: eight lanes per
/// group, as many groups (at most 4) as every source read holds and `out` has room for; lane
/// i's half written to `out[i]`. Returns the groups written. Each group's 16 bytes are stored
/// at once, and a caller reading them back in the same pieces gets them forwarded from the
/// stores (a returned array read back whole stalled on that).
#[inline]
#[target_feature(enable = "avx2,fma,f16c")]
pub fn packed(
    op: FastOp,
    half: [bool; 3],
    groups: usize,
    src: [&[u8]; 3],
    out: &mut [MaybeUninit<u16>],
) -> usize {
    for g in 0..groups.min(4) {
        let mut w = [_mm256_setzero_ps(); 3];
        for k in 0..arity(op) {
            let size = packed_group_bytes(half[k]);
            let Some(b) = src[k].get(size * g..size * (g + 1)) else {
                return g;
            };
            w[k] = if half[k] {
                // SAFETY: `b` is 16 readable bytes; unaligned loads are allowed.
                _mm256_cvtph_ps(unsafe { _mm_loadu_si128(b.as_ptr().cast()) })
            } else {
                // SAFETY: `b` is 32 readable bytes; unaligned loads are allowed.
                _mm256_castsi256_ps(unsafe { _mm256_loadu_si256(b.as_ptr().cast()) })
            };
        }
        let Some(o) = out.get_mut(8 * g..8 * g + 8) else {
            return g;
        };
        let h = eight(op, half, w);
        // SAFETY: `o` is 8 halves (16 writable bytes); unaligned stores are allowed.
        unsafe { _mm_storeu_si128(o.as_mut_ptr().cast(), h) };
    }
    groups.min(4)
}

/// [`packed`] of `super::HALF_FIXED_OPS[OP]` with source k `:hf` where bit k of `HF` is set,
/// inlined here so that the operation and the sources' layout are constants where it is
/// compiled.
#[target_feature(enable = "avx2,fma,f16c")]
pub fn packed_fixed<const OP: usize, const HF: u8>(
    groups: usize,
    src: [&[u8]; 3],
    out: &mut [MaybeUninit<u16>],
) -> usize {
    let half = [HF & 1 != 0, HF & 2 != 0, HF & 4 != 0];
    packed(super::HALF_FIXED_OPS[OP], half, groups, src, out)
}
