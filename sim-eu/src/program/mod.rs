//! Kernels pre-decoded once into an executable form: per instruction, the resolved operands,
//! masks, branch targets as instruction indices and the send plan. [`ProgramCache`] keeps one
//! per kernel address.

pub mod channels;
pub mod fast;
pub mod operand;
pub mod read_first;
pub mod simple;

use std::collections::HashMap;
use std::sync::Arc;

use isa_encoder::error::DecodeError;
use isa_encoder::kernel::{decode_kernel, Decoded};
use isa_encoder::model::{
    CondMod, DataType, InstOpts, Instruction, Opcode, Operand, Predicate, RegFile, SendDesc, Shape,
    SrcMod, Subfunction,
};
use platform::Platform;

use crate::dataport::{quick, SendPlan};
use crate::error::{EuError, EuErrorKind};
use crate::regfile::{
    ArfSet, GrfSet, CE, CR0, FLAG, GRF_REGS, MAX_GRF_REGS, MME, REG_BYTES, SR0, TM0,
};
use crate::rounding;
pub use operand::{type_bytes, Loc, Opnd};

/// The numeric domain an ALU instruction computes in (from its source types).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    /// Integers, sign- or zero-extended to 64 bits.
    Int,
    /// `:f`, `:hf`, `:bf` and `:vf` sources (f32 arithmetic).
    F32,
    /// A `:df` source.
    F64,
}

/// A branch target: an instruction index, or the byte offset that is not an instruction.
pub type Target = Result<u32, i64>;

/// One executable instruction.
#[derive(Debug, Clone)]
pub struct Inst {
    /// Byte offset in the kernel.
    pub pc: u32,
    pub opcode: Opcode,
    pub func: Subfunction,
    /// Channels (1..=32) and the first channel (`M0`..`M28`).
    pub n: u8,
    pub chan_off: u8,
    pub no_mask: bool,
    pub pred: Option<Predicate>,
    /// Bit of the 64-bit flag file where this instruction's flag register starts.
    pub flag_base: u8,
    pub cond: Option<CondMod>,
    pub sat: bool,
    pub acc_wr: bool,
    /// The implicit accumulator operand (typed like the destination; `:ud` for carries).
    pub acc: Opnd,
    pub dst: Opnd,
    pub src: [Opnd; 3],
    pub nsrc: u8,
    pub domain: Domain,
    /// A `:uq` source: integer comparisons are unsigned 64-bit.
    pub unsigned64: bool,
    pub jip: Option<Target>,
    pub uip: Option<Target>,
    pub send: Option<SendPlan>,
    /// Reads `ce0`: the interpreter refreshes it before executing.
    pub reads_ce: bool,
    /// Why this instruction cannot execute (reported when reached, not before).
    pub invalid: Option<EuErrorKind>,
}

impl Inst {
    /// The sources in the order the fast path computes on ([`fast::FastOp`]'s operands):
    /// `mac`'s implicit accumulator first, as the addend `mad` takes as src0.
    pub fn fast_sources(&self) -> [&Opnd; 3] {
        match self.opcode {
            Opcode::Mac => [&self.acc, &self.src[0], &self.src[1]],
            _ => [&self.src[0], &self.src[1], &self.src[2]],
        }
    }
}

/// A pre-decoded kernel.
#[derive(Debug, Clone)]
pub struct Program {
    pub platform: Platform,
    pub insts: Vec<Inst>,
    /// Per instruction, its typed fast form when it has one ([`fast::classify`]).
    pub fast: Vec<Option<fast::Fast>>,
    /// Per instruction, its simple form (a classified send, a no-op) when it has one.
    pub simple: Vec<Option<simple::Simple>>,
    /// Byte offset just past the kernel (where a thread that runs off its end is).
    pub end: u32,
    /// GRF registers of the threads that run it (128, or 256 in Large GRF Mode): an operand
    /// past them is out of range.
    pub grf_regs: usize,
    /// The GRF registers some instruction may write: a dispatcher that reuses a thread object
    /// for this program clears only these and the payload's.
    pub grf_writes: GrfSet,
    /// Per SIMD width 8, 16 and 32: the GRF registers a thread of that width with every
    /// channel dispatched may read before writing them ([`read_first`]); the others a reused
    /// thread object need not clear.
    pub grf_read_first: [GrfSet; 3],
    /// The architecture-register pieces a thread running it may have written when it ends:
    /// destinations, a conditional modifier's flags, implicit accumulators with their wide
    /// values, the math macros' `.mme` bits, and ce0/sr0/tm0, which every thread has written.
    /// A reused thread clears only these.
    pub arf_writes: ArfSet,
    /// Of `arf_writes`, the pieces only that bookkeeping writes and every thread's start
    /// writes again (no instruction writes into them): sr0's (its IDs, which a dispatcher
    /// sets for each thread, and the restart's masks; nothing writes its other bytes) and
    /// tm0's (written when the thread starts to run). A dispatcher that sets sr0's IDs for
    /// every thread need not clear these in a reused thread.
    pub arf_rewritten_at_start: ArfSet,
    /// Some instruction may change cr0.0's rounding-mode field (`sets_rounding`): only then
    /// does the run loop read cr0 before each run of fast-path instructions.
    pub sets_rounding: bool,
}

impl Program {
    /// Decodes `bytes` (a kernel starting at its first instruction) for threads with 128 GRF
    /// registers. Bytes after the last decodable instruction become one invalid instruction
    /// that reports the decode error if control ever reaches it.
    pub fn decode(platform: Platform, bytes: &[u8]) -> Program {
        Program::decode_with_grf(platform, GRF_REGS, bytes)
    }

    /// [`Program::decode`] for threads with `grf_regs` GRF registers (at most
    /// [`MAX_GRF_REGS`], which larger counts are cut to): an instruction whose register operand
    /// lies past them is invalid (the out-of-range error when reached), as are the messages
    /// whose payload or response does at run time.
    pub fn decode_with_grf(platform: Platform, grf_regs: usize, bytes: &[u8]) -> Program {
        let grf_regs = grf_regs.min(MAX_GRF_REGS);
        let grf_bytes = grf_regs * REG_BYTES;
        let (decoded, tail) = match decode_kernel(platform, bytes) {
            Ok(d) => (d, None),
            Err(e) => {
                let prefix = decode_kernel(platform, &bytes[..e.offset]).unwrap_or_default();
                (
                    prefix,
                    Some((e.offset as u32, undecodable(platform, &e.error))),
                )
            }
        };
        let pcs: Vec<u32> = decoded.iter().map(|d| d.pc).collect();
        let mut insts: Vec<Inst> = decoded
            .iter()
            .map(|d| lower(platform, d, &pcs, grf_regs))
            .collect();
        resume_breaks_after_while(&mut insts);
        if let Some((pc, e)) = tail {
            let mut bad = placeholder(pc);
            bad.invalid = Some(e);
            insts.push(bad);
        }
        let mut fast: Vec<_> = insts.iter().map(fast::classify).collect();
        // A `mach` with AccWrEn adds to the accumulator's full-precision value, which only the
        // general path keeps (`exec::alu`): the integer writes to the accumulator that may
        // reach one run there. Float results (a convolution's `mad acc0:f`) are plain DWords
        // on both paths and stay fast.
        let keep_wide = fast::keeps_wide_accumulator(&insts);
        for ((f, i), keep) in fast.iter_mut().zip(&insts).zip(keep_wide) {
            if keep && fast::writes_accumulator(i) && f.is_some_and(|f| f.num == fast::Num::Int) {
                *f = None;
            }
        }
        let simple = insts.iter().map(simple::classify).collect();
        let grf_writes = grf_writes(&insts, grf_bytes);
        let grf_read_first =
            [8, 16, 32].map(|simd| read_first::read_before_written(&insts, grf_bytes, simd));
        let sets_rounding = insts.iter().any(sets_rounding);
        let own_arf_writes = instruction_arf_writes(&insts);
        let arf_writes = own_arf_writes | bookkeeping_arf_writes();
        // All the bookkeeping but ce0, which is refreshed only for the instructions reading it.
        let arf_rewritten_at_start = bookkeeping_arf_writes()
            .without(ArfSet::bytes(CE..CE + 4))
            .without(own_arf_writes);
        Program {
            platform,
            insts,
            fast,
            simple,
            end: bytes.len() as u32,
            grf_regs,
            grf_writes,
            grf_read_first,
            arf_writes,
            arf_rewritten_at_start,
            sets_rounding,
        }
    }

    /// The GRF registers a thread of `simd` channels, every one dispatched, may read before
    /// writing them (every register for another width).
    pub fn read_first(&self, simd: u32) -> GrfSet {
        match simd {
            8 => self.grf_read_first[0],
            16 => self.grf_read_first[1],
            32 => self.grf_read_first[2],
            _ => GrfSet::ALL,
        }
    }

    /// The instruction index at byte offset `pc`.
    pub fn index_of(&self, pc: u32) -> Option<u32> {
        self.insts
            .binary_search_by_key(&pc, |i| i.pc)
            .ok()
            .map(|i| i as u32)
    }
}

/// Why bytes do not decode: an opcode number the platform lacks is an illegal instruction
/// (the hardware's illegal-opcode exception), named after what it is on the platforms that
/// have it (the opcode table is the data: `dpas` on tgllp, say); anything else is undecodable.
fn undecodable(platform: Platform, e: &DecodeError) -> EuErrorKind {
    let DecodeError::UnknownOpcode(n) = *e else {
        return EuErrorKind::Decode(e.to_string());
    };
    let elsewhere: Vec<String> = Platform::ALL
        .into_iter()
        .filter_map(|p| Opcode::from_number(p, n).map(|o| format!("{} on {p}", o.mnemonic())))
        .collect();
    EuErrorKind::Illegal(format!(
        "opcode {n:#04x} is not an instruction on {platform} ({})",
        if elsewhere.is_empty() {
            "on no platform".to_string()
        } else {
            elsewhere.join(", ")
        }
    ))
}

/// The GRF registers any of `insts` may write: destination lanes, send responses (31
/// registers when the descriptor is only known at run time), everything for an indirect
/// destination. Architecture registers are [`arf_writes`]'s.
fn grf_writes(insts: &[Inst], grf_bytes: usize) -> GrfSet {
    let thread = GrfSet::range(0, grf_bytes / REG_BYTES);
    let grf_range = |first, count| GrfSet::range(first, count) & thread;
    let mut m = GrfSet::EMPTY;
    for i in insts {
        if let Some(s) = i.send {
            if let Some(r) = s.dst_reg {
                let rlen = match s.desc {
                    SendDesc::Imm(d) => isa_encoder::sendmsg::response_len(d) as usize,
                    SendDesc::Reg(_) => 31,
                };
                m |= grf_range(usize::from(r), rlen);
            }
        }
        if let (Subfunction::Dpas { repeat, .. }, Loc::File) = (i.func, i.dst.loc) {
            // dpas writes `repeat` destination rows of n elements, packed.
            let at = usize::from(i.dst.offs[0]);
            let end = at + usize::from(repeat) * usize::from(i.n) * type_bytes(i.dst.ty);
            m |= grf_range(at / REG_BYTES, end.div_ceil(REG_BYTES) - at / REG_BYTES);
        }
        match i.dst.loc {
            Loc::File => {
                let size = type_bytes(i.dst.ty);
                for &o in i.dst.offs.iter().take(usize::from(i.n.max(1))) {
                    let (a, b) = (usize::from(o), usize::from(o) + size - 1);
                    if a < grf_bytes {
                        let last = (b / REG_BYTES).min(grf_bytes / REG_BYTES - 1);
                        m |= grf_range(a / REG_BYTES, last + 1 - a / REG_BYTES);
                    }
                }
            }
            Loc::Indirect { .. } => return grf_range(0, MAX_GRF_REGS),
            Loc::Imm | Loc::Null => {}
        }
    }
    m
}

/// What the interpreter keeps in the architecture registers for every thread: ce0
/// (refreshed for the instructions that read it), sr0 (the dispatcher's) and tm0 (the count
/// of instructions).
fn bookkeeping_arf_writes() -> ArfSet {
    ArfSet::bytes(CE..CE + 4) | ArfSet::bytes(SR0..SR0 + 16) | ArfSet::bytes(TM0..TM0 + 8)
}

/// The architecture-register pieces `insts` may write: destination lanes (everything for an
/// indirect destination), the flag register of a conditional modifier, the implicit
/// accumulator of `addc`/`subb` and of AccWrEn (and of `mac`/`mach`, whatever their AccWrEn),
/// accumulator DWords' wide values with them, a math macro's `.mme` bits.
fn instruction_arf_writes(insts: &[Inst]) -> ArfSet {
    let mut m = ArfSet::EMPTY;
    let lanes = |o: &Opnd, n: usize| {
        let size = type_bytes(o.ty);
        o.offs.iter().take(n.max(1)).fold(ArfSet::EMPTY, |m, &at| {
            m | ArfSet::written(usize::from(at)..usize::from(at) + size)
        })
    };
    for i in insts {
        let n = usize::from(i.n);
        match i.dst.loc {
            Loc::File => m |= lanes(&i.dst, n),
            Loc::Indirect { .. } => return ArfSet::ALL,
            Loc::Imm | Loc::Null => {}
        }
        if i.cond.is_some() {
            m |= ArfSet::bytes(FLAG..FLAG + 8);
        }
        if i.acc_wr
            || matches!(
                i.opcode,
                Opcode::Addc | Opcode::Subb | Opcode::Mac | Opcode::Mach
            )
        {
            m |= lanes(&i.acc, n);
        }
        if i.dst.mme < operand::NO_MME {
            let at = MME + usize::from(i.dst.mme) * REG_BYTES;
            m |= ArfSet::bytes(at..at + REG_BYTES);
        }
    }
    m
}

/// Whether `i` may change cr0.0's rounding-mode field: any write of cr0.0's low byte (where
/// the field is) or through an indirect destination, except IGC's prologue form
/// `or cr0.0, cr0.0, imm` with the field's bits clear in `imm` (and `and` with them set),
/// which leaves the field as it is.
fn sets_rounding(i: &Inst) -> bool {
    let size = type_bytes(i.dst.ty);
    let writes = match i.dst.loc {
        Loc::File => i
            .dst
            .offs
            .iter()
            .take(usize::from(i.n.max(1)))
            .any(|&o| (usize::from(o)..usize::from(o) + size).contains(&CR0)),
        Loc::Indirect { .. } => true,
        Loc::Imm | Loc::Null => false,
    };
    if !writes || i.sat || i.nsrc != 2 || i.src[0].modifier != SrcMod::None {
        return writes;
    }
    let keeps_field = |field_bits: u32| {
        i.dst.offs[0] == CR0 as u16
            && i.src[0].loc == Loc::File
            && i.src[0].scalar
            && i.src[0].offs[0] == CR0 as u16
            && i.src[1].loc == Loc::Imm
            && i.src[1].scalar
            && u32::from(i.src[1].imm[0]) & rounding::FIELD_BITS == field_bits
    };
    match i.opcode {
        Opcode::Or => !keeps_field(0),
        Opcode::And => !keeps_field(rounding::FIELD_BITS),
        _ => true,
    }
}

/// From Gen7 on, `break` and `cont` both name the loop's WHILE as UIP (Mesa's brw_set_uip_jip:
/// "Gfx7 UIP points to WHILE; Gfx6 points just after it"). Continuing channels execute that
/// WHILE and loop back if it says so; broken channels stay disabled until the loop is done and
/// resume after it. Resolving a break's UIP past its WHILE gives the second meaning.
fn resume_breaks_after_while(insts: &mut [Inst]) {
    for k in 0..insts.len() {
        if insts[k].opcode != Opcode::Break {
            continue;
        }
        if let Some(Ok(u)) = insts[k].uip {
            if insts
                .get(u as usize)
                .is_some_and(|w| w.opcode == Opcode::While)
            {
                insts[k].uip = Some(Ok(u + 1));
            }
        }
    }
}

fn placeholder(pc: u32) -> Inst {
    Inst {
        pc,
        opcode: Opcode::Illegal,
        func: Subfunction::None,
        n: 1,
        chan_off: 0,
        no_mask: false,
        pred: None,
        flag_base: 0,
        cond: None,
        sat: false,
        acc_wr: false,
        acc: Opnd::ABSENT,
        dst: Opnd::ABSENT,
        src: [Opnd::ABSENT; 3],
        nsrc: 0,
        domain: Domain::Int,
        unsigned64: false,
        jip: None,
        uip: None,
        send: None,
        reads_ce: false,
        invalid: None,
    }
}

fn target(pcs: &[u32], pc: u32, rel: i32, absolute: bool) -> Target {
    let t = if absolute {
        i64::from(rel)
    } else {
        i64::from(pc) + i64::from(rel)
    };
    u32::try_from(t)
        .ok()
        .and_then(|t| pcs.binary_search(&t).ok())
        .map(|i| i as u32)
        .ok_or(t)
}

fn domain_of(srcs: &[Option<Operand>]) -> Domain {
    let tys = srcs.iter().flatten().map(|s| s.ty());
    let mut d = Domain::Int;
    for t in tys {
        match t {
            DataType::Df => return Domain::F64,
            t if t.is_float() => d = Domain::F32,
            _ => {}
        }
    }
    d
}

fn reg_of(op: &Option<Operand>) -> Result<Option<u8>, EuErrorKind> {
    match op {
        None => Ok(None),
        Some(o) => match o.reg() {
            Some(r) if r.file == RegFile::Grf => Ok(Some(r.num)),
            Some(r) if r.file == RegFile::Null => Ok(None),
            _ => Err(EuErrorKind::Illegal(
                "send operands must be direct GRF registers".into(),
            )),
        },
    }
}

fn send_plan(
    platform: Platform,
    inst: &Instruction,
    n: u8,
    grf_regs: usize,
) -> Result<SendPlan, EuErrorKind> {
    let info = inst
        .send
        .ok_or_else(|| EuErrorKind::Illegal("send without descriptors".into()))?;
    let mut plan = SendPlan {
        sfid: info.sfid,
        shared: isa_encoder::sendmsg::Sfid::decode(platform, info.sfid),
        desc: info.desc,
        ex_desc: info.ex_desc,
        src1_len: info.src1_len,
        dst_reg: reg_of(&inst.dst)?,
        src0_reg: reg_of(&inst.src[0])?
            .ok_or_else(|| EuErrorKind::Illegal("send payload is null".into()))?,
        src1_reg: reg_of(&inst.src[1])?,
        eot: inst.opts.contains(InstOpts::EOT),
        quick: None,
        repeats: false,
    };
    plan.quick = quick::classify(platform, &plan, n, grf_regs);
    plan.repeats = plan.repeatable();
    Ok(plan)
}

fn reads_arf(inst: &Instruction, file: RegFile) -> bool {
    inst.src
        .iter()
        .flatten()
        .any(|s| s.reg().is_some_and(|r| r.file == file))
}

/// One decoded instruction to its executable form.
fn lower(platform: Platform, d: &Decoded, pcs: &[u32], grf_regs: usize) -> Inst {
    let grf_bytes = grf_regs * REG_BYTES;
    let i = &d.inst;
    let mut out = placeholder(d.pc);
    out.opcode = i.opcode;
    out.func = i.func;
    out.n = i.exec_size.channels() as u8;
    out.chan_off = i.chan_offset;
    out.no_mask = i.no_mask;
    out.pred = i.predicate;
    out.flag_base = (i.flag.num * 32 + i.flag.sub * 16) & 63;
    out.cond = i.cond_mod;
    out.sat = i.saturate;
    out.acc_wr = i.opts.contains(InstOpts::ACC_WR_EN);
    out.reads_ce = reads_arf(i, RegFile::ChannelEnable);
    let lanes = out.n as usize;
    let result = (|| -> Result<(), EuErrorKind> {
        match i.opcode.shape() {
            Shape::Branch => {
                let absolute = i.opcode == Opcode::Calla;
                out.jip = i.branch.jip.map(|r| target(pcs, d.pc, r, absolute));
                out.uip = i.branch.uip.map(|r| target(pcs, d.pc, r, false));
                if let Some(dst) = &i.dst {
                    out.dst = operand::resolve(dst, lanes, grf_bytes)?;
                }
                if let Some(src) = &i.src[0] {
                    out.src[0] = operand::resolve(src, lanes, grf_bytes)?;
                    out.nsrc = 1;
                }
            }
            Shape::Send => out.send = Some(send_plan(platform, i, out.n, grf_regs)?),
            Shape::Nullary | Shape::Sync | Shape::Wait => {}
            Shape::Unary | Shape::Binary | Shape::Ternary => {
                out.domain = domain_of(&i.src);
                out.unsigned64 = i.src.iter().flatten().any(|s| s.ty() == DataType::Uq);
                if let Some(dst) = &i.dst {
                    out.dst = operand::resolve(dst, lanes, grf_bytes)?;
                }
                let acc_ty = match i.opcode {
                    Opcode::Addc | Opcode::Subb => DataType::Ud,
                    _ => out.dst.ty,
                };
                out.acc = operand::accumulator(platform, acc_ty, out.chan_off, &out.dst);
                for (k, s) in i.src.iter().enumerate() {
                    if let Some(s) = s {
                        out.src[k] = operand::resolve(s, lanes, grf_bytes)?;
                        if matches!(s.ty(), DataType::V | DataType::Uv) {
                            operand::place_vector_immediate(&mut out.src[k], &out.dst, lanes);
                        }
                        out.nsrc = k as u8 + 1;
                    }
                }
                let bits =
                    operand::exec_int_bits(i.src.iter().flatten().map(|s| s.ty()), out.dst.ty);
                for s in &mut out.src {
                    s.mod_bits = bits;
                }
            }
        }
        Ok(())
    })();
    if let Err(e) = result {
        out.invalid = Some(e);
    }
    out
}

/// Pre-decoded kernels by kernel address and GRF register count, so each kernel decodes once
/// however many threads and walkers run it.
#[derive(Default)]
pub struct ProgramCache {
    map: HashMap<(Platform, u64, usize), Arc<Program>>,
}

impl ProgramCache {
    pub fn new() -> ProgramCache {
        ProgramCache::default()
    }

    /// The program at kernel address `addr` for threads with `grf_regs` GRF registers
    /// ([`Program::decode_with_grf`]), decoding `bytes()` on first use. The caller
    /// invalidates entries whose memory it rewrites ([`ProgramCache::invalidate`]).
    pub fn get_or_decode(
        &mut self,
        platform: Platform,
        addr: u64,
        grf_regs: usize,
        bytes: impl FnOnce() -> Result<Vec<u8>, EuError>,
    ) -> Result<Arc<Program>, EuError> {
        let key = (platform, addr, grf_regs);
        if let Some(p) = self.map.get(&key) {
            return Ok(p.clone());
        }
        let p = Arc::new(Program::decode_with_grf(platform, grf_regs, &bytes()?));
        self.map.insert(key, p.clone());
        Ok(p)
    }

    /// Forgets every cached kernel (e.g. when kernel memory changed).
    pub fn invalidate(&mut self) {
        self.map.clear();
    }

    /// Forgets the kernels decoded from `addr` for `platform` (its memory changed).
    pub fn invalidate_at(&mut self, platform: Platform, addr: u64) {
        self.map.retain(|&(p, a, _), _| (p, a) != (platform, addr));
    }
}
