//! opencl's integration tests as one binary: each module is one file of `tests/`
//! (one compile of the shared helpers and one link, instead of one per file). A new
//! file of tests is a `mod` line here (`scripts/check-test-files` finds one left out).

mod in_process;
mod support;

mod bad_handles;
mod c_client;
mod clinfo;
mod compiler_cache;
mod events;
mod host_commands;
mod host_images;
mod image_buffers;
mod image_objects;
mod image_queries;
mod intel_ext;
mod lifetimes;
mod program_rebuild;
mod programs;
mod samplers;
mod source_lines;
mod trace;
mod unresolved_externals;
mod usm;
