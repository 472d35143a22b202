//! The user-mode driver. So far: kernels from ocloc's device binaries ([`program`]) and the
//! subgroup queries that depend only on the compiled kernel.

pub mod program;
