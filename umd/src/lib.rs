//! The user-mode driver. So far: kernels from ocloc's device binaries ([`program`]) and the
//! subgroup queries that depend only on the compiled kernel.

pub mod program;

pub mod blockio;
pub mod device;
pub mod dispatch;
pub mod error;
pub mod fuzz;
pub mod image;
pub mod kernel;
pub mod limits;
pub mod memory;
pub mod ndrange;
pub mod payload;
pub mod scratch;
pub mod segments;

pub use error::{Error, Result};
