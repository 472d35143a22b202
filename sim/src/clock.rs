//! The command streamer's timestamp counter (RING_TIMESTAMP), ticking at the device's frequency
//! from the moment the device was opened.

use std::time::Instant;

#[derive(Debug, Clone, Copy)]
pub struct Clock {
    start: Instant,
    hz: u64,
}

impl Clock {
    pub fn new(hz: u64) -> Self {
        Clock {
            start: Instant::now(),
            hz,
        }
    }

    pub fn hz(&self) -> u64 {
        self.hz
    }

    /// Current counter value.
    pub fn ticks(&self) -> u64 {
        let ns = self.start.elapsed().as_nanos();
        let t = ns.saturating_mul(u128::from(self.hz)) / 1_000_000_000;
        u64::try_from(t).unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_advance_at_the_given_rate() {
        let c = Clock::new(19_200_000);
        let a = c.ticks();
        std::thread::sleep(std::time::Duration::from_millis(20));
        let b = c.ticks();
        // 20 ms at 19.2 MHz is 384000 ticks; allow for a slow scheduler above.
        assert!(b - a >= 384_000, "{a} {b}");
    }
}
