//! A one-shot completion: pending until the engine finishes the request, then signalled with
//! success or with the GPU error that ended it.

use std::sync::{Arc, OnceLock};

/// What a fence reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FenceStatus {
    Pending,
    Signaled,
    /// Signalled by a reset: the request hit a GPU error (id into the device's error log).
    Error {
        error_id: u64,
    },
}

#[derive(Debug, Default)]
pub struct Fence {
    done: OnceLock<Option<u64>>,
}

impl Fence {
    pub fn new() -> Arc<Fence> {
        Arc::new(Fence::default())
    }

    /// An already signalled fence (syncobj SIGNAL, a stub for "no work").
    pub fn signaled() -> Arc<Fence> {
        let f = Fence::new();
        f.signal(None);
        f
    }

    /// Signals success (`None`) or failure with a GPU error id. Later calls are ignored: a fence
    /// signals once.
    pub fn signal(&self, error_id: Option<u64>) {
        let _ = self.done.set(error_id);
    }

    pub fn status(&self) -> FenceStatus {
        match self.done.get() {
            None => FenceStatus::Pending,
            Some(None) => FenceStatus::Signaled,
            Some(Some(id)) => FenceStatus::Error { error_id: *id },
        }
    }

    pub fn is_signaled(&self) -> bool {
        self.done.get().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signals_once() {
        let f = Fence::new();
        assert_eq!(f.status(), FenceStatus::Pending);
        f.signal(Some(3));
        f.signal(None);
        assert_eq!(f.status(), FenceStatus::Error { error_id: 3 });
        assert!(Fence::signaled().is_signaled());
    }
}
