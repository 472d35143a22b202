//! racecheck's shadow: per byte, the last write and up to two reads since it, and whether two
//! accesses are ordered.
//!
//! What orders two accesses of one walker (everything else races when one writes and they are
//! not both atomic):
//! - the same hardware thread (one sub-group): its instructions execute in program order, and
//!   the lanes of one instruction together;
//! - the same work-group, separated by a barrier the gateway released (the epoch counts them);
//! - the same work-group, through atomics on one location, as a lock orders (`race_sync`'s
//!   vector clocks);
//! - any two threads of the walker, through a fence and a global atomic releasing and a global
//!   atomic and a fence acquiring at the same location (`race_sync`).
//!
//! Work-groups are otherwise never ordered. A fence alone orders nothing between threads.
//!
//! Where the cells live: `race_cells` (a dense range), `race_global` (the
//! registered buffers of a walker).

use super::race_sync::Seen;

/// Who made an access, and how.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Access {
    /// The work-group's ordinal in the walker plus one; 0: no access.
    pub group: u32,
    /// The hardware thread (sub-group) of the group.
    pub thread: u16,
    /// Barriers the group passed before the access.
    pub epoch: u32,
    /// The thread's own clock (`race_sync`): releases it made before the access.
    pub clock: u32,
    /// The instruction's offset in the kernel.
    pub pc: u32,
    pub atomic: bool,
    pub write: bool,
}

impl Access {
    fn is_some(&self) -> bool {
        self.group != 0
    }

    /// Whether `self` happens before `later` (or they cannot race: both atomic), `seen`
    /// being what `later`'s thread has seen of each thread's releases.
    fn ordered_before(&self, later: &Access, seen: Seen<'_>) -> bool {
        let same = self.group == later.group;
        (same && (self.thread == later.thread || self.epoch < later.epoch))
            || seen.of(same, self.group, self.thread) > self.clock
            || (self.atomic && later.atomic)
    }
}

/// One byte's accesses (or a DWord's, while every access covered all of it).
#[derive(Debug, Clone, Copy, Default)]
pub struct Cell {
    write: Access,
    reads: [Access; 2],
    /// The bytes the last write stored (little-endian; None: not known, as an atomic's).
    value: Option<u32>,
}

impl Cell {
    /// Records `a`, made by a thread that has seen `seen` of each thread's releases and, for
    /// a plain write, storing `value`; the earlier access it races with, if any. Two writes
    /// of the same value do not race (Oclgrind's default, "uniform writes").
    pub fn access(&mut self, a: Access, seen: Seen<'_>, value: Option<u32>) -> Option<Access> {
        let mut race = None;
        let uniform = a.write && value.is_some() && value == self.value;
        if self.write.is_some() && !self.write.ordered_before(&a, seen) && !uniform {
            race = Some(self.write);
        }
        if a.write {
            if race.is_none() {
                race = self
                    .reads
                    .iter()
                    .find(|r| r.is_some() && !r.ordered_before(&a, seen))
                    .copied();
            }
            self.write = a;
            self.value = value;
            self.reads = [Access::default(); 2];
        } else {
            // Keep reads that may race with a later write: replace a free one or one this read
            // follows (whatever races with that one races with this one too, or is ordered
            // after both).
            match self
                .reads
                .iter()
                .position(|r| !r.is_some() || r.ordered_before(&a, seen))
            {
                Some(i) => self.reads[i] = a,
                None => self.reads[1] = a,
            }
        }
        race
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acc(group: u32, thread: u16, epoch: u32, write: bool, atomic: bool) -> Access {
        Access {
            group,
            thread,
            epoch,
            clock: 0,
            pc: 0,
            atomic,
            write,
        }
    }

    #[test]
    fn only_unordered_conflicting_accesses_race() {
        let mut c = Cell::default();
        // One thread writes then reads: program order.
        assert!(c
            .access(acc(1, 0, 0, true, false), Seen::NONE, None)
            .is_none());
        assert!(c
            .access(acc(1, 0, 0, false, false), Seen::NONE, None)
            .is_none());
        // Another thread of the group reads in the same epoch: races with the write.
        assert!(c
            .access(acc(1, 1, 0, false, false), Seen::NONE, None)
            .is_some());
        // After a barrier: ordered.
        let mut c = Cell::default();
        c.access(acc(1, 0, 0, true, false), Seen::NONE, None);
        assert!(c
            .access(acc(1, 1, 1, false, false), Seen::NONE, None)
            .is_none());
        // A write after reads of two threads in that epoch races with the other's read.
        assert!(c
            .access(acc(1, 2, 1, false, false), Seen::NONE, None)
            .is_none());
        assert!(c
            .access(acc(1, 1, 1, true, false), Seen::NONE, None)
            .is_some());
        // Atomics never race with atomics, do race with plain accesses.
        let mut c = Cell::default();
        assert!(c
            .access(acc(1, 0, 0, true, true), Seen::NONE, None)
            .is_none());
        assert!(c
            .access(acc(2, 3, 0, true, true), Seen::NONE, None)
            .is_none());
        assert!(c
            .access(acc(3, 0, 0, false, false), Seen::NONE, None)
            .is_some());
        // Different groups are not ordered by their epochs.
        let mut c = Cell::default();
        c.access(acc(1, 0, 0, true, false), Seen::NONE, None);
        assert!(c
            .access(acc(2, 0, 5, true, false), Seen::NONE, None)
            .is_some());
    }

    #[test]
    fn writes_of_the_same_value_do_not_race_with_each_other() {
        let mut c = Cell::default();
        assert!(c
            .access(acc(1, 0, 0, true, false), Seen::NONE, Some(7))
            .is_none());
        // Another sub-group stores the same value: uniform, no race.
        assert!(c
            .access(acc(1, 1, 0, true, false), Seen::NONE, Some(7))
            .is_none());
        // A different value races.
        assert!(c
            .access(acc(1, 2, 0, true, false), Seen::NONE, Some(8))
            .is_some());
        // A read still races with the unordered write.
        assert!(c
            .access(acc(1, 3, 0, false, false), Seen::NONE, None)
            .is_some());
        // A value not known (an atomic's) is never uniform.
        let mut c = Cell::default();
        c.access(acc(1, 0, 0, true, false), Seen::NONE, None);
        assert!(c
            .access(acc(2, 0, 0, true, false), Seen::NONE, None)
            .is_some());
    }

    #[test]
    fn threads_of_different_groups_are_ordered_by_what_they_saw() {
        let mut c = Cell::default();
        let mut w = acc(1, 2, 0, true, false);
        w.clock = 3;
        c.access(w, Seen::NONE, None);
        let mut saw = crate::sanitize::race_sync::Vc::new();
        saw.insert((1, 2), 3);
        let seen = Seen {
            row: &[],
            foreign: Some(&saw),
        };
        // Seen up to the write's clock only: not after it.
        assert!(c.access(acc(2, 0, 0, false, false), seen, None).is_some());
        saw.insert((1, 2), 4);
        let seen = Seen {
            row: &[],
            foreign: Some(&saw),
        };
        assert!(c.access(acc(2, 0, 0, false, false), seen, None).is_none());
    }
}
