//! Looking for a state for a moment before sleeping on it. A command is handed from the
//! application's thread to the queue's and its end back, and most take a few microseconds: a
//! thread put to sleep for each costs two context switches, and on a virtual machine whose
//! other core went idle meanwhile the wake-up costs tens of microseconds more. CLBlast's tests
//! (a clFinish every few commands) spent more time so than running kernels; one
//! enqueue-and-finish on sim:tgllp went from 100 to 27 µs.
//!
//! On a machine whose cores are all busy a spinning thread takes a core from the one it waits
//! for, so looking is adaptive: it goes on while looks mostly end in what was waited for, and
//! stops (but for one wait in 32) once they mostly run out.

use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a waiter looks before it sleeps.
pub const SPIN: Duration = Duration::from_micros(50);

/// While looks are not worth it, one wait in this many looks all the same, to notice when
/// they are again.
const PROBE: u32 = 32;

/// Whether looks have been ending in what was waited for: up by one for each that did, down
/// by four for each that ran out; looking stops below zero.
static WORTH: AtomicI32 = AtomicI32::new(0);
static WAITS: AtomicU32 = AtomicU32::new(0);

/// Looks for `ready` in the state `m` guards for up to [`SPIN`] without sleeping (never
/// waiting for the lock either), while looking has been worth it; the caller then takes the
/// lock and sleeps if it is still not so.
pub fn spin_for<T>(m: &Mutex<T>, ready: impl Fn(&T) -> bool) {
    let probe = WAITS.fetch_add(1, Ordering::Relaxed).is_multiple_of(PROBE);
    if WORTH.load(Ordering::Relaxed) < 0 && !probe {
        return;
    }
    let until = Instant::now() + SPIN;
    let found = loop {
        if let Ok(st) = m.try_lock() {
            if ready(&st) {
                break true;
            }
        }
        for _ in 0..64 {
            std::hint::spin_loop();
        }
        if Instant::now() >= until {
            break false;
        }
    };
    let step = if found { 1 } else { -4 };
    let _ = WORTH.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |w| {
        Some((w + step).clamp(-64, 64))
    });
}
