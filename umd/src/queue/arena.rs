//! The per-submission arena: one BO holding the batch, the three state heaps and the fence,
//! and the host staging memory a batch is built in before one copy per part.

/// Layout of an arena BO: batch, then the three state heaps, then the fence.
pub const BATCH_BYTES: usize = 64 << 10;
pub const SURFACE_BYTES: usize = 64 << 10;
pub const DYNAMIC_BYTES: usize = 16 << 10;
pub const INDIRECT_BYTES: usize = 256 << 10;
pub const FENCE_BYTES: usize = 4 << 10;
pub const SURFACE_AT: usize = BATCH_BYTES;
pub const DYNAMIC_AT: usize = SURFACE_AT + SURFACE_BYTES;
pub const INDIRECT_AT: usize = DYNAMIC_AT + DYNAMIC_BYTES;
pub const FENCE_AT: usize = INDIRECT_AT + INDIRECT_BYTES;
pub const ARENA_BYTES: usize = FENCE_AT + FENCE_BYTES;
/// In the fence page: the GPU timestamps a dispatch's batch writes before and after its
/// walkers (64 bits each).
pub const START_TICKS_AT: usize = FENCE_AT + 64;
pub const END_TICKS_AT: usize = FENCE_AT + 72;

/// Host memory for building one batch and its heaps, kept by a queue across dispatches.
#[derive(Debug)]
pub struct Staging {
    pub batch: Vec<u32>,
    pub surface: Vec<u32>,
    pub dynamic: Vec<u32>,
    pub indirect: Vec<u32>,
}

impl Default for Staging {
    fn default() -> Self {
        Staging {
            batch: vec![0; BATCH_BYTES / 4],
            surface: vec![0; SURFACE_BYTES / 4],
            dynamic: vec![0; DYNAMIC_BYTES / 4],
            indirect: vec![0; INDIRECT_BYTES / 4],
        }
    }
}
