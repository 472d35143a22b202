//! An OpenCL 3.0 installable client driver (cl_khr_icd) over umd.
//! Start reading: `api/icd.rs` (the dispatch table), then an object family's `api/` file (its
//! entry points) and its `core/` file (the object and its rules).
//!
//! Three layers, each importing only those below it: [`api`] is the C ABI (every exported entry
//! point, written through `api::entry::entry!`, checks its C arguments and calls [`core`]);
//! [`core`] holds the objects and their rules and never names `api`; [`compiler`] is libocloc,
//! SPIR-V and binary containers, knowing no object.
//!
//! The ICD loader finds `clIcdGetPlatformIDsKHR`, `clGetExtensionFunctionAddress` and (ocl-icd)
//! `clGetPlatformInfo` by name; every entry point is exported, bound to this library's own
//! definitions (`-Bsymbolic`, build.rs), and reached through the dispatch table every object
//! begins with ([`api::icd`], [`core::handle`]). Devices come from `INTEL_GPU_DEVICES`
//! ([`core::platform`]); programs are compiled in process by libocloc ([`compiler`]), also
//! separately and then linked ([`core::link`]); commands run asynchronously, in order, on a
//! thread per queue over a umd queue ([`core::queue`]; the commands that move memory are built
//! in [`core::transfer`]), their events ([`core::event`]) moving through the statuses and firing
//! callbacks on a runtime thread.
//!
//! Images ([`core::image`], [`core::image_formats`]) and samplers ([`core::sampler`]) on the
//! devices whose platform has them (`core::facts::Facts::images`). Not provided yet (their
//! entry points answer with the specification's error, [`api::absent`]): SVM, pipes,
//! sub-devices. Out-of-order queues are accepted and executed in order.

#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]

pub mod api;
pub mod compiler;
pub mod core;
