//! The simulated execution unit: program decode, interpreter, register file, data port,
//! conversions.
//! Start reading: `run` (one thread of a decoded kernel against a `Memory`).
//!
//! The EU interpreter: runs Gen9..Xe-HPG kernels, pre-decoded once with isa-encoder, on
//! simulated hardware threads, and the data port their `send`s reach.
//!
//! - [`program`]: a kernel pre-decoded into executable instructions (resolved operand byte
//!   offsets, branch targets as indices), cached per kernel address ([`ProgramCache`]).
//! - [`regfile`]: a thread's GRF and architecture registers in one byte file ([`Thread`]).
//! - [`exec`]: the run loop ([`run`]), masks, predication, control flow, and the ALU, whose
//!   handlers loop over lanes inside each opcode; `dpas` (Xe-HPG) in [`exec::dpas`], with
//!   the evidence for its layout and rounding. A thread at a `dpasw` stops
//!   ([`Status::Fused`]) until its fused EU partner is there too ([`run_fused`]: the pair
//!   shares src2); SWSB tokens are not tracked (every result is visible at once).
//! - [`dataport`]: the [`Memory`] seam the simulator implements and the messages (HDC, media
//!   block, LSC, gateway).
//! - [`error`]: [`EuError`]: the failing instruction's offset and, for memory, the address.
//! - [`sanitize`]: the sanitizer's checks of data-port accesses (a checking [`Memory`]).

pub mod convert;
pub mod dataport;
pub mod error;
pub mod exec;
pub mod ieee_macro;
pub mod lane_mask;
pub mod program;
pub mod regfile;
pub mod rounding;
pub mod sanitize;
pub mod tiling;

pub use dataport::{
    plain_atomic, ImageMips, ImageSurface, Memory, NoMemory, Sampler, ScratchSurface, Surface,
    SAMPLER_STATE_BYTES,
};
pub use error::{EuError, EuErrorKind, MemFault};
pub use exec::{run, run_counted, run_fused, waits_at_barrier, Counter, Status};
pub use program::{Program, ProgramCache};
pub use regfile::Thread;
