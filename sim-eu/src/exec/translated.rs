//! What a translator of pre-decoded instructions to host code (the `sim-jit` crate) needs of a
//! thread beyond the public API: the whole byte file, the executing channels, retiring
//! instructions it ran exactly as the run loop does, and running one send on its own. Kept in
//! its own file so that the thread's layout (`regfile`) can change without touching this seam.

use isa_encoder::model::{Opcode, Shape};

use super::{advance, enter, run_simple, send, sync, take_branch, Flow, Status};
use crate::dataport::{self, Memory};
use crate::error::{EuError, EuErrorKind};
use crate::program::simple::Simple;
use crate::program::{Inst, Loc, Program};
use crate::regfile::{Thread, CE, FLAG, MME};

/// Whether the interpreter may run `inst` on its own in the middle of a translated run, the
/// run's code going on after it or, where the thread stops to wait for a barrier (`sync.bar`,
/// `wait`: [`stops_for_a_barrier`]), leaving the run there, to be entered again at the wait:
/// it does not branch, it is not a fused pair's `dpasw` (which both threads of
/// the pair run together, outside any run), and it writes nothing a run assumes fixed
/// while it runs: the execution mask, `cr0` (the rounding mode), `ip` and the other control
/// registers (`ce`, `sr0`, `n0`, `tm0`), which an indirect destination might be. The GRF,
/// `a0`, the accumulators and the flags it may write: a run keeps none of those in host
/// registers across such an instruction.
pub fn runs_inside_a_run(inst: &Inst) -> bool {
    if inst.invalid.is_some()
        || matches!(inst.opcode.shape(), Shape::Branch)
        || matches!(inst.opcode, Opcode::Illegal | Opcode::Dpasw)
    {
        return false;
    }
    match inst.dst.loc {
        Loc::Indirect { .. } => false,
        Loc::Imm | Loc::Null => true,
        Loc::File => {
            let size = crate::program::type_bytes(inst.dst.ty).max(1);
            inst.dst
                .offs
                .iter()
                .take(usize::from(inst.n.max(1)))
                .all(|&o| {
                    let (lo, hi) = (usize::from(o), usize::from(o) + size);
                    hi <= CE || lo >= MME
                })
        }
    }
}

/// What `run(t, prog, mem, 0)` does and answers, without the run loop: the interpreter's
/// start-of-run bookkeeping (`tm0`, a starting thread's dispatched scratch fields, whether
/// the memory hears of sends or follows registers: its [`Memory::observes_sends`] and
/// [`Memory::tracks_registers`], asked by the caller), then [`Status::Ended`] for an ended
/// thread, [`Status::Fused`] at a fused pair's `dpasw`, an error past the kernel's end,
/// else [`Status::Budget`]: what translated code's run loop does before each stretch it runs.
#[inline(always)]
pub fn begin(
    t: &mut Thread,
    prog: &Program,
    observes_sends: bool,
    tracks_registers: bool,
) -> Result<Status, EuError> {
    if t.ended {
        return Ok(Status::Ended);
    }
    enter(t, prog, observes_sends, tracks_registers);
    match prog.insts.get(t.ip as usize) {
        None => Err(EuErrorKind::RanOffEnd.at(prog.end)),
        Some(i) if i.opcode == Opcode::Dpasw && i.invalid.is_none() => Ok(Status::Fused),
        Some(_) => Ok(Status::Budget),
    }
}

/// Whether a thread may stop at `inst` to wait for its barrier ([`super::waits_at_barrier`]):
/// it resumes at that instruction, which then lets it go on to the next, so a translation
/// makes both places where its run is entered again.
pub fn stops_for_a_barrier(inst: &Inst) -> bool {
    super::holds_at_barrier(inst)
}

/// Runs the instruction at the thread's `ip` when it is a send (its classified form when it
/// has one), has another simple form (a `nop`, a `sync` that does not wait) or is a barrier's
/// wait (`sync.bar`, `wait`: the thread stops there, [`Status::Barrier`], while its barrier
/// is pending) exactly as `run(t, prog, mem, 1)` does, with its result and error, without the
/// run loop's look-ups: a translated run's call out for a send pays only for the send and
/// the interpreter's entry. `None`, with no instruction run (the entry's bookkeeping at most,
/// as `run` sets it again), for any other instruction, or when the thread has ended or the
/// memory needs the run loop (it follows registers or watches sends): then `run` it.
/// `needs_run_loop`: the memory's [`Memory::tracks_registers`] or
/// [`Memory::observes_sends`], which a caller that makes many calls with one memory asks
/// once.
pub fn run_one(
    t: &mut Thread,
    prog: &Program,
    mem: &mut dyn Memory,
    needs_run_loop: bool,
) -> Option<Result<Status, EuError>> {
    if t.ended || needs_run_loop {
        return None;
    }
    let inst = prog.insts.get(t.ip as usize)?;
    if inst.invalid.is_some() {
        return None;
    }
    if super::holds_at_barrier(inst) {
        // A barrier's wait, as the run loop's step: counted, and passed once the barrier
        // completed.
        enter(t, prog, false, false);
        t.executed += 1;
        if let Flow::Wait = sync(t, inst) {
            return Some(Ok(Status::Barrier));
        }
        advance(t);
        return Some(Ok(Status::Budget));
    }
    // The run loop's step for a send.
    let general = |t: &mut Thread, mem: &mut dyn Memory| {
        let (enabled, pred) = super::channels(t, inst);
        send(t, prog, inst, enabled & pred, mem)
    };
    let flow = match prog.simple.get(t.ip as usize) {
        Some(Some(s)) => {
            enter(t, prog, false, false);
            match run_simple(t, s, mem) {
                Some(flow) => Ok(flow),
                // The classified form declined: the general frame.
                None if s.send.is_some() => general(t, mem),
                None => return None,
            }
        }
        _ if inst.opcode.shape() == Shape::Send && !inst.reads_ce => {
            enter(t, prog, false, false);
            general(t, mem)
        }
        _ => return None,
    };
    // Counted as the run loop counts it: before it runs, so an error too.
    t.executed += 1;
    Some(match flow {
        // Counted, not advanced, as the run loop does.
        Ok(Flow::Ended) => Ok(Status::Ended),
        // Next: a send or a simple instruction never jumps or waits.
        Ok(_) => {
            advance(t);
            Ok(Status::Budget)
        }
        Err(k) => Err(k.at(inst.pc)),
    })
}

/// Ends the thread at its instruction when that is the thread spawner's end of thread (a
/// classified end-of-thread send with nothing else to it), as [`run_one`] does for a
/// thread started by [`begin`] with a memory that neither follows registers nor hears of
/// sends (the caller's to know): counted, not advanced; `tm0`, which nothing reads after the
/// end, keeps the count `begin` wrote. `false`, having changed nothing, for any other
/// instruction or an ended thread.
#[inline(always)]
pub fn end_plain(t: &mut Thread, prog: &Program) -> bool {
    let plain = prog
        .simple
        .get(t.ip as usize)
        .is_some_and(|s| s.is_some_and(|s| s.ends_plainly()));
    if t.ended || !plain {
        return false;
    }
    t.executed += 1;
    t.ended = true;
    true
}

/// Runs the send at instruction `ip` (not one that ends the thread) on the channels `mask`
/// (enabled and predicated, bit 0 its first channel) as the run loop does, without counting
/// it or moving past it: what translated code calls for a send between its instructions.
/// A classified send runs its classified form; a load or store the data port may run again
/// ([`dataport::SendPlan::repeatable`]: the sampler's, the HDC's) runs whole. `false` when
/// the send is neither, when the memory hears of sends or follows registers (the run loop
/// tells it), when the classified form declines (a masked block, a misaligned or unmapped
/// access; nothing changed) or when the load or store fails (a fault, part of it done: run
/// again, it fails the same way): then the run loop runs it.
#[inline]
pub fn run_send(t: &mut Thread, prog: &Program, ip: u32, mask: u32, mem: &mut dyn Memory) -> bool {
    if t.observe_sends || t.track_regs {
        return false;
    }
    match prog.simple.get(ip as usize) {
        Some(Some(Simple {
            send: Some((q, false)),
            ..
        })) => dataport::quick::run(t, *q, mask, mem),
        _ => {
            let Some(inst) = prog.insts.get(ip as usize) else {
                return false;
            };
            if inst.invalid.is_some() || inst.reads_ce {
                return false;
            }
            match &inst.send {
                Some(plan) if plan.repeats => matches!(
                    dataport::execute(t, prog.platform, plan, inst.n, mask, mem),
                    Ok(out) if !out.eot
                ),
                _ => false,
            }
        }
    }
}

impl Thread {
    /// The thread's whole byte file (GRF, then the architecture registers); its length bounds
    /// every operand offset a decoded instruction holds.
    #[inline]
    pub fn file(&self) -> &[u8] {
        &self.file
    }

    /// [`Thread::file`], writable.
    #[inline]
    pub fn file_mut(&mut self) -> &mut [u8] {
        &mut self.file
    }

    /// The byte offset of the flag registers (f0.0 first) in [`Thread::file`].
    pub fn flag_offset(&self) -> usize {
        FLAG
    }

    /// The channels executing at [`Thread::ip`].
    #[inline]
    pub fn active(&self) -> u32 {
        self.active
    }

    /// The channels still running: those dispatched, less those that halted.
    #[inline]
    pub fn live(&self) -> u32 {
        self.live
    }

    /// The first instruction a waiting channel resumes at (`u32::MAX`: none waits): the run
    /// loop lets those channels rejoin when sequential execution reaches it.
    #[inline]
    pub fn next_wake(&self) -> u32 {
        self.next_wake
    }

    /// Puts the thread at instruction `ip` with `executed` instructions executed in all, as
    /// the run loop leaves it after reaching `ip` by sequential execution or by a branch
    /// whose channels all jumped (or none did) — what translated code that ran from
    /// [`Thread::ip`] with the same executing channels reports: channels waiting at `ip` or
    /// before it rejoin, and the thread continues at the first instruction any waits at.
    #[inline]
    pub fn resume(&mut self, ip: u32, executed: u64) {
        self.executed = executed;
        self.ip = ip;
        if ip >= self.next_wake {
            super::rejoin(self);
        }
    }

    /// Channels `parked` wait at instruction `at` and channels `active` execute: what a
    /// loop's passes left them as translated code ran them without telling the thread (each
    /// pass's back edge as [`Thread::take_branch`] takes it, the channels that left the loop
    /// waiting after it).
    pub fn park(&mut self, at: u32, parked: u32, active: u32) {
        self.waits.add(at, parked & !active);
        self.active = active;
        self.next_wake = self.waits.first();
    }

    /// Executes the branch at `ip`, reached as [`Thread::resume`] describes with `executed`
    /// instructions before it and no channel waiting there or before it, whose executing
    /// channels `jump` go to instruction `to` and the others to the next (the rule
    /// `exec::structured` gives): as the run loop does, the branch is counted, both groups
    /// wait, and the thread continues at the first instruction any channel waits at
    /// ([`Thread::ip`], [`Thread::active`], [`Thread::next_wake`]). False when no channel is
    /// left: the thread has ended.
    pub fn take_branch(&mut self, ip: u32, executed: u64, to: u32, jump: u32) -> bool {
        self.executed = executed + 1;
        self.ip = ip;
        !matches!(take_branch(self, ip + 1, to, jump), Flow::Ended)
    }
}
