//! The sanitizer's EU side: checks of every data-port access a kernel's thread makes,
//! reported as findings without changing what the kernel computes.
//!
//! The dispatcher runs a thread against [`Sanitizing`] (a [`crate::Memory`] wrapping the
//! thread's memory) only when the sanitizer is on; the interpreter tells a memory about each
//! send only when it asks ([`crate::Memory::observes_sends`], read once per run), so a
//! dispatch without the sanitizer runs as before.
//!
//! - [`checks`]: the checks by name (`memcheck`, `alignment`; the others are refused).
//! - [`alloc`]: the allocations at byte granularity.
//! - [`rules`]: the block-IO rules of the Intel extension specs and the messages they govern.
//! - [`finding`]: what a finding holds, its text and JSON forms.
//! - [`memory`]: the checking memory.

pub mod alloc;
pub mod checks;
pub mod finding;
pub mod memory;
pub mod rules;

pub use alloc::{Allocation, Allocations, Lookup};
pub use checks::{Check, Checks, ChecksError};
pub use finding::{Finding, Findings};
pub use memory::{Place, Sanitizing, Scope};
