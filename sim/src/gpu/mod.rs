//! GPU-side state shared by both personalities: engines and hardware contexts, the error
//! captures the kernel drivers publish, and what the GPU asks of the driver driving it
//! ([`KernelDriver`]). The types the command streamer and the thread dispatcher share with it
//! live in their own files ([`crate::clock`], [`crate::gpu_error`], [`crate::regs`]) and are
//! re-exported here for the crate's users.

pub mod capture;
mod driver;
mod lane;
mod request;
mod submit;

pub use crate::clock::Clock;
pub use crate::gpu_error::{ErrorLog, GpuErrorKind, GpuErrorRecord, HangReason, KernelOffset};
pub use crate::regs::{self, RegisterFile};
pub use driver::KernelDriver;
pub use request::Job;
pub use submit::{Gpu, HwContext};
