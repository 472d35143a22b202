//! racecheck's shadow of the buffers a walker may reach: per registered buffer, its bytes in
//! chunks of [`CHUNK`] bytes, each a dense [`Cells`] behind its own lock, made at the first
//! access to it. The groups of one walker run on several host threads; they wait for each
//! other only when they touch the same chunk at the same time. The clocks released at atomic
//! locations across groups (`race_sync`) live here too.

use std::sync::{Mutex, OnceLock};

use super::alloc::{last_at_or_before, Allocations};
use super::race::Access;
use super::race_cells::Cells;
use super::race_sync::{Locations, Seen};

/// Bytes of a buffer per chunk (a lock and a shadow made on first touch).
pub const CHUNK: u64 = 16 * 1024;

/// One registered buffer's shadow.
#[derive(Debug)]
struct Buffer {
    start: u64,
    len: u64,
    /// Made at the buffer's first access (most buffers a walker could reach it never does).
    chunks: OnceLock<Box<[Mutex<Cells>]>>,
}

impl Buffer {
    fn chunks(&self) -> &[Mutex<Cells>] {
        self.chunks.get_or_init(|| {
            (0..self.len.div_ceil(CHUNK))
                .map(|_| Mutex::new(Cells::default()))
                .collect()
        })
    }
}

/// The global-memory shadow of one walker: bytes of the buffers the driver registered.
#[derive(Debug, Default)]
pub struct GlobalCells {
    /// By start address, not overlapping.
    buffers: Vec<Buffer>,
    /// The clocks released at the global atomic locations of the walker (`race_sync`).
    pub locations: Locations,
}

impl GlobalCells {
    /// The shadow of the exact allocations (the buffers the driver registered) of
    /// `allocations`, nothing accessed yet.
    pub fn new(allocations: &Allocations) -> GlobalCells {
        GlobalCells {
            buffers: allocations
                .iter()
                .filter(|a| a.exact && !a.freed)
                .map(|a| Buffer {
                    start: a.start,
                    len: a.size,
                    chunks: OnceLock::new(),
                })
                .collect(),
            locations: Locations::default(),
        }
    }

    /// Records `len` bytes at `addr` by `a` (the part inside a registered buffer: racecheck
    /// asks for accesses wholly inside one); the first byte that raced and the access it raced
    /// with. `hint`: the caller's (`last_at_or_before`).
    pub fn access(
        &self,
        hint: &mut usize,
        addr: u64,
        len: u64,
        a: Access,
        seen: Seen<'_>,
        data: Option<&[u8]>,
    ) -> Option<(u64, Access)> {
        let first_off = addr;
        let b = &self.buffers[last_at_or_before(&self.buffers, |b| b.start, hint, addr)?];
        let mut off = addr - b.start;
        let end = off.saturating_add(len).min(b.len);
        if off >= end {
            return None;
        }
        let chunks = b.chunks();
        let mut first = None;
        while off < end {
            let c = off / CHUNK;
            let c_start = c * CHUNK;
            let hi = end.min(c_start + CHUNK);
            let mut cells = chunks[c as usize].lock().unwrap_or_else(|e| e.into_inner());
            if cells.is_empty() {
                *cells = Cells::new((b.len - c_start).min(CHUNK) as usize);
            }
            let part = data.and_then(|d| {
                let from = (b.start + off - first_off) as usize;
                d.get(from..from + (hi - off) as usize)
            });
            let r = cells.access((off - c_start) as usize, (hi - off) as usize, a, seen, part);
            drop(cells);
            if let Some((at, other)) = r {
                first.get_or_insert((b.start + c_start + at as u64, other));
            }
            off = hi;
        }
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sanitize::Allocation;

    fn acc(group: u32, write: bool, pc: u32) -> Access {
        Access {
            group,
            thread: 0,
            epoch: 0,
            clock: 0,
            pc,
            atomic: false,
            write,
        }
    }

    fn buffers() -> GlobalCells {
        let a = |start, size, exact| Allocation {
            start,
            size,
            label: "buffer".into(),
            read_only: false,
            exact,
            freed: false,
        };
        GlobalCells::new(&Allocations::new(vec![
            a(0x10_0000, 3 * CHUNK + 10, true),
            a(0x20_0000, 0x1000, false),
        ]))
    }

    #[test]
    fn races_are_found_across_chunk_boundaries_at_their_first_byte() {
        let g = buffers();
        let base = 0x10_0000;
        // Group 1 writes 8 bytes straddling the first chunk boundary.
        assert_eq!(
            g.access(
                &mut 0,
                base + CHUNK - 4,
                8,
                acc(1, true, 0x10),
                Seen::NONE,
                None
            ),
            None
        );
        // Group 2 reads the second half only: the race is at the boundary's first byte.
        let (at, other) = g
            .access(
                &mut 0,
                base + CHUNK,
                4,
                acc(2, false, 0x20),
                Seen::NONE,
                None,
            )
            .unwrap();
        assert_eq!((at, other.group, other.pc), (base + CHUNK, 1, 0x10));
        // Group 3 writes a range over three chunks that begins before group 1's bytes.
        let (at, other) = g
            .access(
                &mut 0,
                base + CHUNK - 100,
                2 * CHUNK,
                acc(3, true, 0x30),
                Seen::NONE,
                None,
            )
            .unwrap();
        assert_eq!((at, other.group), (base + CHUNK - 4, 1));
        // The buffer's last, partial chunk, and the bytes past the buffer (not tracked).
        assert_eq!(
            g.access(
                &mut 0,
                base + 3 * CHUNK,
                10,
                acc(4, true, 0x40),
                Seen::NONE,
                None
            ),
            None
        );
        let (at, _) = g
            .access(
                &mut 0,
                base + 3 * CHUNK + 9,
                8,
                acc(5, true, 0),
                Seen::NONE,
                None,
            )
            .unwrap();
        assert_eq!(at, base + 3 * CHUNK + 9);
    }

    #[test]
    fn only_registered_buffers_are_tracked() {
        let g = buffers();
        // A GEM object's bytes (not an exact allocation) and addresses outside everything,
        // written by two groups each.
        for (addr, group) in [(0x20_0000, 1), (0x20_0000, 2), (0x100, 2), (0x100, 3)] {
            let a = acc(group, true, 0);
            assert_eq!(g.access(&mut 0, addr, 4, a, Seen::NONE, None), None);
        }
        // A write then another group's write to the same bytes of the buffer: a race.
        assert_eq!(
            g.access(&mut 0, 0x10_0000, 4, acc(1, true, 0), Seen::NONE, None),
            None
        );
        assert!(g
            .access(&mut 0, 0x10_0002, 1, acc(2, true, 0), Seen::NONE, None)
            .is_some());
    }

    proptest::proptest! {
        /// Accesses carrying a hint from one to the next find the races accesses without one
        /// find, at the same bytes.
        #[test]
        fn a_hint_changes_no_finding(
            accesses in proptest::collection::vec(
                (0u64..5, 0u64..3 * CHUNK + 64, 1u64..64, 1u32..4, proptest::bool::ANY),
                1..48,
            ),
        ) {
            let (hinted, plain) = (buffers_at_many(), buffers_at_many());
            let mut hint = 0;
            for (buffer, off, len, group, write) in accesses {
                let mut none = usize::MAX;
                let addr = 0x10_0000 * (buffer + 1) + off;
                let a = acc(group, write, 0);
                proptest::prop_assert_eq!(
                    hinted.access(&mut hint, addr, len, a, Seen::NONE, None),
                    plain.access(&mut none, addr, len, a, Seen::NONE, None)
                );
            }
        }
    }

    /// Four buffers 1 MiB apart, of one to four chunks less 3 bytes (the tests' fifth MiB
    /// holds none).
    fn buffers_at_many() -> GlobalCells {
        let a = |i: u64| Allocation {
            start: 0x10_0000 * (i + 1),
            size: (i + 1) * CHUNK - 3,
            label: "buffer".into(),
            read_only: false,
            exact: true,
            freed: false,
        };
        GlobalCells::new(&Allocations::new((0..4).map(a).collect()))
    }
}
