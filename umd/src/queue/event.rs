//! Events: the completion of one submission, or a condition the host signals. Both can be
//! polled, waited on with a timeout, and named as dependencies of later submissions.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use crate::device::Inner;
use crate::error::{Error, Result};
use crate::memory::Bo;

/// Post-sync values: unique per submission (dispatch or blit) so a stale fence is never
/// mistaken for a newer one.
pub(crate) static NEXT_FENCE: AtomicU64 = AtomicU64::new(0x1000);

/// The 64-bit value a batch's last PIPE_CONTROL writes when every walker before it is done.
/// A retired batch whose fence value did not land failed (the kernel reset it or cancelled
/// it), whatever the syncobj says: syncobj waits do not report a fence's error.
#[derive(Debug)]
pub(crate) struct Fence {
    pub bo: Arc<Bo>,
    pub offset: usize,
    pub value: u64,
    /// Where in `bo` the batch writes the GPU timestamps before and after its work, if it does.
    pub ticks: Option<(usize, usize)>,
}

impl Fence {
    pub fn landed(&self) -> bool {
        self.bo.map.load_u64(self.offset) == Ok(self.value)
    }

    /// The timestamps the batch wrote (read once it landed: the BO is reused afterwards).
    fn ticks(&self) -> Option<(u64, u64)> {
        let (s, e) = self.ticks?;
        Some((self.bo.map.load_u64(s).ok()?, self.bo.map.load_u64(e).ok()?))
    }
}

/// A submission the kernel has (its syncobj is the work's).
#[derive(Debug)]
pub(crate) struct Flight {
    pub fence: Fence,
    /// Context (i915) or exec queue (xe) it ran on, and its batch, for the error report.
    pub ctx: u32,
    pub batch_address: u64,
    /// The kernel binary it ran (address, bytes), to count error offsets from.
    pub isa: Option<(u64, u64)>,
    /// What it waited for: a failed one explains why it did not run (the kernel skips work
    /// whose in-fence carries an error).
    pub deps: Vec<Event>,
}

#[derive(Debug)]
pub(crate) enum State {
    /// A host event not signalled yet.
    Host,
    /// Built and held in its queue until its dependencies are submitted.
    Held,
    Submitted(Flight),
    Complete,
    Failed(Error),
}

#[derive(Debug)]
pub(crate) struct Work {
    pub dev: Arc<Inner>,
    pub state: Mutex<State>,
    /// The syncobj the kernel signals when the batch retires (0 until submitted). Kept until
    /// the work is dropped, so a dependant that read it can still hand it to the kernel.
    pub syncobj: AtomicU32,
    /// Woken when the state leaves `Host` or `Held`.
    pub moved: Condvar,
    /// The GPU timestamps around the batch's work, once it completed.
    gpu_ticks: OnceLock<(u64, u64)>,
}

impl Drop for Work {
    fn drop(&mut self) {
        let s = *self.syncobj.get_mut();
        if s != 0 {
            // The kernel keeps the fence later submissions took from it.
            self.dev.backend().syncobj_destroy(s);
        }
    }
}

impl Work {
    pub fn new(dev: Arc<Inner>, state: State) -> Arc<Work> {
        Arc::new(Work {
            dev,
            state: Mutex::new(state),
            syncobj: AtomicU32::new(0),
            moved: Condvar::new(),
            gpu_ticks: OnceLock::new(),
        })
    }

    /// Makes a retired work nobody else holds ready for another submission, keeping its
    /// syncobj (the kernel replaces its fence when the next batch is submitted with it).
    pub fn reset(&mut self) {
        *self.state.get_mut().unwrap_or_else(|e| e.into_inner()) = State::Held;
        self.gpu_ticks = OnceLock::new();
    }

    pub fn lock(&self) -> MutexGuard<'_, State> {
        // Every update is one assignment: a panic elsewhere cannot leave it torn.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn set(&self, s: State) {
        *self.lock() = s;
        self.moved.notify_all();
    }

    /// Settles a submitted state whose syncobj has signalled: complete when the fence landed,
    /// else the error the GPU reported.
    fn settle(&self, st: &mut State) {
        if let State::Submitted(f) = st {
            let failed_dep = f.deps.iter().find_map(|d| match &*d.0.lock() {
                State::Failed(e) => Some(e.to_string()),
                _ => None,
            });
            let new = match (f.fence.landed(), failed_dep) {
                (true, _) => {
                    if let Some(t) = f.fence.ticks() {
                        let _ = self.gpu_ticks.set(t);
                    }
                    State::Complete
                }
                (false, Some(why)) => State::Failed(Error::DependencyFailed(why)),
                (false, None) => {
                    let e = self.dev.explain_failure(f.ctx, f.batch_address);
                    State::Failed(match f.isa {
                        Some(isa) => e.rebased_to_isa(isa),
                        None => e,
                    })
                }
            };
            *st = new;
        }
    }

    /// Waits until `deadline` (None: forever). `Ok(true)` once complete.
    pub fn wait_until(&self, deadline: Option<Instant>) -> Result<bool> {
        let mut st = self.lock();
        loop {
            match &*st {
                State::Complete => return Ok(true),
                State::Failed(e) => return Err(e.clone()),
                State::Host | State::Held => {
                    st = match deadline {
                        None => self.moved.wait(st).unwrap_or_else(|e| e.into_inner()),
                        Some(d) => {
                            let left = d.saturating_duration_since(Instant::now());
                            if left.is_zero() {
                                return Ok(false);
                            }
                            self.moved
                                .wait_timeout(st, left)
                                .unwrap_or_else(|e| e.into_inner())
                                .0
                        }
                    }
                }
                State::Submitted(_) => {
                    let s = self.syncobj.load(Ordering::Acquire);
                    // Wait without holding the state: pollers and dependants must not block
                    // behind the GPU.
                    drop(st);
                    let done = self
                        .dev
                        .backend()
                        .wait(&[s], monotonic_deadline(deadline))?;
                    st = self.lock();
                    if !done {
                        return Ok(false);
                    }
                    self.settle(&mut st);
                }
            }
        }
    }

    /// The syncobj a dependant hands the kernel (None once complete); `Err` while it is not
    /// submitted yet or when it failed.
    pub fn dependency(&self) -> std::result::Result<Option<u32>, DepState> {
        match &*self.lock() {
            State::Complete => Ok(None),
            State::Submitted(_) => Ok(Some(self.syncobj.load(Ordering::Acquire))),
            State::Host | State::Held => Err(DepState::Pending),
            State::Failed(e) => Err(DepState::Failed(e.to_string())),
        }
    }
}

/// Why a dependency cannot be handed to the kernel.
#[derive(Debug)]
pub(crate) enum DepState {
    Pending,
    Failed(String),
}

/// `CLOCK_MONOTONIC` nanoseconds at `deadline`, as syncobj waits take it (None: never).
fn monotonic_deadline(deadline: Option<Instant>) -> i64 {
    match deadline {
        None => i64::MAX,
        Some(d) => {
            let left = d.saturating_duration_since(Instant::now());
            kmd_iface::drm_core::monotonic_now_ns()
                .saturating_add(i64::try_from(left.as_nanos()).unwrap_or(i64::MAX))
        }
    }
}

/// Where an [`Event`] is in its life.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// A host event not signalled yet, or a submission held until its dependencies are
    /// submitted.
    Waiting,
    /// In the kernel driver's hands (queued or running).
    Submitted,
    Complete,
    /// Failed: the error's text (`wait` returns the error itself).
    Failed(String),
}

/// The completion of a submission or a host-signalled condition. Clones share it.
///
/// `Send + Sync`: any thread may poll, wait on or signal it.
#[derive(Debug, Clone)]
pub struct Event(pub(crate) Arc<Work>);

impl Event {
    /// A host event of `dev`: dependants wait until [`Event::signal`].
    pub(crate) fn host(dev: Arc<Inner>) -> Event {
        Event(Work::new(dev, State::Host))
    }

    /// Checks without blocking: `Ok(true)` once complete, `Err` with the submission's own
    /// error if it failed.
    pub fn poll(&self) -> Result<bool> {
        self.wait_until(Some(Instant::now()))
    }

    /// Waits at most `timeout` (None: until it completes). `Ok(false)` when the time ran out,
    /// `Ok(true)` once complete, `Err` with the submission's own error if it failed.
    pub fn wait(&self, timeout: Option<Duration>) -> Result<bool> {
        self.wait_until(timeout.map(|t| Instant::now() + t))
    }

    fn wait_until(&self, deadline: Option<Instant>) -> Result<bool> {
        self.0.wait_until(deadline)
    }

    pub fn status(&self) -> Status {
        match &*self.0.lock() {
            State::Host | State::Held => Status::Waiting,
            State::Submitted(_) => Status::Submitted,
            State::Complete => Status::Complete,
            State::Failed(e) => Status::Failed(e.to_string()),
        }
    }

    /// Completes a host event: submissions that depend on it are handed to the kernel.
    pub fn signal(&self) -> Result<()> {
        self.settle_host(State::Complete)
    }

    /// Fails a host event with `reason`: submissions that depend on it fail without running.
    pub fn fail(&self, reason: &str) -> Result<()> {
        self.settle_host(State::Failed(Error::DependencyFailed(format!(
            "host event failed: {reason}"
        ))))
    }

    fn settle_host(&self, to: State) -> Result<()> {
        {
            let mut st = self.0.lock();
            if !matches!(*st, State::Host) {
                return Err(Error::Argument(
                    "only an unsignalled host event can be signalled or failed".into(),
                ));
            }
            *st = to;
        }
        self.0.moved.notify_all();
        self.0.dev.flush_queues();
        Ok(())
    }

    /// The GPU's timestamps (RING_TIMESTAMP ticks, see [`crate::device::Device::gpu_clock`])
    /// written just before and just after a dispatch's walkers, once it completed. None for
    /// host events, raw batches and work not complete.
    pub fn gpu_ticks(&self) -> Option<(u64, u64)> {
        self.0.gpu_ticks.get().copied()
    }

    /// True when both name the same event.
    pub fn same(&self, other: &Event) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
