//! sim's integration tests as one binary: each module is one file of `tests/`
//! (one compile of the shared helpers and one link, instead of one per file). A new
//! file of tests is a `mod` line here (`scripts/check-test-files` finds one left out).

mod common;
mod eu_support;
mod zebin;

mod async_exec;
mod base_address;
mod copy_engine;
mod cs_packets;
mod eu_alu;
mod eu_dataport;
mod eu_flow;
mod eu_goto;
mod eu_indirect;
mod eu_ocloc;
mod eu_sampler;
mod eu_scratch;
mod eu_semantics;
mod eu_typed;
mod fused_parts;
mod gem_names;
mod i915_context_params;
mod i915_exec;
mod i915_relocations;
mod image_rows;
mod legacy_mmap;
mod load_register_imm;
mod no_panic;
mod prime_fds;
mod sysfs_tree;
mod tiled_surfaces;
mod userptr;
mod validation;
mod walker_dispatch;
mod xe_exec;
mod xe_pat_coherency;
