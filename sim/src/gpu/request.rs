//! A request and what running one needs: the job as submitted, the context's reset record and
//! what every context's lanes share with the device (its engines, clock, budget, walker
//! executor, error log and doorbell).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::clock::Clock;
use crate::cs::{Budget, CsError, HangRule, WalkerExecutor};
use crate::device_info::DeviceInfo;
use crate::gpu_error::ErrorLog;
use crate::mem::AddressSpace;
use crate::sync::{Doorbell, Fence};

use super::driver::KernelDriver;

/// What every context's lanes share with the device.
pub(crate) struct Shared {
    pub(super) info: &'static DeviceInfo,
    pub(super) clock: Clock,
    pub(super) budget: Budget,
    pub(super) walker: Arc<dyn WalkerExecutor>,
    pub(super) errors: Mutex<ErrorLog>,
    pub(super) doorbell: Arc<Doorbell>,
    /// The kernel driver's hang rules and error publishing (none for a bare GPU).
    pub(super) driver: Option<Arc<dyn KernelDriver>>,
    /// Where each request's executed commands go (`SimConfig::command_log`), and the count.
    pub(super) command_log: Option<(std::path::PathBuf, AtomicU64)>,
    /// The sanitizer, when on: walkers run their threads under its checks.
    pub(super) sanitizer: Option<Arc<crate::sanitize::Sanitizer>>,
}

impl Shared {
    /// Captures a GPU error of context `ctx` on `engine` and resets it: the context is banned
    /// and charged. Returns the error's id.
    pub(super) fn report(
        &self,
        engine: usize,
        ctx: &ContextStatus,
        id: u32,
        batch: u64,
        e: CsError,
    ) -> u64 {
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
    pub(super) fn hang_rule(&self, ctx: &ContextStatus, e: usize) -> HangRule {
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
    pub(super) fn wait_for(&self, fences: &[Arc<Fence>], ready: impl Fn(&Fence) -> bool) {
        loop {
            let seen = self.doorbell.count();
            if fences.iter().all(|f| ready(f)) {
                return;
            }
            self.doorbell.wait(seen, Duration::from_millis(100));
        }
    }
}

/// A context's reset record, shared by the uAPI side and the context's lanes.
#[derive(Debug, Default)]
pub(super) struct ContextStatus {
    pub(super) banned: AtomicBool,
    /// The error that banned the context; requests queued behind it are cancelled with it.
    pub(super) ban_error: AtomicU64,
    /// Requests of this context that caused a reset (i915 `batch_active`).
    pub(super) guilty: AtomicU32,
    /// The context's own job timeout in ms, fixed at creation (`NO_JOB_TIMEOUT` for
    /// long-running contexts); 0: the kernel driver's default (xe exec queues set it).
    pub(super) job_timeout_ms: AtomicU64,
}

/// A long-running context's job timeout: none.
pub(super) const NO_JOB_TIMEOUT: u64 = u64::MAX;

impl ContextStatus {
    pub(super) fn ban(&self, error: u64) {
        self.guilty.fetch_add(1, Ordering::SeqCst);
        self.ban_error.store(error, Ordering::SeqCst);
        self.banned.store(true, Ordering::SeqCst);
    }

    pub(super) fn ban_error(&self) -> Option<u64> {
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
