//! memcheck at a send and an ALU instruction for the bytes a padded read loaded from past a
//! buffer's end ([`crate::sanitize::past_end`]): the send's replay finds the registers they
//! reach and the uses the send makes of them (its predicate, descriptor, addresses, data it
//! stores); [`Sanitizing::past_end_used`] reports the uses an ALU or branch instruction makes.

use super::sends::{send_inputs, FLAGS};
use super::Sanitizing;
use crate::dataport;
use crate::regfile::Thread;
use crate::sanitize::checks::Check;
use crate::sanitize::past_end::Origin;
use crate::sanitize::regs::Use;
use crate::sanitize::replay::Replay;

impl Sanitizing<'_> {
    /// The finding's sentence, address and allocation for a use (`how`) of the bytes the read
    /// `tag` names.
    fn past_end_finding(&self, how: &str, tag: u8) -> (String, Option<u64>, Option<String>) {
        let th = self.place.thread as usize;
        let origin: Option<Origin> = self.group.past_end.get(th).and_then(|p| p.origin(tag));
        let Some(o) = origin else {
            return (
                format!("{how} bytes read past an allocation's end"),
                None,
                None,
            );
        };
        let what = format!(
            "{how} bytes read past the end of an allocation: the {}-byte read of the send at \
             offset {:#x}, which reached {:#x} (a read IGC may pad, reported where what it \
             loaded past the end is used)",
            o.len,
            o.pc.wrapping_add(self.scope.entry),
            o.address
        );
        let at = o.address;
        (what, Some(at), self.describe(at))
    }

    /// A use at the send being executed.
    fn past_end_report(&mut self, how: &str, tag: u8) {
        let (what, at, alloc) = self.past_end_finding(how, tag);
        self.report(Check::Memcheck, what, at, alloc);
    }

    /// The use `used` the ALU or branch instruction at `ip` (`mnemonic`) makes.
    pub(super) fn past_end_used(&mut self, ip: u32, mnemonic: &str, used: Use) {
        let (lanes, tag, how) = match used {
            Use::Branch(lanes, tag) => (
                lanes,
                tag,
                format!("control flow ({mnemonic}) decided by a value derived from"),
            ),
            Use::IndirectAddress(lanes, tag) => (
                lanes,
                tag,
                "indirect register address (a0) derived from".to_string(),
            ),
        };
        let (what, at, alloc) = self.past_end_finding(&how, tag);
        self.report_inst_at(Check::Memcheck, ip, lanes, what, at, alloc);
    }

    /// The send at `ip` begins: its predicate and descriptor.
    pub(super) fn past_end_begins(&mut self, t: &Thread, ip: u32) {
        let th = self.place.thread as usize;
        let (Some(inst), Some(p)) = (
            self.prog.insts.get(ip as usize),
            self.group.past_end.get(th),
        ) else {
            return;
        };
        if p.regs.is_clean() {
            return;
        }
        let (pred, desc) = send_inputs(&p.regs, t, inst);
        if pred != 0 {
            let tag = p.regs.first_tag();
            self.past_end_report("send predicated on flags derived from", tag);
        }
        if desc != 0 {
            self.past_end_report("send descriptor (a0) derived from", desc);
        }
    }

    /// The send at `ip` executed on the lanes in `mask`: replays it when it read past a
    /// surface's end or the registers hold bytes that did, with those bytes changed; the
    /// response bytes that change with them hold them too, and the stored bytes and addresses
    /// that change are uses.
    pub(super) fn past_end_ends(&mut self, t: &Thread, ip: u32, mask: u32) {
        let th = self.place.thread as usize;
        let Some(send) = self.send else {
            return;
        };
        let (start, len) = (self.dst_before.0, self.dst_before.1.len());
        let Some(p) = self.group.past_end.get_mut(th) else {
            return;
        };
        if send.spill {
            // A fill loads what IGC spilled; scratch is never read past its end.
            p.regs.set_tag(start, len, 0);
            return;
        }
        let read = send
            .past_end
            .map(|(address, len)| {
                p.tag_for(Origin {
                    pc: send.pc,
                    address,
                    len,
                })
            })
            .or(send.slm_tag);
        let inputs = p.regs.first_tag();
        if inputs == 0 && read.is_none() {
            return;
        }
        let Some(inst) = self.prog.insts.get(ip as usize) else {
            return;
        };
        let Some(plan) = inst.send.as_ref() else {
            return;
        };
        let probe = self.group.spare.0.get_or_insert_with(|| Thread::new(0));
        probe.file.copy_from_slice(&t.file);
        probe.grf_bytes = t.grf_bytes;
        probe.dispatched_scratch = t.dispatched_scratch;
        probe.exec_lanes = u32::MAX;
        if let Some(d) = probe.file.get_mut(start..start + len) {
            d.copy_from_slice(&self.dst_before.1);
        }
        let p = &mut self.group.past_end[th];
        if inputs != 0 {
            for (i, b) in probe.file.iter_mut().enumerate() {
                if !FLAGS.contains(&i) && p.regs.byte(i) != 0 {
                    *b = !*b;
                }
            }
        }
        let mut replay = Replay::past_end(&mut *self.inner, &self.log);
        let ran = dataport::execute(probe, self.prog.platform, plan, inst.n, mask, &mut replay);
        let matched = ran.is_ok() && replay.matched();
        // The bytes this read loaded past the end, else the registers' (a load's response
        // changes only with the data it loads or its address, an address being a use).
        let tag = read.unwrap_or(inputs);
        for i in start..start + len {
            // An access whose address is the use is reported once, there: memcheck checks
            // what it loads as any other access's.
            let differs = matched && probe.file.get(i) != t.file.get(i);
            p.regs.set_tag(i, 1, if differs { tag } else { 0 });
        }
        if !matched {
            self.past_end_report("the address of this access is derived from", inputs);
            return;
        }
        // Stored to SLM, the bytes keep their read; stored to memory, they are used.
        let origin = p.origin(inputs);
        let mut stored = None;
        for w in &replay.tainted {
            if w.slm {
                (self.group.slm_past_end).store(w.addr, w.len, origin);
            } else {
                stored = stored.or(Some(*w));
            }
        }
        if let Some(w) = stored {
            let how = format!(
                "a store to memory at {:#x} ({} byte(s) from there) of a value derived from",
                w.addr, w.len
            );
            self.past_end_report(&how, inputs);
        }
    }

    /// memcheck: the SLM load of `len` bytes at `offset` just logged: marks those holding
    /// bytes read past an end in the log, for the replay to load them changed, and names
    /// their read in the thread's registers.
    pub(super) fn mark_slm_past_end(&mut self, offset: u64, len: usize) {
        if !self.scope.checks.has(Check::Memcheck) {
            return;
        }
        let at = self.log.data.len() - len;
        let mask = &mut self.log.data[at..];
        let Some(origin) = self.group.slm_past_end.load(offset, mask, PAST_END) else {
            return;
        };
        let th = self.place.thread as usize;
        let (Some(p), Some(s)) = (self.group.past_end.get_mut(th), self.send.as_mut()) else {
            return;
        };
        s.slm_tag.get_or_insert(p.tag_for(origin));
    }
}

impl Sanitizing<'_> {
    /// memcheck: whether the global read of `len` bytes at `addr` outside every allocation,
    /// `near` the nearest, is deferred: a read of the send being executed that may be IGC's
    /// padding, past an allocation's end (not before it, not of a freed one). Records it.
    pub(super) fn defers_past_end(
        &mut self,
        addr: u64,
        len: usize,
        near: Option<&crate::sanitize::Allocation>,
    ) -> bool {
        let past = near.is_some_and(|a| !a.freed && a.start <= addr);
        let Some(s) = self.send.as_mut().filter(|s| s.defers && past) else {
            return false;
        };
        let first_out = match near {
            Some(a) if addr < a.end() => a.end(),
            _ => addr,
        };
        s.past_end.get_or_insert((first_out, len));
        s.pending = true;
        true
    }

    /// memcheck: marks the bytes of the global load `mask` (at `addr`) lies over that are
    /// outside every allocation, when the read was deferred ([`Self::defers_past_end`]); the
    /// replay loads them changed.
    pub(super) fn mark_past_end(&mut self, addr: u64, mask: &mut [u8]) {
        let Some(s) = self.send.as_mut().filter(|s| s.pending) else {
            return;
        };
        s.pending = false;
        for (i, m) in mask.iter_mut().enumerate() {
            let at = addr.wrapping_add(i as u64);
            if !matches!(
                self.scope.allocations.find(at, 1),
                crate::sanitize::Lookup::Inside(_)
            ) {
                *m |= PAST_END;
            }
        }
    }

    /// memcheck: the deferred read faulted (unmapped memory past the allocation): no value
    /// reaches a register, so it is reported as the read it is.
    pub(super) fn past_end_faulted(&mut self) {
        let Some(s) = self.send.as_mut().filter(|s| s.pending) else {
            return;
        };
        s.pending = false;
        let Some((at, len)) = s.past_end.take() else {
            return;
        };
        let alloc = self.describe(at);
        self.report(
            Check::Memcheck,
            format!("{len}-byte read outside every allocation"),
            Some(at),
            alloc,
        );
    }
}

/// The log's mark (beside initcheck's never-written bit) of a loaded byte past an
/// allocation's end.
pub(crate) const PAST_END: u8 = 2;
