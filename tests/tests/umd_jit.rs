//! The conformance corpus through umd on the simulator with its translated code on
//! (`sim-jit`: straight-line ALU runs as host code, the rest interpreted) and every kernel
//! translated before its first run (the corpus's small kernels would otherwise never get
//! hot enough to translate), checked against the same CPU references as the interpreter's
//! run (`umd_path`). `sim-jit`'s proptests compare
//! the two on random instruction sequences; this runs them on ocloc's kernels.

use conformance::compile::Compiler;
use conformance::runner::{Runner, Umd, Via};
use oracles::ocloc::Format;
use platform::Platform;
use umd::device::KmdChoice;

fn corpus(p: Platform, kmd: KmdChoice) {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let compiler = Compiler::shared(ocloc);
    let work = tempfile::tempdir().unwrap();
    let report =
        conformance::suite::run(p, &compiler, Format::PatchTokens, 1, work.path(), &|| {
            Umd::via(p, kmd, Via::JitEveryKernel).map(|u| Box::new(u) as Box<dyn Runner>)
        });
    report.finish(&format!(
        "{} {} via umd, every kernel translated (patch tokens)",
        p.name(),
        kmd.name()
    ));
}

conformance::device_tests!(corpus: skl_i915 Skl I915, icllp_i915 Icllp I915,
    tgllp_xe Tgllp Xe, dg2_xe Dg2 Xe);
