//! A one-shot completion: pending while the request is queued and while it runs, then signalled
//! with success or with the GPU error that ended it. A request's fence knows what runs it
//! ([`Runner`]): a thread about to sleep until it signals may run the request itself
//! ([`Fence::help`]).

use std::sync::{Arc, Mutex, Weak};

/// What a fence reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FenceStatus {
    Pending,
    Signaled,
    /// Signalled by a reset: the request hit a GPU error, or was cancelled by one (id into the
    /// device's error log).
    Error {
        error_id: u64,
    },
}

type Callback = Box<dyn FnOnce(FenceStatus) + Send>;

#[derive(Default)]
struct Inner {
    done: Option<Option<u64>>,
    /// The request has reached the engine (what I915_EXEC_FENCE_SUBMIT waits for).
    started: bool,
    on_signal: Vec<Callback>,
}

/// What runs the requests whose fences name it (a context's lane for one engine).
pub trait Runner: Send + Sync {
    /// Runs, on the calling thread, the requests up to and including `until`'s, for as long
    /// as their turn has come and no other thread runs one; returns once `until` has
    /// signalled or when it cannot go on (the caller then waits as it would have).
    fn run_until(&self, until: &Fence);
}

#[derive(Default)]
pub struct Fence {
    inner: Mutex<Inner>,
    /// What runs the fence's request (none for fences no request signals).
    runner: Option<Weak<dyn Runner>>,
}

impl std::fmt::Debug for Fence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Fence").field(&self.status()).finish()
    }
}

impl Fence {
    pub fn new() -> Arc<Fence> {
        Arc::new(Fence::default())
    }

    /// The fence of a request that `runner` runs.
    pub fn run_by(runner: Weak<dyn Runner>) -> Arc<Fence> {
        Arc::new(Fence {
            inner: Mutex::default(),
            runner: Some(runner),
        })
    }

    /// For a thread about to sleep until this fence signals, with no deadline to keep: runs
    /// the fence's request (and those queued before it) on this thread when their turn has
    /// come ([`Runner::run_until`]), saving the wake-ups of handing it to the runner's own
    /// thread and its completion back; returns at once when that cannot be done.
    pub fn help(&self) {
        if self.is_signaled() {
            return;
        }
        if let Some(runner) = self.runner.as_ref().and_then(Weak::upgrade) {
            runner.run_until(self);
        }
    }

    /// An already signalled fence (syncobj SIGNAL, a stub for "no work").
    pub fn signaled() -> Arc<Fence> {
        let f = Fence::new();
        f.signal(None);
        f
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Signals success (`None`) or failure with a GPU error id. Later calls are ignored: a fence
    /// signals once. Runs the callbacks registered with [`Fence::on_signal`].
    pub fn signal(&self, error_id: Option<u64>) {
        let callbacks = {
            let mut i = self.lock();
            if i.done.is_some() {
                return;
            }
            i.done = Some(error_id);
            i.started = true;
            std::mem::take(&mut i.on_signal)
        };
        let status = self.status();
        for c in callbacks {
            c(status);
        }
    }

    /// Marks the request as running on the engine.
    pub fn start(&self) {
        self.lock().started = true;
    }

    /// Runs `f` once the fence signals (at once if it has).
    pub fn on_signal(&self, f: impl FnOnce(FenceStatus) + Send + 'static) {
        let mut i = self.lock();
        if i.done.is_none() {
            i.on_signal.push(Box::new(f));
            return;
        }
        drop(i);
        f(self.status());
    }

    pub fn status(&self) -> FenceStatus {
        match self.lock().done {
            None => FenceStatus::Pending,
            Some(None) => FenceStatus::Signaled,
            Some(Some(id)) => FenceStatus::Error { error_id: id },
        }
    }

    pub fn is_signaled(&self) -> bool {
        self.lock().done.is_some()
    }

    pub fn is_started(&self) -> bool {
        self.lock().started
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[test]
    fn signals_once() {
        let f = Fence::new();
        assert_eq!(f.status(), FenceStatus::Pending);
        f.signal(Some(3));
        f.signal(None);
        assert_eq!(f.status(), FenceStatus::Error { error_id: 3 });
        assert!(Fence::signaled().is_signaled());
    }

    #[test]
    fn callbacks_run_once_on_signal_or_at_once() {
        let f = Fence::new();
        let n = Arc::new(AtomicU32::new(0));
        let m = n.clone();
        f.on_signal(move |s| {
            assert_eq!(s, FenceStatus::Signaled);
            m.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(n.load(Ordering::SeqCst), 0);
        assert!(!f.is_started());
        f.start();
        assert!(f.is_started() && !f.is_signaled());
        f.signal(None);
        f.signal(Some(1));
        assert_eq!(n.load(Ordering::SeqCst), 1);
        let m = n.clone();
        f.on_signal(move |_| {
            m.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(n.load(Ordering::SeqCst), 2);
    }
}
