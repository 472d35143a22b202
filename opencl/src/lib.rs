//! An OpenCL 3.0 installable client driver (cl_khr_icd) over umd.
//! Start reading: `icd.rs` (the dispatch table), then an object's file: its entry points and its
//! rules.
//!
//! The ICD loader finds `clIcdGetPlatformIDsKHR`, `clGetExtensionFunctionAddress` and (ocl-icd)
//! `clGetPlatformInfo` by name; every entry point is exported, bound to this library's own
//! definitions (`-Bsymbolic`, build.rs), and reached through the dispatch table every object
//! begins with ([`icd`]). Devices come from `INTEL_GPU_DEVICES` ([`platform`]); programs are
//! compiled in process by libocloc ([`compiler`]), also separately and then linked ([`link`]);
//! commands run asynchronously, in order, on a thread per queue over a umd queue ([`queue`]),
//! their events ([`event`]) moving through the statuses and firing callbacks on a runtime thread.
//!
//! Images ([`image`], [`image_formats`]) and samplers ([`sampler`]) on the devices whose
//! platform has them (`facts::Facts::images`). Not provided yet (their entry points answer with
//! the specification's error, [`absent`]): SVM, pipes, sub-devices. Out-of-order queues are accepted and executed
//! in order.

#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]

pub mod absent;
pub mod api;
pub mod binary;
pub mod compiler;
pub mod context;
pub mod device;
pub mod event;
pub mod extensions;
pub mod facts;
pub mod failure;
pub mod handle;
pub mod icd;
pub mod image;
pub mod image_formats;
pub mod image_from_buffer;
pub mod info;
pub mod kernel;
pub mod link;
pub mod memory;
pub mod platform;
pub mod program;
pub mod queue;
pub mod rect;
pub mod sampler;
pub mod spirv;
pub mod timer;
