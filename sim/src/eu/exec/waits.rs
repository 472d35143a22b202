//! Channels waiting for sequential execution to reach the instruction they resume at: the
//! per-channel instruction pointers of the run loop, kept as one execution mask per waiting
//! instruction, so that a branch, a join or a loop's `while` costs a few mask operations
//! instead of a pass over every channel.

/// Waiting channels grouped by instruction: `ips[..len]` ascending and distinct, `masks[k]`
/// the non-empty channels waiting at `ips[k]`, disjoint from the other groups and from the
/// executing channels. Entries past `len` stay zero, so two equal wait states compare equal.
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

    /// The first instruction a channel waits at (`u32::MAX`: none waits).
    #[inline]
    pub(crate) fn first(&self) -> u32 {
        if self.len == 0 {
            u32::MAX
        } else {
            self.ips[0]
        }
    }

    /// Channels `mask` (none of them waiting already) wait at instruction `ip`.
    #[inline]
    pub(crate) fn add(&mut self, ip: u32, mask: u32) {
        if mask == 0 {
            return;
        }
        let n = usize::from(self.len);
        let k = self.ips[..n].partition_point(|&i| i < ip);
        if k < n && self.ips[k] == ip {
            self.masks[k] |= mask;
            return;
        }
        // Thirty-two non-empty disjoint groups hold every channel, so a channel that is not
        // waiting yet finds room; the check keeps a broken caller from indexing past the end.
        if n == self.ips.len() {
            return;
        }
        self.ips.copy_within(k..n, k + 1);
        self.masks.copy_within(k..n, k + 1);
        self.ips[k] = ip;
        self.masks[k] = mask;
        self.len += 1;
    }

    /// Removes the group waiting at the first instruction and returns it.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(u32, u32)> {
        let n = usize::from(self.len);
        if n == 0 {
            return None;
        }
        let first = (self.ips[0], self.masks[0]);
        self.ips.copy_within(1..n, 0);
        self.masks.copy_within(1..n, 0);
        self.ips[n - 1] = 0;
        self.masks[n - 1] = 0;
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
