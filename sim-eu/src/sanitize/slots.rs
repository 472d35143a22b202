//! memcheck's per-thread memory: each hardware thread's own slot of the dispatch's scratch
//! space and of its private buffer. An access inside either allocation but outside the
//! thread's own slot reaches another thread's private bytes.
//!
//! The slot is found as the hardware and IGC find it: the scratch slice from the r0 the
//! thread was dispatched with (as the data port finds it, [`crate::dataport::scratch`]); the
//! private slot from the thread's hardware thread ID, which the dispatcher puts in r0.5\[9:0\]
//! (the FFTID) and, on Xe-HPG, in sr0.0 (IGC's private memory index: the same number).

use std::ops::Range;

use platform::Platform;

use crate::dataport::{scratch, Memory};

/// The dispatch's per-thread allocations, where the driver said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Slots {
    /// The scratch space: every thread's slice lies in it.
    pub scratch: Option<Range<u64>>,
    /// The private buffer and its bytes per hardware thread.
    pub private: Option<(Range<u64>, u64)>,
}

/// One thread's own slots.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Own {
    pub scratch: Option<Range<u64>>,
    pub private: Option<Range<u64>>,
    /// The hardware thread slot (FFTID).
    pub slot: u32,
}

/// An access outside the thread's own slot: what it reached and the slot it should stay in.
#[derive(Debug, PartialEq, Eq)]
pub struct Stray {
    /// "scratch" or "private memory".
    pub memory: &'static str,
    /// The thread's own slot (None: the thread has none there, e.g. its slice could not be
    /// found).
    pub own: Option<Range<u64>>,
}

impl Slots {
    pub fn is_empty(&self) -> bool {
        self.scratch.is_none() && self.private.is_none()
    }

    /// The slots of the thread dispatched with r0 DWords 3 and 5 `dispatched` on `p`.
    pub fn own(&self, p: Platform, dispatched: [u32; 2], mem: &mut dyn Memory) -> Own {
        let slot = dispatched[1] & !scratch::POINTER_MASK;
        let scratch = self.scratch.as_ref().and_then(|_| {
            scratch::slice(dispatched, p, mem)
                .ok()
                .map(|s| s.base..s.base.saturating_add(s.bytes))
        });
        let private = self.private.as_ref().map(|(r, each)| {
            let start = r
                .start
                .saturating_add(u64::from(slot).saturating_mul(*each));
            start..start.saturating_add(*each)
        });
        Own {
            scratch,
            private,
            slot,
        }
    }

    /// Whether `len` bytes at `addr` stray from the thread's `own` slots: they lie in the
    /// scratch space or the private buffer but not wholly in the thread's part of it.
    pub fn stray(&self, own: &Own, addr: u64, len: u64) -> Option<Stray> {
        let inside =
            |r: &Range<u64>| addr >= r.start && addr.checked_add(len).is_some_and(|e| e <= r.end);
        let (memory, mine) = if self.scratch.as_ref().is_some_and(|r| r.contains(&addr)) {
            ("scratch", &own.scratch)
        } else if self
            .private
            .as_ref()
            .is_some_and(|(r, _)| r.contains(&addr))
        {
            ("private memory", &own.private)
        } else {
            return None;
        };
        match mine {
            Some(r) if inside(r) => None,
            _ => Some(Stray {
                memory,
                own: mine.clone(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataport::NoMemory;

    #[test]
    fn private_slots_follow_the_fftid_and_others_slots_are_strays() {
        let slots = Slots {
            scratch: None,
            private: Some((0x10_0000..0x10_0000 + 64 * 0x400, 0x400)),
        };
        // FFTID 3 above a slice pointer of 0x8000.
        let own = slots.own(Platform::Tgllp, [0, 0x8000 | 3], &mut NoMemory);
        assert_eq!(own.slot, 3);
        assert_eq!(own.private, Some(0x10_0c00..0x10_1000));
        assert_eq!(slots.stray(&own, 0x10_0c00, 0x400), None);
        // The last int of the slot is fine; the next one is thread 4's.
        assert_eq!(slots.stray(&own, 0x10_0ffc, 4), None);
        let s = slots.stray(&own, 0x10_1000, 4).unwrap();
        assert_eq!(s.memory, "private memory");
        assert_eq!(s.own, Some(0x10_0c00..0x10_1000));
        // Straddling the slot's end, and another thread's slot before it.
        assert!(slots.stray(&own, 0x10_0ffe, 4).is_some());
        assert!(slots.stray(&own, 0x10_0000, 4).is_some());
        // Outside the private buffer: not this check's.
        assert_eq!(slots.stray(&own, 0x20_0000, 4), None);
    }
}
