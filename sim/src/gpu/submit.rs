//! The GPU as the personalities drive it: engines, hardware contexts whose requests run on
//! their own host thread per engine, and the reset path that turns a fault or hang into an
//! error record, a banned context and a failed fence while every other context keeps running.
//!
//! Submission only queues: EXECBUFFER2 and EXEC return once the request is on its context's
//! queue. Each hardware context (i915 context, xe exec queue) has a lane per engine it uses
//! ([`Lane`]) with a thread of its own, which takes the requests in submission order, waits for
//! their in-fences, runs them through the context's ring on that engine (as execlists and GuC
//! submission give each logical context its ring) and signals their fences; a thread waiting
//! for a fence without a deadline runs its request itself when its turn has come
//! ([`crate::sync::Fence::help`]). Contexts run side by side, as the kernel's schedulers
//! interleave them on an engine, so a context blocked on MI_SEMAPHORE_WAIT never holds up the
//! context that releases it. A request's result depends only on its batch and memory, never on
//! host scheduling.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use crate::clock::Clock;
use crate::cs::{Budget, CsError, WalkerExecutor};
use crate::device_info::{DeviceInfo, EngineClass};
use crate::gpu_error::{ErrorLog, GpuErrorKind, HangReason};
use crate::mem::BoError;
use crate::sync::{Doorbell, Fence, Runner};

use super::driver::KernelDriver;
use super::lane::Lane;
use super::request::{ContextStatus, Job, Shared, NO_JOB_TIMEOUT};

/// A hardware context (i915 context or xe exec queue): its record of resets and, per engine it
/// has used, its lane (`gpu::lane`), which holds the engine's part of the context image
/// (registers, compute state, ring). Each engine of an i915 context is its own timeline (an
/// `intel_context` per engine): requests on the render and copy engines of one context run
/// side by side, ordered only by fences. An xe exec queue has one engine.
#[derive(Debug, Default)]
pub struct HwContext {
    /// The uAPI id, for error records.
    pub id: u32,
    status: Arc<ContextStatus>,
    lanes: Vec<(usize, Arc<Lane>)>,
}

impl Drop for HwContext {
    /// The lanes' threads run what is queued, then end.
    fn drop(&mut self) {
        for (_, lane) in &self.lanes {
            lane.close();
        }
    }
}

impl HwContext {
    pub fn new(id: u32) -> Self {
        HwContext {
            id,
            status: Arc::default(),
            lanes: Vec::new(),
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
        let engine = job.engine;
        let lane = match ctx.lanes.iter().find(|(e, _)| *e == engine) {
            Some((_, lane)) => lane.clone(),
            None => {
                let lane = Arc::new(Lane::new(self.shared.clone(), ctx.status.clone(), ctx.id));
                let own = lane.clone();
                let spawned = std::thread::Builder::new()
                    .name(format!("sim-ctx-{}-{engine}", ctx.id))
                    .spawn(move || own.work());
                if spawned.is_err() {
                    // Without its thread a request waited for by nobody would never run: each
                    // is reported as a hang until a thread can be had, never left pending.
                    let err = CsError {
                        head: job.batch,
                        kind: GpuErrorKind::Hang(HangReason::Unsupported {
                            packet: "a request (the simulator could not start the context's \
                                     thread)"
                                .into(),
                        }),
                    };
                    let id = self
                        .shared
                        .report(job.engine, &ctx.status, ctx.id, job.batch, err);
                    let fence = Fence::new();
                    fence.signal(Some(id));
                    self.shared.doorbell.ring();
                    return fence;
                }
                ctx.lanes.push((engine, lane.clone()));
                lane
            }
        };
        let runner: Weak<dyn Runner> = Arc::downgrade(&lane) as Weak<dyn Runner>;
        let fence = Fence::run_by(runner);
        lane.push(job, fence.clone());
        self.shared.walker.wake();
        fence
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cs::NoWalkerExecutor;
    use crate::mem::{AddressSpace, Bo};
    use crate::sync::FenceStatus;
    use platform::Platform;
    use std::time::Duration;

    /// A GPU and jobs of a batch that only ends (MI_BATCH_BUFFER_END at 0x1800) or holds an
    /// unknown command (0x1000), waiting for `after`.
    fn gpu_and_jobs() -> (Gpu, impl Fn(u64, Vec<Arc<Fence>>) -> Job) {
        let info = DeviceInfo::get(Platform::Tgllp);
        let gpu = Gpu::new(info, Budget::default(), Arc::new(NoWalkerExecutor), None).unwrap();
        let mut vm = AddressSpace::new();
        let bo = Bo::new(4096).unwrap();
        vm.bind(0x1000, 4096, bo.clone(), 0, false).unwrap();
        bo.write(0, &0x1f80_0000u32.to_le_bytes()).unwrap();
        bo.write(0x800, &0x0500_0000u32.to_le_bytes()).unwrap();
        let job = move |batch, after| Job {
            engine: 0,
            vm: vm.clone(),
            batch,
            after,
            with: vec![],
            user_fence: None,
        };
        (gpu, job)
    }

    /// Fences of requests queued on a lane without its thread, each noting its index and
    /// the thread that signalled it in `order`.
    fn queue(
        lane: &Arc<Lane>,
        jobs: Vec<Job>,
        order: &Arc<Mutex<Vec<(usize, std::thread::ThreadId)>>>,
    ) -> Vec<Arc<Fence>> {
        jobs.into_iter()
            .enumerate()
            .map(|(i, job)| {
                let runner: Weak<dyn Runner> = Arc::downgrade(lane) as Weak<dyn Runner>;
                let f = Fence::run_by(runner);
                let o = order.clone();
                f.on_signal(move |_| o.lock().unwrap().push((i, std::thread::current().id())));
                lane.push(job, f.clone());
                f
            })
            .collect()
    }

    #[test]
    fn a_waiter_runs_the_requests_up_to_its_own_in_order_on_its_own_thread() {
        let (gpu, job) = gpu_and_jobs();
        let lane = Arc::new(Lane::new(gpu.shared.clone(), Arc::default(), 1));
        let order = Arc::new(Mutex::new(Vec::new()));
        let jobs = (0..3).map(|_| job(0x1800, vec![])).collect();
        let f = queue(&lane, jobs, &order);
        f[1].help();
        let me = std::thread::current().id();
        assert_eq!(*order.lock().unwrap(), [(0, me), (1, me)]);
        assert_eq!(f[2].status(), FenceStatus::Pending);
        f[2].help();
        assert_eq!(order.lock().unwrap().len(), 3);
        assert!(f.iter().all(|f| f.status() == FenceStatus::Signaled));
        // A signalled fence asks for nothing.
        f[0].help();
        assert_eq!(order.lock().unwrap().len(), 3);
    }

    #[test]
    fn a_waiter_on_a_small_stack_leaves_the_request_to_the_lane() {
        let (gpu, job) = gpu_and_jobs();
        let lane = Arc::new(Lane::new(gpu.shared.clone(), Arc::default(), 1));
        let order = Arc::new(Mutex::new(Vec::new()));
        let f = queue(&lane, vec![job(0x1800, vec![])], &order);
        let small = std::thread::Builder::new().stack_size(256 << 10);
        let g = f[0].clone();
        small.spawn(move || g.help()).unwrap().join().unwrap();
        assert!(order.lock().unwrap().is_empty());
        assert_eq!(f[0].status(), FenceStatus::Pending);
        f[0].help();
        assert_eq!(f[0].status(), FenceStatus::Signaled);
    }

    #[test]
    fn a_waiter_leaves_a_request_whose_in_fence_is_pending_and_a_hang_still_bans() {
        let (gpu, job) = gpu_and_jobs();
        let status = Arc::new(ContextStatus::default());
        let lane = Arc::new(Lane::new(gpu.shared.clone(), status.clone(), 7));
        let order = Arc::new(Mutex::new(Vec::new()));
        let host = Fence::new();
        let jobs = vec![
            job(0x1800, vec![host.clone()]),
            job(0x1000, vec![]),
            job(0x1800, vec![]),
        ];
        let f = queue(&lane, jobs, &order);
        f[1].help();
        assert!(order.lock().unwrap().is_empty());
        assert_eq!(f[0].status(), FenceStatus::Pending);
        host.signal(None);
        f[2].help();
        let done: Vec<usize> = order.lock().unwrap().iter().map(|(i, _)| *i).collect();
        assert_eq!(done, [0, 1, 2]);
        assert_eq!(f[0].status(), FenceStatus::Signaled);
        // The unknown command hangs the second; the third, queued behind it, is cancelled
        // with its error, as the lane's own thread does it.
        assert_eq!(f[1].status(), FenceStatus::Error { error_id: 1 });
        assert_eq!(f[2].status(), FenceStatus::Error { error_id: 1 });
        assert_eq!(status.ban_error(), Some(1));
        let rec = gpu.errors().records()[0].clone();
        assert_eq!((rec.context, rec.head), (7, 0x1000));
    }

    #[test]
    fn requests_run_once_and_in_order_whichever_threads_run_them() {
        let (mut gpu, job) = gpu_and_jobs();
        let mut ctx = HwContext::new(1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let n = 300;
        let fences: Vec<Arc<Fence>> = (0..n)
            .map(|i| {
                let f = gpu.submit(&mut ctx, job(0x1800, vec![]));
                let o = order.clone();
                f.on_signal(move |_| o.lock().unwrap().push(i));
                f
            })
            .collect();
        // Three waiters, each for every seventh, fifth or third fence from its own start,
        // running what they can and sleeping otherwise, beside the lane's thread.
        std::thread::scope(|s| {
            for (first, step) in [(6, 7), (4, 5), (2, 3)] {
                let (gpu, fences) = (&gpu, &fences);
                s.spawn(move || {
                    for f in fences.iter().skip(first).step_by(step) {
                        while !f.is_signaled() {
                            let seen = gpu.doorbell().count();
                            f.help();
                            if !f.is_signaled() {
                                gpu.doorbell().wait(seen, Duration::from_millis(100));
                            }
                        }
                    }
                });
            }
        });
        for f in &fences {
            assert_eq!(wait(&gpu, f), FenceStatus::Signaled);
        }
        assert_eq!(*order.lock().unwrap(), (0..n).collect::<Vec<_>>());
    }

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
