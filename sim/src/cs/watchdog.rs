//! Hang detection. Two layers:
//! - the kernel drivers' rules, in simulated GPU time ([`HangRule`], [`GpuTimer`]): i915's
//!   engine heartbeat and preemption timeout, xe's job timeout, with the values of the device's
//!   sysfs tree (`crate::sysfs`); the EU cost model that advances the time is in
//!   `crate::dispatch::progress`;
//! - the simulator's own backstops ([`Budget`], and the walker executor's instruction budget):
//!   a command count (an endless chain of batch buffers costs no EU time) and a generous host
//!   time for MI_SEMAPHORE_WAIT polls, which wait on other contexts or the CPU.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Limits on one submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Commands (including semaphore polls) one submission may execute.
    pub commands: u64,
    /// Host time a submission may spend polling a semaphore (MI_SEMAPHORE_WAIT).
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

    /// Charges one command. `Err(commands executed)` once the command budget is spent. Host
    /// time is not charged here: a long legitimate batch (thousands of blits) must not become
    /// a hang on a loaded host; only semaphore polls check [`Watchdog::out_of_time`].
    pub fn tick(&mut self) -> Result<(), u64> {
        self.used += 1;
        if self.used > self.budget.commands {
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

/// The kernel driver's rule that resets an engine stuck on a request, in simulated ns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HangRule {
    /// No kernel driver (a bare simulated GPU): only the backstops apply.
    None,
    /// i915 (`gt/intel_engine_heartbeat.c`, the schedulers' preemption timeout,
    /// `i915_request.c`'s request watchdog): a heartbeat pulse goes out every `heartbeat_ns`
    /// at minimum priority; the tick after, its priority is raised and the engine is asked to
    /// preempt whatever runs; if the running context reaches no preemption point within
    /// `preempt_timeout_ns`, the engine is reset. With the preemption timeout off (0) the
    /// heartbeat keeps escalating and resets on its own, modelled as 4 intervals after the
    /// pulse. With the heartbeat off (0) only the request watchdog (`request_timeout_ns`,
    /// i915's `request_timeout_ms` module parameter; 0: off) ends a request.
    I915 {
        heartbeat_ns: u64,
        preempt_timeout_ns: u64,
        request_timeout_ns: u64,
    },
    /// xe (`xe_guc_submit.c`, the DRM scheduler's timeout): a job that has run
    /// `job_timeout_ns` of GPU time is reset. Long-running-mode queues have no job timeout.
    Xe { job_timeout_ns: u64 },
}

impl HangRule {
    /// When the engine is reset if the request stops reaching preemption points at `start`
    /// (ns since the request began); `None`: never.
    pub fn reset_at(&self, start: u64) -> Option<u64> {
        match *self {
            HangRule::None => None,
            HangRule::I915 {
                heartbeat_ns: h,
                preempt_timeout_ns: p,
                request_timeout_ns: r,
            } => {
                let heartbeat = (h > 0).then(|| {
                    // The first pulse at or after the stretch began (pulses at h, 2h, ...),
                    // raised (and preemption asked for) one interval later.
                    let pulse = start.div_ceil(h).max(1).saturating_mul(h);
                    let raised = pulse.saturating_add(h);
                    if p > 0 {
                        raised.saturating_add(p)
                    } else {
                        pulse.saturating_add(h.saturating_mul(4))
                    }
                });
                let watchdog = (r > 0).then_some(r);
                match (heartbeat, watchdog) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                }
            }
            HangRule::Xe { job_timeout_ns } => Some(job_timeout_ns),
        }
    }

    /// What the rule is called in a hang report.
    pub fn describe(&self) -> String {
        let ms = |ns: u64| ns / 1_000_000;
        match *self {
            HangRule::None => "the simulator's backstop".into(),
            HangRule::I915 {
                heartbeat_ns,
                preempt_timeout_ns,
                request_timeout_ns,
            } => format!(
                "i915 engine heartbeat ({} ms) and preemption timeout ({} ms), request \
                 watchdog {} ms",
                ms(heartbeat_ns),
                ms(preempt_timeout_ns),
                ms(request_timeout_ns)
            ),
            HangRule::Xe { job_timeout_ns } => {
                format!("xe job timeout ({} ms)", ms(job_timeout_ns))
            }
        }
    }
}

/// One request's simulated GPU time and the rule that may reset it. Shared by the command
/// streamer and the walker executor (which may run EU threads on several host threads).
#[derive(Debug)]
pub struct GpuTimer {
    pub rule: HangRule,
    /// Nanoseconds of simulated GPU time since the request began.
    now: AtomicU64,
}

impl GpuTimer {
    pub fn new(rule: HangRule) -> Self {
        GpuTimer {
            rule,
            now: AtomicU64::new(0),
        }
    }

    pub fn now_ns(&self) -> u64 {
        self.now.load(Ordering::Relaxed)
    }

    /// Moves simulated time forward to `ns` (never back).
    pub fn advance_to(&self, ns: u64) {
        self.now.fetch_max(ns, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn i915_resets_after_the_raised_pulse_plus_the_preempt_timeout() {
        let ms = 1_000_000;
        let r = HangRule::I915 {
            heartbeat_ns: 2500 * ms,
            preempt_timeout_ns: 7500 * ms,
            request_timeout_ns: 20_000 * ms,
        };
        assert_eq!(r.reset_at(0), Some(12_500 * ms));
        assert_eq!(r.reset_at(2500 * ms), Some(12_500 * ms));
        // A later stretch meets the next pulse; the request watchdog caps it.
        assert_eq!(r.reset_at(2501 * ms), Some(15_000 * ms));
        assert_eq!(r.reset_at(9000 * ms), Some(20_000 * ms));
        let escalate = HangRule::I915 {
            heartbeat_ns: 100 * ms,
            preempt_timeout_ns: 0,
            request_timeout_ns: 0,
        };
        assert_eq!(escalate.reset_at(0), Some(500 * ms));
        let off = HangRule::I915 {
            heartbeat_ns: 0,
            preempt_timeout_ns: 7500 * ms,
            request_timeout_ns: 0,
        };
        assert_eq!(off.reset_at(0), None);
        let xe = HangRule::Xe {
            job_timeout_ns: 5000 * ms,
        };
        assert_eq!(xe.reset_at(4000 * ms), Some(5000 * ms));
    }

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
        // Commands alone never run out of time (the host's load must not make a hang).
        assert_eq!((0..2048).find_map(|_| w.tick().err()), None);
    }
}
