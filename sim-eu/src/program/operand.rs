//! Operands resolved once per kernel: each lane's byte offset into the thread's register file
//! (or into the instruction's immediate), checked against its register file's bounds.

use isa_encoder::model::{
    Addressing, DataType, Immediate, MacroOperand, Operand, Reg, RegFile, Region, SrcMod,
};

use platform::Platform;

use crate::convert::vf_to_f32;
use crate::error::EuErrorKind;
use crate::regfile::{arf_slot, REG_BYTES, ZERO};

/// Where an operand's lanes live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loc {
    /// `offs` are absolute byte offsets into the thread's register file.
    File,
    /// `offs` are offsets into the operand's `imm` bytes.
    Imm,
    /// `null`: sources read zeros (from the file's zero area), destinations are discarded.
    Null,
    /// `r[a0.sub, offset]`: `offs` are lane offsets relative to the address the address
    /// register gives. `vxh_width` 0 is the one-address (1x1/Vx1) form; otherwise each row of
    /// `vxh_width` lanes takes the next address subregister (VxH).
    Indirect {
        addr_sub: u8,
        offset: i16,
        vxh_width: u8,
    },
}

/// A pre-decoded operand.
#[derive(Debug, Clone, Copy)]
pub struct Opnd {
    pub ty: DataType,
    pub loc: Loc,
    pub offs: [u16; 32],
    pub modifier: SrcMod,
    pub imm: [u8; 16],
    /// Lanes are consecutive elements from this byte offset (direct operands only): the
    /// handlers then move whole slices.
    pub contig: Option<u16>,
    /// Every lane reads the same element (scalar regions, scalar immediates).
    pub scalar: bool,
    /// A math-macro operand's accumulator (`.mme0`..`.mme7`); [`NO_MME`] otherwise.
    pub mme: u8,
    /// The width in bits a signed integer source's negation is taken in: the instruction's
    /// execution type ([`exec_int_bits`]); 64 for every other operand.
    pub mod_bits: u8,
}

/// The `mme` of an operand without a math-macro accumulator (`.nomme`, ordinary operands).
pub const NO_MME: u8 = 8;

impl Opnd {
    pub const ABSENT: Opnd = Opnd {
        ty: DataType::Ud,
        loc: Loc::Null,
        offs: [ZERO as u16; 32],
        modifier: SrcMod::None,
        imm: [0; 16],
        contig: None,
        scalar: true,
        mme: NO_MME,
        mod_bits: 64,
    };

    /// True for a direct `null` operand.
    pub fn is_null(&self) -> bool {
        self.loc == Loc::Null
    }
}

/// The width in bits a signed source's negation is taken in, for an instruction with sources
/// of types `tys` and a destination of type `dst`: its integer execution type, the widest
/// integer source (a byte counting as a word) widened to an integer destination; 64 without
/// either. So -(-32768:w) is -32768 in `cmp.eq null:w a:w, -b:w`, but 32768 in `sel :q -x:w,
/// x:w` and `mov :d -s:w` (`int x = -s`), and -(-128:b) is 128 in `add :w -c:b, y:w` and `mov
/// :w -c:b` (`short s = -c`): IGC's code counts on each. (An absolute
/// value keeps the source's own width: (abs)(-128:b) is -128, abs(0x80000000:d) is 0x80000000,
/// the PRM's example.)
pub fn exec_int_bits(tys: impl Iterator<Item = DataType>, dst: DataType) -> u8 {
    tys.chain([dst])
        .filter(|t| !t.is_float())
        .map(|t| (t.bits() as u8).max(16))
        .max()
        .unwrap_or(64)
}

/// Element size in bytes of a register operand type.
pub fn type_bytes(ty: DataType) -> usize {
    (ty.bits() as usize / 8).max(1)
}

/// The element index of lane `i` under `region` (see the model's [`Region`] forms).
fn lane_element(region: &Region, i: usize) -> usize {
    let h = region.hstride as usize;
    match (region.vstride, region.width) {
        (Some(v), Some(w)) => {
            let w = (w as usize).max(1);
            (i / w) * v as usize + (i % w) * h
        }
        // Align1 ternary <v;h>: the row width is v/h, so lanes step by h (or by v when h is 0).
        (Some(v), None) => i * if h == 0 { v as usize } else { h },
        (None, Some(w)) => (i % (w as usize).max(1)) * h,
        (None, None) => i * h,
    }
}

/// The base byte offset and the end of the register file of a direct register, for a thread
/// with `grf_bytes` of GRF.
fn direct_base(
    reg: &Reg,
    size: usize,
    grf_bytes: usize,
) -> Result<(usize, usize, &'static str), EuErrorKind> {
    let sub = reg.sub as usize * size;
    if reg.file == RegFile::Grf {
        return Ok((reg.num as usize * REG_BYTES + sub, grf_bytes, "the GRF"));
    }
    let slot = arf_slot(reg.file)
        .ok_or_else(|| EuErrorKind::Unsupported(format!("architecture register {:?}", reg.file)))?;
    Ok((
        slot.start + reg.num as usize * slot.stride + sub,
        slot.start + slot.len,
        slot.name,
    ))
}

/// Resolves a register or immediate operand for `lanes` lanes of a thread with `grf_bytes` of
/// GRF (a register past them is out of range). Destinations pass their `<h>` region as written.
pub fn resolve(op: &Operand, lanes: usize, grf_bytes: usize) -> Result<Opnd, EuErrorKind> {
    match op {
        Operand::Imm(imm) => Ok(immediate(imm)),
        Operand::Macro(m) => macro_operand(m, lanes, grf_bytes),
        Operand::Reg(r) => {
            let size = type_bytes(r.ty);
            let mut out = Opnd {
                ty: r.ty,
                loc: Loc::File,
                offs: [0; 32],
                modifier: r.modifier,
                imm: [0; 16],
                contig: None,
                scalar: false,
                mme: NO_MME,
                mod_bits: 64,
            };
            match r.addr {
                Addressing::Direct(reg) if reg.file == RegFile::Null => {
                    out.loc = Loc::Null;
                    out.offs = [ZERO as u16; 32];
                }
                Addressing::Direct(reg) => {
                    let (base, end, name) = direct_base(&reg, size, grf_bytes)?;
                    for i in 0..lanes {
                        let at = base + lane_element(&r.region, i) * size;
                        if at + size > end {
                            return Err(EuErrorKind::RegisterOutOfRange {
                                file: name,
                                byte: at as u32,
                            });
                        }
                        out.offs[i] = at as u16;
                    }
                    let first = out.offs[0] as usize;
                    let lanes_at = |f: &dyn Fn(usize) -> usize| {
                        (0..lanes).all(|i| out.offs[i] as usize == f(i))
                    };
                    out.scalar = lanes_at(&|_| first);
                    if lanes_at(&|i| first + i * size) {
                        out.contig = Some(first as u16);
                    }
                }
                Addressing::Indirect { addr_sub, offset } => {
                    let vxh = r.region.vstride.is_none() && r.region.width.is_some();
                    let width = if vxh { r.region.width.unwrap_or(1) } else { 0 };
                    for i in 0..lanes {
                        out.offs[i] = (lane_element(&r.region, i) * size) as u16;
                    }
                    out.loc = Loc::Indirect {
                        addr_sub,
                        offset,
                        vxh_width: width.max(u8::from(vxh)),
                    };
                }
            }
            Ok(out)
        }
    }
}

/// A math-macro operand: the whole register from its first element, one element per lane
/// (the hardware implies the region), plus its accumulator's index.
fn macro_operand(m: &MacroOperand, lanes: usize, grf_bytes: usize) -> Result<Opnd, EuErrorKind> {
    if !matches!(m.ty, DataType::F | DataType::Df) {
        return Err(EuErrorKind::Illegal(format!(
            "math-macro operand of type {:?} (only :f and :df)",
            m.ty
        )));
    }
    let size = type_bytes(m.ty);
    let base = usize::from(m.grf) * REG_BYTES;
    if base + lanes * size > grf_bytes {
        return Err(EuErrorKind::RegisterOutOfRange {
            file: "the GRF",
            byte: (base + lanes * size) as u32,
        });
    }
    let mut offs = [0u16; 32];
    for (i, o) in offs.iter_mut().enumerate().take(lanes) {
        *o = (base + i * size) as u16;
    }
    Ok(Opnd {
        ty: m.ty,
        loc: Loc::File,
        offs,
        modifier: m.modifier,
        imm: [0; 16],
        contig: Some(base as u16),
        scalar: lanes == 1,
        mme: m.acc.index(),
        mod_bits: 64,
    })
}

/// Immediates: scalars replicate; `:v`/`:uv` expand to eight words and `:vf` to four floats
/// that the lanes cycle through.
fn immediate(imm: &Immediate) -> Opnd {
    let mut out = Opnd {
        ty: imm.ty,
        loc: Loc::Imm,
        offs: [0; 32],
        modifier: SrcMod::None,
        imm: [0; 16],
        contig: None,
        scalar: !matches!(imm.ty, DataType::V | DataType::Uv | DataType::Vf),
        mme: NO_MME,
        mod_bits: 64,
    };
    match imm.ty {
        DataType::V | DataType::Uv => {
            out.ty = if imm.ty == DataType::V {
                DataType::W
            } else {
                DataType::Uw
            };
            for k in 0..8 {
                let nib = ((imm.bits >> (4 * k)) & 0xf) as u16;
                let v = if imm.ty == DataType::V && nib & 8 != 0 {
                    nib | 0xfff0
                } else {
                    nib
                };
                out.imm[2 * k..2 * k + 2].copy_from_slice(&v.to_le_bytes());
            }
            for (i, o) in out.offs.iter_mut().enumerate() {
                *o = ((i % 8) * 2) as u16;
            }
        }
        DataType::Vf => {
            out.ty = DataType::F;
            for k in 0..4 {
                let f = vf_to_f32(((imm.bits >> (8 * k)) & 0xff) as u8);
                out.imm[4 * k..4 * k + 4].copy_from_slice(&f.to_le_bytes());
            }
            for (i, o) in out.offs.iter_mut().enumerate() {
                *o = ((i % 4) * 4) as u16;
            }
        }
        _ => out.imm[..8].copy_from_slice(&imm.bits.to_le_bytes()),
    }
    out
}

/// Places a `:v`/`:uv` immediate's elements by destination position: the hardware takes a
/// packed integer vector in word units of the destination (the PRM's rule that its destination
/// stride be a word), so lane `i` of a destination `dst_stride` bytes apart reads element
/// `i * dst_stride / 2`. IGC relies on it: for a DWord destination below SIMD8 it interleaves
/// the vector, `mov (2) r1.0<1>:d 0x21:uv` becoming `0x0201:uv` (vISA HWConformity
/// `fixDstAlignmentWithVectorImm`). A word destination keeps element `i`; so does a wider
/// destination whose lanes would run past the eight elements (IGC never emits that form: the
/// PRM leaves it undefined, and lanes keep cycling through the elements).
pub fn place_vector_immediate(src: &mut Opnd, dst: &Opnd, lanes: usize) {
    if src.loc != Loc::Imm || src.scalar || !matches!(src.ty, DataType::W | DataType::Uw) {
        return;
    }
    if !matches!(dst.loc, Loc::File | Loc::Indirect { .. }) {
        return;
    }
    let stride = usize::from(dst.offs[1].wrapping_sub(dst.offs[0]));
    if stride == 2 || stride == 0 || lanes.saturating_sub(1) * stride / 2 >= 8 {
        return;
    }
    for (i, o) in src.offs.iter_mut().enumerate() {
        *o = (((i * stride / 2) % 8) * 2) as u16;
    }
}

/// Per platform (in [`Platform`] order): an `:hf` instruction whose first channel is 16 (`M16`)
/// has `acc1` as its implicit accumulator, channels 0-15 `acc0`. On Gen11 IGC relies on it: its
/// accumulator substitution turns a `mad` into `mac` (Gen11's `mad` takes no `acc` src0) and,
/// for an HF one at mask offset 16, writes the addend to `acc1` first (vISA
/// `AccSubPass::replaceDstWithAcc`: `getMaskOffset() == 16 && Type_HF` uses acc1). Gen9's IGC
/// substitutes no accumulators and Gen12 on give `mad` an explicit `acc` src0, so nothing there
/// shows which register an `M16` `:hf` implicit accumulator is; those keep `acc0`.
const HF_M16_IMPLICIT_ACC1: [bool; 4] = [
    false, // Skl
    true,  // Icllp
    false, // Tgllp
    false, // Dg2
];

/// The implicit accumulator of `mac`, `addc`/`subb`/`mach` and `AccWrEn` for an instruction of
/// element type `ty` starting at channel `chan_off` whose destination is `dst`: lane i at
/// `acc0` (`acc1` where the Gen11 table `HF_M16_IMPLICIT_ACC1` above says) + the
/// destination's subregister + i elements of `ty`. The subregister is the destination's, not
/// 0: oneDNN's generated GEMM kernels (Intel's nGEN) take a 32x32-bit product's low DWord as
/// `mul (1) acc0.6 ...; mach (1) r7.6 ... {AccWrEn}; mov (1) r7.6 acc0.6`, and IGC, which
/// always reads `acc0.0` after it, gives these instructions destinations at subregister 0.
pub fn accumulator(platform: Platform, ty: DataType, chan_off: u8, dst: &Opnd) -> Opnd {
    let size = type_bytes(ty);
    let sub = match dst.loc {
        Loc::File => usize::from(dst.offs[0]) % REG_BYTES,
        _ => 0,
    };
    let base = sub
        + if ty == DataType::Hf && chan_off >= 16 && HF_M16_IMPLICIT_ACC1[platform as usize] {
            crate::regfile::ACC + REG_BYTES
        } else {
            crate::regfile::ACC
        };
    let mut offs = [0u16; 32];
    for (i, o) in offs.iter_mut().enumerate() {
        *o = (base + i * size) as u16;
    }
    Opnd {
        ty,
        loc: Loc::File,
        offs,
        modifier: SrcMod::None,
        imm: [0; 16],
        contig: Some(offs[0]),
        scalar: false,
        mme: NO_MME,
        mod_bits: 64,
    }
}
