//! A hardware context's requests for one engine: queued in submission order and run one at a
//! time on the context's image by the lane's own host thread, or by a thread that would
//! otherwise sleep until one of them completes ([`Lane::run_until`]).
//!
//! A thread that waits without a deadline for a request's fence runs that request itself, and
//! the ones queued before it, when their turn has come: handing a request to a sleeping
//! thread and its completion back cost two wake-ups, each 20 to 30 µs in a virtual machine,
//! against a short kernel's few hundred. Which host thread runs a request changes nothing of
//! what it does (its result depends only on its batch and memory); one request runs at a time
//! per lane, in submission order, each taken from the queue's front with the image held.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use crate::cs::{CommandLog, ComputeState, CsError, EngineRing, GpuTimer, RingRun};
use crate::gpu_error::{GpuErrorKind, HangReason};
use crate::regs::RegisterFile;
use crate::sync::{Fence, FenceStatus, Runner};

use super::request::{ContextStatus, Job, Shared};

/// The stack a waiting thread needs left to run a request: about what the lane's own thread
/// has (Rust's default for spawned threads, 2 MiB, of which the way into a wait takes some
/// tens of KiB). A thread with less (an application's thread may have a small stack) leaves
/// the request to the lane's thread: running it on a stack made for it cost more than the
/// wake-ups saved (the page faults of a new stack each time, about 80 µs).
const STACK_NEEDED: usize = 3 << 19;

/// The context image: what a context's requests leave behind for the next one.
struct Image {
    regs: Vec<RegisterFile>,
    compute: Vec<ComputeState>,
    rings: Vec<Option<EngineRing>>,
}

/// The requests queued on a lane, whether one is running and whether its context is gone.
#[derive(Default)]
struct Queue {
    requests: VecDeque<(Job, Arc<Fence>)>,
    /// A thread took a request off the front and runs it: until it is done, no other takes
    /// one (the lane's thread waits for `arrived` rather than for the image, so that it does
    /// not wake when a waiting thread's request ends and take the next one from under it).
    running: bool,
    /// The context is gone: the lane's thread runs what is queued, then ends.
    closed: bool,
}

/// A context's requests for one engine and the context image they run on.
pub(super) struct Lane {
    shared: Arc<Shared>,
    status: Arc<ContextStatus>,
    /// The context's uAPI id, for error records.
    id: u32,
    queue: Mutex<Queue>,
    /// Signalled when a request is queued, when a waiting thread stops running requests with
    /// some left, and when the lane closes.
    arrived: Condvar,
    /// Held by the thread running a request (`Queue::running`).
    image: Mutex<Image>,
}

impl std::fmt::Debug for Lane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lane").field("context", &self.id).finish()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while a request ran is caught inside the lock (`Lane::run`); the state stays
    // usable.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Lane {
    pub(super) fn new(shared: Arc<Shared>, status: Arc<ContextStatus>, id: u32) -> Lane {
        let n = shared.info.engines.len();
        Lane {
            shared,
            status,
            id,
            queue: Mutex::default(),
            arrived: Condvar::new(),
            image: Mutex::new(Image {
                regs: vec![RegisterFile::default(); n],
                compute: vec![ComputeState::default(); n],
                rings: (0..n).map(|_| None).collect(),
            }),
        }
    }

    /// Queues `job`, whose completion `fence` signals.
    pub(super) fn push(&self, job: Job, fence: Arc<Fence>) {
        lock(&self.queue).requests.push_back((job, fence));
        self.arrived.notify_one();
    }

    /// The context is gone: the lane's thread ends once the queue is empty.
    pub(super) fn close(&self) {
        lock(&self.queue).closed = true;
        self.arrived.notify_all();
    }

    /// The lane's own thread: runs the requests as they come, waiting for each one's
    /// in-fences, until the lane is closed and empty.
    pub(super) fn work(&self) {
        loop {
            let (job, fence) = {
                let mut q = lock(&self.queue);
                loop {
                    if !q.running {
                        if let Some(next) = q.requests.pop_front() {
                            q.running = true;
                            break next;
                        }
                        if q.closed {
                            return;
                        }
                    }
                    q = self.arrived.wait(q).unwrap_or_else(|e| e.into_inner());
                }
            };
            self.shared.wait_for(&job.after, Fence::is_signaled);
            self.shared.wait_for(&job.with, Fence::is_started);
            self.run(&mut lock(&self.image), &job, &fence);
            lock(&self.queue).running = false;
        }
    }

    /// Runs `job` (its in-fences signalled or started) with the image held and signals
    /// `fence`: with the first in-fence's error when one failed, the ban's when the context
    /// is banned, else the request's outcome.
    fn run(&self, image: &mut Image, job: &Job, fence: &Fence) {
        let shared = &*self.shared;
        let failed_in = job.after.iter().find_map(|f| match f.status() {
            FenceStatus::Error { error_id } => Some(error_id),
            _ => None,
        });
        match failed_in.or_else(|| self.status.ban_error()) {
            Some(error) => fence.signal(Some(error)),
            None => {
                fence.start();
                // A simulator bug must fail the request, not leave its fence pending forever.
                let timer = GpuTimer::new(shared.hang_rule(&self.status, job.engine));
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    run_batch(shared, image, job, &timer)
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
                        let error = shared.report(job.engine, &self.status, self.id, job.batch, e);
                        fence.signal(Some(error));
                    }
                }
            }
        }
        shared.doorbell.ring();
    }
}

impl Runner for Lane {
    /// Runs the requests at the queue's front on the calling thread until `until` (a fence of
    /// this lane's) has signalled, for as long as no other thread is running one and the
    /// front one's in-fences allow it to start; returns at once otherwise, and the caller
    /// sleeps as it would have.
    fn run_until(&self, until: &Fence) {
        if stacker::remaining_stack().is_none_or(|left| left < STACK_NEEDED) {
            return;
        }
        while !until.is_signaled() {
            let (job, fence) = {
                let mut q = lock(&self.queue);
                let ready = !q.running
                    && q.requests.front().is_some_and(|(job, _)| {
                        job.after.iter().all(|f| f.is_signaled())
                            && job.with.iter().all(|f| f.is_started())
                    });
                if !ready {
                    return;
                }
                let Some(next) = q.requests.pop_front() else {
                    return;
                };
                q.running = true;
                next
            };
            self.run(&mut lock(&self.image), &job, &fence);
            let left = {
                let mut q = lock(&self.queue);
                q.running = false;
                !q.requests.is_empty()
            };
            // What is queued behind it is the lane's thread's again (this thread may take it
            // first, when it still waits).
            if left {
                self.arrived.notify_one();
            }
        }
    }
}

/// Runs one request on the context's ring for its engine, then writes its user fence.
fn run_batch(
    shared: &Shared,
    image: &mut Image,
    job: &Job,
    timer: &GpuTimer,
) -> Result<(), CsError> {
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
