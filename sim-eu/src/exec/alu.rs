//! ALU instructions. Each handler loads whole operands, computes over the lanes in one loop
//! and stores with the execution mask; the numeric domain (integer, f32, f64) is chosen once
//! per instruction from its source types.

use isa_encoder::model::{CondMod, DataType, MathFn, Opcode, SrcMod, Subfunction};

use super::flags::write_flags;
use super::lanes::{
    float_as_stored, int_to_type, load_bits, load_f32, load_f64, load_int, store_bits, store_f32,
    store_f64, store_int, Lanes,
};
use crate::error::EuErrorKind;
use crate::program::{type_bytes, Domain, Inst, Loc, Opnd};
use crate::regfile::{acc_dword, Thread};
use crate::rounding::Rounding;

type R = Result<(), EuErrorKind>;

pub(crate) fn cond_int(c: CondMod, v: i64) -> bool {
    match c {
        CondMod::Eq => v == 0,
        CondMod::Ne => v != 0,
        CondMod::Gt => v > 0,
        CondMod::Ge => v >= 0,
        CondMod::Lt => v < 0,
        CondMod::Le => v <= 0,
        // (eo) only accompanies the math macros, which set it themselves (exec/macros.rs).
        CondMod::Ov | CondMod::Un | CondMod::Eo => false,
    }
}

pub(crate) fn cond_f(c: CondMod, v: f64) -> bool {
    match c {
        CondMod::Eq => v == 0.0,
        CondMod::Ne => v != 0.0,
        CondMod::Gt => v > 0.0,
        CondMod::Ge => v >= 0.0,
        CondMod::Lt => v < 0.0,
        CondMod::Le => v <= 0.0,
        CondMod::Ov => v.is_infinite(),
        CondMod::Un => v.is_nan(),
        CondMod::Eo => false,
    }
}

pub(crate) fn cmp_int(c: CondMod, a: i64, b: i64, unsigned: bool) -> bool {
    let ord = if unsigned {
        (a as u64).cmp(&(b as u64))
    } else {
        a.cmp(&b)
    };
    match c {
        CondMod::Eq => ord.is_eq(),
        CondMod::Ne => ord.is_ne(),
        CondMod::Gt => ord.is_gt(),
        CondMod::Ge => ord.is_ge(),
        CondMod::Lt => ord.is_lt(),
        CondMod::Le => ord.is_le(),
        // (eo) only accompanies the math macros, which set it themselves (exec/macros.rs).
        CondMod::Ov | CondMod::Un | CondMod::Eo => false,
    }
}

/// Whether a float `sel` with conditional modifier `c` picks src0 (`a`). `sel.l` and `sel.ge`
/// are the ISA's min and max, which return the other source when exactly one is a NaN (IEEE
/// 754-2008 minNum/maxNum, what OpenCL's `fmin`/`fmax` require): IGC compiles `fmax(x, 0)` to
/// a lone `sel.ge x, 0`, and for Gen9 (NEO's build) to `sel.l x, NaN` followed by `sel.ge`,
/// which only yields `x` if the NaN source is not picked. Other modifiers compare.
pub(crate) fn sel_f(c: CondMod, a: f64, b: f64) -> bool {
    match (c, a.is_nan(), b.is_nan()) {
        (CondMod::Lt | CondMod::Ge, true, false) => false,
        (CondMod::Lt | CondMod::Ge, false, true) => true,
        _ => cmp_f(c, a, b),
    }
}

pub(crate) fn cmp_f(c: CondMod, a: f64, b: f64) -> bool {
    match c {
        CondMod::Eq => a == b,
        CondMod::Ne => a != b,
        CondMod::Gt => a > b,
        CondMod::Ge => a >= b,
        CondMod::Lt => a < b,
        CondMod::Le => a <= b,
        CondMod::Ov => false,
        CondMod::Un => a.is_nan() || b.is_nan(),
        CondMod::Eo => false,
    }
}

fn finish_int(t: &mut Thread, inst: &Inst, mask: u32, r: &Lanes<i64>) -> R {
    finish_int_acc(t, inst, mask, r, inst.acc_wr)
}

/// Where `o` is DWords of the accumulator, keeps the full values `r` stored there (the
/// accumulator holds integers wider than its DWord view; `mach` reads them).
fn keep_acc_precision(t: &mut Thread, o: &Opnd, n: usize, mask: u32, r: &Lanes<i64>) {
    // One region: a destination outside the accumulator (nearly all) costs one comparison.
    if o.loc != Loc::File || type_bytes(o.ty) != 4 || acc_dword(o.offs[0]).is_none() {
        return;
    }
    for (i, &v) in r.iter().enumerate().take(n) {
        if mask >> i & 1 == 0 {
            continue;
        }
        if let Some(k) = acc_dword(o.offs[i]) {
            t.set_acc_wide(k, v);
        }
    }
}

/// The accumulator's value for lane `i` of `acc` whose DWord reads `low`: the full value kept
/// when the DWord still holds its low 32 bits, else the DWord itself.
fn acc_value(t: &Thread, acc: &Opnd, i: usize, low: i64) -> i64 {
    match acc_dword(acc.offs[i]) {
        Some(k) if t.acc_wide(k) as u32 == low as u32 => t.acc_wide(k),
        _ => low,
    }
}

/// [`finish_int`] with the accumulator write decided by the caller (`mach` and `addc`/`subb`
/// write the accumulator themselves).
fn finish_int_acc(t: &mut Thread, inst: &Inst, mask: u32, r: &Lanes<i64>, acc_wr: bool) -> R {
    let n = inst.n as usize;
    if let Some(c) = inst.cond {
        let ty = inst.dst.ty;
        let int_dst = !ty.is_float();
        let mut bits = 0u32;
        for (i, &v) in r.iter().enumerate().take(n) {
            let v = if int_dst {
                int_to_type(ty, v, inst.sat)
            } else {
                v
            };
            bits |= u32::from(cond_int(c, v)) << i;
        }
        write_flags(t, inst, mask, bits);
    }
    store_int(t, &inst.dst, n, mask, r, inst.sat, inst.unsigned64)?;
    keep_acc_precision(t, &inst.dst, n, mask, r);
    if acc_wr {
        store_int(t, &inst.acc, n, mask, r, false, inst.unsigned64)?;
        keep_acc_precision(t, &inst.acc, n, mask, r);
    }
    Ok(())
}

fn finish_f32(t: &mut Thread, inst: &Inst, mask: u32, r: &Lanes<f32>) -> R {
    let n = inst.n as usize;
    if let Some(c) = inst.cond {
        let mode = Rounding::of(t);
        let mut bits = 0u32;
        for (i, &v) in r.iter().enumerate().take(n) {
            let v = float_as_stored(inst.dst.ty, f64::from(v), inst.sat, mode);
            bits |= u32::from(cond_f(c, v)) << i;
        }
        write_flags(t, inst, mask, bits);
    }
    store_f32(t, &inst.dst, n, mask, r, inst.sat)?;
    if inst.acc_wr {
        store_f32(t, &inst.acc, n, mask, r, false)?;
    }
    Ok(())
}

fn finish_f64(t: &mut Thread, inst: &Inst, mask: u32, r: &Lanes<f64>) -> R {
    let n = inst.n as usize;
    if let Some(c) = inst.cond {
        let mode = Rounding::of(t);
        let mut bits = 0u32;
        for (i, &v) in r.iter().enumerate().take(n) {
            let v = float_as_stored(inst.dst.ty, v, inst.sat, mode);
            bits |= u32::from(cond_f(c, v)) << i;
        }
        write_flags(t, inst, mask, bits);
    }
    store_f64(t, &inst.dst, n, mask, r, inst.sat)?;
    if inst.acc_wr {
        store_f64(t, &inst.acc, n, mask, r, false)?;
    }
    Ok(())
}

/// `$int` over integer lanes and `$flt` over f32 or f64 lanes (one expression, typed twice):
/// the domain follows the source types.
macro_rules! arith {
    ($t:ident, $inst:ident, $mask:ident, |$a:ident| $int:expr, $flt:expr) => {{
        let n = $inst.n as usize;
        match $inst.domain {
            Domain::Int => {
                let x = load_int($t, &$inst.src[0], n, false)?;
                let mut r = [0i64; 32];
                for i in 0..n {
                    let $a = x[i];
                    r[i] = $int;
                }
                finish_int($t, $inst, $mask, &r)
            }
            Domain::F32 if Rounding::of($t) != Rounding::NearestEven => {
                // A directed rounding mode: computed in double precision, rounded once.
                let mode = Rounding::of($t);
                let x = load_f64($t, &$inst.src[0], n)?;
                let mut r = [0f32; 32];
                for i in 0..n {
                    let $a = x[i];
                    r[i] = mode.to_f32($flt);
                }
                finish_f32($t, $inst, $mask, &r)
            }
            Domain::F32 => {
                let x = load_f32($t, &$inst.src[0], n)?;
                let mut r = [0f32; 32];
                for i in 0..n {
                    let $a = x[i];
                    r[i] = $flt;
                }
                finish_f32($t, $inst, $mask, &r)
            }
            Domain::F64 => {
                let x = load_f64($t, &$inst.src[0], n)?;
                let mut r = [0f64; 32];
                for i in 0..n {
                    let $a = x[i];
                    r[i] = $flt;
                }
                finish_f64($t, $inst, $mask, &r)
            }
        }
    }};
    ($t:ident, $inst:ident, $mask:ident, |$a:ident, $b:ident| $int:expr, $flt:expr) => {{
        let n = $inst.n as usize;
        match $inst.domain {
            Domain::Int => {
                let x = load_int($t, &$inst.src[0], n, false)?;
                let y = load_int($t, &$inst.src[1], n, false)?;
                let mut r = [0i64; 32];
                for i in 0..n {
                    let ($a, $b) = (x[i], y[i]);
                    r[i] = $int;
                }
                finish_int($t, $inst, $mask, &r)
            }
            Domain::F32 if Rounding::of($t) != Rounding::NearestEven => {
                // A directed rounding mode: computed in double precision, rounded once.
                let mode = Rounding::of($t);
                let x = load_f64($t, &$inst.src[0], n)?;
                let y = load_f64($t, &$inst.src[1], n)?;
                let mut r = [0f32; 32];
                for i in 0..n {
                    let ($a, $b) = (x[i], y[i]);
                    r[i] = mode.to_f32($flt);
                }
                finish_f32($t, $inst, $mask, &r)
            }
            Domain::F32 => {
                let x = load_f32($t, &$inst.src[0], n)?;
                let y = load_f32($t, &$inst.src[1], n)?;
                let mut r = [0f32; 32];
                for i in 0..n {
                    let ($a, $b) = (x[i], y[i]);
                    r[i] = $flt;
                }
                finish_f32($t, $inst, $mask, &r)
            }
            Domain::F64 => {
                let x = load_f64($t, &$inst.src[0], n)?;
                let y = load_f64($t, &$inst.src[1], n)?;
                let mut r = [0f64; 32];
                for i in 0..n {
                    let ($a, $b) = (x[i], y[i]);
                    r[i] = $flt;
                }
                finish_f64($t, $inst, $mask, &r)
            }
        }
    }};
}

/// Integer-only lanes (`logic`: `~` is bitwise not).
fn int_op<const S: usize>(
    t: &mut Thread,
    inst: &Inst,
    mask: u32,
    logic: bool,
    f: impl Fn([i64; S]) -> i64,
) -> R {
    let n = inst.n as usize;
    let mut ld = [[0i64; 32]; S];
    for (k, l) in ld.iter_mut().enumerate() {
        *l = load_int(t, &inst.src[k], n, logic)?;
    }
    let mut r = [0i64; 32];
    for (i, out) in r.iter_mut().enumerate().take(n) {
        let mut a = [0i64; S];
        for k in 0..S {
            a[k] = ld[k][i];
        }
        *out = f(a);
    }
    finish_int(t, inst, mask, &r)
}

/// Float-only lanes (f32, or f64 when a source is `:df`).
fn float_op<const S: usize>(
    t: &mut Thread,
    inst: &Inst,
    mask: u32,
    f32op: impl Fn([f32; S]) -> f32,
    f64op: impl Fn([f64; S]) -> f64,
) -> R {
    float_op_on(
        t,
        inst,
        std::array::from_fn(|k| &inst.src[k]),
        mask,
        f32op,
        f64op,
    )
}

/// [`float_op`] on the sources `srcs` (float `mac` passes its accumulator as the third, with
/// no copy of the instruction).
fn float_op_on<const S: usize>(
    t: &mut Thread,
    inst: &Inst,
    srcs: [&Opnd; S],
    mask: u32,
    f32op: impl Fn([f32; S]) -> f32,
    f64op: impl Fn([f64; S]) -> f64,
) -> R {
    let n = inst.n as usize;
    // A half result is computed in double precision and rounded once (`Rounding::to_f16`):
    // half operands' products are exact there, so mad is fused as IEEE fma.
    if inst.domain == Domain::F64 || inst.dst.ty == DataType::Hf {
        let mut ld = [[0f64; 32]; S];
        for (k, l) in ld.iter_mut().enumerate() {
            *l = load_f64(t, srcs[k], n)?;
        }
        let mut r = [0f64; 32];
        for (i, out) in r.iter_mut().enumerate().take(n) {
            let mut a = [0f64; S];
            for k in 0..S {
                a[k] = ld[k][i];
            }
            *out = f64op(a);
        }
        return finish_f64(t, inst, mask, &r);
    }
    let mode = Rounding::of(t);
    if mode != Rounding::NearestEven {
        // A directed rounding mode: computed in double precision, rounded once.
        let mut ld = [[0f64; 32]; S];
        for (k, l) in ld.iter_mut().enumerate() {
            *l = load_f64(t, srcs[k], n)?;
        }
        let mut r = [0f32; 32];
        for (i, out) in r.iter_mut().enumerate().take(n) {
            let mut a = [0f64; S];
            for k in 0..S {
                a[k] = ld[k][i];
            }
            *out = mode.to_f32(f64op(a));
        }
        return finish_f32(t, inst, mask, &r);
    }
    let mut ld = [[0f32; 32]; S];
    for (k, l) in ld.iter_mut().enumerate() {
        *l = load_f32(t, srcs[k], n)?;
    }
    let mut r = [0f32; 32];
    for (i, out) in r.iter_mut().enumerate().take(n) {
        let mut a = [0f32; S];
        for k in 0..S {
            a[k] = ld[k][i];
        }
        *out = f32op(a);
    }
    finish_f32(t, inst, mask, &r)
}

fn width_bits(ty: DataType) -> u32 {
    type_bytes(ty) as u32 * 8
}

fn zext(v: i64, bits: u32) -> u64 {
    if bits >= 64 {
        v as u64
    } else {
        v as u64 & ((1u64 << bits) - 1)
    }
}

fn sext(v: i64, bits: u32) -> i64 {
    if bits >= 64 {
        v
    } else {
        (v << (64 - bits)) >> (64 - bits)
    }
}

/// Per-lane comparison results of `cmp`/`cmpn`/`sel`/`csel` between two loaded sources.
fn compare(
    t: &Thread,
    inst: &Inst,
    c: CondMod,
    a: usize,
    b: usize,
    nan_true: bool,
) -> Result<u32, EuErrorKind> {
    let n = inst.n as usize;
    let mut bits = 0u32;
    match inst.domain {
        Domain::Int => {
            let x = load_int(t, &inst.src[a], n, false)?;
            let y = load_int(t, &inst.src[b], n, false)?;
            for i in 0..n {
                bits |= u32::from(cmp_int(c, x[i], y[i], inst.unsigned64)) << i;
            }
        }
        _ => {
            let x = load_f64(t, &inst.src[a], n)?;
            let y = load_f64(t, &inst.src[b], n)?;
            for i in 0..n {
                let r = if nan_true && y[i].is_nan() {
                    true
                } else {
                    cmp_f(c, x[i], y[i])
                };
                bits |= u32::from(r) << i;
            }
        }
    }
    Ok(bits)
}

fn cmp(t: &mut Thread, inst: &Inst, mask: u32, nan_true: bool) -> R {
    let c = inst
        .cond
        .ok_or_else(|| EuErrorKind::Illegal("cmp without a conditional modifier".into()))?;
    let bits = compare(t, inst, c, 0, 1, nan_true)?;
    write_flags(t, inst, mask, bits);
    let mut v = [0u64; 32];
    for (i, out) in v.iter_mut().enumerate().take(inst.n as usize) {
        *out = if bits >> i & 1 != 0 { u64::MAX } else { 0 };
    }
    store_bits(t, &inst.dst, inst.n as usize, mask, &v)
}

/// `sel`: the predicate or the conditional comparison (`cond`) picks src0 (true) or src1 per
/// lane.
fn sel(
    t: &mut Thread,
    inst: &Inst,
    cond: Option<CondMod>,
    enabled: u32,
    pred: u32,
    pick_src: [usize; 2],
    cond_src: [usize; 2],
) -> R {
    let pick = match cond {
        Some(c) if inst.domain != Domain::Int => {
            let x = load_f64(t, &inst.src[cond_src[0]], inst.n as usize)?;
            let y = load_f64(t, &inst.src[cond_src[1]], inst.n as usize)?;
            (0..inst.n as usize).fold(0u32, |m, i| m | u32::from(sel_f(c, x[i], y[i])) << i)
        }
        Some(c) => compare(t, inst, c, cond_src[0], cond_src[1], false)?,
        None => pred,
    };
    let n = inst.n as usize;
    let [p, q] = pick_src;
    let sat = inst.sat;
    match inst.domain {
        Domain::Int => {
            let a = load_int(t, &inst.src[p], n, false)?;
            let b = load_int(t, &inst.src[q], n, false)?;
            let mut r = [0i64; 32];
            for i in 0..n {
                r[i] = if pick >> i & 1 != 0 { a[i] } else { b[i] };
            }
            store_int(t, &inst.dst, n, enabled, &r, sat, inst.unsigned64)
        }
        Domain::F32 => {
            let a = load_f32(t, &inst.src[p], n)?;
            let b = load_f32(t, &inst.src[q], n)?;
            let mut r = [0f32; 32];
            for i in 0..n {
                r[i] = if pick >> i & 1 != 0 { a[i] } else { b[i] };
            }
            store_f32(t, &inst.dst, n, enabled, &r, sat)
        }
        Domain::F64 => {
            let a = load_f64(t, &inst.src[p], n)?;
            let b = load_f64(t, &inst.src[q], n)?;
            let mut r = [0f64; 32];
            for i in 0..n {
                r[i] = if pick >> i & 1 != 0 { a[i] } else { b[i] };
            }
            store_f64(t, &inst.dst, n, enabled, &r, sat)
        }
    }
}

/// `csel`: src2 compared with zero picks src0 or src1.
fn csel(t: &mut Thread, inst: &Inst, mask: u32) -> R {
    let Some(c) = inst.cond else {
        return csel_without_condition(t, inst, mask);
    };
    let n = inst.n as usize;
    let z = match inst.domain {
        Domain::Int => {
            let v = load_int(t, &inst.src[2], n, false)?;
            let mut b = 0u32;
            for (i, &x) in v.iter().enumerate().take(n) {
                b |= u32::from(cond_int(c, x)) << i;
            }
            b
        }
        _ => {
            let v = load_f64(t, &inst.src[2], n)?;
            let mut b = 0u32;
            for (i, &x) in v.iter().enumerate().take(n) {
                b |= u32::from(cond_f(c, x)) << i;
            }
            b
        }
    };
    sel(t, inst, None, mask, z, [0, 1], [0, 1])
}

/// `csel` without a conditional modifier: the PRM defines no comparison then, so which source
/// it picks is unknown; IGA encodes it, and oneDNN's generated GEMM kernels (through OpenVINO
/// on Xe-HPG) emit it with src0 and src1 the same register, where every choice gives the same
/// result. So it runs where the sources agree bit for bit in every enabled lane, and is an
/// illegal instruction where the choice would decide the result.
fn csel_without_condition(t: &mut Thread, inst: &Inst, mask: u32) -> R {
    let n = inst.n as usize;
    let same = |a: &[u64], b: &[u64]| (0..n).all(|i| mask >> i & 1 == 0 || a[i] == b[i]);
    let agree = match inst.domain {
        Domain::Int => {
            let a = load_int(t, &inst.src[0], n, false)?.map(|v| v as u64);
            let b = load_int(t, &inst.src[1], n, false)?.map(|v| v as u64);
            same(&a, &b)
        }
        Domain::F32 => {
            let a = load_f32(t, &inst.src[0], n)?.map(|v| u64::from(v.to_bits()));
            let b = load_f32(t, &inst.src[1], n)?.map(|v| u64::from(v.to_bits()));
            same(&a, &b)
        }
        Domain::F64 => {
            let a = load_f64(t, &inst.src[0], n)?.map(f64::to_bits);
            let b = load_f64(t, &inst.src[1], n)?.map(f64::to_bits);
            same(&a, &b)
        }
    };
    if !agree {
        return Err(EuErrorKind::Illegal(
            "csel without a conditional modifier between sources that differ".into(),
        ));
    }
    sel(t, inst, None, mask, u32::MAX, [0, 1], [0, 1])
}

fn shift(t: &mut Thread, inst: &Inst, mask: u32) -> R {
    let w0 = width_bits(inst.src[0].ty);
    let wide = w0 == 64 || width_bits(inst.dst.ty) == 64;
    let m: i64 = if wide { 63 } else { 31 };
    let signed0 = matches!(
        inst.src[0].ty,
        DataType::B | DataType::W | DataType::D | DataType::Q
    );
    // src0's width as a shift sees it: its type's, or for a negated src0 the execution width
    // its negation took (`asr :q -x:uw, 1`, IGC's half of a negated ushort widened to long, is
    // -x / 2, not (65536 - x) / 2; `shr` shifts the same value as the `mov :q -x:uw` before it
    // would give it).
    let from = match inst.src[0].modifier {
        SrcMod::Neg | SrcMod::NegAbs => u32::from(inst.src[0].mod_bits),
        _ => w0,
    };
    match inst.opcode {
        Opcode::Shl => int_op(t, inst, mask, false, |[a, b]| {
            a.wrapping_shl((b & m) as u32)
        }),
        Opcode::Shr => int_op(t, inst, mask, false, |[a, b]| {
            (zext(a, from) >> (b & m)) as i64
        }),
        // An unsigned src0 shifts as a signed value of that width.
        Opcode::Asr => int_op(t, inst, mask, false, |[a, b]| {
            let a = if signed0 { a } else { sext(a, from) };
            a >> (b & m)
        }),
        Opcode::Rol | Opcode::Ror => {
            let w = width_bits(inst.dst.ty).max(w0).min(64);
            let left = inst.opcode == Opcode::Rol;
            int_op(t, inst, mask, false, |[a, b]| {
                let v = zext(a, w);
                let s = (b as u64 % u64::from(w)) as u32;
                if s == 0 {
                    return v as i64;
                }
                let (l, r) = if left { (s, w - s) } else { (w - s, s) };
                (zext((v << l) as i64, w) | (v >> r)) as i64
            })
        }
        _ => Err(EuErrorKind::Illegal("not a shift".into())),
    }
}

fn bit_op(t: &mut Thread, inst: &Inst, mask: u32) -> R {
    let w0 = width_bits(inst.src[0].ty);
    let signed0 = matches!(
        inst.src[0].ty,
        DataType::B | DataType::W | DataType::D | DataType::Q
    );
    match inst.opcode {
        Opcode::Bfrev => int_op(t, inst, mask, false, |[a]| {
            i64::from((a as u32).reverse_bits())
        }),
        Opcode::Cbit => int_op(t, inst, mask, false, |[a]| {
            i64::from(zext(a, w0).count_ones())
        }),
        Opcode::Lzd => int_op(t, inst, mask, false, |[a]| {
            i64::from((a as u32).leading_zeros())
        }),
        Opcode::Fbl => int_op(t, inst, mask, false, |[a]| {
            let v = a as u32;
            if v == 0 {
                0xffff_ffff
            } else {
                i64::from(v.trailing_zeros())
            }
        }),
        Opcode::Fbh => int_op(t, inst, mask, false, |[a]| {
            let v = a as u32;
            let x = if signed0 {
                v ^ ((v as i32 >> 31) as u32)
            } else {
                v
            };
            if x == 0 {
                0xffff_ffff
            } else {
                i64::from(x.leading_zeros())
            }
        }),
        Opcode::Bfe => {
            let signed = matches!(inst.src[2].ty, DataType::D | DataType::W | DataType::B);
            int_op(t, inst, mask, false, |[w, o, v]| {
                let (w, o) = ((w & 31) as u32, (o & 31) as u32);
                if w == 0 {
                    return 0;
                }
                let v = v as u32;
                if w + o < 32 {
                    let x = (v << (32 - w - o)) as i32;
                    if signed {
                        i64::from(x >> (32 - w))
                    } else {
                        i64::from((x as u32) >> (32 - w))
                    }
                } else if signed {
                    i64::from((v as i32) >> o)
                } else {
                    i64::from(v >> o)
                }
            })
        }
        Opcode::Bfi1 => int_op(t, inst, mask, false, |[w, o]| {
            let (w, o) = ((w & 31) as u32, (o & 31) as u32);
            i64::from(((1u32 << w).wrapping_sub(1)) << o)
        }),
        Opcode::Bfi2 => int_op(t, inst, mask, false, |[m, a, b]| {
            i64::from((m as u32 & a as u32) | (!(m as u32) & b as u32))
        }),
        _ => Err(EuErrorKind::Illegal("not a bit operation".into())),
    }
}

/// Whether `math.iqot` / `math.irem` `inst` divides unsigned: src0 and the destination are
/// `:ud` (whatever src1 is). A `:d` destination divides signed: IGC computes a char's `%` as
/// `math.irem :d` of the sign-extended dividend and the divisor moved to `:ud` (-128 % 3 is -2),
/// and a long's `/` of values that fit in 32 bits as `math.iqot :ud` of their magnitudes.
pub(crate) fn int_div_unsigned(inst: &Inst) -> bool {
    inst.src[0].ty == DataType::Ud && inst.dst.ty != DataType::D
}

/// `math.iqot` (quotient) or `math.irem` (`rem`) of two 32-bit values, unsigned or signed
/// (wrapping: `i32::MIN / -1` is `i32::MIN`, remainder 0). Division by zero has no defined
/// result; the hardware's all-ones quotient and unchanged dividend as remainder are what the
/// simulator returns.
pub(crate) fn int_div32(a: u32, b: u32, rem: bool, unsigned: bool) -> u32 {
    match (b, unsigned, rem) {
        (0, _, false) => u32::MAX,
        (0, _, true) => a,
        (_, true, false) => a / b,
        (_, true, true) => a % b,
        (_, false, false) => (a as i32).wrapping_div(b as i32) as u32,
        (_, false, true) => (a as i32).wrapping_rem(b as i32) as u32,
    }
}

fn math(t: &mut Thread, inst: &Inst, mask: u32) -> R {
    let Subfunction::Math(f) = inst.func else {
        return Err(EuErrorKind::Illegal("math without a function".into()));
    };
    match f {
        MathFn::Inv => float_op(t, inst, mask, |[a]| 1.0 / a, |[a]| 1.0 / a),
        MathFn::Log => float_op(t, inst, mask, |[a]| a.log2(), |[a]| a.log2()),
        MathFn::Exp => float_op(t, inst, mask, |[a]| a.exp2(), |[a]| a.exp2()),
        MathFn::Sqt => float_op(t, inst, mask, |[a]| a.sqrt(), |[a]| a.sqrt()),
        MathFn::Rsqt => float_op(t, inst, mask, |[a]| 1.0 / a.sqrt(), |[a]| 1.0 / a.sqrt()),
        MathFn::Sin => float_op(t, inst, mask, |[a]| a.sin(), |[a]| a.sin()),
        MathFn::Cos => float_op(t, inst, mask, |[a]| a.cos(), |[a]| a.cos()),
        MathFn::Fdiv => float_op(t, inst, mask, |[a, b]| a / b, |[a, b]| a / b),
        MathFn::Pow => float_op(t, inst, mask, |[a, b]| a.powf(b), |[a, b]| a.powf(b)),
        MathFn::Invm | MathFn::Rsqtm => super::macros::math(t, inst, mask, f),
        MathFn::Iqot | MathFn::Irem => {
            let unsigned = int_div_unsigned(inst);
            let rem = f == MathFn::Irem;
            int_op(t, inst, mask, false, move |[a, b]| {
                // The dividend itself as the remainder by zero, as `int_div32` has it for its
                // low 32 bits.
                if b == 0 && rem {
                    return a;
                }
                let r = int_div32(a as u32, b as u32, rem, unsigned);
                if unsigned {
                    i64::from(r)
                } else {
                    i64::from(r as i32)
                }
            })
        }
        other => Err(EuErrorKind::Unsupported(format!("math.{}", other.syntax()))),
    }
}

/// Which NaN a floating-point `add`, `mul` or `mad` returns: the first NaN source in operand
/// order (src0, then src1, then src2), quieted; without a NaN source, the arithmetic result.
///
/// No Intel document we can read states the EU's choice: IGC's vISA specification ("Floating
/// Point Mode", IEEE mode) lists denormal flushing as the only deviations from IEEE-754, and
/// IEEE 754-2008 §6.2.3 says a NaN result should carry the payload of one of the input NaNs
/// without saying which. So this is the simulator's own deterministic pick within that rule,
/// made in one place for the general and the fast path: Rust leaves which NaN `a + b` or
/// `mul_add` returns unspecified (LLVM may commute the operands or pick another FMA form),
/// and the two paths must not disagree on sign or payload.
pub(crate) trait NanFirst: Copy {
    fn nan_first(self, other: Self, result: Self) -> Self;
    /// `mad`: `self` is src0 (the addend), then src1 and src2 (the factors).
    fn nan_first3(self, b: Self, c: Self, result: Self) -> Self;
}

/// The quiet bit of an f32 NaN: a NaN source becomes a result with it set.
pub const F32_QUIET: u32 = 0x0040_0000;

macro_rules! nan_first {
    ($t:ty, $quiet:expr) => {
        impl NanFirst for $t {
            #[inline(always)]
            fn nan_first(self, other: $t, result: $t) -> $t {
                let q = |v: $t| <$t>::from_bits(v.to_bits() | $quiet);
                if self.is_nan() {
                    q(self)
                } else if other.is_nan() {
                    q(other)
                } else {
                    result
                }
            }

            #[inline(always)]
            fn nan_first3(self, b: $t, c: $t, result: $t) -> $t {
                let q = |v: $t| <$t>::from_bits(v.to_bits() | $quiet);
                if self.is_nan() {
                    q(self)
                } else if b.is_nan() {
                    q(b)
                } else if c.is_nan() {
                    q(c)
                } else {
                    result
                }
            }
        }
    };
}

nan_first!(f32, F32_QUIET);
nan_first!(f64, 0x0008_0000_0000_0000);

/// PRM Vol 2a "Move": a `mov` with the same source and destination type, no source modifier
/// and no saturation is a raw move. IGC moves packed bytes as `:hf` pairs, so a NaN pattern
/// must come out bit for bit (a conversion would quiet it).
fn is_raw_mov(inst: &Inst) -> bool {
    let s = &inst.src[0];
    s.ty == inst.dst.ty && s.modifier == SrcMod::None && !inst.sat
}

fn raw_mov(t: &mut Thread, inst: &Inst, mask: u32) -> R {
    let n = inst.n as usize;
    // Read before anything is written: the destination may overlap the source.
    let bits = load_bits(t, &inst.src[0], n)?;
    if inst.cond.is_some() || inst.acc_wr {
        // Flags and the accumulator follow the value; the raw bits then land in dst.
        arith!(t, inst, mask, |a| a, a)?;
    }
    store_bits(t, &inst.dst, n, mask, &bits)
}

/// Executes one ALU instruction on `enabled` lanes; `pred` holds the predicate per lane
/// (all ones without predication). `sel`/`csel` use the predicate as a selector.
pub fn exec(t: &mut Thread, inst: &Inst, enabled: u32, pred: u32) -> R {
    // Indirect operands resolve in the lanes the instruction writes: `sel`/`csel` write every
    // enabled lane (the predicate selects), the others the predicated ones.
    t.exec_lanes = match inst.opcode {
        Opcode::Sel | Opcode::Csel => enabled,
        _ => enabled & pred,
    };
    let r = dispatch(t, inst, enabled, pred);
    t.exec_lanes = u32::MAX;
    r
}

fn dispatch(t: &mut Thread, inst: &Inst, enabled: u32, pred: u32) -> R {
    let mask = enabled & pred;
    let signed = |ty: DataType| matches!(ty, DataType::B | DataType::W | DataType::D | DataType::Q);
    match inst.opcode {
        Opcode::Mov if is_raw_mov(inst) => raw_mov(t, inst, mask),
        Opcode::Mov => arith!(t, inst, mask, |a| a, a),
        Opcode::Sel => sel(t, inst, inst.cond, enabled, pred, [0, 1], [0, 1]),
        Opcode::Csel => csel(t, inst, enabled),
        Opcode::Add => arith!(
            t,
            inst,
            mask,
            |a, b| a.wrapping_add(b),
            a.nan_first(b, a + b)
        ),
        Opcode::Mul => arith!(
            t,
            inst,
            mask,
            |a, b| a.wrapping_mul(b),
            a.nan_first(b, a * b)
        ),
        Opcode::Mad => {
            if inst.domain == Domain::Int {
                int_op(t, inst, mask, false, |[a, b, c]| {
                    a.wrapping_add(b.wrapping_mul(c))
                })
            } else {
                float_op(
                    t,
                    inst,
                    mask,
                    |[a, b, c]| a.nan_first3(b, c, b.mul_add(c, a)),
                    |[a, b, c]| a.nan_first3(b, c, b.mul_add(c, a)),
                )
            }
        }
        Opcode::Lrp => float_op(
            t,
            inst,
            mask,
            |[a, b, c]| a * b + (1.0 - a) * c,
            |[a, b, c]| a * b + (1.0 - a) * c,
        ),
        Opcode::Add3 => int_op(t, inst, mask, false, |[a, b, c]| {
            a.wrapping_add(b).wrapping_add(c)
        }),
        Opcode::Avg => int_op(t, inst, mask, false, |[a, b]| {
            ((i128::from(a) + i128::from(b) + 1) >> 1) as i64
        }),
        Opcode::Mach => {
            let n = inst.n as usize;
            let a = load_int(t, &inst.src[0], n, false)?;
            let b = load_int(t, &inst.src[1], n, false)?;
            // Without AccWrEn, IGC's `mul acc0, x, y:uw; mach dst, x, y` idiom yields the low
            // DWord of x * y.
            if !inst.acc_wr {
                let mut lo = [0i64; 32];
                for i in 0..n {
                    lo[i] = a[i].wrapping_mul(b[i]);
                }
                return finish_int(t, inst, mask, &lo);
            }
            // With it, the PRM's multiply-high: (acc + src0 * (src1 >> 16) << 16), the high
            // DWord to dst and the low one to the accumulator, which holds
            // `src0 * (src1 & 0xffff)` from the `mul` before (`mul acc0, a, b:uw; mach dst, a,
            // b` is a 32x32 -> 64 multiply). Generated code also multiplies by a 16-bit value
            // alone that way, with 0 as mach's src1 (oneDNN's GEMM kernels: `mul (4) acc0
            // r6.6:ud r2.0:uw; mach (4) r3 r6.6:ud 0x0:ud {AccWrEn}`), which only the
            // accumulator's value makes right.
            let acc = load_int(t, &inst.acc, n, false)?;
            let (mut hi, mut lo) = ([0i64; 32], [0i64; 32]);
            // Each source is multiplied as its own type: oneDNN divides a signed dword by an
            // unsigned magic number (`mach dst:d, n:d, magic:ud`).
            let (sa, sb) = (signed(inst.src[0].ty), signed(inst.src[1].ty));
            for i in 0..n {
                let acc = i128::from(acc_value(t, &inst.acc, i, acc[i]));
                let x = if sa {
                    i128::from(a[i] as i32)
                } else {
                    i128::from(a[i] as u32)
                };
                let y = if sb {
                    i128::from((b[i] as i32) >> 16)
                } else {
                    i128::from((b[i] as u32) >> 16)
                };
                let p = acc + ((x * y) << 16);
                hi[i] = (p >> 32) as i64;
                lo[i] = p as i64;
            }
            store_int(t, &inst.acc, n, mask, &lo, false, false)?;
            keep_acc_precision(t, &inst.acc, n, mask, &lo);
            finish_int_acc(t, inst, mask, &hi, false)
        }
        Opcode::Mac => {
            let n = inst.n as usize;
            let acc = &inst.acc;
            match inst.domain {
                Domain::Int => {
                    let c = load_int(t, acc, n, false)?;
                    let a = load_int(t, &inst.src[0], n, false)?;
                    let b = load_int(t, &inst.src[1], n, false)?;
                    let mut r = [0i64; 32];
                    for i in 0..n {
                        r[i] = c[i].wrapping_add(a[i].wrapping_mul(b[i]));
                    }
                    finish_int(t, inst, mask, &r)
                }
                _ => {
                    // Fused as mad is (one rounding): IGC turns a mad whose addend is in acc0
                    // into mac (vISA HW conformity), and its correctly rounded Gen11 float
                    // division ends in a mac that is right only when fused.
                    float_op_on(
                        t,
                        inst,
                        [&inst.src[0], &inst.src[1], acc],
                        mask,
                        |[a, b, c]| c.nan_first3(a, b, a.mul_add(b, c)),
                        |[a, b, c]| c.nan_first3(a, b, a.mul_add(b, c)),
                    )
                }
            }
        }
        Opcode::Addc | Opcode::Subb => {
            let n = inst.n as usize;
            let a = load_int(t, &inst.src[0], n, false)?;
            let b = load_int(t, &inst.src[1], n, false)?;
            let (mut r, mut carry) = ([0i64; 32], [0i64; 32]);
            for i in 0..n {
                let (x, y) = (a[i] as u32, b[i] as u32);
                let (v, c) = if inst.opcode == Opcode::Addc {
                    x.overflowing_add(y)
                } else {
                    x.overflowing_sub(y)
                };
                r[i] = i64::from(v);
                carry[i] = i64::from(c);
            }
            store_int(t, &inst.acc, n, mask, &carry, false, false)?;
            finish_int_acc(t, inst, mask, &r, false)
        }
        Opcode::And => int_op(t, inst, mask, true, |[a, b]| a & b),
        Opcode::Or => int_op(t, inst, mask, true, |[a, b]| a | b),
        Opcode::Xor => int_op(t, inst, mask, true, |[a, b]| a ^ b),
        Opcode::Not => int_op(t, inst, mask, true, |[a]| !a),
        Opcode::Bfn => {
            let Subfunction::Bfn(lut) = inst.func else {
                return Err(EuErrorKind::Illegal("bfn without a function".into()));
            };
            int_op(t, inst, mask, true, move |[a, b, c]| {
                let mut r = 0i64;
                for bit in 0..64 {
                    let idx = (a >> bit & 1) | (b >> bit & 1) << 1 | (c >> bit & 1) << 2;
                    r |= i64::from(lut >> idx & 1) << bit;
                }
                r
            })
        }
        Opcode::Shl | Opcode::Shr | Opcode::Asr | Opcode::Rol | Opcode::Ror => shift(t, inst, mask),
        Opcode::Bfrev
        | Opcode::Cbit
        | Opcode::Lzd
        | Opcode::Fbl
        | Opcode::Fbh
        | Opcode::Bfe
        | Opcode::Bfi1
        | Opcode::Bfi2 => bit_op(t, inst, mask),
        Opcode::Cmp => cmp(t, inst, mask, false),
        Opcode::Cmpn => cmp(t, inst, mask, true),
        Opcode::Frc => float_op(t, inst, mask, |[a]| a - a.floor(), |[a]| a - a.floor()),
        Opcode::Rndd => float_op(t, inst, mask, |[a]| a.floor(), |[a]| a.floor()),
        Opcode::Rndu => float_op(t, inst, mask, |[a]| a.ceil(), |[a]| a.ceil()),
        Opcode::Rnde => float_op(
            t,
            inst,
            mask,
            |[a]| a.round_ties_even(),
            |[a]| a.round_ties_even(),
        ),
        Opcode::Rndz => float_op(t, inst, mask, |[a]| a.trunc(), |[a]| a.trunc()),
        Opcode::Math => math(t, inst, mask),
        Opcode::Madm => super::macros::madm(t, inst, mask),
        Opcode::Dp4a => {
            let s1 = signed(inst.src[1].ty);
            let s2 = signed(inst.src[2].ty);
            int_op(t, inst, mask, false, move |[a, b, c]| {
                let mut acc = a;
                for k in 0..4 {
                    let x = (b >> (8 * k)) & 0xff;
                    let y = (c >> (8 * k)) & 0xff;
                    let x = if s1 { sext(x, 8) } else { x };
                    let y = if s2 { sext(y, 8) } else { y };
                    acc = acc.wrapping_add(x * y);
                }
                acc
            })
        }
        other => Err(EuErrorKind::Unsupported(format!(
            "instruction {}",
            other.mnemonic()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::int_div32;

    /// Quotients truncate towards zero and remainders take the dividend's sign (OpenCL C's `/`
    /// and `%`, which IGC lowers to these); `i32::MIN / -1` wraps; by zero, all ones and the
    /// dividend.
    #[test]
    fn integer_division_follows_its_rule() {
        let s = |a: i32, b: i32, rem| int_div32(a as u32, b as u32, rem, false) as i32;
        assert_eq!((s(-7, 2, false), s(-7, 2, true)), (-3, -1));
        assert_eq!((s(7, -2, false), s(7, -2, true)), (-3, 1));
        assert_eq!(
            (s(i32::MIN, -1, false), s(i32::MIN, -1, true)),
            (i32::MIN, 0)
        );
        assert_eq!((s(-7, 0, false), s(-7, 0, true)), (-1, -7));
        let u = |a: u32, b: u32, rem| int_div32(a, b, rem, true);
        assert_eq!(
            (u(u32::MAX, 7, false), u(u32::MAX, 7, true)),
            (613_566_756, 3)
        );
        assert_eq!((u(9, 0, false), u(9, 0, true)), (u32::MAX, 9));
    }
}
