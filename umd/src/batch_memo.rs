//! What a queue's arenas hold from the last dispatch batch built in each, and the inputs that
//! batch was built from: lets a dispatch like the last one rewrite only what changed (see
//! [`crate::dispatch`]). Its own file so the queue keeps these without depending on dispatch.

use std::sync::{Arc, Weak};

use batchbuffer::builder::{LocalIds, Prepared, ScratchSpace};
use batchbuffer::RenderSurfaceState;

use crate::memory::Bo;

/// What an arena holds from the last batch built in it. A dispatch whose inputs equal the
/// arena's last ones (the same kernel, range, arguments and scratch: a runtime enqueueing a
/// kernel again) finds its batch and heaps already in place and rewrites only the fence
/// value, instead of encoding the state and copying it into the arena again. One that
/// differs only in what the walkers' packed state leaves in place (argument values and
/// addresses, surfaces, the group range for the same local size) rewrites just those dwords:
/// the payload's, the changed surface states' and the walker commands'.
#[derive(Debug)]
pub(crate) struct ArenaMemo {
    /// The arena. Weak: a memo never keeps an arena alive, and the arena's allocation, which
    /// identifies it, is not reused while the memo lives (a GPU address could be).
    pub arena: Weak<Bo>,
    /// The inputs the arena's batch and heaps were built from.
    pub key: BatchKey,
    /// Byte offset in the arena of the completion's 64-bit fence value.
    pub fence_value_at: usize,
    /// Dwords of the batch.
    pub batch_dwords: usize,
    /// Per walker: where its commands start in the batch (dwords), and their packed form
    /// with where its changeable parts are.
    pub walkers: Vec<(usize, Prepared)>,
}

impl ArenaMemo {
    /// Drops the memo of `arena` from `memos`: for anything that writes the arena other than a
    /// dispatch (a blit batch), after which its batch and heaps are no longer in place.
    pub(crate) fn forget(memos: &mut Vec<ArenaMemo>, arena: &Arc<Bo>) {
        memos.retain(|m| !std::ptr::eq(m.arena.as_ptr(), Arc::as_ptr(arena)));
    }
}

/// Everything a dispatch's batch and heaps are encoded from besides the arena's own
/// addresses and the fence value. A queue keeps one and refills it for each dispatch.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct BatchKey {
    pub fixed: Option<Fixed>,
    pub walkers: Vec<WalkerKey>,
    /// The walkers' payload dwords, one after another.
    pub words: Vec<u32>,
    /// The walkers' binding-table surfaces, one after another.
    pub surfaces: Vec<RenderSurfaceState>,
    /// The sampler table (the kernel's dynamic state heap with its sampler arguments): its
    /// location and count, then its DWords; empty without samplers.
    pub samplers: Option<(u32, u32)>,
    pub dsh: Vec<u32>,
}

/// One walker's region and where its payload and surfaces are in the key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct WalkerKey {
    pub local: [u32; 3],
    pub group_start: [u32; 3],
    pub group_count: [u32; 3],
    pub words: (usize, usize),
    pub surfaces: (usize, usize),
}

impl WalkerKey {
    /// The walker's group dimension is where iteration ends (start + count).
    pub(crate) fn group_end(&self) -> [u32; 3] {
        [0, 1, 2].map(|d| self.group_start[d] + self.group_count[d])
    }
}

impl BatchKey {
    /// Whether a batch built from `self` becomes `new`'s by rewriting the walkers' payload,
    /// surface states and group range: the same fixed inputs, samplers, walkers, local sizes,
    /// payload lengths and surface counts (so every heap allocation and packed field but those
    /// stays; `patch` does not rewrite the dynamic state's sampler table).
    pub(crate) fn patchable_to(&self, new: &BatchKey) -> bool {
        self.fixed == new.fixed
            && self.samplers == new.samplers
            && self.dsh == new.dsh
            && self.walkers.len() == new.walkers.len()
            && self
                .walkers
                .iter()
                .zip(&new.walkers)
                .all(|(a, b)| a.local == b.local && a.words == b.words && a.surfaces == b.surfaces)
    }
}

/// A batch's inputs shared by its walkers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Fixed {
    pub isa: (u64, usize),
    pub simd: u32,
    pub local_ids: LocalIds,
    /// Where the kernel starts in its ISA (past the per-thread load for hardware local IDs).
    pub kernel_offset: u64,
    pub inline: bool,
    pub barriers: u32,
    pub slm_bytes: u32,
    pub scratch: Option<ScratchSpace>,
    /// Threads run with the platform's Large GRF Mode (STATE_COMPUTE_MODE).
    pub large_grf: bool,
}
