//! `dpas` (Xe-HPG): the systolic dot-product-accumulate, D = C + A x B over `repeat` rows.
//!
//! Evidence, and what each rule below rests on:
//! - vISA `documentation/visa/instructions/DPAS.md` (IGC): the pseudo code of the layout and
//!   order below, OPS_PER_CHAN, "the output of each stage is a dword (integer or float) which
//!   is the accumulated input to the next systolic stage", SIMD8 before Xe-HPC.
//! - IGA's Xe-HPG model (`Models/bxml/ModelXeHPG.hpp`, generated from the hardware
//!   description): the legal types (`UD,D <- UD,D,UB,B,U4,S4,U2,S2`; `F <- F,BF`;
//!   `BF <- F,BF`; `F <- F,HF`; `HF <- F,HF`) and no saturation, predication or conditional
//!   modifier (`Attr::NONE`; `iga64 -a` drops a written `(sat)`).
//! - IGC's vISA verifier and `G4_InstDpas::computeRightBound`: dst/src0 rows packed at
//!   8 x type size, src1 whole registers, src2 rows of SD x OPS_PER_CHAN elements, and the
//!   alignment of each.
//! - The float rounding is not documented anywhere we found, and IGC has no dpas emulation.
//!   Intel's only host model is the ESIMD emulator (intel/llvm `esimd_emulator` math
//!   intrinsics, `__esimd_dpas_inner`): an f32 accumulator starting at src0 (0 for null), to
//!   which each product is added in k order, every addition rounded to f32. We follow it, with
//!   products formed in f32 (exact for hf x hf; bf x bf is exact unless it leaves f32's
//!   range), round to nearest even whatever cr0 says, denormals kept, an hf/bf destination
//!   rounded once at the end. NaN results are NaN; their payload is not modelled.
//! - Integers accumulate in 32 bits; without a saturation bit the sum wraps.

use isa_encoder::model::{DataType, Subfunction};
use platform::Platform;

use crate::convert::{bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
use crate::error::EuErrorKind;
use crate::program::{Inst, Loc, Opnd};
use crate::regfile::{Thread, REG_BYTES};

type R<T> = Result<T, EuErrorKind>;

/// What a src1/src2 element is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Unsigned,
    Signed,
    Half,
    BFloat,
}

/// The dpas source precisions: type, element bits, kind. (IGA spells u8/s8 `ub`/`b`.)
pub const PRECISIONS: [(DataType, u32, Kind); 8] = [
    (DataType::Ub, 8, Kind::Unsigned),
    (DataType::B, 8, Kind::Signed),
    (DataType::U4, 4, Kind::Unsigned),
    (DataType::S4, 4, Kind::Signed),
    (DataType::U2, 2, Kind::Unsigned),
    (DataType::S2, 2, Kind::Signed),
    (DataType::Hf, 16, Kind::Half),
    (DataType::Bf, 16, Kind::BFloat),
];

/// OPS_PER_CHAN, the elements one channel's dword holds per systolic stage: 2 for 16-bit
/// sources, 4 when either integer source is 8-bit, else 8 (vISA DPAS.md,
/// `G4_InstDpas::getOpsPerChan`).
pub fn ops_per_chan(src1_bits: u32, src2_bits: u32) -> u32 {
    match src1_bits.max(src2_bits) {
        16 => 2,
        8 => 4,
        _ => 8,
    }
}

fn precision(ty: DataType, which: &str) -> R<(u32, Kind)> {
    if ty == DataType::Tf32 {
        return Err(EuErrorKind::Illegal(format!(
            "dpas {which} of type tf32: tf32 is Xe-HPC's, Xe-HPG has no tf32 dpas"
        )));
    }
    PRECISIONS
        .iter()
        .find(|p| p.0 == ty)
        .map(|p| (p.1, p.2))
        .ok_or_else(|| EuErrorKind::Illegal(format!("dpas {which} precision {ty:?}")))
}

/// Whether dst/src0 type `ty` goes with sources of `kind` (IGA's Xe-HPG type table).
fn acc_type_ok(ty: DataType, kind: Kind) -> bool {
    match kind {
        Kind::Unsigned | Kind::Signed => matches!(ty, DataType::D | DataType::Ud),
        Kind::Half => matches!(ty, DataType::F | DataType::Hf),
        Kind::BFloat => matches!(ty, DataType::F | DataType::Bf),
    }
}

/// An operand's first byte in the GRF (`grf_bytes` of it) after checking that `bytes` from it
/// fit and that it is `align`-byte aligned; `None` for null.
fn place(o: &Opnd, which: &str, bytes: usize, align: usize, grf_bytes: usize) -> R<Option<usize>> {
    let at = match o.loc {
        Loc::Null => return Ok(None),
        Loc::File if usize::from(o.offs[0]) < grf_bytes => usize::from(o.offs[0]),
        _ => {
            return Err(EuErrorKind::Illegal(format!(
                "dpas {which} is not a direct GRF register"
            )))
        }
    };
    if at + bytes > grf_bytes {
        return Err(EuErrorKind::RegisterOutOfRange {
            file: "the GRF",
            byte: (at + bytes) as u32,
        });
    }
    if at % align != 0 {
        return Err(EuErrorKind::Illegal(format!(
            "dpas {which} at GRF byte {at:#x} is not {align}-byte aligned"
        )));
    }
    Ok(Some(at))
}

/// Element `i` (of `bits` bits, packed from bit 0 of byte `base`) as an integer of `kind`,
/// or its raw bits for a float kind.
fn element(grf: &[u8], base: usize, i: usize, bits: u32, kind: Kind) -> i64 {
    let bit = i * bits as usize;
    let at = base + bit / 8;
    let raw = if bits == 16 {
        u32::from(u16::from_le_bytes([grf[at], grf[at + 1]]))
    } else {
        u32::from(grf[at] >> (bit % 8)) & ((1 << bits) - 1)
    };
    match kind {
        Kind::Signed => i64::from(((raw << (32 - bits)) as i32) >> (32 - bits)),
        _ => i64::from(raw),
    }
}

fn to_f32(raw: i64, kind: Kind) -> f32 {
    match kind {
        Kind::Half => f16_to_f32(raw as u16),
        _ => bf16_to_f32(raw as u16),
    }
}

/// The accumulator element of `ty` at `at` as bits (integers) or value (floats).
fn load_acc(grf: &[u8], at: usize, ty: DataType) -> (u32, f32) {
    match ty {
        DataType::Hf => (0, f16_to_f32(u16::from_le_bytes([grf[at], grf[at + 1]]))),
        DataType::Bf => (0, bf16_to_f32(u16::from_le_bytes([grf[at], grf[at + 1]]))),
        _ => {
            let w = u32::from_le_bytes([grf[at], grf[at + 1], grf[at + 2], grf[at + 3]]);
            (w, f32::from_bits(w))
        }
    }
}

fn store_acc(grf: &mut [u8], at: usize, ty: DataType, int: u32, f: f32) {
    match ty {
        DataType::Hf => grf[at..at + 2].copy_from_slice(&f32_to_f16(f).to_le_bytes()),
        DataType::Bf => grf[at..at + 2].copy_from_slice(&f32_to_bf16(f).to_le_bytes()),
        DataType::F => grf[at..at + 4].copy_from_slice(&f.to_bits().to_le_bytes()),
        _ => grf[at..at + 4].copy_from_slice(&int.to_le_bytes()),
    }
}

/// Executes a `dpas` on channels `enabled` (shifted to the first channel). A `dpasw` takes
/// [`exec_fused`]: one thread's registers do not determine its result.
pub fn exec(t: &mut Thread, platform: Platform, inst: &Inst, enabled: u32) -> R<()> {
    if inst.opcode == isa_encoder::model::Opcode::Dpasw {
        return Err(EuErrorKind::Illegal(
            "dpasw outside a fused EU pair: half of its src2 rows come from the other thread \
             of the pair"
                .into(),
        ));
    }
    compute(t, platform, inst, enabled, None)
}

/// Executes the `dpasw` both threads of a fused EU pair are at, on each thread's channels
/// `enabled[i]`. vISA DPASW.md: src2 is `NGrf` registers, of which the first `(NGrf + 1) / 2`
/// are EU0's (its src2 registers from the first) and the rest EU1's (its src2 registers from
/// the first); with that src2 each thread computes a `dpas` of its own src0 and src1.
pub fn exec_fused(
    eu0: &mut Thread,
    eu1: &mut Thread,
    platform: Platform,
    inst: &Inst,
    enabled: [u32; 2],
) -> R<()> {
    let shape = Shape::of(platform, inst)?;
    let a = &inst.src[2];
    let size = shape.rc * shape.a_row;
    let a_at = place(a, "src2", size, shape.a_row.max(1), eu0.grf_bytes)?
        .ok_or_else(|| EuErrorKind::Illegal("dpas src2 is null".into()))?;
    let regs = size.div_ceil(REG_BYTES);
    let from_eu0 = regs.div_ceil(2);
    let mut src2 = vec![0u8; regs * REG_BYTES];
    let (head, tail) = src2.split_at_mut(from_eu0 * REG_BYTES);
    for (part, t) in [(head, &*eu0), (tail, &*eu1)] {
        let bytes = t
            .file
            .get(a_at..a_at + part.len())
            .filter(|_| a_at + part.len() <= t.grf_bytes)
            .ok_or_else(|| EuErrorKind::Illegal("dpasw src2 beyond the GRF".into()))?;
        part.copy_from_slice(bytes);
    }
    compute(eu0, platform, inst, enabled[0], Some(&src2))?;
    compute(eu1, platform, inst, enabled[1], Some(&src2))
}

/// What the depth, repeat count and source precisions make of a `dpas`.
struct Shape {
    /// Channels.
    n: usize,
    sd: usize,
    rc: usize,
    /// Bytes of one src2 row.
    a_row: usize,
}

impl Shape {
    fn of(platform: Platform, inst: &Inst) -> R<Shape> {
        let Some(n) = platform.systolic_channels() else {
            return Err(EuErrorKind::Illegal(format!(
                "dpas does not exist on {platform}"
            )));
        };
        let Subfunction::Dpas { depth, repeat } = inst.func else {
            return Err(EuErrorKind::Illegal("dpas without depth and repeat".into()));
        };
        let (sd, rc) = (usize::from(depth), usize::from(repeat));
        let (b_bits, _) = precision(inst.src[1].ty, "src1")?;
        let (a_bits, _) = precision(inst.src[2].ty, "src2")?;
        let k_len = sd * ops_per_chan(b_bits, a_bits) as usize;
        Ok(Shape {
            n,
            sd,
            rc,
            a_row: k_len * a_bits as usize / 8,
        })
    }
}

/// The `dpas` arithmetic; `src2`: the fused pair's src2 rows, or None to read this thread's.
fn compute(
    t: &mut Thread,
    platform: Platform,
    inst: &Inst,
    enabled: u32,
    src2: Option<&[u8]>,
) -> R<()> {
    let Shape { n, sd, rc, .. } = Shape::of(platform, inst)?;
    if !matches!(sd, 1 | 2 | 4 | 8) || !(1..=8).contains(&rc) {
        return Err(EuErrorKind::Illegal(format!("dpas.{sd}x{rc}")));
    }
    if usize::from(inst.n) != n || inst.pred.is_some() || inst.sat || inst.cond.is_some() {
        return Err(EuErrorKind::Illegal(format!(
            "dpas runs {n} channels without predicate, saturation or condition modifier"
        )));
    }
    let [acc, b, a] = &inst.src;
    let (b_bits, b_kind) = precision(b.ty, "src1")?;
    let (a_bits, a_kind) = precision(a.ty, "src2")?;
    let float = matches!(a_kind, Kind::Half | Kind::BFloat);
    let mixed = if float {
        a_kind != b_kind
    } else {
        b_bits == 16
    };
    if mixed {
        return Err(EuErrorKind::Illegal(format!(
            "dpas sources {:?} x {:?}: float sources must both be hf or both bf",
            b.ty, a.ty
        )));
    }
    for (o, which) in [(&inst.dst, "dst"), (acc, "src0")] {
        if !acc_type_ok(o.ty, a_kind) {
            return Err(EuErrorKind::Illegal(format!(
                "dpas {which} of type {:?} with {:?} sources",
                o.ty, a.ty
            )));
        }
    }
    let ops = ops_per_chan(b_bits, a_bits) as usize;
    let k_len = sd * ops;
    let row_size = |ty: DataType| n * crate::program::type_bytes(ty);
    let a_row = k_len * a_bits as usize / 8;
    let b_regs = (k_len * b_bits as usize).div_ceil(32);
    let g = t.grf_bytes;
    let dst_at = place(
        &inst.dst,
        "dst",
        rc * row_size(inst.dst.ty),
        row_size(inst.dst.ty),
        g,
    )?;
    let acc_at = place(acc, "src0", rc * row_size(acc.ty), row_size(acc.ty), g)?;
    let b_at = place(b, "src1", b_regs * REG_BYTES, REG_BYTES, g)?
        .ok_or_else(|| EuErrorKind::Illegal("dpas src1 is null".into()))?;
    let a_at = place(a, "src2", rc * a_row, a_row.max(1), g)?
        .ok_or_else(|| EuErrorKind::Illegal("dpas src2 is null".into()))?;

    // Every result before any store: the destination may overlap the sources.
    let grf = &t.file[..g];
    let (a_src, a_base) = match src2 {
        Some(shared) => (shared, 0),
        None => (grf, a_at),
    };
    let mut out = vec![(0u32, 0f32); rc * n];
    for r in 0..rc {
        for ch in 0..n {
            let (mut int, mut f) = match acc_at {
                Some(at) => load_acc(grf, at + (r * n + ch) * (row_size(acc.ty) / n), acc.ty),
                None => (0, 0.0),
            };
            // B's column ch: element k in dword ch of register k*bits/32 (vISA DPAS.md).
            let b_col = b_at + ch * 4;
            for k in 0..k_len {
                let kb = k * b_bits as usize;
                let bv = element(
                    grf,
                    b_col + kb / 32 * REG_BYTES,
                    kb % 32 / b_bits as usize,
                    b_bits,
                    b_kind,
                );
                let av = element(a_src, a_base, r * k_len + k, a_bits, a_kind);
                if float {
                    f += to_f32(av, a_kind) * to_f32(bv, b_kind);
                } else {
                    int = int.wrapping_add((av * bv) as u32);
                }
            }
            out[r * n + ch] = (int, f);
        }
    }
    let Some(dst_at) = dst_at else {
        return Ok(());
    };
    let size = row_size(inst.dst.ty) / n;
    for r in 0..rc {
        for ch in (0..n).filter(|&ch| enabled >> ch & 1 != 0) {
            let (int, f) = out[r * n + ch];
            store_acc(
                &mut t.file,
                dst_at + (r * n + ch) * size,
                inst.dst.ty,
                int,
                f,
            );
        }
    }
    Ok(())
}
