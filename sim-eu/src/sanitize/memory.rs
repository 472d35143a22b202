//! The sanitizing view of a thread's memory: a [`Memory`] that checks each access and passes
//! it on unchanged, so that a finding never changes what the kernel computes.

mod past_end;
mod sends;

use std::ops::Range;
use std::sync::Arc;

use isa_encoder::model::{Opcode, Shape};
use isa_encoder::sendmsg::{gateway, Sfid};

use super::alloc::{Allocations, Lookup};
use super::checks::{Check, Checks};
use super::collective;
use super::finding::{Finding, Findings};
use super::group::Group;
use super::race::Access;
use super::race_global::GlobalCells;
use super::regs::Use;
use super::replay::Log;
use super::rules::{self, Kind};
use super::shadow::Defined;
use super::slots::{Own, Slots};
use crate::dataport::{scratch, span_fits, Memory, OutOfImage, Sampler, ScratchSurface, Surface};
use crate::error::{EuError, EuErrorKind, MemFault};
use crate::program::operand::Loc;
use crate::program::Program;
use crate::regfile::{Thread, REG_BYTES};

/// What the checks of one dispatch know: the checks on, the allocations, the work-group's
/// exact shared local memory.
#[derive(Debug)]
pub struct Scope {
    pub checks: Checks,
    pub allocations: Allocations,
    /// Bytes of shared local memory the kernel and its `local` arguments use; None where the
    /// driver did not say (the interface descriptor's rounded size then bounds the accesses,
    /// as it always does).
    pub slm_bytes: Option<u32>,
    /// The dispatch's per-thread memory, where the driver said: its private buffer and its
    /// scratch space (IGC keeps `__private` arrays it does not hold in registers in either).
    /// initcheck tracks it per thread; racecheck leaves it out.
    pub per_thread: Vec<Range<u64>>,
    /// memcheck: the scratch space and private buffer, each thread bounded by its own slot.
    pub slots: Slots,
    /// initcheck: the registered buffers' written bytes, by start address (sorted).
    pub written: Vec<(u64, Arc<Defined>)>,
    /// racecheck: the accesses to registered buffers of this walker.
    pub races: GlobalCells,
    /// Bytes from the kernel binary's first instruction to the walker's start: a finding's
    /// own offset is shifted by them when it is reported; an offset a finding's sentence names
    /// (racecheck's earlier access) is shifted here.
    pub entry: u32,
    /// The walker's SIMD width (None: unknown): a sub-group's block moves at least one byte
    /// per lane, so a smaller transposed LSC message is not one ([`rules::classify`]).
    pub simd: Option<u32>,
}

impl Scope {
    /// Whether the walker's groups should go to host threads in long runs of neighbours:
    /// racecheck locks its shadow of global memory per 16 KiB chunk at each access
    /// (`race_global`), and host threads on neighbouring groups, whose data is usually
    /// neighbouring too, took turns at one chunk's lock nearly every access (CTS
    /// `sub_buffers_read_write`, groups of 256 bytes: 32 s against 13 s).
    pub fn wants_long_runs(&self) -> bool {
        self.checks.has(Check::Racecheck)
    }

    /// The registered buffer holding `addr` and its written bytes.
    pub(super) fn written_at(&self, addr: u64) -> Option<(u64, &Defined)> {
        let i = self.written.partition_point(|(s, _)| *s <= addr);
        let (start, d) = self.written.get(i.checked_sub(1)?)?;
        (addr - start < d.len()).then_some((*start, &**d))
    }
}

/// Sets `out[i]` to 1 where byte `addr + i` of global memory (`slm`: shared local memory) was
/// never written as far as initcheck knows, for `thread` of `group` (images, `image`, and
/// memory nobody registered: written).
fn undefined_mask(
    scope: &Scope,
    group: &Group,
    thread: usize,
    image: bool,
    (slm, addr): (bool, u64),
    out: &mut [u8],
) {
    out.fill(0);
    if image {
        return;
    }
    if slm {
        group.slm_defined.undefined_mask(addr, out);
    } else if scope.per_thread.iter().any(|p| p.contains(&addr)) {
        if let Some(mine) = group.private.get(thread) {
            mine.undefined_mask(addr, out);
        }
    } else if let Some((start, d)) = scope.written_at(addr) {
        d.undefined_mask(addr - start, out);
    }
}

/// Which thread runs: its work-group and index in the group.
#[derive(Debug, Clone, Copy, Default)]
pub struct Place {
    pub group: [u32; 3],
    pub thread: u32,
}

/// The send being executed.
#[derive(Debug, Clone, Copy)]
struct Send {
    pc: u32,
    mask: u32,
    kind: Kind,
    /// The send's first global access was checked against its block rule.
    block_checked: bool,
    /// A scratch block message (IGC's register spill or fill).
    spill: bool,
    /// A sampler or LSC typed message (they convert formats): initcheck counts its loads as
    /// defined.
    image: bool,
    /// memcheck: its reads past a surface's end may be IGC's padding, followed to their use
    /// instead of reported ([`crate::sanitize::past_end`]): a `(W)` message (one load for the
    /// whole sub-group) or a block read.
    defers: bool,
    /// The first read past an allocation's end it deferred (first byte past it, length).
    past_end: Option<(u64, usize)>,
    /// The global read being made was deferred: its load's bytes past the end are marked in
    /// the log.
    pending: bool,
    /// The tag (in the thread's registers) of the read past an end whose bytes it loaded
    /// from shared local memory.
    slm_tag: Option<u8>,
}

/// A thread's memory under the sanitizer.
pub struct Sanitizing<'a> {
    inner: &'a mut dyn Memory,
    prog: &'a Program,
    scope: &'a Scope,
    place: Place,
    findings: &'a mut Findings,
    group: &'a mut Group,
    send: Option<Send>,
    /// The SLM offset of the atomic being executed (its read and write are atomic).
    slm_atomic: Option<u32>,
    /// racecheck: the bytes the plain write being checked stores.
    storing: Vec<u8>,
    /// r0 DWords 3 and 5 as the thread was dispatched (from its first send).
    dispatched: [u32; 2],
    /// memcheck: the thread's own scratch and private slots, found at its first access there.
    own: Option<Own>,
    /// synccheck: the per-lane indirect reads met so far and what they read
    /// ([`collective::source`]).
    sources: Vec<(u32, Option<collective::Source>)>,
    /// initcheck: the accesses of the send being executed.
    log: Log,
    /// initcheck: the thread's registers held no undefined byte when the send began.
    regs_clean: bool,
    /// initcheck: the send's response registers before it (file byte offset, bytes).
    dst_before: (usize, Vec<u8>),
    /// The allocation (memcheck, racecheck) and the racecheck shadow's buffer the last
    /// global access was in: the next lookups try them first.
    alloc_hint: usize,
    race_hint: usize,
}

impl<'a> Sanitizing<'a> {
    pub fn new(
        inner: &'a mut dyn Memory,
        prog: &'a Program,
        scope: &'a Scope,
        place: Place,
        findings: &'a mut Findings,
        group: &'a mut Group,
    ) -> Self {
        Sanitizing {
            inner,
            prog,
            scope,
            place,
            findings,
            group,
            send: None,
            slm_atomic: None,
            storing: Vec::new(),
            dispatched: [0; 2],
            own: None,
            sources: Vec::new(),
            log: Log::default(),
            regs_clean: true,
            dst_before: (0, Vec::new()),
            alloc_hint: 0,
            race_hint: 0,
        }
    }

    /// initcheck and memcheck (which replay sends): whether the accesses of the send being
    /// executed are logged.
    fn logs(&self) -> bool {
        self.scope
            .checks
            .has_any(&[Check::Initcheck, Check::Memcheck])
            && self.send.is_some_and(|s| !s.spill)
    }

    /// Sets `out[i]` to 1 where byte `addr + i` of global memory (`slm`: shared local memory)
    /// was never written, as far as initcheck knows (images and unregistered memory: written).
    fn undefined_mask(&self, slm: bool, addr: u64, out: &mut [u8]) {
        let image = self.send.is_some_and(|s| s.image);
        let th = self.place.thread as usize;
        undefined_mask(self.scope, self.group, th, image, (slm, addr), out);
    }

    /// initcheck: logs a load of `bytes` at `addr`.
    fn log_read(&mut self, slm: bool, addr: u64, bytes: &[u8]) {
        if !self.logs() {
            return;
        }
        let image = self.send.is_some_and(|s| s.image);
        let th = self.place.thread as usize;
        let mask = self.log.read(slm, addr, bytes);
        if self.scope.checks.has(Check::Initcheck) {
            undefined_mask(self.scope, self.group, th, image, (slm, addr), mask);
            self.log.read_undefined |= mask.iter().any(|&m| m != 0);
        }
        if slm {
            self.mark_slm_past_end(addr, bytes.len());
        } else {
            // Borrowed apart from the log: `mark_past_end` needs `self`.
            let at = self.log.data.len() - bytes.len();
            let mut m = std::mem::take(&mut self.log.data);
            self.mark_past_end(addr, &mut m[at..]);
            self.log.data = m;
        }
    }

    fn log_write(&mut self, slm: bool, addr: u64, bytes: &[u8]) {
        if self.logs() {
            self.log.write(slm, addr, bytes);
        }
    }

    /// A finding of `check` at the instruction at index `ip` (not a send's access).
    fn report_inst(&mut self, check: Check, ip: u32, lanes: u32, what: String) {
        self.report_inst_at(check, ip, lanes, what, None, None);
    }

    /// [`Sanitizing::report_inst`] naming an address and its allocation.
    fn report_inst_at(
        &mut self,
        check: Check,
        ip: u32,
        lanes: u32,
        what: String,
        address: Option<u64>,
        allocation: Option<String>,
    ) {
        let Some(inst) = self.prog.insts.get(ip as usize) else {
            return;
        };
        self.findings.add(Finding {
            check,
            kernel: String::new(),
            offset: inst.pc,
            source: None,
            disassembly: String::new(),
            what,
            group: self.place.group,
            thread: self.place.thread,
            lanes: lanes << inst.chan_off,
            address,
            allocation,
            count: 1,
        });
    }

    /// racecheck: the plain write checked next stores `data` (two writes of one value do not
    /// race).
    fn stores(&mut self, data: &[u8]) {
        if self.scope.checks.has(Check::Racecheck) {
            self.storing.clear();
            self.storing.extend_from_slice(data);
        }
    }

    /// racecheck's record of an access by this thread now.
    fn access(&self, write: bool, atomic: bool) -> Access {
        Access {
            group: self.group.key,
            thread: self.place.thread as u16,
            epoch: self.group.epoch,
            clock: self.group.clocks.own(self.place.thread as usize),
            pc: self.send.map_or(u32::MAX, |s| s.pc),
            atomic,
            write,
        }
    }

    /// The text naming the access `other` a racing access met.
    fn other(&self, other: &Access) -> String {
        let who = if other.group == self.group.key {
            format!("sub-group {} of this work-group", other.thread)
        } else {
            format!(
                "sub-group {} of work-group number {} of the dispatch",
                other.thread,
                other.group - 1
            )
        };
        format!(
            "{}{} by {who} at offset {:#x}",
            if other.atomic { "an atomic " } else { "a " },
            if other.write { "write" } else { "read" },
            other.pc.wrapping_add(self.scope.entry)
        )
    }

    /// initcheck and racecheck of a global access.
    fn global_shadow(&mut self, addr: u64, len: usize, write: bool, atomic: bool) {
        let scope = self.scope;
        let checks = scope.checks;
        let len64 = len as u64;
        let private = scope.per_thread.iter().any(|p| p.contains(&addr));
        if checks.has(Check::Initcheck) {
            if private {
                let t = self.place.thread as usize;
                // IGC's own spill and fill (scratch block messages) are left alone: it
                // fills whole blocks it spilled only partly.
                // A read is no finding: the loaded bytes' state follows the value (the send's
                // log), and only a use of it is reported.
                if let (true, Some(mine)) = (write, self.group.private.get_mut(t)) {
                    mine.mark(addr, len64);
                }
            } else if let (true, Some((start, d))) = (write, scope.written_at(addr)) {
                d.mark(addr - start, len64);
            }
        }
        if checks.has(Check::Racecheck) && !private {
            if let Lookup::Inside(a) =
                scope
                    .allocations
                    .find_hinted(&mut self.alloc_hint, addr, len64)
            {
                if a.exact && !a.freed {
                    let me = self.access(write, atomic);
                    let seen = self.group.clocks.seen(self.place.thread as usize);
                    let data = (write && !atomic).then_some(&self.storing[..]);
                    let hint = &mut self.race_hint;
                    if let Some((at, other)) = scope.races.access(hint, addr, len64, me, seen, data)
                    {
                        let verb = if write { "write" } else { "read" };
                        let what = format!(
                            "{len}-byte {verb} of global memory races with {} (no barrier \
                             orders them, they are not both atomic)",
                            self.other(&other)
                        );
                        self.report(Check::Racecheck, what, Some(at), Some(a.to_string()));
                    }
                }
            }
        }
    }

    /// initcheck and racecheck of a shared-local-memory access.
    fn slm_shadow(&mut self, offset: u32, len: usize, write: bool) {
        let checks = self.scope.checks;
        let atomic = self.slm_atomic == Some(offset);
        let (off, len64) = (u64::from(offset), len as u64);
        if checks.has(Check::Initcheck) && write {
            self.group.slm_defined.mark(off, len64);
        }
        if checks.has(Check::Racecheck) {
            let me = self.access(write, atomic);
            let seen = self.group.clocks.seen(self.place.thread as usize);
            let data = (write && !atomic).then_some(&self.storing[..]);
            let race = (self.group.slm_cells).access(offset as usize, len, me, seen, data);
            if let Some((at, other)) = race {
                let verb = if write { "write" } else { "read" };
                let what = format!(
                    "{len}-byte {verb} of shared local memory races with {} (no barrier \
                     between them, not both atomic)",
                    self.other(&other)
                );
                let size = self.group.slm_cells.len();
                self.report(
                    Check::Racecheck,
                    what,
                    Some(at as u64),
                    Some(format!("shared local memory of {size} bytes")),
                );
            }
        }
    }

    fn report(&mut self, check: Check, what: String, address: Option<u64>, alloc: Option<String>) {
        let (offset, lanes) = self.send.map_or((u32::MAX, 0), |s| (s.pc, s.mask));
        self.findings.add(Finding {
            check,
            kernel: String::new(),
            offset,
            source: None,
            disassembly: String::new(),
            what,
            group: self.place.group,
            thread: self.place.thread,
            lanes,
            address,
            allocation: alloc,
            count: 1,
        });
    }

    /// memcheck of a global access, initcheck and racecheck, then the block rule of the send's
    /// first access.
    fn global(&mut self, addr: u64, len: usize, write: bool) {
        self.global_access(addr, len, write, false);
    }

    fn global_access(&mut self, addr: u64, len: usize, write: bool, atomic: bool) {
        if self
            .scope
            .checks
            .has_any(&[Check::Initcheck, Check::Racecheck])
        {
            self.global_shadow(addr, len, write, atomic);
        }
        if self.scope.checks.has(Check::Memcheck) && !self.strays(addr, len, write) {
            let verb = if write { "write" } else { "read" };
            let scope = self.scope;
            match scope
                .allocations
                .find_hinted(&mut self.alloc_hint, addr, len as u64)
            {
                Lookup::Inside(a) if a.freed => self.use_after_free(addr, len, verb, a),
                Lookup::Outside(Some(a)) if a.freed && addr >= a.start && addr < a.end() => {
                    self.use_after_free(addr, len, verb, a)
                }
                Lookup::Inside(a) if write && a.read_only => {
                    let d = a.to_string();
                    self.report(
                        Check::Memcheck,
                        format!("{len}-byte write to a read-only allocation"),
                        Some(addr),
                        Some(d),
                    );
                }
                Lookup::Inside(_) => {}
                Lookup::Outside(near) if !write && self.defers_past_end(addr, len, near) => {}
                Lookup::Outside(near) => {
                    // A 32-bit surface offset that wrapped (a negative index through a
                    // binding table with no bounds check, LSC) lands 4 GiB past its buffer.
                    let (addr, near, how) = match addr.checked_sub(1 << 32) {
                        Some(w) if !self.scope.allocations.is_empty() && self.near(w) => (
                            w,
                            self.describe(w),
                            " (a negative 32-bit offset from its surface)",
                        ),
                        _ => (addr, near.map(|a| a.to_string()), ""),
                    };
                    self.report(
                        Check::Memcheck,
                        format!("{len}-byte {verb} outside every allocation{how}"),
                        Some(addr),
                        near,
                    );
                }
            }
        }
        if let Some(s) = self.send.as_mut() {
            if !s.block_checked {
                s.block_checked = true;
                let kind = s.kind;
                self.block_address(kind, addr);
            }
        }
    }

    /// memcheck: an access to memory the program freed.
    fn use_after_free(&mut self, addr: u64, len: usize, verb: &str, a: &super::Allocation) {
        let d = a.to_string();
        self.report(
            Check::Memcheck,
            format!("{len}-byte {verb} of a freed allocation (use after free)"),
            Some(addr),
            Some(d),
        );
    }

    /// memcheck of an access to the scratch space or private buffer: it must stay in the
    /// thread's own slot. True when it did not (reported).
    fn strays(&mut self, addr: u64, len: usize, write: bool) -> bool {
        let scope = self.scope;
        let slots = &scope.slots;
        if slots.is_empty() {
            return false;
        }
        let own = match &self.own {
            Some(o) => o,
            None => {
                let o = slots.own(self.prog.platform, self.dispatched, &mut *self.inner);
                self.own.insert(o)
            }
        };
        let slot = own.slot;
        let Some(stray) = slots.stray(own, addr, len as u64) else {
            return false;
        };
        let verb = if write { "write" } else { "read" };
        let alloc = match &stray.own {
            Some(r) => format!(
                "{} slot of {} bytes at {:#x}..{:#x} (hardware thread slot {slot})",
                stray.memory,
                r.end - r.start,
                r.start,
                r.end
            ),
            None => format!("{} (this thread's slot is unknown)", stray.memory),
        };
        self.report(
            Check::Memcheck,
            format!(
                "{len}-byte {verb} of {} outside this thread's slot (another hardware \
                 thread's {})",
                stray.memory, stray.memory
            ),
            Some(addr),
            Some(alloc),
        );
        true
    }

    /// alignment: the spec's rule for a block message's address.
    fn block_address(&mut self, kind: Kind, addr: u64) {
        if !self.scope.checks.has(Check::Alignment) {
            return;
        }
        if let Some(rule) = rules::address_rule(kind) {
            if !addr.is_multiple_of(rule.align) {
                self.report(
                    Check::Alignment,
                    format!("block access at a pointer that breaks {}", rule.cite()),
                    Some(addr),
                    self.describe(addr),
                );
            }
        }
    }

    /// Whether `addr` lies within 2 GiB below an allocation's start or in one: where a negative
    /// 32-bit offset from it lands once unwrapped.
    fn near(&self, addr: u64) -> bool {
        match self.scope.allocations.find(addr, 1) {
            Lookup::Inside(_) => true,
            Lookup::Outside(Some(a)) => a.start > addr && a.start - addr <= 1 << 31,
            Lookup::Outside(None) => false,
        }
    }

    fn describe(&self, addr: u64) -> Option<String> {
        match self.scope.allocations.find(addr, 1) {
            Lookup::Inside(a) | Lookup::Outside(Some(a)) => Some(a.to_string()),
            Lookup::Outside(None) => None,
        }
    }

    fn slm(&mut self, offset: u32, len: usize, write: bool) {
        if self
            .scope
            .checks
            .has_any(&[Check::Initcheck, Check::Racecheck])
        {
            self.slm_shadow(offset, len, write);
        }
        if !self.scope.checks.has(Check::Memcheck) {
            return;
        }
        if write {
            // Stored bytes hold what they hold now: the send's end tags those read past an end.
            (self.group.slm_past_end).store(u64::from(offset), len as u64, None);
        }
        if let Some(size) = self.scope.slm_bytes {
            if u64::from(offset) + len as u64 > u64::from(size) {
                self.report(
                    Check::Memcheck,
                    format!(
                        "{len}-byte shared local memory access at offset {offset:#x}, beyond \
                         the work-group's {size} bytes"
                    ),
                    Some(u64::from(offset)),
                    Some(format!("shared local memory of {size} bytes")),
                );
            }
        }
    }

    /// An error the thread stopped with: a misaligned block message breaks its spec's rule.
    /// The error itself stands (the GPU error is reported as without the sanitizer).
    pub fn stopped(&mut self, e: &EuError) {
        let EuErrorKind::Misaligned { address, align } = e.kind else {
            return;
        };
        if !self.scope.checks.has(Check::Alignment) {
            return;
        }
        let kind = self
            .send
            .filter(|s| s.pc == e.offset)
            .map_or(Kind::Other, |s| s.kind);
        self.send = self.send.filter(|s| s.pc == e.offset);
        let what = match rules::address_rule(kind) {
            Some(rule) => format!("block access at a pointer that breaks {}", rule.cite()),
            None => format!(
                "misaligned access: the message needs {align}-byte aligned addresses \
                 (the thread stopped with a GPU error)"
            ),
        };
        let alloc = self.describe(address);
        self.report(Check::Alignment, what, Some(address), alloc);
    }

    /// The byte offset IGC divided by 16 for an OWord block write's header (DWord 2), when
    /// the instruction that wrote it is a `shr` by 4 of a register that still holds it.
    fn oword_byte_offset(&self, t: &Thread, ip: u32, header: usize) -> Option<u64> {
        let want = header + 8;
        let written = t.file.get(want..want + 4)?;
        let owords = u32::from_le_bytes(written.try_into().ok()?);
        let from = (ip as usize).saturating_sub(32);
        let inst = self.prog.insts[from..ip as usize]
            .iter()
            .rev()
            .find(|i| i.dst.loc == Loc::File && usize::from(i.dst.offs[0]) == want)?;
        if inst.opcode != Opcode::Shr || inst.src[0].loc != Loc::File || inst.src[1].loc != Loc::Imm
        {
            return None;
        }
        let o = usize::from(inst.src[1].offs[0]);
        if inst.src[1].imm.get(o).copied()? != 4 {
            return None;
        }
        let s = usize::from(inst.src[0].offs[0]);
        let bytes = u32::from_le_bytes(t.file.get(s..s + 4)?.try_into().ok()?);
        (bytes >> 4 == owords).then_some(u64::from(bytes))
    }

    /// alignment checks a send's header shows before any access.
    fn header_rules(&mut self, t: &Thread, ip: u32, kind: Kind, src0: usize) {
        let dw = |i: usize| {
            t.file
                .get(src0 + 4 * i..src0 + 4 * i + 4)
                .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        match kind {
            Kind::BlockWriteOwords { bti } => {
                if let Some(mut off) = self.oword_byte_offset(t, ip, src0) {
                    // Where the data port puts it: a stateless block adds the header's base.
                    if scratch::adds_block_base_offset(self.prog.platform, bti) {
                        off += scratch::block_base_offset(dw(scratch::R0_SCRATCH_POINTER));
                    }
                    if let Ok((base, _)) = self.inner.surface_span(bti) {
                        self.block_address(kind, base.wrapping_add(off));
                    }
                }
                if let Some(s) = self.send.as_mut() {
                    s.block_checked = true;
                }
            }
            Kind::MediaRead | Kind::MediaWrite => {
                if let Some(s) = self.send.as_mut() {
                    s.block_checked = true;
                }
                let x = dw(0) as i32;
                let width = (dw(2) & 0x3f) + 1;
                let height = (dw(2) >> 16 & 0x3f) + 1;
                let legal = rules::media_max_height(width).is_some_and(|h| height <= h);
                if !legal {
                    self.report(
                        Check::Alignment,
                        format!(
                            "media block of {width} bytes by {height} rows breaks {}",
                            rules::MEDIA_BLOCK_SIZE.cite()
                        ),
                        None,
                        None,
                    );
                }
                if kind == Kind::MediaWrite && x % 4 != 0 {
                    self.report(
                        Check::Alignment,
                        format!(
                            "image block write at byte x {x} breaks {}",
                            rules::IMAGE_BLOCK_WRITE_X.cite()
                        ),
                        None,
                        None,
                    );
                }
            }
            _ => {}
        }
    }

    /// memcheck: `len` bytes at `offset` of a `limit`-byte surface at `base`, past its end.
    fn surface_overrun(&mut self, base: u64, limit: u64, offset: u64, len: usize, write: bool) {
        // A 32-bit offset with its top bit set is a negative index that wrapped.
        let signed = match u32::try_from(offset) {
            Ok(o) => i64::from(o as i32),
            Err(_) => offset as i64,
        };
        let addr = base.wrapping_add(signed as u64);
        let verb = if write { "write" } else { "read" };
        let d = self.describe(addr);
        self.report(
            Check::Memcheck,
            format!(
                "{len}-byte {verb} at offset {signed} of a {limit}-byte buffer surface, past its \
                 bounds (the data port {})",
                if write { "drops it" } else { "reads zeros" }
            ),
            Some(addr),
            d,
        );
    }
}

impl Memory for Sanitizing<'_> {
    fn read(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), MemFault> {
        self.global(addr, buf.len(), false);
        if let Err(e) = self.inner.read(addr, buf) {
            self.past_end_faulted();
            return Err(e);
        }
        self.log_read(false, addr, buf);
        Ok(())
    }
    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.log_write(false, addr, data);
        self.stores(data);
        self.global(addr, data.len(), true);
        self.inner.write(addr, data)
    }
    fn slm_read(&mut self, offset: u32, buf: &mut [u8]) -> Result<(), MemFault> {
        self.slm(offset, buf.len(), false);
        self.inner.slm_read(offset, buf)?;
        self.log_read(true, u64::from(offset), buf);
        Ok(())
    }
    fn slm_write(&mut self, offset: u32, data: &[u8]) -> Result<(), MemFault> {
        self.log_write(true, u64::from(offset), data);
        self.stores(data);
        self.slm(offset, data.len(), true);
        self.inner.slm_write(offset, data)
    }
    crate::sanitize::forward_state_lookups!(inner);
    fn atomic(
        &mut self,
        addr: u64,
        width: usize,
        update: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<u64, MemFault> {
        // The old word's state before the atomic marks it written.
        let mut mask = [0u8; 8];
        let logs = self.logs();
        if logs && self.scope.checks.has(Check::Initcheck) {
            self.undefined_mask(false, addr, &mut mask[..width.min(8)]);
        }
        let racecheck = self.scope.checks.has(Check::Racecheck);
        if racecheck {
            (self.group.clocks).atomic(self.place.thread as usize, false, addr);
        }
        self.global_access(addr, width, true, true);
        let old = if racecheck {
            // The location's clock is locked while the atomic is performed: the releases it
            // reads are those of the atomics before it there.
            let mut locations = self.scope.races.locations.lock(addr);
            let at = locations.entry(addr).or_default();
            (self.group.clocks).global_atomic(self.place.thread as usize, at);
            self.inner.atomic(addr, width, update)?
        } else {
            self.inner.atomic(addr, width, update)?
        };
        if logs {
            self.log
                .atomic(addr, width.min(8), old, &mask[..width.min(8)], update(old));
        }
        Ok(old)
    }
    fn read_all(&mut self, addr: u64, buf: &mut [u8]) -> bool {
        // Checked only when it happened: otherwise the one-by-one accesses follow.
        let done = self.inner.read_all(addr, buf);
        if done {
            self.global(addr, buf.len(), false);
            self.log_read(false, addr, buf);
        }
        done
    }
    fn write_all(&mut self, addr: u64, data: &[u8]) -> bool {
        let done = self.inner.write_all(addr, data);
        if done {
            self.log_write(false, addr, data);
            self.stores(data);
            self.global(addr, data.len(), true);
        }
        done
    }
    fn surface_read_all(&mut self, bti: u32, offset: u64, align: u64, buf: &mut [u8]) -> bool {
        let Ok((base, width)) = self.inner.surface_span(bti) else {
            return false;
        };
        if !span_fits(base, width, offset, align, buf.len()) {
            return false;
        }
        let done = self.inner.surface_read_all(bti, offset, align, buf);
        if done {
            self.global(base.wrapping_add(offset), buf.len(), false);
            self.log_read(false, base.wrapping_add(offset), buf);
        }
        done
    }
    fn surface_write_all(&mut self, bti: u32, offset: u64, align: u64, data: &[u8]) -> bool {
        let Ok((base, width)) = self.inner.surface_span(bti) else {
            return false;
        };
        if !span_fits(base, width, offset, align, data.len()) {
            return false;
        }
        let done = self.inner.surface_write_all(bti, offset, align, data);
        if done {
            self.log_write(false, base.wrapping_add(offset), data);
            self.stores(data);
            self.global(base.wrapping_add(offset), data.len(), true);
        }
        done
    }
    fn slm_read_all(&mut self, offset: u32, buf: &mut [u8]) -> bool {
        let done = self.inner.slm_read_all(offset, buf);
        if done {
            self.slm(offset, buf.len(), false);
            self.log_read(true, u64::from(offset), buf);
        }
        done
    }
    fn slm_write_all(&mut self, offset: u32, data: &[u8]) -> bool {
        let done = self.inner.slm_write_all(offset, data);
        if done {
            self.log_write(true, u64::from(offset), data);
            self.stores(data);
            self.slm(offset, data.len(), true);
        }
        done
    }
    fn barrier_signal(&mut self) {
        self.inner.barrier_signal()
    }
    fn fence(&mut self, global: bool) {
        // Only a fence of global memory beyond the work-group orders across groups.
        if global && self.scope.checks.has(Check::Racecheck) {
            self.group.clocks.fence(self.place.thread as usize);
        }
        self.inner.fence(global)
    }
    fn slm_atomic(&mut self, offset: u32) {
        if self.scope.checks.has(Check::Racecheck) {
            (self.group.clocks).atomic(self.place.thread as usize, true, u64::from(offset));
        }
        self.slm_atomic = Some(offset);
        self.inner.slm_atomic(offset)
    }
    fn out_of_surface(&mut self, base: u64, limit: u64, offset: u64, len: usize, w: bool) -> u8 {
        if self.logs() {
            self.log.outside(base.wrapping_add(offset), len);
        }
        if !self.scope.checks.has(Check::Memcheck) {
            return 0;
        }
        // IGC pads uniform loads and reads OWord blocks whole, relying on the surface's bounds
        // check for the rest: such a read's bytes past the end are followed to their use
        // (`past_end`). A negative offset (top bit set: an index before the buffer) is never
        // padding.
        let padding = !w && offset < 1 << 31;
        if let Some(s) = self.send.as_mut().filter(|s| s.defers && padding) {
            s.past_end
                .get_or_insert((base.wrapping_add(offset.max(limit)), len));
            return 0;
        }
        self.surface_overrun(base, limit, offset, len, w);
        0
    }

    fn after_send(&mut self, t: &Thread, ip: u32, mask: u32) {
        if self.scope.checks.has(Check::Initcheck) {
            self.send_ends(t, ip, mask);
        }
        if self.scope.checks.has(Check::Memcheck) {
            self.past_end_ends(t, ip, mask);
        }
    }
    fn out_of_image(&mut self, o: &OutOfImage) {
        self.inner.out_of_image(o);
        if !self.scope.checks.has(Check::Memcheck) {
            return;
        }
        let verb = if o.write { "write" } else { "read" };
        let at = o.texel[..o.coords.min(4)]
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let [w, h, d] = o.size;
        let bounds = if o.size == [0; 3] {
            "past the image's last level of detail".to_string()
        } else {
            format!("outside its {w}x{h}x{d} level")
        };
        let d = self.describe(o.base);
        self.report(
            Check::Memcheck,
            format!(
                "image {verb} of texel ({at}) {bounds}: undefined in OpenCL (the data port {})",
                if o.write { "drops it" } else { "reads zeros" }
            ),
            Some(o.base),
            d,
        );
    }
    fn observes_sends(&self) -> bool {
        true
    }
    fn on_indirect(&mut self, t: &Thread, ip: u32, mask: u32) {
        let off = collective::disabled(t);
        if off == 0 || !self.scope.checks.has(Check::Synccheck) {
            return;
        }
        let Some(inst) = self.prog.insts.get(ip as usize) else {
            return;
        };
        // Worked out once per instruction and thread run (a loop repeats the read).
        let source = match self.sources.iter().find(|(i, _)| *i == ip) {
            Some(&(_, s)) => s,
            None => {
                let s = collective::source(self.prog, ip as usize);
                self.sources.push((ip, s));
                s
            }
        };
        let Some(source) = source else {
            return;
        };
        if let Some((reader, read)) = collective::reads_disabled_lane(t, inst, source, mask) {
            let what = collective::shuffle_sentence(
                self.place.thread,
                t.active & t.live,
                off,
                reader,
                read,
            );
            self.report_inst(Check::Synccheck, ip, mask, what);
        }
    }
    fn on_send(&mut self, t: &Thread, ip: u32, mask: u32) {
        let Some(inst) = self.prog.insts.get(ip as usize) else {
            return;
        };
        let Some(plan) = inst.send.as_ref() else {
            return;
        };
        let kind = match plan.desc {
            isa_encoder::model::SendDesc::Imm(desc) => {
                rules::classify(self.prog.platform, plan.sfid, desc, self.scope.simd)
            }
            isa_encoder::model::SendDesc::Reg(_) => Kind::Other,
        };
        self.send = Some(Send {
            pc: inst.pc,
            mask,
            kind,
            block_checked: false,
            spill: false,
            image: matches!(plan.shared, Some(Sfid::Sampler | Sfid::Tgm)),
            defers: inst.no_mask || kind == Kind::BlockRead,
            past_end: None,
            pending: false,
            slm_tag: None,
        });
        self.slm_atomic = None;
        self.dispatched = t.dispatched_scratch;
        if let isa_encoder::model::SendDesc::Imm(desc) = plan.desc {
            if plan.shared == Some(Sfid::Dc0) && crate::dataport::scratch::is_scratch(desc) {
                if let Some(s) = self.send.as_mut() {
                    s.spill = true;
                }
            }
            let barrier =
                plan.shared == Some(Sfid::Gateway) && desc & 7 == gateway::GATEWAY_BARRIER;
            if barrier {
                let thread = self.place.thread as usize;
                self.group.signal(
                    self.scope.checks,
                    thread,
                    inst.pc,
                    t.active,
                    t.live,
                    self.findings,
                );
            }
            let off = collective::disabled(t);
            if off != 0 && self.scope.checks.has(Check::Synccheck) {
                let spill = self.send.is_some_and(|s| s.spill)
                    || collective::is_surface_state_lsc(self.prog.platform, plan.sfid, desc);
                if collective::is_block_collective(kind, spill) {
                    let what =
                        collective::block_sentence(kind, self.place.thread, t.active & t.live, off);
                    self.report(Check::Synccheck, what, None, None);
                }
            }
        }
        if self.scope.checks.has(Check::Alignment) {
            self.header_rules(t, ip, kind, usize::from(plan.src0_reg) * REG_BYTES);
        }
        if self.tracks_registers() {
            self.send_begins(t, ip);
        }
    }
    fn tracks_registers(&self) -> bool {
        // memcheck follows bytes read past a buffer's end as initcheck follows undefined ones.
        (self.scope.checks).has_any(&[Check::Initcheck, Check::Memcheck])
    }
    fn registers_clean(&self) -> bool {
        let th = self.place.thread as usize;
        self.group.regs.get(th).is_none_or(|r| r.is_clean())
            && self
                .group
                .past_end
                .get(th)
                .is_none_or(|p| p.regs.is_clean())
    }
    fn on_inst(&mut self, t: &Thread, ip: u32, enabled: u32, pred: u32) {
        let th = self.place.thread as usize;
        let Some(inst) = self.prog.insts.get(ip as usize) else {
            return;
        };
        if let Some(p) = self.group.past_end.get_mut(th) {
            if !p.regs.is_clean() {
                if let Some(used) = follow(&mut p.regs, t, inst, enabled, pred) {
                    self.past_end_used(ip, inst.opcode.mnemonic(), used);
                }
            }
        }
        let Some(shadow) = self.group.regs.get_mut(th) else {
            return;
        };
        if shadow.is_clean() {
            return;
        }
        match follow(shadow, t, inst, enabled, pred) {
            Some(Use::Branch(lanes, _)) => self.report_inst(
                Check::Initcheck,
                ip,
                lanes,
                format!(
                    "control flow ({}) decided by a value derived from memory never written",
                    inst.opcode.mnemonic()
                ),
            ),
            Some(Use::IndirectAddress(lanes, _)) => self.report_inst(
                Check::Initcheck,
                ip,
                lanes,
                "indirect register address (a0) derived from memory never written".into(),
            ),
            None => {}
        }
    }
}

/// Follows the ALU or branch instruction `inst` through `shadow`: the use it makes of a value
/// the shadow marks, if any.
fn follow(
    shadow: &mut super::regs::RegShadow,
    t: &Thread,
    inst: &crate::program::Inst,
    enabled: u32,
    pred: u32,
) -> Option<Use> {
    match inst.opcode.shape() {
        Shape::Branch => shadow.branch(inst, enabled),
        Shape::Ternary if matches!(inst.opcode, Opcode::Dpas | Opcode::Dpasw) => None,
        Shape::Unary | Shape::Binary | Shape::Ternary => shadow.alu(t, inst, enabled, pred),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataport::NoMemory;
    use crate::sanitize::Allocation;
    use platform::Platform;

    fn scope() -> Scope {
        Scope {
            checks: Checks::NONE.with(Check::Memcheck).with(Check::Alignment),
            allocations: Allocations::new(vec![
                Allocation {
                    start: 0x1000,
                    size: 0x1000,
                    label: "GEM object".into(),
                    read_only: false,
                    exact: false,
                    freed: false,
                },
                Allocation {
                    start: 0x1000,
                    size: 100,
                    label: "buffer".into(),
                    read_only: true,
                    exact: true,
                    freed: false,
                },
            ]),
            slm_bytes: Some(256),
            per_thread: Vec::new(),
            slots: Slots::default(),
            written: Vec::new(),
            races: GlobalCells::default(),
            entry: 0,
            simd: None,
        }
    }

    /// Runs `f` on a sanitizing memory over `mem` with [`scope`]; gives the findings.
    fn sanitized(
        mem: &mut dyn Memory,
        prog: &Program,
        f: impl FnOnce(&mut Sanitizing),
    ) -> Vec<Finding> {
        let scope = scope();
        let mut findings = Findings::default();
        let mut group = Group::default();
        let mut s = Sanitizing::new(
            mem,
            prog,
            &scope,
            Place::default(),
            &mut findings,
            &mut group,
        );
        f(&mut s);
        drop(s);
        findings.into_vec()
    }

    #[test]
    fn accesses_are_checked_at_byte_granularity_and_passed_on() {
        let prog = Program::decode(Platform::Tgllp, &[]);
        let f = sanitized(&mut NoMemory, &prog, |s| {
            let mut buf = [0u8; 4];
            // Inside: no finding (NoMemory still faults: the access is passed on unchanged).
            assert!(s.read(0x1000 + 96, &mut buf).is_err());
            // The buffer's last 2 bytes and 2 of padding; a write to the read-only buffer.
            let _ = s.read(0x1000 + 98, &mut buf);
            let _ = s.write(0x1000, &buf);
            // SLM: the last int is fine, one past it not.
            let _ = s.slm_read(252, &mut buf);
            let _ = s.slm_write(256, &buf);
            // Past a surface: a negative 32-bit offset is reported where it points.
            s.out_of_surface(0x1000, 100, 0xffff_fffc, 4, false);
        });
        assert_eq!(f.len(), 1, "{f:?}");
        // One instruction (none: offset u32::MAX here), one check: counted.
        assert_eq!(f[0].count, 4);
        assert_eq!(f[0].check, Check::Memcheck);
        assert_eq!(f[0].address, Some(0x1000 + 98));
    }

    /// Index 255's space from General State Base Address 0x800; anything else is `NoMemory`'s
    /// fault.
    struct General;

    impl Memory for General {
        fn read(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), MemFault> {
            crate::NoMemory.read(addr, buf)
        }
        fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
            crate::NoMemory.write(addr, data)
        }
        fn slm_read(&mut self, offset: u32, buf: &mut [u8]) -> Result<(), MemFault> {
            crate::NoMemory.slm_read(offset, buf)
        }
        fn slm_write(&mut self, offset: u32, data: &[u8]) -> Result<(), MemFault> {
            crate::NoMemory.slm_write(offset, data)
        }
        fn surface(&mut self, bti: u32) -> Result<Surface, MemFault> {
            match bti {
                255 => Ok(Surface::buffer(0x800, 1 << 40)),
                _ => crate::NoMemory.surface(bti),
            }
        }
        fn surface_state(&mut self, offset: u32) -> Result<Surface, MemFault> {
            crate::NoMemory.surface_state(offset)
        }
    }

    #[test]
    fn a_misaligned_stateless_oword_write_is_reported_where_the_data_port_puts_it() {
        // IGC's form: the byte offset shifted to OWords into the header (r0's copy, r2).
        let code = isa_encoder::assemble(
            Platform::Tgllp,
            "(W) shr (1|M0) r2.2<1>:ud r10.0<0;1,0>:ud 0x4:ud\n\
             (W) send.dc0 (8|M0) null r2 r3 0x40 0x020A02FF\n",
        )
        .unwrap();
        let prog = Program::decode(Platform::Tgllp, &code);
        let f = sanitized(&mut General, &prog, |s| {
            let mut t = Thread::new(0xff);
            let put = |t: &mut Thread, at: usize, v: u32| {
                t.file_mut()[at..at + 4].copy_from_slice(&v.to_le_bytes());
            };
            put(&mut t, 10 * REG_BYTES, 0x104);
            put(&mut t, 2 * REG_BYTES + 8, 0x10);
            // The header's DWord 5: slice pointer 0x400, FFTID 3.
            put(&mut t, 2 * REG_BYTES + 20, 0x403);
            s.header_rules(&t, 1, Kind::BlockWriteOwords { bti: 255 }, 2 * REG_BYTES);
        });
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].check, Check::Alignment);
        assert_eq!(f[0].address, Some(0x800 + 0x400 + 0x104));
    }

    #[test]
    fn unwrapped_negative_offsets_name_the_buffer_before_them() {
        let prog = Program::decode(Platform::Dg2, &[]);
        let f = sanitized(&mut NoMemory, &prog, |s| {
            let mut buf = [0u8; 4];
            // LSC through a binding table: base 0x1000 + 0xfffffffc, no bounds check.
            let _ = s.read(0x1000 + 0xffff_fffc, &mut buf);
        });
        assert_eq!(f[0].address, Some(0xffc));
        assert!(f[0]
            .allocation
            .as_deref()
            .unwrap()
            .starts_with("buffer of 100 bytes"));
        assert!(f[0].what.contains("negative 32-bit offset"));
    }
}
