//! memcheck's bytes read past a buffer's end, followed to their use.
//!
//! IGC pads the loads it makes for the whole sub-group (`(W)` messages) and reads OWord blocks
//! whole, relying on the binding-table surface's bounds check, which reads zeros past the end:
//! such a read is the compiler's, not the program's, and reporting it would report correct
//! programs. So the bytes such a message loads from past the end are tagged in a second
//! register shadow (initcheck's kind, [`RegShadow`]), each tag naming the read
//! ([`Origin`]), and memcheck reports the value where it is used as initcheck reports an
//! undefined one (stored to memory, an address, control flow), naming the read; a padding value
//! the kernel discards is no finding. Bytes stored to shared local memory keep their tag there
//! ([`SlmPastEnd`]): a kernel that stages a padded tile in SLM and discards its padding after
//! reading it back (oneDNN's GEMM kernels do) is no finding either.

use super::regs::RegShadow;

/// A read past an allocation's end whose value memcheck follows: the send and what it read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Origin {
    /// The reading send's offset (before the walker's start is added).
    pub pc: u32,
    /// The first byte it read past the end, and the access's length.
    pub address: u64,
    pub len: usize,
}

/// The reads tags name: tag `i + 1` names the `i`-th.
#[derive(Debug, Clone, Default)]
pub struct Origins(Vec<Origin>);

impl Origins {
    /// The tag naming `o`: one per send (a loop's reads share it), the last one shared by the
    /// reads past the 254th send.
    pub fn tag_for(&mut self, o: Origin) -> u8 {
        if let Some(i) = self.0.iter().position(|x| x.pc == o.pc) {
            return (i + 1) as u8;
        }
        if self.0.len() < usize::from(u8::MAX) {
            self.0.push(o);
        }
        self.0.len() as u8
    }

    /// The read tag `tag` names (the first one for a tag nothing names).
    pub fn origin(&self, tag: u8) -> Option<Origin> {
        let i = usize::from(tag).saturating_sub(1);
        self.0.get(i).or(self.0.first()).copied()
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }
}

/// One thread's state: its register shadow and the reads its tags name.
#[derive(Debug, Clone, Default)]
pub struct PastEnd {
    pub regs: RegShadow,
    origins: Origins,
}

impl PastEnd {
    /// Every register holds no such byte (a thread starts).
    pub fn clear(&mut self) {
        self.regs.clear();
        self.origins.clear();
    }

    /// The tag naming `o` in this thread's registers.
    pub fn tag_for(&mut self, o: Origin) -> u8 {
        self.origins.tag_for(o)
    }

    /// The read tag `tag` names.
    pub fn origin(&self, tag: u8) -> Option<Origin> {
        self.origins.origin(tag)
    }
}

/// The work-group's shared local memory bytes that hold bytes read past an allocation's end,
/// stored there by any of its threads: one tag per byte (0: none), named group-wide.
#[derive(Debug, Clone, Default)]
pub struct SlmPastEnd {
    tags: Vec<u8>,
    origins: Origins,
    /// Some byte holds a tag (a group that never stores one costs no clearing).
    tagged: bool,
}

impl SlmPastEnd {
    /// A work-group starts with `len` bytes of SLM, none holding such a byte.
    pub fn reset(&mut self, len: usize) {
        if self.tagged {
            self.tags.fill(0);
            self.tagged = false;
        }
        self.tags.resize(len, 0);
        self.origins.clear();
    }

    /// `len` bytes stored at `offset`: they hold bytes of the read `origin` (None: they
    /// hold none).
    pub fn store(&mut self, offset: u64, len: u64, origin: Option<Origin>) {
        if origin.is_none() && !self.tagged {
            return;
        }
        let tag = origin.map_or(0, |o| self.origins.tag_for(o));
        let start = (offset as usize).min(self.tags.len());
        let end = (offset.saturating_add(len) as usize).min(self.tags.len());
        self.tags[start..end].fill(tag);
        self.tagged |= tag != 0 && start < end;
    }

    /// A load of `mask.len()` bytes at `offset`: marks with `mark` the mask's bytes that hold
    /// bytes read past an end, and answers the first of those reads.
    pub fn load(&self, offset: u64, mask: &mut [u8], mark: u8) -> Option<Origin> {
        if !self.tagged {
            return None;
        }
        let start = (offset as usize).min(self.tags.len());
        let mut first = None;
        for (m, &t) in mask.iter_mut().zip(&self.tags[start..]) {
            if t != 0 {
                *m |= mark;
                first = first.or(Some(t));
            }
        }
        first.and_then(|t| self.origins.origin(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(pc: u32) -> Origin {
        Origin {
            pc,
            address: 0x1064,
            len: 16,
        }
    }

    #[test]
    fn one_tag_per_send_and_the_last_shared_past_255() {
        let mut p = PastEnd::default();
        assert_eq!(p.tag_for(at(0x10)), 1);
        assert_eq!(p.tag_for(at(0x20)), 2);
        assert_eq!(p.tag_for(at(0x10)), 1);
        assert_eq!(p.origin(2).map(|o| o.pc), Some(0x20));
        for pc in 0..400 {
            p.tag_for(at(0x100 + pc));
        }
        assert_eq!(p.tag_for(at(0x1000)), u8::MAX);
        p.clear();
        assert_eq!(p.origin(1), None);
    }

    #[test]
    fn slm_bytes_keep_the_read_they_hold_until_overwritten() {
        let mut s = SlmPastEnd::default();
        s.reset(64);
        let mut mask = [0u8; 8];
        assert_eq!(s.load(0, &mut mask, 2), None);
        s.store(8, 4, Some(at(0x30)));
        s.store(16, 4, Some(at(0x40)));
        let mut mask = [0u8; 12];
        assert_eq!(s.load(6, &mut mask, 2).map(|o| o.pc), Some(0x30));
        assert_eq!(mask, [0, 0, 2, 2, 2, 2, 0, 0, 0, 0, 2, 2]);
        // Overwritten with bytes read inside: no longer tagged.
        s.store(8, 4, None);
        let mut mask = [0u8; 12];
        assert_eq!(s.load(8, &mut mask, 2).map(|o| o.pc), Some(0x40));
        assert_eq!(mask, [0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2]);
        // Past SLM's end nothing is kept; a new group starts clean.
        s.store(62, 8, Some(at(0x50)));
        s.reset(64);
        let mut mask = [0u8; 64];
        assert_eq!(s.load(0, &mut mask, 2), None);
        assert!(mask.iter().all(|&m| m == 0));
    }
}
