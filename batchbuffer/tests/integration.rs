//! batchbuffer's integration tests as one binary: each module is one file of `tests/`
//! (one compile of the shared helpers and one link, instead of one per file). A new
//! file of tests is a `mod` line here (`scripts/check-test-files` finds one left out).

mod common;

mod base_address_update;
mod builder;
mod decode;
mod device_limits;
mod genxml_crosscheck;
mod golden_headers;
mod group_limits;
mod identify;
mod load_register_imm;
mod roundtrip;
mod scratch;
mod walker_math;
