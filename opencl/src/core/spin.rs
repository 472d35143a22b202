//! Looking for a state for a moment before sleeping on it. A command is handed from the
//! application's thread to the queue's and its end back, and most take a few microseconds: a
//! thread put to sleep for each costs two context switches, and on a virtual machine whose
//! other core went idle meanwhile the wake-up costs tens of microseconds more. CLBlast's tests
//! (a clFinish every few commands) spent more time so than running kernels; one
//! enqueue-and-finish on sim:tgllp went from 100 to 27 µs.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a waiter looks before it sleeps.
pub const SPIN: Duration = Duration::from_micros(50);

/// Looks for `ready` in the state `m` guards for up to [`SPIN`] without sleeping (never
/// waiting for the lock either); the caller then takes the lock and sleeps if it is still
/// not so.
pub fn spin_for<T>(m: &Mutex<T>, ready: impl Fn(&T) -> bool) {
    let until = Instant::now() + SPIN;
    loop {
        if let Ok(st) = m.try_lock() {
            if ready(&st) {
                return;
            }
        }
        for _ in 0..64 {
            std::hint::spin_loop();
        }
        if Instant::now() >= until {
            return;
        }
    }
}
