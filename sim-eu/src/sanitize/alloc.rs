//! The allocations a dispatch may reach, at byte granularity: what memcheck measures global
//! accesses against. A dispatch's own view: a sub-buffer its arguments name stands in for its
//! parent buffer (the driver's side decides that, per dispatch), and a freed allocation whose
//! range nothing took since is kept, marked freed, so that an access to it is named.

use std::fmt;
use std::sync::Arc;

/// One allocation: a buffer the driver registered with its exact size, or (where nothing was
/// registered) a bound GEM object's range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allocation {
    pub start: u64,
    pub size: u64,
    /// What it is ("buffer", "GEM object", ...), for the report.
    pub label: Arc<str>,
    /// Created read-only: a kernel write to it is a finding.
    pub read_only: bool,
    /// The size is the one the program asked for (not a GEM object's page-rounded size).
    pub exact: bool,
    /// Freed by the program: any access to it is a use after free.
    pub freed: bool,
}

impl Allocation {
    pub fn end(&self) -> u64 {
        self.start.saturating_add(self.size)
    }

    fn holds(&self, addr: u64, len: u64) -> bool {
        addr >= self.start && addr.checked_add(len).is_some_and(|e| e <= self.end())
    }

    /// Bytes from the allocation to `addr` (0 inside).
    fn distance(&self, addr: u64) -> u64 {
        if addr < self.start {
            self.start - addr
        } else {
            addr.saturating_sub(self.end().saturating_sub(1))
        }
    }
}

impl fmt::Display for Allocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} of {} bytes at {:#x}..{:#x}{}{}{}",
            self.label,
            self.size,
            self.start,
            self.end(),
            if self.read_only { ", read-only" } else { "" },
            if self.exact { "" } else { " (GEM object size)" },
            if self.freed { ", freed" } else { "" }
        )
    }
}

/// Where an access lies.
#[derive(Debug, PartialEq, Eq)]
pub enum Lookup<'a> {
    /// Wholly inside this allocation.
    Inside(&'a Allocation),
    /// Not wholly inside any: the allocation holding its first byte, else the nearest.
    Outside(Option<&'a Allocation>),
}

/// The allocations of one dispatch, sorted by start; exact ones do not overlap.
#[derive(Debug, Clone, Default)]
pub struct Allocations {
    list: Vec<Allocation>,
}

impl Allocations {
    /// `list` in any order; a GEM object's range that holds exact allocations (buffers
    /// registered inside it) is replaced by them.
    pub fn new(mut list: Vec<Allocation>) -> Allocations {
        let (exact, rough): (Vec<_>, Vec<_>) = list.drain(..).partition(|a| a.exact);
        let mut out = exact;
        out.sort_by_key(|a| a.start);
        // Exact ones overlapping each other (a buffer freed and its address reused while a
        // stale registration lingers): the later start wins the overlap.
        let mut kept: Vec<Allocation> = Vec::with_capacity(out.len());
        for a in out {
            if let Some(last) = kept.last_mut() {
                if last.end() > a.start {
                    last.size = a.start - last.start;
                }
            }
            kept.push(a);
        }
        kept.retain(|a| a.size > 0);
        // A GEM object holding a registered buffer holds nothing else of the program's: its
        // bytes past the buffer are padding, outside every allocation.
        let whole: Vec<Allocation> = rough
            .into_iter()
            .filter(|r| !kept.iter().any(|e| e.start < r.end() && e.end() > r.start))
            .collect();
        kept.extend(whole);
        kept.sort_by_key(|a| a.start);
        Allocations { list: kept }
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// By start address.
    pub fn iter(&self) -> impl Iterator<Item = &Allocation> {
        self.list.iter()
    }

    /// Where `len` bytes at `addr` lie.
    pub fn find(&self, addr: u64, len: u64) -> Lookup<'_> {
        let mut no_hint = usize::MAX;
        self.find_hinted(&mut no_hint, addr, len)
    }

    /// [`Allocations::find`] with a thread's hint (`last_at_or_before`).
    pub fn find_hinted(&self, hint: &mut usize, addr: u64, len: u64) -> Lookup<'_> {
        let i = last_at_or_before(&self.list, |a| a.start, hint, addr).map_or(0, |j| j + 1);
        if i > 0 {
            let a = &self.list[i - 1];
            if a.holds(addr, len.max(1)) {
                return Lookup::Inside(a);
            }
            if addr < a.end() {
                return Lookup::Outside(Some(a));
            }
        }
        let before = i.checked_sub(1).map(|j| &self.list[j]);
        let after = self.list.get(i);
        let nearest = match (before, after) {
            (Some(b), Some(a)) => Some(if b.distance(addr) <= a.distance(addr) {
                b
            } else {
                a
            }),
            (b, a) => b.or(a),
        };
        Lookup::Outside(nearest)
    }
}

/// The index of the last of `list` (sorted by `start`) to start at or before `addr`, as a
/// binary search finds it; the index in `hint` is tried first and set to the answer. One
/// thread's accesses mostly stay in one buffer, and the search was a twentieth of a
/// sanitized run of byte-wise kernels.
pub(super) fn last_at_or_before<T>(
    list: &[T],
    start: impl Fn(&T) -> u64,
    hint: &mut usize,
    addr: u64,
) -> Option<usize> {
    let is_it = |i: usize| {
        list.get(i).is_some_and(|x| start(x) <= addr)
            && list.get(i + 1).is_none_or(|n| start(n) > addr)
    };
    if !is_it(*hint) {
        *hint = list.partition_point(|x| start(x) <= addr).checked_sub(1)?;
    }
    Some(*hint)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(start: u64, size: u64, exact: bool) -> Allocation {
        Allocation {
            start,
            size,
            label: if exact { "buffer" } else { "GEM object" }.into(),
            read_only: false,
            exact,
            freed: false,
        }
    }

    #[test]
    fn exact_buffers_replace_their_gem_objects_and_bytes_past_them_are_outside() {
        let t = Allocations::new(vec![
            a(0x1000, 0x1000, false),
            a(0x1000, 100, true),
            a(0x4000, 0x2000, false),
        ]);
        assert_eq!(t.len(), 2);
        assert!(matches!(t.find(0x1000, 100), Lookup::Inside(x) if x.exact));
        // The last int of the buffer is inside, one past it straddles the end.
        assert!(matches!(t.find(0x1000 + 96, 4), Lookup::Inside(_)));
        assert!(matches!(t.find(0x1000 + 98, 4), Lookup::Outside(Some(x)) if x.exact));
        // Past the buffer lies padding of its GEM object, no allocation.
        assert!(matches!(t.find(0x1000 + 100, 4), Lookup::Outside(Some(x)) if x.exact));
        // Before everything: the nearest is the buffer.
        assert!(matches!(t.find(0xffc, 4), Lookup::Outside(Some(x)) if x.exact));
        assert!(matches!(t.find(0x5000, 4), Lookup::Inside(x) if !x.exact));
    }

    proptest::proptest! {
        /// Lookups carrying a hint from one to the next find what lookups without one find.
        #[test]
        fn a_hint_changes_no_lookup(
            list in proptest::collection::vec((0u64..64, 1u64..24, proptest::bool::ANY), 0..12),
            accesses in proptest::collection::vec((0u64..1600, 0u64..40), 1..64),
        ) {
            let t = Allocations::new(
                list.into_iter().map(|(at, size, exact)| a(at * 16, size * 4, exact)).collect(),
            );
            let mut hint = 0;
            for (addr, len) in accesses {
                proptest::prop_assert_eq!(t.find_hinted(&mut hint, addr, len), t.find(addr, len));
            }
        }
    }
}
