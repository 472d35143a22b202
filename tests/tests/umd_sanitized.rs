//! The conformance corpus through umd on the simulator with every sanitizer check on: correct
//! kernels must give no finding (no false positives), and the same results as without it.

use std::path::PathBuf;

use conformance::compile::Compiler;
use conformance::runner::{Runner, Umd, Via};
use oracles::ocloc::Format;
use platform::Platform;
use umd::device::KmdChoice;

fn corpus(p: Platform, kmd: KmdChoice) {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let compiler = Compiler::new(ocloc, &tmp.join("conformance-cache"));
    let work = tempfile::tempdir().unwrap();
    let log = work.path().join("findings.jsonl");
    let report =
        conformance::suite::run(p, &compiler, Format::PatchTokens, 1, work.path(), &|| {
            Umd::via(p, kmd, Via::Sanitized(log.clone())).map(|u| Box::new(u) as Box<dyn Runner>)
        });
    let findings = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        findings.is_empty(),
        "{p}: findings on correct kernels:\n{findings}"
    );
    report.finish(&format!(
        "{} {} via umd, sanitized (patch tokens)",
        p.name(),
        kmd.name()
    ));
}

conformance::device_tests!(corpus: skl_i915 Skl I915, icllp_i915 Icllp I915,
    tgllp_xe Tgllp Xe, dg2_xe Dg2 Xe);
