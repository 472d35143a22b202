//! Moving lanes between the register file and the numeric domains. Every loop here runs over
//! the lanes of one operand with the type decision made once outside it.

use isa_encoder::model::{DataType, SrcMod};

use crate::convert::{bf16_to_f32, f16_to_f32, f32_to_bf16};
use crate::error::EuErrorKind;
use crate::program::{type_bytes, Loc, Opnd};
use crate::regfile::{grf_addr_mask, Thread, A0, ZERO};
use crate::rounding::Rounding;

pub type Lanes<T> = [T; 32];

#[inline(always)]
fn rd<const N: usize>(b: &[u8], o: u16) -> [u8; N] {
    let o = o as usize;
    match b.get(o..o + N) {
        Some(s) => {
            let mut a = [0u8; N];
            a.copy_from_slice(s);
            a
        }
        None => [0u8; N],
    }
}

#[inline(always)]
fn wr<const N: usize>(b: &mut [u8], o: u16, v: [u8; N]) {
    let o = o as usize;
    if let Some(s) = b.get_mut(o..o + N) {
        s.copy_from_slice(&v);
    }
}

/// Byte offsets of an indirect operand's lanes, wrapped to the GRF as the EU decodes them. Only the lanes in
/// `on` are resolved: the others point at the zero area (read as zeros, never written).
/// Lanes count from the instruction's first channel: a VxH row takes the subregister the
/// instruction encodes plus its row number, whatever the channel offset (IGC encodes `a0.8`
/// for the M8 half of a SIMD16 move and reloads `a0.0` for an M16 half).
fn indirect_offsets(
    t: &Thread,
    o: &Opnd,
    n: usize,
    on: u32,
    (addr_sub, offset, vxh_width): (u8, i16, u8),
) -> Result<Lanes<u16>, EuErrorKind> {
    let size = type_bytes(o.ty);
    let mut out = [ZERO as u16; 32];
    for (i, slot) in out.iter_mut().enumerate().take(n) {
        if on >> i & 1 == 0 {
            continue;
        }
        let row = if vxh_width == 0 {
            0
        } else {
            i / vxh_width as usize
        };
        let sub = addr_sub as usize + row;
        if sub >= 16 {
            return Err(EuErrorKind::RegisterOutOfRange {
                file: "a0",
                byte: (sub * 2) as u32,
            });
        }
        let a = u16::from_le_bytes(rd::<2>(&t.file, (A0 + sub * 2) as u16));
        // Each element's address is computed and wrapped on its own (`grf_addr_mask`).
        let at = (i64::from(a) + i64::from(offset) + i64::from(o.offs[i]))
            & grf_addr_mask(t.grf_bytes) as i64;
        // Only an element not aligned to its size can still run off the end.
        if at as usize + size > t.grf_bytes {
            return Err(EuErrorKind::RegisterOutOfRange {
                file: "the GRF",
                byte: at as u32,
            });
        }
        *slot = at as u16;
    }
    Ok(out)
}

/// The file byte offset of each lane in `on` of a register operand (`None` for immediates):
/// what the interpreter reads or writes there, indirect operands resolved through a0 as it
/// resolves them (the sanitizer's initcheck follows values through registers with it).
pub(crate) fn lane_offsets(
    t: &Thread,
    o: &Opnd,
    n: usize,
    on: u32,
) -> Result<Option<Lanes<u16>>, EuErrorKind> {
    Ok(match o.loc {
        Loc::File | Loc::Null => Some(o.offs),
        Loc::Imm => None,
        Loc::Indirect {
            addr_sub,
            offset,
            vxh_width,
        } => Some(indirect_offsets(
            t,
            o,
            n,
            on,
            (addr_sub, offset, vxh_width),
        )?),
    })
}

/// The bytes and lane offsets a source reads.
fn source<'a>(t: &'a Thread, o: &'a Opnd, n: usize) -> Result<(&'a [u8], Lanes<u16>), EuErrorKind> {
    Ok(match o.loc {
        Loc::File | Loc::Null => (&t.file[..], o.offs),
        Loc::Imm => (&o.imm[..], o.offs),
        Loc::Indirect {
            addr_sub,
            offset,
            vxh_width,
        } => (
            &t.file[..],
            indirect_offsets(t, o, n, t.exec_lanes, (addr_sub, offset, vxh_width))?,
        ),
    })
}

/// Fills `$out[..n]` from the operand: one slice walk for consecutive lanes, one read for
/// scalars, else a gather over the lane offsets.
macro_rules! load_loop {
    ($o:expr, $b:expr, $offs:expr, $n:expr, $out:expr, $N:literal, $conv:expr) => {
        if let (Some(s), Loc::File) = ($o.contig, $o.loc) {
            let s = s as usize;
            if let Some(bytes) = $b.get(s..s + $n * $N) {
                for (d, c) in $out.iter_mut().zip(bytes.chunks_exact($N)) {
                    let mut a = [0u8; $N];
                    a.copy_from_slice(c);
                    *d = $conv(a);
                }
            }
        } else if $o.scalar {
            let v = $conv(rd::<$N>($b, $offs[0]));
            for d in $out.iter_mut().take($n) {
                *d = v;
            }
        } else {
            for i in 0..$n {
                $out[i] = $conv(rd::<$N>($b, $offs[i]));
            }
        }
    };
}

/// Integer lanes (sign- or zero-extended to 64 bits). `logic`: the negate modifier is
/// bitwise not (logic instructions).
pub fn load_int(t: &Thread, o: &Opnd, n: usize, logic: bool) -> Result<Lanes<i64>, EuErrorKind> {
    let (b, offs) = source(t, o, n)?;
    let mut out = [0i64; 32];
    match o.ty {
        DataType::Ub => load_loop!(o, b, offs, n, out, 1, |x: [u8; 1]| i64::from(x[0])),
        DataType::B => load_loop!(o, b, offs, n, out, 1, |x: [u8; 1]| i64::from(x[0] as i8)),
        DataType::Uw => load_loop!(o, b, offs, n, out, 2, |x| i64::from(u16::from_le_bytes(x))),
        DataType::W => load_loop!(o, b, offs, n, out, 2, |x| i64::from(i16::from_le_bytes(x))),
        DataType::Ud => load_loop!(o, b, offs, n, out, 4, |x| i64::from(u32::from_le_bytes(x))),
        DataType::D => load_loop!(o, b, offs, n, out, 4, |x| i64::from(i32::from_le_bytes(x))),
        DataType::Uq | DataType::Q => {
            load_loop!(o, b, offs, n, out, 8, i64::from_le_bytes)
        }
        DataType::F => load_loop!(o, b, offs, n, out, 4, |x| f32::from_le_bytes(x) as i64),
        DataType::Hf => load_loop!(o, b, offs, n, out, 2, |x| f16_to_f32(u16::from_le_bytes(x))
            as i64),
        DataType::Df => load_loop!(o, b, offs, n, out, 8, |x| f64::from_le_bytes(x) as i64),
        other => return Err(unsupported_type(other)),
    }
    // The absolute value is of the source's bits as a signed number of its width, and keeps
    // that width ((abs)(-128:b) is -128; (abs)x:ud of 0xffffffff is 1, IGC's |x| before an
    // unsigned division); a signed source's negation takes the instruction's execution width
    // ([`crate::program::operand::exec_int_bits`]): -(-128:b) is 128 in word arithmetic,
    // -(-32768:w) is -32768 there but 32768 into a QWord.
    let signed = matches!(o.ty, DataType::B | DataType::W | DataType::D);
    let sign_extend = |v: i64, bits: u32| {
        if bits < 64 {
            (v << (64 - bits)) >> (64 - bits)
        } else {
            v
        }
    };
    let (src_bits, exec_bits) = (o.ty.bits(), u32::from(o.mod_bits));
    let abs = |v: i64| {
        let a = sign_extend(v, src_bits).wrapping_abs();
        if signed || src_bits >= 64 {
            sign_extend(a, src_bits)
        } else {
            a & ((1 << src_bits) - 1)
        }
    };
    let neg = |v: i64| {
        if signed {
            sign_extend(v.wrapping_neg(), exec_bits)
        } else {
            v.wrapping_neg()
        }
    };
    let lanes = out.iter_mut().take(n);
    match (o.modifier, logic) {
        (SrcMod::None, _) => {}
        (SrcMod::Neg, true) => lanes.for_each(|v| *v = !*v),
        (SrcMod::Neg, false) => lanes.for_each(|v| *v = neg(*v)),
        (SrcMod::Abs, _) => lanes.for_each(|v| *v = abs(*v)),
        (SrcMod::NegAbs, _) => lanes.for_each(|v| *v = neg(abs(*v))),
    }
    Ok(out)
}

fn unsupported_type(ty: DataType) -> EuErrorKind {
    EuErrorKind::Unsupported(format!("operand type :{}", ty.syntax()))
}

/// f32 lanes.
pub fn load_f32(t: &Thread, o: &Opnd, n: usize) -> Result<Lanes<f32>, EuErrorKind> {
    let (b, offs) = source(t, o, n)?;
    let mut out = [0f32; 32];
    match o.ty {
        DataType::F => load_loop!(o, b, offs, n, out, 4, f32::from_le_bytes),
        DataType::Hf => load_loop!(o, b, offs, n, out, 2, |x| f16_to_f32(u16::from_le_bytes(x))),
        DataType::Bf => load_loop!(o, b, offs, n, out, 2, |x| bf16_to_f32(u16::from_le_bytes(
            x
        ))),
        DataType::Df => load_loop!(o, b, offs, n, out, 8, |x| f64::from_le_bytes(x) as f32),
        DataType::Ub => load_loop!(o, b, offs, n, out, 1, |x: [u8; 1]| f32::from(x[0])),
        DataType::B => load_loop!(o, b, offs, n, out, 1, |x: [u8; 1]| f32::from(x[0] as i8)),
        DataType::Uw => load_loop!(o, b, offs, n, out, 2, |x| f32::from(u16::from_le_bytes(x))),
        DataType::W => load_loop!(o, b, offs, n, out, 2, |x| f32::from(i16::from_le_bytes(x))),
        DataType::Ud => load_loop!(o, b, offs, n, out, 4, |x| u32::from_le_bytes(x) as f32),
        DataType::D => load_loop!(o, b, offs, n, out, 4, |x| i32::from_le_bytes(x) as f32),
        DataType::Uq => load_loop!(o, b, offs, n, out, 8, |x| u64::from_le_bytes(x) as f32),
        DataType::Q => load_loop!(o, b, offs, n, out, 8, |x| i64::from_le_bytes(x) as f32),
        other => return Err(unsupported_type(other)),
    }
    match o.modifier {
        SrcMod::None => {}
        SrcMod::Neg => out.iter_mut().take(n).for_each(|v| *v = -*v),
        SrcMod::Abs => out.iter_mut().take(n).for_each(|v| *v = v.abs()),
        SrcMod::NegAbs => out.iter_mut().take(n).for_each(|v| *v = -v.abs()),
    }
    Ok(out)
}

/// f64 lanes.
pub fn load_f64(t: &Thread, o: &Opnd, n: usize) -> Result<Lanes<f64>, EuErrorKind> {
    let (b, offs) = source(t, o, n)?;
    let mut out = [0f64; 32];
    match o.ty {
        DataType::Df => load_loop!(o, b, offs, n, out, 8, f64::from_le_bytes),
        DataType::F => load_loop!(o, b, offs, n, out, 4, |x| f64::from(f32::from_le_bytes(x))),
        DataType::Hf => load_loop!(o, b, offs, n, out, 2, |x| f64::from(f16_to_f32(
            u16::from_le_bytes(x)
        ))),
        DataType::Ud => load_loop!(o, b, offs, n, out, 4, |x| f64::from(u32::from_le_bytes(x))),
        DataType::D => load_loop!(o, b, offs, n, out, 4, |x| f64::from(i32::from_le_bytes(x))),
        DataType::Uq => load_loop!(o, b, offs, n, out, 8, |x| u64::from_le_bytes(x) as f64),
        DataType::Q => load_loop!(o, b, offs, n, out, 8, |x| i64::from_le_bytes(x) as f64),
        DataType::Uw => load_loop!(o, b, offs, n, out, 2, |x| f64::from(u16::from_le_bytes(x))),
        DataType::W => load_loop!(o, b, offs, n, out, 2, |x| f64::from(i16::from_le_bytes(x))),
        DataType::Ub => load_loop!(o, b, offs, n, out, 1, |x: [u8; 1]| f64::from(x[0])),
        DataType::B => load_loop!(o, b, offs, n, out, 1, |x: [u8; 1]| f64::from(x[0] as i8)),
        other => return Err(unsupported_type(other)),
    }
    match o.modifier {
        SrcMod::None => {}
        SrcMod::Neg => out.iter_mut().take(n).for_each(|v| *v = -*v),
        SrcMod::Abs => out.iter_mut().take(n).for_each(|v| *v = v.abs()),
        SrcMod::NegAbs => out.iter_mut().take(n).for_each(|v| *v = -v.abs()),
    }
    Ok(out)
}

/// Raw bit patterns of each lane (zero-extended to 64 bits), without conversion or source
/// modifier: the source side of a raw move.
pub fn load_bits(t: &Thread, o: &Opnd, n: usize) -> Result<Lanes<u64>, EuErrorKind> {
    let (b, offs) = source(t, o, n)?;
    let mut out = [0u64; 32];
    match type_bytes(o.ty) {
        1 => load_loop!(o, b, offs, n, out, 1, |x: [u8; 1]| u64::from(x[0])),
        2 => load_loop!(o, b, offs, n, out, 2, |x| u64::from(u16::from_le_bytes(x))),
        4 => load_loop!(o, b, offs, n, out, 4, |x| u64::from(u32::from_le_bytes(x))),
        _ => load_loop!(o, b, offs, n, out, 8, u64::from_le_bytes),
    }
    Ok(out)
}

/// The byte offsets a destination writes in the lanes of `mask`; `None` for `null`.
fn dest(t: &Thread, d: &Opnd, n: usize, mask: u32) -> Result<Option<Lanes<u16>>, EuErrorKind> {
    Ok(match d.loc {
        Loc::Null | Loc::Imm => None,
        Loc::File => Some(d.offs),
        Loc::Indirect {
            addr_sub,
            offset,
            vxh_width,
        } => Some(indirect_offsets(
            t,
            d,
            n,
            mask & t.exec_lanes,
            (addr_sub, offset, vxh_width),
        )?),
    })
}

/// Writes the enabled lanes: one slice walk when every lane is enabled and consecutive.
macro_rules! store_loop {
    ($t:expr, $d:expr, $offs:expr, $n:expr, $mask:expr, $vals:expr, $conv:expr) => {{
        let conv = $conv;
        // All n lanes enabled.
        let lanes = $crate::lane_mask::lane_bits($n as u8);
        let full = $mask & lanes == lanes;
        match ($d.contig, $d.loc, full) {
            (Some(s), Loc::File, true) => {
                let s = s as usize;
                let size = std::mem::size_of_val(&conv($vals[0]));
                if let Some(bytes) = $t.file.get_mut(s..s + $n * size) {
                    for (c, v) in bytes.chunks_exact_mut(size).zip($vals.iter()) {
                        c.copy_from_slice(&conv(*v));
                    }
                }
            }
            _ => {
                for i in 0..$n {
                    if $mask >> i & 1 != 0 {
                        wr(&mut $t.file, $offs[i], conv($vals[i]));
                    }
                }
            }
        }
    }};
}

/// An integer converted to the destination integer type: saturated if `sat`, else wrapped.
#[inline(always)]
pub fn int_to_type(ty: DataType, v: i64, sat: bool) -> i64 {
    let (lo, hi, bits) = match ty {
        DataType::Ub => (0, 0xff, 8),
        DataType::B => (-0x80, 0x7f, 8),
        DataType::Uw => (0, 0xffff, 16),
        DataType::W => (-0x8000, 0x7fff, 16),
        DataType::Ud => (0, 0xffff_ffff, 32),
        DataType::D => (-0x8000_0000, 0x7fff_ffff, 32),
        DataType::Uq => (0, i64::MAX, 64),
        _ => (i64::MIN, i64::MAX, 64),
    };
    if sat {
        v.clamp(lo, hi)
    } else if bits == 64 {
        v
    } else if lo < 0 {
        (v << (64 - bits)) >> (64 - bits)
    } else {
        v & hi
    }
}

/// What a value above i64::MAX (a large `:uq`) saturates to in integer type `ty`: its largest
/// value (as its bits in an i64); `None` for `:uq`, which holds it, and for floating point.
fn above_i64_saturated(ty: DataType) -> Option<i64> {
    Some(match ty {
        DataType::Ub => 0xff,
        DataType::B => 0x7f,
        DataType::Uw => 0xffff,
        DataType::W => 0x7fff,
        DataType::Ud => 0xffff_ffff,
        DataType::D => 0x7fff_ffff,
        DataType::Q => i64::MAX,
        _ => return None,
    })
}

/// Writes integer lanes to a destination of any type. `unsigned64`: the lanes hold `:uq`
/// values (an instruction whose sources include `:uq`), read as unsigned 64-bit numbers where
/// the type changes: converted to floating point, or saturated.
pub fn store_int(
    t: &mut Thread,
    d: &Opnd,
    n: usize,
    mask: u32,
    vals: &Lanes<i64>,
    sat: bool,
    unsigned64: bool,
) -> Result<(), EuErrorKind> {
    let Some(offs) = dest(t, d, n, mask)? else {
        return Ok(());
    };
    let ty = d.ty;
    // To an integer type: wrapped or saturated; a :uq value of 2^63 or more (negative here) is
    // above every signed bound, so it saturates to the type's largest value (itself, for :uq).
    let int = |v: i64| {
        if sat && unsigned64 && v < 0 {
            above_i64_saturated(ty).unwrap_or(v)
        } else {
            int_to_type(ty, v, sat)
        }
    };
    // Integer to floating point: the value's magnitude, rounded once.
    let wide = |v: i64| {
        if unsigned64 {
            v as u64 as f64
        } else {
            v as f64
        }
    };
    match ty {
        DataType::Ub | DataType::B => {
            store_loop!(t, d, offs, n, mask, vals, |v| [int(v) as u8])
        }
        DataType::Uw | DataType::W => {
            store_loop!(t, d, offs, n, mask, vals, |v| (int(v) as u16).to_le_bytes())
        }
        DataType::Ud | DataType::D => {
            store_loop!(t, d, offs, n, mask, vals, |v| (int(v) as u32).to_le_bytes())
        }
        DataType::Uq | DataType::Q => {
            store_loop!(t, d, offs, n, mask, vals, |v| int(v).to_le_bytes())
        }
        DataType::F => {
            // Integer to single precision rounds in cr0's mode (`rounding`).
            let mode = Rounding::of(t);
            store_loop!(t, d, offs, n, mask, vals, |v| sat_f32(
                mode.int_to_f32(v, unsigned64),
                sat
            )
            .to_le_bytes())
        }
        DataType::Hf => {
            // Past 2^53, where `wide` rounds, every value is beyond half's range in each mode.
            let mode = Rounding::of(t);
            store_loop!(t, d, offs, n, mask, vals, |v| mode
                .to_f16(sat_f64(wide(v), sat))
                .to_le_bytes())
        }
        DataType::Bf => store_loop!(t, d, offs, n, mask, vals, |v| f32_to_bf16(sat_f32(
            Rounding::NearestEven.int_to_f32(v, unsigned64),
            sat
        ))
        .to_le_bytes()),
        DataType::Df => store_loop!(t, d, offs, n, mask, vals, |v| sat_f64(wide(v), sat)
            .to_le_bytes()),
        other => return Err(unsupported_type(other)),
    }
    Ok(())
}

/// Float saturation: clamp to [0, 1], NaN to 0.
#[inline(always)]
pub fn sat_f32(v: f32, sat: bool) -> f32 {
    if !sat {
        v
    } else if v.is_nan() {
        0.0
    } else {
        v.clamp(0.0, 1.0)
    }
}

#[inline(always)]
pub fn sat_f64(v: f64, sat: bool) -> f64 {
    if !sat {
        v
    } else if v.is_nan() {
        0.0
    } else {
        v.clamp(0.0, 1.0)
    }
}

/// The value a float result `v` has once written to a destination of type `ty` (after `sat`,
/// in rounding mode `mode`), as a number: what a condition modifier tests. The flags come from
/// the value written, after saturation and format conversion (Mesa's conditional-modifier
/// propagation, from the PRM's post_zero and tests on GPUs): IGC's `mov (lt)f0.0
/// (sat)null:b r:f` takes the sign of the saturated byte, a float -108.0 sets the flag. An
/// integer keeps its sign and zero-ness as a float, which is all a condition looks at.
pub fn float_as_stored(ty: DataType, v: f64, sat: bool, mode: Rounding) -> f64 {
    match ty {
        DataType::F => f64::from(sat_f64(v, sat) as f32),
        DataType::Hf => f64::from(f16_to_f32(mode.to_f16(sat_f64(v, sat)))),
        DataType::Bf => f64::from(bf16_to_f32(f32_to_bf16(sat_f64(v, sat) as f32))),
        DataType::Ub => f64::from(v as u8),
        DataType::B => f64::from(v as i8),
        DataType::Uw => f64::from(v as u16),
        DataType::W => f64::from(v as i16),
        DataType::Ud => f64::from(v as u32),
        DataType::D => f64::from(v as i32),
        DataType::Uq => v as u64 as f64,
        DataType::Q => v as i64 as f64,
        _ => sat_f64(v, sat),
    }
}

/// Writes f32 lanes to a destination of any type (float to integer rounds toward zero and
/// saturates to the type's range; NaN becomes 0).
pub fn store_f32(
    t: &mut Thread,
    d: &Opnd,
    n: usize,
    mask: u32,
    vals: &Lanes<f32>,
    sat: bool,
) -> Result<(), EuErrorKind> {
    let Some(offs) = dest(t, d, n, mask)? else {
        return Ok(());
    };
    match d.ty {
        DataType::F => store_loop!(t, d, offs, n, mask, vals, |v| sat_f32(v, sat).to_le_bytes()),
        DataType::Hf => {
            let mode = Rounding::of(t);
            store_loop!(t, d, offs, n, mask, vals, |v| mode
                .to_f16(f64::from(sat_f32(v, sat)))
                .to_le_bytes())
        }
        DataType::Bf => store_loop!(t, d, offs, n, mask, vals, |v| f32_to_bf16(sat_f32(v, sat))
            .to_le_bytes()),
        DataType::Df => store_loop!(t, d, offs, n, mask, vals, |v| f64::from(sat_f32(v, sat))
            .to_le_bytes()),
        DataType::Ub => store_loop!(t, d, offs, n, mask, vals, |v: f32| [v as u8]),
        DataType::B => store_loop!(t, d, offs, n, mask, vals, |v: f32| [v as i8 as u8]),
        DataType::Uw => store_loop!(t, d, offs, n, mask, vals, |v: f32| (v as u16).to_le_bytes()),
        DataType::W => store_loop!(t, d, offs, n, mask, vals, |v: f32| (v as i16).to_le_bytes()),
        DataType::Ud => store_loop!(t, d, offs, n, mask, vals, |v: f32| (v as u32).to_le_bytes()),
        DataType::D => store_loop!(t, d, offs, n, mask, vals, |v: f32| (v as i32).to_le_bytes()),
        DataType::Uq => store_loop!(t, d, offs, n, mask, vals, |v: f32| (v as u64).to_le_bytes()),
        DataType::Q => store_loop!(t, d, offs, n, mask, vals, |v: f32| (v as i64).to_le_bytes()),
        other => return Err(unsupported_type(other)),
    }
    Ok(())
}

/// Writes f64 lanes to a destination of any type.
pub fn store_f64(
    t: &mut Thread,
    d: &Opnd,
    n: usize,
    mask: u32,
    vals: &Lanes<f64>,
    sat: bool,
) -> Result<(), EuErrorKind> {
    let Some(offs) = dest(t, d, n, mask)? else {
        return Ok(());
    };
    match d.ty {
        DataType::Df => store_loop!(t, d, offs, n, mask, vals, |v| sat_f64(v, sat).to_le_bytes()),
        DataType::F => store_loop!(t, d, offs, n, mask, vals, |v| (sat_f64(v, sat) as f32)
            .to_le_bytes()),
        DataType::Hf => {
            let mode = Rounding::of(t);
            store_loop!(t, d, offs, n, mask, vals, |v| mode
                .to_f16(sat_f64(v, sat))
                .to_le_bytes())
        }
        DataType::Ub => store_loop!(t, d, offs, n, mask, vals, |v: f64| [v as u8]),
        DataType::B => store_loop!(t, d, offs, n, mask, vals, |v: f64| [v as i8 as u8]),
        DataType::Uw => store_loop!(t, d, offs, n, mask, vals, |v: f64| (v as u16).to_le_bytes()),
        DataType::W => store_loop!(t, d, offs, n, mask, vals, |v: f64| (v as i16).to_le_bytes()),
        DataType::Ud => store_loop!(t, d, offs, n, mask, vals, |v: f64| (v as u32).to_le_bytes()),
        DataType::D => store_loop!(t, d, offs, n, mask, vals, |v: f64| (v as i32).to_le_bytes()),
        DataType::Uq => store_loop!(t, d, offs, n, mask, vals, |v: f64| (v as u64).to_le_bytes()),
        DataType::Q => store_loop!(t, d, offs, n, mask, vals, |v: f64| (v as i64).to_le_bytes()),
        other => return Err(unsupported_type(other)),
    }
    Ok(())
}

/// Writes raw bit patterns (the low bytes of each lane) without conversion: `cmp` results.
pub fn store_bits(
    t: &mut Thread,
    d: &Opnd,
    n: usize,
    mask: u32,
    vals: &Lanes<u64>,
) -> Result<(), EuErrorKind> {
    let Some(offs) = dest(t, d, n, mask)? else {
        return Ok(());
    };
    match type_bytes(d.ty) {
        1 => store_loop!(t, d, offs, n, mask, vals, |v: u64| [v as u8]),
        2 => store_loop!(t, d, offs, n, mask, vals, |v: u64| (v as u16).to_le_bytes()),
        4 => store_loop!(t, d, offs, n, mask, vals, |v: u64| (v as u32).to_le_bytes()),
        _ => store_loop!(t, d, offs, n, mask, vals, |v: u64| v.to_le_bytes()),
    }
    Ok(())
}
