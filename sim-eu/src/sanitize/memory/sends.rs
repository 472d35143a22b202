//! initcheck at a send: the uses of undefined values a send makes (its predicate, its
//! descriptor, its addresses, data it stores to global memory) and the state it leaves in the
//! registers it loads and the local memory it stores ([`crate::sanitize::replay`]).

use isa_encoder::model::SendDesc;
use isa_encoder::sendmsg::response_len;

use super::Sanitizing;
use crate::dataport;
use crate::exec::masks;
use crate::program::channels::Channels;
use crate::program::Inst;
use crate::regfile::{Thread, A0, FLAG, REG_BYTES};
use crate::sanitize::checks::Check;
use crate::sanitize::regs::RegShadow;
use crate::sanitize::replay::{Op, Replay};

/// What a send reads before it accesses memory, in `shadow`: the lanes its predicate's flag
/// bits mark (enabled lanes only), and the tag of its descriptor register (`a0`), 0 when
/// unmarked.
pub(super) fn send_inputs(shadow: &RegShadow, t: &Thread, inst: &Inst) -> (u32, u8) {
    let enabled = masks(t, &Channels::of(inst)).0;
    let rot = u32::from(inst.flag_base) + u32::from(inst.chan_off);
    let pred_u = inst
        .pred
        .map_or(0, |p| shadow.predicate_undefined(p, rot, inst.n))
        & enabled;
    let desc_u = match inst.send.as_ref().map(|p| p.desc) {
        Some(SendDesc::Reg(sub)) => shadow.tag(A0 + (sub as usize & 7) * 4, 4),
        _ => 0,
    };
    (pred_u, desc_u)
}

/// The flag file's bytes: the replay leaves them as they are (the send's lanes are given).
pub(super) const FLAGS: std::ops::Range<usize> = FLAG..FLAG + 8;

impl Sanitizing<'_> {
    /// The send at `ip` begins (after [`crate::Memory::on_send`]'s other checks): keeps its
    /// response registers as they were (initcheck's and memcheck's replays start from them).
    pub(super) fn send_begins(&mut self, t: &Thread, ip: u32) {
        self.log.clear();
        let Some(inst) = self.prog.insts.get(ip as usize) else {
            return;
        };
        let Some(plan) = inst.send.as_ref() else {
            return;
        };
        let desc = match plan.desc {
            SendDesc::Imm(v) => v,
            SendDesc::Reg(sub) => {
                let at = A0 + (sub as usize & 7) * 4;
                t.file
                    .get(at..at + 4)
                    .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            }
        };
        let (start, before) = &mut self.dst_before;
        before.clear();
        if let Some(r) = plan.dst_reg {
            *start = usize::from(r) * REG_BYTES;
            let len = response_len(desc) as usize * REG_BYTES;
            if let Some(b) = t.file.get(*start..*start + len) {
                before.extend_from_slice(b);
            }
        }
        self.past_end_begins(t, ip);
        let th = self.place.thread as usize;
        let Some(shadow) = self.group.regs.get(th) else {
            return;
        };
        self.regs_clean = shadow.is_clean();
        if self.regs_clean {
            return;
        }
        let (pred_u, desc_u) = send_inputs(shadow, t, inst);
        if pred_u != 0 {
            self.report(
                Check::Initcheck,
                "send predicated on flags derived from memory never written (whether it \
                 accesses memory depends on them)"
                    .into(),
                None,
                None,
            );
        }
        if desc_u != 0 {
            self.report(
                Check::Initcheck,
                "send descriptor (a0) derived from memory never written".into(),
                None,
                None,
            );
        }
    }

    /// The send at `ip` executed on the lanes in `mask`: replays it when the registers it
    /// read or the memory it loaded held undefined bytes.
    pub(super) fn send_ends(&mut self, t: &Thread, ip: u32, mask: u32) {
        let th = self.place.thread as usize;
        let Some(send) = self.send else {
            return;
        };
        let (start, before) = (self.dst_before.0, &self.dst_before.1);
        let Some(shadow) = self.group.regs.get_mut(th) else {
            return;
        };
        if send.spill {
            // IGC fills whole blocks it spilled only partly: a fill loads defined values.
            shadow.set(start, before.len(), false);
            return;
        }
        if self.regs_clean && !self.log.read_undefined {
            return;
        }
        let Some(plan) = self
            .prog
            .insts
            .get(ip as usize)
            .and_then(|i| i.send.as_ref())
        else {
            return;
        };
        let n = self.prog.insts[ip as usize].n;
        let probe = self.group.spare.0.get_or_insert_with(|| Thread::new(0));
        probe.file.copy_from_slice(&t.file);
        probe.grf_bytes = t.grf_bytes;
        probe.dispatched_scratch = t.dispatched_scratch;
        probe.exec_lanes = u32::MAX;
        if let Some(d) = probe.file.get_mut(start..start + before.len()) {
            d.copy_from_slice(before);
        }
        let shadow = &mut self.group.regs[th];
        if shadow.undefined_bytes() != 0 {
            for (i, b) in probe.file.iter_mut().enumerate() {
                if !FLAGS.contains(&i) && shadow.byte(i) != 0 {
                    *b = !*b;
                }
            }
        }
        let mut replay = Replay::new(&mut *self.inner, &self.log);
        let ran = dataport::execute(probe, self.prog.platform, plan, n, mask, &mut replay);
        let matched = ran.is_ok() && replay.matched();
        let tainted = std::mem::take(&mut replay.tainted);
        let first = self.log.entries.first().map(|e| (e.slm, e.addr));
        // The response: undefined where the replay loaded something else.
        for i in start..start + before.len() {
            let differs = probe.file.get(i) != t.file.get(i);
            shadow.set(i, 1, differs);
        }
        if !matched {
            let (what, address, alloc) = match first {
                Some((true, a)) => (
                    "shared local memory",
                    Some(a),
                    Some(format!(
                        "shared local memory of {} bytes",
                        self.group.slm_defined.len()
                    )),
                ),
                Some((false, a)) => ("memory", Some(a), self.describe(a)),
                None => ("memory", None, None),
            };
            self.report(
                Check::Initcheck,
                format!(
                    "the address of this {what} access is derived from memory never written \
                     (or its message from registers never written)"
                ),
                address,
                alloc,
            );
            return;
        }
        let aggregate = self.prog.insts[ip as usize].no_mask && {
            let stored: u64 = (self.log.entries.iter())
                .filter(|e| !e.slm && e.op == Op::Write)
                .map(|e| e.len as u64)
                .sum();
            stored > tainted.iter().filter(|w| !w.slm).map(|w| w.len).sum()
        };
        for w in tainted {
            if w.slm {
                // Stays unwritten: a later use is reported.
                self.group.slm_defined.unmark(w.addr, w.len);
            } else if self.scope.per_thread.iter().any(|p| p.contains(&w.addr)) {
                if let Some(mine) = self.group.private.get_mut(th) {
                    mine.unmark(w.addr, w.len);
                }
            } else if aggregate {
                // A NoMask store writes one value for the whole sub-group (IGC emits them for
                // uniform data): partly defined, it is an aggregate copied whole with members
                // nobody set, which C allows (C11 6.2.6.1). Its unset bytes stay unwritten,
                // so a later use of them is reported.
                if let Some((start, d)) = self.scope.written_at(w.addr) {
                    d.unmark(w.addr - start, w.len);
                }
            } else {
                let alloc = self.describe(w.addr);
                self.report(
                    Check::Initcheck,
                    format!(
                        "write to global memory of a value derived from memory never written \
                         ({} byte(s) from here undefined)",
                        w.len
                    ),
                    Some(w.addr),
                    alloc,
                );
                break;
            }
        }
    }
}
