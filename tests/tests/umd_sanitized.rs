//! The conformance corpus through umd on the simulator with every sanitizer check on: its
//! kernels must give no finding (no false positives) but the one spec violation the corpus
//! holds, and the same results as without the sanitizer.
//!
//! That violation: `block_write_uchar_uchar_intel_sub_group_block_write_uc` at SIMD8 writes
//! each sub-group's 8-byte block at `out + 8 * sub-group`, so every odd sub-group's pointer is
//! 8 bytes off the 16-byte boundary cl_intel_subgroups_char requires of block writes ("p must
//! be aligned to a 128-bit (16-byte) boundary"). It works on every simulated platform because
//! IGC never sends an 8-byte block as an OWord block message: Gen9–Gen12LP get a byte scatter
//! (not a block message, so the sanitizer cannot see the rule there), Xe-HPG a
//! `store.ugm.d64x1t`, whose data-port rule is 8 bytes; there the sanitizer reports it.

use conformance::compile::Compiler;
use conformance::runner::{Runner, Umd, Via};
use oracles::ocloc::Format;
use platform::Platform;
use umd::device::KmdChoice;

fn corpus(p: Platform, kmd: KmdChoice) {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let compiler = Compiler::shared(ocloc);
    let work = tempfile::tempdir().unwrap();
    let log = work.path().join("findings.jsonl");
    let report =
        conformance::suite::run(p, &compiler, Format::PatchTokens, 1, work.path(), &|| {
            Umd::via(p, kmd, Via::Sanitized(log.clone())).map(|u| Box::new(u) as Box<dyn Runner>)
        });
    let findings = std::fs::read_to_string(&log).unwrap_or_default();
    let unexpected: Vec<&str> = findings.lines().filter(|l| !known_violation(l)).collect();
    assert!(
        unexpected.is_empty(),
        "{p}: findings on correct kernels:\n{}",
        unexpected.join("\n")
    );
    report.finish(&format!(
        "{} {} via umd, sanitized (patch tokens)",
        p.name(),
        kmd.name()
    ));
}

/// The corpus's uchar block write at an 8-byte-aligned pointer (see the top of this file).
fn known_violation(line: &str) -> bool {
    let f: serde_json::Value = serde_json::from_str(line).unwrap();
    f["check"] == "alignment"
        && f["kernel"] == "block_write_uchar_uchar_intel_sub_group_block_write_uc"
        && f["address"].as_u64().is_some_and(|a| a % 16 == 8)
}

conformance::device_tests!(corpus: skl_i915 Skl I915, icllp_i915 Icllp I915,
    tgllp_xe Tgllp Xe, dg2_xe Dg2 Xe);
