//! The floating-point rounding mode in cr0.0 bits 5:4 (Skylake PRM Vol 7 Part 1, "Control
//! Register": 00b round to nearest even, 01b toward +inf, 10b toward -inf, 11b toward zero;
//! Mesa's brw_eu_defines.h names the same field and values). IGC switches to toward-zero
//! (`xor cr0.0, cr0.0, 0x30`) around its integer-division emulation, whose quotient estimate
//! must not exceed the true quotient; rounding to nearest there gives wrong remainders.
//!
//! The interpreter honours the mode for single- and half-precision results (arithmetic and
//! conversions to `:f` and `:hf`), computed in double precision and rounded once in the mode
//! (a three-source result may differ from a fused single rounding when the double result is
//! itself inexact). Double-precision results round to nearest.
//!
//! A half result is the double value rounded to single in the same direction and then to
//! half: for the directed modes two roundings the same way equal one (the half grid is part of
//! the single grid); to nearest, the single step rounds to odd, which keeps the second
//! rounding exact (24 bits ≥ 11 + 2).

use super::convert::{f16_to_f32, f32_to_f16};
use super::regfile::{Thread, CR0};

/// cr0.0's rounding mode field.
const FIELD_SHIFT: u32 = 4;
const FIELD_MASK: u32 = 0b11;
/// The field's bits in cr0.0 (all in its low byte).
pub(crate) const FIELD_BITS: u32 = FIELD_MASK << FIELD_SHIFT;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    NearestEven,
    Up,
    Down,
    TowardZero,
}

impl Rounding {
    /// The mode a thread's cr0.0 selects.
    pub fn of(t: &Thread) -> Rounding {
        let cr0 = u32::from_le_bytes([
            t.file[CR0],
            t.file[CR0 + 1],
            t.file[CR0 + 2],
            t.file[CR0 + 3],
        ]);
        match (cr0 >> FIELD_SHIFT) & FIELD_MASK {
            0 => Rounding::NearestEven,
            1 => Rounding::Up,
            2 => Rounding::Down,
            _ => Rounding::TowardZero,
        }
    }

    /// `x` rounded to single precision in this mode.
    pub fn to_f32(self, x: f64) -> f32 {
        let r = x as f32;
        if self == Rounding::NearestEven || x.is_nan() || f64::from(r) == x {
            return r;
        }
        // r is the nearest single: the directed result is r or its neighbour toward x.
        let above = f64::from(r) > x;
        match self {
            Rounding::Up if !above => next_up(r),
            Rounding::Down if above => next_down(r),
            Rounding::TowardZero if f64::from(r).abs() > x.abs() => {
                if r > 0.0 {
                    next_down(r)
                } else {
                    next_up(r)
                }
            }
            _ => r,
        }
    }
}

impl Rounding {
    /// The 64-bit integer `v` (its bits read as unsigned when `unsigned`) as single precision,
    /// rounded once in this mode (through double precision, a value past 2^53 would be rounded
    /// twice).
    pub fn int_to_f32(self, v: i64, unsigned: bool) -> f32 {
        let (negative, magnitude) = if unsigned {
            (false, v as u64)
        } else {
            (v < 0, v.unsigned_abs())
        };
        if magnitude < 1 << 53 {
            // Exact in double precision: one rounding, in `to_f32`.
            let m = magnitude as f64;
            return self.to_f32(if negative { -m } else { m });
        }
        // Keep the 24 leading bits; the rest decides the direction.
        let shift = 64 - magnitude.leading_zeros() - 24;
        let kept = magnitude >> shift;
        let rest = magnitude & ((1 << shift) - 1);
        let half = 1 << (shift - 1);
        let away = match self {
            Rounding::NearestEven => rest > half || (rest == half && kept & 1 == 1),
            Rounding::Up => rest != 0 && !negative,
            Rounding::Down => rest != 0 && negative,
            Rounding::TowardZero => false,
        };
        // Exact: at most 2^24 times a power of two below 2^41 (its bits: the biased exponent).
        let m = (kept + u64::from(away)) as f32 * f32::from_bits((127 + shift) << 23);
        if negative {
            -m
        } else {
            m
        }
    }

    /// `x` rounded to IEEE half precision in this mode (bits); NaN stays NaN.
    pub fn to_f16(self, x: f64) -> u16 {
        if x.is_nan() {
            return f32_to_f16(x as f32);
        }
        if self == Rounding::NearestEven {
            // Round to odd at single precision, then to nearest half.
            let r = Rounding::TowardZero.to_f32(x);
            let odd = if f64::from(r) == x {
                r
            } else {
                f32::from_bits(r.to_bits() | 1)
            };
            return f32_to_f16(odd);
        }
        let y = self.to_f32(x);
        let h = f32_to_f16(y);
        let v = f16_to_f32(h);
        if v == y {
            return h;
        }
        let above = v > y;
        match self {
            Rounding::Up if !above => f16_next_up(h),
            Rounding::Down if above => f16_next_down(h),
            Rounding::TowardZero if v.abs() > y.abs() => {
                if v > 0.0 {
                    f16_next_down(h)
                } else {
                    f16_next_up(h)
                }
            }
            _ => h,
        }
    }
}

/// The next half toward +inf (`h` not NaN).
fn f16_next_up(h: u16) -> u16 {
    match h {
        0x7c00 => h,
        0x0000 | 0x8000 => 0x0001,
        _ if h & 0x8000 == 0 => h + 1,
        _ => h - 1,
    }
}

/// The next half toward -inf (`h` not NaN).
fn f16_next_down(h: u16) -> u16 {
    f16_next_up(h ^ 0x8000) ^ 0x8000
}

/// The next single-precision value toward -inf.
fn next_down(v: f32) -> f32 {
    -next_up(-v)
}

/// The next single-precision value toward +inf (`v` not NaN).
fn next_up(v: f32) -> f32 {
    if v == f32::INFINITY {
        return v;
    }
    if v == 0.0 {
        return f32::from_bits(1);
    }
    let b = v.to_bits();
    f32::from_bits(if v > 0.0 { b + 1 } else { b - 1 })
}

#[cfg(test)]
mod tests {
    use super::Rounding::*;
    use crate::convert::f16_to_f32;

    #[test]
    fn directed_modes_round_an_inexact_value_the_way_they_name() {
        // 3735928559 lies between the singles 3735928320 and 3735928576.
        let x = 3_735_928_559f64;
        assert_eq!(NearestEven.to_f32(x), 3_735_928_576.0);
        assert_eq!(TowardZero.to_f32(x), 3_735_928_320.0);
        assert_eq!(Down.to_f32(x), 3_735_928_320.0);
        assert_eq!(Up.to_f32(x), 3_735_928_576.0);
        assert_eq!(TowardZero.to_f32(-x), -3_735_928_320.0);
        assert_eq!(Down.to_f32(-x), -3_735_928_576.0);
        assert_eq!(Up.to_f32(-x), -3_735_928_320.0);
        // Exact values and overflow toward zero.
        assert_eq!(TowardZero.to_f32(0.5), 0.5);
        assert_eq!(TowardZero.to_f32(1e300), f32::MAX);
    }

    #[test]
    fn half_results_round_once_in_each_mode() {
        // 1 + 2^-11 + 2^-30 lies just above the tie between the halves 1.0 (0x3c00) and
        // 1 + 2^-10 (0x3c01): to nearest it is 0x3c01 (IEEE 754 roundTiesToEven only breaks
        // exact ties); rounding it to single first would make it the tie and give 0x3c00.
        let x = 1.0 + 2f64.powi(-11) + 2f64.powi(-30);
        assert_eq!(NearestEven.to_f16(x), 0x3c01);
        assert_eq!(TowardZero.to_f16(x), 0x3c00);
        assert_eq!(Down.to_f16(x), 0x3c00);
        assert_eq!(Up.to_f16(x), 0x3c01);
        assert_eq!(TowardZero.to_f16(-x), 0xbc00);
        assert_eq!(Down.to_f16(-x), 0xbc01);
        assert_eq!(Up.to_f16(-x), 0xbc00);
        // Ties to even, exact values, overflow (65504 is the largest half), the smallest
        // subnormal (2^-24), and signed zero.
        assert_eq!(NearestEven.to_f16(1.0 + 2f64.powi(-11)), 0x3c00);
        assert_eq!(TowardZero.to_f16(0.5), 0x3800);
        assert_eq!(NearestEven.to_f16(65520.0), 0x7c00);
        assert_eq!(TowardZero.to_f16(65520.0), 0x7bff);
        assert_eq!(Down.to_f16(1e300), 0x7bff);
        assert_eq!(Up.to_f16(65504.5), 0x7c00);
        assert_eq!(Down.to_f16(-65504.5), 0xfc00);
        assert_eq!(Up.to_f16(2f64.powi(-30)), 0x0001);
        assert_eq!(TowardZero.to_f16(2f64.powi(-30)), 0x0000);
        assert_eq!(Down.to_f16(-(2f64.powi(-30))), 0x8001);
        assert_eq!(Up.to_f16(-(2f64.powi(-30))), 0x8000);
        assert_eq!(NearestEven.to_f16(-0.0), 0x8000);
        assert!(f16_to_f32(TowardZero.to_f16(f64::NAN)).is_nan());
    }
}
