//! The xe kernel driver: uAPI definitions and the [`Xe`] wrapper.

mod device;
mod exec;
mod exec_queue;
mod gem;
pub mod pat;
pub mod query;
pub mod uapi;
mod vm;

pub use device::Xe;
pub use exec::{sync, UserFenceWait};
pub use gem::GemCreate;
pub use query::{Config, TopologyMask};
pub use vm::bind_op;
