//! The thread groups of one walker on a pool of host threads.
//!
//! Each host thread takes the next run of groups in walker order (X fastest, then Y, then Z;
//! a few at a time, [`run_length`]) and runs all of each group's EU threads itself, so a
//! group's barriers and shared local memory never cross host threads. Groups share only global memory, where the hardware does not order them
//! either: plain accesses of different groups are unordered, and global atomics are indivisible
//! (`Memory::atomic`, one lock per walker). Whatever the number of host threads, a walker
//! whose groups do not race on plain memory leaves the same memory image.
//!
//! Errors: the walker reports the failing group that comes first in walker order, as a
//! sequential walk would. Groups after it may already have run (as on hardware, where groups
//! run concurrently); groups not yet started when it fails are not started.
//!
//! Host thread `w` runs its groups' EU threads in the hardware thread slots `w × n` to
//! `w × n + n - 1` (n threads per group), so that threads running at the same time have
//! different FFTIDs, as on the hardware: their scratch slices and the private memory IGC
//! indexes by hardware thread ID are their own. A walker runs on no more host threads than
//! the front end's thread slots hold groups.
//!
//! The host threads that help the calling one are kept from walker to walker ([`Helpers`]): a
//! thread spawned per walker often waited milliseconds for the scheduler to move it to the
//! idle core (the kernel places a new thread beside its parent), longer than a short walker.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use platform::Platform;

use super::gen::gen_dispatch;
use super::jit::Tier;
use super::memory::VmMemory;
use super::payload::IndirectData;
use super::progress::Progress;
use super::state::{slm_bytes, Dispatch};
use super::{timeout, EuBudget, Run};
use crate::cs::Walker;
use crate::gpu_error::GpuErrorKind;
use sim_eu::Program;

/// What the host threads of one walker share.
pub(super) struct Shared<'w> {
    /// The walker's simulated time and the kernel driver's hang rule.
    pub(super) progress: Progress<'w>,
    /// The next group ordinal to take.
    next: AtomicU64,
    /// Groups a host thread takes at a time at most ([`run_length`]), and the host threads
    /// taking them ([`Shared::take`]).
    run: u64,
    workers: u64,
    /// Instructions left for the whole walker.
    left: AtomicU64,
    /// When the walker started ([`coarse_nanos`]), and when a group last completed
    /// (nanoseconds after `started`): the host-time backstop counts from there, so a walker
    /// whose groups keep completing is never stopped by host time, however long a loaded host
    /// takes over all of them.
    started: u64,
    last_done: AtomicU64,
    patience: Duration,
    /// The first failing group in walker order: (ordinal, error).
    failed: Mutex<Option<(u64, GpuErrorKind)>>,
    /// Groups after this ordinal are not started (the first failure so far).
    stop_after: AtomicU64,
    /// Serialises global atomics.
    atomics: Mutex<()>,
    /// The threads' indirect data, read once for the walker.
    pub(super) indirect: Option<IndirectData>,
    /// The sanitizer's view of the walker, when it is on.
    pub(super) sanitize: Option<&'w sim_eu::sanitize::Scope>,
    /// The host threads' findings, gathered group by group.
    pub(super) findings: Mutex<sim_eu::sanitize::Findings>,
    /// The host threads' execution statistics (`stats`), gathered group by group.
    pub(super) stats: Mutex<sim_eu::sanitize::ExecStats>,
    /// Instructions the host threads ran as translated code.
    pub(super) translated: AtomicU64,
}

impl Shared<'_> {
    /// The next run of a grid of `total` groups: its first group and its length, at most
    /// [`Shared::run`] and shorter as the grid's end nears (a quarter of each host thread's
    /// share of what is left), so that the host threads finish together: with runs of one
    /// length, the last to take one kept the others waiting for up to a run's time.
    fn take(&self, total: u64) -> (u64, u64) {
        let mut first = self.next.load(Ordering::Relaxed);
        loop {
            let len = tail_run(total.saturating_sub(first), self.workers, self.run);
            match self.next.compare_exchange_weak(
                first,
                first.saturating_add(len),
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return (first, len),
                Err(now) => first = now,
            }
        }
    }

    pub(super) fn left(&self) -> u64 {
        self.left.load(Ordering::Relaxed)
    }

    pub(super) fn spend(&self, n: u64) {
        // The closure always returns Some, so the update always succeeds.
        let _ = self
            .left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |l| {
                Some(l.saturating_sub(n))
            });
    }

    /// The instruction budget is spent, or no group completed for the budget's host time.
    pub(super) fn exhausted(&self) -> bool {
        let now = coarse_nanos().saturating_sub(self.started);
        let idle = now.saturating_sub(self.last_done.load(Ordering::Relaxed));
        self.left() == 0 || idle > nanos(self.patience)
    }

    /// A run of groups completed: the walker is making progress.
    fn group_done(&self) {
        self.last_done.fetch_max(
            coarse_nanos().saturating_sub(self.started),
            Ordering::Relaxed,
        );
    }

    fn fail(&self, ordinal: u64, e: GpuErrorKind) {
        let mut f = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        if f.as_ref().is_none_or(|(o, _)| ordinal < *o) {
            *f = Some((ordinal, e));
        }
        self.stop_after.fetch_min(ordinal, Ordering::Relaxed);
    }
}

/// Host threads for `requested` (0: one per host core, asked of the host once per process:
/// `available_parallelism` reads the cgroup's CPU quota files each time, about ten system
/// calls, which a walker of a few groups felt).
fn pool_size(requested: usize) -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    match requested {
        0 => *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        n => n,
    }
}

/// The host threads that run groups beside the walker's calling thread, created at the first
/// walker that can use them and parked between walkers.
#[derive(Default)]
pub(super) struct Helpers {
    /// The pool, and the process that created it: a forked child has none of its threads.
    pool: OnceLock<Option<(rayon::ThreadPool, u32)>>,
}

impl Helpers {
    /// The pool of `n` ≥ 1 helper threads (created once; the first caller's `n` sizes it), or
    /// `None` where the threads cannot be had (creation failed, or this is a forked child).
    fn get(&self, n: usize) -> Option<&rayon::ThreadPool> {
        let made = self.pool.get_or_init(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .thread_name(|i| format!("sim-eu-{i}"))
                .build()
                .ok()
                .map(|p| (p, std::process::id()))
        });
        made.as_ref()
            .filter(|(_, pid)| *pid == std::process::id())
            .map(|(p, _)| p)
    }

    /// Wakes the helper threads, if they were made, without work: each runs an empty job,
    /// then idles a little before sleeping again, so a walker starting meanwhile finds them
    /// awake.
    pub(super) fn wake(&self) {
        if let Some(Some((pool, pid))) = self.pool.get() {
            if *pid == std::process::id() {
                (0..pool.current_num_threads()).for_each(|_| pool.spawn(|| {}));
            }
        }
    }
}

impl Drop for Helpers {
    fn drop(&mut self) {
        // In a forked child the pool's threads are gone and its locks may have been copied
        // while held: dropping it would signal threads that do not exist, so leave it be.
        if let Some(Some((pool, pid))) = self.pool.take() {
            if pid != std::process::id() {
                std::mem::forget(pool);
            }
        }
    }
}

/// Runs every thread group of the walker on up to `host_threads` host threads; returns the
/// instructions they executed and how many of those ran as translated code.
pub(super) fn run_groups(
    w: &Walker<'_>,
    d: &Dispatch,
    prog: &Program,
    tier: Option<&Tier>,
    budget: EuBudget,
    host_threads: usize,
    helpers: &Helpers,
) -> Result<(u64, u64), GpuErrorKind> {
    let dims: [u64; 3] =
        [0, 1, 2].map(|k| u64::from(d.group_end[k].saturating_sub(d.group_start[k])));
    let total = dims[0].saturating_mul(dims[1]).saturating_mul(dims[2]);
    // The sanitizer's allocations and names, looked up once per walker.
    let scoped = w
        .sanitizer
        .map(|s| s.scope(w.memory, d.kernel, d.indirect, d.simd));
    let workers = pool_size(host_threads)
        .min(usize::try_from(total).unwrap_or(usize::MAX))
        .min(groups_at_once(w.platform, d));
    let shared = Shared {
        progress: Progress::new(
            w.timer,
            w.platform,
            // Large GRF Mode halves the threads an EU holds (NEO's Xe-HPG
            // `calculateAvailableThreadCount`: ThreadCount / 2 for more than 128 registers),
            // so half as many groups run at once in the simulated time.
            w.topology.thread_slots() * u64::from(platform::GRF_REGS) / prog.grf_regs as u64,
            d.threads_per_group,
        ),
        next: AtomicU64::new(0),
        run: run_length(
            total,
            workers,
            scoped.as_ref().is_some_and(|(s, _)| s.wants_long_runs()),
        ),
        workers: workers.max(1) as u64,
        left: AtomicU64::new(budget.instructions),
        started: coarse_nanos(),
        last_done: AtomicU64::new(0),
        patience: budget.time,
        failed: Mutex::new(None),
        stop_after: AtomicU64::new(u64::MAX),
        atomics: Mutex::new(()),
        indirect: IndirectData::read(w.platform, d, w.memory),
        sanitize: scoped.as_ref().map(|(s, _)| s),
        findings: Mutex::default(),
        stats: Mutex::default(),
        translated: AtomicU64::new(0),
    };
    let work = |index: usize| {
        let first_slot = index as u32 * d.threads_per_group;
        worker(w, d, prog, tier, &shared, dims, total, first_slot)
    };
    // `workers > 1` implies a pool size of at least 2: at least one helper.
    let pool = (workers > 1)
        .then(|| helpers.get(pool_size(host_threads) - 1))
        .flatten();
    match pool {
        Some(pool) => pool.in_place_scope(|s| {
            for index in 1..workers {
                s.spawn(move |_| work(index));
            }
            work(0);
        }),
        None => work(0),
    }
    let left = shared.left();
    if let (Some(s), Some((_, kernel))) = (w.sanitizer, &scoped) {
        // Findings are reported per walker, also when it failed (a misaligned block message
        // stops its thread with a GPU error).
        let findings =
            std::mem::take(&mut *shared.findings.lock().unwrap_or_else(|e| e.into_inner()));
        s.report(findings, kernel, w.platform, w.memory, d.kernel);
        let stats = std::mem::take(&mut *shared.stats.lock().unwrap_or_else(|e| e.into_inner()));
        if !stats.is_empty() {
            s.report_stats(&stats, prog, kernel, w.memory, d.kernel);
        }
    }
    if let Some((_, e)) = shared
        .failed
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
    {
        return Err(e);
    }
    // The groups' times in walker order against the hang rule (the running checks see only
    // part of that order).
    shared
        .progress
        .finish()
        .map_err(|r| timeout(w, d, r, Vec::new()))?;
    Ok((
        budget.instructions - left,
        shared.translated.load(Ordering::Relaxed),
    ))
}

/// Groups whose threads the front end's thread slots (at most what the FFTID can name) hold
/// at once: at least one, as a walker without front-end state still runs.
fn groups_at_once(p: Platform, d: &Dispatch) -> usize {
    let slots = d.front_end_threads.min(gen_dispatch(p).fftid_slots());
    (slots / d.threads_per_group.max(1)).max(1) as usize
}

/// One host thread: takes groups until none is left or one failed before the next; their
/// threads run in the slots from `first_slot` on.
#[allow(clippy::too_many_arguments)]
fn worker(
    w: &Walker<'_>,
    d: &Dispatch,
    prog: &Program,
    tier: Option<&Tier>,
    shared: &Shared<'_>,
    dims: [u64; 3],
    total: u64,
    first_slot: u32,
) {
    let mut run = Run {
        w,
        d,
        prog,
        tier,
        tr: None,
        tr_first: None,
        starter: None,
        shared,
        first_slot,
        mem: VmMemory::new(
            w.platform,
            w.memory,
            d.bases,
            d.idd.binding_table_pointer,
            d.idd.sampler_state_pointer,
            &shared.atomics,
        ),
        threads: Vec::new(),
        ready: super::ready::ThreadReady::new(w.platform, d, prog),
        cycles: None,
        pending: 0,
        translated: 0,
        first_channels: 0,
        findings: sim_eu::sanitize::Findings::default(),
        stats: sim_eu::sanitize::ExecStats::default(),
        group: sim_eu::sanitize::Group::default(),
        fused: prog
            .insts
            .iter()
            .any(|i| i.opcode == isa_encoder::model::Opcode::Dpasw),
    };
    run.mem.set_slm_len(slm_bytes(&d.idd));
    // The longest thread's instructions of each group of the current run.
    let mut longest = Vec::with_capacity(shared.run as usize);
    loop {
        let (first, len) = shared.take(total);
        if first >= total || first > shared.stop_after.load(Ordering::Relaxed) {
            break;
        }
        // Checked per run too: a huge grid of short threads must end as well.
        if shared.exhausted() {
            shared.fail(first, run.hang(&[]));
            break;
        }
        if let Err(r) = shared.progress.check(Some(0)) {
            // Gen9's stretch is the whole walker: its rule may expire between groups.
            shared.fail(first, run.timeout(r, &[]));
            break;
        }
        longest.clear();
        let mut failed = None;
        // The run's first group's place in the grid, X fastest; the next ones step from it
        // (a division per dimension per group was a one-item group's noticeable cost).
        let at = |k: usize, div: u64| first / div % dims[k];
        let mut place = [at(0, 1), at(1, dims[0]), at(2, dims[0] * dims[1])];
        for ordinal in first..first.saturating_add(len).min(total) {
            if ordinal > shared.stop_after.load(Ordering::Relaxed) {
                break;
            }
            let id: [u32; 3] = std::array::from_fn(|k| d.group_start[k] + place[k] as u32);
            next_place(&mut place, dims);
            match run.group(id, ordinal) {
                Ok(n) => longest.push(n),
                Err(e) => {
                    failed = Some((ordinal, e));
                    break;
                }
            }
        }
        // The groups that completed count, as on the hardware, even before a failure.
        shared.progress.groups_done(first, &longest);
        run.settle();
        if let Some((ordinal, e)) = failed {
            shared.fail(ordinal, e);
            break;
        }
        shared.group_done();
    }
    // What the program was found to write in the architecture registers is all its threads
    // wrote there: a reused thread clears only that (checked in the tests' builds, which run
    // the corpora, the CTS and the applications; once per walker, as a stray byte stays).
    debug_assert!(
        run.threads
            .iter()
            .all(|t| t.stray_arf_piece(prog.arf_writes).is_none()),
        "a thread wrote an architecture register its program was not found to write: file \
         byte {:?}",
        run.threads
            .iter()
            .find_map(|t| t.stray_arf_piece(prog.arf_writes))
    );
}

/// Steps `place` to the next group in walker order (X fastest, then Y, then Z) in a grid of
/// `dims` groups.
fn next_place(place: &mut [u64; 3], dims: [u64; 3]) {
    for (p, &n) in place.iter_mut().zip(&dims) {
        *p += 1;
        if *p < n {
            return;
        }
        *p = 0;
    }
}

/// Groups a host thread takes at a time at most: enough that the shared counters, budget
/// and progress (cache lines every host thread writes, and the clock read with them) are
/// touched once per run rather than per group (with runs of 8 groups, two host threads spent
/// a tenth more CPU time on saxpy than one), yet about 16 runs per host thread; runs shrink
/// towards the grid's end ([`Shared::take`]), so that the last to finish keeps the others
/// waiting only briefly.
///
/// `long` (the sanitizer's `Scope::wants_long_runs`): runs of up to 256 groups, about 8 per
/// host thread, so that host threads seldom work on neighbouring groups.
fn run_length(total: u64, workers: usize, long: bool) -> u64 {
    let workers = workers.max(1);
    if long {
        return (total / (workers as u64 * 8)).clamp(1, 256);
    }
    (total / (workers as u64 * 16)).clamp(1, 64)
}

/// The length of the next run when `left` groups are left for `workers` host threads, at
/// most `cap` ([`Shared::take`]).
fn tail_run(left: u64, workers: u64, cap: u64) -> u64 {
    (left / (workers * 4)).clamp(1, cap.max(1))
}

/// The host's monotonic time in nanoseconds, read from its coarse clock: the backstop measures
/// seconds of patience, and a host thread reads this twice per run of groups, which with the
/// precise clock (`Instant`, 20 to 30 ns a read in a virtual machine, against 5) was a few per cent of a
/// short kernel's dispatch. Its steps are the kernel's timer tick (1 to 10 ms).
fn coarse_nanos() -> u64 {
    use nix::time::{clock_gettime, ClockId};
    match clock_gettime(ClockId::CLOCK_MONOTONIC_COARSE) {
        Ok(t) => nanos(Duration::from(t)),
        // Linux has had the clock since 2.6.32; elsewhere, the precise one.
        Err(_) => {
            static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
            nanos(EPOCH.get_or_init(std::time::Instant::now).elapsed())
        }
    }
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::{next_place, run_length, tail_run};

    /// Stepping walks the grid in the walker's order, X fastest: group `o`'s place is
    /// (o mod X, o / X mod Y, o / (X Y)), from any group a run starts at.
    #[test]
    fn places_step_x_fastest() {
        for dims in [
            [1, 1, 1],
            [5, 1, 1],
            [1, 4, 1],
            [3, 2, 4],
            [1, 1, 3],
            [2, 3, 1],
        ] {
            let total = dims.iter().product::<u64>();
            let of = |o: u64| [o % dims[0], o / dims[0] % dims[1], o / (dims[0] * dims[1])];
            for first in 0..total {
                let mut place = of(first);
                for o in first + 1..total {
                    next_place(&mut place, dims);
                    assert_eq!(place, of(o), "{dims:?} from {first}");
                }
            }
        }
    }

    /// Runs taken one after another cover the grid once, in order, never longer than the
    /// cap and never longer than the one before; the last ones are single groups.
    #[test]
    fn runs_shrink_towards_the_grids_end() {
        for (total, workers, cap) in [(1024, 2, 8), (1000, 2, 16), (7, 2, 16), (5000, 1, 16)] {
            let (mut first, mut last) = (0u64, u64::MAX);
            let mut lens = Vec::new();
            while first < total {
                let len = tail_run(total - first, workers, cap);
                assert!(
                    len >= 1 && len <= cap && len <= last,
                    "{total} {workers} {cap}"
                );
                lens.push(len);
                (first, last) = (first + len, len);
            }
            assert_eq!(lens.iter().sum::<u64>(), total);
            assert_eq!(lens.last(), Some(&1));
            if total >= 1000 {
                assert_eq!(lens[0], cap, "{total}: starts at the cap");
                assert!(lens.ends_with(&[1; 4]), "{total}: {lens:?}");
            }
        }
    }

    #[test]
    fn few_groups_go_one_at_a_time_and_long_runs_are_longer() {
        for long in [false, true] {
            assert_eq!(run_length(3, 2, long), 1);
            assert_eq!(run_length(3, 1, long), 1);
        }
        // One host thread: runs as long as for several (the clock and the shared counters
        // read once per run).
        assert_eq!(run_length(16384, 1, false), 64);
        assert_eq!(run_length(16384, 0, false), 64);
        assert_eq!(run_length(1024, 1, false), 64);
        assert_eq!(run_length(1024, 2, false), 32);
        // 16384 groups on 2 host threads: 16 runs each of 512 capped at 64 ...
        assert_eq!(run_length(16384, 2, false), 64);
        // ... long ones: 8 runs each of 1024, capped at 256.
        assert_eq!(run_length(16384, 2, true), 256);
        assert_eq!(run_length(160, 2, true), 10);
    }
}
