//! The floating-point rounding mode in cr0.0 bits 5:4 (Skylake PRM Vol 7 Part 1, "Control
//! Register": 00b round to nearest even, 01b toward +inf, 10b toward -inf, 11b toward zero;
//! Mesa's brw_eu_defines.h names the same field and values). IGC switches to toward-zero
//! (`xor cr0.0, cr0.0, 0x30`) around its integer-division emulation, whose quotient estimate
//! must not exceed the true quotient; rounding to nearest there gives wrong remainders.
//!
//! The interpreter honours the mode for single-precision results (arithmetic and conversions
//! to `:f`), computed in double precision and rounded once in the mode (a three-source
//! result may differ from a fused single rounding when the double result is itself
//! inexact). Half- and double-precision results round to nearest.

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
}
