//! racecheck's ordering through atomics and fences.
//!
//! Within a work-group, as a lock orders: a thread's atomic on a location acquires what
//! earlier atomics there released, and releases what the thread did before it. IGC's
//! emulation of 64-bit local atomics on Gen9–Gen12LP is such a lock (a `cmpxchg` on a lock
//! word, plain loads and stores, an atomic store; with fences on Gen11 and Gen12LP, none on
//! Gen9, whose data port keeps a thread's messages in order), and so are spin locks of OpenCL
//! C. The fence is not required there: what a program publishing data through relaxed atomics
//! alone (OpenCL 1.2's are relaxed) gets wrong within a group is not reported.
//!
//! Across the work-groups of a walker, only as the OpenCL 2.0 (C11) memory model's fences
//! order: a fence of global memory beyond the work-group (`dataport::fence_is_global`)
//! releases what its thread did before it through every global atomic the thread performs
//! after it (IGC's `atomic_work_item_fence(..., release,
//! ...)` and release atomics are such a fence, then the atomic), and acquires what the global
//! atomics the thread performed since its previous fence read of earlier releases at their
//! location (an acquire fence, or an acquire atomic's fence after it). Relaxed atomics with no
//! fence order nothing across groups. The data port does not tell an atomic store from a
//! read-modify-write: both release and acquire. What a location released is the join of every
//! release there (a release sequence never broken).
//!
//! Vector clocks, one component per hardware thread (sub-group): an access carries its
//! thread's own component at the time, and a later access of another thread is ordered after
//! it when that thread has seen a greater value of it. Within a group they are dense rows;
//! across groups sparse ([`Vc`]), and the clocks of global atomic locations ([`Locations`])
//! are shared by the host threads the groups run on.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, MutexGuard};

/// A sparse vector clock: (group key, thread of the group) → the clock seen.
pub type Vc = BTreeMap<(u32, u16), u32>;

fn join(into: &mut Vc, from: &Vc) {
    for (k, &v) in from {
        let e = into.entry(*k).or_insert(0);
        *e = (*e).max(v);
    }
}

/// Shards of [`Locations`]: locks the host threads of a walker rarely wait on together.
const SHARDS: usize = 16;

/// The clocks released at global atomic locations, shared by the groups of one walker.
#[derive(Debug, Default)]
pub struct Locations {
    shards: [Mutex<HashMap<u64, Vc>>; SHARDS],
}

impl Locations {
    /// The shard holding `addr`'s clock, locked while the atomic there is performed.
    pub fn lock(&self, addr: u64) -> MutexGuard<'_, HashMap<u64, Vc>> {
        let i = ((addr >> 2) as usize) % SHARDS;
        self.shards[i].lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What a thread has seen: of its own group's threads (a dense row) and of others' (sparse).
#[derive(Debug, Clone, Copy)]
pub struct Seen<'a> {
    pub row: &'a [u32],
    pub foreign: Option<&'a Vc>,
}

impl Seen<'_> {
    /// Nothing seen.
    pub const NONE: Seen<'static> = Seen {
        row: &[],
        foreign: None,
    };

    /// The clock of `thread` of group `group` this thread has seen (`own`: its own group).
    pub fn of(&self, own: bool, group: u32, thread: u16) -> u32 {
        if own {
            self.row.get(usize::from(thread)).copied().unwrap_or(0)
        } else {
            self.foreign
                .and_then(|f| f.get(&(group, thread)))
                .copied()
                .unwrap_or(0)
        }
    }
}
/// The clocks of one work-group's threads and of the locations their atomics touched.
#[derive(Debug, Default)]
pub struct Clocks {
    threads: usize,
    /// The group's key (its ordinal in the walker plus one).
    group: u32,
    /// `threads` rows of `threads`: row t is what thread t has seen of every thread's
    /// releases (its own component: how many it made).
    seen: Vec<u32>,
    /// Per atomic location (shared local memory or not, address): the join of what was
    /// released there.
    released: HashMap<(bool, u64), Box<[u32]>>,
    /// Per thread: what it has seen of other groups' threads.
    foreign: Vec<Vc>,
    /// Per thread: what it had seen at its last fence (its later global atomics release it).
    fenced: Vec<Option<Vc>>,
    /// Per thread: what the locations of its global atomics since its last fence had
    /// released (its next fence acquires it).
    pending: Vec<Vc>,
}

impl Clocks {
    /// Forgets everything, for group `group` (its key) of `threads` threads.
    pub fn reset(&mut self, threads: usize, group: u32) {
        self.threads = threads;
        self.group = group;
        self.seen.clear();
        self.seen.resize(threads * threads, 0);
        self.released.clear();
        self.foreign.clear();
        self.foreign.resize_with(threads, Vc::new);
        self.fenced.clear();
        self.fenced.resize(threads, None);
        self.pending.clear();
        self.pending.resize_with(threads, Vc::new);
    }

    /// What thread `t` has seen (empty for a thread out of range: nothing).
    pub fn seen(&self, t: usize) -> Seen<'_> {
        Seen {
            row: self
                .seen
                .get(t * self.threads..(t + 1) * self.threads)
                .unwrap_or(&[]),
            foreign: self.foreign.get(t).filter(|f| !f.is_empty()),
        }
    }

    /// Thread `t`'s own component: the clock its accesses carry now.
    pub fn own(&self, t: usize) -> u32 {
        self.seen(t).row.get(t).copied().unwrap_or(0)
    }

    /// Thread `t` performs an atomic at `addr` (`slm`: of shared local memory), within its
    /// group.
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

    /// Thread `t` performs a global atomic at the location whose released clock is `at`
    /// (locked by the caller for the atomic's duration), across groups: the atomic reads what
    /// was released there (acquired at the thread's next fence) and releases what the thread
    /// had seen at its last fence.
    pub fn global_atomic(&mut self, t: usize, at: &mut Vc) {
        if t >= self.threads {
            return;
        }
        join(&mut self.pending[t], at);
        if let Some(f) = &self.fenced[t] {
            join(at, f);
        }
    }

    /// Thread `t` executes a fence: it acquires what its global atomics since its last fence
    /// read, then its accesses before the fence are released by its later global atomics.
    pub fn fence(&mut self, t: usize) {
        let n = self.threads;
        if t >= n {
            return;
        }
        let pending = std::mem::take(&mut self.pending[t]);
        for ((g, th), c) in pending {
            if g == self.group {
                if let Some(mine) = self
                    .seen
                    .get_mut(t * n + usize::from(th))
                    .filter(|_| usize::from(th) < n)
                {
                    *mine = (*mine).max(c);
                }
            } else {
                let e = self.foreign[t].entry((g, th)).or_insert(0);
                *e = (*e).max(c);
            }
        }
        self.seen[t * n + t] += 1;
        let mut now = self.foreign[t].clone();
        for (i, &c) in self.seen[t * n..(t + 1) * n].iter().enumerate() {
            if c > 0 {
                now.insert((self.group, i as u16), c);
            }
        }
        self.fenced[t] = Some(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_atomic_releases_to_the_next_atomic_on_the_same_location() {
        let mut c = Clocks::default();
        c.reset(3, 1);
        // Thread 0 works under the lock (clock 0), releases it at 0x40.
        assert_eq!(c.own(0), 0);
        c.atomic(0, true, 0x40);
        assert_eq!(c.own(0), 1);
        // Thread 1 takes the lock: it has seen thread 0's work.
        c.atomic(1, true, 0x40);
        assert_eq!(c.seen(1).row[0], 1);
        // Thread 2 uses another location, or the other space: nothing seen.
        c.atomic(2, true, 0x44);
        c.atomic(2, false, 0x40);
        assert_eq!(c.seen(2).row[0], 0);
        // Transitively: thread 1 releases what it saw of thread 0 too.
        c.atomic(1, true, 0x50);
        c.atomic(2, true, 0x50);
        assert_eq!((c.seen(2).row[0], c.seen(2).row[1]), (1, 2));
        // Out of range: ignored.
        c.atomic(7, true, 0x40);
        assert!(c.seen(7).row.is_empty());
    }

    #[test]
    fn fences_and_global_atomics_order_threads_of_different_groups() {
        let at = Locations::default();
        // Group 1's thread 0 works under a lock at 0x100 (clock 0), fences, releases it.
        let mut a = Clocks::default();
        a.reset(2, 1);
        a.fence(0);
        assert_eq!(a.own(0), 1);
        a.global_atomic(0, at.lock(0x100).entry(0x100).or_default());
        // Group 2's thread 1 takes the lock, but sees nothing before its fence.
        let mut b = Clocks::default();
        b.reset(2, 2);
        b.global_atomic(1, at.lock(0x100).entry(0x100).or_default());
        assert_eq!(b.seen(1).of(false, 1, 0), 0);
        b.fence(1);
        assert_eq!(b.seen(1).of(false, 1, 0), 1);
        // Its release carries group 1's clock on: group 1's thread 1 acquires both, its own
        // group's into its row.
        b.global_atomic(1, at.lock(0x100).entry(0x100).or_default());
        a.global_atomic(1, at.lock(0x100).entry(0x100).or_default());
        a.fence(1);
        assert_eq!(a.seen(1).row[0], 1);
        assert_eq!(a.seen(1).of(false, 2, 1), 1);
        // An atomic without a fence before it releases nothing; another location, nothing.
        let mut c = Clocks::default();
        c.reset(1, 3);
        c.global_atomic(0, at.lock(0x200).entry(0x200).or_default());
        b.global_atomic(0, at.lock(0x200).entry(0x200).or_default());
        b.global_atomic(0, at.lock(0x300).entry(0x300).or_default());
        b.fence(0);
        assert!(b.seen(0).foreign.is_none());
    }
}
