//! What the sanitizer keeps for the work-group being run: its shared local memory's shadow
//! (bytes written: initcheck; accesses: racecheck), each thread's written private bytes, the
//! barriers passed (racecheck's epochs), and where each thread signalled the barrier
//! (synccheck). The dispatcher keeps one per host thread and restarts it for each group.

use super::checks::{Check, Checks};
use super::finding::{Finding, Findings};
use super::past_end::{PastEnd, SlmPastEnd};
use super::race_cells::Cells;
use super::race_sync::Clocks;
use super::regs::RegShadow;
use super::shadow::{Defined, Sparse};
use crate::regfile::Thread;

/// A thread object initcheck replays sends on, kept between them (it is large).
#[derive(Default, Clone)]
pub(crate) struct Spare(pub(crate) Option<Thread>);

impl std::fmt::Debug for Spare {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Spare")
    }
}

#[derive(Debug)]
pub struct Group {
    pub(crate) id: [u32; 3],
    /// The group's ordinal in the walker plus one (racecheck's name for it).
    pub(crate) key: u32,
    /// Barriers the gateway released so far.
    pub(crate) epoch: u32,
    pub(crate) slm_defined: Defined,
    pub(crate) slm_cells: Cells,
    /// racecheck's ordering through atomics and fences of the group's threads.
    pub(crate) clocks: Clocks,
    /// Per thread: the private-memory bytes it wrote.
    pub(crate) private: Vec<Sparse>,
    /// Per thread: the offset of the barrier `send` it signalled, until the gateway releases it.
    pub(crate) barrier_at: Vec<Option<u32>>,
    /// Per thread: which register bytes hold undefined values (initcheck).
    pub(crate) regs: Vec<RegShadow>,
    /// Per thread: which register bytes hold bytes read past a buffer's end (memcheck).
    pub(crate) past_end: Vec<PastEnd>,
    /// Which SLM bytes hold bytes read past a buffer's end (memcheck).
    pub(crate) slm_past_end: SlmPastEnd,
    pub(crate) spare: Spare,
}

impl Default for Group {
    fn default() -> Self {
        Group {
            id: [0; 3],
            key: 0,
            epoch: 0,
            slm_defined: Defined::new(0, false),
            slm_cells: Cells::default(),
            clocks: Clocks::default(),
            private: Vec::new(),
            barrier_at: Vec::new(),
            regs: Vec::new(),
            past_end: Vec::new(),
            slm_past_end: SlmPastEnd::default(),
            spare: Spare::default(),
        }
    }
}

impl Group {
    /// Restarts for group `id`, the `ordinal`-th of its walker, with `threads` hardware
    /// threads and `slm` bytes of shared local memory (all unwritten).
    pub fn start(
        &mut self,
        checks: Checks,
        id: [u32; 3],
        ordinal: u64,
        threads: usize,
        slm: usize,
    ) {
        self.id = id;
        self.key = (ordinal as u32).wrapping_add(1).max(1);
        self.epoch = 0;
        if checks.has(Check::Initcheck) {
            if self.slm_defined.len() == slm as u64 {
                self.slm_defined.clear();
            } else {
                self.slm_defined = Defined::new(slm as u64, false);
            }
        }
        if checks.has(Check::Racecheck) {
            self.slm_cells.reset(slm);
            self.clocks.reset(threads, self.key);
        }
        if checks.has(Check::Initcheck) {
            self.regs.resize_with(threads, RegShadow::default);
            self.regs.iter_mut().for_each(RegShadow::clear);
        }
        if checks.has(Check::Memcheck) {
            self.past_end.resize_with(threads, PastEnd::default);
            self.past_end.iter_mut().for_each(PastEnd::clear);
            self.slm_past_end.reset(slm);
        }
        self.private.resize_with(threads, Sparse::default);
        self.private.iter_mut().for_each(Sparse::clear);
        self.barrier_at.clear();
        self.barrier_at.resize(threads, None);
    }

    /// The gateway releases the barrier every running thread of `threads` waits at (an ended
    /// thread counts as arrived). synccheck: a thread that ended instead, or threads waiting
    /// at different barriers, are findings (the offsets their sentences name shifted by
    /// `entry`, the walker's start in the kernel binary). Then a new epoch begins.
    pub fn release(
        &mut self,
        checks: Checks,
        entry: u32,
        threads: &[Thread],
        findings: &mut Findings,
    ) {
        if checks.has(Check::Synccheck) {
            self.check_release(entry, threads, findings);
        }
        self.epoch += 1;
        self.barrier_at.iter_mut().for_each(|b| *b = None);
    }

    fn check_release(&self, entry: u32, threads: &[Thread], findings: &mut Findings) {
        let waiting: Vec<(usize, u32)> = threads
            .iter()
            .enumerate()
            .filter(|(_, t)| t.barrier_pending())
            .filter_map(|(i, _)| self.barrier_at.get(i).copied().flatten().map(|pc| (i, pc)))
            .collect();
        let Some(&(first, at)) = waiting.first() else {
            return;
        };
        let names: Vec<String> = waiting.iter().map(|(i, _)| i.to_string()).collect();
        for (i, t) in threads.iter().enumerate() {
            if t.is_ended() && !t.barrier_pending() {
                findings.add(self.finding(
                    at,
                    i,
                    t.live,
                    format!(
                        "sub-group {i} ended without reaching the barrier sub-group(s) {} wait \
                         at (every work-item of a work-group must reach each barrier)",
                        names.join(", ")
                    ),
                ));
            }
        }
        for &(i, pc) in &waiting {
            if pc != at {
                findings.add(self.finding(
                    pc,
                    i,
                    threads[i].live,
                    format!(
                        "sub-group {i} waits at the barrier at offset {:#x} while sub-group \
                         {first} waits at the one at offset {:#x}: the work-group reached \
                         different barriers",
                        pc.wrapping_add(entry),
                        at.wrapping_add(entry)
                    ),
                ));
            }
        }
    }

    /// A thread signals the barrier with the `send` at `pc`; synccheck: only some of its lanes
    /// (`active` of `live`) execute it.
    pub(crate) fn signal(
        &mut self,
        checks: Checks,
        thread: usize,
        pc: u32,
        active: u32,
        live: u32,
        findings: &mut Findings,
    ) {
        if let Some(b) = self.barrier_at.get_mut(thread) {
            *b = Some(pc);
        }
        if checks.has(Check::Synccheck) && active & live != live {
            findings.add(self.finding(
                pc,
                thread,
                active,
                format!(
                    "barrier in divergent control flow: lanes {:#x} of sub-group {thread} reach \
                     it, lanes {:#x} do not",
                    active & live,
                    live & !active
                ),
            ));
        }
    }

    fn finding(&self, pc: u32, thread: usize, lanes: u32, what: String) -> Finding {
        Finding {
            check: Check::Synccheck,
            kernel: String::new(),
            offset: pc,
            source: None,
            disassembly: String::new(),
            what,
            group: self.id,
            thread: thread as u32,
            lanes,
            address: None,
            allocation: None,
            count: 1,
        }
    }
}
