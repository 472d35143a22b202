//! Which pre-decoded instructions translate: the fast path's plain ALU operations (half results
//! included; `mac` as the fast path's `mad`; a condition modifier only as a one- or
//! two-source integer operation's test of its result), `cmp`/`cmpn` (the word form's, or on
//! integers of one signedness in rows of words or bytes), and `sel` by the predicate or by a
//! condition (`min`, `max`) on 1, 4, 8, 16 or 32 channels,
//! predicated per channel, by a horizontal group of channels (`.any16h`) or not, whose
//! destination is consecutive DWords or whole rows of consecutive words (or one element), and
//! whose sources are consecutive DWords, words at a 2- or 4-byte step, bytes at a 4-byte step,
//! one scalar element or an immediate; integer `mov`s of DWords whose source or destination
//! steps by 8 bytes (64-bit values' halves, [`Op::Spread`]); instructions that change
//! nothing; the structured branches with a resolved target and no vertical predicate
//! ([`branch`]); the classified
//! sends, called directly ([`send`]); IGC's multiply-high pair, `mul` to the accumulator
//! and `mach` with AccWrEn, and `addc`/`subb` ([`wide`]); conversions between single
//! precision and 32-bit integers, from integers to the accumulator too ([`convert`]);
//! double-precision `mov` (of any immediate, and to and from `:f`, `:d`, `:ud`), `add`,
//! `mul`, `mad`, `sel` and `cmp` ([`double`]). Everything else stays with the interpreter.

use isa_encoder::model::{CondMod, DataType, Opcode, PredCtrl, SrcMod};
use sim_eu::dataport::direct::{direct, Direct};
use sim_eu::dataport::quick::Quick;
use sim_eu::exec::runs_inside_a_run;
use sim_eu::exec::structured::{structured, Jumps};
use sim_eu::program::channels::Channels;
use sim_eu::program::fast::{
    f32_source, int_source, step, Elem, Fast, FastOp, FastSrc, Num, Sign, Src,
};
use sim_eu::program::operand::{Loc, Opnd};
use sim_eu::program::simple::Simple;
use sim_eu::program::{Domain, Inst};
use sim_eu::regfile::{acc_dword, MAX_GRF_BYTES, ZERO};

/// An operation a translated instruction computes on 32-bit lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Mov,
    Not,
    Add,
    Mul,
    Mad,
    /// `add3`: the three sources' sum.
    Add3,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Asr,
    /// `math.iqot` / `math.irem` (`rem`): 32-bit division, unsigned when src0 is `:ud`, as
    /// the interpreter's rule has it (by zero: all ones, or the dividend).
    IntDiv {
        rem: bool,
        unsigned: bool,
    },
    FAdd,
    FMul,
    FMad,
    /// `cmp`/`cmpn`: all ones or zero per lane and the lanes' flag bits.
    Cmp {
        cond: CondMod,
        float: bool,
        signed: bool,
        nan_true: bool,
    },
    /// `sel` without a condition: src0 where the predicate is set, else src1, in every
    /// enabled lane.
    Sel,
    /// `sel` with a condition (`max` as `sel.ge`, `min` as `sel.l`): src0 where src0 `cond`
    /// src1 holds, else src1, in every enabled lane; no flags written, no predicate read.
    SelCmp {
        cond: CondMod,
        float: bool,
        signed: bool,
    },
    /// Changes nothing (the fast path's `Keep`: an integer `csel` that picks its own
    /// destination's bytes, an operation to `null` without a condition; a `nop`, a `sync`
    /// other than a barrier wait): no code, counted as executed.
    Keep,
    /// `mov`, `add`, `mul` or `mad` to `:hf`, source k `:hf` where `hf[k]`, else `:f`:
    /// computed by the interpreter's own rounding ([`sim_eu::exec::fast::half_results`]),
    /// called from the translated code; or `sel` with the condition `cond` (not predicated):
    /// [`sim_eu::exec::fast::half_sel`].
    Half {
        op: FastOp,
        hf: [bool; 3],
        cond: Option<CondMod>,
    },
    /// An integer `mul` to accumulator DWords (IGC's `mul (8) acc0.0:ud x:ud y:uw`, the low
    /// half of a 32x32 -> 64 multiply): each lane's product, computed in 64 bits with each
    /// source as its own type (`signed`), goes to its DWord (low 32 bits) and to the
    /// accumulator's wide value ([`sim_eu::regfile::ACC_WIDE`]), as the interpreter keeps it.
    MulAcc {
        signed: [bool; 2],
    },
    /// `mach` with AccWrEn (the pair's high half): the accumulator (its DWords from file byte
    /// `acc`, each read as its wide value while that still matches, `signed[2]` its type's
    /// signedness) plus src0 times src1's high word shifted left 16; bits 32..63 to the
    /// destination, the low 64 bits to the accumulator DWords and their wide values.
    Mach {
        signed: [bool; 3],
        acc: u16,
    },
    /// `addc` (`subb` where `sub`): each lane's sources as 32-bit values, their sum
    /// (difference) to the destination DWord and its carry (borrow), 1 or 0, to the
    /// accumulator DWords from file byte `acc`, whose wide values stay as they are (the
    /// interpreter's `addc` writes only the DWords): the low half of IGC's 64-bit addition.
    Carry {
        sub: bool,
        acc: u16,
    },
    /// An integer `mov` to words every other word (`mov (16|M0) r7.0<2>:hf r27.0<16;16,1>:hf`,
    /// halves spread out for a byte scattered write; `r7.1<2>:hf`, the high halves of pairs
    /// packed for a DWord write): src0's low word into the low word (`high`: the high word)
    /// of each destination DWord, src1 (the destination's DWords themselves) keeping the
    /// other one.
    Words {
        high: bool,
    },
    /// A conversion `mov` from integers (each lane extended to 32 bits by its type, then read
    /// as unsigned where `unsigned`, else signed) to `:f`, rounded to nearest even: the only
    /// rounding mode translated code runs in, and the interpreter's (its 64-bit value, exact
    /// in double precision, rounded once to single).
    IntToFloat {
        unsigned: bool,
    },
    /// [`Op::IntToFloat`] to accumulator DWords (IGC's `mov (16) acc0.0:f r22.0:d` before a
    /// `sel`): as the interpreter computes it, in its integer domain, each lane's integer
    /// (extended to 64 bits as its type is `signed`) also becomes the DWord's wide value
    /// ([`sim_eu::regfile::ACC_WIDE`]).
    IntToFloatAcc {
        unsigned: bool,
        signed: bool,
    },
    /// A conversion `mov` from `:f` to `:d` (`:ud` where `unsigned`): truncated toward zero,
    /// saturated to the type's range, NaN to 0, as the interpreter's Rust `as` does.
    FloatToInt {
        unsigned: bool,
    },
    /// An integer `mov` of DWords whose source or destination steps by 8 bytes: the halves of
    /// 64-bit values IGC takes apart (`mov (8|M0) r23.0<1>:ud r14.0<2;1,0>:ud`, the low
    /// DWords) and puts together (`mov (8|M0) r33.1<2>:d r29.0<8;8,1>:d`, the high ones).
    /// Lane by lane: every lane's DWord (its source modifier applied) read, then each stored
    /// `dst_stride` bytes after the one before, in the lanes that write.
    Spread {
        dst_stride: u8,
    },
    /// Double-precision arithmetic on `:df` lanes (`mov`, `add`, `mul`, `mad`, `sel`, `cmp`)
    /// in host doubles ([`double`]): each source 8 bytes a lane from its base (a row) or one
    /// element, its modifier a sign-bit operation, or an immediate whose low DWord is zero
    /// (`Lanes::Imm` holds its high DWord, the modifier applied); `dst_size` is 8.
    Double(DoubleOp),
}

/// The operation of an [`Op::Double`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DoubleOp {
    /// A copy (the sign-bit operation of a modifier applied).
    Mov,
    Add,
    Mul,
    /// `src1 * src2 + src0`, fused.
    Mad,
    /// `sel` without a condition: src0 where the predicate is set, else src1, in every
    /// enabled lane (bits as they are, the modifiers' sign-bit operations applied).
    Sel,
    /// `sel` with a condition and no predicate (`fmin` as `sel.l`, `fmax` as `sel.ge`): src0
    /// where src0 `cond` src1 holds, else src1, in every enabled lane, bits as [`Self::Sel`];
    /// `l` and `ge` pick the number where exactly one source is a NaN (the interpreter's
    /// `sel_f`). No flag is written.
    SelCmp {
        cond: CondMod,
    },
    /// A `mov` of an immediate whose low DWord is not zero (IGC's `0.1:df`): these bits in
    /// every enabled, predicated lane.
    Const(u64),
    /// A `mov` to `:df` from DWords of this type, exactly (an `:f` NaN quieted, as the
    /// host's conversion does it).
    Widen(DwordType),
    /// A `mov` from `:df` to DWords of this type, as the interpreter stores a double: `:f`
    /// rounded to nearest even (whatever `cr0` says), integers truncated and saturated to the
    /// type's range, NaN to 0. The DWords `stride` bytes apart: 4, or 8 (IGC's
    /// `mov (8|M0) r56.0<2>:d r7.0<4;4,1>:df`, the DWords between left as they were).
    Narrow {
        ty: DwordType,
        stride: u8,
    },
    /// `cmp` (`cmpn` where `nan_true`: true where src1 is NaN) to `null`: each enabled,
    /// predicated lane's flag bit.
    Cmp {
        cond: CondMod,
        nan_true: bool,
    },
}

/// The DWord types a double converts from and to ([`DoubleOp::Widen`], [`DoubleOp::Narrow`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DwordType {
    F,
    D,
    Ud,
}

impl DwordType {
    fn of(ty: DataType) -> Option<Self> {
        match ty {
            DataType::F => Some(DwordType::F),
            DataType::D => Some(DwordType::D),
            DataType::Ud => Some(DwordType::Ud),
            _ => None,
        }
    }
}

impl Op {
    /// Whether the result goes to every enabled lane, not only the predicated ones (`sel`
    /// takes its predicate as its choice).
    pub fn writes_enabled_lanes(self) -> bool {
        matches!(
            self,
            Op::Sel | Op::SelCmp { .. } | Op::Double(DoubleOp::Sel | DoubleOp::SelCmp { .. })
        )
    }

    pub fn arity(self) -> usize {
        match self {
            Op::Keep | Op::Double(DoubleOp::Const(_)) => 0,
            Op::Mov
            | Op::Not
            | Op::IntToFloat { .. }
            | Op::IntToFloatAcc { .. }
            | Op::FloatToInt { .. }
            | Op::Spread { .. }
            | Op::Double(DoubleOp::Mov | DoubleOp::Widen(_) | DoubleOp::Narrow { .. }) => 1,
            Op::Mad | Op::Add3 | Op::FMad | Op::Double(DoubleOp::Mad) => 3,
            Op::Half {
                op: FastOp::Mov, ..
            } => 1,
            Op::Half {
                op: FastOp::Mad, ..
            } => 3,
            _ => 2,
        }
    }
}

/// The conditions of a translated half `sel` ([`Op::Half`]), by the code translated code
/// passes for them.
pub const SEL_CONDS: [CondMod; 6] = [
    CondMod::Eq,
    CondMod::Ne,
    CondMod::Gt,
    CondMod::Ge,
    CondMod::Lt,
    CondMod::Le,
];

/// Where a translated source's lanes come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lanes {
    /// Lane i at byte `base + i * stride`, extended to 32 bits: DWords (stride 4), words
    /// (stride 2 or 4) or bytes (stride 4).
    Row { base: u16, stride: u8, elem: Elem },
    /// One element at byte `base`, extended to 32 bits, for every lane.
    Scalar(u16, Elem),
    /// One value for every lane.
    Imm(u32),
}

/// One translated instruction: `dst` (consecutive elements of `dst_size` bytes from a byte
/// offset) gets the result of `op` on `n` lanes in the channels enabled and predicated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub op: Op,
    pub n: u8,
    pub ch: Channels,
    /// `None`: a `null` destination (a `cmp` for its flags only).
    pub dst: Option<u16>,
    /// 4 (DWords), or 2: words, a whole number of 16-byte-aligned rows of them unless `n` is 1
    /// (each lane's result truncated to its low 16 bits).
    pub dst_size: u8,
    pub src: [Lanes; 3],
    /// Each source's modifier, applied to its 32-bit lanes as they are read (an `:f`
    /// source's sign-bit operation, an integer's negation: the fast form's own).
    pub sign: [Sign; 3],
    /// An integer operation's condition modifier (`cmp` and conditional `sel` have theirs in
    /// `op`): the flag bit of each enabled, predicated lane is whether its 32-bit result
    /// compares with zero by the condition, signed when the destination type is (IGC's
    /// `and (eq)f1.0 null:d` bit test).
    pub flag: Option<(CondMod, bool)>,
}

impl Step {
    /// An instruction that changes nothing ([`Op::Keep`]) on the channels `ch`.
    pub fn keep(ch: Channels) -> Step {
        Step {
            op: Op::Keep,
            n: ch.n,
            ch,
            dst: None,
            dst_size: 4,
            src: [Lanes::Imm(0); 3],
            sign: [Sign::NONE; 3],
            flag: None,
        }
    }

    /// `op` on the channels `ch` to consecutive DWords from file byte `dst`, its sources
    /// without modifiers, no flag written.
    pub fn dwords(op: Op, ch: Channels, dst: u16, src: [Lanes; 3]) -> Step {
        Step {
            op,
            n: ch.n,
            ch,
            dst: Some(dst),
            dst_size: 4,
            src,
            sign: [Sign::NONE; 3],
            flag: None,
        }
    }

    /// The file bytes each source the operation reads spans (`lo..hi`; none for an
    /// immediate).
    pub fn source_bytes(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let n = usize::from(self.n);
        self.src
            .iter()
            .take(self.op.arity())
            .filter_map(move |s| match *s {
                Lanes::Row { base, stride, .. } => {
                    let lo = usize::from(base);
                    Some((lo, lo + usize::from(stride) * n))
                }
                Lanes::Scalar(b, e) => Some((usize::from(b), usize::from(b) + usize::from(e.size))),
                Lanes::Imm(_) => None,
            })
    }

    /// The file bytes `lo..hi` its destination spans (`None` for `null`).
    pub fn dst_bytes(&self) -> Option<(usize, usize)> {
        let d = usize::from(self.dst?);
        let step = match self.op {
            Op::Spread { dst_stride }
            | Op::Double(DoubleOp::Narrow {
                stride: dst_stride, ..
            }) => dst_stride,
            _ => self.dst_size,
        };
        Some((d, d + usize::from(self.n) * usize::from(step)))
    }

    /// Whether it writes bytes of its destination's span in between the ones it leaves as
    /// they were (DWords 8 bytes apart).
    pub fn writes_in_part(&self) -> bool {
        match self.op {
            Op::Spread { dst_stride }
            | Op::Double(DoubleOp::Narrow {
                stride: dst_stride, ..
            }) => dst_stride != self.dst_size,
            _ => false,
        }
    }

    /// One past the last byte of the register file the instruction touches (the flag
    /// registers aside, which every thread has).
    pub fn extent(&self) -> usize {
        let mut end = self.dst_bytes().map_or(0, |(_, hi)| hi);
        for (_, hi) in self.source_bytes() {
            end = end.max(hi);
        }
        if matches!(
            self.op,
            Op::MulAcc { .. } | Op::Mach { .. } | Op::Carry { .. } | Op::IntToFloatAcc { .. }
        ) {
            // The accumulator's DWords and wide values, which lie before the zero area.
            end = end.max(ZERO);
        }
        end
    }
}

/// Part of a translated run: one translated instruction, or consecutive instructions the
/// interpreter runs from the run's code (ones that stay in sequence:
/// [`sim_eu::exec::runs_inside_a_run`]), so that sends, `csel` and the like between
/// translated instructions do not cut the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    Step(Step),
    Interpreted(u32),
    Branch(Branch),
    /// A classified send on the channels `Channels` (no vertical predicate), called directly
    /// ([`sim_eu::exec::run_send`]); interpreted when it declines. Before the call, what the
    /// host code may do itself ([`Own`]).
    Send(Channels, Own),
    /// A send without a classified form that translated code handles in part ([`message`])
    /// on the channels `Channels`: skipped without channels, called directly, or both; else
    /// interpreted (as [`Item::Interpreted`] of one instruction).
    Message(Channels, Message),
    /// A barrier's wait (`sync.bar`, `wait`): passed in host code when the thread's barrier
    /// is not pending (the run knows: `crate::run`'s context), else the run returns there
    /// and the interpreter runs it: the thread stops to wait.
    Wait,
    /// The thread spawner's end of thread (a classified end-of-thread send with no other
    /// effect): the run returns there and the thread ends ([`sim_eu::exec::end_plain`], or
    /// the interpreter when the memory hears of sends), without a call out.
    End,
}

impl Item {
    /// The kernel instructions it covers.
    pub fn instructions(&self) -> u32 {
        match self {
            Item::Step(_)
            | Item::Branch(_)
            | Item::Send(..)
            | Item::Message(..)
            | Item::Wait
            | Item::End => 1,
            Item::Interpreted(c) => *c,
        }
    }
}

/// What the host code does itself for a classified send before it calls it, through the
/// memory's [`sim_eu::dataport::direct::DirectTable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Own {
    /// Nothing.
    Call,
    /// The copy through the surface's window.
    Copy(Direct),
    /// A fence: nothing more when the memory's fences are quiet.
    Fence,
}

impl Own {
    fn of(q: Quick) -> Own {
        match q {
            Quick::Fence(_) => Own::Fence,
            _ => direct(q).map_or(Own::Call, Own::Copy),
        }
    }
}

/// A structured branch inside a translated run: the host code jumps where every executing
/// channel goes, to `to` (counted from the run's first instruction; the run's length when it
/// leaves the run) or to the next instruction, and calls out to take it when the channels
/// part ways ([`crate::emit::PartFn`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Branch {
    pub jumps: Jumps,
    pub to: u32,
    pub ch: Channels,
}

/// The channels of `inst` when it is a classified send that translated code calls directly
/// (it has a simple form, does not end the thread, stays in sequence and has no vertical
/// predicate), and what the host code does itself before the call.
pub fn send(inst: &Inst, simple: Option<&Simple>) -> Option<(Channels, Own)> {
    let s = simple?;
    let Some((q, false)) = s.send else {
        return None;
    };
    if !runs_inside_a_run(inst) || vertical(&s.ch) {
        return None;
    }
    Some((s.ch, Own::of(q)))
}

/// What translated code does itself for a send without a classified form ([`message`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Message {
    /// It does nothing without channels
    /// ([`sim_eu::dataport::SendPlan::idle_without_channels`]): skipped when none is enabled
    /// and predicated and the memory does not hear of sends.
    pub idle: bool,
    /// It loads or stores only ([`sim_eu::dataport::SendPlan::repeatable`]): called directly
    /// ([`sim_eu::exec::run_send`]), interpreted when that declines.
    pub direct: bool,
}

/// The channels of `inst` and what translated code does itself when it is a send without a
/// classified form that the interpreter runs inside a run and that does nothing without
/// channels or loads or stores only. Not for one that reads `ce` (the interpreter writes it
/// first) or has a vertical predicate.
pub fn message(inst: &Inst) -> Option<(Channels, Message)> {
    let plan = inst.send.as_ref()?;
    let ch = Channels::of(inst);
    if inst.reads_ce || vertical(&ch) || !runs_inside_a_run(inst) {
        return None;
    }
    let m = Message {
        idle: plan.idle_without_channels(),
        direct: plan.repeatable(),
    };
    (m.idle || m.direct).then_some((ch, m))
}

/// Whether `inst` is a classified end-of-thread send (its simple form `simple`) that the
/// interpreter may run inside a run, the run's last instruction.
pub fn ends_thread(inst: &Inst, simple: Option<&Simple>) -> bool {
    simple.is_some_and(|s| matches!(s.send, Some((_, true)))) && runs_inside_a_run(inst)
}

/// Whether the channels' predicate combines two flag registers (`.anyv`, `.allv`): the
/// interpreter's alone.
fn vertical(ch: &Channels) -> bool {
    ch.pred
        .is_some_and(|p| matches!(p.ctrl, PredCtrl::AnyV | PredCtrl::AllV))
}

/// The translated form of the structured branch `inst` at instruction `at`, whose target is
/// instruction `to` (its own, not a field of `inst`, for an `endif` or `join`), or `None`
/// when it stays interpreted: not a structured branch, a target that does not resolve, or a
/// vertical predicate (the interpreter's alone).
pub fn branch(inst: &Inst, at: u32) -> Option<(Jumps, u32, Channels)> {
    if inst.invalid.is_some() {
        return None;
    }
    let (jumps, target, _) = structured(inst)?;
    let to = match (jumps, target) {
        (Jumps::Nothing, _) => at + 1,
        (_, Some(Ok(t))) => t,
        _ => return None,
    };
    let ch = Channels::of(inst);
    if vertical(&ch) {
        return None;
    }
    Some((jumps, to, ch))
}

/// The kernel instructions a run of `items` covers.
pub fn run_len(items: &[Item]) -> u32 {
    items.iter().map(Item::instructions).sum()
}

/// The translated form of IGC's multiply-high pair: `mul` of 32-bit and 16-bit integers to
/// consecutive accumulator DWords, and `mach` with AccWrEn from the accumulator to
/// consecutive DWords of the GRF; and of `addc`/`subb` to consecutive DWords of the GRF,
/// with their carries to consecutive accumulator DWords. Sources consecutive
/// DWords or words, one element or an immediate, without modifiers; no condition,
/// saturation or vertical predicate. `None` for anything else (a `mach` without AccWrEn is
/// the fast path's 32-bit `mul`).
pub fn wide(inst: &Inst) -> Option<Step> {
    if inst.domain != Domain::Int {
        return None;
    }
    let ch = plain_channels(inst, 2)?;
    let n = usize::from(ch.n);
    let dst = dwords(&inst.dst, n)?;
    let in_acc = |base: u16| (0..n).all(|i| acc_dword(base + 4 * i as u16).is_some());
    // `mach`'s and `addc`'s destination in the GRF: not the accumulator, nor cr0 (whose
    // rounding mode translated code does not follow).
    let grf = in_grf(dst, n);
    let a = int_source(&inst.src[0], n)?;
    let b = int_source(&inst.src[1], n)?;
    let src = [lanes(&a, ch.n)?, lanes(&b, ch.n)?, Lanes::Imm(0)];
    let signed = [a.elem.signed, b.elem.signed];
    let op = match inst.opcode {
        Opcode::Mul if !inst.acc_wr && in_acc(dst) => Op::MulAcc { signed },
        Opcode::Mach if inst.acc_wr && grf => {
            let acc = dwords(&inst.acc, n).filter(|&b| in_acc(b))?;
            Op::Mach {
                signed: [signed[0], signed[1], inst.acc.ty == DataType::D],
                acc,
            }
        }
        Opcode::Addc | Opcode::Subb if grf => Op::Carry {
            sub: inst.opcode == Opcode::Subb,
            acc: dwords(&inst.acc, n).filter(|&b| in_acc(b))?,
        },
        _ => return None,
    };
    Some(Step::dwords(op, ch, dst, src))
}

/// The translated form of a conversion `mov` between single precision and integers:
/// integers (consecutive DWords, words at a 2- or 4-byte step, bytes at a 4-byte step, one
/// element or an immediate) to consecutive `:f` DWords, or `:f` to consecutive `:d`/`:ud`
/// DWords; no modifier, saturation, condition, accumulator write or vertical predicate, the
/// destination outside the accumulator (whose wide values an integer result would set).
/// `None` for anything else.
pub fn convert(inst: &Inst) -> Option<Step> {
    if inst.opcode != Opcode::Mov || inst.acc_wr {
        return None;
    }
    let ch = plain_channels(inst, 1)?;
    let n = usize::from(ch.n);
    let s = &inst.src[0];
    let (op, src) = match (inst.dst.ty, s.ty) {
        (DataType::F, t) if !t.is_float() => {
            let a = int_source(s, n)?;
            // Narrower unsigned types extend to values a signed conversion takes exactly.
            let unsigned = !a.elem.signed && a.elem.size == 4;
            (Op::IntToFloat { unsigned }, a)
        }
        (DataType::D | DataType::Ud, DataType::F) => {
            let unsigned = inst.dst.ty == DataType::Ud;
            (Op::FloatToInt { unsigned }, f32_source(s, n)?)
        }
        _ => return None,
    };
    let dst = file_dwords(&inst.dst, n)?;
    // In the GRF, or (from integers) the accumulator, whose wide values the lanes' integers
    // become; not cr0, whose rounding mode translated code does not follow.
    let op = match op {
        _ if in_grf(dst, n) => op,
        Op::IntToFloat { unsigned } if (0..n).all(|i| acc_dword(dst + 4 * i as u16).is_some()) => {
            Op::IntToFloatAcc {
                unsigned,
                signed: src.elem.signed,
            }
        }
        _ => return None,
    };
    let src = [lanes(&src, ch.n)?, Lanes::Imm(0), Lanes::Imm(0)];
    Some(Step::dwords(op, ch, dst, src))
}

/// A `:df` element as a translated source reads it (two DWords, [`Op::Double`]).
const QWORD: Elem = Elem {
    size: 8,
    signed: false,
};

/// A DWord read as it is (a `:df`'s halves, a conversion's source).
pub(crate) const DWORD: Elem = Elem {
    size: 4,
    signed: false,
};

/// The translated form of double-precision arithmetic (IGC's `:df` code for Gen9): `mov`,
/// `add`, `mul`, `mad`, `sel` by the predicate or by a comparison ([`SEL_CONDS`], no
/// predicate) or `cmp`/`cmpn` to `null` whose destination and sources are all `:df`, the
/// destination consecutive elements of the GRF (or one), each source consecutive elements
/// (`<4;4,1>`, the three-source `<2;1>`), one, or an immediate whose low DWord is zero, with
/// or without a modifier; a `mov` of any immediate; on 1, 2, 4, 8 or 16 channels; no
/// saturation, accumulator write or vertical predicate, no other condition. `None` for
/// anything else.
pub fn double(inst: &Inst) -> Option<Step> {
    if inst.acc_wr {
        return None;
    }
    // Its domain is its source's (the interpreter widens `:f` in single precision, `:d` and
    // `:ud` as integers: exactly, either way).
    if inst.opcode == Opcode::Mov
        && inst.dst.ty != inst.src[0].ty
        && (inst.dst.ty == DataType::Df || inst.src[0].ty == DataType::Df)
    {
        return double_conversion(inst);
    }
    if inst.domain != Domain::F64 || inst.dst.ty != DataType::Df {
        return None;
    }
    let (op, nsrc) = match inst.opcode {
        Opcode::Mov => (DoubleOp::Mov, 1),
        Opcode::Add => (DoubleOp::Add, 2),
        Opcode::Mul => (DoubleOp::Mul, 2),
        Opcode::Mad => (DoubleOp::Mad, 3),
        Opcode::Sel => match inst.cond {
            None => (DoubleOp::Sel, 2),
            Some(cond) if SEL_CONDS.contains(&cond) => (DoubleOp::SelCmp { cond }, 2),
            Some(_) => return None,
        },
        Opcode::Cmp | Opcode::Cmpn if inst.dst.loc == Loc::Null => (
            DoubleOp::Cmp {
                cond: inst.cond?,
                nan_true: inst.opcode == Opcode::Cmpn,
            },
            2,
        ),
        _ => return None,
    };
    let cmp = matches!(op, DoubleOp::Cmp { .. });
    // A conditional `sel` reads no predicate in the interpreter either: none is taken.
    let sel_cmp = matches!(op, DoubleOp::SelCmp { .. });
    // IGC clears pairs of doubles too (`(W) mov (2|M0) r4.0<1>:df 0.0:df`).
    let ch = any_channels(inst, nsrc).filter(|ch| {
        (cmp || inst.cond.is_none() || (sel_cmp && ch.pred.is_none()))
            && matches!(ch.n, 1 | 2 | 4 | 8 | 16)
    })?;
    let n = usize::from(ch.n);
    let d = &inst.dst;
    let dst = if cmp {
        None
    } else if d.loc != Loc::File {
        return None;
    } else {
        let at = step(&d.offs, n).filter(|&(base, stride)| {
            (stride == 8 || n == 1) && usize::from(base) + 8 * n <= MAX_GRF_BYTES
        })?;
        Some(at.0)
    };
    let mut src = [Lanes::Imm(0); 3];
    let mut sign = [Sign::NONE; 3];
    let mut op = op;
    for k in 0..usize::from(nsrc) {
        let o = &inst.src[k];
        if o.ty != DataType::Df {
            return None;
        }
        if o.loc == Loc::Imm && o.scalar {
            // A double whose low DWord is zero (0.0, 1.0, 0.5, -2.0) as its high DWord; the
            // modifier applied here. Any other is a `mov`'s (Gen9 encodes no 64-bit
            // immediate in two-source instructions): its bits.
            let bits = u64::from_le_bytes(o.imm[..8].try_into().ok()?);
            let high = Sign::of(o.modifier).apply((bits >> 32) as u32);
            if bits as u32 != 0 {
                if op != DoubleOp::Mov {
                    return None;
                }
                op = DoubleOp::Const(u64::from(high) << 32 | (bits & 0xffff_ffff));
            }
            src[k] = Lanes::Imm(high);
            continue;
        }
        if o.loc != Loc::File {
            return None;
        }
        src[k] = match step(&o.offs, n)? {
            (base, 0) => Lanes::Scalar(base, QWORD),
            (base, _) if n == 1 => Lanes::Scalar(base, QWORD),
            (base, 8) => Lanes::Row {
                base,
                stride: 8,
                elem: QWORD,
            },
            _ => return None,
        };
        sign[k] = Sign::of(o.modifier);
    }
    Some(Step {
        op: Op::Double(op),
        n: ch.n,
        ch,
        dst,
        dst_size: 8,
        src,
        sign,
        flag: None,
    })
}

/// A `mov` between `:df` and `:f`, `:d` or `:ud` ([`DoubleOp::Widen`], [`DoubleOp::Narrow`]):
/// IGC's `mov (8|M0) r22.0<1>:df r110.0<8;8,1>:f` and back; the destination consecutive
/// elements of the GRF (or one), the source consecutive elements or one; on 1, 2, 4, 8 or
/// 16 channels; no modifier, saturation or condition.
fn double_conversion(inst: &Inst) -> Option<Step> {
    let o = &inst.src[0];
    let (widen, ty, dst_size, src_size) = match (inst.dst.ty, o.ty) {
        (DataType::Df, t) => (true, DwordType::of(t)?, 8, 4),
        (t, DataType::Df) => (false, DwordType::of(t)?, 4, 8),
        _ => return None,
    };
    if inst.cond.is_some() || o.modifier != SrcMod::None || o.loc != Loc::File {
        return None;
    }
    let ch = any_channels(inst, 1).filter(|ch| matches!(ch.n, 1 | 2 | 4 | 8 | 16))?;
    let n = usize::from(ch.n);
    let d = &inst.dst;
    if d.loc != Loc::File {
        return None;
    }
    // DWords from a double may also be a QWord apart.
    let (dst, stride) = step(&d.offs, n).filter(|&(base, stride)| {
        let stride = usize::from(stride);
        (stride == dst_size || (!widen && stride == 8) || n == 1)
            && usize::from(base) + stride.max(dst_size) * n <= MAX_GRF_BYTES
    })?;
    let op = if widen {
        DoubleOp::Widen(ty)
    } else {
        DoubleOp::Narrow {
            ty,
            stride: if n == 1 { 4 } else { stride as u8 },
        }
    };
    let elem = if src_size == 8 { QWORD } else { DWORD };
    let src = match step(&o.offs, n)? {
        (base, 0) => Lanes::Scalar(base, elem),
        (base, _) if n == 1 => Lanes::Scalar(base, elem),
        (base, stride) if usize::from(stride) == src_size => Lanes::Row {
            base,
            stride: stride as u8,
            elem,
        },
        _ => return None,
    };
    Some(Step {
        op: Op::Double(op),
        n: ch.n,
        ch,
        dst: Some(dst),
        dst_size: dst_size as u8,
        src: [src, Lanes::Imm(0), Lanes::Imm(0)],
        sign: [Sign::NONE; 3],
        flag: None,
    })
}

/// The channels of `inst` when it is valid, has `nsrc` sources, no saturation, condition,
/// vertical predicate or `ce` read, and a width translated steps take; `None` otherwise.
fn plain_channels(inst: &Inst, nsrc: u8) -> Option<Channels> {
    if inst.cond.is_some() {
        return None;
    }
    channels(inst, nsrc)
}

/// [`plain_channels`] whatever the condition.
fn channels(inst: &Inst, nsrc: u8) -> Option<Channels> {
    any_channels(inst, nsrc).filter(|ch| matches!(ch.n, 1 | 4 | 8 | 16 | 32))
}

/// [`channels`] of any width.
fn any_channels(inst: &Inst, nsrc: u8) -> Option<Channels> {
    if inst.invalid.is_some() || inst.sat || inst.reads_ce || inst.nsrc != nsrc {
        return None;
    }
    let ch = Channels::of(inst);
    (!vertical(&ch)).then_some(ch)
}

/// Whether `n` DWords from file byte `at` lie in the GRF.
fn in_grf(at: u16, n: usize) -> bool {
    usize::from(at) + 4 * n <= MAX_GRF_BYTES
}

/// The first byte of `o` when it is `n` consecutive DWords (any 4-byte type) of the file.
fn file_dwords(o: &Opnd, n: usize) -> Option<u16> {
    if o.loc != Loc::File || !matches!(o.ty, DataType::D | DataType::Ud | DataType::F) {
        return None;
    }
    step(&o.offs, n)
        .filter(|&(_, stride)| stride == 4 || n == 1)
        .map(|(base, _)| base)
}

/// The first byte of `o` when it is `n` consecutive `:d`/`:ud` DWords of the file.
fn dwords(o: &Opnd, n: usize) -> Option<u16> {
    if !matches!(o.ty, DataType::D | DataType::Ud) {
        return None;
    }
    file_dwords(o, n)
}

/// Where a fast-form source's lanes come from in translated code (`n` lanes), or `None` for
/// a region it does not read.
fn lanes(fs: &FastSrc, n: u8) -> Option<Lanes> {
    Some(match fs.at {
        Src::Imm(v) => Lanes::Imm(v),
        Src::Region { base, stride: 0 } => Lanes::Scalar(base, fs.elem),
        Src::Region { base, .. } if n == 1 => Lanes::Scalar(base, fs.elem),
        Src::Region { base, stride } => match (fs.elem.size, stride) {
            (4, 4) | (2, 2) | (2, 4) | (1, 4) => Lanes::Row {
                base,
                stride: stride as u8,
                elem: fs.elem,
            },
            _ => return None,
        },
        _ => return None,
    })
}

/// The translated form of `f`, or `None` when the interpreter keeps it.
pub fn select(f: &Fast) -> Option<Step> {
    let op = match (f.num, f.op) {
        (_, FastOp::Keep) => return Some(Step::keep(f.ch)),
        // Rounding to half in Cranelift IR (it has no half conversions on x86-64) made an f16
        // convolution's translation cost ~13 ms per instruction: the translated code calls
        // the interpreter's rounding instead.
        (Num::Half, FastOp::Mov | FastOp::Add | FastOp::Mul | FastOp::Mad) => Op::Half {
            op: f.op,
            hf: [0, 1, 2].map(|k| f.src[k].elem.size == 2),
            cond: None,
        },
        // A ReLU's `sel.ge` with 0.0: picked by its comparison, every enabled lane written.
        (Num::Half, FastOp::Sel)
            if f.ch.pred.is_none() && f.cond.is_some_and(|c| SEL_CONDS.contains(&c)) =>
        {
            Op::Half {
                op: f.op,
                hf: [0, 1, 2].map(|k| f.src[k].elem.size == 2),
                cond: f.cond,
            }
        }
        (Num::Half, _) => return None,
        (_, FastOp::Mov) => Op::Mov,
        (Num::Int, FastOp::Not) => Op::Not,
        (Num::Int, FastOp::Add) => Op::Add,
        (Num::Int, FastOp::Mul) => Op::Mul,
        (Num::Int, FastOp::Mad) => Op::Mad,
        (Num::Int, FastOp::Add3) => Op::Add3,
        (Num::Int, FastOp::And) => Op::And,
        (Num::Int, FastOp::Or) => Op::Or,
        (Num::Int, FastOp::Xor) => Op::Xor,
        (Num::Int, FastOp::Shl) => Op::Shl,
        (Num::Int, FastOp::Shr) => Op::Shr,
        (Num::Int, FastOp::Asr) => Op::Asr,
        (Num::Int, FastOp::IntDiv { rem, unsigned }) => Op::IntDiv { rem, unsigned },
        (Num::F32, FastOp::Add) => Op::FAdd,
        (Num::F32, FastOp::Mul) => Op::FMul,
        (Num::F32, FastOp::Mad) => Op::FMad,
        // The word form's comparison (sources of one signedness), or one of integers of one
        // signedness read as rows of words or bytes (IGC's `cmp (eq) null:w r1:w 0:w` on the
        // local ids), each extended to 32 bits; every channel in the row.
        (num, FastOp::Cmp { nan_true })
            if (f.word || (num == Num::Int && f.src[0].elem.signed == f.src[1].elem.signed))
                && matches!(f.ch.n, 1 | 8 | 16 | 32) =>
        {
            Op::Cmp {
                cond: f.cond?,
                float: num == Num::F32,
                signed: f.src[0].elem.signed,
                nan_true,
            }
        }
        (_, FastOp::Sel) if f.cond.is_none() => Op::Sel,
        // Integer sources compared at one signedness (the interpreter's word form).
        (num, FastOp::Sel) if num == Num::F32 || f.src[0].elem.signed == f.src[1].elem.signed => {
            Op::SelCmp {
                cond: f.cond?,
                float: num == Num::F32,
                signed: f.src[0].elem.signed,
            }
        }
        _ => return None,
    };
    let is_cmp = matches!(op, Op::Cmp { .. });
    let reads_cond = is_cmp || matches!(op, Op::SelCmp { .. } | Op::Half { cond: Some(_), .. });
    // Another operation's condition: the word form's test of an integer's 32-bit result.
    let flag = match f.cond {
        Some(c) if !reads_cond => {
            let integer = matches!(
                op,
                Op::Mov
                    | Op::Not
                    | Op::Add
                    | Op::Mul
                    | Op::And
                    | Op::Or
                    | Op::Xor
                    | Op::Shl
                    | Op::Shr
                    | Op::Asr
            );
            if !(f.word && f.num == Num::Int && integer && f.dst_elem.size == 4) {
                return None;
            }
            Some((c, f.dst_elem.signed))
        }
        _ => None,
    };
    if !matches!(f.ch.n, 1 | 4 | 8 | 16 | 32) {
        return None;
    }
    // Per-channel and horizontal group predicates (`.any16h`: IGC's scalar block-read
    // set-up); the vertical ones (`.anyv`) combine two flag registers and stay interpreted.
    if vertical(&f.ch) {
        return None;
    }
    if let Some(step) = spread(f, op, flag) {
        return Some(step);
    }
    let n = f.ch.n;
    // Words every other word (the low or the high words of DWords): the DWords merged.
    let words = op == Op::Mov
        && f.num == Num::Int
        && flag.is_none()
        && f.dst_elem.size == 2
        && n >= 4
        && f.dst.is_some_and(|d| d.stride == 4 && d.base % 2 == 0);
    let dst = match f.dst {
        // The DWords whose low or high words it writes.
        Some(d) if words => Some(d.base & !3),
        Some(d) if f.dst_elem.size == 4 && (d.stride == 4 || n == 1) => Some(d.base),
        // Words: SIMD8 and wider packed in whole rows (a raw SIMD16 `:hf` move, `:w`
        // arithmetic), or one.
        Some(d)
            if f.dst_elem.size == 2
                && !is_cmp
                && (n == 1 || (n >= 8 && d.stride == 2 && d.base % 16 == 0)) =>
        {
            Some(d.base)
        }
        None if is_cmp || flag.is_some() => None,
        _ => return None,
    };
    let mut src = [Lanes::Imm(0); 3];
    let mut sign = [Sign::NONE; 3];
    for (k, s) in src.iter_mut().enumerate().take(op.arity()) {
        let fs = f.src[k];
        // The half helper takes its sources as they are.
        if fs.sign != Sign::NONE && matches!(op, Op::Half { .. }) {
            return None;
        }
        sign[k] = fs.sign;
        *s = lanes(&fs, f.ch.n)?;
    }
    if let (true, Some(base), Some(d)) = (words, dst, f.dst) {
        let dwords = Elem {
            size: 4,
            signed: false,
        };
        src[1] = Lanes::Row {
            base,
            stride: 4,
            elem: dwords,
        };
        return Some(Step {
            op: Op::Words {
                high: d.base % 4 == 2,
            },
            n: f.ch.n,
            ch: f.ch,
            dst,
            dst_size: 4,
            src,
            sign,
            flag,
        });
    }
    Some(Step {
        op,
        n: f.ch.n,
        ch: f.ch,
        dst,
        dst_size: f.dst_elem.size,
        src,
        sign,
        flag,
    })
}

/// [`Op::Spread`]: an integer `mov` of DWords without a condition whose source steps by 8
/// bytes or whose destination does (and the other by 4, or one element), on more than one
/// channel.
fn spread(f: &Fast, op: Op, flag: Option<(CondMod, bool)>) -> Option<Step> {
    let s = f.src[0];
    if op != Op::Mov || f.num != Num::Int || flag.is_some() || f.ch.n < 2 {
        return None;
    }
    if f.dst_elem.size != 4 || s.elem.size != 4 {
        return None;
    }
    let d = f.dst?;
    let (src, strided) = match s.at {
        Src::Region { base, stride: 8 } => (
            Lanes::Row {
                base,
                stride: 8,
                elem: s.elem,
            },
            true,
        ),
        _ => (lanes(&s, f.ch.n)?, false),
    };
    if !(d.stride == 8 || (strided && d.stride == 4)) {
        return None;
    }
    Some(Step {
        op: Op::Spread {
            dst_stride: d.stride as u8,
        },
        n: f.ch.n,
        ch: f.ch,
        dst: Some(d.base),
        dst_size: 4,
        src: [src, Lanes::Imm(0), Lanes::Imm(0)],
        sign: [s.sign, Sign::NONE, Sign::NONE],
        flag: None,
    })
}
