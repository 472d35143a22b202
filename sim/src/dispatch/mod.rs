//! Thread dispatch: runs GPGPU_WALKER (Gen9–Gen12LP) and COMPUTE_WALKER (Xe-HPG) on the EU
//! interpreter.
//!
//! For every thread group in the walker's range (X fastest, then Y, then Z; each range runs
//! from the starting ID to the Dimension field, exclusive) the dispatcher creates the group's
//! hardware threads, loads each one's r0 and payload ([`payload`]), and runs them
//! cooperatively: each thread runs until it ends or waits at the gateway barrier; once every
//! thread of the group has arrived (or ended) the barrier releases them. Shared local memory
//! lives for one group. The facts per generation are in [`gen`].
//!
//! Errors carry the kernel's address and the instruction's byte offset in it
//! ([`KernelOffset`]): a memory access without a translation is a GPU page fault at its
//! address by that instruction; any other EU error is a GPU error at the instruction (with the
//! address for misaligned messages); a dispatch that spends its instruction or time budget is
//! a hang naming the offset each unfinished thread was at.

pub mod gen;
mod kernel;
mod memory;
pub mod payload;
pub mod progress;
pub mod state;

use std::sync::Mutex;
use std::time::{Duration, Instant};

use batchbuffer::Operation;

use crate::cs::{Walker, WalkerExecutor};
use crate::eu::{self, EuError, EuErrorKind, Status, Thread};
use crate::gpu::{GpuErrorKind, HangReason, KernelOffset};
use kernel::Kernels;
use memory::{Refusal, VmMemory};
use progress::{Cycles, Progress, Reset};
use state::{resolve, slm_bytes, Dispatch};

/// The simulator's own limits on one walker, behind the kernel drivers' hang rules (which
/// count simulated GPU time, [`progress`]): for fuzzing, and for loops no rule ends (i915 with
/// its heartbeat off) or ends only after more simulated seconds than is worth interpreting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EuBudget {
    /// Instructions all threads of one walker may execute together.
    pub instructions: u64,
    /// Wall-clock time one walker may take.
    pub time: Duration,
}

impl Default for EuBudget {
    /// 2^36 instructions (137 s of one thread's simulated time, past every default rule) or two
    /// minutes of host time; a kernel stopped here is reported as a hang by the backstop.
    fn default() -> Self {
        EuBudget {
            instructions: 1 << 36,
            time: Duration::from_secs(120),
        }
    }
}

/// Instructions a thread runs before the scheduler looks at the budget and the other threads.
const SLICE: u64 = 1 << 14;

/// The walker executor backed by the EU interpreter.
#[derive(Default)]
pub struct EuExecutor {
    budget: EuBudget,
    kernels: Mutex<Kernels>,
}

impl EuExecutor {
    pub fn new(budget: EuBudget) -> Self {
        EuExecutor {
            budget,
            kernels: Mutex::new(Kernels::default()),
        }
    }
}

impl WalkerExecutor for EuExecutor {
    fn dispatch(&self, w: &Walker<'_>) -> Result<(), GpuErrorKind> {
        let d = resolve(w)?;
        let prog = self
            .kernels
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(w.platform, w.memory, d.kernel);
        let mut run = Run {
            w,
            d: &d,
            prog: &prog,
            left: self.budget.instructions,
            deadline: Instant::now() + self.budget.time,
            progress: Progress::new(w.timer, w.platform, d.threads_per_group),
            mem: VmMemory::new(w.platform, w.memory, d.bases, d.idd.binding_table_pointer),
        };
        run.mem.slm = vec![0; slm_bytes(&d.idd)];
        let mut ordinal = 0u64;
        for z in d.group_start[2]..d.group_end[2] {
            for y in d.group_start[1]..d.group_end[1] {
                for x in d.group_start[0]..d.group_end[0] {
                    // Checked per group too: a huge grid of short threads must end as well.
                    if run.left == 0 || Instant::now() > run.deadline {
                        return Err(run.hang(&[]));
                    }
                    // Gen9's stretch is the whole walker: its rule may expire between groups.
                    if let Err(r) = run.progress.check(Some(0)) {
                        return Err(run.timeout(r, &[]));
                    }
                    run.group([x, y, z], ordinal)?;
                    ordinal += 1;
                }
            }
        }
        if let Some(ps) = d.post_sync {
            let v = match ps.operation {
                Operation::WriteTimestamp => w.clock.ticks(),
                _ => ps.immediate_data,
            };
            w.memory.write_u64(ps.destination_address, v)?;
        }
        Ok(())
    }
}

/// One walker in progress.
struct Run<'a, 'w> {
    w: &'a Walker<'w>,
    d: &'a Dispatch,
    prog: &'a eu::Program,
    left: u64,
    deadline: Instant,
    progress: Progress<'w>,
    mem: VmMemory<'w>,
}

impl Run<'_, '_> {
    fn group(&mut self, id: [u32; 3], ordinal: u64) -> Result<(), GpuErrorKind> {
        let d = self.d;
        let full = if d.simd >= 32 {
            u32::MAX
        } else {
            (1 << d.simd) - 1
        };
        let n = d.threads_per_group;
        let mut threads = Vec::with_capacity(n as usize);
        for i in 0..n {
            let mask = if i + 1 == n { d.last_mask } else { full };
            let mut t = Thread::new(mask);
            payload::load(self.w.platform, d, self.w.memory, &mut t, id, ordinal, i)?;
            threads.push(t);
        }
        self.mem.slm.fill(0);
        let mut cycles = Cycles::new(threads.len());
        loop {
            // Whether every thread that ran this round came back to an earlier state.
            let mut endless = true;
            for (i, t) in threads.iter_mut().enumerate() {
                if t.is_ended() || t.barrier_pending() {
                    continue;
                }
                let before = t.instructions_executed();
                let status = eu::run(t, self.prog, &mut self.mem, SLICE.min(self.left));
                self.left = self.left.saturating_sub(t.instructions_executed() - before);
                match status {
                    Ok(Status::Ended | Status::Barrier) => endless = false,
                    Ok(Status::Budget) => {
                        if self.left == 0 || Instant::now() > self.deadline {
                            return Err(self.hang(&threads));
                        }
                        endless &= cycles.repeats(i, t);
                    }
                    Err(e) => return Err(self.eu_error(e)),
                }
            }
            let longest = threads
                .iter()
                .map(Thread::instructions_executed)
                .max()
                .unwrap_or(0);
            if threads.iter().all(Thread::is_ended) {
                self.progress.group_done(longest);
                return Ok(());
            }
            if let Err(r) = self.progress.check((!endless).then_some(longest)) {
                return Err(self.timeout(r, &threads));
            }
            // Every thread still running is at the barrier: the gateway releases them.
            // (A thread that ended counts as arrived.)
            if threads.iter().all(|t| t.is_ended() || t.barrier_pending()) {
                threads.iter_mut().for_each(Thread::release_barrier);
            }
        }
    }

    /// The kernel offset of the instruction thread `t` is about to execute.
    fn offset_of(&self, t: &Thread) -> u32 {
        self.prog
            .insts
            .get(t.ip as usize)
            .map_or(u32::MAX, |i| i.pc)
    }

    /// The kernel driver's hang rule reset the engine (or the simulator proved an endless
    /// loop no rule ends).
    fn timeout(&self, r: Reset, threads: &[Thread]) -> GpuErrorKind {
        GpuErrorKind::Hang(HangReason::Timeout {
            rule: self.w.timer.rule.describe(),
            at_ns: r.at_ns,
            kernel: self.d.kernel,
            threads: threads
                .iter()
                .filter(|t| !t.is_ended())
                .take(4)
                .map(|t| self.offset_of(t))
                .collect(),
            endless: r.endless,
        })
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
