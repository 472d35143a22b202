//! How a thread object is made ready for a group's next EU thread: what a reused one clears,
//! its GRF size and its payload. One place for both ways through a group's first round (the
//! one-loop start through the kernel's starter and the general loop).

use std::ops::Range;

use platform::Platform;
use sim_eu::regfile::{self, ArfSet, GrfSet};
use sim_eu::{Program, Thread};

use super::payload::{self, Loader, SlotWords};
use super::state::Dispatch;
use crate::mem::GpuFault;

/// Registers between two runs a reused thread clears below which it clears them as one run
/// (eight registers, 256 bytes: a few vector stores, against a `memset` call per run).
const JOIN_GAP: usize = 8;

/// A host thread's state for readying thread objects, kept from group to group of a walker.
pub(super) struct ThreadReady {
    /// The GRF registers from r0 that payloads loaded so far wrote.
    payload_regs: usize,
    /// The GRF byte ranges a reused thread clears (with the architecture registers the
    /// program may write, [`sim_eu::Program::arf_writes`]), and the `payload_regs` they were
    /// worked out for (again only when that grows: every group's payload has one layout).
    clear: Vec<Range<usize>>,
    /// Of those, the ones a reused thread with every channel dispatched clears: the registers
    /// the program may read before writing them ([`sim_eu::Program::read_first`]).
    clear_read_first: Vec<Range<usize>>,
    clear_for: Option<usize>,
    /// The architecture-register pieces a reused thread clears: those the program may write
    /// ([`sim_eu::Program::arf_writes`]) but the ones every thread's start writes again
    /// ([`sim_eu::Program::arf_rewritten_at_start`]: the loader sets sr0's IDs for each).
    arf_clear: ArfSet,
    /// The program never writes the registers of the walker's cross-thread data
    /// ([`payload::loaded_alike`]): a thread object loaded before holds them.
    keeps_alike: bool,
    /// Per thread object: its registers hold the walker's cross-thread data, so a reload
    /// need not copy them again.
    holds_alike: Vec<bool>,
    /// What the threads in the host thread's slots get, in the group's order (every group of
    /// the walker runs in the same slots on one host thread).
    slots: Vec<SlotWords>,
    first_slot: u32,
    grf_regs: usize,
}

impl ThreadReady {
    pub(super) fn new(p: Platform, d: &Dispatch, prog: &Program) -> ThreadReady {
        ThreadReady {
            payload_regs: 0,
            clear: Vec::new(),
            clear_read_first: Vec::new(),
            clear_for: None,
            arf_clear: prog.arf_writes.without(prog.arf_rewritten_at_start),
            keeps_alike: (prog.grf_writes & payload::loaded_alike(p, d)) == GrfSet::EMPTY,
            holds_alike: Vec::new(),
            slots: Vec::new(),
            first_slot: 0,
            grf_regs: prog.grf_regs,
        }
    }

    /// Before a group: what a reused thread clears, worked out again when the payload grew
    /// (a reused thread ran this program with this payload layout: only registers those wrote
    /// can be non-zero, and those the payload rewrites whole need no clearing), and the slot
    /// words of its `n` threads from `first_slot` on.
    pub(super) fn group(
        &mut self,
        p: Platform,
        d: &Dispatch,
        prog: &Program,
        loader: &Loader<'_>,
        first_slot: u32,
    ) {
        if self.clear_for != Some(self.payload_regs) {
            let loaded = GrfSet::range(0, self.payload_regs);
            let dirty = (prog.grf_writes | loaded) & !payload::rewritten(p, d);
            self.clear.clear();
            self.clear.extend(regfile::grf_runs_joined(dirty, JOIN_GAP));
            self.clear_read_first.clear();
            let read_first = dirty & prog.read_first(d.simd);
            self.clear_read_first
                .extend(regfile::grf_runs_joined(read_first, JOIN_GAP));
            self.clear_for = Some(self.payload_regs);
        }
        let n = d.threads_per_group;
        if self.holds_alike.len() < n as usize {
            self.holds_alike.resize(n as usize, false);
        }
        if self.slots.len() != n as usize || self.first_slot != first_slot {
            self.first_slot = first_slot;
            self.slots = (0..n).map(|i| loader.slot_words(first_slot + i)).collect();
        }
    }

    /// Makes thread object `at` (`t`; `new`: just made, so already clear) the group's thread
    /// `i` with channels `mask`: cleared as a reused object (only the registers read before
    /// written when `read_first`, for a thread with every channel handed on within a group:
    /// one with channels left out may read registers the walk took as written by its other
    /// channels), the program's GRF size, its payload.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn ready(
        &mut self,
        t: &mut Thread,
        new: bool,
        at: usize,
        i: usize,
        mask: u32,
        read_first: bool,
        loader: &Loader<'_>,
    ) -> Result<(), GpuFault> {
        if !new {
            let clear = if read_first {
                &self.clear_read_first
            } else {
                &self.clear
            };
            t.reset_runs(mask, clear, self.arf_clear);
        }
        t.set_grf_regs(self.grf_regs);
        // (`group` sized both for the group's threads.)
        let held = self.holds_alike.get_mut(at).is_some_and(std::mem::take);
        let slot = match self.slots.get(i) {
            Some(&s) => s,
            None => loader.slot_words(self.first_slot + i as u32),
        };
        let regs = loader.load(t, i as u32, slot, held)?;
        if let Some(h) = self.holds_alike.get_mut(at) {
            *h = self.keeps_alike;
        }
        self.payload_regs = self.payload_regs.max(regs);
        Ok(())
    }
}
