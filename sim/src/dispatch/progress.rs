//! A walker's progress in simulated GPU time, by a cost model of the work its EU threads
//! executed, checked against the kernel driver's hang rule ([`crate::cs::HangRule`]); and the
//! proof that a thread group loops forever, which lets the simulator skip ahead to the reset
//! instead of interpreting billions of instructions.
//!
//! The cost model (deterministic: it counts instructions, never host time):
//! - an EU thread retires one instruction every [`NS_PER_INSTRUCTION`] ns;
//! - the threads of a group run side by side: a group takes as long as its longest thread;
//! - the device holds `EUs × threads per EU / threads per group` groups at once (at least
//!   one), so a walker takes the sum of its groups' times divided by that;
//! - command streamer work costs nothing (endless batch chains meet the command budget).
//!
//! Preemption points, where an i915 heartbeat pulse gets through: between commands, and from
//! Gen11 on between thread groups (thread-group preemption; Gen12 has no mid-thread
//! preemption, and umd installs no system routine that mid-thread preemption needs on Gen11).
//! On Gen9 i915 sets command-level GPGPU preemption (`WaDisableGPGPUMidCmdPreemption`,
//! `intel_workarounds.c`): a whole walker is one stretch.

use platform::Platform;

use crate::cs::GpuTimer;
use crate::device_info::DeviceInfo;
use crate::eu::Thread;

/// Simulated nanoseconds per instruction of one EU thread (about two cycles of a 1 GHz EU).
pub const NS_PER_INSTRUCTION: u64 = 2;

/// Whether the engine can be preempted between a walker's thread groups on `p`.
fn thread_group_preemption(p: Platform) -> bool {
    !matches!(p, Platform::Skl)
}

/// Why the engine was reset: when (ns since the request began) and whether the group was
/// proven endless.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reset {
    pub at_ns: u64,
    pub endless: bool,
}

/// One walker's simulated time.
pub struct Progress<'a> {
    timer: &'a GpuTimer,
    walker_start: u64,
    /// Sum of the finished groups' times.
    groups_ns: u128,
    concurrent: u128,
    per_group: bool,
}

impl<'a> Progress<'a> {
    pub fn new(timer: &'a GpuTimer, p: Platform, threads_per_group: u32) -> Self {
        let t = DeviceInfo::get(p).topology;
        let slots = u128::from(t.eu_total()) * u128::from(t.threads_per_eu);
        Progress {
            timer,
            walker_start: timer.now_ns(),
            groups_ns: 0,
            concurrent: (slots / u128::from(threads_per_group.max(1))).max(1),
            per_group: thread_group_preemption(p),
        }
    }

    /// Simulated time at which the running group started.
    fn group_start(&self) -> u64 {
        let done = u64::try_from(self.groups_ns / self.concurrent).unwrap_or(u64::MAX);
        self.walker_start.saturating_add(done)
    }

    /// Checks the running group, whose threads executed at most `max_instructions` so far
    /// (`None`: proven to loop forever). `Err` once the kernel driver would have reset the
    /// engine; a proven endless loop that no rule ends is reset by the simulator's backstop.
    pub fn check(&self, max_instructions: Option<u64>) -> Result<(), Reset> {
        let start = self.group_start();
        let stretch = if self.per_group {
            start
        } else {
            self.walker_start
        };
        let now =
            max_instructions.map(|n| start.saturating_add(n.saturating_mul(NS_PER_INSTRUCTION)));
        match (self.timer.rule.reset_at(stretch), now) {
            (Some(reset), Some(now)) if now > reset => Err(Reset {
                at_ns: reset,
                endless: false,
            }),
            (Some(reset), None) => Err(Reset {
                at_ns: reset,
                endless: true,
            }),
            (None, None) => Err(Reset {
                at_ns: start,
                endless: true,
            }),
            _ => Ok(()),
        }
    }

    /// A group finished after its longest thread executed `max_instructions`.
    pub fn group_done(&mut self, max_instructions: u64) {
        self.groups_ns += u128::from(max_instructions) * u128::from(NS_PER_INSTRUCTION);
        self.timer.advance_to(self.group_start());
    }
}

/// Finds threads that came back to an earlier state (Brent's cycle detection on the state at
/// each scheduling slice's end).
#[derive(Default)]
pub struct Cycles {
    saved: Vec<Option<Thread>>,
    power: Vec<u64>,
    lam: Vec<u64>,
}

impl Cycles {
    pub fn new(threads: usize) -> Self {
        Cycles {
            saved: vec![None; threads],
            power: vec![1; threads],
            lam: vec![0; threads],
        }
    }

    /// Records thread `i`'s state at the end of a full slice; true when it repeats a state
    /// seen at an earlier slice's end.
    pub fn repeats(&mut self, i: usize, t: &Thread) -> bool {
        let (Some(saved), Some(power), Some(lam)) = (
            self.saved.get_mut(i),
            self.power.get_mut(i),
            self.lam.get_mut(i),
        ) else {
            return false;
        };
        if saved.as_ref().is_some_and(|s| s.same_state(t)) {
            return true;
        }
        *lam += 1;
        if saved.is_none() || *lam == *power {
            *saved = Some(t.clone());
            *power = power.saturating_mul(2);
            *lam = 0;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cs::HangRule;

    #[test]
    fn a_group_longer_than_the_timeout_is_reset_and_groups_share_the_device() {
        let ms = 1_000_000;
        let t = GpuTimer::new(HangRule::Xe { job_timeout_ns: ms });
        // tgllp: 96 EUs × 7 threads; 16 threads a group: 42 groups at once.
        let mut p = Progress::new(&t, Platform::Tgllp, 16);
        assert_eq!(p.check(Some(ms / NS_PER_INSTRUCTION)), Ok(()));
        assert_eq!(
            p.check(Some(ms / NS_PER_INSTRUCTION + 1)),
            Err(Reset {
                at_ns: ms,
                endless: false
            })
        );
        p.group_done(42 * 1000);
        assert_eq!(t.now_ns(), 1000 * NS_PER_INSTRUCTION);
        assert!(p.check(None).unwrap_err().endless);
    }

    #[test]
    fn a_thread_spinning_in_place_repeats() {
        let mut c = Cycles::new(1);
        let t = Thread::new(0xff);
        assert!(!c.repeats(0, &t));
        assert!(c.repeats(0, &t));
        let mut other = Cycles::new(1);
        let mut u = t.clone();
        assert!(!other.repeats(0, &u));
        u.ip = 3;
        assert!(!other.repeats(0, &u));
    }
}
