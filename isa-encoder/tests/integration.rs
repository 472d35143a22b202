//! isa-encoder's integration tests as one binary: each module is one file of `tests/`
//! (one compile of the shared helpers and one link, instead of one per file). A new
//! file of tests is a `mod` line here (`scripts/check-test-files` finds one left out).

mod common;
mod sendmsg_support;

mod bad_input;
mod compaction;
mod corpus_a;
mod dpas;
mod forms;
mod math_macro;
mod memo;
mod native_gen12;
mod native_gen9_11;
mod proptest_iga;
mod sendmsg_build;
mod sendmsg_kernels;
mod sendmsg_oracle;
mod sendmsg_proptest;
mod sendmsg_subgroup;
