//! Channels waiting for sequential execution to reach the instruction they resume at: the
//! per-channel instruction pointers of the run loop, kept as one execution mask per waiting
//! instruction, so that a branch, a join or a loop's `while` costs a few mask operations
//! instead of a pass over every channel.

/// Waiting channels grouped by instruction: `ips[..len]` descending and distinct, `masks[k]`
/// the non-empty channels waiting at `ips[k]`, disjoint from the other groups and from the
/// executing channels. Entries past `len` stay zero, so two equal wait states compare equal.
/// The first instruction is the last entry: a loop's `while` (its target below every other)
/// and the resumption after it add and remove at the end, moving nothing.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Waits {
    len: u8,
    ips: [u32; 32],
    masks: [u32; 32],
}

impl Waits {
    pub(crate) const EMPTY: Waits = Waits {
        len: 0,
        ips: [0; 32],
        masks: [0; 32],
    };

    /// Makes these [`Waits::EMPTY`], writing nothing when they are (entries past `len` are
    /// zero already): a reused thread's restart, where the whole struct's clearing showed.
    #[inline]
    pub(crate) fn clear(&mut self) {
        if self.len != 0 {
            *self = Waits::EMPTY;
        }
    }

    /// The first instruction a channel waits at (`u32::MAX`: none waits).
    #[inline]
    pub(crate) fn first(&self) -> u32 {
        let last = usize::from(self.len).checked_sub(1);
        last.and_then(|k| self.ips.get(k).copied())
            .unwrap_or(u32::MAX)
    }

    /// Channels `mask` (none of them waiting already) wait at instruction `ip`.
    #[inline]
    pub(crate) fn add(&mut self, ip: u32, mask: u32) {
        if mask == 0 {
            return;
        }
        let n = usize::from(self.len);
        let k = self.ips[..n].partition_point(|&i| i > ip);
        if k < n && self.ips[k] == ip {
            self.masks[k] |= mask;
            return;
        }
        // Thirty-two non-empty disjoint groups hold every channel, so a channel that is not
        // waiting yet finds room; the check keeps a broken caller from indexing past the end.
        if n == self.ips.len() {
            return;
        }
        if k < n {
            self.ips.copy_within(k..n, k + 1);
            self.masks.copy_within(k..n, k + 1);
        }
        self.ips[k] = ip;
        self.masks[k] = mask;
        self.len += 1;
    }

    /// Removes the group waiting at the first instruction and returns it.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(u32, u32)> {
        let last = usize::from(self.len).checked_sub(1)?;
        let first = (
            std::mem::take(self.ips.get_mut(last)?),
            std::mem::take(self.masks.get_mut(last)?),
        );
        self.len -= 1;
        Some(first)
    }
}

#[cfg(test)]
mod tests {
    use super::Waits;

    #[test]
    fn groups_stay_sorted_merged_and_comparable() {
        let mut w = Waits::EMPTY;
        assert_eq!(w.first(), u32::MAX);
        w.add(9, 0b0011);
        w.add(4, 0b0100);
        w.add(9, 0b1000);
        w.add(6, 0);
        assert_eq!(w.first(), 4);
        assert_eq!(w.pop(), Some((4, 0b0100)));
        assert_eq!(w.pop(), Some((9, 0b1011)));
        assert_eq!(w.pop(), None);
        // The same channels added in another order give the same state.
        let mut a = Waits::EMPTY;
        a.add(3, 1);
        a.add(5, 2);
        let mut b = Waits::EMPTY;
        b.add(5, 2);
        b.add(3, 1);
        assert!(a == b);
        b.pop();
        assert!(a != b);
        // Emptied by pops or cleared, both are the empty state (clearing writes nothing when
        // empty, so what pops leave must be it).
        b.pop();
        assert!(b == Waits::EMPTY);
        a.clear();
        assert!(a == Waits::EMPTY);
        b.clear();
        assert!(b == Waits::EMPTY);
    }

    proptest::proptest! {
        /// Against a map from instruction to channels: `first` is its smallest key, `pop`
        /// removes that entry, `add` merges channels into a key's entry.
        #[test]
        fn behaves_as_a_sorted_map(ops in proptest::collection::vec((0u32..12, 0u32..40), 0..80)) {
            let mut w = Waits::EMPTY;
            let mut model = std::collections::BTreeMap::<u32, u32>::new();
            let mut free = u32::MAX;
            for (ip, pick) in ops {
                if pick < 8 {
                    proptest::prop_assert_eq!(w.pop(), model.pop_first());
                    free = !model.values().fold(0, |a, m| a | m);
                } else {
                    // One channel not waiting yet, as the run loop's callers guarantee.
                    let lane = (pick - 8) % 32;
                    let mask = (1u32 << lane) & free;
                    w.add(ip, mask);
                    if mask != 0 {
                        *model.entry(ip).or_default() |= mask;
                        free &= !mask;
                    }
                }
                proptest::prop_assert_eq!(w.first(), model.keys().next().copied().unwrap_or(u32::MAX));
            }
            // The same content built in ascending order compares equal (zeroed tails).
            let mut again = Waits::EMPTY;
            for (&ip, &mask) in &model {
                again.add(ip, mask);
            }
            proptest::prop_assert!(again == w);
        }
    }

    #[test]
    fn thirty_two_groups_fit() {
        let mut w = Waits::EMPTY;
        for c in 0..32 {
            w.add(100 - c, 1 << c);
        }
        for c in (0..32).rev() {
            assert_eq!(w.pop(), Some((100 - c, 1 << c)));
        }
    }
}
