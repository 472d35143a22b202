//! The conformance corpus through umd → batchbuffer → kmd-iface → simulator, in process, with
//! ocloc's default (patch-token) binaries: skl and icllp through i915; tgllp and dg2 through i915 and xe.

use conformance::compile::Compiler;
use conformance::runner::{Runner, Umd};
use oracles::ocloc::Format;
use platform::Platform;
use umd::device::KmdChoice;

fn corpus(p: Platform, kmd: KmdChoice) {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let compiler = Compiler::shared(ocloc);
    let work = tempfile::tempdir().unwrap();
    let report =
        conformance::suite::run(p, &compiler, Format::PatchTokens, 1, work.path(), &|| {
            Umd::new(p, kmd).map(|u| Box::new(u) as Box<dyn Runner>)
        });
    report.finish(&format!(
        "{} {} via umd (patch tokens)",
        p.name(),
        kmd.name()
    ));
}

conformance::device_tests!(corpus);
