//! Runs a thread with its translated runs interleaved with the interpreter: at an instruction
//! where a translated run is entered the host code runs until it leaves the run, when the
//! budget and the waiting channels allow; anything else goes to `sim_eu::run` up to the next
//! such instruction or branch. Both work on the same register file and flags.

use sim_eu::dataport::direct::{DirectTable, NO_WINDOWS};
use sim_eu::regfile::FLAG;
use sim_eu::rounding::Rounding;
use sim_eu::{EuError, Memory, Program, Status, Thread};

use crate::check::{checking, ENV_CHECK};
use crate::emit::{BARRIER_PENDING, HEARS_SENDS, LEFT_AT, LEFT_RAN};
use crate::translated::{Entry, Translated};

/// [`sim_eu::run`] with `tr`, the translation of `prog`: the same result, the same thread
/// state, the same count of executed instructions (`tm0` aside: the interpreter writes the
/// count there when it is entered, which here is once per interpreted stretch).
pub fn run(
    t: &mut Thread,
    prog: &Program,
    tr: &Translated,
    mem: &mut dyn Memory,
    budget: u64,
) -> Result<Status, EuError> {
    run_counted(t, prog, tr, mem, budget, &mut 0)
}

/// [`run`], adding to `translated` the instructions the translated code executed.
#[inline]
pub fn run_counted(
    t: &mut Thread,
    prog: &Program,
    tr: &Translated,
    mem: &mut dyn Memory,
    budget: u64,
    translated: &mut u64,
) -> Result<Status, EuError> {
    let mut counts = Counts::default();
    let st = run_counting(t, prog, tr, mem, budget, &mut counts);
    *translated += counts.translated;
    st
}

/// What [`run_counting`] adds up.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Instructions the translated code executed.
    pub translated: u64,
    /// Times a translated run was entered.
    pub entered: u64,
}

/// [`run`], adding to `counts`.
pub fn run_counting(
    t: &mut Thread,
    prog: &Program,
    tr: &Translated,
    mem: &mut dyn Memory,
    budget: u64,
    counts: &mut Counts,
) -> Result<Status, EuError> {
    // The interpreter's start-of-run bookkeeping (tm0, the dispatched scratch fields of a
    // starting thread), as a run without budget does it.
    // Asked once: the start and the calls out of the runs need them.
    let (observes, tracks) = (mem.observes_sends(), mem.tracks_registers());
    let st = sim_eu::exec::begin(t, prog, observes, tracks)?;
    if st != Status::Budget {
        return Ok(st);
    }
    let mut left = budget;
    let needs_run_loop = tracks || observes;
    // A memory that hears of sends sees each one through the classified send's call.
    let windows: *const DirectTable = if needs_run_loop {
        &NO_WINDOWS
    } else {
        mem.direct_windows()
    };
    loop {
        let ip = t.ip();
        let entry = tr.entries.get(ip as usize).copied().flatten();
        if let Some(e) = entry {
            if may_enter(t, tr, &e, ip, left) {
                let check = checking().then(|| t.clone());
                let Entered {
                    ran,
                    interpreted,
                    called_out,
                    stopped,
                    ended,
                } = enter(t, prog, tr, mem, &e, left, windows, needs_run_loop);
                counts.translated += ran - interpreted;
                counts.entered += 1;
                left = left.saturating_sub(ran);
                if ended {
                    return Ok(Status::Ended);
                }
                match stopped {
                    None => {}
                    Some(Ok(Status::Budget)) => continue,
                    Some(other) => return other,
                }
                // A run that called out may have reached memory, which the interpreter's
                // second go would then see changed (a checked kernel's sends stay out of its
                // runs; a translation made with them inside is not checked).
                if let Some(mut reference) = check.filter(|_| !called_out) {
                    compare_with_interpreter(&mut reference, t, prog, mem, ip, ran)?;
                }
                // A run that left before its first instruction (its channels part ways at a
                // branch there) leaves that instruction to the interpreter.
                if ran != 0 {
                    continue;
                }
            }
        }
        if left == 0 {
            return Ok(Status::Budget);
        }
        // Interpret up to the next run start, or the first branch (which may jump to a run
        // start); at least this one instruction.
        let stop = tr.stop.get(ip as usize + 1).copied().unwrap_or(u32::MAX);
        let stretch = u64::from(stop.saturating_sub(ip)).clamp(1, left);
        let before = t.instructions_executed();
        let st = sim_eu::run(t, prog, mem, stretch)?;
        left = left.saturating_sub(t.instructions_executed() - before);
        if st != Status::Budget {
            return Ok(st);
        }
    }
}

/// Threads that start at instruction 0 where a translated run starts, run one after another
/// with one memory (a dispatcher's work-group): what [`run_counting`] works out at each
/// thread's start that is the same for all of them (the memory's answers, the run, whether
/// runs are checked), worked out once, so that a short thread pays only for its run.
pub struct Starter<'a> {
    prog: &'a Program,
    tr: &'a Translated,
    entry: Entry,
    /// The window table of the memory it was made for ([`Memory::direct_windows`]), which
    /// the run's code reads: compared with the table of the memory each thread runs with.
    windows: *const DirectTable,
}

impl<'a> Starter<'a> {
    /// `None` where a thread's start takes [`run_counting`]'s way all the same: no run starts
    /// at instruction 0 (or it is a fused pair's `dpasw`), the memory hears of sends or
    /// follows registers, or runs are checked against the interpreter ([`checking`]).
    pub fn new(prog: &'a Program, tr: &'a Translated, mem: &dyn Memory) -> Option<Starter<'a>> {
        let entry = tr.entries.first().copied().flatten()?;
        let plain_first = prog
            .insts
            .first()
            .is_some_and(|i| i.opcode != isa_encoder::model::Opcode::Dpasw);
        if !plain_first || mem.observes_sends() || mem.tracks_registers() || checking() {
            return None;
        }
        Some(Starter {
            prog,
            tr,
            entry,
            windows: mem.direct_windows(),
        })
    }

    /// [`run_counting`] on `prog` and `tr` with `mem`, for a thread that has executed
    /// nothing: the same result, thread and counts. A memory other than the one this starter
    /// was made for (another window table) takes `run_counting`'s way: the run's code reads
    /// the table this starter holds.
    pub fn run(
        &self,
        t: &mut Thread,
        mem: &mut dyn Memory,
        budget: u64,
        counts: &mut Counts,
    ) -> Result<Status, EuError> {
        match self.bind(mem) {
            Some(mut bound) => bound.run(t, budget, counts),
            None => run_counting(t, self.prog, self.tr, mem, budget, counts),
        }
    }

    /// This starter with `mem` for a run of threads (a work-group's, one after another),
    /// when `mem` is the memory it was made for (its window table); `None` for another.
    #[inline]
    pub fn bind<'s, 'm>(&'s self, mem: &'m mut dyn Memory) -> Option<Bound<'s, 'a, 'm>> {
        (mem.direct_windows() == self.windows).then_some(Bound { starter: self, mem })
    }
}

/// A [`Starter`] with the memory it was made for ([`Starter::bind`]), checked once for all
/// the threads it starts.
pub struct Bound<'s, 'a, 'm> {
    starter: &'s Starter<'a>,
    mem: &'m mut dyn Memory,
}

impl Bound<'_, '_, '_> {
    /// [`Starter::run`] with the bound memory.
    #[inline]
    pub fn run(
        &mut self,
        t: &mut Thread,
        budget: u64,
        counts: &mut Counts,
    ) -> Result<Status, EuError> {
        let Starter {
            prog,
            tr,
            ref entry,
            windows,
        } = *self.starter;
        let mem = &mut *self.mem;
        let fresh = t.instructions_executed() == 0 && t.ip() == 0 && !t.is_ended();
        if !(fresh && may_enter(t, tr, entry, 0, budget)) {
            return run_counting(t, prog, tr, mem, budget, counts);
        }
        // The start's bookkeeping; its answer is `Budget` (instruction 0 is there and not a
        // `dpasw`), checked all the same.
        if sim_eu::exec::begin(t, prog, false, false)? != Status::Budget {
            return run_counting(t, prog, tr, mem, budget, counts);
        }
        let Entered {
            ran,
            interpreted,
            stopped,
            ended,
            ..
        } = enter(t, prog, tr, mem, entry, budget, windows, false);
        counts.translated += ran - interpreted;
        counts.entered += 1;
        if ended {
            return Ok(Status::Ended);
        }
        match stopped {
            // On as `run_counting` goes on (a run that left before its first instruction
            // has the interpreter run it there, which `run_counting` does too).
            None | Some(Ok(Status::Budget)) => {
                run_counting(t, prog, tr, mem, budget.saturating_sub(ran), counts)
            }
            Some(other) => other,
        }
    }
}

/// Whether `t`, at instruction `ip` where the run `e` may be entered (its start or a block's),
/// enters it with `left` instructions of budget: when the run's rest fits in the budget (a
/// jump back checks again), channels that wait rejoin only where it checks for them (at its
/// blocks' starts, where it leaves, or past its end: waiting channels change the execution
/// mask, which a run takes as fixed), the bytes it touches are in the file and the rounding
/// mode is the one it was made for.
#[inline(always)]
fn may_enter(t: &Thread, tr: &Translated, e: &Entry, ip: u32, left: u64) -> bool {
    let end = u64::from(e.start) + u64::from(e.len);
    let rest = end - u64::from(ip);
    rest <= left
        && t.active() != 0
        && t.live() & !tr.live == 0
        && (tr.waits_at_blocks || u64::from(t.next_wake()) >= end)
        && e.extent <= t.file().len()
        && FLAG + 8 <= t.file().len()
        && Rounding::of(t) == Rounding::NearestEven
}

/// What a run entered by [`enter`] did.
struct Entered {
    /// Instructions the thread executed in it, and of those the interpreter's.
    ran: u64,
    interpreted: u64,
    /// Whether the run called out for a send or interpreted instructions.
    called_out: bool,
    /// Why it stopped early ([`Inside::stopped`]), the thread's end included unless
    /// `ended`.
    stopped: Option<Result<Status, EuError>>,
    /// The thread ended plainly where the run left it (`stopped` is then `None`): apart,
    /// so that the usual way out never moves a whole result about.
    ended: bool,
}

/// Runs the translated run `e` from the thread's instruction (one of the run's block starts,
/// where the caller checked the run may be entered) until it leaves, with up to `left`
/// instructions; a run that leaves for the interpreter to run one instruction (the thread's
/// end, a barrier's wait) has it run here.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn enter(
    t: &mut Thread,
    prog: &Program,
    tr: &Translated,
    mem: &mut dyn Memory,
    e: &Entry,
    left: u64,
    windows: *const DirectTable,
    needs_run_loop: bool,
) -> Entered {
    let before = t.instructions_executed();
    let active = t.active();
    let wake = t.next_wake().saturating_sub(e.start);
    let thread: *mut Thread = t;
    let mut inside = Inside {
        barrier_pending: u32::from(t.barrier_pending()),
        left_at: NOT_LEFT,
        left_ran: 0,
        hears_sends: u32::from(needs_run_loop),
        thread,
        prog,
        mem: &mut *mem,
        start: e.start,
        len: e.len,
        blocks: &tr.block_of,
        base: before,
        needs_run_loop,
        interpreted: 0,
        called_out: false,
        stopped: None,
    };
    // SAFETY: `thread` is `t`, not used through `t` until the call returns.
    let file = unsafe { (*thread).file_mut().as_mut_ptr() };
    let ctx: *mut Inside = &mut inside;
    // The file (a boxed slice, never reallocated) is reached only by the run's code and,
    // while the run waits for it, by `escape` through `ctx`, which lives until the call
    // returns. The run reads the `windows` table and copies only within windows it read,
    // both kept by `mem` (`Memory::direct_windows`). Of `inside` it reads the barrier flag
    // and writes the `left_` fields, at the offsets checked below (`Inside` is `repr(C)`).
    // SAFETY: the run touches file bytes below `e.extent` and the 8 flag bytes at `FLAG`,
    // which the caller checked to be inside the file; the rest as above.
    unsafe {
        (e.run)(
            file,
            active,
            ctx.cast(),
            escape,
            left,
            e.block,
            wake,
            send,
            part,
            windows,
        )
    };
    // (Field by field: the run's usual way out, the thread's end, then never copies the
    // context's `stopped`, which it does not read.)
    let (called_out, left_at, left_ran) = (inside.called_out, inside.left_at, inside.left_ran);
    let (interpreted, stopped, ended) = if left_at != NOT_LEFT {
        // The run left for the interpreter to run one instruction: the thread spawner's
        // end, or a barrier's wait where the thread stops.
        let interpreted = inside.interpreted;
        t.resume(e.start + left_at, before + left_ran);
        let (stopped, ended) = if !needs_run_loop && sim_eu::exec::end_plain(t, prog) {
            (None, true)
        } else {
            let r = sim_eu::exec::run_one(t, prog, mem, needs_run_loop)
                .unwrap_or_else(|| sim_eu::run(t, prog, mem, 1));
            (Some(r), false)
        };
        (
            interpreted + t.instructions_executed() - (before + left_ran),
            stopped,
            ended,
        )
    } else {
        (inside.interpreted, inside.stopped, false)
    };
    Entered {
        ran: t.instructions_executed() - before,
        interpreted,
        called_out,
        stopped,
        ended,
    }
}

/// What a translated run's interpreted instructions need ([`escape`]'s context), and what
/// its code reads of the thread: whether its barrier is pending (at [`BARRIER_PENDING`]).
#[repr(C)]
struct Inside<'a> {
    /// 1 while the thread's barrier is pending (signalled, not yet released), else 0: kept
    /// by every call out of the run that may signal it.
    barrier_pending: u32,
    /// Where the run left for the interpreter to run one instruction (the thread's end or a
    /// barrier's wait), [`NOT_LEFT`] if it did not, and the instructions it executed before
    /// ([`LEFT_AT`], [`LEFT_RAN`]).
    left_at: u32,
    left_ran: u64,
    /// 1 when the memory hears of sends or follows registers (`needs_run_loop`): then no
    /// send is skipped for having no channels ([`crate::emit::HEARS_SENDS`]).
    hears_sends: u32,
    thread: *mut Thread,
    prog: &'a Program,
    mem: &'a mut dyn Memory,
    /// The run's first instruction and its instructions.
    start: u32,
    len: u32,
    /// [`Translated::block_of`].
    blocks: &'a [u32],
    /// The thread's executed count when the run was entered.
    base: u64,
    /// The memory's `tracks_registers() || observes_sends()`.
    needs_run_loop: bool,
    /// Instructions the interpreter ran.
    interpreted: u64,
    /// Whether the run called out for a send or interpreted instructions.
    called_out: bool,
    /// Why the run stopped early: what the interpreter answered when its instructions did not
    /// all run in sequence (an error, the thread's end, a barrier, a fused pair).
    stopped: Option<Result<Status, EuError>>,
}

/// [`Inside::left_at`] of a run that did not leave for one instruction.
const NOT_LEFT: u32 = u32::MAX;

// The translated code reads and writes these where the emitter says they are.
const _: () = {
    assert!(std::mem::offset_of!(Inside<'static>, barrier_pending) as i32 == BARRIER_PENDING);
    assert!(std::mem::offset_of!(Inside<'static>, left_at) as i32 == LEFT_AT);
    assert!(std::mem::offset_of!(Inside<'static>, left_ran) as i32 == LEFT_RAN);
    assert!(std::mem::offset_of!(Inside<'static>, hears_sends) as i32 == HEARS_SENDS);
};

/// [`crate::emit::EscapeFn`]: puts the thread at the run's instruction `index` with `ran`
/// executed since the run was entered, then interprets `count` instructions from there.
///
/// # Safety
/// `ctx` is the [`Inside`] the run was called with, alive and not otherwise borrowed.
unsafe extern "C" fn escape(ctx: *mut u8, index: u32, count: u32, ran: u64) -> u32 {
    // SAFETY: per this function's contract.
    let inside = unsafe { &mut *ctx.cast::<Inside>() };
    // SAFETY: the thread the run was entered for, which nothing else touches while the run
    // waits for this call (the run's code stored what it held before calling).
    let t = unsafe { &mut *inside.thread };
    let at = inside.start + index;
    t.resume(at, inside.base + ran);
    if count == 0 {
        return 0;
    }
    inside.called_out = true;
    let before = t.instructions_executed();
    // Sends (most calls out: IGC's block reads between arithmetic, an image's sampler
    // messages) skip the run loop, one at a time; the rest of the stretch from the first
    // instruction that is not one goes to the run loop.
    let mut r = Ok(Status::Budget);
    for left in (1..=count).rev() {
        match sim_eu::exec::run_one(t, inside.prog, inside.mem, inside.needs_run_loop) {
            Some(Ok(Status::Budget)) => {}
            Some(other) => {
                r = other;
                break;
            }
            None => {
                r = sim_eu::run(t, inside.prog, inside.mem, u64::from(left));
                break;
            }
        }
    }
    let ran = t.instructions_executed() - before;
    inside.interpreted += ran;
    inside.barrier_pending = u32::from(t.barrier_pending());
    match r {
        Ok(Status::Budget) if ran == u64::from(count) && t.ip() == at + count => 0,
        other => {
            inside.stopped = Some(other);
            1
        }
    }
}

/// [`crate::emit::SendFn`]: the send at the run's instruction `index` on the channels
/// `mask`, uncounted ([`sim_eu::exec::run_send`]).
///
/// # Safety
/// `ctx` is the [`Inside`] the run was called with, alive and not otherwise borrowed.
unsafe extern "C" fn send(ctx: *mut u8, index: u32, mask: u32) -> u32 {
    // SAFETY: per this function's contract.
    let inside = unsafe { &mut *ctx.cast::<Inside>() };
    // SAFETY: the thread the run was entered for, which nothing else touches while the run
    // waits for this call (the run's code stored what it held before calling).
    let t = unsafe { &mut *inside.thread };
    inside.called_out = true;
    let ran = sim_eu::exec::run_send(t, inside.prog, inside.start + index, mask, inside.mem);
    // A gateway message may have signalled the barrier.
    inside.barrier_pending = u32::from(t.barrier_pending());
    u32::from(!ran)
}

/// [`crate::emit::PartFn`]: the branch at the run's instruction `index`, its channels `jump`
/// going to the run's instruction `to`, taken as the run loop does
/// ([`Thread::take_branch`]), or the instruction `index` reached in sequence
/// ([`crate::emit::REJOIN`]: [`Thread::resume`]), or channels a loop parted itself put
/// waiting ([`crate::emit::PARK`]); the run goes on at the block where the
/// thread continues, or returns (`u32::MAX`) when it ended or continues outside the run's
/// blocks.
///
/// # Safety
/// `ctx` is the [`Inside`] the run was called with, alive and not otherwise borrowed; `out`
/// points to three writable, 4-byte aligned words, the first written when `to` is
/// [`crate::emit::PARK`].
unsafe extern "C" fn part(
    ctx: *mut u8,
    index: u32,
    to: u32,
    jump: u32,
    ran: u64,
    out: *mut u32,
) -> u32 {
    // SAFETY: per this function's contract.
    let inside = unsafe { &mut *ctx.cast::<Inside>() };
    // SAFETY: the thread the run was entered for, which nothing else touches while the run
    // waits for this call (the run's code stored what it held before calling).
    let t = unsafe { &mut *inside.thread };
    let (start, len) = (inside.start, inside.len);
    if to == crate::emit::PARK {
        // SAFETY: per this function's contract.
        let active = unsafe { out.read() };
        t.park(start + index + 1, jump, active);
        return 0;
    }
    if to == crate::emit::REJOIN {
        t.resume(start + index, inside.base + ran);
    } else if !t.take_branch(start + index, inside.base + ran, start + to, jump) {
        inside.stopped = Some(Ok(Status::Ended));
        return u32::MAX;
    }
    let ip = t.ip();
    let block = match ip.checked_sub(start) {
        Some(at) if at < len => inside.blocks.get(ip as usize).copied(),
        _ => None,
    };
    let Some(block) = block.filter(|&b| b != u32::MAX) else {
        return u32::MAX;
    };
    let words = [ip - start, t.active(), t.next_wake().saturating_sub(start)];
    // SAFETY: per this function's contract.
    unsafe { std::ptr::copy_nonoverlapping(words.as_ptr(), out, 3) };
    block
}

/// Runs `len` instructions from `ip` on `reference` (the thread before the translated run)
/// with the interpreter and compares the register files: a difference is a translation
/// error, reported with the run and the first differing byte.
fn compare_with_interpreter(
    reference: &mut Thread,
    t: &Thread,
    prog: &Program,
    mem: &mut dyn Memory,
    ip: u32,
    len: u64,
) -> Result<(), EuError> {
    let _ = sim_eu::run(reference, prog, mem, len)?;
    let at_pc = |i: u32| prog.insts.get(i as usize).map_or(0, |x| x.pc);
    let entered = format!(
        "{ENV_CHECK}: the translated run entered at instruction {ip} (offset {:#x}) for {len} \
         instructions",
        at_pc(ip)
    );
    if (reference.ip(), reference.active()) != (t.ip(), t.active()) {
        return Err(sim_eu::EuErrorKind::Illegal(format!(
            "{entered} left the thread at instruction {} with channels {:#x}, the interpreter \
             at {} with {:#x}",
            t.ip(),
            t.active(),
            reference.ip(),
            reference.active()
        ))
        .at(at_pc(ip)));
    }
    let (want, got) = (reference.file(), t.file());
    // tm0 and ip are the interpreter's bookkeeping (it writes tm0 when entered).
    let bookkeeping = sim_eu::regfile::TM0..sim_eu::regfile::IP + 32;
    let differs = |&i: &usize| want[i] != got[i] && !bookkeeping.contains(&i);
    let Some(at) = (0..want.len().min(got.len())).find(differs) else {
        return Ok(());
    };
    Err(sim_eu::EuErrorKind::Illegal(format!(
        "{entered} differs from the interpreter at register-file byte {at} (r{}.{}): {:#04x} \
         translated, {:#04x} interpreted",
        at / sim_eu::regfile::REG_BYTES,
        at % sim_eu::regfile::REG_BYTES,
        got[at],
        want[at]
    ))
    .at(at_pc(ip)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use platform::Platform;
    use sim_eu::NoMemory;

    #[test]
    fn the_check_names_the_first_register_byte_the_interpreter_disagrees_with() {
        let text = "add (16|M0) r10.0<1>:d r2.0<8;8,1>:d 3:d\nmul (16|M0) r12.0<1>:d r10.0<8;8,1>:d r2.0<8;8,1>:d\nnop\n";
        let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
        let prog = Program::decode(Platform::Tgllp, &bytes);
        let mut t = Thread::new(0xffff);
        for (i, b) in t.grf_mut().iter_mut().enumerate() {
            *b = i as u8;
        }
        let before = t.clone();
        sim_eu::run(&mut t, &prog, &mut NoMemory, 2).expect("runs");
        // The same instructions from the same state: no difference.
        compare_with_interpreter(&mut before.clone(), &t, &prog, &mut NoMemory, 0, 2)
            .expect("equal");
        // One wrong byte of r12 (as a faulty translation would leave it) is named.
        let at = 12 * 32 + 5;
        t.file_mut()[at] ^= 0x40;
        let e = compare_with_interpreter(&mut before.clone(), &t, &prog, &mut NoMemory, 0, 2)
            .expect_err("differs");
        assert!(
            e.to_string().contains("register-file byte 389 (r12.5)"),
            "{e}"
        );
    }
}
