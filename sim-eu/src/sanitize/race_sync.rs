//! racecheck's ordering through atomics within a work-group, as a lock orders: a thread's
//! atomic on a location acquires what earlier atomics there released, and releases what the
//! thread did before it. IGC's emulation of 64-bit local atomics on Gen9–Gen12LP is such a
//! lock (a `cmpxchg` on a lock word, plain loads and stores, an atomic store; with fences on
//! Gen11 and Gen12LP, none on Gen9, whose data port keeps a thread's messages in order), and
//! so are spin locks of OpenCL C. The fence is not required: what a program publishing data
//! through relaxed atomics alone (OpenCL 1.2's are relaxed) gets wrong is not reported.
//!
//! Vector clocks, one component per hardware thread (sub-group) of the group: an access
//! carries its thread's own component at the time, and a later access of another thread is
//! ordered after it when that thread has seen a greater value of it. Work-groups are never
//! ordered with each other this way either.

use std::collections::HashMap;

/// The clocks of one work-group's threads and of the locations their atomics touched.
#[derive(Debug, Default)]
pub struct Clocks {
    threads: usize,
    /// `threads` rows of `threads`: row t is what thread t has seen of every thread's
    /// releases (its own component: how many it made).
    seen: Vec<u32>,
    /// Per atomic location (shared local memory or not, address): the join of what was
    /// released there.
    released: HashMap<(bool, u64), Box<[u32]>>,
}

impl Clocks {
    /// Forgets everything, for a group of `threads` threads.
    pub fn reset(&mut self, threads: usize) {
        self.threads = threads;
        self.seen.clear();
        self.seen.resize(threads * threads, 0);
        self.released.clear();
    }

    /// What thread `t` has seen (empty for a thread out of range: nothing).
    pub fn seen(&self, t: usize) -> &[u32] {
        self.seen
            .get(t * self.threads..(t + 1) * self.threads)
            .unwrap_or(&[])
    }

    /// Thread `t`'s own component: the clock its accesses carry now.
    pub fn own(&self, t: usize) -> u32 {
        self.seen(t).get(t).copied().unwrap_or(0)
    }

    /// Thread `t` performs an atomic at `addr` (`slm`: of shared local memory).
    pub fn atomic(&mut self, t: usize, slm: bool, addr: u64) {
        let n = self.threads;
        if t >= n {
            return;
        }
        let row = t * n..(t + 1) * n;
        if let Some(rel) = self.released.get(&(slm, addr)) {
            for (mine, r) in self.seen[row.clone()].iter_mut().zip(rel.iter()) {
                *mine = (*mine).max(*r);
            }
        }
        self.seen[t * n + t] += 1;
        let rel = self
            .released
            .entry((slm, addr))
            .or_insert_with(|| vec![0; n].into_boxed_slice());
        for (r, mine) in rel.iter_mut().zip(&self.seen[row]) {
            *r = (*r).max(*mine);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_atomic_releases_to_the_next_atomic_on_the_same_location() {
        let mut c = Clocks::default();
        c.reset(3);
        // Thread 0 works under the lock (clock 0), releases it at 0x40.
        assert_eq!(c.own(0), 0);
        c.atomic(0, true, 0x40);
        assert_eq!(c.own(0), 1);
        // Thread 1 takes the lock: it has seen thread 0's work.
        c.atomic(1, true, 0x40);
        assert_eq!(c.seen(1)[0], 1);
        // Thread 2 uses another location, or the other space: nothing seen.
        c.atomic(2, true, 0x44);
        c.atomic(2, false, 0x40);
        assert_eq!(c.seen(2)[0], 0);
        // Transitively: thread 1 releases what it saw of thread 0 too.
        c.atomic(1, true, 0x50);
        c.atomic(2, true, 0x50);
        assert_eq!((c.seen(2)[0], c.seen(2)[1]), (1, 2));
        // Out of range: ignored.
        c.atomic(7, true, 0x40);
        assert!(c.seen(7).is_empty());
    }
}
