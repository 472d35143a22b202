//! memcheck's bytes read past a buffer's end, followed to their use.
//!
//! IGC pads the loads it makes for the whole sub-group (`(W)` messages) and reads OWord blocks
//! whole, relying on the binding-table surface's bounds check, which reads zeros past the end:
//! such a read is the compiler's, not the program's, and reporting it would report correct
//! programs. So the bytes such a message loads from past the end are tagged in a second
//! register shadow (initcheck's kind, [`RegShadow`]), each tag naming the read
//! ([`Origin`]), and memcheck reports the value where it is used as initcheck reports an
//! undefined one (stored to memory, an address, control flow), naming the read; a padding value
//! the kernel discards is no finding.

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

/// One thread's state: its register shadow and the reads its tags name (tag `i + 1`:
/// `origins[i]`).
#[derive(Debug, Clone, Default)]
pub struct PastEnd {
    pub regs: RegShadow,
    origins: Vec<Origin>,
}

impl PastEnd {
    /// Every register holds no such byte (a thread starts).
    pub fn clear(&mut self) {
        self.regs.clear();
        self.origins.clear();
    }

    /// The tag naming `o`: one per send (a loop's reads share it), the last one shared by the
    /// reads past the 254th send.
    pub fn tag_for(&mut self, o: Origin) -> u8 {
        if let Some(i) = self.origins.iter().position(|x| x.pc == o.pc) {
            return (i + 1) as u8;
        }
        if self.origins.len() < usize::from(u8::MAX) {
            self.origins.push(o);
        }
        self.origins.len() as u8
    }

    /// The read tag `tag` names (the first one for a tag nothing names).
    pub fn origin(&self, tag: u8) -> Option<Origin> {
        let i = usize::from(tag).saturating_sub(1);
        self.origins.get(i).or(self.origins.first()).copied()
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
}
