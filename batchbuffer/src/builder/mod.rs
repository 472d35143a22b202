//! The batch builder: programs compute dispatches into caller-provided memory.
//!
//! Nothing allocates: commands are packed straight into the caller's batch dwords, and state
//! (surface states, binding tables, interface descriptors, payload) goes into caller heaps at
//! fixed GPU addresses (softpin), so every address is final when written and no relocation
//! list exists.
//!
//! A batch is [`Builder::preamble`] (pipeline select, base addresses, front-end state), any
//! number of [`Builder::dispatch`] (or [`prepare`] once and [`Prepared::emit`] many times), then
//! [`Builder::finish`] (a PIPE_CONTROL whose post-sync write signals completion, then
//! MI_BATCH_BUFFER_END). The per-generation sequences follow NEO and IGT's compute batches.

mod dispatch;
mod group_limits;
mod gt_topology;
mod heap;
mod limits;
mod platform_data;
mod scratch;
mod sequence;
mod surface;
mod walk_order;
mod walker_math;

pub use dispatch::{
    prepare, DispatchDesc, Heaps, LocalIds, Prepared, SamplerTable, KERNEL_START_GRANULE,
    MAX_BINDING_TABLE_ENTRIES, MAX_INDIRECT_DATA_BYTES, MAX_SAMPLERS, SURFACE_STATE_STRIDE,
};
pub use group_limits::{max_local_total, max_threads_per_group};
pub use gt_topology::GtTopology;
pub use heap::{Batch, Heap};
pub use limits::DeviceLimits;
pub use platform_data::{gen_data, mocs_wb, GenData, WalkerKind};
pub use scratch::{
    front_end, scratch_encoding, scratch_slice_bytes, scratch_surface, FrontEnd, ScratchSpace,
};
pub use sequence::Builder;
pub use surface::{
    buffer_surface, format, linear_2d_surface, linear_image_surface, surface_type,
    typed_buffer_surface, LinearImage, MAX_BUFFER_BYTES, MAX_TYPED_BUFFER_ELEMENTS, QPITCH_UNIT,
};
pub use walk_order::{walk_dims, walk_order_of, walk_orders};
pub use walker_math::{
    grfs_per_channel, slm_encoding, walker_math, write_local_ids, Simd, WalkerMath, MAX_LOCAL_TOTAL,
};

/// Why a batch could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// A packet refused a value.
    #[error(transparent)]
    Packet(#[from] crate::Error),
    /// The batch buffer has no room for the next command.
    #[error("batch full: next command needs {need} dwords, {room} left")]
    BatchFull { need: usize, room: usize },
    /// A state heap has no room.
    #[error("{heap} heap full: needs {need} bytes of {size}")]
    HeapFull {
        heap: &'static str,
        need: usize,
        size: usize,
    },
    /// SIMD width other than 8, 16 or 32.
    #[error("SIMD{0} is not a dispatch width (8, 16 or 32)")]
    BadSimd(u32),
    /// A zero dimension or more than 1024 work-items.
    #[error("local size {0:?} is not 1..=1024 work-items with every dimension >= 1")]
    BadLocalSize([u32; 3]),
    /// A work-group needing more hardware threads than one group can have on the platform.
    #[error("local size {local:?} at SIMD{simd} needs {threads} threads, {platform} allows {max} per group")]
    GroupTooLarge {
        local: [u32; 3],
        simd: u32,
        threads: u32,
        max: u32,
        platform: platform::Platform,
    },
    /// Local-ID channels outside 1..=3.
    #[error("{0} local-ID channels (expected 1 to 3)")]
    BadLocalIdChannels(u32),
    /// More shared local memory than a group can have.
    #[error("{0} bytes of SLM exceeds 64 KiB")]
    SlmTooLarge(u32),
    /// More scratch than a thread can have.
    #[error("{0} bytes of scratch per thread exceeds 2 MiB")]
    ScratchTooLarge(u32),
    /// A scratch buffer the front end cannot point at.
    #[error("bad scratch space: {0}")]
    BadScratch(&'static str),
    /// A GT topology no device has.
    #[error("bad GT topology: {0}")]
    BadTopology(&'static str),
    /// Payload longer than the walker's Indirect Data Length field.
    #[error("payload of {0} bytes exceeds 128 KiB")]
    PayloadTooLarge(u32),
    /// Bad surface parameters.
    #[error("bad surface: {0}")]
    BadSurface(&'static str),
    /// A request this generation (or this builder) cannot program.
    #[error("unsupported: {0}")]
    Unsupported(&'static str),
}
