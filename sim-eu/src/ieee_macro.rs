//! The arithmetic of the IEEE math macros (`math.invm`, `math.rsqtm`, `madm`): the one place
//! their semantics live (the executor in `exec/macros.rs` only moves lanes).
//!
//! Facts (IGC's vISA lowering, TranslateMath.cpp; IGA's operand model): `invm`/`rsqtm` take
//! `:f` or `:df` sources, write an approximation of 1/src1 (1/sqrt(src0)) with two extra
//! significand bits kept in a math-macro accumulator (`.mme0`..`.mme7`), and set their `(eo)`
//! flag per channel when the early-out result is final: the destination then already holds the
//! quotient (square root) and IGC's `(~f) if` skips the refinement. `madm` is
//! `dst = src0 + src1 * src2` on such extended operands; IGC restores the caller's rounding
//! mode before the last `madm`, whose `.nomme` destination is the IEEE result.
//!
//! Chosen where no public document fixes the bits (see firmware-notes/simulator.md):
//! - `madm` is fused: the exact `src0 + src1 * src2` rounded once in cr0's mode to p + 2 bits
//!   (an `.mme` destination: the register gets the value truncated to p bits, the accumulator
//!   the two bits below) or to p bits (`.nomme`), with gradual underflow and IEEE overflow.
//! - `invm` gives 1/b correctly rounded to p + 2 bits; `rsqtm` gives 1/sqrt(a) to about p bits
//!   (no extra bits). IGC's Newton/Goldschmidt steps converge from either.
//! - Early out (flag set, destination = the correctly rounded IEEE quotient or square root) is
//!   taken for every input the refinement could get wrong: NaN, infinity, zero, denormal or
//!   negative operands and exponents near the ends of the range, where an intermediate would
//!   leave the normal range. For all other inputs the refinement with the rules above yields the
//!   correctly rounded result (error ≤ 2^-(2p+4) relative, below the distance 2^-(2p+2) that a
//!   quotient or root of p-bit numbers keeps from any rounding boundary it is not on).

use super::rounding::Rounding;

/// A binary floating-point format: significand bits (with the hidden one) and exponent range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    pub p: u32,
    pub emin: i32,
    pub emax: i32,
}

/// IEEE single (`:f`).
pub const F32: Format = Format {
    p: 24,
    emin: -126,
    emax: 127,
};
/// IEEE double (`:df`).
pub const F64: Format = Format {
    p: 53,
    emin: -1022,
    emax: 1023,
};
/// Significand bits a math-macro accumulator adds below a register's last bit.
pub const MME_BITS: u32 = 2;

/// An operand value: NaN (its register bits, quieted), signed infinity, or ±m·2^e.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Val {
    Nan(u64),
    Inf(bool),
    Num { neg: bool, m: u128, e: i32 },
}

/// A result: the register bits and the accumulator's extra bits.
pub type Out = (u64, u8);

impl Format {
    fn frac_bits(self) -> u32 {
        self.p - 1
    }
    fn exp_all_ones(self) -> u64 {
        (2 * self.emax + 1) as u64
    }
    fn sign_bit(self) -> u64 {
        1 << (self.p - 1 + self.exp_all_ones().count_ones())
    }
    /// The exponent of a denormal's last bit.
    fn qmin(self) -> i32 {
        self.emin - self.frac_bits() as i32
    }
    fn quiet(self) -> u64 {
        1 << (self.frac_bits() - 1)
    }
    /// The default NaN (invalid operations).
    pub fn default_nan(self) -> u64 {
        (self.exp_all_ones() << self.frac_bits()) | self.quiet()
    }

    /// The value of register bits `bits` extended by accumulator bits `extra` (the two bits
    /// below the register's last significand bit; 0 for `.nomme`).
    #[inline(always)]
    pub fn decode(self, bits: u64, extra: u8) -> Val {
        let neg = bits & self.sign_bit() != 0;
        let exp = (bits >> self.frac_bits()) & self.exp_all_ones();
        let frac = bits & ((1 << self.frac_bits()) - 1);
        if exp == self.exp_all_ones() {
            return if frac == 0 {
                Val::Inf(neg)
            } else {
                Val::Nan(bits | self.quiet())
            };
        }
        let (m, e) = if exp == 0 {
            (frac, self.qmin())
        } else {
            (
                frac | 1 << self.frac_bits(),
                exp as i32 - self.emax - self.frac_bits() as i32,
            )
        };
        let x = u128::from(extra & ((1 << MME_BITS) - 1));
        Val::Num {
            neg,
            m: (u128::from(m) << MME_BITS) | x,
            e: e - MME_BITS as i32,
        }
    }

    fn inf(self, neg: bool) -> u64 {
        (u64::from(neg) * self.sign_bit()) | (self.exp_all_ones() << self.frac_bits())
    }

    fn zero(self, neg: bool) -> Out {
        (u64::from(neg) * self.sign_bit(), 0)
    }

    /// ±(m + sticky)·2^e rounded in `mode` to p + `extra` significand bits (`extra` 0 or
    /// [`MME_BITS`]); `sticky`: the exact value lies strictly above m·2^e in magnitude, by
    /// less than 2^e.
    pub fn round(
        self,
        neg: bool,
        m: u128,
        e: i32,
        sticky: bool,
        extra: u32,
        mode: Rounding,
    ) -> Out {
        if m == 0 && !sticky {
            return self.zero(neg);
        }
        let prec = (self.p + extra) as i32;
        let lead = if m == 0 {
            e - 1
        } else {
            e + 127 - m.leading_zeros() as i32
        };
        let mut q = (lead - (prec - 1)).max(self.qmin() - extra as i32);
        // kept·2^q plus a remainder classified against half a unit.
        let s = i64::from(q) - i64::from(e);
        let (mut kept, above_zero, cmp_half) = if s <= 0 {
            let sh = (-s) as u32;
            // m has fewer than prec bits here, so the shift stays within u128.
            let k = if sh >= 128 { 0 } else { m << sh };
            (k, sticky, std::cmp::Ordering::Less)
        } else if s >= 128 {
            (0, true, std::cmp::Ordering::Less)
        } else {
            let s = s as u32;
            let rem = m & ((1u128 << s) - 1);
            let half = 1u128 << (s - 1);
            let c = rem.cmp(&half).then(if sticky {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            });
            (m >> s, rem != 0 || sticky, c)
        };
        let inexact = above_zero;
        let up = match mode {
            Rounding::NearestEven => {
                inexact
                    && (cmp_half == std::cmp::Ordering::Greater
                        || (cmp_half == std::cmp::Ordering::Equal && kept & 1 == 1))
            }
            Rounding::Up => inexact && !neg,
            Rounding::Down => inexact && neg,
            Rounding::TowardZero => false,
        };
        if up {
            kept += 1;
            if kept == 1u128 << prec {
                kept >>= 1;
                q += 1;
            }
        }
        if kept == 0 {
            return self.zero(neg);
        }
        // Overflow: beyond the largest finite value's binade.
        let top = q + 127 - kept.leading_zeros() as i32;
        if top > self.emax {
            let to_inf = match mode {
                Rounding::NearestEven => true,
                Rounding::Up => !neg,
                Rounding::Down => neg,
                Rounding::TowardZero => false,
            };
            return if to_inf {
                (self.inf(neg), 0)
            } else {
                let max = self.inf(false) - 1;
                (
                    (u64::from(neg) * self.sign_bit()) | max,
                    ((1u32 << extra) - 1) as u8,
                )
            };
        }
        let xmask = (1u128 << extra) - 1;
        let x = (kept & xmask) as u8;
        let reg = (kept >> extra) as u64;
        let rq = q + extra as i32;
        let bits = if reg >> self.frac_bits() != 0 {
            let field = (rq + self.frac_bits() as i32 + self.emax) as u64;
            (field << self.frac_bits()) | (reg & ((1 << self.frac_bits()) - 1))
        } else {
            reg
        };
        (bits | (u64::from(neg) * self.sign_bit()), x)
    }

    /// `a + b * c`, fused, rounded to p + `extra` bits.
    #[inline]
    pub fn fma(self, a: Val, b: Val, c: Val, extra: u32, mode: Rounding) -> Out {
        // The first NaN operand, in operand order (matched in place: an array of the three
        // values was a copy of them per lane).
        if let (Val::Nan(bits), _, _) | (_, Val::Nan(bits), _) | (_, _, Val::Nan(bits)) = (a, b, c)
        {
            return (bits, 0);
        }
        let nan = (self.default_nan(), 0);
        let is_zero = |v: &Val| matches!(v, Val::Num { m: 0, .. });
        let sign = |v: &Val| match *v {
            Val::Inf(n) | Val::Num { neg: n, .. } => n,
            Val::Nan(_) => false,
        };
        let pneg = sign(&b) ^ sign(&c);
        let pinf = matches!(b, Val::Inf(_)) || matches!(c, Val::Inf(_));
        if pinf && (is_zero(&b) || is_zero(&c)) {
            return nan;
        }
        match (a, pinf) {
            (Val::Inf(an), true) if an != pneg => return nan,
            (Val::Inf(an), _) => return (self.inf(an), 0),
            (_, true) => return (self.inf(pneg), 0),
            _ => {}
        }
        let (
            Val::Num {
                neg: an,
                m: am,
                e: ae,
            },
            Val::Num { m: bm, e: be, .. },
            Val::Num { m: cm, e: ce, .. },
        ) = (a, b, c)
        else {
            return nan;
        };
        let pm = bm * cm;
        let pe = be + ce;
        if pm == 0 && am == 0 {
            let neg = if an == pneg {
                an
            } else {
                mode == Rounding::Down
            };
            return self.zero(neg);
        }
        if pm == 0 {
            return self.round(an, am, ae, false, extra, mode);
        }
        if am == 0 {
            return self.round(pneg, pm, pe, false, extra, mode);
        }
        // Both terms with their leading bit at bit 124; the smaller exponent's term is shifted
        // right with its lost bits jammed into bit 0 (enough guard bits for any p + 2 ≤ 55).
        let norm = |m: u128, e: i32| {
            let sh = m.leading_zeros() as i32 - 3;
            (m << sh, e - sh)
        };
        let (pm, pe) = norm(pm, pe);
        let (am, ae) = norm(am, ae);
        let ((bigm, bige, bign), (smallm, smalle, smalln)) = if (pe, pm) > (ae, am) {
            ((pm, pe, pneg), (am, ae, an))
        } else {
            ((am, ae, an), (pm, pe, pneg))
        };
        let d = (bige - smalle) as u32;
        let small = if d == 0 {
            smallm
        } else if d >= 126 {
            1
        } else {
            (smallm >> d) | u128::from(smallm & ((1u128 << d) - 1) != 0)
        };
        let m = if bign == smalln {
            bigm + small
        } else {
            bigm - small
        };
        if m == 0 {
            return self.zero(mode == Rounding::Down);
        }
        self.round(bign, m, bige, false, extra, mode)
    }

    /// `a / b`, rounded to p + `extra` bits (IEEE special cases).
    pub fn div(self, a: Val, b: Val, extra: u32, mode: Rounding) -> Out {
        let nan = (self.default_nan(), 0);
        match (a, b) {
            (Val::Nan(x), _) | (_, Val::Nan(x)) => (x, 0),
            (Val::Inf(_), Val::Inf(_)) => nan,
            (Val::Inf(an), Val::Num { neg: bn, .. }) => (self.inf(an ^ bn), 0),
            (Val::Num { neg: an, .. }, Val::Inf(bn)) => self.zero(an ^ bn),
            (Val::Num { m: 0, .. }, Val::Num { m: 0, .. }) => nan,
            (Val::Num { neg: an, m: 0, .. }, Val::Num { neg: bn, .. }) => self.zero(an ^ bn),
            (Val::Num { neg: an, .. }, Val::Num { neg: bn, m: 0, .. }) => (self.inf(an ^ bn), 0),
            (
                Val::Num {
                    neg: an,
                    m: am,
                    e: ae,
                },
                Val::Num {
                    neg: bn,
                    m: bm,
                    e: be,
                },
            ) => {
                // Significands with their leading bit at bit 56: a 71-bit quotient or more.
                let sa = am.leading_zeros() as i32 - 71;
                let sb = bm.leading_zeros() as i32 - 71;
                let (am, ae) = (am << sa, ae - sa);
                let (bm, be) = (bm << sb, be - sb);
                let num = am << 70;
                let (q, r) = (num / bm, num % bm);
                self.round(an ^ bn, q, ae - be - 70, r != 0, extra, mode)
            }
        }
    }

    /// sqrt(`a`) rounded to p bits (IEEE special cases).
    pub fn sqrt(self, a: Val, mode: Rounding) -> Out {
        match a {
            Val::Nan(x) => (x, 0),
            Val::Num { neg, m: 0, .. } => self.zero(neg),
            Val::Inf(false) => (self.inf(false), 0),
            Val::Inf(true) | Val::Num { neg: true, .. } => (self.default_nan(), 0),
            Val::Num { m, e, .. } => {
                // Leading bit at 120 or 121 so the exponent is even: a 61-bit root.
                let mut sh = m.leading_zeros() as i32 - 7;
                if (e - sh) % 2 != 0 {
                    sh += 1;
                }
                let n = m << sh;
                let r = isqrt(n);
                self.round(false, r, (e - sh) / 2, r * r != n, 0, mode)
            }
        }
    }
}

/// floor(sqrt(n)), bit by bit.
fn isqrt(n: u128) -> u128 {
    let mut rem = n;
    let mut root = 0u128;
    let mut bit = 1u128 << 126;
    while bit > n {
        bit >>= 2;
    }
    while bit != 0 {
        if rem >= root + bit {
            rem -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    root
}

/// The unbiased exponent of a finite nonzero normal value's leading bit, `None` for zero,
/// denormals (no leading one at p - 1), infinities and NaN.
fn normal_exp(f: Format, v: Val) -> Option<i32> {
    match v {
        Val::Num { m, e, .. } if m >> (f.p - 1 + MME_BITS) != 0 => {
            Some(e + 127 - m.leading_zeros() as i32)
        }
        _ => None,
    }
}

/// Whether IGC's refinement stays in the normal range: operands normal, and the operand and
/// result exponents away from the ends by the margins the proof above needs (the residual
/// `a - b*q` is about 2^-(p+2) of `a` and must keep its bits exact).
fn refinable_div(f: Format, a: Val, b: Val) -> bool {
    let (Some(ea), Some(eb)) = (normal_exp(f, a), normal_exp(f, b)) else {
        return false;
    };
    let margin = 2 * f.p as i32 + 10;
    eb <= f.emax - 2 && (f.emin + margin..=f.emax - 1).contains(&(ea - eb)) && ea >= f.emin + margin
}

fn refinable_sqrt(f: Format, a: Val) -> bool {
    let neg = matches!(a, Val::Num { neg: true, .. });
    normal_exp(f, a).is_some_and(|ea| !neg && ea >= f.emin + 2 * f.p as i32 + 10 && ea < f.emax)
}

/// `math.invm`: (destination, eo). Early out: the quotient `a / b` in `mode`; otherwise 1/b
/// correctly rounded (to nearest) to p + 2 bits.
pub fn invm(f: Format, a: Val, b: Val, mode: Rounding) -> (Out, bool) {
    if !refinable_div(f, a, b) {
        return (f.div(a, b, 0, mode), true);
    }
    let one = Val::Num {
        neg: false,
        m: 1,
        e: 0,
    };
    (f.div(one, b, MME_BITS, Rounding::NearestEven), false)
}

/// `math.rsqtm`: (destination, eo). Early out: sqrt(`a`) in `mode`; otherwise 1/sqrt(a) to
/// within an ulp (computed in double precision, rounded to p + 2 bits).
pub fn rsqtm(f: Format, a: Val, mode: Rounding) -> (Out, bool) {
    if !refinable_sqrt(f, a) {
        return (f.sqrt(a, mode), true);
    }
    let Val::Num { m, e, .. } = a else {
        return (f.sqrt(a, mode), true);
    };
    // m·2^e = (m·2^(e - k))·2^k with k even and the first factor near 1, so the double
    // computation neither overflows nor underflows for either format.
    let lead = e + 127 - m.leading_zeros() as i32;
    let k = lead - lead.rem_euclid(2);
    let x = m as f64 * 2f64.powi(e - k);
    let y = 1.0 / x.sqrt();
    let v = F64.decode(y.to_bits(), 0);
    let Val::Num { m: ym, e: ye, .. } = v else {
        return (f.sqrt(a, mode), true);
    };
    (
        f.round(
            false,
            ym,
            ye - k / 2,
            false,
            MME_BITS,
            Rounding::NearestEven,
        ),
        false,
    )
}

#[cfg(test)]
mod tests;
