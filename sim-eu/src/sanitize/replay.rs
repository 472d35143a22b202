//! initcheck's view of one send: the accesses it made, logged with the data moved and which
//! loaded bytes were never written, and a replay of the send on a copy of the thread whose
//! undefined register bytes are inverted and whose loads return the logged data with the
//! undefined bytes inverted. A data port message moves bytes without computing on them, so
//! the bytes in which the replay differs from the send are exactly those derived from
//! undefined ones: response bytes (which become undefined in the register shadow), stored
//! bytes (a use when they reach global memory), and addresses (a use whatever the space: the
//! replay then accesses other bytes than the send did).
//!
//! memcheck replays a send the same way for the bytes read past a buffer's end
//! ([`crate::sanitize::past_end`]): its replay inverts the registers holding such bytes,
//! answers loads with the logged data as it was, and reads past a surface's end as 0xff
//! instead of the zeros the send read.

use crate::dataport::{span_fits, Memory, Sampler, ScratchSurface, Surface};
use crate::error::MemFault;

/// What an access did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `len` bytes loaded, then one byte per loaded byte: 1 where never written.
    Read,
    /// `len` bytes stored.
    Write,
    /// A global atomic on a `len`-byte word: the old word, its undefined bytes (as `Read`),
    /// then the word written (when the operation wrote one, `wrote`).
    Atomic { wrote: bool },
    /// `len` bytes from `addr` lay (partly) past a surface's end: the data port did not
    /// access them. No data.
    Outside,
}

/// One access of the send, its bytes at `at` of the log's data.
#[derive(Debug, Clone, Copy)]
pub struct Logged {
    pub slm: bool,
    pub addr: u64,
    pub len: usize,
    pub op: Op,
    pub at: usize,
}

/// The accesses of the send being executed.
#[derive(Debug, Default)]
pub struct Log {
    pub entries: Vec<Logged>,
    pub data: Vec<u8>,
    /// Some loaded byte was never written.
    pub read_undefined: bool,
}

impl Log {
    pub fn clear(&mut self) {
        self.entries.clear();
        self.data.clear();
        self.read_undefined = false;
    }

    /// A load of `bytes`: returns the mask of its never-written bytes (1) and bytes past an
    /// allocation's end (2) to fill (zeros), whose undefined bytes the caller adds to
    /// [`Log::read_undefined`].
    pub fn read(&mut self, slm: bool, addr: u64, bytes: &[u8]) -> &mut [u8] {
        self.push(slm, addr, bytes.len(), Op::Read);
        self.data.extend_from_slice(bytes);
        let at = self.data.len();
        self.data.resize(at + bytes.len(), 0);
        &mut self.data[at..]
    }

    /// An access past a surface's end (the replay must make the same).
    pub fn outside(&mut self, addr: u64, len: usize) {
        self.push(false, addr, len, Op::Outside);
    }

    pub fn write(&mut self, slm: bool, addr: u64, bytes: &[u8]) {
        self.push(slm, addr, bytes.len(), Op::Write);
        self.data.extend_from_slice(bytes);
    }

    /// A global atomic on `width` bytes: its `old` word, the mask of that word's bytes never
    /// written, and the word it wrote.
    pub fn atomic(&mut self, addr: u64, width: usize, old: u64, mask: &[u8], new: Option<u64>) {
        self.read_undefined |= mask.iter().any(|&m| m != 0);
        self.push(
            false,
            addr,
            width,
            Op::Atomic {
                wrote: new.is_some(),
            },
        );
        self.data.extend_from_slice(&old.to_le_bytes()[..width]);
        self.data.extend_from_slice(mask);
        self.data
            .extend_from_slice(&new.unwrap_or(0).to_le_bytes()[..width]);
    }

    fn push(&mut self, slm: bool, addr: u64, len: usize, op: Op) {
        self.entries.push(Logged {
            slm,
            addr,
            len,
            op,
            at: self.data.len(),
        });
    }
}

/// Bytes the replay stored differently from the send: `len` bytes from `addr`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tainted {
    pub slm: bool,
    pub addr: u64,
    pub len: u64,
}

/// The memory the replay runs against: it answers from the log, and writes nothing.
pub struct Replay<'a> {
    /// For the binding table and surface states only (nothing is read or written there).
    pub inner: &'a mut dyn Memory,
    pub log: &'a Log,
    pub next: usize,
    /// The replay made an access the send did not (an address derived from undefined bytes).
    pub diverged: bool,
    /// Stored bytes derived from undefined ones.
    pub tainted: Vec<Tainted>,
    /// Loads return the logged bytes inverted whose mark has these bits: never written (1,
    /// initcheck's replay) or past an allocation's end (2, memcheck's).
    pub invert: u8,
    /// The byte a read past a surface's end returns (the send read zeros).
    pub past_end: u8,
}

impl<'a> Replay<'a> {
    pub fn new(inner: &'a mut dyn Memory, log: &'a Log) -> Self {
        Replay {
            inner,
            log,
            next: 0,
            diverged: false,
            tainted: Vec::new(),
            invert: 1,
            past_end: 0,
        }
    }

    /// memcheck's replay: the logged bytes past an allocation's end inverted, reads past a
    /// surface's end as 0xff.
    pub fn past_end(inner: &'a mut dyn Memory, log: &'a Log) -> Self {
        Replay {
            invert: 2,
            past_end: 0xff,
            ..Replay::new(inner, log)
        }
    }

    /// Byte `d` as this replay loads it, `m` its never-written mark.
    fn loaded(&self, d: u8, m: u8) -> u8 {
        if m & self.invert != 0 {
            !d
        } else {
            d
        }
    }

    /// Whether every logged access was replayed, and no other.
    pub fn matched(&self) -> bool {
        !self.diverged && self.next == self.log.entries.len()
    }

    /// The next logged access when it is `op` of `len` bytes at `addr`.
    fn take(&mut self, slm: bool, addr: u64, len: usize, read: bool) -> Option<Logged> {
        let e = *self.log.entries.get(self.next)?;
        let same_op = match e.op {
            Op::Read => read,
            Op::Write => !read,
            Op::Atomic { .. } | Op::Outside => false,
        };
        (e.slm == slm && e.addr == addr && e.len == len && same_op).then(|| {
            self.next += 1;
            e
        })
    }

    fn load(&mut self, slm: bool, addr: u64, buf: &mut [u8], whole: bool) -> bool {
        match self.take(slm, addr, buf.len(), true) {
            Some(e) => {
                let (data, mask) = self.log.data[e.at..e.at + 2 * e.len].split_at(e.len);
                for ((b, d), m) in buf.iter_mut().zip(data).zip(mask) {
                    *b = self.loaded(*d, *m);
                }
                true
            }
            None => {
                // A whole-run access the send made piece by piece: the pieces follow.
                if !whole {
                    self.diverged = true;
                    buf.fill(0);
                }
                false
            }
        }
    }

    fn store(&mut self, slm: bool, addr: u64, data: &[u8], whole: bool) -> bool {
        match self.take(slm, addr, data.len(), false) {
            Some(e) => {
                let logged = &self.log.data[e.at..e.at + e.len];
                self.compare(slm, addr, data, logged);
                true
            }
            None => {
                if !whole {
                    self.diverged = true;
                }
                false
            }
        }
    }

    /// Records the runs of bytes in which `mine` differs from what the send stored.
    fn compare(&mut self, slm: bool, addr: u64, mine: &[u8], logged: &[u8]) {
        let mut i = 0;
        while i < mine.len() {
            if mine[i] == logged[i] {
                i += 1;
                continue;
            }
            let start = i;
            while i < mine.len() && mine[i] != logged[i] {
                i += 1;
            }
            self.tainted.push(Tainted {
                slm,
                addr: addr + start as u64,
                len: (i - start) as u64,
            });
        }
    }
}

impl Memory for Replay<'_> {
    fn read(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), MemFault> {
        self.load(false, addr, buf, false);
        Ok(())
    }
    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.store(false, addr, data, false);
        Ok(())
    }
    fn slm_read(&mut self, offset: u32, buf: &mut [u8]) -> Result<(), MemFault> {
        self.load(true, u64::from(offset), buf, false);
        Ok(())
    }
    fn slm_write(&mut self, offset: u32, data: &[u8]) -> Result<(), MemFault> {
        self.store(true, u64::from(offset), data, false);
        Ok(())
    }
    crate::sanitize::forward_state_lookups!(inner);
    fn out_of_surface(&mut self, base: u64, _limit: u64, offset: u64, len: usize, w: bool) -> u8 {
        // An access past the end the send did not make: its address differs.
        let addr = base.wrapping_add(offset);
        let e = self.log.entries.get(self.next);
        if e.is_some_and(|e| e.op == Op::Outside && e.addr == addr && e.len == len) {
            self.next += 1;
        } else {
            self.diverged = true;
        }
        if w {
            0
        } else {
            self.past_end
        }
    }
    fn atomic(
        &mut self,
        addr: u64,
        width: usize,
        update: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<u64, MemFault> {
        let e = self.log.entries.get(self.next).copied();
        let Some(e) = e.filter(|e| {
            !e.slm && e.addr == addr && e.len == width && matches!(e.op, Op::Atomic { .. })
        }) else {
            self.diverged = true;
            return Ok(0);
        };
        self.next += 1;
        let d = &self.log.data[e.at..e.at + 3 * width];
        let mut old = [0u8; 8];
        for (i, o) in old.iter_mut().enumerate().take(width) {
            *o = self.loaded(d[i], d[width + i]);
        }
        let old = u64::from_le_bytes(old);
        let new = update(old);
        let wrote = matches!(e.op, Op::Atomic { wrote: true });
        match new {
            Some(v) if wrote => {
                let mine = v.to_le_bytes();
                let logged = d[2 * width..3 * width].to_vec();
                self.compare(false, addr, &mine[..width], &logged);
            }
            None if !wrote => {}
            _ => self.diverged = true,
        }
        Ok(old)
    }
    fn read_all(&mut self, addr: u64, buf: &mut [u8]) -> bool {
        self.load(false, addr, buf, true)
    }
    fn write_all(&mut self, addr: u64, data: &[u8]) -> bool {
        self.store(false, addr, data, true)
    }
    fn surface_read_all(&mut self, bti: u32, offset: u64, align: u64, buf: &mut [u8]) -> bool {
        match self.inner.surface_span(bti) {
            Ok((base, width)) if span_fits(base, width, offset, align, buf.len()) => {
                self.load(false, base.wrapping_add(offset), buf, true)
            }
            _ => false,
        }
    }
    fn surface_write_all(&mut self, bti: u32, offset: u64, align: u64, data: &[u8]) -> bool {
        match self.inner.surface_span(bti) {
            Ok((base, width)) if span_fits(base, width, offset, align, data.len()) => {
                self.store(false, base.wrapping_add(offset), data, true)
            }
            _ => false,
        }
    }
    fn slm_read_all(&mut self, offset: u32, buf: &mut [u8]) -> bool {
        self.load(true, u64::from(offset), buf, true)
    }
    fn slm_write_all(&mut self, offset: u32, data: &[u8]) -> bool {
        self.store(true, u64::from(offset), data, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataport::NoMemory;

    #[test]
    fn a_replay_inverts_undefined_loaded_bytes_and_finds_what_it_stores_differently() {
        let mut log = Log::default();
        log.read(true, 16, &[1, 2, 3, 4])
            .copy_from_slice(&[0, 1, 0, 1]);
        log.write(false, 0x1000, &[9, 9, 9, 9]);
        let mut mem = NoMemory;
        let mut r = Replay::new(&mut mem, &log);
        let mut buf = [0u8; 4];
        // A whole-run read the send did not make: declined, nothing diverged.
        assert!(!r.slm_read_all(20, &mut buf));
        r.slm_read(16, &mut buf).unwrap();
        assert_eq!(buf, [1, !2, 3, !4]);
        r.write(0x1000, &[9, 8, 7, 9]).unwrap();
        assert!(r.matched());
        assert_eq!(
            r.tainted,
            vec![Tainted {
                slm: false,
                addr: 0x1001,
                len: 2
            }]
        );
        // Another address than the send's: diverged.
        let mut r = Replay::new(&mut mem, &log);
        r.slm_read(20, &mut buf).unwrap();
        assert!(!r.matched());
    }

    #[test]
    fn memchecks_replay_changes_only_bytes_past_an_end_and_follows_the_sends_overruns() {
        let mut log = Log::default();
        // Bytes 2 and 3 past an allocation's end, byte 1 never written.
        log.read(false, 0x1000, &[1, 2, 3, 4])
            .copy_from_slice(&[0, 1, 2, 2]);
        log.outside(0x2000, 8);
        let mut mem = NoMemory;
        let mut r = Replay::past_end(&mut mem, &log);
        let mut buf = [0u8; 4];
        r.read(0x1000, &mut buf).unwrap();
        assert_eq!(buf, [1, 2, !3, !4]);
        // The overrun the send made: read as 0xff, and matched.
        assert_eq!(r.out_of_surface(0x2000, 0, 0, 8, false), 0xff);
        assert!(r.matched());
        // One the send did not make: its address differs.
        let mut r = Replay::past_end(&mut mem, &log);
        r.read(0x1000, &mut buf).unwrap();
        r.out_of_surface(0x2000, 0, 4, 8, false);
        assert!(!r.matched());
    }
}
