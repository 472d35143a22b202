//! Prints instructions in IGA syntax, byte for byte as `iga64 -d` does (columns included).

use std::fmt::Write;

use platform::Platform;

use super::float;
use super::syntax::{self, cols};
use crate::model::{
    Addressing, DataType, Immediate, InstOpts, Instruction, MacroOperand, Opcode, Operand, Reg,
    RegFile, RegOperand, Region, SendDesc, Shape, SrcMod, Subfunction, SyncFn, INST_OPT_NAMES,
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
        const SP: &str = "                                                                ";
        let mut n = n;
        while n > 0 {
            let k = n.min(SP.len());
            self.out.push_str(&SP[..k]);
            n -= k;
        }
    }
    /// Appends uncounted text produced by `f`.
    fn raw_with(&mut self, f: impl FnOnce(&mut String)) {
        let before = self.out.len();
        f(self.out);
        self.hidden += self.out.len() - before;
    }
    /// An empty column (pads, repaying debt).
    fn empty(&mut self, width: usize) {
        self.start(width);
        self.finish();
    }
}

/// `L{pc}`, or `L_N{-pc}` for a negative target.
pub fn push_label(out: &mut String, pc: i64) {
    out.push('L');
    if pc < 0 {
        out.push_str("_N");
    }
    push_dec(out, pc.abs());
}

/// `L{pc}`, or `L_N{-pc}` for a negative target.
pub fn label(pc: i64) -> String {
    let mut s = String::new();
    push_label(&mut s, pc);
    s
}

/// Appends `v` in decimal.
fn push_dec(out: &mut String, v: i64) {
    if v < 0 {
        out.push('-');
    }
    let mut n = v.unsigned_abs();
    if n < 10 {
        // Register numbers, strides, exec sizes: most numbers printed are one digit.
        out.push(char::from(b'0' + n as u8));
        return;
    }
    if n < 100 {
        out.push(char::from(b'0' + (n / 10) as u8));
        out.push(char::from(b'0' + (n % 10) as u8));
        return;
    }
    let mut buf = [0u8; 20];
    let mut k = buf.len();
    while n > 0 {
        k -= 1;
        buf[k] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    // Digit by digit: no UTF-8 check of the buffer.
    for &d in &buf[k..] {
        out.push(char::from(d));
    }
}

/// Appends `0x` and `v` in upper-case hex, zero-padded to `width` digits.
fn push_hex(out: &mut String, v: u64, width: usize) {
    out.push_str("0x");
    let digits = ((64 - v.leading_zeros() as usize).div_ceil(4))
        .max(1)
        .max(width);
    for k in (0..digits).rev() {
        let d = ((v >> (4 * k)) & 0xF) as u8;
        out.push(if d < 10 { b'0' + d } else { b'A' + d - 10 } as char);
    }
}

fn push_reg(out: &mut String, r: &Reg, with_sub: bool) {
    match r.file {
        RegFile::Grf => {
            out.push('r');
            push_dec(out, r.num as i64);
            if with_sub || r.sub != 0 {
                out.push('.');
                push_dec(out, r.sub as i64);
            }
        }
        f => {
            let Some(a) = f.arf() else {
                out.push_str("???");
                return;
            };
            out.push_str(a.name);
            if a.numbered || r.num != 0 {
                push_dec(out, r.num as i64);
            }
            if (with_sub && a.has_subregs) || r.sub != 0 {
                out.push('.');
                push_dec(out, r.sub as i64);
            }
        }
    }
}

fn push_indirect(out: &mut String, addr_sub: u8, offset: i16) {
    out.push_str("r[a0.");
    push_dec(out, addr_sub as i64);
    if offset != 0 {
        out.push(',');
        push_dec(out, offset as i64);
    }
    out.push(']');
}

/// `r30.mme2:df`.
fn push_macro(out: &mut String, m: &MacroOperand) {
    out.push('r');
    push_dec(out, i64::from(m.grf));
    out.push('.');
    out.push_str(m.acc.syntax());
    out.push(':');
    out.push_str(m.ty.syntax());
}

fn push_region(out: &mut String, rg: &Region) {
    out.push('<');
    if let Some(v) = rg.vstride {
        push_dec(out, v as i64);
        out.push(';');
    }
    if let Some(w) = rg.width {
        push_dec(out, w as i64);
        out.push(',');
    }
    push_dec(out, rg.hstride as i64);
    out.push('>');
}

/// Appends the immediate's value text (without type).
pub fn push_imm(out: &mut String, imm: &Immediate) {
    let b = imm.bits;
    match imm.ty {
        DataType::B => push_dec(out, b as u8 as i8 as i64),
        DataType::W => push_dec(out, b as u16 as i16 as i64),
        DataType::D => push_dec(out, b as u32 as i32 as i64),
        DataType::Q => push_dec(out, b as i64),
        DataType::Ub => push_hex(out, b as u8 as u64, 0),
        DataType::Uw | DataType::Bf => push_hex(out, b as u16 as u64, 0),
        DataType::Hf => out.push_str(&float::format_f16(b as u16)),
        DataType::F => out.push_str(&float::format_f32(b as u32)),
        DataType::Df => out.push_str(&float::format_f64(b)),
        DataType::Ud | DataType::V | DataType::Uv | DataType::Vf | DataType::Tf32 => {
            push_hex(out, b as u32 as u64, 0)
        }
        _ => push_hex(out, b, 0),
    }
}

/// The immediate's value text (without type).
pub fn imm_value(imm: &Immediate) -> String {
    let mut s = String::new();
    push_imm(&mut s, imm);
    s
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
    fn is_dpas(&self) -> bool {
        matches!(self.inst.opcode, Opcode::Dpas | Opcode::Dpasw)
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
                    Addressing::Direct(reg) if self.is_dpas() => push_reg(line.out, &reg, false),
                    Addressing::Direct(reg) => push_reg(line.out, &reg, !self.is_send()),
                    Addressing::Indirect { addr_sub, offset } => {
                        push_indirect(line.out, addr_sub, offset)
                    }
                }
                // Sends, branches and dpas have an implicit destination region.
                if !self.is_send() && !self.branchy() && !self.is_dpas() {
                    push_region(line.out, &Region::h(r.region.hstride));
                }
                let implicit_ty = if self.is_send() {
                    syntax::send_dst_implicit_type(i.opcode)
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
            Operand::Imm(imm) => line.raw_with(|o| push_imm(o, &imm)),
            Operand::Macro(m) => push_macro(line.out, &m),
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
                line.raw_with(|o| push_imm(o, &imm));
                line.s(":");
                line.s(imm.ty.syntax());
            }
            Operand::Reg(r) => self.reg_src(line, k, &r),
            Operand::Macro(m) => {
                line.s(src_mod_text(i.opcode, m.modifier));
                push_macro(line.out, &m);
            }
        }
        line.finish();
    }

    fn reg_src(&self, line: &mut Line, k: usize, r: &RegOperand) {
        let i = self.inst;
        if self.is_send() {
            let reg = r.addr;
            if let Addressing::Direct(reg) = reg {
                push_reg(line.out, &reg, false);
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
        if self.is_dpas() {
            // Whole registers; src2 names its subregister. No regions.
            if let Addressing::Direct(reg) = r.addr {
                push_reg(line.out, &reg, k == 2);
            }
            line.s(":");
            line.s(r.ty.syntax());
            return;
        }
        line.s(src_mod_text(i.opcode, r.modifier));
        match r.addr {
            Addressing::Direct(reg) => push_reg(line.out, &reg, true),
            Addressing::Indirect { addr_sub, offset } => push_indirect(line.out, addr_sub, offset),
        }
        let simplified = self.branchy() && syntax::simplified_branches(self.platform);
        let is_sync_null = i.opcode == Opcode::Sync && r.addr == Addressing::Direct(Reg::NULL);
        if self.branchy() || is_sync_null {
            // Implicit regions (and, on simplified-branch platforms, types).
        } else {
            push_region(line.out, &r.region);
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
        let target = syntax::target_pc(self.inst.opcode, self.pc, off);
        line.raw_with(|o| push_label(o, target));
        line.finish();
    }

    fn send_desc(&self, line: &mut Line, d: SendDesc, width8: bool) {
        line.start(cols::SEND_DESC);
        match d {
            SendDesc::Imm(v) => {
                line.raw_with(|o| push_hex(o, v as u64, if width8 { 8 } else { 0 }))
            }
            SendDesc::Reg(s) => {
                let _ = write!(line.out, "a0.{s}");
            }
        }
        line.finish();
    }

    fn opts(&self, line: &mut Line) {
        let i = self.inst;
        if !self.has_opts() {
            return;
        }
        line.s(" {");
        let mut first = true;
        let mut sep = |line: &mut Line| {
            if !first {
                line.s(",");
            }
            first = false;
        };
        // On branches the AccWrEn bit is BranchCtrl (shown, if at all, as `.b`).
        let hidden = if i.opcode.is_branch() {
            InstOpts::ACC_WR_EN
        } else {
            InstOpts::empty()
        };
        let shown = i.opts - hidden;
        for (o, n) in INST_OPT_NAMES {
            if shown.contains(*o) {
                sep(line);
                line.s(n);
            }
        }
        let sw = &i.swsb;
        if let Some((pipe, d)) = sw.dist {
            sep(line);
            line.s(pipe.prefix());
            line.s("@");
            push_dec(line.out, d as i64);
        }
        if let Some((n, mode)) = sw.token {
            sep(line);
            line.s("$");
            push_dec(line.out, n as i64);
            line.s(match mode {
                crate::model::TokenMode::Set => "",
                crate::model::TokenMode::Dst => ".dst",
                crate::model::TokenMode::Src => ".src",
            });
        }
        line.s("}");
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

    fn mnemonic(&self, m: &mut String) {
        let i = self.inst;
        m.push_str(i.opcode.mnemonic());
        match i.func {
            Subfunction::Math(f) => {
                m.push('.');
                m.push_str(f.syntax());
            }
            Subfunction::Sync(f) => {
                m.push('.');
                m.push_str(f.syntax());
            }
            Subfunction::BranchCtrl if syntax::shows_branch_ctrl(i.opcode) => m.push_str(".b"),
            Subfunction::BranchCtrl => {}
            Subfunction::Bfn(v) => {
                m.push('.');
                m.push_str(crate::model::bfn::expression(v));
            }
            Subfunction::Dpas { depth, repeat } => {
                m.push('.');
                push_dec(m, depth as i64);
                m.push('x');
                push_dec(m, repeat as i64);
            }
            Subfunction::None => {}
        }
        if let (Some(s), true) = (i.send, self.platform.has_swsb()) {
            m.push('.');
            m.push_str(crate::model::sfid::sfid_name(self.platform, s.sfid).unwrap_or("???"));
        }
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
                line.s("f");
                push_dec(line.out, i64::from(i.flag.num));
                line.s(".");
                push_dec(line.out, i64::from(i.flag.sub));
                line.s(p.ctrl.syntax());
            }
            line.s(")");
        }
        line.finish();
        line.s(" ");
        // Mnemonic and execution size.
        line.start(cols::OPCODE_EXEC);
        self.mnemonic(line.out);
        line.s(" ");
        if !syntax::implicit_exec(i.opcode) {
            line.s("(");
            push_dec(line.out, i.exec_size.channels() as i64);
            line.s("|M");
            push_dec(line.out, i.chan_offset as i64);
            line.s(")");
        }
        line.finish();
        line.s(" ");
        // Flag modifier.
        line.start(cols::FLAG_MOD);
        if let (Some(c), false) = (i.cond_mod, self.is_send()) {
            line.s("(");
            line.s(c.syntax());
            line.s(")f");
            push_dec(line.out, i.flag.num as i64);
            line.s(".");
            push_dec(line.out, i.flag.sub as i64);
        }
        line.finish();

        let mut targets = [0i32; 2];
        let mut n_targets = 0;
        for t in [i.branch.jip, i.branch.uip].into_iter().flatten() {
            targets[n_targets] = t;
            n_targets += 1;
        }
        let n_srcs = i.src_count() + n_targets;
        let has_opts = self.has_opts();
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

    /// True if `{...}` follows (AccWrEn on a branch is the hidden BranchCtrl bit).
    fn has_opts(&self) -> bool {
        let i = self.inst;
        let mut o = i.opts;
        if i.opcode.is_branch() {
            o -= InstOpts::ACC_WR_EN;
        }
        !o.is_empty() || !i.swsb.is_empty()
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
