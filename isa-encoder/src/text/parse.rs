//! Parses IGA-syntax text (what `iga64 -d` prints, and what `iga64 -a` reads) into the model.
//!
//! Errors carry 1-based line:column positions; nothing here panics on any input.

use platform::Platform;

use super::float;
use super::grf_operand::grf_operand;
use super::scan::{line_end, next_line, Tok};
use super::syntax;
use super::token_cache::{TokenCache, TokenKey};
use crate::error::AsmError;
use crate::model::name_eq;
use crate::model::sfid::sfid_from_name;
use crate::model::{
    bfn, Addressing, CondMod, DataType, DistPipe, ExecSize, FlagReg, Immediate, InstOpts,
    Instruction, MacroOperand, MathFn, MathMacroAcc, Opcode, Operand, PredCtrl, Predicate, Reg,
    RegFile, RegOperand, Region, SendDesc, SendInfo, Shape, SrcMod, Subfunction, Swsb, SyncFn,
    TokenMode, ARFS, DPAS_OPERAND_REGION, INST_OPT_NAMES,
};

type R<T> = Result<T, AsmError>;

fn err(line: usize, column: usize, message: impl Into<String>) -> AsmError {
    AsmError {
        line,
        column,
        message: message.into(),
    }
}

/// `s.split_once(c)` for an ASCII `c`, by a plain byte loop: operands are a few bytes long,
/// too short for a memchr search to pay off.
fn split1(s: &str, c: u8) -> Option<(&str, &str)> {
    let k = s.bytes().position(|b| b == c)?;
    Some((s.get(..k)?, s.get(k + 1..)?))
}

/// `s.rsplit_once(c)` for an ASCII `c`, as [`split1`].
fn rsplit1(s: &str, c: u8) -> Option<(&str, &str)> {
    let k = s.bytes().rposition(|b| b == c)?;
    Some((s.get(..k)?, s.get(k + 1..)?))
}

/// A decimal `u8` (digits only: no sign), without the generic `str::parse` machinery, which
/// registers, subregisters, regions and execution sizes would otherwise each go through.
fn dec_u8(s: &str) -> Option<u8> {
    if s.is_empty() {
        return None;
    }
    let mut v = 0u32;
    for c in s.bytes() {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v * 10 + u32::from(d);
        if v > 255 {
            return None;
        }
    }
    Some(v as u8)
}

fn parse_u32(s: &str) -> Option<u32> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u32::from_str_radix(h, 16).ok()
    } else {
        s.parse().ok()
    }
}

/// A register name with optional number and subregister: `r12.3`, `acc0`, `null`, `sp.0`.
fn parse_reg(s: &str) -> Option<Reg> {
    let (name_num, sub) = match split1(s, b'.') {
        Some((a, b)) => (a, Some(dec_u8(b)?)),
        None => (s, None),
    };
    let alpha = name_num.bytes().take_while(u8::is_ascii_alphabetic).count();
    let (name, digits) = name_num.split_at(alpha);
    let num = if digits.is_empty() {
        0
    } else {
        dec_u8(digits)?
    };
    let file = if name == "r" {
        if digits.is_empty() {
            return None;
        }
        RegFile::Grf
    } else {
        let a = ARFS.iter().find(|a| name_eq(a.name, name))?;
        if num > 0xF {
            return None;
        }
        a.file
    };
    Some(Reg {
        file,
        num,
        sub: sub.unwrap_or(0),
    })
}

fn parse_region(s: &str) -> Option<Region> {
    let inner = s.strip_prefix('<')?.strip_suffix('>')?;
    let num = dec_u8;
    if let Some((v, rest)) = split1(inner, b';') {
        if let Some((w, h)) = split1(rest, b',') {
            Some(Region::full(num(v)?, num(w)?, num(h)?))
        } else {
            Some(Region::vh(num(v)?, num(rest)?))
        }
    } else if let Some((w, h)) = split1(inner, b',') {
        Some(Region::wh(num(w)?, num(h)?))
    } else {
        Some(Region::h(num(inner)?))
    }
}

/// Splits `body:type` at the last ':' when what follows is a type name.
fn split_type(s: &str) -> (&str, Option<DataType>) {
    if let Some((body, t)) = rsplit1(s, b':') {
        if let Some(ty) = DataType::from_syntax(t) {
            return (body, Some(ty));
        }
    }
    (s, None)
}

fn parse_float_text(s: &str) -> Option<f64> {
    let (neg, t) = match s.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, s),
    };
    let v = if t == "inf" {
        f64::INFINITY
    } else {
        if !t.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
            return None;
        }
        t.parse::<f64>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// `qnan(0x..)` / `snan(0x..)` with optional '-': (sign, quiet, payload).
fn parse_nan(s: &str) -> Option<(bool, bool, u64)> {
    let (neg, t) = match s.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, s),
    };
    let (quiet, rest) = if let Some(r) = t.strip_prefix("qnan(") {
        (true, r)
    } else {
        (false, t.strip_prefix("snan(")?)
    };
    let hex = rest.strip_suffix(')')?;
    let v = u64::from_str_radix(hex.strip_prefix("0x")?, 16).ok()?;
    Some((neg, quiet, v))
}

fn parse_int(s: &str) -> Option<i128> {
    let (neg, t) = match s.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, s),
    };
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()?
    } else {
        if !t.bytes().all(|c| c.is_ascii_digit()) || t.is_empty() {
            return None;
        }
        t.parse::<i128>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// An immediate's bits for its type; `None` if the text is not a value of that type.
fn imm_bits(text: &str, ty: DataType) -> Option<u64> {
    let hex = text.starts_with("0x") || text.starts_with("0X");
    match ty {
        DataType::F | DataType::Df | DataType::Hf if !hex => {
            if let Some((neg, quiet, payload)) = parse_nan(text) {
                return Some(match ty {
                    DataType::F => {
                        (u64::from(neg) << 31)
                            | 0x7F80_0000
                            | (u64::from(quiet) << 22)
                            | (payload & 0x3F_FFFF)
                    }
                    DataType::Df => {
                        (u64::from(neg) << 63)
                            | 0x7FF0_0000_0000_0000
                            | (u64::from(quiet) << 51)
                            | (payload & ((1 << 51) - 1))
                    }
                    _ => {
                        (u64::from(neg) << 15)
                            | 0x7C00
                            | (u64::from(quiet) << 9)
                            | (payload & 0x1FF)
                    }
                });
            }
            let v = parse_float_text(text)?;
            Some(match ty {
                DataType::F => (v as f32).to_bits() as u64,
                DataType::Df => v.to_bits(),
                _ => float::f32_to_half(v as f32)? as u64,
            })
        }
        _ => {
            let v = parse_int(text)?;
            let bits = ty.bits().clamp(16, 64);
            let (lo, hi) = if bits == 64 {
                (i64::MIN as i128, u64::MAX as i128)
            } else {
                (-(1i128 << (bits - 1)), (1i128 << bits) - 1)
            };
            if v < lo || v > hi {
                return None;
            }
            let mask = if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            Some((v as i64 as u64) & mask)
        }
    }
}

/// What the predication token sets, before the instruction exists.
#[derive(Default)]
struct Pred {
    no_mask: bool,
    predicate: Option<Predicate>,
    flag: FlagReg,
}

/// Token kinds for [`TokenKey`]: what a token was parsed as.
const KIND_DST: u8 = 0;
const KIND_SRC: u8 = 1;
const KIND_LOGIC_SRC: u8 = 2;
const KIND_MNEMONIC: u8 = 3;
const KIND_EXEC: u8 = 4;
const KIND_OPTIONS: u8 = 5;
const KIND_SEND_REG: u8 = 6;
const KIND_DESC: u8 = 7;

/// Parses of single tokens, kept for the rest of the text (see [`super::token_cache`]).
struct Caches {
    /// Destinations of every form, without `(sat)` ([`LineParser::dst`]'s).
    dst: TokenCache<Operand>,
    /// Sources of every form ([`LineParser::src`]'s), logic or not.
    src: TokenCache<Operand>,
    /// A mnemonic's bare instruction ([`LineParser::mnemonic`]'s).
    mnemonic: TokenCache<Instruction>,
    /// An execution size token's size and channel offset.
    exec: TokenCache<(ExecSize, u8)>,
    /// An options token's options and SWSB annotations.
    options: TokenCache<(InstOpts, Swsb)>,
    /// A send's payload register (with its length) and descriptors.
    send_reg: TokenCache<(Operand, Option<u8>)>,
    desc: TokenCache<SendDesc>,
    /// False: no token is looked up or kept (every token parsed in full).
    on: bool,
}

impl Caches {
    /// Tables for a text of `len` bytes (an instruction line is about 90), used if `on`.
    fn for_text(len: usize, on: bool) -> Caches {
        let len = if on { len } else { 0 };
        Caches {
            on,
            dst: TokenCache::for_text(len, 128, 4, 13),
            src: TokenCache::for_text(len, 64, 4, 14),
            mnemonic: TokenCache::for_text(len, 2048, 4, 9),
            exec: TokenCache::for_text(len, 8192, 3, 6),
            options: TokenCache::for_text(len, 2048, 4, 9),
            send_reg: TokenCache::for_text(len, 4096, 4, 9),
            desc: TokenCache::for_text(len, 1024, 4, 11),
        }
    }
}

struct LineParser<'a, 't> {
    platform: Platform,
    line: usize,
    toks: &'t [Tok<'a>],
    pos: usize,
    /// The whole text the tokens are slices of.
    all: &'a [u8],
    caches: &'t mut Caches,
}

impl<'a> LineParser<'a, '_> {
    #[inline]
    fn peek(&self) -> Option<Tok<'a>> {
        self.toks.get(self.pos).copied()
    }
    #[inline]
    fn next(&mut self) -> Option<Tok<'a>> {
        let t = self.peek();
        self.pos += 1;
        t
    }
    /// The memo key of a token parsed as `kind`, if the token memo is on and can hold it.
    #[inline(always)]
    fn key(&self, token: &str, kind: u8) -> Option<TokenKey> {
        if self.caches.on {
            TokenKey::new(self.all, token, kind)
        } else {
            None
        }
    }

    fn e(&self, t: Tok, msg: impl Into<String>) -> AsmError {
        err(self.line, t.col, msg)
    }

    #[inline]
    fn predication(&mut self, i: &mut Pred) -> R<()> {
        let Some(t) = self.peek() else { return Ok(()) };
        if let [b'(', b'W', b')'] = t.text.as_bytes() {
            // The common case, without the general path's splitting.
            self.pos += 1;
            i.no_mask = true;
            return Ok(());
        }
        let Some(inner) = t.text.strip_prefix('(').and_then(|s| s.strip_suffix(')')) else {
            return Ok(());
        };
        self.pos += 1;
        let mut rest = inner;
        if let Some(r) = rest.strip_prefix('W') {
            i.no_mask = true;
            rest = r.strip_prefix('&').unwrap_or(r);
            if rest.is_empty() {
                return Ok(());
            }
        }
        let invert = if let Some(r) = rest.strip_prefix('~') {
            rest = r;
            true
        } else {
            false
        };
        let body = rest
            .strip_prefix('f')
            .ok_or_else(|| self.e(t, format!("bad predication '{}'", t.text)))?;
        let mut parts = body.splitn(3, '.');
        let num = parts.next().and_then(dec_u8);
        let sub = parts.next().and_then(dec_u8);
        let ctrl_txt = parts.next().map(|p| format!(".{p}")).unwrap_or_default();
        let (Some(num), Some(sub)) = (num, sub) else {
            return Err(self.e(t, format!("bad flag register in '{}'", t.text)));
        };
        let ctrl = PredCtrl::from_syntax(&ctrl_txt)
            .ok_or_else(|| self.e(t, format!("unknown predicate control '{ctrl_txt}'")))?;
        i.flag = FlagReg { num, sub };
        i.predicate = Some(Predicate { ctrl, invert });
        Ok(())
    }

    #[inline]
    fn mnemonic(&mut self) -> R<Instruction> {
        let t = self
            .next()
            .ok_or_else(|| err(self.line, 1, "expected an instruction"))?;
        let key = self.key(t.text, KIND_MNEMONIC);
        if let Some(i) = key.as_ref().and_then(|k| self.caches.mnemonic.get(k)) {
            return Ok(i);
        }
        let i = self.mnemonic_of(t)?;
        if let Some(k) = key {
            self.caches.mnemonic.put(k, i);
        }
        Ok(i)
    }

    /// The bare instruction a mnemonic token (with its subfunction) stands for.
    fn mnemonic_of(&self, t: Tok) -> R<Instruction> {
        let (base, sub) = match split1(t.text, b'.') {
            Some((b, s)) => (b, Some(s)),
            None => (t.text, None),
        };
        let op = Opcode::from_mnemonic(self.platform, base)
            .ok_or_else(|| self.e(t, format!("unknown mnemonic '{base}' on {}", self.platform)))?;
        let mut i = Instruction::new(op);
        if let Some(sub) = sub {
            i.func = match op {
                Opcode::Math => Subfunction::Math(
                    MathFn::from_syntax(sub)
                        .ok_or_else(|| self.e(t, format!("unknown math function '{sub}'")))?,
                ),
                Opcode::Sync => Subfunction::Sync(
                    SyncFn::from_syntax(sub)
                        .ok_or_else(|| self.e(t, format!("unknown sync function '{sub}'")))?,
                ),
                Opcode::Bfn => Subfunction::Bfn(
                    bfn::from_expression(sub)
                        .or_else(|| {
                            sub.strip_prefix("0x")
                                .and_then(|h| u8::from_str_radix(h, 16).ok())
                        })
                        .ok_or_else(|| self.e(t, format!("unknown bfn function '{sub}'")))?,
                ),
                Opcode::Send | Opcode::Sendc => {
                    let sfid = sfid_from_name(self.platform, sub).ok_or_else(|| {
                        self.e(t, format!("unknown SFID '{sub}' on {}", self.platform))
                    })?;
                    i.send = Some(SendInfo {
                        sfid,
                        desc: SendDesc::Imm(0),
                        ex_desc: SendDesc::Imm(0),
                        src1_len: None,
                    });
                    Subfunction::None
                }
                Opcode::Dpas | Opcode::Dpasw => {
                    let dims = sub
                        .split_once('x')
                        .and_then(|(d, r)| Some((dec_u8(d)?, dec_u8(r)?)));
                    let (depth, repeat) = dims.ok_or_else(|| {
                        self.e(t, format!("expected '{base}.DEPTHxREPEAT', not '.{sub}'"))
                    })?;
                    Subfunction::Dpas { depth, repeat }
                }
                _ if syntax::shows_branch_ctrl(op) && sub == "b" => Subfunction::BranchCtrl,
                _ => return Err(self.e(t, format!("'{base}' takes no subfunction '.{sub}'"))),
            };
        } else if matches!(
            op,
            Opcode::Math | Opcode::Sync | Opcode::Bfn | Opcode::Dpas | Opcode::Dpasw
        ) {
            return Err(self.e(t, format!("'{base}' needs a subfunction")));
        }
        Ok(i)
    }

    #[inline]
    fn exec_info(&mut self, i: &mut Instruction) -> R<()> {
        let Some(t) = self.peek() else { return Ok(()) };
        // A token seen before as an execution size is one.
        let key = self.key(t.text, KIND_EXEC);
        if let Some((size, offset)) = key.as_ref().and_then(|k| self.caches.exec.get(k)) {
            self.pos += 1;
            i.exec_size = size;
            i.chan_offset = offset;
            return Ok(());
        }
        // Byte by byte: `(` size `|M` offset `)`.
        let [b'(', inner @ .., b')'] = t.text.as_bytes() else {
            return Ok(());
        };
        let Some(bar) = inner.iter().position(|&c| c == b'|') else {
            return Ok(());
        };
        self.pos += 1;
        // Byte `bar + 1` is the '|' and the last one the ')', both ASCII: char boundaries.
        let n = t.text.get(1..bar + 1).unwrap_or_default();
        let m = t.text.get(bar + 2..t.text.len() - 1).unwrap_or_default();
        i.exec_size = dec_u8(n)
            .and_then(|n| ExecSize::from_channels(n.into()))
            .ok_or_else(|| self.e(t, format!("bad execution size '{n}'")))?;
        i.chan_offset = m
            .strip_prefix('M')
            .and_then(dec_u8)
            .filter(|v| v % 4 == 0 && *v <= 28)
            .ok_or_else(|| self.e(t, format!("bad channel offset '{m}'")))?;
        if let Some(k) = key {
            self.caches.exec.put(k, (i.exec_size, i.chan_offset));
        }
        Ok(())
    }

    #[inline]
    fn flag_modifier(&mut self, i: &mut Instruction) -> R<()> {
        let Some(t) = self.peek() else { return Ok(()) };
        let Some(rest) = t.text.strip_prefix('(') else {
            return Ok(());
        };
        let Some((c, flag)) = split1(rest, b')') else {
            return Ok(());
        };
        let Some(cm) = CondMod::from_syntax(c) else {
            return Ok(());
        };
        self.pos += 1;
        let f = flag.strip_prefix('f').and_then(|f| split1(f, b'.'));
        let (Some(num), Some(sub)) = (f.and_then(|f| dec_u8(f.0)), f.and_then(|f| dec_u8(f.1)))
        else {
            return Err(self.e(t, format!("bad flag register in '{}'", t.text)));
        };
        i.cond_mod = Some(cm);
        i.flag = FlagReg { num, sub };
        Ok(())
    }

    /// The `{...}` token: its options and SWSB annotations, remembered per token text.
    fn options(&mut self, t: Tok, i: &mut Instruction) -> R<()> {
        let key = self.key(t.text, KIND_OPTIONS);
        let (opts, swsb) = match key.as_ref().and_then(|k| self.caches.options.get(k)) {
            Some(hit) => hit,
            None => {
                // What the token sets, on an instruction that has none of it yet.
                let mut fresh = Instruction::new(i.opcode);
                self.options_into(t, &mut fresh)?;
                if let Some(k) = key {
                    self.caches.options.put(k, (fresh.opts, fresh.swsb));
                }
                (fresh.opts, fresh.swsb)
            }
        };
        i.opts |= opts;
        if swsb.token.is_some() {
            i.swsb.token = swsb.token;
        }
        if swsb.dist.is_some() {
            i.swsb.dist = swsb.dist;
        }
        Ok(())
    }

    fn options_into(&self, t: Tok, i: &mut Instruction) -> R<()> {
        let inner = t
            .text
            .strip_prefix('{')
            .and_then(|s| s.strip_suffix('}'))
            .ok_or_else(|| self.e(t, "unterminated '{'"))?;
        let mut rest = Some(inner);
        while let Some(list) = rest {
            let part = match split1(list, b',') {
                Some((part, more)) => {
                    rest = Some(more);
                    part
                }
                None => {
                    rest = None;
                    list
                }
            };
            let part = part.trim_ascii();
            if !part.is_empty() {
                self.option(t, part, i)?;
            }
        }
        Ok(())
    }

    /// One option of `{...}`: SWSB annotations (`$3`, `$3.dst`, `F@1`) or an option name.
    fn option(&self, t: Tok, part: &str, i: &mut Instruction) -> R<()> {
        if let Some(tok) = part.strip_prefix('$') {
            let (n, mode) = match split1(tok, b'.') {
                Some((n, "dst")) => (n, TokenMode::Dst),
                Some((n, "src")) => (n, TokenMode::Src),
                None => (tok, TokenMode::Set),
                _ => return Err(self.e(t, format!("bad SBID token '{part}'"))),
            };
            let n = dec_u8(n).ok_or_else(|| self.e(t, format!("bad SBID token '{part}'")))?;
            i.swsb.token = Some((n, mode));
        } else if let Some((p, d)) = split1(part, b'@') {
            let pipe = [
                DistPipe::Any,
                DistPipe::All,
                DistPipe::Float,
                DistPipe::Int,
                DistPipe::Long,
                DistPipe::Math,
            ]
            .into_iter()
            .find(|x| name_eq(x.prefix(), p))
            .ok_or_else(|| self.e(t, format!("bad distance pipe '{p}@'")))?;
            let d =
                dec_u8(d).ok_or_else(|| self.e(t, format!("bad register distance '{part}'")))?;
            i.swsb.dist = Some((pipe, d));
        } else if let Some((o, _)) = INST_OPT_NAMES.iter().find(|(_, n)| name_eq(n, part)) {
            i.opts |= *o;
        } else {
            return Err(self.e(t, format!("unknown instruction option '{part}'")));
        }
        Ok(())
    }

    /// A register operand body (no modifier): direct or indirect, region, type.
    /// `body` is the operand without modifier or type; `ty` its type, if it had one.
    fn reg_operand(&self, t: Tok, body: &str, ty: Option<DataType>, dst: bool) -> R<RegOperand> {
        let (reg_txt, region_txt) = match body.bytes().position(|b| b == b'<') {
            Some(k) => (&body[..k], Some(&body[k..])),
            None => (body, None),
        };
        let addr = if let Some(ind) = reg_txt.strip_prefix("r[") {
            let ind = ind
                .strip_suffix(']')
                .ok_or_else(|| self.e(t, "unterminated indirect register"))?;
            let (a, off) = match split1(ind, b',') {
                Some((a, o)) => (a, o.parse::<i16>().ok()),
                None => (ind, Some(0)),
            };
            let sub = a.strip_prefix("a0.").and_then(dec_u8);
            let (Some(addr_sub), Some(offset)) = (sub, off) else {
                return Err(self.e(t, format!("bad indirect register '{reg_txt}'")));
            };
            Addressing::Indirect { addr_sub, offset }
        } else {
            Addressing::Direct(
                parse_reg(reg_txt).ok_or_else(|| self.e(t, format!("bad register '{reg_txt}'")))?,
            )
        };
        let region = match region_txt {
            Some(r) => parse_region(r).ok_or_else(|| self.e(t, format!("bad region '{r}'")))?,
            None if dst => Region::h(1),
            None => Region::full(0, 1, 0),
        };
        let ty = ty.ok_or_else(|| self.e(t, format!("operand '{}' needs a type", t.text)))?;
        Ok(RegOperand {
            addr,
            region,
            ty,
            modifier: SrcMod::None,
        })
    }

    /// A math-macro operand body (no modifier), `r30.mme2:df` / `r30.nomme:df`, if it is one.
    fn macro_operand(&self, t: Tok, body: &str, ty: Option<DataType>) -> R<Option<MacroOperand>> {
        let Some((reg, acc)) = split1(body, b'.') else {
            return Ok(None);
        };
        let Some(acc) = MathMacroAcc::from_syntax(acc) else {
            return Ok(None);
        };
        let grf = reg
            .strip_prefix('r')
            .and_then(dec_u8)
            .ok_or_else(|| self.e(t, format!("bad math-macro register '{reg}'")))?;
        let ty = ty.ok_or_else(|| self.e(t, format!("operand '{}' needs a type", t.text)))?;
        Ok(Some(MacroOperand {
            grf,
            acc,
            ty,
            modifier: SrcMod::None,
        }))
    }

    #[inline(always)]
    fn dst(&mut self, t: Tok, i: &mut Instruction) -> R<Operand> {
        let body = match t.text.strip_prefix("(sat)") {
            Some(b) => {
                i.saturate = true;
                b
            }
            None => t.text,
        };
        // What follows `(sat)` is read alike with or without it: remembered per its text.
        let key = self.key(body, KIND_DST);
        if let Some(o) = key.as_ref().and_then(|k| self.caches.dst.get(k)) {
            return Ok(o);
        }
        let o = self.dst_body(t, body)?;
        if let Some(k) = key {
            self.caches.dst.put(k, o);
        }
        Ok(o)
    }

    /// A destination without `(sat)`.
    fn dst_body(&self, t: Tok, body: &str) -> R<Operand> {
        if let Some(r) = grf_operand(body, true, false) {
            return Ok(Operand::Reg(r));
        }
        let (body, ty) = split_type(body);
        if let Some(m) = self.macro_operand(t, body, ty)? {
            return Ok(Operand::Macro(m));
        }
        Ok(Operand::Reg(self.reg_operand(t, body, ty, true)?))
    }

    /// A source operand, remembered per token text (a pure function of it and `logic`).
    #[inline(always)]
    fn src(&mut self, t: Tok, logic: bool) -> R<Operand> {
        let kind = if logic { KIND_LOGIC_SRC } else { KIND_SRC };
        let key = self.key(t.text, kind);
        if let Some(o) = key.as_ref().and_then(|k| self.caches.src.get(k)) {
            return Ok(o);
        }
        let o = match grf_operand(t.text, false, logic) {
            Some(r) => Operand::Reg(r),
            None => self.src_general(t, logic)?,
        };
        if let Some(k) = key {
            self.caches.src.put(k, o);
        }
        Ok(o)
    }

    /// A source operand of any form (the common direct GRF one is [`grf_operand`]'s).
    fn src_general(&self, t: Tok, logic: bool) -> R<Operand> {
        let text = t.text;
        // Immediate?
        let (body, ty) = split_type(text);
        let first = body.as_bytes().first().copied().unwrap_or(0);
        let looks_imm = first.is_ascii_digit()
            || (first == b'-' && !body.starts_with("-r") && !body.starts_with("-(abs)"))
            || body.starts_with("inf")
            || body.starts_with("qnan")
            || body.starts_with("snan");
        if looks_imm && !body.bytes().any(|b| b == b'<') {
            let ty = ty.ok_or_else(|| self.e(t, format!("immediate '{text}' needs a type")))?;
            let bits = imm_bits(body, ty)
                .ok_or_else(|| self.e(t, format!("'{body}' is not a :{} value", ty.syntax())))?;
            return Ok(Operand::Imm(Immediate { bits, ty }));
        }
        // The type was split off the end; the modifier is at the start.
        let (modifier, rest) = if let Some(r) = body.strip_prefix("-(abs)") {
            (SrcMod::NegAbs, r)
        } else if let Some(r) = body.strip_prefix("(abs)") {
            (SrcMod::Abs, r)
        } else if let Some(r) = body.strip_prefix('-') {
            (SrcMod::Neg, r)
        } else if let Some(r) = body.strip_prefix('~') {
            if !logic {
                return Err(self.e(t, "'~' is only for logic instructions"));
            }
            (SrcMod::Neg, r)
        } else {
            (SrcMod::None, body)
        };
        if let Some(m) = self.macro_operand(t, rest, ty)? {
            return Ok(Operand::Macro(MacroOperand { modifier, ..m }));
        }
        let mut r = self.reg_operand(t, rest, ty, false)?;
        r.modifier = modifier;
        Ok(Operand::Reg(r))
    }

    /// [`Self::send_reg_of`], remembered per token text.
    fn send_reg(&mut self, t: Tok) -> R<(Operand, Option<u8>)> {
        let key = self.key(t.text, KIND_SEND_REG);
        if let Some(hit) = key.as_ref().and_then(|k| self.caches.send_reg.get(k)) {
            return Ok(hit);
        }
        let r = self.send_reg_of(t)?;
        if let Some(k) = key {
            self.caches.send_reg.put(k, r);
        }
        Ok(r)
    }

    /// [`Self::desc_of`], remembered per token text.
    fn desc(&mut self, t: Tok) -> R<SendDesc> {
        let key = self.key(t.text, KIND_DESC);
        if let Some(hit) = key.as_ref().and_then(|k| self.caches.desc.get(k)) {
            return Ok(hit);
        }
        let d = self.desc_of(t)?;
        if let Some(k) = key {
            self.caches.desc.put(k, d);
        }
        Ok(d)
    }

    /// A send payload register: `r12`, `null`, `r12:2` (12p71 src1 length), `r6:w` (Gen9 type).
    fn send_reg_of(&self, t: Tok) -> R<(Operand, Option<u8>)> {
        let (body, ty) = split_type(t.text);
        let (body, len) = match rsplit1(body, b':') {
            Some((b, l)) => (
                b,
                Some(
                    l.parse::<u8>()
                        .map_err(|_| self.e(t, format!("bad payload length '{l}'")))?,
                ),
            ),
            None => (body, None),
        };
        let reg = parse_reg(body).ok_or_else(|| self.e(t, format!("bad register '{body}'")))?;
        Ok((
            Operand::direct(reg, Region::h(1), ty.unwrap_or(DataType::Ud)),
            len,
        ))
    }

    fn desc_of(&self, t: Tok) -> R<SendDesc> {
        if let Some(sub) = t.text.strip_prefix("a0.") {
            return sub
                .parse::<u8>()
                .map(SendDesc::Reg)
                .map_err(|_| self.e(t, format!("bad descriptor register '{}'", t.text)));
        }
        parse_u32(t.text)
            .map(SendDesc::Imm)
            .ok_or_else(|| self.e(t, format!("bad descriptor '{}'", t.text)))
    }

    #[inline]
    fn expect(&mut self, what: &str) -> R<Tok<'a>> {
        match self.peek() {
            Some(t) if t.text.as_bytes().first() != Some(&b'{') => {
                self.pos += 1;
                Ok(t)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// The error for a missing operand: at the options token or after the line's last token.
    #[cold]
    fn expected(&self, what: &str) -> AsmError {
        match self.peek() {
            Some(t) => self.e(t, format!("expected {what}")),
            None => err(
                self.line,
                self.toks.last().map_or(1, |t| t.col + t.text.len()),
                format!("expected {what}"),
            ),
        }
    }

    fn operands(&mut self, p: &mut LineInst<'a>) -> R<()> {
        let LineInst {
            inst: i, jip, uip, ..
        } = p;
        let op = i.opcode;
        match op.shape() {
            Shape::Nullary => {}
            Shape::Unary | Shape::Binary | Shape::Ternary => {
                let t = self.expect("a destination")?;
                i.dst = Some(self.dst(t, i)?);
                let n = match (op.shape(), i.func) {
                    (Shape::Unary, _) => 1,
                    (Shape::Binary, Subfunction::Math(f)) if !f.is_binary() => 1,
                    (Shape::Binary, _) => 2,
                    _ => 3,
                };
                let dpas = matches!(op, Opcode::Dpas | Opcode::Dpasw);
                if dpas {
                    i.dst = Some(self.dpas_operand(t, i.dst)?);
                }
                for k in 0..n {
                    let t = self.expect(["source 0", "source 1", "source 2"][k])?;
                    let mut s = self.src(t, syntax::is_logic(op))?;
                    if dpas {
                        s = self.dpas_operand(t, Some(s))?;
                    }
                    if let Operand::Imm(imm) = &mut s {
                        // A 16-bit immediate in a 32-bit field is written twice (as iga64 does).
                        if imm.ty.bits() == 16 && op.shape() != Shape::Ternary {
                            imm.bits |= imm.bits << 16;
                        }
                    }
                    i.src[k] = Some(s);
                }
            }
            Shape::Send => self.send_operands(i)?,
            Shape::Branch => {
                while let Some(t) = self.peek() {
                    if t.text.starts_with('{') {
                        break;
                    }
                    self.pos += 1;
                    if let Some(reg) = parse_reg(t.text) {
                        let o = Operand::direct(reg, Region::h(1), DataType::Ud);
                        if matches!(op, Opcode::Call | Opcode::Calla) && i.dst.is_none() {
                            i.dst = Some(o);
                        } else {
                            i.src[0] = Some(o);
                        }
                    } else if jip.is_none() {
                        *jip = Some((t.text, t.col));
                    } else if uip.is_none() {
                        *uip = Some((t.text, t.col));
                    } else {
                        return Err(self.e(t, "too many branch targets"));
                    }
                }
            }
            Shape::Sync | Shape::Wait => {
                let t = self.expect("a source")?;
                i.src[0] = Some(
                    if let Some(set) = t.text.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
                        let mut mask = 0u64;
                        for id in set.split(',') {
                            let n = id
                                .strip_prefix('$')
                                .and_then(|n| n.parse::<u32>().ok())
                                .filter(|n| *n < 32)
                                .ok_or_else(|| self.e(t, format!("bad SBID '{id}'")))?;
                            mask |= 1 << n;
                        }
                        Operand::Imm(Immediate {
                            bits: mask,
                            ty: DataType::Ud,
                        })
                    } else if t.text == "null" {
                        Operand::direct(Reg::NULL, Region::full(0, 1, 0), DataType::Ub)
                    } else {
                        self.src(t, false)?
                    },
                );
            }
        }
        Ok(())
    }

    /// A dpas operand: a plain register without region (`r10:f`, `r40.2:hf`).
    fn dpas_operand(&self, t: Tok, op: Option<Operand>) -> R<Operand> {
        match op {
            Some(Operand::Reg(r)) if r.modifier == SrcMod::None && !t.text.contains('<') => {
                Ok(Operand::Reg(RegOperand {
                    region: DPAS_OPERAND_REGION,
                    ..r
                }))
            }
            _ => Err(self.e(t, "dpas operands are registers without region or modifier")),
        }
    }

    fn send_operands(&mut self, i: &mut Instruction) -> R<()> {
        let gen12 = self.platform.has_swsb();
        let t = self.expect("a send destination")?;
        let (dst, _) = self.send_reg(t)?;
        i.dst = Some(dst);
        let t = self.expect("send source 0")?;
        i.src[0] = Some(self.send_reg(t)?.0);
        let mut src1_len = None;
        if gen12 || matches!(i.opcode, Opcode::Sends | Opcode::Sendsc) {
            let t = self.expect("send source 1")?;
            let (s1, len) = self.send_reg(t)?;
            i.src[1] = Some(s1);
            src1_len = len;
        }
        let t = self.expect("an extended descriptor")?;
        let ex_desc = self.desc(t)?;
        let t = self.expect("a descriptor")?;
        let desc = self.desc(t)?;
        let sfid = match (i.send, ex_desc) {
            (Some(s), _) => s.sfid,
            (None, SendDesc::Imm(x)) => (x & 0xF) as u8,
            (None, SendDesc::Reg(_)) => 0,
        };
        i.send = Some(SendInfo {
            sfid,
            desc,
            ex_desc,
            src1_len,
        });
        Ok(())
    }
}

fn is_label_def(s: &str) -> Option<&str> {
    let name = s.strip_suffix(':')?;
    let ok = !name.is_empty()
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.')
        && !name.as_bytes()[0].is_ascii_digit();
    ok.then_some(name)
}

/// One instruction line, its branch targets still label names (with their columns), borrowed
/// from the text.
#[derive(Debug, Clone)]
pub struct LineInst<'t> {
    pub inst: Instruction,
    pub jip: Option<(&'t str, usize)>,
    pub uip: Option<(&'t str, usize)>,
    pub line: usize,
}

/// What the caller of [`parse_lines`] says of a line before it is parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// The caller has dealt with the line (from a memo of an earlier equal line): skip it.
    Done,
    /// Parse it.
    Parse,
    /// Parse it and every line after it without asking (and without line texts for `inst`).
    StopAsking,
}

/// Parses `text` line by line without keeping it: `label(name, line, column)` for each label
/// definition, `inst` for each instruction, in text order. Stops at the first error, its own or
/// one a callback returns.
///
/// Before a line is parsed, `known(text, line)` is offered its whole text (without the
/// newline), until it answers [`Known::StopAsking`]. `inst` gets the same text along with the
/// instruction, or `None` when the line also defines labels (or after `StopAsking`).
///
/// `token_memo`: whether the parses of single tokens are remembered by their bytes for the
/// rest of the text (the result is the same either way; off, each token is parsed in full).
pub fn parse_lines<'t>(
    platform: Platform,
    text: &'t str,
    token_memo: bool,
    mut label: impl FnMut(&'t str, usize, usize) -> R<()>,
    mut inst: impl FnMut(&LineInst<'t>, Option<&'t str>) -> R<()>,
    mut known: impl FnMut(&'t str, usize) -> Known,
) -> R<()> {
    let mut line_toks = Vec::new();
    let mut caches = Caches::for_text(text.len(), token_memo);
    let (mut at, mut line_no) = (0, 0);
    let mut asking = true;
    while at < text.len() {
        line_no += 1;
        let mut key = None;
        if asking {
            let end = line_end(text.as_bytes(), at);
            // Lines start after a '\n' and end at one (or at the end): on char boundaries.
            let whole = text.get(at..end).unwrap_or_default();
            match known(whole, line_no) {
                Known::Done => {
                    at = (end + 1).min(text.len());
                    continue;
                }
                Known::Parse => key = Some(whole),
                Known::StopAsking => asking = false,
            }
        }
        at = next_line(text, at, &mut line_toks);
        let mut toks = &line_toks[..];
        // Label definitions (possibly followed by an instruction).
        while let Some(name) = toks.first().and_then(|t| is_label_def(t.text)) {
            label(name, line_no, toks[0].col)?;
            toks = &toks[1..];
            key = None;
        }
        if toks.is_empty() {
            continue;
        }
        let mut lp = LineParser {
            platform,
            line: line_no,
            toks,
            pos: 0,
            all: text.as_bytes(),
            caches: &mut caches,
        };
        let mut pre = Pred::default();
        lp.predication(&mut pre)?;
        // The instruction is built in place, in the line that is handed on: an `Instruction`
        // is large enough for its copies to show in a profile.
        let mut p = LineInst {
            inst: lp.mnemonic()?,
            jip: None,
            uip: None,
            line: line_no,
        };
        let i = &mut p.inst;
        i.no_mask = pre.no_mask;
        i.predicate = pre.predicate;
        i.flag = pre.flag;
        lp.exec_info(i)?;
        lp.flag_modifier(i)?;
        if i.opcode == Opcode::Sync {
            // The implicit null destination, as encoded.
            i.dst = None;
        }
        lp.operands(&mut p)?;
        let i = &mut p.inst;
        if let Some(t) = lp.next() {
            if t.text.starts_with('{') {
                lp.options(t, i)?;
                if let Some(extra) = lp.next() {
                    return Err(lp.e(extra, format!("unexpected '{}'", extra.text)));
                }
            } else {
                return Err(lp.e(t, format!("unexpected '{}'", t.text)));
            }
        }
        if !platform.has_swsb() && i.swsb != Swsb::default() {
            return Err(err(
                line_no,
                1,
                format!("no SWSB annotations on {platform}"),
            ));
        }
        inst(&p, key)?;
    }
    Ok(())
}

/// The error for a label defined twice.
pub fn label_defined_twice(name: &str, line: usize, column: usize) -> AsmError {
    err(line, column, format!("label '{name}' defined twice"))
}

/// The error for a branch to a label nowhere defined.
pub fn undefined_label(name: &str, line: usize, column: usize) -> AsmError {
    err(line, column, format!("undefined label '{name}'"))
}

/// Byte size of an instruction in the kernel.
pub fn inst_size(i: &Instruction) -> u32 {
    if i.opts.contains(InstOpts::COMPACTED) {
        8
    } else {
        16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every operand text the one-pass GRF reader accepts reads the same through the general
    /// parser, for sources (logic or not) and destinations.
    #[test]
    fn grf_fast_path_agrees_with_the_general_parser() {
        let regs = [
            "r0", "r12", "r127", "r255", "r256", "r1.3", "r07.015", "r", "r.1",
        ];
        let regions = [
            "",
            "<1>",
            "<0;1,0>",
            "<8;8,1>",
            "<4;1>",
            "<1,0>",
            "<16;16,1",
            "<1;2,3,4>",
            "<x>",
        ];
        let types = [":f", ":ud", ":hf", ":tf32", ":q", "", ":", ":zz", ":f:f"];
        let mods = ["", "-", "~", "(abs)", "-(abs)", "--"];
        let mut caches = Caches::for_text(0, true);
        let mut lp = LineParser {
            platform: Platform::Dg2,
            line: 1,
            toks: &[],
            pos: 0,
            all: b"",
            caches: &mut caches,
        };
        let mut accepted = 0;
        for m in mods {
            for r in regs {
                for g in regions {
                    for ty in types {
                        let text = format!("{m}{r}{g}{ty}");
                        let t = Tok {
                            text: &text,
                            col: 1,
                        };
                        for logic in [false, true] {
                            if let Some(fast) = grf_operand(&text, false, logic) {
                                accepted += 1;
                                assert_eq!(
                                    lp.src_general(t, logic),
                                    Ok(Operand::Reg(fast)),
                                    "{text}"
                                );
                            }
                        }
                        if let Some(fast) = grf_operand(&text, true, false) {
                            let mut i = Instruction::new(Opcode::Mov);
                            let general = lp
                                .reg_operand(t, split_type(&text).0, split_type(&text).1, true)
                                .map(Operand::Reg);
                            assert_eq!(general, Ok(Operand::Reg(fast)), "{text}");
                            assert_eq!(lp.dst(t, &mut i), general, "{text}");
                        }
                    }
                }
            }
        }
        assert!(accepted > 500, "{accepted}");
    }
}
