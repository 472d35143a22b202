//! The generated corpus (`conformance::generate`: every built-in × type × control × alignment,
//! and big many-section kernels) through umd → batchbuffer → kmd-iface → simulator, in
//! process, patch-token binaries: sim:skl and sim:icllp through i915, sim:tgllp and sim:dg2
//! through xe (the hand-listed corpus covers every KMD; this covers the cross product).

use conformance::compile::Compiler;
use conformance::runner::{Runner, Umd};
use oracles::ocloc::Format;
use platform::Platform;
use umd::device::KmdChoice;

fn generated(p: Platform, kmd: KmdChoice) {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let compiler = Compiler::shared(ocloc);
    let files = conformance::generate::files().expect("the generator's files parse");
    let work = tempfile::tempdir().unwrap();
    let report = conformance::suite::run_files(
        p,
        &compiler,
        Format::PatchTokens,
        1,
        work.path(),
        &files,
        &|| Umd::new(p, kmd).map(|u| Box::new(u) as Box<dyn Runner>),
    );
    report.finish(&format!(
        "generated {} {} via umd (patch tokens)",
        p.name(),
        kmd.name()
    ));
}

conformance::device_tests!(generated: skl_i915 Skl I915, icllp_i915 Icllp I915,
    tgllp_xe Tgllp Xe, dg2_xe Dg2 Xe);
