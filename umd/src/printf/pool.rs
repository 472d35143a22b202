//! The printf buffers a queue keeps for reuse: lent to dispatches, given back when their last
//! output goes. Its own file so queues and printf outputs share it without naming each other.

use std::sync::{Arc, Mutex, MutexGuard};

use super::BUFFER_BYTES;
use crate::memory::Bo;

/// Free buffers a queue keeps (each [`BUFFER_BYTES`]); more are released.
const POOL_KEEP: usize = 4;

/// Bytes of each pooled buffer.
pub(crate) const POOL_BYTES: u64 = BUFFER_BYTES;

/// A queue's printf buffers nobody holds.
#[derive(Debug, Default)]
pub(crate) struct PrintfPool {
    free: Mutex<Vec<Arc<Bo>>>,
}

impl PrintfPool {
    fn free(&self) -> MutexGuard<'_, Vec<Arc<Bo>>> {
        self.free.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A free buffer no submission still holds, if any.
    pub(crate) fn take(&self) -> Option<Arc<Bo>> {
        let mut free = self.free();
        // Only the pool holds it: no running batch writes it any more.
        let i = free.iter().position(|b| Arc::strong_count(b) == 1)?;
        Some(free.swap_remove(i))
    }

    /// Takes back a buffer whose last output went.
    pub(crate) fn give_back(&self, bo: Arc<Bo>) {
        let mut free = self.free();
        if free.len() < POOL_KEEP {
            free.push(bo);
        }
    }
}
