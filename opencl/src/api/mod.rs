//! The C ABI: every exported entry point, one file per object family, each checking its C
//! arguments and calling [`crate::core`]; how an entry point is written ([`entry`]), the call
//! trace ([`trace`]), the sanitizer's `api` check ([`misuse`]), the C arguments every entry
//! point checks alike ([`info`]), how an enqueue hands its command to the queue ([`enqueue`])
//! and the ICD dispatch table ([`icd`]).

pub mod absent;
pub mod accelerator;
pub mod context;
pub mod device;
pub mod enqueue;
pub mod entry;
pub mod event;
pub mod icd;
pub mod image;
pub mod info;
pub mod kernel;
pub mod memory;
pub mod misuse;
pub mod platform;
pub mod program;
pub mod queue;
pub mod rect;
pub mod sampler;
pub mod timer;
pub mod trace;
pub mod usm;
