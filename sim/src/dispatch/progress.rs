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

use std::collections::VecDeque;
use std::sync::Mutex;

use platform::Platform;

use crate::cs::GpuTimer;
use sim_eu::Thread;

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

/// One walker's simulated time, shared by the host threads that run its groups.
///
/// Groups may finish in any order on the host; the simulated schedule is still the walker
/// order: group `g` starts at the sum of the times of groups `0..g` divided by the groups the
/// device holds at once. The verdict is taken in that order as the finished prefix grows, so
/// whether (and where) the rule resets the engine does not depend on host scheduling. While a
/// group runs it is checked against a lower bound of its start (the finished prefix), which
/// only ever reports a reset that the ordered verdict also reaches.
pub struct Progress<'a> {
    timer: &'a GpuTimer,
    walker_start: u64,
    concurrent: u128,
    per_group: bool,
    done: Mutex<Done>,
}

/// Groups finished so far.
#[derive(Default)]
struct Done {
    /// Every group below this ordinal finished.
    frontier: u64,
    /// Sum of the times (ns) of the groups below `frontier`.
    prefix_ns: u128,
    /// Finished groups at or past `frontier`: entry `k` the time (ns) of group `frontier + k`
    /// if it finished (other host threads run groups ahead of the frontier, a few runs each).
    later: VecDeque<Option<u128>>,
    /// The first reset in walker order, once the prefix reaches it.
    reset: Option<Reset>,
}

impl<'a> Progress<'a> {
    /// For a walker on `p` whose GPU holds `slots` hardware threads (its enabled EUs').
    pub fn new(timer: &'a GpuTimer, p: Platform, slots: u64, threads_per_group: u32) -> Self {
        let slots = u128::from(slots);
        Progress {
            timer,
            walker_start: timer.now_ns(),
            concurrent: (slots / u128::from(threads_per_group.max(1))).max(1),
            per_group: thread_group_preemption(p),
            done: Mutex::new(Done::default()),
        }
    }

    fn done(&self) -> std::sync::MutexGuard<'_, Done> {
        self.done.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Simulated time after groups totalling `sum_ns` ran.
    fn after(&self, sum_ns: u128) -> u64 {
        // In 64 bits when both fit (always, in practice): a 128-bit division is a library
        // call, and this runs once per work-group.
        let done = match (u64::try_from(sum_ns), u64::try_from(self.concurrent)) {
            (Ok(sum), Ok(n)) => sum / n,
            _ => u64::try_from(sum_ns / self.concurrent).unwrap_or(u64::MAX),
        };
        self.walker_start.saturating_add(done)
    }

    /// The reset, if any, for a group starting at `start` whose threads executed at most
    /// `max_instructions` (`None`: proven to loop forever).
    fn verdict(&self, start: u64, max_instructions: Option<u64>) -> Result<(), Reset> {
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

    /// Checks a running group, whose threads executed at most `max_instructions`
    /// so far (`None`: proven to loop forever). `Err` once the kernel driver would have reset
    /// the engine; a proven endless loop that no rule ends is reset by the simulator's
    /// backstop.
    pub fn check(&self, max_instructions: Option<u64>) -> Result<(), Reset> {
        let start = {
            let d = self.done();
            // A reset earlier in walker order: sequentially this group never ran.
            if let Some(r) = d.reset {
                return Err(r);
            }
            self.after(d.prefix_ns)
        };
        self.verdict(start, max_instructions)
    }

    /// Group `ordinal` finished after its longest thread executed `max_instructions`.
    pub fn group_done(&self, ordinal: u64, max_instructions: u64) {
        self.groups_done(ordinal, &[max_instructions]);
    }

    /// Groups `first`, `first + 1`, … finished after their longest threads executed
    /// `max_instructions[0]`, `[1]`, …: one report (one lock) for a host thread's run of
    /// consecutive groups.
    pub fn groups_done(&self, first: u64, max_instructions: &[u64]) {
        if max_instructions.is_empty() {
            return;
        }
        let mut d = self.done();
        for (ordinal, &n) in (first..).zip(max_instructions) {
            let ns = u128::from(n) * u128::from(NS_PER_INSTRUCTION);
            // Each group is reported once, so never below the frontier.
            let Some(k) = ordinal
                .checked_sub(d.frontier)
                .and_then(|k| usize::try_from(k).ok())
            else {
                continue;
            };
            if k == 0 && d.later.is_empty() {
                // The next group in walker order (always so on one host thread).
                self.extend_prefix(&mut d, ns);
                continue;
            }
            if d.later.len() <= k {
                d.later.resize(k + 1, None);
            }
            d.later[k] = Some(ns);
            while let Some(Some(ns)) = d.later.front().copied() {
                d.later.pop_front();
                self.extend_prefix(&mut d, ns);
            }
        }
        self.timer.advance_to(self.after(d.prefix_ns));
    }

    /// The group at the frontier, `ns` long, joins the finished prefix.
    fn extend_prefix(&self, d: &mut Done, ns: u128) {
        let start = self.after(d.prefix_ns);
        if d.reset.is_none() {
            let n = u64::try_from(ns / u128::from(NS_PER_INSTRUCTION)).unwrap_or(u64::MAX);
            d.reset = self.verdict(start, Some(n)).err();
        }
        d.prefix_ns += ns;
        d.frontier += 1;
    }

    /// After every group finished: the first reset in walker order, if the rule reached one.
    pub fn finish(&self) -> Result<(), Reset> {
        self.done().reset.map_or(Ok(()), Err)
    }
}

/// Finds threads that came back to an earlier state (Brent's cycle detection on the state at
/// each scheduling slice's end).
#[derive(Default)]
pub struct Cycles {
    saved: Vec<Option<Thread>>,
    power: Vec<u64>,
    lam: Vec<u64>,
    /// A state was recorded since the last reset (most groups end within their first slice
    /// and record none: their reset has nothing to forget).
    recorded: bool,
}

impl Cycles {
    pub fn new(threads: usize) -> Self {
        Cycles {
            saved: vec![None; threads],
            power: vec![1; threads],
            lam: vec![0; threads],
            recorded: false,
        }
    }

    /// Forgets every thread's states and tracks `threads` threads, keeping the memory.
    pub fn reset(&mut self, threads: usize) {
        if !self.recorded && self.saved.len() == threads {
            return;
        }
        self.recorded = false;
        self.saved.clear();
        self.saved.resize(threads, None);
        self.power.clear();
        self.power.resize(threads, 1);
        self.lam.clear();
        self.lam.resize(threads, 0);
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
        self.recorded = true;
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
    use crate::device_info::DeviceInfo;

    fn slots(p: Platform) -> u64 {
        DeviceInfo::get(p).topology.thread_slots()
    }
    use crate::cs::HangRule;

    #[test]
    fn a_group_longer_than_the_timeout_is_reset_and_groups_share_the_device() {
        let ms = 1_000_000;
        let t = GpuTimer::new(HangRule::Xe { job_timeout_ns: ms });
        // tgllp: 96 EUs × 7 threads; 16 threads a group: 42 groups at once.
        let p = Progress::new(&t, Platform::Tgllp, slots(Platform::Tgllp), 16);
        assert_eq!(p.check(Some(ms / NS_PER_INSTRUCTION)), Ok(()));
        assert_eq!(
            p.check(Some(ms / NS_PER_INSTRUCTION + 1)),
            Err(Reset {
                at_ns: ms,
                endless: false
            })
        );
        p.group_done(0, 42 * 1000);
        assert_eq!(t.now_ns(), 1000 * NS_PER_INSTRUCTION);
        assert!(p.check(None).unwrap_err().endless);
        assert_eq!(p.finish(), Ok(()));
    }

    #[test]
    fn the_verdict_follows_walker_order_whatever_order_groups_finish_in() {
        let ms = 1_000_000;
        // skl (one stretch per walker): 24 EUs × 7 threads / 168 threads a group = 1 at once.
        let verdict = |order: &[u64]| {
            let t = GpuTimer::new(HangRule::Xe { job_timeout_ns: ms });
            let p = Progress::new(&t, Platform::Skl, slots(Platform::Skl), 168);
            for &g in order {
                // Group 0 is short, groups 1 and 2 take 0.4 ms each, group 3 0.3 ms.
                let n = [10, 200_000, 200_000, 150_000][g as usize];
                p.group_done(g, n);
            }
            (p.finish(), t.now_ns())
        };
        let ordered = verdict(&[0, 1, 2, 3]);
        assert_eq!(ordered.0.unwrap_err().at_ns, ms);
        assert_eq!(verdict(&[3, 1, 0, 2]), ordered);
        assert_eq!(verdict(&[2, 3, 1, 0]), ordered);
    }

    #[test]
    fn a_run_of_groups_reported_at_once_is_the_groups_reported_one_by_one() {
        let ms = 1_000_000;
        let lens = [10, 200_000, 200_000, 150_000, 7];
        let run = |report: &dyn Fn(&Progress)| {
            let t = GpuTimer::new(HangRule::Xe { job_timeout_ns: ms });
            let p = Progress::new(&t, Platform::Skl, slots(Platform::Skl), 168);
            report(&p);
            (p.finish(), t.now_ns())
        };
        let one_by_one = run(&|p| {
            for (g, &n) in lens.iter().enumerate() {
                p.group_done(g as u64, n);
            }
        });
        assert_eq!(one_by_one.0.unwrap_err().at_ns, ms);
        // Runs out of walker order, as two host threads report them.
        assert_eq!(
            run(&|p| {
                p.groups_done(3, &lens[3..]);
                p.groups_done(0, &lens[..3]);
            }),
            one_by_one
        );
        assert_eq!(run(&|p| p.groups_done(0, &lens)), one_by_one);
        assert_eq!(
            run(&|p| {
                p.groups_done(2, &lens[2..4]);
                p.groups_done(0, &[]);
                p.groups_done(4, &lens[4..]);
                p.groups_done(0, &lens[..2]);
            }),
            one_by_one
        );
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
        u.grf_mut()[0] ^= 1;
        assert!(!other.repeats(0, &u));
    }

    /// A reset forgets the states recorded before it, also when the next group has as many
    /// threads (the reset that finds nothing recorded keeps what it has).
    #[test]
    fn a_reset_forgets_earlier_groups_states() {
        let mut c = Cycles::new(2);
        let t = Thread::new(0xff);
        c.reset(2);
        assert!(!c.repeats(1, &t));
        c.reset(2);
        assert!(!c.repeats(1, &t), "a state of the group before");
        c.reset(2);
        c.reset(3);
        assert!(!c.repeats(2, &t));
        assert!(c.repeats(2, &t));
    }
}
