//! The run loop: execution masks, predication, per-channel control flow and dispatch to the
//! ALU and send handlers.
//!
//! Control flow follows the hardware's per-channel instruction pointers: every channel that
//! is not at the current instruction waits at the instruction it branched to. After a branch
//! the thread continues at the smallest instruction any live channel waits at, and a channel
//! rejoins when sequential execution reaches its instruction. With JIP/UIP as the compiler sets
//! them this gives `if`/`else`/`endif`, `while`/`break`/`cont`, `goto`/`join` and `halt` their
//! architectural meaning without a mask stack. The waiting channels are kept as one channel
//! mask per instruction they wait at (`waits`), so a branch is a few mask operations.

pub mod alu;
pub mod dpas;
pub mod fast;
mod flags;
mod goto;
pub mod lanes;
mod macros;
pub mod structured;
mod translated;
pub use translated::{begin, end_plain, run_one, run_send, runs_inside_a_run, stops_for_a_barrier};
pub(crate) mod waits;

use isa_encoder::model::{Opcode, PredCtrl, Predicate, Shape, Subfunction, SyncFn};

use crate::dataport::{self, scratch, Memory};
use crate::error::{EuError, EuErrorKind};
use crate::program::channels::Channels;
use crate::program::simple::Simple;
use crate::program::{Inst, Program, Target};
use crate::regfile::{Thread, CE, REG_BYTES, TM0};
use crate::rounding::Rounding;
use waits::Waits;

/// Why [`run`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The thread sent its end-of-thread message (or every channel halted).
    Ended,
    /// The thread waits at a gateway barrier; call [`Thread::release_barrier`] once every
    /// thread of its group arrived, then [`run`] again.
    Barrier,
    /// The instruction budget ran out; [`run`] again to continue (a watchdog decides when a
    /// thread is hung).
    Budget,
    /// The thread is at a `dpasw`, which it executes together with the other thread of its
    /// fused EU pair: call [`run_fused`] once both are there, then [`run`] again.
    Fused,
}

enum Flow {
    Next,
    Jumped,
    Ended,
    Wait,
}

/// The predicate per lane of an `n`-channel instruction whose flag register starts `rot` bits
/// into the flag file `flags`.
#[inline]
pub(crate) fn predicate_bits(flags: u64, p: Predicate, rot: u32, n: u8) -> u32 {
    let f = flags.rotate_right(rot);
    let bits = match p.ctrl {
        PredCtrl::AnyV | PredCtrl::AllV => vertical(flags, p.ctrl == PredCtrl::AllV, rot),
        ctrl => match ctrl.horizontal_group() {
            None => f as u32,
            Some((group, all)) => {
                let gm = if group == 32 {
                    u64::from(u32::MAX)
                } else {
                    (1u64 << group) - 1
                };
                let mut out = 0u32;
                let mut start = 0;
                while start < u32::from(n.max(1)) {
                    let g = (f >> start) & gm;
                    let v = if all { g == gm } else { g != 0 };
                    if v {
                        out |= (gm as u32) << start;
                    }
                    start += group;
                }
                out
            }
        },
    };
    if p.invert {
        !bits
    } else {
        bits
    }
}

/// The vertical predicate modes (`.anyv`, `.allv`): each lane's bit of f0 and the same bit of
/// f1, at the named subregister's offset within its register, ORed (any) or ANDed (all). Mesa
/// (`fs_inst::flags_read`: "the vertical predication modes combine corresponding bits from
/// f0.0 and f1.0 on Gfx7+") and the PRM's predicate control table ("any/all from f0.0-f1.0
/// on the same channel"). oneDNN's generated GEMM kernels test two alignments in one jump
/// with them.
fn vertical(flags: u64, all: bool, rot: u32) -> u32 {
    let at = rot % 32;
    let f0 = (flags >> at) as u32;
    let f1 = (flags >> (32 + at)) as u32;
    if all {
        f0 & f1
    } else {
        f0 | f1
    }
}

/// Makes the channels waiting at the first waiting instruction the executing ones (none
/// waiting: the thread has no channel left to run).
#[inline]
fn reschedule(t: &mut Thread) {
    let (ip, active) = match t.waits.pop() {
        Some(next) => next,
        // Every channel that entered the innermost call has returned: the caller's resume.
        None => match t.calls.pop() {
            Some(outer) => {
                t.waits = outer;
                return reschedule(t);
            }
            None => (u32::MAX, 0),
        },
    };
    t.ip = ip;
    t.active = active;
    t.next_wake = t.waits.first();
}

/// Moves to the next instruction, letting waiting channels rejoin when it is theirs. Inlined
/// into the fast path's loop; the rejoin itself is a call (not inlined, `advance` was a call
/// per instruction: +8 % host instructions on `eu_alu` under callgrind).
#[inline(always)]
fn advance(t: &mut Thread) {
    t.ip += 1;
    if t.ip >= t.next_wake {
        rejoin(t);
    }
}

/// The channels waiting at `t.ip` join the executing ones.
#[inline(never)]
fn rejoin(t: &mut Thread) {
    t.waits.add(t.ip, t.active);
    reschedule(t);
}

fn resolve(target: Option<Target>, what: &str) -> Result<u32, EuErrorKind> {
    match target {
        Some(Ok(i)) => Ok(i),
        Some(Err(t)) => Err(EuErrorKind::BadBranchTarget { target: t }),
        None => Err(EuErrorKind::Illegal(format!("branch without {what}"))),
    }
}

fn branch(
    t: &mut Thread,
    prog: &Program,
    inst: &Inst,
    enabled: u32,
    pred: u32,
) -> Result<Flow, EuErrorKind> {
    let next = t.ip + 1;
    let off = u32::from(inst.chan_off);
    let a = (enabled << off) & t.active;
    let p = (pred << off) & a;
    let (jump, to) = match inst.opcode {
        _ if let Some((rule, target, field)) = structured::structured(inst) => {
            let to = match rule {
                structured::Jumps::Nothing => next,
                _ => resolve(target, field)?,
            };
            (rule.of(a, p), to)
        }
        Opcode::Goto => {
            let to = resolve(inst.uip.or(inst.jip), "UIP")?;
            (goto::jumping(prog.platform, t.ip, to, a, p), to)
        }
        Opcode::Jmpi => {
            // jmpi is scalar: lane 0's predicate moves every active channel.
            let take = inst.pred.is_none() || pred & 1 != 0;
            let to = match inst.jip {
                // The register form (oneDNN's jump tables): the byte offset from the jmpi in
                // the register's first element, as the immediate form's JIP.
                None if inst.nsrc == 1 => {
                    let v = lanes::load_int(t, &inst.src[0], 1, false)?;
                    let target = i64::from(inst.pc) + i64::from(v[0] as i32);
                    u32::try_from(target)
                        .ok()
                        .and_then(|pc| prog.index_of(pc))
                        .ok_or(EuErrorKind::BadBranchTarget { target })?
                }
                jip => resolve(jip, "JIP")?,
            };
            (if take { t.active } else { 0 }, to)
        }
        Opcode::Call | Opcode::Calla => {
            let ret = prog.insts.get(next as usize).map_or(u32::MAX, |i| i.pc);
            let mut v = [0i64; 32];
            v[0] = i64::from(ret);
            lanes::store_int(t, &inst.dst, 1, 1, &v, false, false)?;
            let to = resolve(inst.jip, "JIP")?;
            // The channels outside the call wait until it returns (`Thread::calls`).
            let outside = std::mem::replace(&mut t.waits, Waits::EMPTY);
            t.calls.push(outside);
            (t.active, to)
        }
        Opcode::Ret => {
            let v = lanes::load_int(t, &inst.src[0], 1, false)?;
            let pc = v[0] as u32;
            let to = prog.index_of(pc).ok_or(EuErrorKind::BadBranchTarget {
                target: i64::from(pc),
            })?;
            if let Some(outside) = t.calls.last_mut() {
                // Back in the caller, behind the channels still in the callee.
                outside.add(to, t.active);
                t.active = 0;
                return Ok(take_branch(t, next, to, 0));
            }
            (t.active, to)
        }
        other => {
            return Err(EuErrorKind::Unsupported(format!(
                "branch {}",
                other.mnemonic()
            )))
        }
    };
    Ok(take_branch(t, next, to, jump))
}

/// The executing channels `jump` of a branch go to `to`, the others to `next`; the thread
/// goes on at the first instruction any channel waits at, or ends when none is left.
#[inline]
fn take_branch(t: &mut Thread, next: u32, to: u32, jump: u32) -> Flow {
    let jump = jump & t.active;
    t.waits.add(to, jump);
    t.waits.add(next, t.active & !jump);
    reschedule(t);
    if t.live == 0 || t.ip == u32::MAX {
        t.ended = true;
        return Flow::Ended;
    }
    Flow::Jumped
}

/// Runs an instruction in its [`Simple`] form as [`step`] would: `Flow::Next`, or
/// `Flow::Ended` after an end-of-thread message; `None`, having changed nothing, when the
/// message's classified form does not apply (the general path then executes it).
#[inline(always)]
fn run_simple(t: &mut Thread, s: &Simple, mem: &mut dyn Memory) -> Option<Flow> {
    let Some((q, eot)) = s.send else {
        return Some(Flow::Next);
    };
    if t.observe_sends {
        // The general path tells the memory of the send, once, whichever form executes it
        // (a quick form that declines would have it told twice).
        return None;
    }
    if s.ends_plainly() {
        // The thread spawner's end of thread (nearly every thread's last instruction): no
        // channel or memory matters.
        t.ended = true;
        return Some(Flow::Ended);
    }
    let (enabled, pred) = masks(t, &s.ch);
    if !dataport::quick::run(t, q, enabled & pred, mem) {
        return None;
    }
    if eot {
        t.ended = true;
        return Some(Flow::Ended);
    }
    Some(Flow::Next)
}

/// The enabled channels of `c` on `t` (shifted to its first channel) and its predicate (all
/// ones without one).
#[inline(always)]
pub(crate) fn masks(t: &Thread, c: &Channels) -> (u32, u32) {
    let enabled = if c.no_mask {
        c.lanes
    } else {
        (t.active >> c.chan_off) & c.lanes
    };
    let pred = match c.pred {
        None => u32::MAX,
        Some(p) => predicate_bits(t.flags(), p, c.flag_rot(), c.n),
    };
    (enabled, pred)
}

/// [`masks`] of `inst`.
#[inline(always)]
fn channels(t: &Thread, inst: &Inst) -> (u32, u32) {
    masks(t, &Channels::of(inst))
}

fn step<const TRACK: bool>(
    t: &mut Thread,
    prog: &Program,
    inst: &Inst,
    mem: &mut dyn Memory,
) -> Result<Flow, EuErrorKind> {
    if inst.reads_ce {
        t.file[CE..CE + 4].copy_from_slice(&t.active.to_le_bytes());
    }
    let (enabled, pred) = channels(t, inst);
    if TRACK && !matches!(inst.opcode.shape(), Shape::Send) {
        mem.on_inst(t, t.ip, enabled, pred);
    }
    match inst.opcode.shape() {
        Shape::Branch => branch(t, prog, inst, enabled, pred),
        Shape::Send => {
            let mask = enabled & pred;
            if t.observe_sends {
                mem.on_send(t, t.ip, mask);
            }
            let flow = send(t, prog, inst, mask, mem)?;
            if TRACK || t.observe_sends {
                mem.after_send(t, t.ip, mask);
            }
            Ok(flow)
        }
        Shape::Nullary if inst.opcode == Opcode::Illegal => {
            Err(EuErrorKind::Illegal("the illegal opcode".into()))
        }
        Shape::Nullary => Ok(Flow::Next),
        Shape::Sync | Shape::Wait => Ok(sync(t, inst)),
        Shape::Ternary if matches!(inst.opcode, Opcode::Dpas | Opcode::Dpasw) => {
            dpas::exec(t, prog.platform, inst, enabled).map(|()| Flow::Next)
        }
        Shape::Unary | Shape::Binary | Shape::Ternary => {
            if t.observe_sends && crate::sanitize::collective::reads_lanes_indirectly(inst) {
                mem.on_indirect(t, t.ip, enabled & pred);
            }
            alu::exec(t, inst, enabled, pred).map(|()| Flow::Next)
        }
    }
}

/// The send `inst` on the channels `mask`: its message, then the thread's end when it says so.
fn send(
    t: &mut Thread,
    prog: &Program,
    inst: &Inst,
    mask: u32,
    mem: &mut dyn Memory,
) -> Result<Flow, EuErrorKind> {
    let plan = inst
        .send
        .as_ref()
        .ok_or_else(|| EuErrorKind::Illegal("send without a plan".into()))?;
    if dataport::execute(t, prog.platform, plan, inst.n, mask, mem)?.eot {
        t.ended = true;
        return Ok(Flow::Ended);
    }
    Ok(Flow::Next)
}

/// Whether the instruction at `ip` starts a block: it has a fast form or a [`Simple`] one.
#[inline(always)]
fn in_block(prog: &Program, ip: usize) -> bool {
    match prog.fast.get(ip) {
        Some(Some(_)) => true,
        Some(None) => prog.simple.get(ip).is_some_and(Option::is_some),
        None => false,
    }
}

/// Hears of every instruction [`run_counted`] executes (the sanitizer's execution
/// statistics).
pub trait Counter {
    /// The instruction at index `ip` executes on `lanes` of its `n` channels (low bit: its
    /// first channel).
    fn executed(&mut self, ip: u32, n: u8, lanes: u32);
}

/// The counter of an uncounted run: [`run`]'s loop is [`run_loop`] with this, so the
/// counting compiles away there.
struct Uncounted;

impl Counter for Uncounted {
    #[inline(always)]
    fn executed(&mut self, _ip: u32, _n: u8, _lanes: u32) {}
}

/// Which of a counted run's lanes an instruction acts on: its enabled channels, and of those,
/// where its predicate enables lanes (not where it picks the source, `sel`, or the direction
/// of a branch), the predicated ones.
#[inline]
fn acting_lanes(t: &Thread, inst: &Inst) -> u32 {
    let (enabled, pred) = channels(t, inst);
    let picks = inst.opcode == Opcode::Sel || inst.opcode.shape() == Shape::Branch;
    if picks {
        enabled
    } else {
        enabled & pred
    }
}

/// Runs `t` on `prog` until it ends, waits at a barrier, or has executed `budget`
/// instructions. Errors carry the failing instruction's byte offset; the thread is left as it
/// was when the error happened.
pub fn run(
    t: &mut Thread,
    prog: &Program,
    mem: &mut dyn Memory,
    budget: u64,
) -> Result<Status, EuError> {
    if mem.tracks_registers() {
        return run_loop::<Uncounted, false, true>(t, prog, mem, budget, &mut Uncounted);
    }
    run_loop::<Uncounted, false, false>(t, prog, mem, budget, &mut Uncounted)
}

/// What entering the interpreter sets on the thread: `tm0` (the count executed so far), a
/// starting thread's dispatched scratch fields, whether the memory hears of sends and follows
/// registers, and the GRF size its program was decoded for.
#[inline(always)]
fn enter(t: &mut Thread, prog: &Program, observe_sends: bool, track_regs: bool) {
    t.file[TM0..TM0 + 8].copy_from_slice(&t.executed.to_le_bytes());
    if t.executed == 0 {
        // The thread starts: keep the scratch fields it was dispatched with, as the hardware
        // does (scratch messages take the slice from here, whatever their header holds).
        t.dispatched_scratch = [
            t.grf_u32(0, scratch::R0_SCRATCH_SIZE),
            t.grf_u32(0, scratch::R0_SCRATCH_POINTER),
        ];
    }
    t.observe_sends = observe_sends;
    t.track_regs = track_regs;
    t.grf_bytes = prog.grf_regs * REG_BYTES;
}

/// [`run`], telling `counter` of each instruction with the lanes it acts on before executing
/// it. Every instruction takes the general path (the fast path's blocks run without a hook
/// per instruction); the results are [`run`]'s.
pub fn run_counted<C: Counter>(
    t: &mut Thread,
    prog: &Program,
    mem: &mut dyn Memory,
    budget: u64,
    counter: &mut C,
) -> Result<Status, EuError> {
    if mem.tracks_registers() {
        return run_loop::<C, true, true>(t, prog, mem, budget, counter);
    }
    run_loop::<C, true, false>(t, prog, mem, budget, counter)
}

/// The run loop; `COUNT` and `TRACK` are constants, so [`run`]'s copy has no counting branch
/// and no register-tracking hook. A tracked run takes the fast path only while the memory
/// says no register holds a value it follows ([`Memory::registers_clean`]): there every
/// result is clean too. Sends leave the fast path's blocks then, so that the memory hears of
/// each one's effect.
#[inline(always)]
fn run_loop<C: Counter, const COUNT: bool, const TRACK: bool>(
    t: &mut Thread,
    prog: &Program,
    mem: &mut dyn Memory,
    budget: u64,
    counter: &mut C,
) -> Result<Status, EuError> {
    if t.ended {
        return Ok(Status::Ended);
    }
    enter(t, prog, mem.observes_sends(), TRACK);
    let mut left = budget;
    // The fast path rounds to nearest: a directed mode in cr0 takes the interpreter. cr0 is
    // read before each fast run only when the mode can be directed: the thread starts so or
    // the program may change it.
    let follow_cr0 = prog.sets_rounding || Rounding::of(t) != Rounding::NearestEven;
    loop {
        if !COUNT
            && left != 0
            && in_block(prog, t.ip as usize)
            && (!TRACK || mem.registers_clean())
            && (!follow_cr0 || Rounding::of(t) == Rounding::NearestEven)
        {
            // A run of fast-path and simple instructions, each counted and advanced as below;
            // none when the first one's simple form does not apply after all.
            let ran = fast::run_block(t, prog, mem, left);
            left -= ran;
            if t.ended {
                return Ok(Status::Ended);
            }
            if ran != 0 {
                continue;
            }
        }
        let Some(inst) = prog.insts.get(t.ip as usize) else {
            // Instructions are 8 (compacted) or 16 bytes: the kernel's length says where.
            return Err(EuErrorKind::RanOffEnd.at(prog.end));
        };
        if inst.opcode == Opcode::Dpasw && inst.invalid.is_none() {
            return Ok(Status::Fused);
        }
        if left == 0 {
            return Ok(Status::Budget);
        }
        left -= 1;
        t.executed += 1;
        if let Some(e) = &inst.invalid {
            return Err(e.clone().at(inst.pc));
        }
        if COUNT {
            counter.executed(t.ip, inst.n, acting_lanes(t, inst));
        }
        match step::<TRACK>(t, prog, inst, mem) {
            Ok(Flow::Next) => advance(t),
            Ok(Flow::Jumped) => {}
            Ok(Flow::Ended) => return Ok(Status::Ended),
            Ok(Flow::Wait) => return Ok(Status::Barrier),
            Err(k) => return Err(k.at(inst.pc)),
        }
    }
}

/// Whether `t` is held at a barrier: it signalled one that has not completed and stands at a
/// `sync.bar` or `wait`. Signalling does not stop a thread (the gateway message returns at
/// once): it runs on to its wait, which is how split barriers work (oneDNN signals early and
/// waits late, with `dpasw` between).
#[inline]
pub fn waits_at_barrier(t: &Thread, prog: &Program) -> bool {
    t.barrier_pending
        && prog
            .insts
            .get(t.ip() as usize)
            .is_some_and(holds_at_barrier)
}

/// A `sync` or `wait`: the thread waits while its barrier is pending and this is a barrier's
/// wait; otherwise (other `sync`s: a functional simulator's messages are complete when they
/// return) it goes on.
#[inline]
fn sync(t: &Thread, inst: &Inst) -> Flow {
    if t.barrier_pending && holds_at_barrier(inst) {
        Flow::Wait
    } else {
        Flow::Next
    }
}

/// The instructions at which a thread with a pending barrier waits: `sync.bar` and `wait`.
fn holds_at_barrier(i: &Inst) -> bool {
    i.func == Subfunction::Sync(SyncFn::Bar) || i.opcode.shape() == Shape::Wait
}

/// Executes the `dpasw` at which both threads of a fused EU pair stopped ([`Status::Fused`]),
/// `eu0` the pair's first EU. The hardware runs the two threads of a pair in lockstep, so both
/// must be at the same instruction.
pub fn run_fused(eu0: &mut Thread, eu1: &mut Thread, prog: &Program) -> Result<(), EuError> {
    let (Some(inst), true) = (prog.insts.get(eu0.ip as usize), eu0.ip == eu1.ip) else {
        let at = prog.insts.get(eu0.ip as usize).map_or(prog.end, |i| i.pc);
        return Err(EuErrorKind::Illegal(format!(
            "the threads of a fused EU pair diverged: a dpasw at offset {at:#x} in one, \
             instruction {} in the other",
            eu1.ip
        ))
        .at(at));
    };
    if inst.opcode != Opcode::Dpasw {
        return Err(EuErrorKind::Illegal("run_fused away from a dpasw".into()).at(inst.pc));
    }
    let enabled = [channels(eu0, inst).0, channels(eu1, inst).0];
    for t in [&mut *eu0, &mut *eu1] {
        t.grf_bytes = prog.grf_regs * REG_BYTES;
    }
    dpas::exec_fused(eu0, eu1, prog.platform, inst, enabled).map_err(|k| k.at(inst.pc))?;
    for t in [eu0, eu1] {
        t.executed += 1;
        advance(t);
    }
    Ok(())
}
