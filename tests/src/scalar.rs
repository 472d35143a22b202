//! OpenCL C scalar types as the references see them: size, value generation, arithmetic and
//! comparison on values held as raw little-endian bits in a `u64`.

use crate::rng::Rng;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scalar {
    Char,
    Uchar,
    Short,
    Ushort,
    Int,
    Uint,
    Long,
    Ulong,
    Half,
    Float,
    Double,
}

/// An OpenCL C type as the corpus names it: a scalar and a vector width (1 for scalars).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ty {
    pub scalar: Scalar,
    pub width: usize,
}

const NAMES: [(Scalar, &str); 11] = [
    (Scalar::Char, "char"),
    (Scalar::Uchar, "uchar"),
    (Scalar::Short, "short"),
    (Scalar::Ushort, "ushort"),
    (Scalar::Int, "int"),
    (Scalar::Uint, "uint"),
    (Scalar::Long, "long"),
    (Scalar::Ulong, "ulong"),
    (Scalar::Half, "half"),
    (Scalar::Float, "float"),
    (Scalar::Double, "double"),
];

impl Ty {
    /// Parses `int`, `uchar16`, `float4`, ...
    pub fn parse(s: &str) -> Option<Ty> {
        let digits = s.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let name = &s[..s.len() - digits.len()];
        let scalar = NAMES.iter().find(|(_, n)| *n == name)?.0;
        let width = if digits.is_empty() {
            1
        } else {
            digits.parse().ok()?
        };
        [1, 2, 3, 4, 8, 16]
            .contains(&width)
            .then_some(Ty { scalar, width })
    }

    /// Bytes of one value (OpenCL C: 3-component vectors take the room of 4).
    pub fn size(self) -> usize {
        self.scalar.size() * if self.width == 3 { 4 } else { self.width }
    }
}

impl Scalar {
    pub fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|(s, _)| *s == self)
            .map(|(_, n)| *n)
            .unwrap_or("?")
    }

    pub fn size(self) -> usize {
        match self {
            Scalar::Char | Scalar::Uchar => 1,
            Scalar::Short | Scalar::Ushort | Scalar::Half => 2,
            Scalar::Int | Scalar::Uint | Scalar::Float => 4,
            Scalar::Long | Scalar::Ulong | Scalar::Double => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Half | Scalar::Float | Scalar::Double)
    }

    fn is_signed(self) -> bool {
        matches!(
            self,
            Scalar::Char | Scalar::Short | Scalar::Int | Scalar::Long
        )
    }

    fn mask(self) -> u64 {
        match self.size() {
            8 => u64::MAX,
            n => (1u64 << (8 * n)) - 1,
        }
    }

    /// A value for data movement tests: any bit pattern for integers, a finite value for
    /// floating point (so no NaN payload question arises).
    pub fn random_bits(self, rng: &mut Rng) -> u64 {
        if self.is_float() {
            self.from_f64((rng.next_u64() as i32 >> 16) as f64 / 16.0)
        } else {
            rng.next_u64() & self.mask()
        }
    }

    /// A value for arithmetic tests. Integers take any bit pattern (sums wrap as OpenCL C
    /// integer arithmetic does); floating-point values are small integers so that every sum of
    /// up to 32 of them is exact in the type (half included) and the order of additions, which
    /// the specs leave open, cannot change the result.
    pub fn random_arith(self, rng: &mut Rng) -> u64 {
        if self.is_float() {
            self.from_f64((rng.below(61) as i64 - 30) as f64)
        } else {
            self.random_bits(rng)
        }
    }

    pub fn to_f64(self, bits: u64) -> f64 {
        match self {
            Scalar::Half => half::f16::from_bits(bits as u16).to_f64(),
            Scalar::Float => f32::from_bits(bits as u32) as f64,
            Scalar::Double => f64::from_bits(bits),
            _ => self.to_i128(bits) as f64,
        }
    }

    pub fn from_f64(self, v: f64) -> u64 {
        match self {
            Scalar::Half => half::f16::from_f64(v).to_bits() as u64,
            Scalar::Float => (v as f32).to_bits() as u64,
            Scalar::Double => v.to_bits(),
            _ => (v as i128 as u64) & self.mask(),
        }
    }

    fn to_i128(self, bits: u64) -> i128 {
        let bits = bits & self.mask();
        if self.is_signed() {
            let shift = 64 - 8 * self.size() as u32;
            (((bits << shift) as i64) >> shift) as i128
        } else {
            bits as i128
        }
    }

    pub fn add(self, a: u64, b: u64) -> u64 {
        if self.is_float() {
            self.from_f64(self.to_f64(a) + self.to_f64(b))
        } else {
            a.wrapping_add(b) & self.mask()
        }
    }

    /// `a < b` in the type's order.
    pub fn less(self, a: u64, b: u64) -> bool {
        if self.is_float() {
            self.to_f64(a) < self.to_f64(b)
        } else {
            self.to_i128(a) < self.to_i128(b)
        }
    }

    pub fn min(self, a: u64, b: u64) -> u64 {
        if self.less(b, a) {
            b
        } else {
            a
        }
    }

    pub fn max(self, a: u64, b: u64) -> u64 {
        if self.less(a, b) {
            b
        } else {
            a
        }
    }

    /// The largest value (the identity of min): `TYPE_MAX`, or +INFINITY for floating point.
    pub fn highest(self) -> u64 {
        if self.is_float() {
            self.from_f64(f64::INFINITY)
        } else if self.is_signed() {
            self.mask() >> 1
        } else {
            self.mask()
        }
    }

    /// The smallest value (the identity of max): `TYPE_MIN`, or -INFINITY for floating point.
    pub fn lowest(self) -> u64 {
        if self.is_float() {
            self.from_f64(f64::NEG_INFINITY)
        } else if self.is_signed() {
            (self.mask() >> 1) + 1
        } else {
            0
        }
    }

    /// Equality of results: bit-exact for integers; numeric for floating point, so that +0
    /// and -0 (which the specs do not tell apart for these operations) compare equal.
    pub fn same(self, a: u64, b: u64) -> bool {
        if self.is_float() {
            let (x, y) = (self.to_f64(a), self.to_f64(b));
            x == y || (x.is_nan() && y.is_nan())
        } else {
            (a & self.mask()) == (b & self.mask())
        }
    }

    pub fn read(self, bytes: &[u8]) -> u64 {
        let mut b = [0u8; 8];
        b[..self.size()].copy_from_slice(&bytes[..self.size()]);
        u64::from_le_bytes(b)
    }

    pub fn write(self, bits: u64, out: &mut Vec<u8>) {
        out.extend_from_slice(&bits.to_le_bytes()[..self.size()]);
    }

    pub fn show(self, bits: u64) -> String {
        if self.is_float() {
            format!("{}", self.to_f64(bits))
        } else {
            format!("{:#x}", bits & self.mask())
        }
    }
}

/// Packs scalar values into little-endian bytes.
pub fn pack(s: Scalar, values: &[u64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * s.size());
    for &v in values {
        s.write(v, &mut out);
    }
    out
}

/// Splits little-endian bytes into scalar values.
pub fn unpack(s: Scalar, bytes: &[u8]) -> Vec<u64> {
    bytes.chunks_exact(s.size()).map(|c| s.read(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_parse_as_opencl_c_names_them() {
        assert_eq!(
            Ty::parse("uchar16"),
            Some(Ty {
                scalar: Scalar::Uchar,
                width: 16
            })
        );
        assert_eq!(Ty::parse("double").map(Ty::size), Some(8));
        assert_eq!(Ty::parse("float5"), None);
        assert_eq!(Ty::parse("vec4"), None);
    }

    #[test]
    fn identities_are_the_opencl_limits() {
        assert_eq!(Scalar::Char.highest(), 0x7f);
        assert_eq!(Scalar::Char.lowest(), 0x80);
        assert_eq!(Scalar::Uint.highest(), 0xffff_ffff);
        assert_eq!(Scalar::Long.lowest(), 1 << 63);
        assert_eq!(Scalar::Float.highest(), f32::INFINITY.to_bits() as u64);
        assert_eq!(Scalar::Half.lowest(), 0xfc00);
    }

    #[test]
    fn arithmetic_wraps_and_orders_by_type() {
        assert_eq!(Scalar::Uchar.add(0xff, 2), 1);
        assert!(Scalar::Char.less(0x80, 0x7f));
        assert!(!Scalar::Uchar.less(0x80, 0x7f));
        assert_eq!(Scalar::Half.add(0x3c00, 0x3c00), 0x4000); // 1 + 1 = 2
        assert!(Scalar::Float.same(0, 0x8000_0000));
    }
}
