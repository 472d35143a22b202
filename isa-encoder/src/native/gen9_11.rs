//! Gen9 (skl, iga `9`) and Gen11 (icllp, iga `11`) native 128-bit encoding.
//!
//! Formats: the two-source align1 format (also math, wait, branches with their implicit
//! operands), unary `send`/`sendc` and split `sends`/`sendsc`, and the three-source format —
//! align16 on Gen9, align1 on Gen11. Field positions and value tables are in `fields.rs`.
//! Math macros (`madm`, `math.invm`, `math.rsqtm`) are in `macros.rs`. Not representable in
//! the shared model and reported as errors: other align16 two-source instructions.

mod fields;
mod macros;

use platform::Platform;

use super::bits::Bits;
use super::shared::{
    code_by_type, code_of, codes_by_type, elem_bytes, ill, imm64_alone, lookup, macro_operand,
    missing, mod_bits, put, put_src_region_mods, reg_at, reg_fields, reg_from, sign_extend,
    src_mod, src_region, stride_code, table_get, unsupported, TYPE_SLOTS,
};
use crate::error::{DecodeError, EncodeError};
use crate::model::{
    Addressing, CondMod, DataType, ExecSize, FlagReg, Immediate, InstOpts, Instruction, MathFn,
    Opcode, Operand, PredCtrl, Predicate, Reg, RegOperand, Region, SendDesc, SendInfo, Shape,
    SrcMod, Subfunction,
};
use fields::*;

/// Index into the `[gen9, gen11]` tables.
fn gen(platform: Platform) -> usize {
    usize::from(platform == Platform::Icllp)
}

/// True when this opcode takes a single source on this platform.
fn is_unary(platform: Platform, i: &Instruction, math_fc: u8) -> bool {
    match i.opcode {
        // Gen9's movi has one source; Gen11's has two.
        Opcode::Movi => platform == Platform::Skl,
        Opcode::Math => MathFn::from_encoding(math_fc).is_some_and(|f| !f.is_binary()),
        op => op.shape() == Shape::Unary,
    }
}

// ---------------------------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------------------------

/// Decodes one native Gen9 / Gen11 instruction (bit 29, CompactControl, is ignored).
pub fn decode(platform: Platform, bytes: &[u8; 16]) -> Result<Instruction, DecodeError> {
    let b = Bits::from_bytes(bytes);
    let opnum = b.get(0, 6) as u8;
    let opcode = Opcode::from_number(platform, opnum).ok_or(DecodeError::UnknownOpcode(opnum))?;
    let mut i = Instruction::new(opcode);
    if b.bit(7) {
        return Err(ill("Reserved7", 1));
    }
    let ternary = opcode.shape() == Shape::Ternary;
    let macro_fn = (opcode == Opcode::Math)
        .then(|| MathFn::from_encoding(b.get(FUNC.0, FUNC.1) as u8))
        .flatten()
        .filter(|f| matches!(f, MathFn::Invm | MathFn::Rsqtm));
    // Gen9 three-source instructions and math macros are align16; nothing else may be.
    let align16 = platform == Platform::Skl && (ternary || macro_fn.is_some());
    if b.bit(ACCESS_MODE) != align16 {
        return Err(ill("AccessMode", u64::from(b.bit(ACCESS_MODE))));
    }
    let es = b.get(EXEC_SIZE.0, EXEC_SIZE.1);
    i.exec_size = ExecSize::from_encoding(es as u8).ok_or(ill("ExecSize", es))?;
    i.chan_offset = (b.get(QTR_CTRL.0, QTR_CTRL.1) as u8) * 8 + u8::from(b.bit(NIB_CTRL)) * 4;
    i.flag = FlagReg {
        num: u8::from(b.bit(FLAG_NUM)),
        sub: u8::from(b.bit(FLAG_SUB)),
    };
    let pc = b.get(PRED_CTRL.0, PRED_CTRL.1);
    if pc != 0 {
        let ctrl = PredCtrl::from_encoding(pc as u8).ok_or(ill("PredCtrl", pc))?;
        i.predicate = Some(Predicate {
            ctrl,
            invert: b.bit(PRED_INV),
        });
    } else if b.bit(PRED_INV) {
        return Err(ill("PredInv", 1));
    }
    i.no_mask = b.bit(NO_MASK);
    for (bit, opt) in [
        (DEBUG, InstOpts::BREAKPOINT),
        (NO_DD_CLR, InstOpts::NO_DD_CLR),
        (NO_DD_CHK, InstOpts::NO_DD_CHK),
    ] {
        if b.bit(bit) {
            i.opts |= opt;
        }
    }
    let tc = b.get(THREAD_CTRL.0, THREAD_CTRL.1);
    if tc != 0 {
        i.opts |= lookup(THREAD_CTRLS[gen(platform)], tc).ok_or(ill("ThreadCtrl", tc))?;
    }
    match opcode.shape() {
        Shape::Nullary => {}
        Shape::Unary | Shape::Binary => match macro_fn {
            Some(f) => macros::decode_math(platform, &b, &mut i, f)?,
            None => decode_basic(platform, &b, &mut i)?,
        },
        Shape::Ternary if opcode == Opcode::Madm => macros::decode_madm(platform, &b, &mut i)?,
        Shape::Ternary if platform == Platform::Skl => decode_a16(&b, &mut i)?,
        Shape::Ternary => decode_a1(&b, &mut i)?,
        Shape::Send => decode_send(platform, &b, &mut i)?,
        Shape::Branch => decode_branch(platform, &b, &mut i)?,
        Shape::Wait => decode_wait(platform, &b, &mut i)?,
        Shape::Sync => return Err(DecodeError::UnknownOpcode(opnum)),
    }
    if i.is_math_macro() {
        // Math macros imply their regions and subregisters; iga64 ignores those bits, we
        // refuse anything but the encoding it writes, so decoding never loses a bit.
        let again = encode(platform, &i).map_err(|_| ill("MathMacro", 0))?;
        let diff = (Bits::from_bytes(&again).0 ^ b.0) & !(1u128 << 29);
        if diff != 0 {
            return Err(ill("MathMacroReservedBits", diff.trailing_zeros().into()));
        }
    }
    Ok(i)
}

fn acc_wr_and_sat(b: &Bits, i: &mut Instruction) {
    i.saturate = b.bit(SATURATE);
    if b.bit(ACC_WR) {
        i.opts |= InstOpts::ACC_WR_EN;
    }
}

fn reg_type(platform: Platform, code: u64) -> Result<DataType, DecodeError> {
    lookup(&REG_TYPES[gen(platform)], code).ok_or(ill("Type", code))
}

fn imm_type(platform: Platform, code: u64) -> Result<DataType, DecodeError> {
    lookup(&IMM_TYPES[gen(platform)], code).ok_or(ill("ImmType", code))
}

fn decode_dst(platform: Platform, b: &Bits) -> Result<Operand, DecodeError> {
    let ty = reg_type(platform, b.get(DST_TYPE.0, DST_TYPE.1))?;
    let h = table_get(
        b.get(DST_HSTRIDE.0, DST_HSTRIDE.1),
        &HSTRIDES,
        "DstHorzStride",
    )?;
    let addr = if b.bit(DST_ADDR_MODE) {
        let imm = (u64::from(b.bit(DST_IA_IMM9)) << 9) | b.get(DST_IA_IMM.0, DST_IA_IMM.1);
        Addressing::Indirect {
            addr_sub: b.get(DST_IA_SUB.0, DST_IA_SUB.1) as u8,
            offset: sign_extend(imm, 10),
        }
    } else {
        let file = b.get(DST_FILE.0, DST_FILE.1);
        if file > FILE_GRF {
            return Err(ill("DstRegFile", file));
        }
        Addressing::Direct(reg_at(b, file == FILE_GRF, DST_REG, DST_SUBREG, ty)?)
    };
    Ok(Operand::Reg(RegOperand {
        addr,
        region: Region::h(h),
        ty,
        modifier: SrcMod::None,
    }))
}

fn decode_src(platform: Platform, b: &Bits, f: &SrcFields) -> Result<Operand, DecodeError> {
    let file = b.get(f.file.0, f.file.1);
    let code = b.get(f.ty.0, f.ty.1);
    if file == FILE_IMM {
        let ty = imm_type(platform, code)?;
        let mut bits = b.get(IMM.0, IMM.1);
        if ty.is_64bit() {
            bits = (bits << 32) | b.get(IMM_LOW64.0, IMM_LOW64.1);
        }
        return Ok(Operand::Imm(Immediate { bits, ty }));
    }
    if file > FILE_GRF {
        return Err(ill("SrcRegFile", file));
    }
    let ty = reg_type(platform, code)?;
    let indirect = b.bit(f.addr_mode);
    let region = src_region(b, [f.vstride, f.width, f.hstride], indirect)?;
    let addr = if indirect {
        let imm = (u64::from(b.bit(f.ia_imm9)) << 9) | b.get(f.ia_imm.0, f.ia_imm.1);
        Addressing::Indirect {
            addr_sub: b.get(f.ia_sub.0, f.ia_sub.1) as u8,
            offset: sign_extend(imm, 10),
        }
    } else {
        Addressing::Direct(reg_at(b, file == FILE_GRF, f.reg, f.subreg, ty)?)
    };
    Ok(Operand::Reg(RegOperand {
        addr,
        region,
        ty,
        modifier: src_mod(b.bit(f.abs), b.bit(f.neg)),
    }))
}

fn decode_basic(platform: Platform, b: &Bits, i: &mut Instruction) -> Result<(), DecodeError> {
    let fc = b.get(FUNC.0, FUNC.1) as u8;
    i.dst = Some(decode_dst(platform, b)?);
    acc_wr_and_sat(b, i);
    i.src[0] = Some(decode_src(platform, b, &SRC0)?);
    let wide_imm = matches!(i.src[0], Some(Operand::Imm(imm)) if imm.ty.is_64bit());
    if !is_unary(platform, i, fc) && !wide_imm {
        i.src[1] = Some(decode_src(platform, b, &SRC1)?);
    }
    if i.opcode == Opcode::Math {
        let f = MathFn::from_encoding(fc).ok_or(ill("MathFC", u64::from(fc)))?;
        i.func = Subfunction::Math(f);
    } else if fc != 0 {
        i.cond_mod = Some(CondMod::from_encoding(fc).ok_or(ill("CondMod", u64::from(fc)))?);
    }
    Ok(())
}

/// IGA writes a SIMD1 align16 instruction as one 16-byte row (4 dwords or 2 qwords) with a
/// write mask picking the element: (mask, dword offset) -> element-aligned byte subregister.
fn simd1_mask(elem: u8, offset_dwords: u64) -> Option<(ExecSize, u64)> {
    match elem {
        4 => Some((ExecSize::S4, 1 << (offset_dwords % 4))),
        8 if offset_dwords.is_multiple_of(2) => Some((ExecSize::S2, 0x3 << (offset_dwords % 4))),
        _ => None,
    }
}

fn decode_a16(b: &Bits, i: &mut Instruction) -> Result<(), DecodeError> {
    let dst_code = b.get(A16_DST_TYPE.0, A16_DST_TYPE.1);
    let dty = lookup(&A16_TYPES, dst_code).ok_or(ill("DstType", dst_code))?;
    let src_code = b.get(A16_SRC_TYPE.0, A16_SRC_TYPE.1);
    let sty = lookup(&A16_TYPES, src_code).ok_or(ill("SrcType", src_code))?;
    let mut dst_dwords = b.get(A16_DST_SUBREG.0, A16_DST_SUBREG.1);
    let mask = b.get(A16_DST_WRITEMASK.0, A16_DST_WRITEMASK.1);
    if mask != A16_WRITEMASK_ALL {
        let elem = elem_bytes(dty);
        let offset = (0..4)
            .find(|&o| simd1_mask(elem, o) == Some((i.exec_size, mask)))
            .ok_or(ill("Align16WriteMask", mask))?;
        if !dst_dwords.is_multiple_of(4) {
            return Err(ill("Align16DstSubReg", dst_dwords));
        }
        i.exec_size = ExecSize::S1;
        dst_dwords += offset;
    }
    let dst_reg = reg_from(
        true,
        b.get(T_DST_REG.0, T_DST_REG.1) as u8,
        (dst_dwords * 4) as u8,
        dty,
    )?;
    i.dst = Some(Operand::direct(dst_reg, Region::h(1), dty));
    acc_wr_and_sat(b, i);
    for k in 0..3 {
        let ty = match k {
            0 => sty,
            _ => a16_src12_type(sty, b.bit(if k == 1 { A16_SRC1_HF } else { A16_SRC2_HF })),
        };
        let swz = b.get(A16_SWIZZLE[k].0, A16_SWIZZLE[k].1);
        let wide = ty.is_64bit();
        // A 64-bit scalar's swizzle picks the qword of its 16-byte row.
        let (rep, qword_bytes) = match (b.bit(A16_REP_CTRL[k]), swz) {
            (true, A16_SWIZZLE_XYZW) if !wide => (true, 0),
            (false, A16_SWIZZLE_XYZW) => (false, 0),
            (false, A16_SWIZZLE_SCALAR64) if wide => (true, 0),
            (false, A16_SWIZZLE_SCALAR64_HIGH) if wide => (true, 8),
            _ => return Err(ill("Align16Swizzle", swz)),
        };
        // The high bit adds two bytes: a 16-bit source may start mid-dword (IGC's hf mad
        // constants, e.g. `r4.3<0;0>:hf`); any wider type must stay dword-aligned.
        let half_dword = b.bit(A16_SUBREG_HI[k]);
        if half_dword && elem_bytes(ty) != 2 {
            return Err(ill("Align16SubRegHigh", 1));
        }
        // IGA's align1 spelling of align16 sources: replicated scalars and full registers.
        let region = match (k, rep) {
            (2, true) => Region::h(0),
            (2, false) => Region::h(1),
            (_, true) => Region::vh(0, 0),
            (_, false) => Region::vh(2, 1),
        };
        let reg = reg_from(
            true,
            b.get(T_SRC_REG[k].0, T_SRC_REG[k].1) as u8,
            (b.get(A16_SUBREG[k].0, A16_SUBREG[k].1) * 4 + 2 * u64::from(half_dword) + qword_bytes)
                as u8,
            ty,
        )?;
        i.src[k] = Some(Operand::Reg(RegOperand {
            addr: Addressing::Direct(reg),
            region,
            ty,
            modifier: src_mod(b.bit(T_ABS[k]), b.bit(T_NEG[k])),
        }));
    }
    ternary_cond_mod(b, i)
}

/// src1/src2 type of a Gen9 align16 instruction: its bit selects half; clear, it is SrcType,
/// except that a half SrcType (src0) then means float: iga64 reads IGC's mixed-mode
/// `mad r:f r:hf r:f r:f` (SrcType HF, both bits clear) that way.
fn a16_src12_type(src_type: DataType, hf_bit: bool) -> DataType {
    match (hf_bit, src_type) {
        (true, _) => DataType::Hf,
        (false, DataType::Hf) => DataType::F,
        (false, t) => t,
    }
}

fn ternary_cond_mod(b: &Bits, i: &mut Instruction) -> Result<(), DecodeError> {
    let fc = b.get(FUNC.0, FUNC.1);
    if fc != 0 {
        i.cond_mod = Some(CondMod::from_encoding(fc as u8).ok_or(ill("CondMod", fc))?);
    }
    Ok(())
}

fn a1_types(float: bool) -> &'static [(DataType, u8)] {
    if float {
        &A1_FLOAT_TYPES
    } else {
        &A1_INT_TYPES
    }
}

fn decode_a1(b: &Bits, i: &mut Instruction) -> Result<(), DecodeError> {
    let types = a1_types(b.bit(A1_EXEC_FLOAT));
    let dst_code = b.get(A1_DST_TYPE.0, A1_DST_TYPE.1);
    let dty = lookup(types, dst_code).ok_or(ill("DstType", dst_code))?;
    // The accumulator is the only ARF a three-source destination can name.
    let dst_reg = reg_from(
        !b.bit(A1_DST_FILE),
        b.get(T_DST_REG.0, T_DST_REG.1) as u8,
        (b.get(A1_DST_SUBREG.0, A1_DST_SUBREG.1) * 8) as u8,
        dty,
    )?;
    let dst_h = if b.bit(A1_DST_HSTRIDE) { 2 } else { 1 };
    i.dst = Some(Operand::direct(dst_reg, Region::h(dst_h), dty));
    acc_wr_and_sat(b, i);
    for k in 0..3 {
        let code = b.get(A1_SRC_TYPE[k].0, A1_SRC_TYPE[k].1);
        let ty = lookup(types, code).ok_or(ill("SrcType", code))?;
        let file_bit = b.bit(A1_SRC_FILE[k]);
        let op = match A1_IMM[k] {
            Some((lo, hi)) if file_bit => Operand::Imm(Immediate {
                bits: b.get(lo, hi),
                ty,
            }),
            _ => {
                let h = table_get(
                    b.get(A1_HSTRIDE[k].0, A1_HSTRIDE[k].1),
                    &HSTRIDES,
                    "HorzStride",
                )?;
                let region = match A1_VSTRIDE[k] {
                    Some((lo, hi)) => {
                        Region::vh(table_get(b.get(lo, hi), &A1_VSTRIDES, "VertStride")?, h)
                    }
                    None => Region::h(h),
                };
                // Src1's file bit selects the accumulator.
                let reg = reg_at(b, !file_bit, T_SRC_REG[k], A1_SUBREG[k], ty)?;
                Operand::Reg(RegOperand {
                    addr: Addressing::Direct(reg),
                    region,
                    ty,
                    modifier: src_mod(b.bit(T_ABS[k]), b.bit(T_NEG[k])),
                })
            }
        };
        i.src[k] = Some(op);
    }
    ternary_cond_mod(b, i)
}

fn send_operand(grf: bool, nr: u64, ty: DataType) -> Result<Operand, DecodeError> {
    let reg = reg_from(grf, nr as u8, 0, ty)?;
    Ok(Operand::direct(reg, Region::h(1), ty))
}

fn decode_send(platform: Platform, b: &Bits, i: &mut Instruction) -> Result<(), DecodeError> {
    let sfid = b.get(FUNC.0, FUNC.1);
    let eot = b.bit(SEND_EOT);
    if eot {
        i.opts |= InstOpts::EOT;
    }
    let dty = reg_type(platform, b.get(DST_TYPE.0, DST_TYPE.1))?;
    let desc_imm = b.get(IMM.0, IMM.1 - 1) as u32;
    let split = matches!(i.opcode, Opcode::Sends | Opcode::Sendsc);
    // Split sends keep src1's register number where src0's type would be.
    let sty = if split {
        DataType::Ud
    } else {
        reg_type(platform, b.get(SRC0.ty.0, SRC0.ty.1))?
    };
    let (desc, ex_desc) = if split {
        i.dst = Some(send_operand(
            b.bit(SENDS_DST_FILE),
            b.get(DST_REG.0, DST_REG.1),
            dty,
        )?);
        i.src[0] = Some(send_operand(true, b.get(SRC0.reg.0, SRC0.reg.1), sty)?);
        i.src[1] = Some(send_operand(
            b.bit(SENDS_SRC1_FILE),
            b.get(SENDS_SRC1_REG.0, SENDS_SRC1_REG.1),
            DataType::Ud,
        )?);
        let desc = if b.bit(SENDS_DESC_IS_REG) {
            SendDesc::Reg(0)
        } else {
            SendDesc::Imm(desc_imm)
        };
        let ex_desc = if b.bit(SENDS_EXDESC_IS_REG) {
            SendDesc::Reg(b.get(SENDS_EXDESC_ADDR_SUB.0, SENDS_EXDESC_ADDR_SUB.1) as u8)
        } else {
            SendDesc::Imm(
                (sfid
                    | (u64::from(eot) << EXDESC_EOT_BIT)
                    | (b.get(SENDS_EXDESC_MID.0, SENDS_EXDESC_MID.1) << 6)
                    | (b.get(SENDS_EXDESC_HI.0, SENDS_EXDESC_HI.1) << 16)) as u32,
            )
        };
        (desc, ex_desc)
    } else {
        i.dst = Some(decode_dst(platform, b)?.with_type(dty));
        i.src[0] = Some(send_operand(
            b.get(SRC0.file.0, SRC0.file.1) == FILE_GRF,
            b.get(SRC0.reg.0, SRC0.reg.1),
            sty,
        )?);
        let desc = match b.get(SRC1.file.0, SRC1.file.1) {
            FILE_IMM => SendDesc::Imm(desc_imm),
            FILE_ARF if b.get(SRC1.reg.0, SRC1.reg.1) == ARF_A0 => SendDesc::Reg(0),
            f => return Err(ill("SendDescFile", f)),
        };
        let mut ex = sfid | (u64::from(eot) << EXDESC_EOT_BIT);
        for ((lo, hi), shift) in SEND_EXDESC_NIBBLES {
            ex |= b.get(lo, hi) << shift;
        }
        (desc, SendDesc::Imm(ex as u32))
    };
    i.send = Some(SendInfo {
        sfid: sfid as u8,
        desc,
        ex_desc,
        src1_len: None,
    });
    Ok(())
}

trait WithType {
    fn with_type(self, ty: DataType) -> Self;
}

impl WithType for Operand {
    fn with_type(self, ty: DataType) -> Operand {
        match self {
            Operand::Reg(r) => Operand::Reg(RegOperand { ty, ..r }),
            o => o,
        }
    }
}

/// Branch operand groups (their implicit operand fields are in `branch_implicit`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum BranchForm {
    /// if, else, break, cont, goto, halt: JIP and UIP.
    JipUip,
    /// endif, while, join: JIP only.
    Jip,
    Jmpi,
    Call,
    Calla,
    Ret,
    /// brd: JIP or a register.
    Brd,
    /// brc: JIP and UIP, or a register.
    Brc,
}

fn branch_form(op: Opcode) -> Option<BranchForm> {
    Some(match op {
        Opcode::If | Opcode::Else | Opcode::Break | Opcode::Cont | Opcode::Goto | Opcode::Halt => {
            BranchForm::JipUip
        }
        Opcode::Endif | Opcode::While | Opcode::Join => BranchForm::Jip,
        Opcode::Jmpi => BranchForm::Jmpi,
        Opcode::Call => BranchForm::Call,
        Opcode::Calla => BranchForm::Calla,
        Opcode::Ret => BranchForm::Ret,
        Opcode::Brd => BranchForm::Brd,
        Opcode::Brc => BranchForm::Brc,
        _ => return None,
    })
}

fn decode_branch(_platform: Platform, b: &Bits, i: &mut Instruction) -> Result<(), DecodeError> {
    let form = branch_form(i.opcode).ok_or(ill("BranchOpcode", b.get(0, 6)))?;
    // A register operand of a branch: a GRF read as :d.
    let grf_d = |(lo, hi): (u32, u32)| send_operand(true, b.get(lo, hi), DataType::D);
    if b.bit(ACC_WR) {
        // Only if/else/goto have a branch-control bit; elsewhere (IGC sets it on `while`) it is
        // the AccWrCtrl position, which iga64 neither prints nor writes.
        if matches!(i.opcode, Opcode::If | Opcode::Else | Opcode::Goto) {
            i.func = Subfunction::BranchCtrl;
        } else {
            i.opts |= InstOpts::ACC_WR_EN;
        }
    }
    let jip = b.get(IMM.0, IMM.1) as u32 as i32;
    match form {
        BranchForm::JipUip => {
            i.branch.jip = Some(jip);
            i.branch.uip = Some(b.get(IMM_LOW64.0, IMM_LOW64.1) as u32 as i32);
        }
        BranchForm::Jip => i.branch.jip = Some(jip),
        BranchForm::Jmpi => {
            if b.get(SRC1.file.0, SRC1.file.1) == FILE_IMM {
                i.branch.jip = Some(jip.wrapping_add(JMPI_IP_BIAS));
            } else {
                i.src[0] = Some(grf_d(SRC1.reg)?);
            }
        }
        BranchForm::Brd | BranchForm::Brc => {
            if b.get(SRC0.file.0, SRC0.file.1) == FILE_IMM {
                i.branch.jip = Some(jip);
                if form == BranchForm::Brc {
                    i.branch.uip = Some(b.get(IMM_LOW64.0, IMM_LOW64.1) as u32 as i32);
                }
            } else {
                i.src[0] = Some(grf_d(SRC0.reg)?);
            }
        }
        BranchForm::Call | BranchForm::Calla => {
            i.dst = Some(grf_d(DST_REG)?);
            i.branch.jip = Some(jip);
        }
        BranchForm::Ret => {
            i.src[0] = Some(send_operand(
                true,
                b.get(SRC0.reg.0, SRC0.reg.1),
                DataType::D,
            )?);
        }
    }
    Ok(())
}

fn decode_wait(platform: Platform, b: &Bits, i: &mut Instruction) -> Result<(), DecodeError> {
    let ty = reg_type(platform, b.get(SRC0.ty.0, SRC0.ty.1))?;
    let reg = reg_at(b, false, SRC0.reg, SRC0.subreg, ty)?;
    i.src[0] = Some(Operand::direct(reg, Region::full(0, 1, 0), ty));
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------------------------

#[inline(always)]
fn reg_type_code(platform: Platform, ty: DataType) -> Result<u64, EncodeError> {
    const BY_TYPE: [[u8; TYPE_SLOTS]; 2] =
        [codes_by_type(&REG_TYPES[0]), codes_by_type(&REG_TYPES[1])];
    code_by_type(&BY_TYPE[gen(platform)], ty)
        .ok_or_else(|| unsupported(&format!("type :{} in a register", ty.syntax())))
}

#[inline(always)]
fn imm_type_code(platform: Platform, ty: DataType) -> Result<u64, EncodeError> {
    code_of(&IMM_TYPES[gen(platform)], ty)
        .ok_or_else(|| unsupported(&format!("type :{} as an immediate", ty.syntax())))
}

/// Encodes one instruction in native Gen9 / Gen11 form (bit 29 clear).
pub fn encode(platform: Platform, i: &Instruction) -> Result<[u8; 16], EncodeError> {
    let opnum = i
        .opcode
        .number(platform)
        .ok_or(EncodeError::OpcodeNotOnPlatform {
            opcode: i.opcode.mnemonic(),
            platform,
        })?;
    if !i.swsb.is_empty() {
        return Err(unsupported("software scoreboard annotations before Gen12"));
    }
    i.check_math_macro().map_err(unsupported)?;
    let mut b = Bits::default();
    put(&mut b, (0, 6), u64::from(opnum), "Opcode")?;
    let ternary = i.opcode.shape() == Shape::Ternary;
    b.set_bit(ACCESS_MODE, ternary && platform == Platform::Skl);
    put(
        &mut b,
        EXEC_SIZE,
        u64::from(i.exec_size.encoding()),
        "ExecSize",
    )?;
    if !i.chan_offset.is_multiple_of(4) || i.chan_offset > 28 {
        return Err(EncodeError::FieldOutOfRange {
            field: "ChanOff",
            value: u64::from(i.chan_offset),
        });
    }
    b.set_bit(NIB_CTRL, (i.chan_offset / 4) & 1 != 0);
    put(&mut b, QTR_CTRL, u64::from(i.chan_offset / 8), "QtrCtrl")?;
    put(
        &mut b,
        (FLAG_SUB, FLAG_SUB),
        u64::from(i.flag.sub),
        "FlagSubReg",
    )?;
    put(
        &mut b,
        (FLAG_NUM, FLAG_NUM),
        u64::from(i.flag.num),
        "FlagReg",
    )?;
    if let Some(p) = i.predicate {
        put(&mut b, PRED_CTRL, p.ctrl as u64, "PredCtrl")?;
        b.set_bit(PRED_INV, p.invert);
    }
    b.set_bit(NO_MASK, i.no_mask);
    b.set_bit(DEBUG, i.opts.contains(InstOpts::BREAKPOINT));
    b.set_bit(NO_DD_CLR, i.opts.contains(InstOpts::NO_DD_CLR));
    b.set_bit(NO_DD_CHK, i.opts.contains(InstOpts::NO_DD_CHK));
    let table = THREAD_CTRLS[gen(platform)];
    let all = table.iter().fold(InstOpts::empty(), |a, (o, _)| a | *o);
    let thread = i.opts & (all | InstOpts::NO_PREEMPT);
    if !thread.is_empty() {
        let code = code_of(table, thread).ok_or_else(|| {
            unsupported("thread control: one of Atomic/Switch (and NoPreempt on Gen11)")
        })?;
        put(&mut b, THREAD_CTRL, code, "ThreadCtrl")?;
    }
    match i.opcode.shape() {
        Shape::Nullary => {}
        Shape::Unary | Shape::Binary if i.is_math_macro() => {
            macros::encode_math(platform, &mut b, i)?
        }
        Shape::Unary | Shape::Binary => encode_basic(platform, &mut b, i)?,
        Shape::Ternary if i.is_math_macro() => macros::encode_madm(platform, &mut b, i)?,
        Shape::Ternary if platform == Platform::Skl => encode_a16(&mut b, i)?,
        Shape::Ternary => encode_a1(&mut b, i)?,
        Shape::Send => encode_send(platform, &mut b, i)?,
        Shape::Branch => encode_branch(platform, &mut b, i)?,
        Shape::Wait => encode_wait(platform, &mut b, i)?,
        Shape::Sync => {
            return Err(EncodeError::OpcodeNotOnPlatform {
                opcode: i.opcode.mnemonic(),
                platform,
            })
        }
    }
    Ok(b.to_bytes())
}

// Called once per instruction: inlined.
#[inline(always)]
fn encode_flags_sat(b: &mut Bits, i: &Instruction) {
    b.set_bit(SATURATE, i.saturate);
    b.set_bit(ACC_WR, i.opts.contains(InstOpts::ACC_WR_EN));
}

// Called once per instruction: inlined.
#[inline(always)]
fn encode_dst(platform: Platform, b: &mut Bits, dst: &RegOperand) -> Result<(), EncodeError> {
    put(b, DST_TYPE, reg_type_code(platform, dst.ty)?, "DstType")?;
    put(
        b,
        DST_HSTRIDE,
        stride_code(dst.region.hstride, &HSTRIDES, "DstHorzStride")?,
        "DstHorzStride",
    )?;
    match dst.addr {
        Addressing::Direct(r) => {
            let (grf, nr, sub) = reg_fields(&r, dst.ty)?;
            put(
                b,
                DST_FILE,
                if grf { FILE_GRF } else { FILE_ARF },
                "DstRegFile",
            )?;
            put(b, DST_REG, nr, "DstRegNum")?;
            put(b, DST_SUBREG, sub, "DstSubRegNum")?;
        }
        Addressing::Indirect { addr_sub, offset } => {
            b.set_bit(DST_ADDR_MODE, true);
            // Indirect operands address the GRF.
            put(b, DST_FILE, FILE_GRF, "DstRegFile")?;
            put(b, DST_IA_SUB, u64::from(addr_sub), "DstAddrSubReg")?;
            let imm = (offset as u64) & 0x3FF;
            put(b, DST_IA_IMM, imm & 0x1FF, "DstAddrImm")?;
            b.set_bit(DST_IA_IMM9, imm >> 9 != 0);
        }
    }
    Ok(())
}

// Inlined so that each call's field positions are constants.
#[inline(always)]
fn encode_src(
    platform: Platform,
    b: &mut Bits,
    f: &SrcFields,
    op: &Operand,
) -> Result<(), EncodeError> {
    match op {
        Operand::Macro(_) => return Err(macro_operand()),
        Operand::Imm(imm) => {
            put(b, f.file, FILE_IMM, "SrcRegFile")?;
            put(b, f.ty, imm_type_code(platform, imm.ty)?, "SrcType")?;
            if imm.ty.is_64bit() {
                put(b, IMM_LOW64, imm.bits & 0xFFFF_FFFF, "Imm64")?;
                put(b, IMM, imm.bits >> 32, "Imm64")?;
            } else {
                put(b, IMM, imm.bits, "Imm")?;
            }
        }
        Operand::Reg(r) => {
            put(b, f.ty, reg_type_code(platform, r.ty)?, "SrcType")?;
            put_src_region_mods(
                b,
                [f.vstride, f.width, f.hstride],
                (f.abs, f.neg),
                r.region,
                r.modifier,
            )?;
            match r.addr {
                Addressing::Direct(reg) => {
                    let (grf, nr, sub) = reg_fields(&reg, r.ty)?;
                    put(
                        b,
                        f.file,
                        if grf { FILE_GRF } else { FILE_ARF },
                        "SrcRegFile",
                    )?;
                    put(b, f.reg, nr, "SrcRegNum")?;
                    put(b, f.subreg, sub, "SrcSubRegNum")?;
                }
                Addressing::Indirect { addr_sub, offset } => {
                    b.set_bit(f.addr_mode, true);
                    put(b, f.file, FILE_GRF, "SrcRegFile")?;
                    put(b, f.ia_sub, u64::from(addr_sub), "SrcAddrSubReg")?;
                    let imm = (offset as u64) & 0x3FF;
                    put(b, f.ia_imm, imm & 0x1FF, "SrcAddrImm")?;
                    b.set_bit(f.ia_imm9, imm >> 9 != 0);
                }
            }
        }
    }
    Ok(())
}

// Called once per instruction: inlined.
#[inline(always)]
fn encode_basic(platform: Platform, b: &mut Bits, i: &Instruction) -> Result<(), EncodeError> {
    let Some(Operand::Reg(dst)) = i.dst else {
        return Err(missing("register destination"));
    };
    encode_dst(platform, b, &dst)?;
    encode_flags_sat(b, i);
    imm64_alone(i)?;
    let s0 = i.src[0].ok_or_else(|| missing("src0"))?;
    encode_src(platform, b, &SRC0, &s0)?;
    if let Some(s1) = i.src[1] {
        encode_src(platform, b, &SRC1, &s1)?;
    }
    if let Subfunction::Math(f) = i.func {
        put(b, FUNC, f as u64, "MathFC")?;
    } else if let Some(c) = i.cond_mod {
        put(b, FUNC, c as u64, "CondMod")?;
    }
    Ok(())
}

fn ternary_dst(i: &Instruction) -> Result<(Reg, RegOperand), EncodeError> {
    let Some(Operand::Reg(dst)) = i.dst else {
        return Err(missing("register destination"));
    };
    let Addressing::Direct(r) = dst.addr else {
        return Err(unsupported("indirect three-source destination"));
    };
    Ok((r, dst))
}

fn ternary_src(i: &Instruction, k: usize) -> Result<Operand, EncodeError> {
    i.src[k].ok_or_else(|| missing("three-source operand"))
}

fn encode_a16(b: &mut Bits, i: &Instruction) -> Result<(), EncodeError> {
    let (dr, dst) = ternary_dst(i)?;
    let (grf, nr, sub) = reg_fields(&dr, dst.ty)?;
    if !grf || sub % 4 != 0 || dst.region.hstride != 1 {
        return Err(unsupported(
            "align16 destination must be a dword-aligned GRF with <1>",
        ));
    }
    let code = |ty| code_of(&A16_TYPES, ty).ok_or_else(|| unsupported("align16 type"));
    put(b, A16_DST_TYPE, code(dst.ty)?, "DstType")?;
    put(b, T_DST_REG, nr, "DstRegNum")?;
    if i.exec_size == ExecSize::S1 {
        let (hw_size, mask) = simd1_mask(elem_bytes(dst.ty), sub / 4)
            .ok_or_else(|| unsupported("SIMD1 align16 destination of this type"))?;
        put(b, EXEC_SIZE, u64::from(hw_size.encoding()), "ExecSize")?;
        put(b, A16_DST_SUBREG, (sub / 4) & !3, "DstSubRegNum")?;
        put(b, A16_DST_WRITEMASK, mask, "WriteMask")?;
    } else {
        put(b, A16_DST_SUBREG, sub / 4, "DstSubRegNum")?;
        put(b, A16_DST_WRITEMASK, A16_WRITEMASK_ALL, "WriteMask")?;
    }
    encode_flags_sat(b, i);
    let src_ty = ternary_src(i, 0)?.ty();
    put(b, A16_SRC_TYPE, code(src_ty)?, "SrcType")?;
    for k in 0..3 {
        let Operand::Reg(r) = ternary_src(i, k)? else {
            return Err(unsupported(
                "immediate in an align16 three-source instruction",
            ));
        };
        if k > 0 {
            let hf = r.ty == DataType::Hf;
            if a16_src12_type(src_ty, hf) != r.ty {
                return Err(unsupported(
                    "align16 src1/src2 type other than half or SrcType's",
                ));
            }
            b.set_bit(if k == 1 { A16_SRC1_HF } else { A16_SRC2_HF }, hf);
        }
        let Addressing::Direct(reg) = r.addr else {
            return Err(unsupported("indirect three-source operand"));
        };
        let (grf, nr, sub) = reg_fields(&reg, r.ty)?;
        let half_dword = sub % 4 == 2 && elem_bytes(r.ty) == 2;
        if !grf || (sub % 4 != 0 && !half_dword) {
            return Err(unsupported(
                "align16 source must be a GRF, dword-aligned unless 16-bit",
            ));
        }
        b.set_bit(A16_SUBREG_HI[k], half_dword);
        let rep = match (k, r.region) {
            (2, Region { hstride: 0, .. })
            | (
                0 | 1,
                Region {
                    vstride: Some(0), ..
                },
            ) => true,
            (2, Region { hstride: 1, .. })
            | (
                0 | 1,
                Region {
                    vstride: Some(2), ..
                },
            ) => false,
            _ => return Err(unsupported("align16 region other than <2;1>/<0;0>")),
        };
        let wide = r.ty.is_64bit();
        b.set_bit(A16_REP_CTRL[k], rep && !wide);
        // A 64-bit scalar: its row's subregister and the swizzle of its qword, as iga64 writes.
        let (swz, sub) = match (rep && wide, sub % 16) {
            (true, 8) => (A16_SWIZZLE_SCALAR64_HIGH, sub - 8),
            (true, _) => (A16_SWIZZLE_SCALAR64, sub),
            (false, _) => (A16_SWIZZLE_XYZW, sub),
        };
        put(b, A16_SWIZZLE[k], swz, "Swizzle")?;
        put(b, T_SRC_REG[k], nr, "SrcRegNum")?;
        put(b, A16_SUBREG[k], sub / 4, "SrcSubRegNum")?;
        let (abs, neg) = mod_bits(r.modifier);
        b.set_bit(T_ABS[k], abs);
        b.set_bit(T_NEG[k], neg);
    }
    if let Some(c) = i.cond_mod {
        put(b, FUNC, c as u64, "CondMod")?;
    }
    Ok(())
}

fn encode_a1(b: &mut Bits, i: &Instruction) -> Result<(), EncodeError> {
    let (dr, dst) = ternary_dst(i)?;
    let float = dst.ty.is_float();
    b.set_bit(A1_EXEC_FLOAT, float);
    let types = a1_types(float);
    let code = |ty: DataType| {
        code_of(types, ty)
            .ok_or_else(|| unsupported("three-source operands mix float and integer types"))
    };
    let (grf, nr, sub) = reg_fields(&dr, dst.ty)?;
    if sub % 8 != 0 {
        return Err(unsupported(
            "three-source destination must be qword aligned",
        ));
    }
    b.set_bit(A1_DST_FILE, !grf);
    put(b, A1_DST_TYPE, code(dst.ty)?, "DstType")?;
    put(b, T_DST_REG, nr, "DstRegNum")?;
    put(b, A1_DST_SUBREG, sub / 8, "DstSubRegNum")?;
    b.set_bit(
        A1_DST_HSTRIDE,
        match dst.region.hstride {
            1 => false,
            2 => true,
            h => {
                return Err(EncodeError::FieldOutOfRange {
                    field: "DstHorzStride",
                    value: u64::from(h),
                })
            }
        },
    );
    encode_flags_sat(b, i);
    for k in 0..3 {
        let op = ternary_src(i, k)?;
        put(b, A1_SRC_TYPE[k], code(op.ty())?, "SrcType")?;
        match op {
            Operand::Macro(_) => return Err(macro_operand()),
            Operand::Imm(imm) => {
                let f = A1_IMM[k].ok_or_else(|| unsupported("immediate in src1"))?;
                b.set_bit(A1_SRC_FILE[k], true);
                put(b, f, imm.bits, "TernaryImm")?;
            }
            Operand::Reg(r) => {
                let Addressing::Direct(reg) = r.addr else {
                    return Err(unsupported("indirect three-source operand"));
                };
                let (grf, nr, sub) = reg_fields(&reg, r.ty)?;
                if !grf && k != 1 {
                    return Err(unsupported("only src1 may be the accumulator"));
                }
                b.set_bit(A1_SRC_FILE[k], !grf);
                put(b, T_SRC_REG[k], nr, "SrcRegNum")?;
                put(b, A1_SUBREG[k], sub, "SrcSubRegNum")?;
                put(
                    b,
                    A1_HSTRIDE[k],
                    stride_code(r.region.hstride, &HSTRIDES, "HorzStride")?,
                    "HorzStride",
                )?;
                if let Some(f) = A1_VSTRIDE[k] {
                    let v = r.region.vstride.ok_or_else(|| missing("vertical stride"))?;
                    put(
                        b,
                        f,
                        stride_code(v, &A1_VSTRIDES, "VertStride")?,
                        "VertStride",
                    )?;
                }
                let (abs, neg) = mod_bits(r.modifier);
                b.set_bit(T_ABS[k], abs);
                b.set_bit(T_NEG[k], neg);
            }
        }
    }
    if let Some(c) = i.cond_mod {
        put(b, FUNC, c as u64, "CondMod")?;
    }
    Ok(())
}

fn operand_reg(op: Option<Operand>, what: &str) -> Result<(Reg, DataType), EncodeError> {
    match op {
        Some(Operand::Reg(RegOperand {
            addr: Addressing::Direct(r),
            ty,
            ..
        })) => Ok((r, ty)),
        _ => Err(missing(what)),
    }
}

fn encode_send(platform: Platform, b: &mut Bits, i: &Instruction) -> Result<(), EncodeError> {
    let s = i.send.ok_or_else(|| missing("send descriptors"))?;
    let eot = i.opts.contains(InstOpts::EOT);
    b.set_bit(SEND_EOT, eot);
    put(b, FUNC, u64::from(s.sfid), "SFID")?;
    let (dr, dty) = operand_reg(i.dst, "send destination")?;
    let (sr, sty) = operand_reg(i.src[0], "send payload")?;
    let (dgrf, dnr, _) = reg_fields(&dr, dty)?;
    let (_, snr, _) = reg_fields(&sr, sty)?;
    put(b, DST_TYPE, reg_type_code(platform, dty)?, "DstType")?;
    put(b, DST_REG, dnr, "DstRegNum")?;
    put(b, SRC0.reg, snr, "Src0RegNum")?;
    let desc_imm = |b: &mut Bits, d: u32| put(b, (IMM.0, IMM.1 - 1), u64::from(d), "Desc");
    let ex = match s.ex_desc {
        SendDesc::Imm(x) => Some(u64::from(x)),
        SendDesc::Reg(_) => None,
    };
    if let Some(x) = ex {
        if x & 0xF != u64::from(s.sfid) || (x >> EXDESC_EOT_BIT) & 1 != u64::from(eot) {
            return Err(unsupported(
                "ex_desc[3:0] must be the SFID and ex_desc[5] EOT",
            ));
        }
    }
    if matches!(i.opcode, Opcode::Sends | Opcode::Sendsc) {
        b.set_bit(SENDS_DST_FILE, dgrf);
        let (r1, t1) = operand_reg(i.src[1], "sends src1")?;
        let (g1, n1, _) = reg_fields(&r1, t1)?;
        b.set_bit(SENDS_SRC1_FILE, g1);
        put(b, SENDS_SRC1_REG, n1, "Src1RegNum")?;
        match s.desc {
            SendDesc::Imm(d) => desc_imm(b, d)?,
            SendDesc::Reg(0) => b.set_bit(SENDS_DESC_IS_REG, true),
            SendDesc::Reg(_) => return Err(unsupported("desc must be a0.0")),
        }
        match s.ex_desc {
            SendDesc::Reg(sub) => {
                b.set_bit(SENDS_EXDESC_IS_REG, true);
                put(b, SENDS_EXDESC_ADDR_SUB, u64::from(sub), "ExDescAddrSubReg")?;
            }
            SendDesc::Imm(x) => {
                let x = u64::from(x);
                // Bits 4 and 15:10 have no field in the split-send encoding.
                if x & 0xFC10 != 0 {
                    return Err(EncodeError::FieldOutOfRange {
                        field: "ExDesc",
                        value: x,
                    });
                }
                put(b, SENDS_EXDESC_MID, (x >> 6) & 0xF, "ExDesc")?;
                put(b, SENDS_EXDESC_HI, x >> 16, "ExDesc")?;
            }
        }
    } else {
        put(b, SRC0.ty, reg_type_code(platform, sty)?, "SrcType")?;
        put(
            b,
            DST_FILE,
            if dgrf { FILE_GRF } else { FILE_ARF },
            "DstRegFile",
        )?;
        put(b, DST_HSTRIDE, 1, "DstHorzStride")?;
        put(b, SRC0.file, FILE_GRF, "Src0RegFile")?;
        match s.desc {
            SendDesc::Imm(d) => {
                put(b, SRC1.file, FILE_IMM, "Src1RegFile")?;
                desc_imm(b, d)?;
            }
            SendDesc::Reg(0) => put(b, SRC1.reg, ARF_A0, "Src1RegNum")?,
            SendDesc::Reg(_) => return Err(unsupported("desc must be a0.0")),
        }
        let x = ex.ok_or_else(|| unsupported("send (not sends) takes an immediate ex_desc"))?;
        let mapped = SEND_EXDESC_NIBBLES
            .iter()
            .fold(0xF | (1 << EXDESC_EOT_BIT), |m, (_, s)| m | (0xF << s));
        if x & !mapped != 0 {
            return Err(EncodeError::FieldOutOfRange {
                field: "ExDesc",
                value: x,
            });
        }
        for ((lo, hi), shift) in SEND_EXDESC_NIBBLES {
            put(b, (lo, hi), (x >> shift) & 0xF, "ExDesc")?;
        }
    }
    Ok(())
}

fn encode_branch(platform: Platform, b: &mut Bits, i: &Instruction) -> Result<(), EncodeError> {
    let form = branch_form(i.opcode).ok_or_else(|| {
        unsupported(&format!(
            "{} is not supported by the Gen9/Gen11 codec",
            i.opcode.mnemonic()
        ))
    })?;
    b.set_bit(
        ACC_WR,
        i.func == Subfunction::BranchCtrl || i.opts.contains(InstOpts::ACC_WR_EN),
    );
    // Implicit operands, as iga64 encodes them: a :d immediate carrying the target(s), a
    // <1> destination stride, and for jmpi the ip register on both sides.
    put(b, DST_HSTRIDE, 1, "DstHorzStride")?;
    let jip = |i: &Instruction| i.branch.jip.ok_or_else(|| missing("JIP"));
    let imm_d = |b: &mut Bits, f: &SrcFields| -> Result<(), EncodeError> {
        put(b, f.file, FILE_IMM, "SrcRegFile")?;
        put(b, f.ty, 1, "SrcType")
    };
    match form {
        BranchForm::JipUip => {
            imm_d(b, &SRC0)?;
            put(b, IMM, jip(i)? as u32 as u64, "JIP")?;
            let uip = i.branch.uip.ok_or_else(|| missing("UIP"))?;
            put(b, IMM_LOW64, uip as u32 as u64, "UIP")?;
        }
        BranchForm::Jip => {
            imm_d(b, &SRC1)?;
            put(b, IMM, jip(i)? as u32 as u64, "JIP")?;
        }
        BranchForm::Jmpi => {
            put(b, DST_REG, ARF_IP, "DstRegNum")?;
            put(b, SRC0.reg, ARF_IP, "Src0RegNum")?;
            if let Some(j) = i.branch.jip {
                imm_d(b, &SRC1)?;
                put(b, IMM, j.wrapping_sub(JMPI_IP_BIAS) as u32 as u64, "JIP")?;
            } else {
                let (r, _) = operand_reg(i.src[0], "jmpi target register")?;
                put(b, SRC1.file, FILE_GRF, "Src1RegFile")?;
                put(b, SRC1.ty, 1, "Src1Type")?;
                put(b, SRC1.reg, u64::from(r.num), "Src1RegNum")?;
            }
        }
        BranchForm::Brd | BranchForm::Brc => {
            put(b, DST_REG, ARF_IP, "DstRegNum")?;
            put(b, DST_TYPE, 1, "DstType")?;
            if let Some(j) = i.branch.jip {
                imm_d(b, &SRC0)?;
                put(b, IMM, j as u32 as u64, "JIP")?;
                if form == BranchForm::Brc {
                    let uip = i.branch.uip.ok_or_else(|| missing("UIP"))?;
                    put(b, IMM_LOW64, uip as u32 as u64, "UIP")?;
                }
            } else {
                let (r, _) = operand_reg(i.src[0], "branch register")?;
                put(b, SRC0.file, FILE_GRF, "Src0RegFile")?;
                put(b, SRC0.ty, 1, "Src0Type")?;
                put(b, SRC0.reg, u64::from(r.num), "Src0RegNum")?;
                if form == BranchForm::Brc {
                    implicit_src0_region(b, BRC_REG_SRC0_REGION)?;
                }
            }
        }
        BranchForm::Call | BranchForm::Calla => {
            let (r, _) = operand_reg(i.dst, "call destination")?;
            put(b, DST_FILE, FILE_GRF, "DstRegFile")?;
            put(b, DST_TYPE, 1, "DstType")?;
            put(b, DST_REG, u64::from(r.num), "DstRegNum")?;
            let region = if form == BranchForm::Call {
                CALL_SRC0_REGION
            } else {
                CALLA_SRC0_REGION
            };
            implicit_src0_region(b, region[gen(platform)])?;
            imm_d(b, &SRC1)?;
            put(b, IMM, jip(i)? as u32 as u64, "JIP")?;
        }
        BranchForm::Ret => {
            let (r, _) = operand_reg(i.src[0], "ret source")?;
            put(b, SRC0.file, FILE_GRF, "Src0RegFile")?;
            put(b, SRC0.ty, 1, "Src0Type")?;
            put(b, SRC0.reg, u64::from(r.num), "Src0RegNum")?;
            implicit_src0_region(b, RET_SRC0_REGION[gen(platform)])?;
        }
    }
    Ok(())
}

/// The src0 region call and ret carry, as (hstride, width, vstride) codes.
fn implicit_src0_region(b: &mut Bits, (h, w, v): (u64, u64, u64)) -> Result<(), EncodeError> {
    put(b, SRC0.hstride, h, "HorzStride")?;
    put(b, SRC0.width, w, "Width")?;
    put(b, SRC0.vstride, v, "VertStride")
}

fn encode_wait(platform: Platform, b: &mut Bits, i: &Instruction) -> Result<(), EncodeError> {
    let (r, ty) = operand_reg(i.src[0], "wait source")?;
    let (_, nr, sub) = reg_fields(&r, ty)?;
    // The notification register is both source and (implicit) destination.
    put(b, DST_REG, ARF_N0, "DstRegNum")?;
    put(b, DST_HSTRIDE, 1, "DstHorzStride")?;
    put(b, SRC0.ty, reg_type_code(platform, ty)?, "Src0Type")?;
    put(b, SRC0.reg, nr, "Src0RegNum")?;
    put(b, SRC0.subreg, sub, "Src0SubRegNum")
}
