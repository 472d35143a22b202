//! The user-mode driver proper: devices, memory, kernels, dispatch, queues.
//! Start reading: `device/mod.rs` (the device core), then `memory.rs`, `kernel.rs`, `queue/`,
//! `dispatch.rs`; `device/handle.rs` is the public `Device`.
//!
//! The user-mode driver: devices ([`device`]), buffers and images ([`memory`], [`image`]),
//! kernels from ocloc's device binaries, assembly or raw ISA ([`kernel`], [`program`]), and
//! dispatch: synchronous ([`device::Device::dispatch`]) or asynchronous on queues with events,
//! dependencies and host events ([`queue`]).

pub mod program;

mod batch_memo;
pub mod blockio;
pub mod device;
pub mod dispatch;
mod driver_addresses;
pub mod error;
/// Needs the simulator: it dispatches on a simulated device with short watchdogs.
#[cfg(feature = "sim")]
pub mod fuzz;
mod host_pages;
pub mod image;
pub mod kernel;
pub mod limits;
mod local_ids;
pub mod memory;
pub mod ndrange;
pub mod payload;
pub mod printf;
pub mod queue;
mod resident;
pub mod sampler;
pub mod scratch;
pub mod segments;
mod upload;
pub mod usm;

pub use error::{Error, Result};
