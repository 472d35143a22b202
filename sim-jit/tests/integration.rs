//! sim-jit's integration tests as one binary: each module is one file of `tests/`
//! (one compile of the shared helpers and one link, instead of one per file). A new
//! file of tests is a `mod` line here (`scripts/check-test-files` finds one left out).

mod common;

mod doubles;
mod equal_to_interpreter;
mod mad_runs;
mod run_entry;
mod word_results;
