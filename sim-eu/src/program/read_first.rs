//! Which GRF registers a kernel may read before it has written them: a dispatcher that hands
//! one thread's register file on to the next must clear those (a read of the last thread's
//! values would make results depend on which thread ran before), and only those.
//!
//! The walk follows the kernel's straight-line start, where every channel of a thread with its
//! whole dispatch mask is enabled, up to the first instruction whose effect on the channels or
//! on the registers it does not model (control flow, indirect operands, descriptors in
//! registers, `dpas`, the Gen9-only planar and dot-product forms). From there on any register it
//! has not written whole counts as read. A write counts for the bytes of the channels it
//! certainly stores (unpredicated, enabled or NoMask); a response counts only for the messages
//! whose classified form writes every byte it returns ([`Quick`]); a read counts for every
//! byte of every channel's region, and of a message's payload registers.

use isa_encoder::model::{Opcode, SendDesc, Subfunction};

use crate::dataport::quick::Quick;
use crate::dataport::SendPlan;
use crate::program::operand::{type_bytes, Loc, Opnd};
use crate::program::Inst;
use crate::regfile::{GrfSet, MAX_GRF_BYTES, MAX_GRF_REGS, REG_BYTES};

/// The registers a thread of `simd` channels, all of them dispatched, may read before writing
/// them, for a kernel with `grf_bytes` of GRF.
pub fn read_before_written(insts: &[Inst], grf_bytes: usize, simd: u32) -> GrfSet {
    let mut w = Walk {
        written: Bytes::default(),
        read_first: GrfSet::EMPTY,
        grf_bytes: grf_bytes.min(MAX_GRF_BYTES),
        simd: simd.min(32),
    };
    for i in insts {
        if !w.step(i) {
            return w.read_first | w.written.not_whole(w.grf_bytes / REG_BYTES);
        }
        if i.pred.is_none() && i.send.is_some_and(|s| s.eot) {
            // (An unpredicated end of thread: nothing after it runs.)
            return w.read_first;
        }
    }
    // Past the last instruction is the decode error or the end of the kernel: nothing more
    // runs, but as for a stop, count what was not written.
    w.read_first | w.written.not_whole(w.grf_bytes / REG_BYTES)
}

/// One bit per GRF byte.
struct Bytes([u64; MAX_GRF_BYTES / 64]);

impl Default for Bytes {
    fn default() -> Self {
        Bytes([0; MAX_GRF_BYTES / 64])
    }
}

impl Bytes {
    /// The words and masks of bytes `at..at + len` (a large kernel's start is thousands of
    /// instructions, each walked for three widths: a word at a time, not a bit).
    fn words(at: usize, len: usize) -> impl Iterator<Item = (usize, u64)> {
        let end = at + len;
        let last = if len == 0 { at / 64 } else { end.div_ceil(64) };
        (at / 64..last).map(move |w| {
            let lo = at.max(w * 64) - w * 64;
            let hi = end.min(w * 64 + 64) - w * 64;
            (w, (u64::MAX >> (64 - (hi - lo))) << lo)
        })
    }

    fn set(&mut self, at: usize, len: usize) {
        for (w, m) in Bytes::words(at, len.min(MAX_GRF_BYTES.saturating_sub(at))) {
            self.0[w] |= m;
        }
    }

    fn all(&self, at: usize, len: usize) -> bool {
        at + len <= MAX_GRF_BYTES && Bytes::words(at, len).all(|(w, m)| self.0[w] & m == m)
    }

    /// The registers below `regs` with some byte not set.
    fn not_whole(&self, regs: usize) -> GrfSet {
        let mut s = GrfSet::EMPTY;
        for r in 0..regs.min(MAX_GRF_REGS) {
            if !self.all(r * REG_BYTES, REG_BYTES) {
                s |= GrfSet::range(r, 1);
            }
        }
        s
    }
}

struct Walk {
    written: Bytes,
    read_first: GrfSet,
    grf_bytes: usize,
    simd: u32,
}

impl Walk {
    /// Counts `i`'s reads, then its writes; false (nothing counted) where the walk stops.
    fn step(&mut self, i: &Inst) -> bool {
        if i.invalid.is_some() || matches!(i.func, Subfunction::Dpas { .. }) {
            return false;
        }
        let operands = [&i.dst, &i.src[0], &i.src[1], &i.src[2], &i.acc];
        if operands
            .iter()
            .any(|o| matches!(o.loc, Loc::Indirect { .. }))
        {
            return false;
        }
        if let Some(s) = &i.send {
            return self.send(i, s);
        }
        if !per_channel(i.opcode) {
            return false;
        }
        // A `mov` whose result is discarded (IGC's `mov null, r` waiting on a fence's
        // response) shows nothing of what it reads.
        let discarded = i.opcode == Opcode::Mov && i.dst.is_null() && i.cond.is_none() && !i.acc_wr;
        if !discarded {
            for s in &i.src[..usize::from(i.nsrc).min(3)] {
                self.read(s, i.n);
            }
        }
        if i.pred.is_none() && i.dst.loc == Loc::File {
            let size = type_bytes(i.dst.ty);
            for c in 0..usize::from(i.n) {
                if self.stores(i, c) {
                    self.write(usize::from(i.dst.offs[c]), size);
                }
            }
        }
        true
    }

    /// Whether channel `c` of `i` is enabled in a thread with every channel dispatched.
    fn stores(&self, i: &Inst, c: usize) -> bool {
        i.no_mask || u32::from(i.chan_off) + (c as u32) < self.simd
    }

    fn send(&mut self, i: &Inst, s: &SendPlan) -> bool {
        let SendDesc::Imm(desc) = s.desc else {
            return false;
        };
        let src1_len = match (s.src1_len, s.ex_desc) {
            (Some(n), _) => usize::from(n),
            (None, SendDesc::Imm(ex)) => (ex >> 6 & 0x1f) as usize,
            (None, SendDesc::Reg(_)) => return false,
        };
        let mlen = isa_encoder::sendmsg::message_len(desc) as usize;
        self.read_regs(usize::from(s.src0_reg), mlen);
        if let Some(r) = s.src1_reg {
            self.read_regs(usize::from(r), src1_len);
        }
        if i.pred.is_some() {
            return true;
        }
        let every = |lanes: u8| i.no_mask || u32::from(i.chan_off) + u32::from(lanes) <= self.simd;
        match s.quick {
            Some(Quick::Lanes(l)) if !l.write && every(l.lanes.max(i.n)) => {
                let block = crate::dataport::quick::component_block(usize::from(l.lanes));
                self.write(usize::from(l.data_at), usize::from(l.vec) * block);
            }
            Some(Quick::Block(b)) if !b.write && every(b.lanes.max(i.n)) => {
                self.write(usize::from(b.data_at), usize::from(b.bytes));
            }
            Some(Quick::Bytes(b)) if !b.write && every(b.lanes.max(i.n)) => {
                self.write(usize::from(b.data_at), 4 * usize::from(b.lanes));
            }
            _ => {}
        }
        true
    }

    fn read(&mut self, o: &Opnd, n: u8) {
        if o.loc != Loc::File {
            return;
        }
        let size = type_bytes(o.ty);
        for &at in &o.offs[..usize::from(n.max(1))] {
            self.read_bytes(usize::from(at), size);
        }
    }

    fn read_regs(&mut self, first: usize, count: usize) {
        self.read_bytes(first * REG_BYTES, count * REG_BYTES);
    }

    fn read_bytes(&mut self, at: usize, len: usize) {
        // Architecture registers (past the GRF) are cleared for every thread.
        if at >= self.grf_bytes || self.written.all(at, len) {
            return;
        }
        let last = (at + len - 1).min(self.grf_bytes - 1) / REG_BYTES;
        self.read_first |= GrfSet::range(at / REG_BYTES, last + 1 - at / REG_BYTES);
    }

    fn write(&mut self, at: usize, len: usize) {
        if at < self.grf_bytes {
            self.written.set(at, len.min(self.grf_bytes - at));
        }
    }
}

/// Opcodes whose channel `c` reads exactly each source's region element `c` (and the
/// accumulator or flags, which every thread starts with clear) and writes the destination's.
fn per_channel(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        Sync | Nop
            | Mov
            | Sel
            | Not
            | And
            | Or
            | Xor
            | Shr
            | Shl
            | Asr
            | Ror
            | Rol
            | Cmp
            | Cmpn
            | Csel
            | Bfrev
            | Bfe
            | Bfi1
            | Bfi2
            | Math
            | Add
            | Mul
            | Avg
            | Frc
            | Rndu
            | Rndd
            | Rnde
            | Rndz
            | Mac
            | Mach
            | Lzd
            | Fbh
            | Fbl
            | Cbit
            | Addc
            | Subb
            | Add3
            | Dp4a
            | Mad
            | Lrp
            | Bfn
    )
}

#[cfg(test)]
mod tests {
    use super::Bytes;

    #[test]
    fn byte_ranges_set_and_test_whole_words_and_parts() {
        let mut b = Bytes::default();
        b.set(60, 8); // across a word boundary
        b.set(128, 64); // a whole word
        assert!(b.all(60, 8) && b.all(61, 3) && b.all(128, 64) && b.all(130, 0));
        assert!(!b.all(59, 2) && !b.all(66, 3) && !b.all(127, 2) && !b.all(190, 3));
        assert_eq!(b.0[0], 0xf << 60);
        assert_eq!(b.0[1], 0xf);
        assert_eq!(b.0[2], u64::MAX);
        b.set(8190, 8); // clipped at the file's end
        assert!(b.all(8190, 2) && !b.all(8190, 3));
    }
}
