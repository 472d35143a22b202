//! The command streamer: fetches commands from the engine's ring and the user's batch buffers
//! and executes them, recording compute state and handing walkers to a [`WalkerExecutor`].
//!
//! Command layouts come from the `batchbuffer` crate (`identify` names a command and its length,
//! `Packet::unpack` reads its fields); this module holds only the behaviour.

mod blit;
mod blit_legacy;
mod block_copy;
mod compute;
mod engine_packets;
mod exec;
mod mi_ops;
mod ring;
mod watchdog;

pub use compute::{CommandLog, ComputeState, NoWalkerExecutor, Walker, WalkerExecutor};
pub use exec::{CsError, Space};
pub use ring::{EngineRing, RingRun};
pub use watchdog::{Budget, GpuTimer, HangRule, Watchdog};

#[cfg(test)]
mod tests;
