//! One printf conversion as C99 (§7.19.6.1) and OpenCL C 3.0 (§6.15.14) define it: the
//! specification's parts parsed from the format text, and a value written out by them.
//! Pure Rust: formats come from kernels, so nothing reaches libc's varargs.

/// A parsed conversion specification: `%[flags][width][.precision][vN][length]conversion`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Spec {
    pub left: bool,
    pub plus: bool,
    pub space: bool,
    pub alt: bool,
    pub zero: bool,
    pub width: usize,
    pub precision: Option<usize>,
    /// OpenCL's vector specifier `vN` (2, 3, 4, 8 or 16).
    pub vector: Option<u8>,
    /// Bits the length modifier names for integers (`hh` 8, `h` 16, `hl`/none 32, `l` 64).
    pub int_bits: Option<u32>,
    pub conversion: u8,
}

/// Widths and precisions above this are refused: a kernel's format cannot make the host
/// allocate without bound.
pub const MAX_FIELD: usize = 4096;

/// The conversion characters C99 and OpenCL C define.
pub fn is_conversion(c: u8) -> bool {
    b"diouxXaAeEfFgGcsp".contains(&c)
}

/// Parses `spec` (from after the `%` through the conversion character). `None` when it is
/// not one C99/OpenCL C define.
pub fn parse(spec: &[u8]) -> Option<Spec> {
    let mut s = Spec::default();
    let mut i = 0;
    while let Some(&c) = spec.get(i) {
        match c {
            b'-' => s.left = true,
            b'+' => s.plus = true,
            b' ' => s.space = true,
            b'#' => s.alt = true,
            b'0' => s.zero = true,
            _ => break,
        }
        i += 1;
    }
    let number = |i: &mut usize| -> Option<usize> {
        let start = *i;
        while spec.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        let digits = std::str::from_utf8(&spec[start..*i]).ok()?;
        if digits.is_empty() {
            return Some(0);
        }
        digits.parse().ok().filter(|&n| n <= MAX_FIELD)
    };
    s.width = number(&mut i)?;
    if spec.get(i) == Some(&b'.') {
        i += 1;
        s.precision = Some(number(&mut i)?);
    }
    if spec.get(i) == Some(&b'v') {
        let start = i + 1;
        i = start;
        while spec.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let n: u8 = std::str::from_utf8(&spec[start..i]).ok()?.parse().ok()?;
        if ![2, 3, 4, 8, 16].contains(&n) {
            return None;
        }
        s.vector = Some(n);
    }
    let rest = &spec[i..];
    let (bits, len) = match rest {
        [b'h', b'h', ..] => (Some(8), 2),
        [b'h', b'l', ..] => (Some(32), 2),
        [b'h', ..] => (Some(16), 1),
        [b'l', b'l', ..] => (Some(64), 2),
        [b'l' | b'j' | b'z' | b't', ..] => (Some(64), 1),
        _ => (None, 0),
    };
    s.int_bits = bits;
    match &rest[len..] {
        [c] if is_conversion(*c) => s.conversion = *c,
        _ => return None,
    }
    // `hl` is for vectors only, and vectors need a length modifier and a numeric
    // conversion (§6.15.14.2).
    let hl = len == 2 && rest[..2] == *b"hl";
    if s.vector.is_some() {
        if bits.is_none() || matches!(s.conversion, b'c' | b's' | b'p') {
            return None;
        }
    } else if hl {
        return None;
    }
    Some(s)
}

/// One argument as the kernel stored it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'a> {
    /// An integer of `bits` bits (its two's-complement bits in the low part).
    Int {
        bits: u32,
        value: u64,
    },
    Float(f64),
    Str(&'a [u8]),
    Pointer(u64),
}

/// Appends `v` written by `s` to `out`.
pub fn write(out: &mut Vec<u8>, s: &Spec, v: Value<'_>) {
    let conv = s.conversion;
    let body: (Vec<u8>, Vec<u8>) = match conv {
        b'd' | b'i' | b'o' | b'u' | b'x' | b'X' | b'c' => {
            let (bits, raw) = match v {
                Value::Int { bits, value } => (s.int_bits.unwrap_or(bits.max(32)), value),
                Value::Float(f) => (64, f as i64 as u64),
                Value::Pointer(p) => (64, p),
                Value::Str(_) => (32, 0),
            };
            if conv == b'c' {
                (Vec::new(), vec![raw as u8])
            } else {
                integer(s, bits, raw)
            }
        }
        b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
            let f = match v {
                Value::Float(f) => f,
                Value::Int { bits, value } => sign_extend(value, bits) as f64,
                Value::Pointer(p) => p as f64,
                Value::Str(_) => 0.0,
            };
            float(s, f)
        }
        b's' => {
            let text: &[u8] = match v {
                Value::Str(t) => t,
                _ => b"(null)",
            };
            let n = s.precision.map_or(text.len(), |p| p.min(text.len()));
            (Vec::new(), text[..n].to_vec())
        }
        // %p as glibc writes it (OpenCL leaves it implementation-defined).
        _ => {
            let p = match v {
                Value::Pointer(p) | Value::Int { value: p, .. } => p,
                _ => 0,
            };
            if p == 0 {
                (Vec::new(), b"(nil)".to_vec())
            } else {
                let mut sign = sign_of(s, false);
                sign.extend_from_slice(b"0x");
                (sign, format!("{p:x}").into_bytes())
            }
        }
    };
    pad(out, s, body.0, body.1);
}

fn sign_extend(v: u64, bits: u32) -> i64 {
    let shift = 64 - bits.clamp(1, 64);
    ((v << shift) as i64) >> shift
}

fn sign_of(s: &Spec, negative: bool) -> Vec<u8> {
    if negative {
        b"-".to_vec()
    } else if s.plus {
        b"+".to_vec()
    } else if s.space {
        b" ".to_vec()
    } else {
        Vec::new()
    }
}

/// Prefix (sign, `0x`) and digits of an integer conversion.
fn integer(s: &Spec, bits: u32, raw: u64) -> (Vec<u8>, Vec<u8>) {
    let bits = bits.clamp(8, 64);
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    };
    let (negative, mag) = match s.conversion {
        b'd' | b'i' => {
            let v = sign_extend(raw, bits);
            (v < 0, v.unsigned_abs())
        }
        _ => (false, raw & mask),
    };
    let mut digits = match s.conversion {
        b'o' => format!("{mag:o}"),
        b'x' => format!("{mag:x}"),
        b'X' => format!("{mag:X}"),
        _ => mag.to_string(),
    }
    .into_bytes();
    if s.precision == Some(0) && mag == 0 {
        digits.clear();
    }
    let min = s.precision.unwrap_or(1);
    if digits.len() < min {
        let mut d = vec![b'0'; min - digits.len()];
        d.extend_from_slice(&digits);
        digits = d;
    }
    let mut prefix = if matches!(s.conversion, b'd' | b'i') {
        sign_of(s, negative)
    } else {
        Vec::new()
    };
    if s.alt {
        match s.conversion {
            b'o' if digits.first() != Some(&b'0') => digits.insert(0, b'0'),
            b'x' if mag != 0 => prefix.extend_from_slice(b"0x"),
            b'X' if mag != 0 => prefix.extend_from_slice(b"0X"),
            _ => {}
        }
    }
    (prefix, digits)
}

/// Pads `prefix` + `body` to the width: spaces left or right, or zeros between them.
fn pad(out: &mut Vec<u8>, s: &Spec, prefix: Vec<u8>, body: Vec<u8>) {
    let len = prefix.len() + body.len();
    let fill = s.width.saturating_sub(len);
    let numeric = !matches!(s.conversion, b'c' | b's' | b'p');
    let int = matches!(s.conversion, b'd' | b'i' | b'o' | b'u' | b'x' | b'X');
    let finite = !matches!(&body[..], b"inf" | b"nan" | b"INF" | b"NAN");
    let zeros = s.zero && !s.left && numeric && finite && !(int && s.precision.is_some());
    if s.left {
        out.extend_from_slice(&prefix);
        out.extend_from_slice(&body);
        out.resize(out.len() + fill, b' ');
    } else if zeros {
        out.extend_from_slice(&prefix);
        out.resize(out.len() + fill, b'0');
        out.extend_from_slice(&body);
    } else {
        out.resize(out.len() + fill, b' ');
        out.extend_from_slice(&prefix);
        out.extend_from_slice(&body);
    }
}

/// Sign and body of a floating-point conversion.
fn float(s: &Spec, f: f64) -> (Vec<u8>, Vec<u8>) {
    let upper = s.conversion.is_ascii_uppercase();
    let mut sign = sign_of(s, f.is_sign_negative());
    let a = f.abs();
    let mut body = if a.is_infinite() {
        "inf".to_string()
    } else if a.is_nan() {
        "nan".to_string()
    } else {
        match s.conversion.to_ascii_lowercase() {
            b'f' => fixed(a, s.precision.unwrap_or(6), s.alt),
            b'e' => exponent(a, s.precision.unwrap_or(6), s.alt),
            b'g' => general(a, s.precision.unwrap_or(6), s.alt),
            _ => hex(a, s.precision, s.alt),
        }
    };
    if upper {
        body = body.to_ascii_uppercase();
    }
    // %a's 0x belongs before any zero padding.
    if let Some(rest) = body.strip_prefix("0x").or(body.strip_prefix("0X")) {
        sign.extend_from_slice(&body.as_bytes()[..2]);
        body = rest.to_string();
    }
    (sign, body.into_bytes())
}

fn fixed(a: f64, p: usize, alt: bool) -> String {
    // Rust writes the exactly rounded decimal expansion, as glibc does.
    let mut t = format!("{a:.p$}");
    if alt && p == 0 {
        t.push('.');
    }
    t
}

/// `d.ddde±XX`, and the exponent.
fn exponent_parts(a: f64, p: usize, alt: bool) -> (String, i32) {
    let t = format!("{a:.p$e}");
    let (mant, exp) = t.split_once('e').unwrap_or((&t, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut m = mant.to_string();
    if alt && p == 0 {
        m.push('.');
    }
    let sign = if exp < 0 { '-' } else { '+' };
    (format!("{m}e{sign}{:02}", exp.unsigned_abs()), exp)
}

fn exponent(a: f64, p: usize, alt: bool) -> String {
    exponent_parts(a, p, alt).0
}

fn general(a: f64, p: usize, alt: bool) -> String {
    let p = p.max(1);
    // The exponent the %e style would have at this precision decides (C99 7.19.6.1).
    let (_, x) = exponent_parts(a, p - 1, false);
    let mut t = if (x as i64) < p as i64 && x >= -4 {
        fixed(a, (p as i64 - 1 - x as i64) as usize, alt)
    } else {
        exponent(a, p - 1, alt)
    };
    if !alt {
        let (mant, exp) = match t.find('e') {
            Some(i) => (t[..i].to_string(), t[i..].to_string()),
            None => (t.clone(), String::new()),
        };
        let mant = if mant.contains('.') {
            mant.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            mant
        };
        t = mant + &exp;
    }
    t
}

/// `%a`: `0xh.hhhp±d` as glibc writes a double (normals lead with 1, subnormals with 0).
fn hex(a: f64, precision: Option<usize>, alt: bool) -> String {
    if a == 0.0 {
        return match precision {
            Some(p) if p > 0 => format!("0x0.{}p+0", "0".repeat(p)),
            _ if alt => "0x0.p+0".into(),
            _ => "0x0p+0".into(),
        };
    }
    let bits = a.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let mut frac = bits & ((1 << 52) - 1);
    let (mut lead, exp) = if biased == 0 {
        (0u64, -1022)
    } else {
        (1u64, biased - 1023)
    };
    let mut digits = 13usize;
    if let Some(p) = precision.filter(|&p| p < 13) {
        // Round the 52-bit fraction to p hex digits, ties to even.
        let drop = 4 * (13 - p) as u32;
        let rem = frac & ((1 << drop) - 1);
        let half = 1u64 << (drop - 1);
        frac >>= drop;
        // Ties go to the even last kept digit (the leading one when none is kept).
        let odd = if p == 0 { lead & 1 } else { frac & 1 };
        if rem > half || (rem == half && odd == 1) {
            frac += 1;
            if frac >> (4 * p) != 0 {
                frac &= (1 << (4 * p)) - 1;
                lead += 1;
            }
        }
        digits = p;
    }
    let mut f = if digits == 0 {
        String::new()
    } else {
        format!("{frac:0digits$x}")
    };
    match precision {
        Some(p) if p > 13 => f.push_str(&"0".repeat(p - 13)),
        Some(_) => {}
        None => f = f.trim_end_matches('0').to_string(),
    }
    let dot = if f.is_empty() && !alt { "" } else { "." };
    let sign = if exp < 0 { '-' } else { '+' };
    format!("0x{lead}{dot}{f}p{sign}{}", exp.unsigned_abs())
}
