//! Oracles: the host's IEEE-754 `mul_add`, `/` and `sqrt` (correctly rounded to nearest), and
//! IGC's macro sequences exactly as ocloc emits them for skl (instruction by instruction from
//! `ocloc compile -device skl` + IGC's asm dump), run on these primitives.

use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};

use super::*;

/// A fixed-seed random stream (proptest's XorShift generator), so a failure reproduces.
fn rng(seed: u64) -> TestRng {
    let s = [seed.to_le_bytes(), (!seed).to_le_bytes()].concat();
    TestRng::from_seed(RngAlgorithm::XorShift, &s)
}

const RNE: Rounding = Rounding::NearestEven;

/// Specials and edges of double: zeros, denormals, normal limits, near-overflow, infinities,
/// NaN, and values whose quotients round hard.
fn f64_specials() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        f64::from_bits(1),
        f64::from_bits(0x000f_ffff_ffff_ffff),
        f64::MIN_POSITIVE,
        f64::MIN_POSITIVE * 3.0,
        1.0,
        -1.0,
        3.0,
        0.1,
        7.0,
        2f64.powi(-1000),
        2f64.powi(1000),
        f64::MAX,
        -f64::MAX,
        f64::MAX / 3.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1.0 + f64::EPSILON,
        2.0 - f64::EPSILON,
        9007199254740991.0,
        4503599627370497.0,
    ];
    let neg: Vec<f64> = v.iter().map(|x| -x).collect();
    v.extend(neg);
    v
}

fn same64(got: u64, want: f64) -> bool {
    if want.is_nan() {
        F64.decode(got, 0)
            != Val::Num {
                neg: false,
                m: 0,
                e: 0,
            }
            && f64::from_bits(got).is_nan()
    } else {
        got == want.to_bits()
    }
}

fn same32(got: u64, want: f32) -> bool {
    if want.is_nan() {
        f32::from_bits(got as u32).is_nan()
    } else {
        got == u64::from(want.to_bits())
    }
}

fn d(x: f64) -> Val {
    F64.decode(x.to_bits(), 0)
}
fn s(x: f32) -> Val {
    F32.decode(u64::from(x.to_bits()), 0)
}

#[test]
fn fused_multiply_add_matches_the_host_fma() {
    let sp = f64_specials();
    for &a in &sp {
        for &b in &sp {
            for &c in &[
                0.0,
                -0.0,
                1.0,
                -3.0,
                f64::MIN_POSITIVE,
                f64::INFINITY,
                1e300,
                1e-300,
            ] {
                let (got, x) = F64.fma(d(c), d(a), d(b), 0, RNE);
                assert!(same64(got, a.mul_add(b, c)), "{a:e}*{b:e}+{c:e}");
                assert_eq!(x, 0);
            }
        }
    }
    let mut r = rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..200_000 {
        let (a, b, c) = (
            f64::from_bits(r.next_u64()),
            f64::from_bits(r.next_u64()),
            f64::from_bits(r.next_u64()),
        );
        // Also products near the addend (cancellation): c = -(a*b) rounded.
        let c2 = -(a * b);
        for c in [c, c2] {
            let (got, _) = F64.fma(d(c), d(a), d(b), 0, RNE);
            assert!(same64(got, a.mul_add(b, c)), "{a:e}*{b:e}+{c:e}");
        }
        let (a, b, c) = (
            f32::from_bits(r.next_u64() as u32),
            f32::from_bits(r.next_u64() as u32),
            f32::from_bits(r.next_u64() as u32),
        );
        let (got, _) = F32.fma(s(c), s(a), s(b), 0, RNE);
        assert!(same32(got, a.mul_add(b, c)), "{a:e}*{b:e}+{c:e}");
    }
}

#[test]
fn division_and_square_root_match_the_host() {
    let sp = f64_specials();
    for &a in &sp {
        assert!(same64(F64.sqrt(d(a), RNE).0, a.sqrt()), "sqrt {a:e}");
        for &b in &sp {
            assert!(same64(F64.div(d(a), d(b), 0, RNE).0, a / b), "{a:e}/{b:e}");
        }
    }
    let mut r = rng(42);
    for _ in 0..200_000 {
        let (a, b) = (f64::from_bits(r.next_u64()), f64::from_bits(r.next_u64()));
        assert!(same64(F64.div(d(a), d(b), 0, RNE).0, a / b), "{a:e}/{b:e}");
        assert!(
            same64(F64.sqrt(d(a.abs()), RNE).0, a.abs().sqrt()),
            "sqrt {a:e}"
        );
        let (a, b) = (
            f32::from_bits(r.next_u64() as u32),
            f32::from_bits(r.next_u64() as u32),
        );
        assert!(same32(F32.div(s(a), s(b), 0, RNE).0, a / b), "{a:e}/{b:e}");
        assert!(
            same32(F32.sqrt(s(a.abs()), RNE).0, a.abs().sqrt()),
            "sqrt {a:e}"
        );
    }
}

#[test]
fn directed_modes_bracket_the_exact_quotient() {
    // 1/3 is inexact: up and down are the neighbours around the nearest double.
    let n = 1.0f64 / 3.0;
    let up = F64.div(d(1.0), d(3.0), 0, Rounding::Up).0;
    let down = F64.div(d(1.0), d(3.0), 0, Rounding::Down).0;
    let zero = F64.div(d(-1.0), d(3.0), 0, Rounding::TowardZero).0;
    assert_eq!(up - down, 1);
    assert!(up == n.to_bits() || down == n.to_bits());
    assert_eq!(zero, (-f64::from_bits(down)).to_bits());
    // Exact quotients do not move.
    assert_eq!(F64.div(d(6.0), d(3.0), 0, Rounding::Up).0, 2f64.to_bits());
    // Overflow: to nearest gives infinity, toward zero the largest finite.
    assert_eq!(
        F64.div(d(f64::MAX), d(0.5), 0, RNE).0,
        f64::INFINITY.to_bits()
    );
    assert_eq!(
        F64.div(d(f64::MAX), d(0.5), 0, Rounding::TowardZero).0,
        f64::MAX.to_bits()
    );
}

/// One `.mme` register: bits and accumulator extra bits.
type R = (u64, u8);

struct Seq {
    f: Format,
}
impl Seq {
    fn v(&self, r: R) -> Val {
        self.f.decode(r.0, r.1)
    }
    fn neg(&self, r: R) -> Val {
        match self.v(r) {
            Val::Num { neg, m, e } => Val::Num { neg: !neg, m, e },
            Val::Inf(n) => Val::Inf(!n),
            v => v,
        }
    }
    fn c(&self, x: f64) -> R {
        let bits = if self.f == F64 {
            x.to_bits()
        } else {
            u64::from((x as f32).to_bits())
        };
        (bits, 0)
    }
    /// `madm` to an `.mme` destination.
    fn m(&self, a: Val, b: Val, c: Val) -> R {
        self.f.fma(a, b, c, MME_BITS, RNE)
    }
    fn last(&self, a: Val, b: Val, c: Val) -> u64 {
        self.f.fma(a, b, c, 0, RNE).0
    }

    /// IGC's skl division (`:df` and `:f` forms as emitted).
    fn div(&self, a: u64, b: u64) -> u64 {
        let (a, b) = ((a, 0), (b, 0));
        let (zero, one) = (self.c(0.0), self.c(1.0));
        let (y0, eo) = invm(self.f, self.v(a), self.v(b), RNE);
        if eo {
            return y0.0;
        }
        if self.f == F64 {
            let m1 = self.m(self.v(zero), self.v(a), self.v(y0));
            let m2 = self.m(self.v(one), self.neg(b), self.v(y0));
            let m3 = self.m(self.v(a), self.neg(b), self.v(m1));
            let m4 = self.m(self.v(y0), self.v(m2), self.v(y0));
            let m5 = self.m(self.v(one), self.neg(b), self.v(m4));
            let m6 = self.m(self.v(y0), self.v(m2), self.v(m4));
            let m7 = self.m(self.v(m1), self.v(m3), self.v(m4));
            let m0 = self.m(self.v(m4), self.v(m6), self.v(m5));
            let m1b = self.m(self.v(a), self.neg(b), self.v(m7));
            self.last(self.v(m7), self.v(m1b), self.v(m0))
        } else {
            let m1 = self.m(self.v(zero), self.v(a), self.v(y0));
            let m2 = self.m(self.v(one), self.neg(b), self.v(y0));
            let m3 = self.m(self.v(y0), self.v(m2), self.v(y0));
            let m4 = self.m(self.v(a), self.neg(b), self.v(m1));
            let m5 = self.m(self.v(m1), self.v(m4), self.v(m3));
            let m6 = self.m(self.v(a), self.neg(b), self.v(m5));
            self.last(self.v(m5), self.v(m6), self.v(m3))
        }
    }

    /// IGC's skl square root (`:df` and `:f` forms as emitted).
    fn sqrt(&self, a: u64) -> u64 {
        let a = (a, 0);
        let (zero, half) = (self.c(0.0), self.c(0.5));
        let (y0, eo) = rsqtm(self.f, self.v(a), RNE);
        if eo {
            return y0.0;
        }
        let h0 = self.m(self.v(zero), self.v(half), self.v(y0));
        let s0 = self.m(self.v(zero), self.v(a), self.v(y0));
        let dd = self.m(self.v(half), self.neg(s0), self.v(h0));
        if self.f == F64 {
            let (one, three_halves) = (self.c(1.0), self.c(1.5));
            let p = self.m(self.v(one), self.v(three_halves), self.v(dd));
            let sd = self.m(self.v(zero), self.v(dd), self.v(s0));
            let hd = self.m(self.v(zero), self.v(dd), self.v(h0));
            let s1 = self.m(self.v(s0), self.v(p), self.v(sd));
            let h1 = self.m(self.v(h0), self.v(p), self.v(hd));
            let e = self.m(self.v(a), self.neg(s1), self.v(s1));
            self.last(self.v(s1), self.v(e), self.v(h1))
        } else {
            let h1 = self.m(self.v(h0), self.v(dd), self.v(h0));
            let s1 = self.m(self.v(s0), self.v(dd), self.v(s0));
            let e = self.m(self.v(a), self.neg(s1), self.v(s1));
            self.last(self.v(s1), self.v(h1), self.v(e))
        }
    }
}

#[test]
fn igc_double_sequences_round_correctly() {
    let q = Seq { f: F64 };
    let sp = f64_specials();
    for &a in &sp {
        assert!(same64(q.sqrt(a.to_bits()), a.sqrt()), "sqrt {a:e}");
        for &b in &sp {
            assert!(
                same64(q.div(a.to_bits(), b.to_bits()), a / b),
                "{a:e}/{b:e}"
            );
        }
    }
    let mut r = rng(7);
    for k in 0..300_000 {
        let (mut a, mut b) = (r.next_u64(), r.next_u64());
        if k % 2 == 0 {
            // Exponents near 1 so most pairs take the refinement (not the early out).
            a = a & 0x800f_ffff_ffff_ffff | (0x3f0 + (a >> 52 & 0x1f)) << 52;
            b = b & 0x800f_ffff_ffff_ffff | (0x3f0 + (b >> 52 & 0x1f)) << 52;
        }
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        assert!(same64(q.div(a, b), x / y), "{x:e}/{y:e}");
        assert!(same64(q.sqrt(a & !(1 << 63)), x.abs().sqrt()), "sqrt {x:e}");
        // Quotients near a midpoint: b*(c + half an ulp) for a p-bit c.
        let c = f64::from_bits(b ^ (a & 0xfff)) * 1.5;
        let n = y * c;
        assert!(same64(q.div(n.to_bits(), b), n / y), "{n:e}/{y:e}");
    }
}

#[test]
fn igc_single_sequences_round_correctly() {
    let q = Seq { f: F32 };
    let mut r = rng(11);
    for k in 0..1_000_000 {
        let (mut a, mut b) = (r.next_u64() as u32, r.next_u64() as u32);
        if k % 2 == 0 {
            a = a & 0x807f_ffff | (0x78 + (a >> 23 & 0xf)) << 23;
            b = b & 0x807f_ffff | (0x78 + (b >> 23 & 0xf)) << 23;
        }
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        assert!(same32(q.div(a.into(), b.into()), x / y), "{x:e}/{y:e}");
        assert!(
            same32(q.sqrt((a & !(1 << 31)).into()), x.abs().sqrt()),
            "sqrt {x:e}"
        );
    }
}
