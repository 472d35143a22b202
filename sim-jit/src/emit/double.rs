//! IGC's double-precision arithmetic ([`Op::Double`]) in host doubles, as
//! `sim_eu::exec::alu` computes it: each lane's sources are two DWords of the file, the
//! modifier a sign-bit operation on the high one; a NaN source gives its quieted self (the
//! first NaN of src0, src1, src2), `mad` is fused, and every result is rounded to nearest
//! even (the interpreter's double precision follows no other rounding mode). Two lanes at a
//! time in a row (F64X2) where the destination starts a row, else lane by lane: a lane's
//! own code is about four times a row's, and a kernel of `:df` `mad`s took seconds to
//! translate lane by lane.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F64, F64X2, I32, I32X4, I64, I64X2, I8};
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value};

use super::{float_cc, lanes, Masks, StepEmitter, ROW};
use crate::select::{DoubleOp, DwordType, Lanes, Step, DWORD};
use isa_encoder::model::CondMod;
use sim_eu::program::fast::Sign;

/// The quiet bit of an f64 NaN.
const F64_QUIET: i64 = 0x0008_0000_0000_0000;

impl StepEmitter<'_, '_> {
    /// Every lane's sources read before any store (the destination may be a source), then
    /// each lane's result stored as its two DWords in the lanes that write.
    pub(super) fn double(&mut self, s: &Step, m: &Masks, op: DoubleOp) {
        if let DoubleOp::Cmp { cond, nan_true } = op {
            self.double_cmp(s, m, cond, nan_true);
            return;
        }
        if let DoubleOp::Widen(_) | DoubleOp::Narrow { .. } = op {
            self.double_conversion(s, m, op);
            return;
        }
        let Some(dst) = s.dst else {
            return;
        };
        if s.n >= 2 && usize::from(dst).is_multiple_of(ROW) {
            self.double_rows(s, m, op, dst);
            return;
        }
        let arity = s.op.arity();
        let results: Vec<Value> = (0..usize::from(s.n))
            .map(|i| {
                let v: Vec<Value> = (0..arity)
                    .map(|k| self.lane_f64(s.src[k], s.sign[k], i))
                    .collect();
                let r = match op {
                    DoubleOp::Mov => return self.b.ins().bitcast(I64, MemFlagsData::new(), v[0]),
                    DoubleOp::Sel => {
                        let picked = match m.pred {
                            Some(p) => {
                                let bit = self.b.ins().ushr_imm_u(p, i as i64);
                                let bit = self.b.ins().band_imm_u(bit, 1);
                                self.b.ins().select(bit, v[0], v[1])
                            }
                            None => v[0],
                        };
                        return self.b.ins().bitcast(I64, MemFlagsData::new(), picked);
                    }
                    DoubleOp::SelCmp { cond } => {
                        let pick = self.double_pick(cond, v[0], v[1]);
                        let picked = self.b.ins().select(pick, v[0], v[1]);
                        return self.b.ins().bitcast(I64, MemFlagsData::new(), picked);
                    }
                    DoubleOp::Const(bits) => return self.b.ins().iconst(I64, bits as i64),
                    DoubleOp::Add => self.b.ins().fadd(v[0], v[1]),
                    DoubleOp::Mul => self.b.ins().fmul(v[0], v[1]),
                    DoubleOp::Mad => self.b.ins().fma(v[1], v[2], v[0]),
                    // `double_cmp`'s and `double_conversion`'s.
                    DoubleOp::Cmp { .. } | DoubleOp::Widen(_) | DoubleOp::Narrow { .. } => v[0],
                };
                let r = self.nan_first_f64(&v, r);
                self.b.ins().bitcast(I64, MemFlagsData::new(), r)
            })
            .collect();
        let store = self.double_store_mask(s, m);
        for (i, bits) in results.into_iter().enumerate() {
            let on = self.lane_stores(store, i);
            let at = usize::from(dst) + 8 * i;
            let (low, high) = self.dword_halves(bits);
            self.store_dword(at, on, low);
            self.store_dword(at + 4, on, high);
        }
    }

    /// Whether lane `i` stores (an I32 of 0 or 1): every lane where `store` is `None`
    /// ([`Self::double_store_mask`]), else its bit there.
    fn lane_stores(&mut self, store: Option<Value>, i: usize) -> Value {
        match store {
            None => self.b.ins().iconst(I32, 1),
            Some(w) => {
                let bit = self.b.ins().ushr_imm_u(w, i as i64);
                self.b.ins().band_imm_u(bit, 1)
            }
        }
    }

    /// The low and high DWords of a QWord.
    fn dword_halves(&mut self, bits: Value) -> (Value, Value) {
        let low = self.b.ins().ireduce(I32, bits);
        let high = self.b.ins().ushr_imm_u(bits, 32);
        (low, self.b.ins().ireduce(I32, high))
    }

    /// Lane `i` of a `:df` source (consecutive, or one element) with its modifier, as F64.
    fn lane_f64(&mut self, l: Lanes, sign: Sign, i: usize) -> Value {
        let at = match l {
            Lanes::Row { base, stride, .. } => base + u16::from(stride) * i as u16,
            Lanes::Scalar(base, _) => base,
            // An immediate's high DWord (`select::double`), its modifier applied.
            Lanes::Imm(v) => {
                let bits = self.b.ins().iconst(I64, (u64::from(v) << 32) as i64);
                return self.b.ins().bitcast(F64, MemFlagsData::new(), bits);
            }
        };
        let low = self.first(Lanes::Scalar(at, DWORD));
        let high = self.first(Lanes::Scalar(at + 4, DWORD));
        let high = self.signed(high, sign, I32);
        let low = self.b.ins().uextend(I64, low);
        let high = self.b.ins().uextend(I64, high);
        let high = self.b.ins().ishl_imm_u(high, 32);
        let bits = self.b.ins().bor(low, high);
        self.b.ins().bitcast(F64, MemFlagsData::new(), bits)
    }

    /// `r`, unless one of `srcs` is a NaN: then the first such, quieted.
    fn nan_first_f64(&mut self, srcs: &[Value], r: Value) -> Value {
        let mut out = r;
        for &x in srcs.iter().rev() {
            let bits = self.b.ins().bitcast(I64, MemFlagsData::new(), x);
            let quiet = self.b.ins().bor_imm_u(bits, F64_QUIET);
            let quiet = self.b.ins().bitcast(F64, MemFlagsData::new(), quiet);
            let nan = self.b.ins().fcmp(FloatCC::Unordered, x, x);
            out = self.b.ins().select(nan, quiet, out);
        }
        out
    }

    /// [`double`](Self::double) two lanes a row: every row's result before any store, then
    /// each row held, blended with the row it replaces where a lane does not write.
    fn double_rows(&mut self, s: &Step, m: &Masks, op: DoubleOp, dst: u16) {
        let arity = s.op.arity();
        let rows = usize::from(s.n) / 2;
        let results: Vec<Value> = (0..rows)
            .map(|c| {
                let v: Vec<Value> = (0..arity)
                    .map(|k| self.row_f64(s.src[k], s.sign[k], c))
                    .collect();
                let r = match op {
                    DoubleOp::Mov => return self.b.ins().bitcast(I32X4, lanes(), v[0]),
                    DoubleOp::Sel => {
                        let a = self.b.ins().bitcast(I32X4, lanes(), v[0]);
                        let Some(p) = m.pred else {
                            return a;
                        };
                        let b = self.b.ins().bitcast(I32X4, lanes(), v[1]);
                        let pick = self.row_lanes(p, c);
                        return self.b.ins().bitselect(pick, a, b);
                    }
                    DoubleOp::SelCmp { cond } => {
                        let pick = self.double_pick(cond, v[0], v[1]);
                        let pick = self.b.ins().bitcast(I32X4, lanes(), pick);
                        let a = self.b.ins().bitcast(I32X4, lanes(), v[0]);
                        let b = self.b.ins().bitcast(I32X4, lanes(), v[1]);
                        return self.b.ins().bitselect(pick, a, b);
                    }
                    DoubleOp::Const(bits) => {
                        let k = self.b.ins().iconst(I64, bits as i64);
                        let k = self.b.ins().splat(I64X2, k);
                        return self.b.ins().bitcast(I32X4, lanes(), k);
                    }
                    DoubleOp::Add => self.b.ins().fadd(v[0], v[1]),
                    DoubleOp::Mul => self.b.ins().fmul(v[0], v[1]),
                    DoubleOp::Mad => self.b.ins().fma(v[1], v[2], v[0]),
                    // `double_cmp`'s and `double_conversion`'s.
                    DoubleOp::Cmp { .. } | DoubleOp::Widen(_) | DoubleOp::Narrow { .. } => v[0],
                };
                let r = self.nan_first_f64x2(&v, r);
                self.b.ins().bitcast(I32X4, lanes(), r)
            })
            .collect();
        let at = usize::from(dst);
        let Some(store) = self.double_store_mask(s, m) else {
            for (c, r) in results.into_iter().enumerate() {
                self.set_held_row(at + ROW * c, r);
            }
            return;
        };
        for (c, r) in results.into_iter().enumerate() {
            let on = self.row_lanes(store, c);
            let old = self.held_row(at + ROW * c);
            let new = self.b.ins().bitselect(on, r, old);
            self.set_held_row(at + ROW * c, new);
        }
    }

    /// [`DoubleOp::Widen`] and [`DoubleOp::Narrow`] lane by lane: every lane converted
    /// before any store (the destination may overlap the source), then stored in the
    /// enabled, predicated lanes.
    fn double_conversion(&mut self, s: &Step, m: &Masks, op: DoubleOp) {
        let Some(dst) = s.dst else {
            return;
        };
        let src = s.src[0];
        // Each lane's result as the DWords it stores.
        let results: Vec<Vec<Value>> = (0..usize::from(s.n))
            .map(|i| match op {
                DoubleOp::Widen(t) => {
                    let at = match src {
                        Lanes::Row { base, stride, .. } => base + u16::from(stride) * i as u16,
                        // `select::double_conversion` takes no immediate.
                        Lanes::Scalar(base, _) => base,
                        Lanes::Imm(_) => 0,
                    };
                    let raw = self.first(Lanes::Scalar(at, DWORD));
                    let x = match t {
                        DwordType::F => {
                            let f = self.b.ins().bitcast(F32, MemFlagsData::new(), raw);
                            self.b.ins().fpromote(F64, f)
                        }
                        DwordType::D => self.b.ins().fcvt_from_sint(F64, raw),
                        DwordType::Ud => self.b.ins().fcvt_from_uint(F64, raw),
                    };
                    let bits = self.b.ins().bitcast(I64, MemFlagsData::new(), x);
                    let (low, high) = self.dword_halves(bits);
                    vec![low, high]
                }
                DoubleOp::Narrow { ty: t, .. } => {
                    let x = self.lane_f64(src, Sign::NONE, i);
                    let r = match t {
                        DwordType::F => {
                            let f = self.b.ins().fdemote(F32, x);
                            self.b.ins().bitcast(I32, MemFlagsData::new(), f)
                        }
                        DwordType::D => self.b.ins().fcvt_to_sint_sat(I32, x),
                        DwordType::Ud => self.b.ins().fcvt_to_uint_sat(I32, x),
                    };
                    vec![r]
                }
                _ => Vec::new(),
            })
            .collect();
        let store = self.double_store_mask(s, m);
        let size = match op {
            DoubleOp::Narrow { stride, .. } => usize::from(stride),
            _ => usize::from(s.dst_size),
        };
        for (i, dwords) in results.into_iter().enumerate() {
            let on = self.lane_stores(store, i);
            for (k, d) in dwords.into_iter().enumerate() {
                self.store_dword(usize::from(dst) + size * i + 4 * k, on, d);
            }
        }
    }

    /// A conditional `sel`'s choice of `a` over `b` (one lane as I8, or two as I64X2 masks):
    /// the comparison, and for `l` and `ge` (`fmin`, `fmax`) also where `b` alone is a NaN.
    /// Where `a` alone is one, the ordered comparison already picks `b`.
    fn double_pick(&mut self, cond: CondMod, a: Value, b: Value) -> Value {
        let cc = float_cc(cond).unwrap_or(FloatCC::Equal);
        let r = self.b.ins().fcmp(cc, a, b);
        if !matches!(cond, CondMod::Lt | CondMod::Ge) {
            return r;
        }
        let only_b = self.only_src1_nan(a, b);
        self.b.ins().bor(r, only_b)
    }

    /// [`DoubleOp::Cmp`]: each lane's comparison ([`float_cc`]), or src1 a NaN where
    /// `nan_true`, to the flag bits of the enabled, predicated lanes.
    fn double_cmp(&mut self, s: &Step, m: &Masks, cond: CondMod, nan_true: bool) {
        let cc = float_cc(cond);
        let mut bits = self.b.ins().iconst(I32, 0);
        for i in 0..usize::from(s.n) {
            let a = self.lane_f64(s.src[0], s.sign[0], i);
            let b = self.lane_f64(s.src[1], s.sign[1], i);
            let mut r = match cc {
                Some(cc) => self.b.ins().fcmp(cc, a, b),
                None => self.b.ins().iconst(I8, 0),
            };
            if nan_true {
                let nan = self.b.ins().fcmp(FloatCC::Unordered, b, b);
                r = self.b.ins().bor(r, nan);
            }
            let r = self.b.ins().uextend(I32, r);
            let r = self.b.ins().ishl_imm_u(r, i as i64);
            bits = self.b.ins().bor(bits, r);
        }
        self.set_flags(s, m, bits);
    }

    /// The lanes an [`Op::Double`] writes (bit i for lane i): `None` when every one, known
    /// here; `sel` writes every enabled lane, the rest the enabled and predicated ones.
    fn double_store_mask(&mut self, s: &Step, m: &Masks) -> Option<Value> {
        if m.writes_all(s) {
            None
        } else if s.op.writes_enabled_lanes() {
            Some(m.enabled)
        } else {
            Some(m.both)
        }
    }

    /// All ones in the DWords of row `c` (lanes `2c` and `2c + 1`, two DWords each) whose bit
    /// is set in the lane mask `mask`.
    fn row_lanes(&mut self, mask: Value, c: usize) -> Value {
        let m = self.b.ins().splat(I32X4, mask);
        let bits = [2 * c, 2 * c, 2 * c + 1, 2 * c + 1].map(|l| 1u32 << l);
        let kv = self.i32x4_const(bits);
        let sel = self.b.ins().band(m, kv);
        self.b.ins().icmp(IntCC::Equal, sel, kv)
    }

    /// Lanes `2c` and `2c + 1` of a `:df` source with its modifier, as F64X2.
    fn row_f64(&mut self, l: Lanes, sign: Sign, c: usize) -> Value {
        let v = match l {
            Lanes::Row { base, stride, .. } => {
                let at = usize::from(base) + 2 * usize::from(stride) * c;
                if at.is_multiple_of(ROW) {
                    self.held_row(at)
                } else {
                    self.flush(at, at + ROW, false);
                    let (file, off) = (self.file, self.addr(at as u16));
                    self.b.ins().load(I32X4, super::mem(), file, off)
                }
            }
            Lanes::Scalar(..) | Lanes::Imm(_) => {
                let x = self.lane_f64(l, sign, 0);
                return self.b.ins().splat(F64X2, x);
            }
        };
        // The modifier on each lane's high DWord.
        let v = if sign.and != u32::MAX {
            let k = self.i32x4_const([u32::MAX, sign.and, u32::MAX, sign.and]);
            self.b.ins().band(v, k)
        } else {
            v
        };
        let v = if sign.xor != 0 {
            let k = self.i32x4_const([0, sign.xor, 0, sign.xor]);
            self.b.ins().bxor(v, k)
        } else {
            v
        };
        self.b.ins().bitcast(F64X2, lanes(), v)
    }

    /// [`nan_first_f64`](Self::nan_first_f64) on two lanes.
    fn nan_first_f64x2(&mut self, srcs: &[Value], r: Value) -> Value {
        let quiet_bit = self.b.ins().iconst(I64, F64_QUIET);
        let quiet_bit = self.b.ins().splat(I64X2, quiet_bit);
        let mut out = self.b.ins().bitcast(I64X2, lanes(), r);
        for &x in srcs.iter().rev() {
            let bits = self.b.ins().bitcast(I64X2, lanes(), x);
            let quiet = self.b.ins().bor(bits, quiet_bit);
            let nan = self.b.ins().fcmp(FloatCC::Unordered, x, x);
            out = self.b.ins().bitselect(nan, quiet, out);
        }
        self.b.ins().bitcast(F64X2, lanes(), out)
    }
}
