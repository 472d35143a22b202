//! GPU-side state shared by both personalities: engines and hardware contexts, the timestamp
//! clock, engine registers and the error log.

pub mod capture;
mod clock;
mod error;
pub mod regs;
mod submit;

pub use clock::Clock;
pub use error::{ErrorLog, GpuErrorKind, GpuErrorRecord, HangReason, KernelOffset};
pub use regs::RegisterFile;
pub use submit::{Gpu, HwContext, Job};
