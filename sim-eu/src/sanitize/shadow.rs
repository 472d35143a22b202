//! Byte-granular shadow state of initcheck: which bytes of a range were written.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

/// One bit per byte of a range: set once the byte was written. Atomic, because the groups of
/// one walker run on several host threads and a buffer's state outlives the walker.
#[derive(Debug)]
pub struct Defined {
    bits: Box<[AtomicU64]>,
    len: u64,
}

impl Defined {
    /// `len` bytes, all written (`defined`) or none.
    pub fn new(len: u64, defined: bool) -> Defined {
        let fill = if defined { u64::MAX } else { 0 };
        Defined {
            bits: (0..len.div_ceil(64))
                .map(|_| AtomicU64::new(fill))
                .collect(),
            len,
        }
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Marks `len` bytes from `off` written (the part inside the range).
    pub fn mark(&self, off: u64, len: u64) {
        let end = off.saturating_add(len).min(self.len);
        let mut i = off;
        while i < end {
            let word = i / 64;
            let lo = i % 64;
            let n = (end - i).min(64 - lo);
            let m = if n == 64 {
                u64::MAX
            } else {
                ((1u64 << n) - 1) << lo
            };
            if let Some(w) = self.bits.get(word as usize) {
                w.fetch_or(m, Ordering::Relaxed);
            }
            i += n;
        }
    }

    /// Marks `len` bytes from `off` unwritten again (a store of undefined data).
    pub fn unmark(&self, off: u64, len: u64) {
        let end = off.saturating_add(len).min(self.len);
        for i in off..end {
            if let Some(w) = self.bits.get((i / 64) as usize) {
                w.fetch_and(!(1u64 << (i % 64)), Ordering::Relaxed);
            }
        }
    }

    /// Sets `out[i]` to 1 where byte `off + i` (inside the range) was never written, else 0.
    pub fn undefined_mask(&self, off: u64, out: &mut [u8]) {
        out.fill(0);
        let Some(first) = self.first_undefined(off, out.len() as u64) else {
            return;
        };
        for (i, m) in out.iter_mut().enumerate().skip((first - off) as usize) {
            let b = off + i as u64;
            *m = u8::from(
                b < self.len
                    && self
                        .bits
                        .get((b / 64) as usize)
                        .is_some_and(|w| w.load(Ordering::Relaxed) >> (b % 64) & 1 == 0),
            );
        }
    }

    /// Marks every byte unwritten.
    pub fn clear(&self) {
        for w in self.bits.iter() {
            w.store(0, Ordering::Relaxed);
        }
    }

    /// The first byte of `len` bytes from `off` (inside the range) never written.
    pub fn first_undefined(&self, off: u64, len: u64) -> Option<u64> {
        let end = off.saturating_add(len).min(self.len);
        (off..end).find(|&i| {
            self.bits
                .get((i / 64) as usize)
                .is_some_and(|w| w.load(Ordering::Relaxed) >> (i % 64) & 1 == 0)
        })
    }
}

/// Written bytes of a sparse address range (one thread's private memory): 64-byte chunks.
#[derive(Debug, Default, Clone)]
pub struct Sparse {
    chunks: HashMap<u64, u64>,
}

impl Sparse {
    pub fn clear(&mut self) {
        self.chunks.clear();
    }

    pub fn mark(&mut self, addr: u64, len: u64) {
        for a in addr..addr.saturating_add(len) {
            *self.chunks.entry(a / 64).or_default() |= 1 << (a % 64);
        }
    }

    /// Marks `len` bytes from `addr` unwritten again (a store of undefined data).
    pub fn unmark(&mut self, addr: u64, len: u64) {
        for a in addr..addr.saturating_add(len) {
            if let Some(w) = self.chunks.get_mut(&(a / 64)) {
                *w &= !(1 << (a % 64));
            }
        }
    }

    /// Sets `out[i]` to 1 where byte `addr + i` was never written, else 0.
    pub fn undefined_mask(&self, addr: u64, out: &mut [u8]) {
        for (i, m) in out.iter_mut().enumerate() {
            let a = addr.wrapping_add(i as u64);
            *m = u8::from(
                self.chunks
                    .get(&(a / 64))
                    .is_none_or(|w| w >> (a % 64) & 1 == 0),
            );
        }
    }

    pub fn first_undefined(&self, addr: u64, len: u64) -> Option<u64> {
        (addr..addr.saturating_add(len)).find(|a| {
            self.chunks
                .get(&(a / 64))
                .is_none_or(|w| w >> (a % 64) & 1 == 0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_defined_only_where_written() {
        let d = Defined::new(200, false);
        assert_eq!(d.first_undefined(0, 4), Some(0));
        d.mark(60, 10);
        assert_eq!(d.first_undefined(60, 10), None);
        assert_eq!(d.first_undefined(58, 4), Some(58));
        assert_eq!(d.first_undefined(66, 8), Some(70));
        // Past the range: neither marked nor reported (memcheck's part).
        d.mark(190, 64);
        assert_eq!(d.first_undefined(190, 64), None);
        let mut s = Sparse::default();
        s.mark(0x1003, 2);
        assert_eq!(s.first_undefined(0x1003, 2), None);
        assert_eq!(s.first_undefined(0x1002, 2), Some(0x1002));
        assert!(Defined::new(10, true).first_undefined(0, 10).is_none());
    }
}
