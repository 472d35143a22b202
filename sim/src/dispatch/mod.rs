//! Thread dispatch: runs GPGPU_WALKER (Gen9–Gen12LP) and COMPUTE_WALKER (Xe-HPG) on the EU
//! interpreter.
//!
//! For every thread group in the walker's range (X fastest, then Y, then Z; each range runs
//! from the starting ID to the Dimension field, exclusive) the dispatcher creates the group's
//! hardware threads, loads each one's r0 and payload ([`payload`]), and runs them
//! cooperatively: each thread runs until it ends or waits at the gateway barrier; once every
//! thread of the group has arrived (or ended) the barrier releases them. Shared local memory
//! lives for one group. Groups run on a pool of host threads, a group's threads all on one
//! (`pool`: the memory a walker leaves does not depend on how many). The facts per
//! generation are in [`gen`].
//!
//! Errors carry the kernel's address and the instruction's byte offset in it
//! ([`KernelOffset`]): a memory access without a translation is a GPU page fault at its
//! address by that instruction; any other EU error is a GPU error at the instruction (with the
//! address for misaligned messages); a dispatch that spends its instruction budget, or its host
//! time without completing a thread group, is a hang naming the offset each unfinished thread
//! was at.

pub mod gen;
pub mod jit;
mod kernel;
mod memory;
pub mod payload;
mod pool;
pub mod post_sync;
pub mod progress;
mod ready;
pub mod record;
pub mod state;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use crate::cs::{Walker, WalkerExecutor};
use crate::gpu_error::{GpuErrorKind, HangReason, KernelOffset};
use kernel::Kernels;
use memory::{Refusal, VmMemory};
use pool::Shared;
use progress::{Cycles, Reset};
use sim_eu::{self as eu, EuError, EuErrorKind, Status, Thread};
use state::{resolve, Dispatch};

/// The simulator's own limits on one walker, behind the kernel drivers' hang rules (which
/// count simulated GPU time, [`progress`]): for fuzzing, and for loops no rule ends (i915 with
/// its heartbeat off) or ends only after more simulated seconds than is worth interpreting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EuBudget {
    /// Instructions all threads of one walker may execute together.
    pub instructions: u64,
    /// Wall-clock time one walker may go without completing a thread group.
    pub time: Duration,
}

impl Default for EuBudget {
    /// 2^36 instructions (137 s of one thread's simulated time, past every default rule), or
    /// two minutes of host time in which no thread group completes; a kernel stopped here is
    /// reported as a hang by the backstop.
    fn default() -> Self {
        EuBudget {
            instructions: 1 << 36,
            time: Duration::from_secs(120),
        }
    }
}

/// Instructions a thread runs before the scheduler looks at the budget and the other threads.
const SLICE: u64 = 1 << 14;

/// The walker executor backed by the EU interpreter (and translated code, [`jit`]). The
/// thread groups of a walker run on a pool of host threads (`pool`).
#[derive(Default)]
pub struct EuExecutor {
    budget: EuBudget,
    kernels: Mutex<Kernels>,
    /// Host threads per walker; 0: one per host core ([`std::thread::available_parallelism`]).
    host_threads: usize,
    /// The threads beside the calling one, kept between walkers.
    helpers: pool::Helpers,
    /// EU instructions the walkers that completed executed, all threads together.
    executed: AtomicU64,
    /// Of those, the ones that ran as translated code.
    translated: AtomicU64,
    /// Whether threads run translated code; None: as `INTEL_GPU_SIM_JIT` says.
    jit: Option<bool>,
    /// Interpreted instructions per kernel instruction after which a kernel translates;
    /// None: [`jit::HOT_PER_INSTRUCTION`].
    hot_after: Option<u64>,
}

impl EuExecutor {
    pub fn new(budget: EuBudget) -> Self {
        EuExecutor {
            budget,
            ..EuExecutor::default()
        }
    }

    /// Runs each walker's thread groups on at most `n` host threads (0: one per host core).
    /// Results do not depend on `n`; see `pool`.
    pub fn with_host_threads(mut self, n: usize) -> Self {
        self.host_threads = n;
        self
    }

    /// Runs threads through translated code (`true`) or the interpreter alone, whatever
    /// `INTEL_GPU_SIM_JIT` says. Results do not depend on it; see [`jit`].
    pub fn with_jit(mut self, on: bool) -> Self {
        self.jit = Some(on);
        self
    }

    /// With translated code on, translates a kernel after `per_instruction` interpreted
    /// instructions per instruction of it (0: before its first run, as tests of the translated
    /// code want) instead of [`jit::HOT_PER_INSTRUCTION`].
    pub fn with_jit_hot_after(mut self, per_instruction: u64) -> Self {
        self.hot_after = Some(per_instruction);
        self
    }

    /// Whether this executor's walkers run translated code (the sanitizer aside).
    pub fn jit(&self) -> bool {
        self.jit
            .unwrap_or_else(|| jit::from_env().unwrap_or(jit::DEFAULT))
    }

    /// EU instructions executed by every walker that completed so far (for benchmarks).
    pub fn instructions_executed(&self) -> u64 {
        self.executed.load(Ordering::Relaxed)
    }

    /// Of [`EuExecutor::instructions_executed`], the instructions that ran as translated
    /// code ([`jit`]).
    pub fn instructions_translated(&self) -> u64 {
        self.translated.load(Ordering::Relaxed)
    }
}

impl WalkerExecutor for EuExecutor {
    fn dispatch(&self, w: &Walker<'_>) -> Result<(), GpuErrorKind> {
        let d = resolve(w)?;
        // The walker's threads have the registers STATE_COMPUTE_MODE's Large GRF Mode gives
        // them on this platform (128 where it has no such mode).
        let grf_regs = w.platform.grf_regs(w.state.large_grf_mode()) as usize;
        // The sanitizer's checks are the interpreter's: a sanitized walker runs interpreted.
        let translate = (self.jit() && w.sanitizer.is_none())
            .then(|| self.hot_after.unwrap_or(jit::HOT_PER_INSTRUCTION));
        let (prog, tier) = self
            .kernels
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(w.platform, w.memory, d.kernel, grf_regs, translate);
        let start = w.clock.ticks();
        let (n, translated) = pool::run_groups(
            w,
            &d,
            &prog,
            tier.as_ref(),
            self.budget,
            self.host_threads,
            &self.helpers,
        )?;
        self.executed.fetch_add(n, Ordering::Relaxed);
        self.translated.fetch_add(translated, Ordering::Relaxed);
        if let Some(ps) = d.post_sync {
            post_sync::write(&ps, w.memory, w.clock, start)?;
        }
        Ok(())
    }

    fn record(&self, w: &Walker<'_>, ordinal: usize, offset: usize) -> Option<String> {
        Some(record::record(w, ordinal, offset))
    }

    fn wake(&self) {
        self.helpers.wake();
    }
}

/// The groups one host thread runs: its own data-port view and shared local memory.
struct Run<'a, 'w> {
    w: &'a Walker<'w>,
    d: &'a Dispatch,
    prog: &'a eu::Program,
    /// `prog`'s way to translated code, when threads may run it.
    tier: Option<&'a jit::Tier>,
    /// `prog`'s translated runs, when the group being run runs them (picked up at each
    /// group's start, so a group's threads run one way from start to end).
    tr: Option<&'a jit::Translation>,
    /// `prog`'s translation for threads with only their first channels
    /// ([`jit::FIRST_CHANNELS`]), when made (picked up as `tr`).
    tr_first: Option<&'a jit::Translation>,
    /// How threads start through `tr` (made with it, at each group's start).
    starter: Option<jit::Starter<'a>>,
    shared: &'a Shared<'w>,
    /// The hardware thread slot of the group's first thread (the others follow).
    first_slot: u32,
    mem: VmMemory<'a>,
    /// The EU threads of the group being run, reused group after group (reset to zero
    /// registers each time, so nothing of an earlier group shows).
    threads: Vec<Thread>,
    /// What readies a thread object for the group's next thread.
    ready: ready::ThreadReady,
    /// The group's cycle detector, kept to reuse its memory (out while a group runs).
    cycles: Option<Cycles>,
    /// Instructions this host thread executed and not yet taken off the walker's budget:
    /// settled once per group instead of once per EU thread (the budget is a shared atomic
    /// the other host threads update too). Runs are capped by the budget minus these.
    pending: u64,
    /// Instructions this host thread ran as translated code, not yet added to the walker's.
    translated: u64,
    /// Instructions threads with only their first channels ran on this host thread, not yet
    /// counted towards their own translation.
    first_channels: u64,
    /// The sanitizer's findings of the group being run (handed to the walker's after it).
    findings: eu::sanitize::Findings,
    /// The execution statistics of the group being run (`stats`; handed over as findings).
    stats: eu::sanitize::ExecStats,
    /// The sanitizer's state of the group being run (unused when it is off).
    group: eu::sanitize::Group,
    /// `prog` has a `dpasw`, whose fused EU pairs are threads 2j and 2j + 1.
    fused: bool,
}

/// Why a thread's slice stopped its group.
enum Stop {
    /// The walker's instruction budget is spent.
    Hang,
    Eu(EuError),
}

impl Run<'_, '_> {
    /// Runs group `id`; `Ok` with the instructions its longest thread executed. The caller
    /// reports it to the walker's [`progress::Progress`] and settles the budget
    /// ([`Run::settle`]), for a run of groups at a time.
    fn group(&mut self, id: [u32; 3], ordinal: u64) -> Result<u64, GpuErrorKind> {
        let tr = jit::ready(self.tier);
        // (A kernel translates once: this host thread's `tr` changes at most once a walker.)
        if tr.is_some() != self.tr.is_some() {
            self.starter = jit::starter(self.prog, tr, &self.mem);
        }
        self.tr = tr;
        self.tr_first = jit::ready_for_first_channels(self.tier);
        let mut threads = std::mem::take(&mut self.threads);
        // (Taken out as an Option: a `Cycles` left in its place would be built and dropped
        // once per group, a one-item group's noticeable cost.)
        let mut cycles = self.cycles.take().unwrap_or_default();
        let res = self.run_group(&mut threads, &mut cycles, id, ordinal);
        self.threads = threads;
        self.cycles = Some(cycles);
        if !self.findings.is_empty() {
            let mine = std::mem::take(&mut self.findings);
            self.shared
                .findings
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .merge(mine);
        }
        if !self.stats.is_empty() {
            let mine = std::mem::take(&mut self.stats);
            self.shared
                .stats
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .merge(&mine);
        }
        res
    }

    /// Takes the instructions run so far off the walker's budget, and counts those that ran
    /// interpreted towards the kernel's translation.
    fn settle(&mut self) {
        jit::note_interpreted(
            self.tier,
            self.pending.saturating_sub(self.translated),
            self.prog,
        );
        jit::note_first_channels(
            self.tier,
            std::mem::take(&mut self.first_channels),
            self.prog,
        );
        self.shared.spend(std::mem::take(&mut self.pending));
        self.shared
            .translated
            .fetch_add(std::mem::take(&mut self.translated), Ordering::Relaxed);
    }

    fn run_group(
        &mut self,
        threads: &mut Vec<Thread>,
        cycles: &mut Cycles,
        id: [u32; 3],
        ordinal: u64,
    ) -> Result<u64, GpuErrorKind> {
        let d = self.d;
        let full = if d.simd >= 32 {
            u32::MAX
        } else {
            (1 << d.simd) - 1
        };
        let n = d.threads_per_group as usize;
        self.mem.clear_slm();
        if let Some(scope) = self.shared.sanitize {
            let slm = scope
                .slm_bytes
                .map_or(self.mem.slm_len(), |b| (b as usize).min(self.mem.slm_len()));
            self.group.start(scope.checks, id, ordinal, n, slm);
        }
        cycles.reset(n);
        // The first round starts the threads in dispatch order, each loaded just before its
        // first slice. A thread that ends in it hands its register file on to the next (a
        // short kernel's group then works in one file, which stays in the host's cache),
        // unless threads are told apart by their place: the sanitizer's reports and the fused
        // EU pairs of `dpasw` name them by dispatch order.
        let reuse = self.shared.sanitize.is_none() && !self.fused;
        let (w, shared) = (self.w, self.shared);
        let loader = payload::Loader::new(
            w.platform,
            d,
            w.memory,
            shared.indirect.as_ref(),
            id,
            ordinal,
        );
        self.ready
            .group(w.platform, d, self.prog, &loader, self.first_slot);
        let mut kept = 0;
        let mut ended_longest = 0;
        let mut endless = true;
        let mut first = 0;
        // The threads, one after another in one register file through the kernel's starter,
        // for as long as each ends in its first slice: the loop below with what it asks of
        // each thread that is the same for all of them asked once. A last thread with only
        // its first channels is left to that loop (it runs their own translation).
        let mask_of = |i: usize| if i + 1 == n { d.last_mask } else { full };
        let wide = |mask: u32| mask & !jit::FIRST_CHANNELS != 0;
        let fresh = if wide(d.last_mask) {
            n
        } else {
            n.saturating_sub(1)
        };
        let bound = match &self.starter {
            Some(s) if reuse && wide(full) && fresh > 0 => jit::bind(s, &mut self.mem),
            _ => None,
        };
        if let Some(mut bound) = bound {
            let made = threads.is_empty();
            if made {
                threads.push(Thread::new(mask_of(0)));
            }
            let t = &mut threads[0];
            let mut stopped = None;
            for i in 0..fresh {
                let mask = mask_of(i);
                let new = made && i == 0;
                self.ready
                    .ready(t, new, 0, i, mask, mask == full, &loader)?;
                let left = shared.left().saturating_sub(self.pending);
                let st = jit::start_bound(&mut bound, t, SLICE.min(left), &mut self.translated);
                let ran = t.instructions_executed();
                self.pending += ran;
                if matches!(st, Ok(Status::Ended)) && t.is_ended() {
                    ended_longest = ended_longest.max(ran);
                    endless = false;
                } else {
                    stopped = Some((i, st));
                    break;
                }
            }
            first = fresh;
            if let Some((i, st)) = stopped {
                let t = &mut threads[0];
                let r = self.sliced(st, t, 0, cycles, &mut endless);
                if t.is_ended() {
                    ended_longest = ended_longest.max(t.instructions_executed());
                } else {
                    kept = 1;
                }
                r.map_err(|stop| self.stopped(stop, &threads[..kept]))?;
                first = i + 1;
            }
        }
        for i in first..n {
            let mask = mask_of(i);
            let at = if reuse { kept } else { i };
            let new = threads.len() <= at;
            if new {
                threads.push(Thread::new(mask));
            }
            let Some(t) = threads.get_mut(at) else {
                continue;
            };
            // The sanitizer's threads are not handed on: each clears all it may hold.
            self.ready
                .ready(t, new, at, i, mask, reuse && mask == full, &loader)?;
            let slice = self.slice(t, at, id, cycles, &mut endless);
            if reuse && t.is_ended() {
                ended_longest = ended_longest.max(t.instructions_executed());
            } else {
                kept += 1;
            }
            slice.map_err(|stop| self.stopped(stop, &threads[..kept]))?;
        }
        let threads = &mut threads[..kept];
        loop {
            self.run_fused_pairs(threads)?;
            let longest = threads
                .iter()
                .map(Thread::instructions_executed)
                .fold(ended_longest, u64::max);
            if threads.iter().all(Thread::is_ended) {
                return Ok(longest);
            }
            if let Err(r) = self.shared.progress.check((!endless).then_some(longest)) {
                return Err(self.timeout(r, threads));
            }
            // Every thread still running is at the barrier: the gateway releases them.
            // (A thread that ended counts as arrived.)
            if threads.iter().all(|t| t.is_ended() || t.barrier_pending()) {
                if let Some(scope) = self.shared.sanitize {
                    self.group
                        .release(scope.checks, scope.entry, threads, &mut self.findings);
                }
                threads.iter_mut().for_each(Thread::release_barrier);
            }
            // Whether every thread that ran this round came back to an earlier state.
            endless = true;
            for i in 0..threads.len() {
                let t = &mut threads[i];
                if t.is_ended() || eu::waits_at_barrier(t, self.prog) || self.at_dpasw(t) {
                    continue;
                }
                self.slice(t, i, id, cycles, &mut endless)
                    .map_err(|stop| self.stopped(stop, threads))?;
            }
        }
    }

    /// Runs thread `i` (`t`) for a slice of its instructions; clears `endless` unless it came
    /// back to an earlier state.
    #[inline(always)]
    fn slice(
        &mut self,
        t: &mut Thread,
        i: usize,
        id: [u32; 3],
        cycles: &mut Cycles,
        endless: &mut bool,
    ) -> Result<(), Stop> {
        let before = t.instructions_executed();
        let left = self.shared.left().saturating_sub(self.pending);
        let status = match self.shared.sanitize {
            None if t.live() & !jit::FIRST_CHANNELS == 0 => {
                let r = jit::run(
                    t,
                    self.prog,
                    self.tr_first.or(self.tr),
                    &mut self.mem,
                    SLICE.min(left),
                    &mut self.translated,
                );
                self.first_channels += t.instructions_executed() - before;
                r
            }
            None => match &self.starter {
                Some(starter) if before == 0 => jit::start(
                    starter,
                    t,
                    &mut self.mem,
                    SLICE.min(left),
                    &mut self.translated,
                ),
                _ => jit::run(
                    t,
                    self.prog,
                    self.tr,
                    &mut self.mem,
                    SLICE.min(left),
                    &mut self.translated,
                ),
            },
            Some(scope) => {
                let place = eu::sanitize::Place {
                    group: id,
                    thread: i as u32,
                };
                let mut s = eu::sanitize::Sanitizing::new(
                    &mut self.mem,
                    self.prog,
                    scope,
                    place,
                    &mut self.findings,
                    &mut self.group,
                );
                let budget = SLICE.min(left);
                let r = if scope.checks.has(eu::sanitize::Check::Stats) {
                    let eu::sanitize::ExecStats { counts, bytes } = &mut self.stats;
                    let mut c = eu::sanitize::Counting::new(&mut s, bytes);
                    eu::run_counted(t, self.prog, &mut c, budget, counts)
                } else {
                    eu::run(t, self.prog, &mut s, budget)
                };
                if let Err(e) = &r {
                    s.stopped(e);
                }
                r
            }
        };
        self.pending += t.instructions_executed() - before;
        self.sliced(status, t, i, cycles, endless)
    }

    /// What follows thread `i`'s (`t`'s) slice that ended with `status`, its instructions
    /// counted: the budget settled when it ran out, `endless` cleared unless the thread came
    /// back to an earlier state.
    #[inline(always)]
    fn sliced(
        &mut self,
        status: Result<Status, EuError>,
        t: &Thread,
        i: usize,
        cycles: &mut Cycles,
        endless: &mut bool,
    ) -> Result<(), Stop> {
        match status {
            Ok(Status::Ended | Status::Barrier | Status::Fused) => *endless = false,
            Ok(Status::Budget) => {
                self.settle();
                if self.shared.exhausted() {
                    return Err(Stop::Hang);
                }
                *endless &= cycles.repeats(i, t);
            }
            Err(e) => return Err(Stop::Eu(e)),
        }
        Ok(())
    }

    /// The GPU error for a group stopped in a slice, `threads` its threads being run.
    fn stopped(&mut self, stop: Stop, threads: &[Thread]) -> GpuErrorKind {
        match stop {
            Stop::Hang => self.hang(threads),
            Stop::Eu(e) => self.eu_error(e),
        }
    }

    /// Whether `t` waits at a `dpasw` for the other thread of its fused EU pair.
    fn at_dpasw(&self, t: &Thread) -> bool {
        !t.is_ended()
            && self
                .prog
                .insts
                .get(t.ip() as usize)
                .is_some_and(|i| i.opcode == isa_encoder::model::Opcode::Dpasw)
    }

    /// Runs the `dpasw` of every fused EU pair whose two threads are both at it. On Xe-HPG two
    /// EUs are fused and run a pair of a thread group's threads in lockstep: threads 2j (the
    /// pair's EU0) and 2j + 1 in dispatch order. Evidence: vISA DPASW.md ("hardware threads
    /// must be paired ... the number of threads within a work group must be an even number")
    /// and oneDNN's GEMM generator, which takes a thread's fused ID (0: EU0) as bit 0 of its
    /// local ID x divided by the SIMD width (`getFusedID`), threads being dispatched x first.
    /// A thread at a `dpasw` whose partner cannot come (ended, absent, or held at a barrier
    /// the waiting thread keeps closed) is an error naming the instruction.
    fn run_fused_pairs(&mut self, threads: &mut [Thread]) -> Result<(), GpuErrorKind> {
        if !threads.iter().any(|t| self.at_dpasw(t)) {
            return Ok(());
        }
        for pair in threads.chunks_mut(2) {
            if let [eu0, eu1] = pair {
                // A run of consecutive dpasw (oneDNN's GEMM issues them back to back) goes
                // through together, so a pair left at a dpasw has a partner elsewhere.
                while self.at_dpasw(eu0) && self.at_dpasw(eu1) {
                    eu::run_fused(eu0, eu1, self.prog).map_err(|e| self.eu_error(e))?;
                }
            }
        }
        // Stuck: nothing can run, and the barrier cannot open (some thread has not signalled
        // it) while a thread waits at dpasw.
        let stuck = threads
            .iter()
            .all(|t| t.is_ended() || eu::waits_at_barrier(t, self.prog) || self.at_dpasw(t))
            && !threads.iter().all(|t| t.is_ended() || t.barrier_pending());
        if let Some(i) = (0..threads.len())
            .find(|&i| self.at_dpasw(&threads[i]))
            .filter(|_| stuck)
        {
            let offset = self.offset_of(&threads[i]);
            let partner = match threads.get(i ^ 1) {
                None => "does not exist (odd thread count)".to_string(),
                Some(p) if p.is_ended() => "ended".to_string(),
                Some(p) if eu::waits_at_barrier(p, self.prog) => format!(
                    "waits at the barrier at offset {:#x}, which thread {i} keeps closed",
                    self.offset_of(p)
                ),
                Some(p) => format!("stands at offset {:#x}", self.offset_of(p)),
            };
            return Err(self.eu_error(EuError {
                offset,
                kind: EuErrorKind::Illegal(format!(
                    "dpasw without its fused EU partner: thread {i} of {} waits at it, its \
                     partner (thread {}) {partner}",
                    threads.len(),
                    i ^ 1
                )),
            }));
        }
        Ok(())
    }

    /// The kernel offset of the instruction thread `t` is about to execute.
    fn offset_of(&self, t: &Thread) -> u32 {
        self.prog
            .insts
            .get(t.ip() as usize)
            .map_or(u32::MAX, |i| i.pc)
    }

    /// The kernel driver's hang rule reset the engine (or the simulator proved an endless
    /// loop no rule ends).
    fn timeout(&self, r: Reset, threads: &[Thread]) -> GpuErrorKind {
        let offsets = threads
            .iter()
            .filter(|t| !t.is_ended())
            .take(4)
            .map(|t| self.offset_of(t))
            .collect();
        timeout(self.w, self.d, r, offsets)
    }

    fn hang(&self, threads: &[Thread]) -> GpuErrorKind {
        GpuErrorKind::Hang(HangReason::EuWatchdog {
            kernel: self.d.kernel,
            threads: threads
                .iter()
                .filter(|t| !t.is_ended())
                .take(4)
                .map(|t| self.offset_of(t))
                .collect(),
        })
    }

    /// The GPU error for an EU error: a page fault names the instruction that made the access;
    /// a refused binding table entry or surface state is an unusable surface.
    fn eu_error(&mut self, e: EuError) -> GpuErrorKind {
        let at = KernelOffset {
            kernel: self.d.kernel,
            offset: e.offset,
        };
        match (e.kind, self.mem.refusal.take()) {
            (EuErrorKind::PageFault { .. }, Some(Refusal::Fault(fault))) => {
                GpuErrorKind::PageFault {
                    fault,
                    by: Some(at),
                }
            }
            (_, Some(Refusal::BadSurface(why))) => GpuErrorKind::Eu {
                at,
                error: EuErrorKind::Surface(why),
            },
            (error, _) => GpuErrorKind::Eu { at, error },
        }
    }
}

/// The kernel driver's hang rule reset the engine while the walker ran; `threads`: the
/// offsets unfinished threads were at, where known.
fn timeout(w: &Walker<'_>, d: &Dispatch, r: Reset, threads: Vec<u32>) -> GpuErrorKind {
    GpuErrorKind::Hang(HangReason::Timeout {
        rule: w.timer.rule.describe(),
        at_ns: r.at_ns,
        kernel: d.kernel,
        threads,
        endless: r.endless,
    })
}
