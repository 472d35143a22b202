//! kmd-iface's integration tests as one binary: each module is one file of `tests/`
//! (one compile of the shared helpers and one link, instead of one per file). A new
//! file of tests is a `mod` line here (`scripts/check-test-files` finds one left out).

mod support;

mod discovery_fake_tree;
mod firmware_notes_pci_ids;
mod gpu_error_capture;
mod i915_wrappers;
mod layout_vs_headers;
mod parsers_never_panic;
mod query_blobs_from_headers;
mod xe_wrappers;
