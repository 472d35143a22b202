//! sim-eu's integration tests as one binary: each module is one file of `tests/`
//! (one compile of the shared helpers and one link, instead of one per file). A new
//! file of tests is a `mod` line here (`scripts/check-test-files` finds one left out).

mod arf_writes;
mod begin;
mod block_read_channel_mask;
mod block_write_channel_mask;
mod call_under_divergence;
mod csel_without_condition;
mod dpas;
mod float_condition_flags;
mod int64_to_float;
mod jmpi_register;
mod large_grf;
mod mach_accumulator;
mod math_macro_operands;
mod read_first;
mod sel_min_max;
mod sends_without_channels;
mod signed_source_modifiers;
mod stateless_block_base_offset;
mod vertical_predicates;
