//! The i915 kernel driver: uAPI definitions and the [`I915`] wrapper.

mod context;
mod device;
mod exec;
mod gem;
pub mod query;
pub mod reg;
pub mod uapi;

pub use context::{ContextParams, ResetStats};
pub use device::{Params, I915};
pub use exec::{Execbuf, PinnedObject};
pub use gem::{Bo, Busy, MmapMode};
pub use query::{EngineInfo, MemoryRegion, Topology};
pub use reg::RENDER_RING_TIMESTAMP;
