//! The conformance corpus through umd on the simulator with its translated code on
//! (`sim-jit`: straight-line ALU runs as host code, the rest interpreted), checked against
//! the same CPU references as the interpreter's run (`umd_path`). `sim-jit`'s proptests compare
//! the two on random instruction sequences; this runs them on ocloc's kernels.

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
    let report =
        conformance::suite::run(p, &compiler, Format::PatchTokens, 1, work.path(), &|| {
            Umd::via(p, kmd, Via::Jit(true)).map(|u| Box::new(u) as Box<dyn Runner>)
        });
    report.finish(&format!(
        "{} {} via umd, translated code (patch tokens)",
        p.name(),
        kmd.name()
    ));
}

conformance::device_tests!(corpus: skl_i915 Skl I915, icllp_i915 Icllp I915,
    tgllp_xe Tgllp Xe, dg2_xe Dg2 Xe);
