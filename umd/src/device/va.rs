//! The GPU virtual-address heap: every BO is softpinned at an address handed out here.

/// First address handed out: keeps address 0 (and the first 2 MiB) unmapped, so a null or small
/// pointer dereference is a GPU fault, not a silent access.
pub const HEAP_START: u64 = 0x20_0000;
/// End of the heap: the 48-bit address space's canonical lower half.
pub const HEAP_END: u64 = 1 << 47;

/// First-fit allocator over free ranges, merging neighbours on free.
#[derive(Debug)]
pub struct VaHeap {
    /// Free ranges (start, len), sorted by start, never touching each other.
    free: Vec<(u64, u64)>,
    align: u64,
}

impl VaHeap {
    /// A heap whose addresses and sizes are multiples of `align` (a power of two: 4 KiB pages,
    /// 64 KiB on parts that need it).
    pub fn new(align: u64) -> Self {
        Self::with_end(align, HEAP_END)
    }

    /// As [`VaHeap::new`], ending at `end` (the device's VA range; at most `HEAP_END`).
    pub fn with_end(align: u64, end: u64) -> Self {
        let end = end.min(HEAP_END);
        VaHeap {
            free: vec![(HEAP_START, end.saturating_sub(HEAP_START))],
            align: align.max(4096).next_power_of_two(),
        }
    }

    /// The allocation granule.
    pub fn align(&self) -> u64 {
        self.align
    }

    /// `size` rounded up to the granule.
    pub fn round(&self, size: u64) -> Option<u64> {
        size.max(1).checked_next_multiple_of(self.align)
    }

    /// Reserves `size` bytes (rounded up to the granule); `None` when the space is exhausted.
    pub fn alloc(&mut self, size: u64) -> Option<(u64, u64)> {
        let size = self.round(size)?;
        let i = self.free.iter().position(|&(_, len)| len >= size)?;
        let (start, len) = self.free[i];
        if len == size {
            self.free.remove(i);
        } else {
            self.free[i] = (start + size, len - size);
        }
        Some((start, size))
    }

    /// As [`VaHeap::alloc`], the start a multiple of `align` (a power of two; at least the
    /// granule): the first free range that holds such a start, split around it.
    pub fn alloc_aligned(&mut self, size: u64, align: u64) -> Option<(u64, u64)> {
        let size = self.round(size)?;
        let align = align.max(self.align);
        let start = self.free.iter().find_map(|&(s, len)| {
            let at = s.checked_next_multiple_of(align)?;
            (at.checked_add(size)? <= s + len).then_some(at)
        })?;
        self.reserve(start, size).then_some((start, size))
    }

    /// Takes `[start, start + size)` out of the free ranges (both multiples of the granule), as
    /// for an address chosen elsewhere (host memory the GPU reaches at its own address);
    /// false when part of it is not free.
    pub fn reserve(&mut self, start: u64, size: u64) -> bool {
        let Some(end) = start.checked_add(size) else {
            return false;
        };
        if size == 0 || !start.is_multiple_of(self.align) || !size.is_multiple_of(self.align) {
            return false;
        }
        let Some(i) = self
            .free
            .iter()
            .position(|&(s, len)| s <= start && end <= s + len)
        else {
            return false;
        };
        let (s, len) = self.free.remove(i);
        let mut at = i;
        if s < start {
            self.free.insert(at, (s, start - s));
            at += 1;
        }
        if end < s + len {
            self.free.insert(at, (end, s + len - end));
        }
        true
    }

    /// Returns a range from [`VaHeap::alloc`].
    pub fn free(&mut self, start: u64, size: u64) {
        let i = self.free.partition_point(|&(s, _)| s < start);
        self.free.insert(i, (start, size));
        if i + 1 < self.free.len() && start + size == self.free[i + 1].0 {
            self.free[i].1 += self.free[i + 1].1;
            self.free.remove(i + 1);
        }
        if i > 0 && self.free[i - 1].0 + self.free[i - 1].1 == start {
            self.free[i - 1].1 += self.free[i].1;
            self.free.remove(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_aligned_disjoint_and_reused() {
        let mut h = VaHeap::new(64 << 10);
        let a = h.alloc(1).unwrap();
        let b = h.alloc(70 << 10).unwrap();
        assert_eq!(a, (HEAP_START, 64 << 10));
        assert_eq!(b, (HEAP_START + (64 << 10), 128 << 10));
        h.free(a.0, a.1);
        h.free(b.0, b.1);
        assert_eq!(h.free, vec![(HEAP_START, HEAP_END - HEAP_START)]);
        assert_eq!(h.alloc(4096).unwrap().0, HEAP_START);
        assert!(h.alloc(HEAP_END).is_none());
    }

    #[test]
    fn reserved_and_aligned_ranges_leave_the_rest_free() {
        let mut h = VaHeap::new(4096);
        let at = 0x7f00_0000_0000;
        assert!(h.reserve(at, 0x3000));
        assert!(!h.reserve(at + 0x1000, 0x1000), "already taken");
        assert!(!h.reserve(at + 0x10, 0x1000), "not on the granule");
        assert_eq!(h.alloc(4096).unwrap().0, HEAP_START);
        let (a, len) = h.alloc_aligned(1, 1 << 21).unwrap();
        assert_eq!((a, len), (2 * HEAP_START, 4096));
        let gap = h.alloc(4096).unwrap().0;
        assert_eq!(gap, HEAP_START + 4096, "the gap before stays free");
        h.free(a, len);
        h.free(at, 0x3000);
        h.free(HEAP_START, 4096);
        h.free(gap, 4096);
        assert_eq!(h.free, vec![(HEAP_START, HEAP_END - HEAP_START)]);
    }
}
