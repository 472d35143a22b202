//! Prints instructions in IGA syntax, byte for byte as `iga64 -d` does (columns included).

use std::fmt::Write;

use platform::Platform;

use super::float;
use super::syntax::{self, cols};
use crate::model::{
    Addressing, DataType, Immediate, InstOpts, Instruction, Opcode, Operand, Reg, RegFile,
    RegOperand, Region, SendDesc, Shape, SrcMod, Subfunction, SyncFn, INST_OPT_NAMES,
};
use crate::sendmsg::{self, DescValue, SendDescription};

/// A line builder with iga64's column rules: a column shorter than its width is padded, and a
/// longer one leaves a debt that later columns repay from their padding.
///
/// Like iga64, immediate values, labels and immediate descriptors are written past the column
/// accounting ([`Line::raw`]): they do not count towards a column's width.
struct Line<'a> {
    out: &'a mut String,
    /// (start offset, width, hidden bytes at start)
    col_start: Option<(usize, usize, usize)>,
    debt: usize,
    hidden: usize,
}

impl<'a> Line<'a> {
    fn new(out: &'a mut String) -> Self {
        Line {
            out,
            col_start: None,
            debt: 0,
            hidden: 0,
        }
    }
    fn s(&mut self, t: &str) {
        self.out.push_str(t);
    }
    /// Text that does not count towards the current column's width.
    fn raw(&mut self, t: &str) {
        self.out.push_str(t);
        self.hidden += t.len();
    }
    fn start(&mut self, width: usize) {
        self.col_start = Some((self.out.len(), width, self.hidden));
    }
    fn finish(&mut self) {
        let Some((start, width, hidden)) = self.col_start.take() else {
            return;
        };
        let used = self.out.len() - start - (self.hidden - hidden);
        if used <= width {
            let mut pad = width - used;
            let fix = self.debt.min(pad);
            pad -= fix;
            self.debt -= fix;
            self.spaces(pad);
        } else {
            self.debt += used - width;
        }
    }
    fn spaces(&mut self, n: usize) {
        self.out.extend(std::iter::repeat_n(' ', n));
    }
    /// An empty column (pads, repaying debt).
    fn empty(&mut self, width: usize) {
        self.start(width);
        self.finish();
    }
}

/// `L{pc}`, or `L_N{-pc}` for a negative target.
pub fn label(pc: i64) -> String {
    if pc < 0 {
        format!("L_N{}", -pc)
    } else {
        format!("L{pc}")
    }
}

fn reg_text(r: &Reg, with_sub: bool) -> String {
    let mut s = String::new();
    match r.file {
        RegFile::Grf => {
            let _ = write!(s, "r{}", r.num);
            if with_sub || r.sub != 0 {
                let _ = write!(s, ".{}", r.sub);
            }
        }
        f => {
            let Some(a) = f.arf() else {
                return "???".into();
            };
            s.push_str(a.name);
            if a.numbered || r.num != 0 {
                let _ = write!(s, "{}", r.num);
            }
            if (with_sub && a.has_subregs) || r.sub != 0 {
                let _ = write!(s, ".{}", r.sub);
            }
        }
    }
    s
}

fn indirect_text(addr_sub: u8, offset: i16) -> String {
    if offset != 0 {
        format!("r[a0.{addr_sub},{offset}]")
    } else {
        format!("r[a0.{addr_sub}]")
    }
}

fn region_text(rg: &Region) -> String {
    match (rg.vstride, rg.width) {
        (Some(v), Some(w)) => format!("<{v};{w},{}>", rg.hstride),
        (Some(v), None) => format!("<{v};{}>", rg.hstride),
        (None, Some(w)) => format!("<{w},{}>", rg.hstride),
        (None, None) => format!("<{}>", rg.hstride),
    }
}

/// The immediate's value text (without type).
pub fn imm_value(imm: &Immediate) -> String {
    let b = imm.bits;
    match imm.ty {
        DataType::B => format!("{}", b as u8 as i8),
        DataType::W => format!("{}", b as u16 as i16),
        DataType::D => format!("{}", b as u32 as i32),
        DataType::Q => format!("{}", b as i64),
        DataType::Ub => format!("0x{:X}", b as u8),
        DataType::Uw | DataType::Bf => format!("0x{:X}", b as u16),
        DataType::Hf => float::format_f16(b as u16),
        DataType::F => float::format_f32(b as u32),
        DataType::Df => float::format_f64(b),
        DataType::Ud | DataType::V | DataType::Uv | DataType::Vf | DataType::Tf32 => {
            format!("0x{:X}", b as u32)
        }
        _ => format!("0x{b:X}"),
    }
}

fn src_mod_text(op: Opcode, m: SrcMod) -> &'static str {
    match m {
        SrcMod::None => "",
        SrcMod::Neg if syntax::is_logic(op) => "~",
        SrcMod::Neg => "-",
        SrcMod::Abs => "(abs)",
        SrcMod::NegAbs => "-(abs)",
    }
}

/// Per-instruction printing context.
struct Ctx<'i> {
    platform: Platform,
    inst: &'i Instruction,
    pc: i64,
}

impl Ctx<'_> {
    fn is_send(&self) -> bool {
        self.inst.opcode.is_send()
    }
    fn branchy(&self) -> bool {
        self.inst.opcode.is_branch()
    }

    fn dst(&self, line: &mut Line) {
        let i = self.inst;
        let Some(dst) = i.dst else { return };
        line.start(if self.is_send() {
            cols::SEND_DST
        } else {
            cols::DST
        });
        if i.saturate {
            line.s("(sat)");
        }
        match dst {
            Operand::Reg(r) => {
                match r.addr {
                    Addressing::Direct(reg) => line.s(&reg_text(&reg, !self.is_send())),
                    Addressing::Indirect { addr_sub, offset } => {
                        line.s(&indirect_text(addr_sub, offset))
                    }
                }
                // Sends and branches have an implicit destination region.
                if !self.is_send() && !self.branchy() {
                    line.s(&region_text(&Region::h(r.region.hstride)));
                }
                let implicit_ty = if self.is_send() {
                    Some(DataType::Ud)
                } else if self.branchy() && syntax::simplified_branches(self.platform) {
                    Some(r.ty)
                } else {
                    None
                };
                if implicit_ty != Some(r.ty) {
                    line.s(":");
                    line.s(r.ty.syntax());
                }
            }
            Operand::Imm(imm) => line.raw(&imm_value(&imm)),
        }
        line.finish();
    }

    fn src(&self, line: &mut Line, k: usize) {
        let i = self.inst;
        let Some(op) = i.src[k] else { return };
        line.start(if self.is_send() {
            cols::SEND_SRC
        } else {
            cols::SRC
        });
        match op {
            Operand::Imm(imm) => {
                line.raw(&imm_value(&imm));
                line.s(":");
                line.s(imm.ty.syntax());
            }
            Operand::Reg(r) => self.reg_src(line, k, &r),
        }
        line.finish();
    }

    fn reg_src(&self, line: &mut Line, k: usize, r: &RegOperand) {
        let i = self.inst;
        if self.is_send() {
            let reg = r.addr;
            if let Addressing::Direct(reg) = reg {
                line.s(&reg_text(&reg, false));
            }
            if k == 1 {
                if let Some(len) = self.src1_len() {
                    let _ = write!(line.out, ":{len}");
                }
            }
            if r.ty != DataType::Ud {
                line.s(":");
                line.s(r.ty.syntax());
            }
            return;
        }
        line.s(src_mod_text(i.opcode, r.modifier));
        match r.addr {
            Addressing::Direct(reg) => line.s(&reg_text(&reg, true)),
            Addressing::Indirect { addr_sub, offset } => line.s(&indirect_text(addr_sub, offset)),
        }
        let simplified = self.branchy() && syntax::simplified_branches(self.platform);
        let is_sync_null = i.opcode == Opcode::Sync && r.addr == Addressing::Direct(Reg::NULL);
        if self.branchy() || is_sync_null {
            // Implicit regions (and, on simplified-branch platforms, types).
        } else {
            line.s(&region_text(&r.region));
        }
        if !simplified && !is_sync_null {
            line.s(":");
            line.s(r.ty.syntax());
        }
    }

    fn target(&self, line: &mut Line, off: i32) {
        line.start(if self.is_send() {
            cols::SEND_SRC
        } else {
            cols::SRC
        });
        line.raw(&label(self.pc + off as i64));
        line.finish();
    }

    fn send_desc(&self, line: &mut Line, d: SendDesc, width8: bool) {
        line.start(cols::SEND_DESC);
        match d {
            SendDesc::Imm(v) if width8 => line.raw(&format!("0x{v:08X}")),
            SendDesc::Imm(v) => line.raw(&format!("0x{v:X}")),
            SendDesc::Reg(s) => {
                let _ = write!(line.out, "a0.{s}");
            }
        }
        line.finish();
    }

    fn opts(&self, line: &mut Line) {
        let i = self.inst;
        let mut parts: Vec<String> = INST_OPT_NAMES
            .iter()
            .filter(|(o, _)| i.opts.contains(*o))
            .map(|(_, n)| n.to_string())
            .collect();
        let sw = &i.swsb;
        let mut dep = String::new();
        if let Some((pipe, d)) = sw.dist {
            let _ = write!(dep, "{}@{d}", pipe.prefix());
        }
        if let Some((n, mode)) = sw.token {
            if !dep.is_empty() {
                dep.push(',');
            }
            let _ = write!(dep, "${n}");
            dep.push_str(match mode {
                crate::model::TokenMode::Set => "",
                crate::model::TokenMode::Dst => ".dst",
                crate::model::TokenMode::Src => ".src",
            });
        }
        if !dep.is_empty() {
            parts.push(dep);
        }
        if !parts.is_empty() {
            line.s(" {");
            line.s(&parts.join(","));
            line.s("}");
        }
    }

    fn comment(&self, line: &mut Line) {
        let i = self.inst;
        let Some(s) = i.send else { return };
        let dv = |d: SendDesc| match d {
            SendDesc::Imm(v) => DescValue::Imm(v),
            SendDesc::Reg(r) => DescValue::A0(r),
        };
        let gen9 = !self.platform.has_swsb();
        let sfid = match (gen9, s.ex_desc) {
            (true, SendDesc::Reg(_)) => None,
            _ => Some(s.sfid),
        };
        let text = sendmsg::describe(&SendDescription {
            platform: self.platform,
            sfid,
            exec_size: i.exec_size.channels() as u8,
            desc: dv(s.desc),
            ex_desc: dv(s.ex_desc),
            src1_len: self.src1_len(),
        });
        if let Some(t) = text {
            line.s(" // ");
            line.s(&t);
        }
    }

    /// The send's separate src1 length as iga64 shows it: 0 whenever src1 is null.
    fn src1_len(&self) -> Option<u8> {
        let len = self.inst.send?.src1_len?;
        let null = self.inst.src[1]
            .and_then(|o| o.reg())
            .is_some_and(|r| r.is_null());
        Some(if null { 0 } else { len })
    }

    fn mnemonic(&self) -> String {
        let i = self.inst;
        let mut m = i.opcode.mnemonic().to_string();
        match i.func {
            Subfunction::Math(f) => {
                m.push('.');
                m.push_str(f.syntax());
            }
            Subfunction::Sync(f) => {
                m.push('.');
                m.push_str(f.syntax());
            }
            Subfunction::BranchCtrl => m.push_str(".b"),
            Subfunction::Bfn(v) => {
                m.push('.');
                m.push_str(crate::model::bfn::expression(v));
            }
            Subfunction::Dpas { depth, repeat } => {
                let _ = write!(m, ".{depth}x{repeat}");
            }
            Subfunction::None => {}
        }
        if let (Some(s), true) = (i.send, self.platform.has_swsb()) {
            m.push('.');
            m.push_str(crate::model::sfid::sfid_name(self.platform, s.sfid).unwrap_or("???"));
        }
        m
    }

    fn line(&self, out: &mut String) {
        let i = self.inst;
        let mut line = Line::new(out);
        // Mask and predication.
        line.start(cols::PREDICATION);
        if i.no_mask || i.predicate.is_some() {
            line.s("(");
            if i.no_mask {
                line.s("W");
                if i.predicate.is_some() {
                    line.s("&");
                }
            }
            if let Some(p) = i.predicate {
                if p.invert {
                    line.s("~");
                }
                let _ = write!(
                    line.out,
                    "f{}.{}{}",
                    i.flag.num,
                    i.flag.sub,
                    p.ctrl.syntax()
                );
            }
            line.s(")");
        }
        line.finish();
        line.s(" ");
        // Mnemonic and execution size.
        line.start(cols::OPCODE_EXEC);
        line.s(&self.mnemonic());
        line.s(" ");
        if !syntax::implicit_exec(i.opcode) {
            let _ = write!(line.out, "({}|M{})", i.exec_size.channels(), i.chan_offset);
        }
        line.finish();
        line.s(" ");
        // Flag modifier.
        line.start(cols::FLAG_MOD);
        if let (Some(c), false) = (i.cond_mod, self.is_send()) {
            let _ = write!(line.out, "({})", c.syntax());
            let _ = write!(line.out, "f{}.{}", i.flag.num, i.flag.sub);
        }
        line.finish();

        let targets: Vec<i32> = [i.branch.jip, i.branch.uip].into_iter().flatten().collect();
        let n_srcs = i.src_count() + targets.len();
        let has_opts = !i.opts.is_empty() || !i.swsb.is_empty();
        if i.dst.is_some() {
            line.s("  ");
            self.dst(&mut line);
        } else if n_srcs > 0 || has_opts {
            line.spaces(cols::DST);
        }
        if n_srcs == 0 {
            if has_opts {
                line.spaces(cols::SRC);
            }
        } else {
            // Sources: registers first, then branch targets (call: dst, target; ret: src).
            let mut k = 0;
            let emit = |line: &mut Line, k: usize| {
                line.s("  ");
                if k < i.src_count() {
                    if k == 0 && self.is_sync_set() {
                        self.sync_set(line);
                    } else {
                        self.src(line, k);
                    }
                } else {
                    self.target(line, targets[k - i.src_count()]);
                }
            };
            emit(&mut line, k);
            k += 1;
            if n_srcs >= 2 {
                emit(&mut line, k);
                k += 1;
            } else if !self.is_send() {
                line.empty(cols::SRC);
            }
            if n_srcs >= 3 {
                emit(&mut line, k);
            }
        }
        if let Some(s) = i.send {
            line.s("  ");
            self.send_desc(&mut line, s.ex_desc, false);
            line.s("  ");
            self.send_desc(&mut line, s.desc, true);
        }
        self.opts(&mut line);
        self.comment(&mut line);
    }

    fn is_sync_set(&self) -> bool {
        matches!(
            self.inst.func,
            Subfunction::Sync(SyncFn::Allrd) | Subfunction::Sync(SyncFn::Allwr)
        ) && matches!(self.inst.src[0], Some(Operand::Imm(_)))
    }

    /// `sync.allrd ($1,$3)`: the SBID mask immediate as a token set.
    fn sync_set(&self, line: &mut Line) {
        let Some(Operand::Imm(imm)) = self.inst.src[0] else {
            return;
        };
        let ids: Vec<String> = (0..32)
            .filter(|b| imm.bits & (1 << b) != 0)
            .map(|b| format!("${b}"))
            .collect();
        line.s("(");
        line.s(&ids.join(","));
        line.s(")");
    }
}

/// Appends one instruction (no newline) as iga64 prints it; `pc` is its byte address, used
/// to turn branch offsets into labels.
pub fn format_instruction(out: &mut String, platform: Platform, inst: &Instruction, pc: u32) {
    Ctx {
        platform,
        inst,
        pc: pc as i64,
    }
    .line(out);
}

/// True if the instruction is a send whose comment iga64 prints (all sends).
pub fn has_send_comment(inst: &Instruction) -> bool {
    inst.opcode.shape() == Shape::Send
}

/// True if `EOT` is set: iga64 starts a new block after it.
pub fn is_eot(inst: &Instruction) -> bool {
    inst.opts.contains(InstOpts::EOT)
}
