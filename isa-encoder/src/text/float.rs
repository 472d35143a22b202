//! Float immediates the way iga64 prints them: C++ default stream formatting (`%g`, 6 digits)
//! if it parses back bit-exact, else scientific (`%.6e`), else hex; `inf`, `qnan(0x..)`,
//! `snan(0x..)` for the specials, and `.0` appended to a bare integer-looking decimal.

/// C's `%.{p}e` with a two-digit minimum exponent (`1.000000e+07`).
fn c_exp(v: f64, p: usize) -> String {
    let s = format!("{v:.p$e}");
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    let sign = if e < 0 { '-' } else { '+' };
    format!("{mant}e{sign}{:02}", e.abs())
}

/// C's `%g` with precision 6 (what `std::ostream << double` prints by default).
fn c_general(v: f64) -> String {
    const P: i32 = 6;
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    // The exponent after rounding to P significant digits decides the style.
    let e_form = c_exp(v, (P - 1) as usize);
    let x: i32 = e_form
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let strip = |s: String| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if (-4..P).contains(&x) {
        strip(format!("{v:.*}", (P - 1 - x) as usize))
    } else {
        let (mant, exp) = e_form.split_once('e').unwrap_or((&e_form, ""));
        format!("{}e{exp}", strip(mant.to_string()))
    }
}

fn hex(v: u64) -> String {
    format!("0x{v:X}")
}

/// Tries decimal, then scientific; `reparses(text)` says whether `text` reads back exactly.
fn try_decimal(v: f64, reparses: impl Fn(f64) -> bool) -> Option<String> {
    let g = c_general(v);
    if g.parse::<f64>().is_ok_and(&reparses) {
        if !g.contains(['.', 'e', 'E']) {
            return Some(format!("{g}.0"));
        }
        return Some(g);
    }
    let e = c_exp(v, 6);
    if e.parse::<f64>().is_ok_and(&reparses) {
        return Some(e);
    }
    None
}

fn nan(sign: bool, quiet: bool, payload: u64) -> String {
    format!(
        "{}{}({})",
        if sign { "-" } else { "" },
        if quiet { "qnan" } else { "snan" },
        hex(payload)
    )
}

/// A `:f` immediate.
pub fn format_f32(bits: u32) -> String {
    let x = f32::from_bits(bits);
    if x.is_infinite() {
        return if x < 0.0 { "-inf" } else { "inf" }.to_string();
    }
    if x.is_nan() {
        return nan(
            bits >> 31 != 0,
            bits & (1 << 22) != 0,
            (bits & ((1 << 22) - 1)) as u64,
        );
    }
    try_decimal(x as f64, |y| (y as f32).to_bits() == bits).unwrap_or_else(|| hex(bits as u64))
}

/// A `:df` immediate.
pub fn format_f64(bits: u64) -> String {
    let x = f64::from_bits(bits);
    if x.is_infinite() {
        return if x < 0.0 { "-inf" } else { "inf" }.to_string();
    }
    if x.is_nan() {
        return nan(
            bits >> 63 != 0,
            bits & (1 << 51) != 0,
            bits & ((1 << 51) - 1),
        );
    }
    try_decimal(x, |y| y.to_bits() == bits).unwrap_or_else(|| hex(bits))
}

/// Half to single precision (exact: every half is a float).
pub fn half_to_f32(h: u16) -> f32 {
    let sign = ((h as u32) & 0x8000) << 16;
    let exp = ((h >> 10) & 0x1F) as u32;
    let mant = (h & 0x3FF) as u32;
    let bits = match (exp, mant) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal half: normalise.
            let shift = m.leading_zeros() - 21;
            let m = (m << shift) & 0x3FF;
            sign | ((127 - 15 + 1 - shift) << 23) | (m << 13)
        }
        (0x1F, m) => sign | 0x7F80_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// Single to half precision, round to nearest even (only used to check exact round trips).
pub fn f32_to_half(f: f32) -> Option<u16> {
    let h = half::to_half(f);
    (half_to_f32(h).to_bits() == f.to_bits()).then_some(h)
}

mod half {
    /// Nearest half for values whose exactness is then checked by the caller.
    pub fn to_half(f: f32) -> u16 {
        let b = f.to_bits();
        let sign = ((b >> 16) & 0x8000) as u16;
        let exp = ((b >> 23) & 0xFF) as i32;
        let mant = b & 0x7F_FFFF;
        if exp == 0xFF {
            return sign | 0x7C00 | ((mant >> 13) as u16) | u16::from(mant != 0 && mant >> 13 == 0);
        }
        let e = exp - 127 + 15;
        if e >= 0x1F {
            return sign | 0x7C00;
        }
        if e <= 0 {
            if e < -10 {
                return sign;
            }
            let m = (mant | 0x80_0000) >> (1 - e);
            return sign | ((m + 0x1000) >> 13) as u16;
        }
        let v = ((e as u32) << 10) | (mant >> 13);
        let round = (mant >> 12) & 1 != 0 && ((mant & 0x1FFF) != 0x1000 || v & 1 != 0);
        sign | (v + round as u32) as u16
    }
}

/// A `:hf` immediate.
pub fn format_f16(bits: u16) -> String {
    let x = half_to_f32(bits);
    if x.is_nan() {
        return nan(
            bits >> 15 != 0,
            bits & (1 << 9) != 0,
            (bits & ((1 << 9) - 1)) as u64,
        );
    }
    if f32_to_half(x) != Some(bits) {
        return hex(bits as u64);
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf" } else { "inf" }.to_string();
    }
    let fb = x.to_bits();
    try_decimal(x as f64, |y| (y as f32).to_bits() == fb).unwrap_or_else(|| hex(bits as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected strings are iga64 -d output for `mov (8|M0) r1.0<1>:f IMM:f` (IGC 1.0.12504).
    #[test]
    fn matches_iga64_samples() {
        let cases: [(u32, &str); 11] = [
            (0x3F80_0000, "1.0"),
            (0x3F00_0000, "0.5"),
            (0x4049_0FDB, "0x40490FDB"),
            (0x7F80_0000, "inf"),
            (0xFF80_0000, "-inf"),
            (0x7FC0_0000, "qnan(0x0)"),
            (0x8000_0000, "-0.0"),
            (0x0000_0001, "1.4013e-45"),
            (0x4B18_9680, "1e+07"),
            (0x5F00_0000, "9.223372e+18"),
            (0x3DCC_CCCD, "0.1"),
        ];
        for (bits, want) in cases {
            assert_eq!(format_f32(bits), want, "{bits:#x}");
        }
        assert_eq!(format_f64(0x3FF0_0000_0000_0000), "1.0");
        assert_eq!(format_f64(0x3FB9_9999_9999_999A), "0.1");
        assert_eq!(format_f16(0x3C00), "1.0");
        assert_eq!(format_f16(0x7C00), "inf");
    }
}
