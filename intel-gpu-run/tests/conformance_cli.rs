//! The conformance corpus (crate `conformance`, tests/conformance/*.cl) through the
//! `intel-gpu-run` binary, one process per case, as a user or script runs it: inputs and
//! outputs as files, zebin binaries (`ocloc --format zebin`); sim:skl and sim:icllp through
//! i915, sim:tgllp and sim:dg2 through i915 and xe.

use std::path::Path;

use conformance::compile::Compiler;
use conformance::runner::{Cli, Runner};
use oracles::ocloc::Format;
use platform::Platform;
use umd::device::KmdChoice;

fn corpus(p: Platform, kmd: KmdChoice) {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let compiler = Compiler::shared(ocloc);
    let work = tempfile::tempdir().unwrap();
    let exe = Path::new(env!("CARGO_BIN_EXE_intel-gpu-run"));
    let report = conformance::suite::run(p, &compiler, Format::Zebin, 1, work.path(), &|| {
        Cli::new(exe, p, kmd).map(|c| Box::new(c) as Box<dyn Runner>)
    });
    report.finish(&format!(
        "{} {} via intel-gpu-run (zebin)",
        p.name(),
        kmd.name()
    ));
}

conformance::device_tests!(corpus);

/// Every `GENERATED_EVERY`-th instance of the generated corpus (and every big kernel): the
/// whole cross product runs through umd (`conformance`'s `generated` test); this slice shows
/// the CLI, zebin and a process per case agree on it.
const GENERATED_EVERY: usize = 16;

fn generated_slice(p: Platform, kmd: KmdChoice) {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let compiler = Compiler::shared(ocloc);
    let files = conformance::generate::slice(GENERATED_EVERY).expect("the generator's files");
    let work = tempfile::tempdir().unwrap();
    let exe = Path::new(env!("CARGO_BIN_EXE_intel-gpu-run"));
    let report =
        conformance::suite::run_files(p, &compiler, Format::Zebin, 1, work.path(), &files, &|| {
            Cli::new(exe, p, kmd).map(|c| Box::new(c) as Box<dyn Runner>)
        });
    report.finish(&format!(
        "generated slice {} {} via intel-gpu-run (zebin)",
        p.name(),
        kmd.name()
    ));
}

conformance::device_tests!(generated_slice: generated_skl_i915 Skl I915, generated_dg2_xe Dg2 Xe);
