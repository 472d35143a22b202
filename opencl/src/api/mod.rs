//! The C ABI's plumbing: how an entry point is written ([`entry`]) and the call trace
//! ([`trace`]).

pub mod entry;
pub mod trace;
