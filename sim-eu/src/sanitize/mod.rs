//! The sanitizer's EU side: checks of every data-port access a kernel's thread makes,
//! reported as findings without changing what the kernel computes.
//!
//! The dispatcher runs a thread against [`Sanitizing`] (a [`crate::Memory`] wrapping the
//! thread's memory) only when the sanitizer is on; the interpreter tells a memory about each
//! send only when it asks ([`crate::Memory::observes_sends`], read once per run), so a
//! dispatch without the sanitizer runs as before.
//!
//! - [`checks`]: the checks by name (`memcheck`, `initcheck`, `racecheck`, `synccheck`,
//!   `alignment`; `api` is parsed here and performed by the OpenCL ICD).
//! - [`alloc`]: the allocations at byte granularity.
//! - [`slots`]: each thread's own slot of the scratch space and private buffer (memcheck).
//! - [`shadow`]: which bytes of memory were written (initcheck).
//! - [`regs`]: which register bytes and flag bits hold values derived from never-written
//!   bytes, followed through the ALU; initcheck reports only their uses (a store to global
//!   memory, an address, a branch), never the read that loaded them. A memory that follows
//!   registers ([`crate::Memory::tracks_registers`]) runs every instruction on the
//!   interpreter's general path, which then calls its hooks; otherwise they compile out.
//! - [`past_end`]: memcheck's bytes loaded from past a buffer's end by the messages IGC
//!   pads, followed through a second register shadow and reported at their use.
//! - [`replay`]: a send's accesses logged, and the send replayed with undefined bytes
//!   inverted: the bytes it loads, stores or addresses differently are those derived from
//!   undefined ones.
//! - [`race`]: which accesses are ordered (racecheck); [`race_cells`]: its dense per-granule
//!   shadow of a byte range; [`race_global`]: of the registered buffers, chunk by chunk.
//! - [`group`]: the state of the work-group being run (its SLM's shadow, each thread's private
//!   bytes, barriers: synccheck).
//! - [`collective`]: sub-group functions in divergent control flow (synccheck).
//! - [`rules`]: the block-IO rules of the Intel extension specs and the messages they govern.
//! - [`finding`]: what a finding holds, its text and JSON forms; [`source`]: the kernel's
//!   source lines that name a finding's line.
//! - [`memory`]: the checking memory.
//! - [`stats`]: execution statistics (`stats`): instructions, lanes and bytes per send type.

/// The state lookups (surfaces, samplers, scratch) of a `Memory` that wraps another in field
/// `$inner` and checks or counts only its accesses: each forwarded as it is.
macro_rules! forward_state_lookups {
    ($inner:ident) => {
        fn surface(&mut self, bti: u32) -> Result<Surface, MemFault> {
            self.$inner.surface(bti)
        }
        fn surface_span(&mut self, bti: u32) -> Result<(u64, u64), MemFault> {
            self.$inner.surface_span(bti)
        }
        fn sampler(&mut self, index: u32) -> Result<Sampler, MemFault> {
            self.$inner.sampler(index)
        }
        fn surface_state(&mut self, offset: u32) -> Result<Surface, MemFault> {
            self.$inner.surface_state(offset)
        }
        fn general_state_base(&mut self) -> Result<u64, MemFault> {
            self.$inner.general_state_base()
        }
        fn scratch_surface(&mut self, offset: u32) -> Result<ScratchSurface, MemFault> {
            self.$inner.scratch_surface(offset)
        }
        fn is_scratch_surface(&mut self, offset: u32) -> bool {
            self.$inner.is_scratch_surface(offset)
        }
    };
}
pub(crate) use forward_state_lookups;

pub mod alloc;
pub mod checks;
pub mod collective;
pub mod finding;
pub mod group;
pub mod memory;
pub mod past_end;
pub mod race;
pub mod race_cells;
pub mod race_global;
pub mod race_sync;
pub mod regs;
pub mod replay;
pub mod rules;
pub mod shadow;
pub mod slots;
pub mod source;
pub mod stats;

pub use alloc::{Allocation, Allocations, Lookup};
pub use checks::{Check, Checks, ChecksError};
pub use finding::{Finding, Findings};
pub use group::Group;
pub use memory::{Place, Sanitizing, Scope};
pub use race_global::GlobalCells;
pub use shadow::Defined;
pub use slots::Slots;
pub use source::SourceLines;
pub use stats::{Counting, ExecStats};
