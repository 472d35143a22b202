//! IEEE half and bfloat16 conversions (round to nearest even), and the packed vector
//! immediates `:v`, `:uv`, `:vf`.

/// IEEE binary16: the bits below the sign, an infinity's bits (exponent all ones, zero
/// fraction: above them, a NaN), and a NaN's quiet bit (the fraction's highest).
pub const F16_MAGNITUDE: u16 = 0x7fff;
pub const F16_INFINITY: u16 = 0x7c00;
pub const F16_QUIET: u16 = 0x0200;

/// Whether IEEE binary16 bits `h` (in the low 16 bits) are a NaN: exponent all ones, a
/// non-zero fraction.
pub fn f16_is_nan(h: u32) -> bool {
    h & u32::from(F16_MAGNITUDE) > u32::from(F16_INFINITY)
}

/// IEEE binary16 bits to f32 (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: value = m * 2^-24.
            let v = m as f32 * f32::from_bits(0x3380_0000);
            return if sign != 0 { -v } else { v };
        }
        (0x1f, 0) => sign | 0x7f80_0000,
        (0x1f, m) => sign | 0x7fc0_0000 | (m << 13),
        (e, m) => sign | ((e + 112) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// f32 to IEEE binary16 bits, round to nearest even; NaN stays NaN.
pub fn f32_to_f16(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xff) as i32;
    let man = x & 0x7f_ffff;
    if exp == 0xff {
        return sign
            | F16_INFINITY
            | if man != 0 {
                F16_QUIET | (man >> 13) as u16
            } else {
                0
            };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | F16_INFINITY;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rem = m & ((1u32 << shift) - 1);
        let mut r = m >> shift;
        if rem > half || (rem == half && r & 1 == 1) {
            r += 1;
        }
        return sign | r as u16;
    }
    let mut r = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    if rem > 0x1000 || (rem == 0x1000 && r & 1 == 1) {
        r += 1;
    }
    sign | r as u16
}

/// bfloat16 bits to f32.
pub fn bf16_to_f32(b: u16) -> f32 {
    f32::from_bits(u32::from(b) << 16)
}

/// f32 to bfloat16, round to nearest even.
pub fn f32_to_bf16(f: f32) -> u16 {
    let x = f.to_bits();
    if f.is_nan() {
        return ((x >> 16) | 0x40) as u16;
    }
    let round = 0x7fff + ((x >> 16) & 1);
    (x.wrapping_add(round) >> 16) as u16
}

/// The restricted 8-bit float of `:vf` immediates: sign, 3-bit exponent (bias 3), 4-bit
/// mantissa, no denormals; only the all-zero magnitude is zero.
pub fn vf_to_f32(b: u8) -> f32 {
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    if b & 0x7f == 0 {
        return sign * 0.0;
    }
    let exp = i32::from((b >> 4) & 7);
    let man = f32::from(b & 0xf);
    sign * (1.0 + man / 16.0) * 2f32.powi(exp - 3)
}

/// 2^23: from here on every f32 is an integer.
pub(crate) const INTEGRAL: f32 = 8_388_608.0;

/// `x` rounded to the nearest integer, ties to even, as `f32::round_ties_even`, without the
/// libm call the baseline x86-64 build makes for it (it has no rounding instruction): below
/// 2^23 in magnitude, adding 2^23 leaves only integers, so the addition itself rounds to
/// nearest even and taking 2^23 away again is exact.
#[inline]
pub fn rint(x: f32) -> f32 {
    if x.abs() >= INTEGRAL || x.is_nan() {
        // Already an integer, an infinity or a NaN.
        return x;
    }
    let r = (x.abs() + INTEGRAL) - INTEGRAL;
    r.copysign(x)
}

/// `floor(x) as i64` (saturating, NaN 0), without the libm call `f32::floor` makes in the
/// baseline x86-64 build: truncation is one instruction, and it is one too high exactly
/// when it lands above `x`.
#[inline]
pub fn floor_i64(x: f32) -> i64 {
    let t = x as i64;
    if (t as f32) > x {
        t.saturating_sub(1)
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_is_nan_is_the_widened_value_a_nan() {
        for h in 0..=u16::MAX {
            assert_eq!(f16_is_nan(u32::from(h)), f16_to_f32(h).is_nan(), "{h:#06x}");
        }
    }

    #[test]
    fn half_round_trips_every_value() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            if f.is_nan() {
                assert!(f16_to_f32(f32_to_f16(f)).is_nan());
            } else {
                assert_eq!(f32_to_f16(f), h, "{h:#x}");
            }
        }
    }

    /// Values to check rounding on: a spread over every bit pattern (a prime stride), and
    /// around each half-integer up to 2^17 on both sides of zero, where ties are.
    fn rounding_cases() -> impl Iterator<Item = f32> {
        let spread = (0..=u32::MAX).step_by(4099).map(f32::from_bits);
        let halves = (0..1u32 << 17).flat_map(|n| {
            let h = n as f32 + 0.5;
            [
                h,
                h.next_up(),
                h.next_down(),
                n as f32,
                -h,
                -h.next_up(),
                -(n as f32),
            ]
        });
        spread
            .chain(halves)
            .chain([f32::INFINITY, f32::NEG_INFINITY, f32::MAX, -0.0])
    }

    #[test]
    fn rint_is_round_ties_even() {
        for x in rounding_cases() {
            let (got, want) = (rint(x), x.round_ties_even());
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "rint({x:e}) = {got:e}, want {want:e}"
            );
        }
    }

    #[test]
    fn floor_i64_is_floor_cast() {
        for x in rounding_cases() {
            assert_eq!(floor_i64(x), x.floor() as i64, "floor_i64({x:e})");
        }
    }

    #[test]
    fn half_rounds_to_nearest_even() {
        // 1 + 2^-11 is halfway between 1 and the next half (1 + 2^-10): ties to even (1.0).
        assert_eq!(f32_to_f16(1.0 + 2f32.powi(-11)), 0x3c00);
        assert_eq!(f32_to_f16(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
    }

    #[test]
    fn vf_values_from_the_prm_table() {
        // PRM "Restricted float": 0x30 = 1.0, 0x40 = 2.0, 0x38 = 1.5, 0xb0 = -1.0.
        assert_eq!(vf_to_f32(0x30), 1.0);
        assert_eq!(vf_to_f32(0x40), 2.0);
        assert_eq!(vf_to_f32(0x38), 1.5);
        assert_eq!(vf_to_f32(0xb0), -1.0);
        assert_eq!(vf_to_f32(0x00), 0.0);
    }
}
