//! The GPU as the personalities drive it: engines, hardware contexts that run their requests on
//! their own host thread, and the reset path that turns a fault or hang into an error record, a
//! banned context and a failed fence while every other context keeps running.
//!
//! Submission only queues: EXECBUFFER2 and EXEC return once the request is on its context's
//! queue. Each hardware context (i915 context, xe exec queue) has a worker thread per engine it
//! uses, which takes the requests in submission order, waits for their in-fences, runs them
//! through the context's ring on that engine (as execlists and GuC submission give each logical
//! context its ring) and signals their fences. Contexts run side by side, as the kernel's schedulers interleave them on an engine,
//! so a context blocked on MI_SEMAPHORE_WAIT never holds up the context that releases it. A
//! request's result depends only on its batch and memory, never on host scheduling.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use crate::clock::Clock;
use crate::cs::{
    Budget, CommandLog, ComputeState, CsError, EngineRing, GpuTimer, HangRule, RingRun,
    WalkerExecutor,
};
use crate::device_info::{DeviceInfo, EngineClass};
use crate::gpu_error::{ErrorLog, GpuErrorKind, HangReason};
use crate::mem::{AddressSpace, BoError};
use crate::regs::RegisterFile;
use crate::sync::{Doorbell, Fence, FenceStatus};

use super::driver::KernelDriver;

/// What every context's worker shares with the device.
pub(crate) struct Shared {
    info: &'static DeviceInfo,
    clock: Clock,
    budget: Budget,
    walker: Arc<dyn WalkerExecutor>,
    errors: Mutex<ErrorLog>,
    doorbell: Arc<Doorbell>,
    /// The kernel driver's hang rules and error publishing (none for a bare GPU).
    driver: Option<Arc<dyn KernelDriver>>,
    /// Where each request's executed commands go (`SimConfig::command_log`), and the count.
    command_log: Option<(std::path::PathBuf, AtomicU64)>,
    /// The sanitizer, when on: walkers run their threads under its checks.
    sanitizer: Option<Arc<crate::sanitize::Sanitizer>>,
}

impl Shared {
    /// Captures a GPU error of context `ctx` on `engine` and resets it: the context is banned
    /// and charged. Returns the error's id.
    fn report(&self, engine: usize, ctx: &ContextStatus, id: u32, batch: u64, e: CsError) -> u64 {
        let name = self.info.engines.get(engine).map_or("?", |e| e.name);
        let mut log = self.errors.lock().unwrap_or_else(|e| e.into_inner());
        let error = log.capture(name, id, e.head, batch, e.kind);
        if let (Some(driver), Some(rec)) = (&self.driver, log.records().last()) {
            driver.publish_error(rec);
        }
        ctx.ban(error);
        error
    }

    /// The kernel driver's hang rule for a request of context `ctx` on engine `e`.
    fn hang_rule(&self, ctx: &ContextStatus, e: usize) -> HangRule {
        let (Some(driver), Some(desc)) = (&self.driver, self.info.engines.get(e)) else {
            return HangRule::None;
        };
        let job_timeout_ms = match ctx.job_timeout_ms.load(Ordering::SeqCst) {
            NO_JOB_TIMEOUT => None,
            ms => Some(ms),
        };
        driver.hang_rule(desc, job_timeout_ms)
    }

    /// Blocks until `ready` holds for every fence.
    fn wait_for(&self, fences: &[Arc<Fence>], ready: impl Fn(&Fence) -> bool) {
        loop {
            let seen = self.doorbell.count();
            if fences.iter().all(|f| ready(f)) {
                return;
            }
            self.doorbell.wait(seen, Duration::from_millis(100));
        }
    }
}

/// A context's reset record, shared by the uAPI side and the context's worker.
#[derive(Debug, Default)]
struct ContextStatus {
    banned: AtomicBool,
    /// The error that banned the context; requests queued behind it are cancelled with it.
    ban_error: AtomicU64,
    /// Requests of this context that caused a reset (i915 `batch_active`).
    guilty: AtomicU32,
    /// The context's own job timeout in ms, fixed at creation (`NO_JOB_TIMEOUT` for
    /// long-running contexts); 0: the kernel driver's default (xe exec queues set it).
    job_timeout_ms: AtomicU64,
}

/// A long-running context's job timeout: none.
const NO_JOB_TIMEOUT: u64 = u64::MAX;

impl ContextStatus {
    fn ban(&self, error: u64) {
        self.guilty.fetch_add(1, Ordering::SeqCst);
        self.ban_error.store(error, Ordering::SeqCst);
        self.banned.store(true, Ordering::SeqCst);
    }

    fn ban_error(&self) -> Option<u64> {
        self.banned
            .load(Ordering::SeqCst)
            .then(|| self.ban_error.load(Ordering::SeqCst))
    }
}

/// One request: a batch for one engine of a context.
pub struct Job {
    pub engine: usize,
    /// The address space as it was at submission: the objects the request uses stay bound
    /// until it retires, as the kernel keeps their VMAs (i915) or orders unbinds after the
    /// job (xe).
    pub vm: AddressSpace,
    pub batch: u64,
    /// In-fences: the batch starts once they have signalled; one that failed cancels it with
    /// its error, as the kernel propagates a fence error to the requests awaiting it.
    pub after: Vec<Arc<Fence>>,
    /// Submit fences (I915_EXEC_FENCE_SUBMIT): the batch starts once their requests started.
    pub with: Vec<Arc<Fence>>,
    /// xe's user fence: (GPU address, value) written through the VM after the batch.
    pub user_fence: Option<(u64, u64)>,
}

/// A hardware context (i915 context or xe exec queue): its record of resets and, per engine it
/// has used, the queue into that engine's worker, which owns the engine's part of the context
/// image (registers, compute state, ring). Each engine of an i915 context is its own timeline
/// (an `intel_context` per engine): requests on the render and copy engines of one context run
/// side by side, ordered only by fences. An xe exec queue has one engine.
#[derive(Debug, Default)]
pub struct HwContext {
    /// The uAPI id, for error records.
    pub id: u32,
    status: Arc<ContextStatus>,
    queues: Vec<(usize, JobSender)>,
}

/// Where a context's requests for one engine go: to that engine's worker.
type JobSender = Sender<(Job, Arc<Fence>)>;

impl HwContext {
    pub fn new(id: u32) -> Self {
        HwContext {
            id,
            ..Default::default()
        }
    }

    /// xe: the exec queue's job timeout (`None`: a long-running queue, which has none), as
    /// `xe_exec_queue_create` copies it from the engine class when the queue is made.
    pub fn set_job_timeout_ms(&mut self, ms: Option<u64>) {
        self.status
            .job_timeout_ms
            .store(ms.unwrap_or(NO_JOB_TIMEOUT), Ordering::SeqCst);
    }

    /// Banned contexts accept no more work (i915: EIO, xe: ECANCELED).
    pub fn banned(&self) -> bool {
        self.status.banned.load(Ordering::SeqCst)
    }

    /// Requests of this context that caused a reset (i915 `batch_active`).
    pub fn guilty(&self) -> u32 {
        self.status.guilty.load(Ordering::SeqCst)
    }

    /// Requests of this context lost to another context's reset (i915 `batch_pending`): always
    /// zero, since a reset here is of the guilty context alone (GuC's per-context reset).
    pub fn innocent(&self) -> u32 {
        0
    }
}

/// The device's engines and everything they share. A clone is another handle to the same
/// GPU (each DRM file of the device holds one).
#[derive(Clone)]
pub struct Gpu {
    pub info: &'static DeviceInfo,
    pub clock: Clock,
    shared: Arc<Shared>,
}

impl Gpu {
    pub fn new(
        info: &'static DeviceInfo,
        budget: Budget,
        walker: Arc<dyn WalkerExecutor>,
        driver: Option<Arc<dyn KernelDriver>>,
    ) -> Result<Self, BoError> {
        let clock = Clock::new(info.timestamp_hz);
        Ok(Gpu {
            info,
            clock,
            shared: Arc::new(Shared {
                info,
                clock,
                budget,
                walker,
                errors: Mutex::new(ErrorLog::default()),
                doorbell: Arc::new(Doorbell::default()),
                driver,
                command_log: None,
                sanitizer: None,
            }),
        })
    }

    /// The same GPU, writing each request's executed commands into `dir` (before any request).
    pub fn with_command_log(mut self, dir: Option<std::path::PathBuf>) -> Self {
        if let Some(shared) = Arc::get_mut(&mut self.shared) {
            shared.command_log = dir.map(|d| (d, AtomicU64::new(0)));
        }
        self
    }

    /// The same GPU, running walkers under `sanitizer`'s checks (before any request).
    pub fn with_sanitizer(mut self, sanitizer: Option<Arc<crate::sanitize::Sanitizer>>) -> Self {
        if let Some(shared) = Arc::get_mut(&mut self.shared) {
            shared.sanitizer = sanitizer;
        }
        self
    }

    /// The sanitizer walkers run under, if on.
    pub fn sanitizer(&self) -> Option<&Arc<crate::sanitize::Sanitizer>> {
        self.shared.sanitizer.as_ref()
    }

    /// The error log (what the kernel's error capture shows).
    pub fn errors(&self) -> MutexGuard<'_, ErrorLog> {
        self.shared.errors.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The bell rung whenever a request's fence signals.
    pub fn doorbell(&self) -> &Arc<Doorbell> {
        &self.shared.doorbell
    }

    /// Index of the engine `class`/`instance`, if the device has it.
    pub fn engine_index(&self, class: EngineClass, instance: u16) -> Option<usize> {
        self.info
            .engines
            .iter()
            .position(|e| e.class == class && e.instance == instance)
    }

    /// Queues `job` on `ctx` and returns its fence, pending until the request has run (or was
    /// cancelled). A request that faults or hangs signals its fence with the error's id, bans
    /// the context and cancels the requests queued behind it.
    pub fn submit(&mut self, ctx: &mut HwContext, job: Job) -> Arc<Fence> {
        let fence = Fence::new();
        let engine = job.engine;
        let at = match ctx.queues.iter().position(|(e, _)| *e == engine) {
            Some(at) => at,
            None => {
                let (tx, rx) = channel();
                let (shared, status, id) = (self.shared.clone(), ctx.status.clone(), ctx.id);
                // Without a thread the receiver is dropped with the closure and the send below
                // fails: each request is then reported as a hang, never silently left pending.
                let _ = std::thread::Builder::new()
                    .name(format!("sim-ctx-{id}-{engine}"))
                    .spawn(move || worker(&shared, &status, id, rx));
                ctx.queues.push((engine, tx));
                ctx.queues.len() - 1
            }
        };
        if let Err(e) = ctx.queues[at].1.send((job, fence.clone())) {
            let (job, fence) = e.0;
            let err = CsError {
                head: job.batch,
                kind: GpuErrorKind::Hang(HangReason::Unsupported {
                    packet: "a request (the simulator could not start the context's thread)".into(),
                }),
            };
            let id = self
                .shared
                .report(job.engine, &ctx.status, ctx.id, job.batch, err);
            fence.signal(Some(id));
            self.shared.doorbell.ring();
        }
        fence
    }
}

/// The context image: what a context's requests leave behind for the next one.
struct Image {
    regs: Vec<RegisterFile>,
    compute: Vec<ComputeState>,
    rings: Vec<Option<EngineRing>>,
}

/// A context's worker for one engine: runs the requests in submission order until the context
/// is gone.
fn worker(shared: &Shared, status: &ContextStatus, id: u32, jobs: Receiver<(Job, Arc<Fence>)>) {
    let n = shared.info.engines.len();
    let mut image = Image {
        regs: vec![RegisterFile::default(); n],
        compute: vec![ComputeState::default(); n],
        rings: (0..n).map(|_| None).collect(),
    };
    for (job, fence) in jobs {
        shared.wait_for(&job.after, Fence::is_signaled);
        shared.wait_for(&job.with, Fence::is_started);
        let failed_in = job.after.iter().find_map(|f| match f.status() {
            FenceStatus::Error { error_id } => Some(error_id),
            _ => None,
        });
        match failed_in.or_else(|| status.ban_error()) {
            Some(error) => fence.signal(Some(error)),
            None => {
                fence.start();
                // A simulator bug must fail the request, not leave its fence pending forever.
                let timer = GpuTimer::new(shared.hang_rule(status, job.engine));
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    run(shared, &mut image, &job, &timer)
                }))
                .unwrap_or_else(|p| {
                    let why = p
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| p.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    Err(CsError {
                        head: job.batch,
                        kind: GpuErrorKind::Hang(HangReason::Unsupported {
                            packet: format!("a request (the simulator panicked: {why})"),
                        }),
                    })
                });
                match result {
                    Ok(()) => fence.signal(None),
                    Err(e) => {
                        let error = shared.report(job.engine, status, id, job.batch, e);
                        fence.signal(Some(error));
                    }
                }
            }
        }
        shared.doorbell.ring();
    }
}

/// Runs one request on the context's ring for its engine, then writes its user fence.
fn run(shared: &Shared, image: &mut Image, job: &Job, timer: &GpuTimer) -> Result<(), CsError> {
    let e = job.engine;
    let (Some(desc), Some(slot)) = (shared.info.engines.get(e), image.rings.get_mut(e)) else {
        return Err(CsError {
            head: job.batch,
            kind: GpuErrorKind::Hang(HangReason::Unsupported {
                packet: format!("a request for engine {e}, which the device lacks"),
            }),
        });
    };
    let ring = match slot {
        Some(r) => r,
        None => slot.insert(EngineRing::new(desc).map_err(|b| CsError {
            head: job.batch,
            kind: GpuErrorKind::Hang(HangReason::BadCommand {
                header: 0,
                detail: format!("cannot allocate the context's ring: {b}"),
            }),
        })?),
    };
    let mut log = shared.command_log.as_ref().map(|_| CommandLog::default());
    let done = ring.submit(RingRun {
        platform: shared.info.platform,
        topology: shared.info.topology,
        clock: &shared.clock,
        ppgtt: &job.vm,
        regs: &mut image.regs[e],
        compute: &mut image.compute[e],
        walker: shared.walker.as_ref(),
        sanitizer: shared.sanitizer.as_deref(),
        budget: shared.budget,
        timer,
        batch: job.batch,
        log: log.as_mut(),
    });
    if let (Some((dir, n)), Some(log)) = (&shared.command_log, log) {
        let n = n.fetch_add(1, Ordering::Relaxed);
        let bytes: Vec<u8> = log.dwords.iter().flat_map(|d| d.to_le_bytes()).collect();
        let records: String = log.dispatches.iter().map(|r| format!("{r}\n")).collect();
        // A log that cannot be written is a debugging aid lost, not a GPU error.
        let _ = std::fs::write(dir.join(format!("{n:04}-{}.bin", desc.name)), bytes);
        let _ = std::fs::write(
            dir.join(format!("{n:04}-{}.dispatch.jsonl", desc.name)),
            records,
        );
    }
    done?;
    // The kernel's ring writes the user fence after the batch, through the queue's VM.
    if let Some((addr, value)) = job.user_fence {
        job.vm.write_u64(addr, value).map_err(|f| CsError {
            head: addr,
            kind: GpuErrorKind::from(f),
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cs::NoWalkerExecutor;
    use crate::mem::Bo;
    use platform::Platform;

    fn wait(gpu: &Gpu, f: &Fence) -> FenceStatus {
        while !f.is_signaled() {
            let seen = gpu.doorbell().count();
            if f.is_signaled() {
                break;
            }
            gpu.doorbell().wait(seen, Duration::from_millis(100));
        }
        f.status()
    }

    #[test]
    fn a_hang_bans_only_the_guilty_context() {
        let info = DeviceInfo::get(Platform::Tgllp);
        let mut gpu = Gpu::new(info, Budget::default(), Arc::new(NoWalkerExecutor), None).unwrap();
        let mut vm = AddressSpace::new();
        let bo = Bo::new(4096).unwrap();
        vm.bind(0x1000, 4096, bo.clone(), 0, false).unwrap();
        // 0x1000: an unknown command; 0x1800: MI_BATCH_BUFFER_END.
        bo.write(0, &0x1f80_0000u32.to_le_bytes()).unwrap();
        bo.write(0x800, &0x0500_0000u32.to_le_bytes()).unwrap();
        let job = |batch| Job {
            engine: 0,
            vm: vm.clone(),
            batch,
            after: vec![],
            with: vec![],
            user_fence: None,
        };
        let (mut bad, mut good) = (HwContext::new(1), HwContext::new(2));
        let f = gpu.submit(&mut bad, job(0x1000));
        // Queued behind the hang: cancelled with its error.
        let behind = gpu.submit(&mut bad, job(0x1800));
        assert_eq!(wait(&gpu, &f), FenceStatus::Error { error_id: 1 });
        assert_eq!(wait(&gpu, &behind), FenceStatus::Error { error_id: 1 });
        assert!(bad.banned() && bad.guilty() == 1);
        let f = gpu.submit(&mut good, job(0x1800));
        assert_eq!(wait(&gpu, &f), FenceStatus::Signaled);
        assert!(!good.banned());
        let rec = gpu.errors().records()[0].clone();
        assert_eq!((rec.engine, rec.context, rec.head), ("rcs0", 1, 0x1000));
    }
}
