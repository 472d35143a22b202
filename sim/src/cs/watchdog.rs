//! The hang detector: a batch that executes too many commands, or runs too long, is hung.

use std::time::{Duration, Instant};

/// Limits on one submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Commands (including semaphore polls) one submission may execute.
    pub commands: u64,
    /// Wall-clock time one submission may take.
    pub time: Duration,
}

impl Default for Budget {
    /// Four million commands or one second, far above any real batch's needs and low enough
    /// that an endless loop is reported well within a test's patience.
    fn default() -> Self {
        Budget {
            commands: 4 << 20,
            time: Duration::from_secs(1),
        }
    }
}

/// Counts down one submission's budget.
#[derive(Debug)]
pub struct Watchdog {
    budget: Budget,
    used: u64,
    start: Instant,
}

impl Watchdog {
    pub fn start(budget: Budget) -> Self {
        Watchdog {
            budget,
            used: 0,
            start: Instant::now(),
        }
    }

    /// Charges one command. `Err(commands executed)` once the budget is spent.
    pub fn tick(&mut self) -> Result<(), u64> {
        self.used += 1;
        let over_time = self.used.is_multiple_of(1024) && self.start.elapsed() > self.budget.time;
        if self.used > self.budget.commands || over_time {
            return Err(self.used);
        }
        Ok(())
    }

    /// True when the time budget alone is spent (checked by polling commands).
    pub fn out_of_time(&self) -> bool {
        self.start.elapsed() > self.budget.time
    }

    pub fn used(&self) -> u64 {
        self.used
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_budget_expires() {
        let mut w = Watchdog::start(Budget {
            commands: 3,
            time: Duration::from_secs(60),
        });
        assert!(w.tick().is_ok() && w.tick().is_ok() && w.tick().is_ok());
        assert_eq!(w.tick(), Err(4));
    }

    #[test]
    fn time_budget_expires() {
        let mut w = Watchdog::start(Budget {
            commands: u64::MAX,
            time: Duration::from_millis(1),
        });
        std::thread::sleep(Duration::from_millis(5));
        assert!(w.out_of_time());
        let n = (0..2048).find_map(|_| w.tick().err());
        assert_eq!(n, Some(1024));
    }
}
