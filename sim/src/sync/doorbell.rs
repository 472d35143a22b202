//! Wakes every waiter (GEM_WAIT, syncobj waits, user fences, a context waiting for its
//! in-fences) whenever something it may wait for changed: a fence signalled, a syncobj was
//! replaced. Waiters re-check their condition after each ring; the count makes a ring between
//! the check and the sleep impossible to miss.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

#[derive(Debug, Default)]
pub struct Doorbell {
    rung: Mutex<u64>,
    cv: Condvar,
}

impl Doorbell {
    /// How many times the bell has rung; pass it to [`Doorbell::wait`] after checking.
    pub fn count(&self) -> u64 {
        *self.rung.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn ring(&self) {
        *self.rung.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.cv.notify_all();
    }

    /// Sleeps until the bell rings after `seen` was read, or `timeout` passes.
    pub fn wait(&self, seen: u64, timeout: Duration) {
        let guard = self.rung.lock().unwrap_or_else(|e| e.into_inner());
        let _ = self.cv.wait_timeout_while(guard, timeout, |n| *n == seen);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_ring_after_the_count_wakes_the_waiter() {
        let bell = Arc::new(Doorbell::default());
        let seen = bell.count();
        let b = bell.clone();
        let t = std::thread::spawn(move || b.ring());
        // Returns as soon as the other thread rang (or at once if it already had).
        bell.wait(seen, Duration::from_secs(60));
        assert_eq!(bell.count(), seen + 1);
        t.join().unwrap();
    }
}
