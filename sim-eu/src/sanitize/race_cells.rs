//! racecheck's dense shadow of one byte range (a work-group's shared local memory, a chunk of a
//! buffer): a [`Cell`] per DWord granule, indexed by offset, split into one per byte only where
//! an access covers part of a granule.
//!
//! A byte's cell depends only on the accesses that covered it, in order. While every access to
//! a granule covered all of its bytes, their cells are equal, so one cell stands for all of
//! them; the first access covering only some of them gives each byte a copy of it (a split
//! granule stays split). The findings are those of a cell per byte: the same races, the same
//! first raced byte.

use super::race::{Access, Cell};
use super::race_sync::Seen;

/// Bytes per granule: a DWord, the unit of most accesses (a lane's word).
pub const GRANULE: usize = 4;

/// One granule: its bytes' common cell, or where their own cells are.
#[derive(Debug, Clone, Copy, Default)]
struct Granule {
    cell: Cell,
    /// 0: the bytes share `cell`; else one plus the index of their cells in `Cells::split`.
    split: u32,
}

/// The shadow of `len` bytes.
#[derive(Debug, Default, Clone)]
pub struct Cells {
    len: usize,
    granules: Vec<Granule>,
    split: Vec<[Cell; GRANULE]>,
}

impl Cells {
    /// `len` bytes, none accessed.
    pub fn new(len: usize) -> Cells {
        let mut c = Cells::default();
        c.reset(len);
        c
    }

    /// Forgets every access and covers `len` bytes.
    pub fn reset(&mut self, len: usize) {
        self.len = len;
        self.granules.clear();
        self.granules
            .resize(len.div_ceil(GRANULE), Granule::default());
        self.split.clear();
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Records `len` bytes at `off` (the part inside the range) by `a`, whose thread has seen
    /// `seen` (`race_sync`) and which stores `data` (`len` bytes; None: a read, or a value
    /// not known); the first byte that raced and the access it raced with.
    pub fn access(
        &mut self,
        off: usize,
        len: usize,
        a: Access,
        seen: Seen<'_>,
        data: Option<&[u8]>,
    ) -> Option<(usize, Access)> {
        // The bytes stored at `from..to` of the range, as a cell keeps them.
        let value = |from: usize, to: usize| -> Option<u32> {
            let d = data?.get(from - off..to - off)?;
            Some(d.iter().rev().fold(0u32, |v, &b| v << 8 | u32::from(b)))
        };
        let end = off.saturating_add(len).min(self.len);
        let mut first = None;
        let mut at = off;
        while at < end {
            let g = at / GRANULE;
            let g_start = g * GRANULE;
            let g_end = (g_start + GRANULE).min(self.len);
            let hi = end.min(g_end);
            let granule = &mut self.granules[g];
            if granule.split == 0 && at == g_start && hi == g_end {
                if let Some(r) = granule.cell.access(a, seen, value(at, hi)) {
                    first.get_or_insert((at, r));
                }
            } else {
                if granule.split == 0 {
                    self.split.push([granule.cell; GRANULE]);
                    granule.split = self.split.len() as u32;
                }
                let bytes = &mut self.split[granule.split as usize - 1];
                for b in at..hi {
                    if let Some(r) = bytes[b - g_start].access(a, seen, value(b, b + 1)) {
                        first.get_or_insert((b, r));
                    }
                }
            }
            at = hi;
        }
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acc(group: u32, thread: u16, write: bool, pc: u32) -> Access {
        Access {
            group,
            thread,
            epoch: 0,
            clock: 0,
            pc,
            atomic: false,
            write,
        }
    }

    /// A cell per byte, the shadow [`Cells`] stands for.
    fn per_byte(cells: &mut [Cell], off: usize, len: usize, a: Access) -> Option<(usize, Access)> {
        let end = (off + len).min(cells.len());
        let mut first = None;
        for (b, c) in cells.iter_mut().enumerate().take(end).skip(off) {
            if let Some(r) = c.access(a, Seen::NONE, None) {
                first.get_or_insert((b, r));
            }
        }
        first
    }

    #[test]
    fn a_granule_written_in_parts_by_two_groups_races_only_where_they_overlap() {
        let mut c = Cells::new(16);
        // Group 1 writes bytes 4..6, group 2 bytes 6..8 of the same granule: no byte shared.
        assert_eq!(
            c.access(4, 2, acc(1, 0, true, 0x10), Seen::NONE, None),
            None
        );
        assert_eq!(
            c.access(6, 2, acc(2, 0, true, 0x20), Seen::NONE, None),
            None
        );
        // A word read by group 3 meets group 1's write at byte 4 first.
        let (at, other) = c
            .access(4, 4, acc(3, 0, false, 0x30), Seen::NONE, None)
            .unwrap();
        assert_eq!((at, other.group, other.pc), (4, 1, 0x10));
        // Byte 7 alone: group 2's write.
        let (at, other) = c
            .access(7, 1, acc(4, 0, true, 0x40), Seen::NONE, None)
            .unwrap();
        assert_eq!((at, other.group), (7, 2));
    }

    #[test]
    fn whole_granules_and_a_partial_last_one_report_the_first_raced_byte() {
        // 10 bytes: the last granule holds 2.
        let mut c = Cells::new(10);
        assert_eq!(c.access(0, 10, acc(1, 0, true, 0), Seen::NONE, None), None);
        let (at, _) = c
            .access(3, 7, acc(2, 0, false, 0), Seen::NONE, None)
            .unwrap();
        assert_eq!(at, 3);
        let (at, _) = c
            .access(8, 8, acc(3, 0, true, 0), Seen::NONE, None)
            .unwrap();
        assert_eq!(at, 8);
        // Past the range: not recorded.
        assert_eq!(c.access(10, 4, acc(4, 0, true, 0), Seen::NONE, None), None);
    }

    #[test]
    fn any_access_pattern_gives_the_findings_of_a_cell_per_byte() {
        // A fixed pseudo-random sequence of accesses of every size, alignment and kind.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for len in [7usize, 8, 33] {
            let mut dense = Cells::new(len);
            let mut bytes = vec![Cell::default(); len];
            for i in 0..2000 {
                let a = Access {
                    group: 1 + next(3) as u32,
                    thread: next(2) as u16,
                    epoch: next(2) as u32,
                    clock: 0,
                    pc: i,
                    atomic: next(4) == 0,
                    write: next(2) == 0,
                };
                let off = next(len as u64 + 2) as usize;
                let n = 1 + next(9) as usize;
                assert_eq!(
                    dense.access(off, n, a, Seen::NONE, None),
                    per_byte(&mut bytes, off, n, a),
                    "access {i}: {n} bytes at {off} of {len}"
                );
            }
        }
    }
}
