//! Gen12LP (12p1) and Xe-HPG (12p71) native 128-bit encoding.
//!
//! Field positions follow Mesa's brw_eu_inst.h Gfx12 columns; value tables (types, SWSB, SFIDs,
//! ternary strides) were checked against `iga64 -a`/`-d` on both platforms. Math macros are in
//! `macros.rs`, dpas/dpasw in `dpas.rs`.

mod dpas;
mod fields;
mod macros;
mod swsb;

use platform::Platform;

use super::bits::Bits;
use super::shared::{
    code_by_type, code_of, codes_by_type, ill, imm64_alone, macro_operand, missing, mod_bits, put,
    put_src_region_mods, reg_at, reg_fields, reg_from, sign_extend, src_mod, src_region,
    stride_code, table_get, TYPE_SLOTS,
};
use crate::error::{DecodeError, EncodeError};
use crate::model::{
    Addressing, CondMod, DataType, ExecSize, FlagReg, Immediate, InstOpts, Instruction, MathFn,
    Opcode, Operand, PredCtrl, Predicate, RegOperand, Region, SendDesc, SendInfo, Shape, SrcMod,
    Subfunction, SyncFn,
};
use fields::*;

/// Decodes one native Gen12LP / Xe-HPG instruction (bit 29, CompactControl, is ignored).
pub fn decode(platform: Platform, bytes: &[u8; 16]) -> Result<Instruction, DecodeError> {
    let b = Bits::from_bytes(bytes);
    let opnum = b.get(0, 6) as u8;
    let opcode = Opcode::from_number(platform, opnum).ok_or(DecodeError::UnknownOpcode(opnum))?;
    let mut i = Instruction::new(opcode);
    i.exec_size =
        ExecSize::from_encoding(b.get(16, 18) as u8).ok_or(DecodeError::IllegalField {
            field: "ExecSize",
            value: b.get(16, 18),
        })?;
    i.chan_offset = (b.get(20, 21) as u8) * 8 + (b.get(19, 19) as u8) * 4;
    i.flag = FlagReg {
        num: b.get(23, 23) as u8,
        sub: b.get(22, 22) as u8,
    };
    let pc = b.get(24, 27) as u8;
    if pc != 0 {
        let ctrl = PredCtrl::from_encoding(pc).ok_or(DecodeError::IllegalField {
            field: "PredCtrl",
            value: pc as u64,
        })?;
        i.predicate = Some(Predicate {
            ctrl,
            invert: b.bit(28),
        });
    } else if b.bit(28) {
        return Err(DecodeError::IllegalField {
            field: "PredInv",
            value: 1,
        });
    }
    i.no_mask = b.bit(31);
    if b.bit(30) {
        i.opts |= InstOpts::BREAKPOINT;
    }
    if b.bit(32) {
        i.opts |= InstOpts::ATOMIC;
    }
    i.swsb = swsb::decode(platform, opcode, b.get(8, 15) as u8)?;
    let macro_fn = (opcode == Opcode::Math)
        .then(|| MathFn::from_encoding(b.get(92, 95) as u8))
        .flatten()
        .filter(|f| matches!(f, MathFn::Invm | MathFn::Rsqtm));

    match opcode.shape() {
        Shape::Nullary => {}
        Shape::Unary | Shape::Binary => match macro_fn {
            Some(f) => macros::decode_math(&b, &mut i, f)?,
            None => decode_basic(&b, &mut i)?,
        },
        Shape::Ternary if opcode == Opcode::Madm => macros::decode_madm(&b, &mut i)?,
        Shape::Ternary if matches!(opcode, Opcode::Dpas | Opcode::Dpasw) => {
            dpas::decode(&b, &mut i)?
        }
        Shape::Ternary => decode_ternary(&b, &mut i)?,
        Shape::Send => decode_send(platform, &b, &mut i)?,
        Shape::Branch => decode_branch(&b, &mut i)?,
        Shape::Sync | Shape::Wait => decode_sync(&b, &mut i)?,
    }
    if i.is_math_macro() || matches!(opcode, Opcode::Dpas | Opcode::Dpasw) {
        // Math macros and dpas imply or leave unused many fields; iga64 ignores them, we
        // refuse anything but the encoding it writes, so decoding never loses a bit.
        let again = encode(platform, &i).map_err(|_| ill("Encoding", u64::from(opnum)))?;
        let diff = (Bits::from_bytes(&again).0 ^ b.0) & !(1u128 << 29);
        if diff != 0 {
            return Err(ill("ImpliedBits", diff.trailing_zeros().into()));
        }
    }
    Ok(i)
}

fn data_type(code: u64) -> Result<DataType, DecodeError> {
    TYPES
        .iter()
        .find(|t| t.1 as u64 == code)
        .map(|t| t.0)
        .ok_or(ill("Type", code))
}

fn imm_type(code: u64) -> Result<DataType, DecodeError> {
    IMM_TYPES
        .iter()
        .find(|t| t.1 as u64 == code)
        .map(|t| t.0)
        .or_else(|| TYPES.iter().find(|t| t.1 as u64 == code).map(|t| t.0))
        .ok_or(ill("ImmType", code))
}

fn decode_basic(b: &Bits, i: &mut Instruction) -> Result<(), DecodeError> {
    let is_math = i.opcode == Opcode::Math;
    let math_binary = MathFn::from_encoding(b.get(92, 95) as u8).is_some_and(|f| f.is_binary());
    let binary = i.opcode.shape() == Shape::Binary && (!is_math || math_binary);
    // Destination.
    let dty = data_type(b.get(36, 39))?;
    let dst_h = table_get(b.get(48, 49), &HSTRIDES, "DstHorzStride")?;
    let dst_addr = if b.bit(35) {
        Addressing::Indirect {
            addr_sub: b.get(60, 63) as u8,
            offset: sign_extend(b.get(50, 59), 10),
        }
    } else {
        Addressing::Direct(reg_at(b, b.bit(50), (56, 63), (51, 55), dty)?)
    };
    i.dst = Some(Operand::Reg(RegOperand {
        addr: dst_addr,
        region: Region::h(dst_h),
        ty: dty,
        modifier: SrcMod::None,
    }));
    acc_wr_and_sat(b, i);
    // Source 0.
    let s0_imm = b.bit(46);
    let s0 = if s0_imm {
        let ty = imm_type(b.get(40, 43))?;
        let mut bits = b.get(96, 127);
        if ty.is_64bit() {
            bits |= b.get(64, 95) << 32;
        }
        Operand::Imm(Immediate { bits, ty })
    } else {
        decode_src(b, &SRC0, b.get(40, 43))?
    };
    i.src[0] = Some(s0);
    if binary {
        i.src[1] = Some(if b.bit(47) {
            let ty = imm_type(b.get(88, 91))?;
            Operand::Imm(Immediate {
                bits: b.get(96, 127),
                ty,
            })
        } else {
            decode_src(b, &SRC1, b.get(88, 91))?
        });
    }
    let fc = b.get(92, 95) as u8;
    if is_math {
        let f = MathFn::from_encoding(fc).ok_or(ill("MathFC", fc as u64))?;
        i.func = Subfunction::Math(f);
    } else if !(s0_imm && s0.ty().is_64bit()) && fc != 0 {
        i.cond_mod = Some(CondMod::from_encoding(fc).ok_or(ill("CondMod", fc as u64))?);
    }
    Ok(())
}

/// Saturation and AccWrEn, where the formats with a destination keep them.
fn acc_wr_and_sat(b: &Bits, i: &mut Instruction) {
    i.saturate = b.bit(34);
    if b.bit(33) {
        i.opts |= InstOpts::ACC_WR_EN;
    }
}

fn decode_src(b: &Bits, f: &SrcFields, type_code: u64) -> Result<Operand, DecodeError> {
    let ty = data_type(type_code)?;
    let indirect = b.bit(f.addr_mode);
    let region = src_region(b, [f.vstride, f.width, f.hstride], indirect)?;
    let addr = if indirect {
        Addressing::Indirect {
            addr_sub: b.get(f.reg.1 - 3, f.reg.1) as u8,
            offset: sign_extend(b.get(f.subreg.0 - 1, f.reg.1 - 4), 10),
        }
    } else {
        Addressing::Direct(reg_at(b, b.bit(f.file), f.reg, f.subreg, ty)?)
    };
    Ok(Operand::Reg(RegOperand {
        addr,
        region,
        ty,
        modifier: src_mod(b.bit(f.abs), b.bit(f.neg)),
    }))
}

fn decode_ternary(b: &Bits, i: &mut Instruction) -> Result<(), DecodeError> {
    let float = b.bit(39);
    let ty3 = |code: u64| data_type(code | if float { 8 } else { 0 });
    let dty = ty3(b.get(36, 38))?;
    let dst_reg = reg_at(b, b.bit(50), (56, 63), (51, 55), dty)?;
    i.dst = Some(Operand::Reg(RegOperand {
        addr: Addressing::Direct(dst_reg),
        region: Region::h(if b.bit(48) { 2 } else { 1 }),
        ty: dty,
        modifier: SrcMod::None,
    }));
    acc_wr_and_sat(b, i);
    let bfn = i.opcode == Opcode::Bfn;
    if bfn {
        i.func = Subfunction::Bfn(
            ((b.get(BFN_FC_HI.0, BFN_FC_HI.1) << 4) | b.get(BFN_FC_LO.0, BFN_FC_LO.1)) as u8,
        );
    }
    for (k, f) in T_SRCS.iter().enumerate() {
        let ty = ty3(b.get(f.ty.0, f.ty.1))?;
        // bfn reuses src1/src2's modifier bits for its function.
        let modifier = if bfn && k > 0 {
            SrcMod::None
        } else {
            src_mod(b.bit(f.abs), b.bit(f.neg))
        };
        let op = if f.is_imm.is_some_and(|bit| b.bit(bit)) {
            Operand::Imm(Immediate {
                bits: b.get(f.imm.0, f.imm.1),
                ty,
            })
        } else {
            let h = table_get(b.get(f.hstride.0, f.hstride.1), &HSTRIDES, "HorzStride")?;
            let region = match f.vstride {
                Some((hi, lo)) => {
                    let v = (b.get(hi, hi) << 1) | b.get(lo, lo);
                    Region::vh(table_get(v, &T_VSTRIDES, "VertStride")?, h)
                }
                None => Region::h(h),
            };
            let reg = reg_at(b, b.bit(f.file), f.reg, f.subreg, ty)?;
            Operand::Reg(RegOperand {
                addr: Addressing::Direct(reg),
                region,
                ty,
                modifier,
            })
        };
        i.src[k] = Some(op);
    }
    let fc = b.get(92, 95) as u8;
    if fc != 0 && !bfn {
        i.cond_mod = Some(CondMod::from_encoding(fc).ok_or(ill("CondMod", fc as u64))?);
    }
    Ok(())
}

fn send_reg(file_grf: bool, nr: u8) -> Result<Operand, DecodeError> {
    let reg = reg_from(file_grf, nr, 0, DataType::Ud)?;
    Ok(Operand::direct(reg, Region::h(1), DataType::Ud))
}

fn decode_send(platform: Platform, b: &Bits, i: &mut Instruction) -> Result<(), DecodeError> {
    i.dst = Some(send_reg(b.bit(50), b.get(56, 63) as u8)?);
    i.src[0] = Some(send_reg(b.bit(66), b.get(72, 79) as u8)?);
    i.src[1] = Some(send_reg(b.bit(98), b.get(104, 111) as u8)?);
    if b.bit(34) {
        i.opts |= InstOpts::EOT;
    }
    let desc = if b.bit(48) {
        SendDesc::Reg(0)
    } else {
        SendDesc::Imm(
            ((b.get(122, 123) << 30)
                | (b.get(67, 71) << 25)
                | (b.get(51, 55) << 20)
                | (b.get(113, 121) << 11)
                | b.get(81, 91)) as u32,
        )
    };
    let src1_split = SEND_SRC1_LEN_SEPARATE[platform as usize];
    let ex_bso = SEND_HAS_EX_BSO[platform as usize] && b.bit(SEND_EX_BSO);
    if ex_bso {
        i.opts |= InstOpts::EX_BSO;
    }
    let (ex_desc, src1_len) = if b.bit(49) {
        let len = ex_bso.then(|| b.get(99, 103) as u8);
        (SendDesc::Reg(b.get(40, 42) as u8), len)
    } else {
        let hi = (b.get(124, 127) << 28)
            | (b.get(96, 97) << 26)
            | (b.get(64, 65) << 24)
            | (b.get(35, 47) << 11);
        if src1_split {
            (SendDesc::Imm(hi as u32), Some(b.get(99, 103) as u8))
        } else {
            (SendDesc::Imm((hi | (b.get(99, 103) << 6)) as u32), None)
        }
    };
    i.send = Some(SendInfo {
        sfid: b.get(92, 95) as u8,
        desc,
        ex_desc,
        src1_len,
    });
    Ok(())
}

fn decode_branch(b: &Bits, i: &mut Instruction) -> Result<(), DecodeError> {
    if b.bit(33) {
        i.func = Subfunction::BranchCtrl;
    }
    if matches!(i.opcode, Opcode::Call | Opcode::Calla) {
        i.dst = Some(send_reg(b.bit(50), b.get(56, 63) as u8)?);
    }
    // Bit 46 / 47: JIP / UIP are immediates; otherwise src0 names a register (ret, jmpi r..):
    // its number in bits 79:72, the subregister's byte offset in 71:67 (`jmpi r5.2`).
    if b.bit(46) {
        i.branch.jip = Some(b.get(96, 127) as u32 as i32);
    } else if matches!(
        i.opcode,
        Opcode::Ret | Opcode::Jmpi | Opcode::Call | Opcode::Calla
    ) {
        let reg = reg_from(
            b.bit(66),
            b.get(72, 79) as u8,
            b.get(67, 71) as u8,
            DataType::Ud,
        )?;
        i.src[0] = Some(Operand::direct(reg, Region::h(1), DataType::Ud));
    }
    if b.bit(47) {
        i.branch.uip = Some(b.get(64, 95) as u32 as i32);
    }
    Ok(())
}

fn decode_sync(b: &Bits, i: &mut Instruction) -> Result<(), DecodeError> {
    let fc = b.get(92, 95) as u8;
    if i.opcode == Opcode::Sync {
        i.func = Subfunction::Sync(SyncFn::from_encoding(fc).ok_or(ill("SyncFC", fc as u64))?);
    }
    i.src[0] = Some(if b.bit(46) {
        Operand::Imm(Immediate {
            bits: b.get(96, 127),
            ty: imm_type(b.get(40, 43))?,
        })
    } else {
        let ty = data_type(b.get(40, 43))?;
        let reg = reg_at(b, b.bit(66), (72, 79), (67, 71), ty)?;
        Operand::direct(reg, Region::full(0, 1, 0), ty)
    });
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------------------------

#[inline(always)]
fn type_code(ty: DataType) -> Result<u64, EncodeError> {
    const BY_TYPE: [u8; TYPE_SLOTS] = codes_by_type(&TYPES);
    code_by_type(&BY_TYPE, ty)
        .ok_or_else(|| EncodeError::Unencodable(format!("type :{} as a register", ty.syntax())))
}

fn imm_type_code(ty: DataType) -> Result<u64, EncodeError> {
    code_of(&IMM_TYPES, ty)
        .or_else(|| code_of(&TYPES, ty))
        .ok_or_else(|| EncodeError::Unencodable(format!("type :{} as an immediate", ty.syntax())))
}

/// Encodes one instruction in native Gen12LP / Xe-HPG form (bit 29 clear).
pub fn encode(platform: Platform, i: &Instruction) -> Result<[u8; 16], EncodeError> {
    let opnum = i
        .opcode
        .number(platform)
        .ok_or(EncodeError::OpcodeNotOnPlatform {
            opcode: i.opcode.mnemonic(),
            platform,
        })?;
    i.check_math_macro()
        .map_err(|e| EncodeError::Unencodable(e.into()))?;
    let mut b = Bits::default();
    put(&mut b, (0, 6), opnum as u64, "Opcode")?;
    put(
        &mut b,
        (8, 15),
        swsb::encode(platform, i.opcode, &i.swsb)? as u64,
        "SWSB",
    )?;
    put(&mut b, (16, 18), i.exec_size.encoding() as u64, "ExecSize")?;
    if !i.chan_offset.is_multiple_of(4) || i.chan_offset > 28 {
        return Err(EncodeError::FieldOutOfRange {
            field: "ChanOff",
            value: i.chan_offset as u64,
        });
    }
    put(
        &mut b,
        (19, 19),
        ((i.chan_offset / 4) & 1) as u64,
        "NibCtrl",
    )?;
    put(&mut b, (20, 21), (i.chan_offset / 8) as u64, "QtrCtrl")?;
    put(&mut b, (22, 22), i.flag.sub as u64, "FlagSubReg")?;
    put(&mut b, (23, 23), i.flag.num as u64, "FlagReg")?;
    if let Some(p) = i.predicate {
        put(&mut b, (24, 27), p.ctrl as u64, "PredCtrl")?;
        b.set_bit(28, p.invert);
    }
    b.set_bit(30, i.opts.contains(InstOpts::BREAKPOINT));
    b.set_bit(31, i.no_mask);
    b.set_bit(32, i.opts.contains(InstOpts::ATOMIC));
    match i.opcode.shape() {
        Shape::Nullary => {}
        Shape::Unary | Shape::Binary if i.is_math_macro() => macros::encode_math(&mut b, i)?,
        Shape::Unary | Shape::Binary => encode_basic(&mut b, i)?,
        Shape::Ternary if i.is_math_macro() => macros::encode_madm(&mut b, i)?,
        Shape::Ternary if matches!(i.opcode, Opcode::Dpas | Opcode::Dpasw) => {
            dpas::encode(&mut b, i)?
        }
        Shape::Ternary => encode_ternary(&mut b, i)?,
        Shape::Send => encode_send(platform, &mut b, i)?,
        Shape::Branch => encode_branch(&mut b, i)?,
        Shape::Sync | Shape::Wait => encode_sync(&mut b, i)?,
    }
    Ok(b.to_bytes())
}

// Called once per instruction: inlined.
#[inline(always)]
fn encode_basic(b: &mut Bits, i: &Instruction) -> Result<(), EncodeError> {
    let Some(Operand::Reg(dst)) = i.dst else {
        return Err(missing("register destination"));
    };
    put(b, (36, 39), type_code(dst.ty)?, "DstType")?;
    put(
        b,
        (48, 49),
        stride_code(dst.region.hstride, &HSTRIDES, "DstHorzStride")?,
        "DstHorzStride",
    )?;
    match dst.addr {
        Addressing::Direct(r) => {
            let (grf, nr, sub) = reg_fields(&r, dst.ty)?;
            b.set_bit(50, grf);
            put(b, (56, 63), nr, "DstRegNum")?;
            put(b, (51, 55), sub, "DstSubRegNum")?;
        }
        Addressing::Indirect { addr_sub, offset } => {
            b.set_bit(35, true);
            put(b, (60, 63), addr_sub as u64, "DstAddrSubReg")?;
            put(b, (50, 59), (offset as u64) & 0x3FF, "DstAddrImm")?;
        }
    }
    b.set_bit(34, i.saturate);
    b.set_bit(33, i.opts.contains(InstOpts::ACC_WR_EN));
    imm64_alone(i)?;
    let s0 = i.src[0].ok_or_else(|| missing("src0"))?;
    match s0 {
        Operand::Imm(imm) => {
            b.set_bit(46, true);
            put(b, (40, 43), imm_type_code(imm.ty)?, "Src0Type")?;
            put(b, (96, 127), imm.bits & 0xFFFF_FFFF, "Imm")?;
            if imm.ty.is_64bit() {
                put(b, (64, 95), imm.bits >> 32, "Imm64")?;
            }
        }
        Operand::Reg(r) => {
            put(b, (40, 43), type_code(r.ty)?, "Src0Type")?;
            encode_src(b, &SRC0, &r)?;
        }
        Operand::Macro(_) => return Err(macro_operand()),
    }
    if let Some(s1) = i.src[1] {
        match s1 {
            Operand::Imm(imm) => {
                b.set_bit(47, true);
                put(b, (88, 91), imm_type_code(imm.ty)?, "Src1Type")?;
                put(b, (96, 127), imm.bits, "Imm")?;
            }
            Operand::Reg(r) => {
                put(b, (88, 91), type_code(r.ty)?, "Src1Type")?;
                encode_src(b, &SRC1, &r)?;
            }
            Operand::Macro(_) => return Err(macro_operand()),
        }
    }
    if let Subfunction::Math(f) = i.func {
        put(b, (92, 95), f as u64, "MathFC")?;
    } else if let Some(c) = i.cond_mod {
        put(b, (92, 95), c as u64, "CondMod")?;
    }
    Ok(())
}

// Inlined so that each call's field positions are constants.
#[inline(always)]
fn encode_src(b: &mut Bits, f: &SrcFields, r: &RegOperand) -> Result<(), EncodeError> {
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
            b.set_bit(f.file, grf);
            put(b, (f.reg.0, f.reg.1), nr, "SrcRegNum")?;
            put(b, (f.subreg.0, f.subreg.1), sub, "SrcSubRegNum")?;
        }
        Addressing::Indirect { addr_sub, offset } => {
            b.set_bit(f.addr_mode, true);
            put(b, (f.reg.1 - 3, f.reg.1), addr_sub as u64, "SrcAddrSubReg")?;
            put(
                b,
                (f.subreg.0 - 1, f.reg.1 - 4),
                (offset as u64) & 0x3FF,
                "SrcAddrImm",
            )?;
        }
    }
    Ok(())
}

fn encode_ternary(b: &mut Bits, i: &Instruction) -> Result<(), EncodeError> {
    let Some(Operand::Reg(dst)) = i.dst else {
        return Err(missing("register destination"));
    };
    let float = dst.ty.is_float();
    b.set_bit(39, float);
    let ty3 = |ty: DataType| -> Result<u64, EncodeError> {
        let c = type_code(ty)?;
        if (c >= 8) != float {
            return Err(EncodeError::Unencodable(
                "ternary operands mix float and integer types".into(),
            ));
        }
        Ok(c & 7)
    };
    put(b, (36, 38), ty3(dst.ty)?, "DstType")?;
    let Addressing::Direct(dr) = dst.addr else {
        return Err(EncodeError::Unencodable(
            "indirect ternary destination".into(),
        ));
    };
    let (grf, nr, sub) = reg_fields(&dr, dst.ty)?;
    b.set_bit(50, grf);
    put(b, (56, 63), nr, "DstRegNum")?;
    put(b, (51, 55), sub, "DstSubRegNum")?;
    b.set_bit(
        48,
        match dst.region.hstride {
            1 => false,
            2 => true,
            h => {
                return Err(EncodeError::FieldOutOfRange {
                    field: "DstHorzStride",
                    value: h as u64,
                })
            }
        },
    );
    b.set_bit(34, i.saturate);
    b.set_bit(33, i.opts.contains(InstOpts::ACC_WR_EN));
    for (k, f) in T_SRCS.iter().enumerate() {
        let op = i.src[k].ok_or_else(|| missing("ternary source"))?;
        put(b, (f.ty.0, f.ty.1), ty3(op.ty())?, "SrcType")?;
        match op {
            Operand::Imm(imm) => {
                let bit = f
                    .is_imm
                    .ok_or_else(|| EncodeError::Unencodable("immediate in ternary src1".into()))?;
                b.set_bit(bit, true);
                put(b, (f.imm.0, f.imm.1), imm.bits, "TernaryImm")?;
            }
            Operand::Reg(r) => {
                let (abs, neg) = mod_bits(r.modifier);
                if abs || neg {
                    b.set_bit(f.abs, abs);
                    b.set_bit(f.neg, neg);
                }
                let Addressing::Direct(reg) = r.addr else {
                    return Err(EncodeError::Unencodable("indirect ternary source".into()));
                };
                let (grf, nr, sub) = reg_fields(&reg, r.ty)?;
                b.set_bit(f.file, grf);
                put(b, (f.reg.0, f.reg.1), nr, "SrcRegNum")?;
                put(b, (f.subreg.0, f.subreg.1), sub, "SrcSubRegNum")?;
                let h = stride_code(r.region.hstride, &HSTRIDES, "HorzStride")?;
                put(b, (f.hstride.0, f.hstride.1), h, "HorzStride")?;
                if let Some((hi, lo)) = f.vstride {
                    let v = r.region.vstride.ok_or_else(|| missing("vertical stride"))?;
                    let v = stride_code(v, &T_VSTRIDES, "VertStride")?;
                    b.set_bit(hi, v & 2 != 0);
                    b.set_bit(lo, v & 1 != 0);
                }
            }
            Operand::Macro(_) => return Err(macro_operand()),
        }
    }
    if let Subfunction::Bfn(v) = i.func {
        put(b, (BFN_FC_HI.0, BFN_FC_HI.1), (v >> 4) as u64, "BfnFC")?;
        put(b, (BFN_FC_LO.0, BFN_FC_LO.1), (v & 0xF) as u64, "BfnFC")?;
    } else if let Some(c) = i.cond_mod {
        put(b, (92, 95), c as u64, "CondMod")?;
    }
    Ok(())
}

fn send_reg_fields(op: Option<Operand>, what: &str) -> Result<(bool, u64), EncodeError> {
    let r = op.and_then(|o| o.reg()).ok_or_else(|| missing(what))?;
    let (grf, nr, _) = reg_fields(&r, DataType::Ud)?;
    Ok((grf, nr))
}

fn encode_send(platform: Platform, b: &mut Bits, i: &Instruction) -> Result<(), EncodeError> {
    let s = i.send.ok_or_else(|| missing("send descriptors"))?;
    let (g, n) = send_reg_fields(i.dst, "send destination")?;
    b.set_bit(50, g);
    put(b, (56, 63), n, "DstRegNum")?;
    let (g, n) = send_reg_fields(i.src[0], "send src0")?;
    b.set_bit(66, g);
    put(b, (72, 79), n, "Src0RegNum")?;
    let (g, n) = send_reg_fields(i.src[1], "send src1")?;
    b.set_bit(98, g);
    put(b, (104, 111), n, "Src1RegNum")?;
    b.set_bit(34, i.opts.contains(InstOpts::EOT));
    put(b, (92, 95), s.sfid as u64, "SFID")?;
    match s.desc {
        SendDesc::Reg(0) => b.set_bit(48, true),
        SendDesc::Reg(_) => return Err(EncodeError::Unencodable("desc must be a0.0".into())),
        SendDesc::Imm(d) => {
            let d = d as u64;
            put(b, (122, 123), d >> 30, "Desc")?;
            put(b, (67, 71), (d >> 25) & 0x1F, "Desc")?;
            put(b, (51, 55), (d >> 20) & 0x1F, "Desc")?;
            put(b, (113, 121), (d >> 11) & 0x1FF, "Desc")?;
            put(b, (81, 91), d & 0x7FF, "Desc")?;
        }
    }
    let split = SEND_SRC1_LEN_SEPARATE[platform as usize];
    match s.ex_desc {
        SendDesc::Reg(sub) => {
            b.set_bit(49, true);
            put(b, (40, 42), sub as u64, "ExDescAddrSubReg")?;
            if i.opts.contains(InstOpts::EX_BSO) {
                if !SEND_HAS_EX_BSO[platform as usize] {
                    return Err(EncodeError::Unencodable(format!("ExBSO on {platform}")));
                }
                b.set_bit(SEND_EX_BSO, true);
            }
            if let Some(l) = s.src1_len {
                put(b, (99, 103), l as u64, "Src1Len")?;
            }
        }
        SendDesc::Imm(x) => {
            let x = x as u64;
            if x & 0x3F != 0 {
                return Err(EncodeError::FieldOutOfRange {
                    field: "ExDesc[5:0]",
                    value: x & 0x3F,
                });
            }
            put(b, (124, 127), x >> 28, "ExDesc")?;
            put(b, (96, 97), (x >> 26) & 3, "ExDesc")?;
            put(b, (64, 65), (x >> 24) & 3, "ExDesc")?;
            put(b, (35, 47), (x >> 11) & 0x1FFF, "ExDesc")?;
            let low = (x >> 6) & 0x1F;
            match (split, s.src1_len) {
                (true, Some(l)) if low == 0 => put(b, (99, 103), l as u64, "Src1Len")?,
                (false, None) => put(b, (99, 103), low, "ExDesc")?,
                _ => {
                    return Err(EncodeError::Unencodable(
                        "src1 length must be in ex_desc (12p1) or a src1 suffix (12p71)".into(),
                    ))
                }
            }
        }
    }
    Ok(())
}

fn encode_branch(b: &mut Bits, i: &Instruction) -> Result<(), EncodeError> {
    // Branches carry no operand types; bit 46 / 47 flag an immediate JIP / UIP.
    b.set_bit(33, i.func == Subfunction::BranchCtrl);
    if matches!(i.opcode, Opcode::Call | Opcode::Calla) {
        let (g, n) = send_reg_fields(i.dst, "call destination")?;
        b.set_bit(50, g);
        put(b, (56, 63), n, "DstRegNum")?;
    }
    if let Some(jip) = i.branch.jip {
        b.set_bit(46, true);
        put(b, (96, 127), jip as u32 as u64, "JIP")?;
    } else if let Some(src) = i.src[0] {
        let r = src.reg().ok_or_else(|| missing("branch source"))?;
        let (g, n, sub) = reg_fields(&r, DataType::Ud)?;
        b.set_bit(66, g);
        put(b, (72, 79), n, "Src0RegNum")?;
        put(b, (67, 71), sub, "Src0SubRegNum")?;
    }
    if let Some(uip) = i.branch.uip {
        b.set_bit(47, true);
        put(b, (64, 95), uip as u32 as u64, "UIP")?;
    }
    Ok(())
}

fn encode_sync(b: &mut Bits, i: &Instruction) -> Result<(), EncodeError> {
    // The implicit null destination has HorzStride 1.
    put(b, (48, 49), 1, "DstHorzStride")?;
    if let Subfunction::Sync(f) = i.func {
        put(b, (92, 95), f as u64, "SyncFC")?;
    }
    match i.src[0] {
        Some(Operand::Imm(imm)) => {
            b.set_bit(46, true);
            put(b, (40, 43), imm_type_code(imm.ty)?, "Src0Type")?;
            put(b, (96, 127), imm.bits, "Imm")?;
        }
        Some(Operand::Reg(r)) => {
            put(b, (40, 43), type_code(r.ty)?, "Src0Type")?;
            encode_src(b, &SRC0, &r)?;
        }
        Some(Operand::Macro(_)) => return Err(macro_operand()),
        None => return Err(missing("sync source")),
    }
    Ok(())
}
