//! The whole corpus on one platform through one runner: compile, build cases, run, compare,
//! and count.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use oracles::ocloc::Format;
use platform::Platform;

use crate::case::Case;
use crate::compile::Compiler;
use crate::corpus::File;
use crate::runner::{Binary, Runner};

pub const SIMD_WIDTHS: [u32; 3] = [8, 16, 32];

#[derive(Debug, Default)]
pub struct Report {
    pub passed: usize,
    pub failed: Vec<String>,
    /// `kernel simdN: why` for kernels ocloc refuses at some width.
    pub rejected: Vec<String>,
    /// fp64 kernels absent because the platform has no cl_khr_fp64.
    pub absent: usize,
}

impl Report {
    pub fn summary(&self, what: &str) -> String {
        let mut s = format!(
            "conformance {what}: {} cases passed, {} failed; {} kernel/SIMD pairs rejected by ocloc; {} fp64 kernels absent (no cl_khr_fp64)",
            self.passed,
            self.failed.len(),
            self.rejected.len(),
            self.absent
        );
        for r in &self.rejected {
            s.push_str(&format!("\n  rejected: {r}"));
        }
        for f in &self.failed {
            s.push_str(&format!("\n  FAILED {f}"));
        }
        s
    }

    /// Prints the summary past libtest's capture and fails when a case failed.
    pub fn finish(&self, what: &str) {
        let s = self.summary(what);
        let _ = writeln!(std::io::stderr(), "{s}");
        assert!(self.failed.is_empty() && self.passed > 0, "{s}");
    }
}

/// Which cases to run: `CONFORMANCE_FILTER` (a substring of case names) narrows them.
fn selected(case: &Case) -> bool {
    match std::env::var("CONFORMANCE_FILTER") {
        Ok(f) if !f.is_empty() => case.name.contains(&f),
        _ => true,
    }
}

/// Runs the corpus for `p`; `runner` makes one runner per worker thread.
pub fn run(
    p: Platform,
    compiler: &Compiler,
    format: Format,
    workers: usize,
    work_dir: &Path,
    runner: &(dyn Fn() -> Result<Box<dyn Runner>, String> + Sync),
) -> Report {
    match crate::corpus::files() {
        Ok(files) => run_files(p, compiler, format, workers, work_dir, &files, runner),
        Err(e) => Report {
            failed: vec![e],
            ..Report::default()
        },
    }
}

/// `run` on some of the corpus files.
pub fn run_files(
    p: Platform,
    compiler: &Compiler,
    format: Format,
    workers: usize,
    work_dir: &Path,
    files: &[File],
    runner: &(dyn Fn() -> Result<Box<dyn Runner>, String> + Sync),
) -> Report {
    let mut report = Report::default();
    let mut binaries: Vec<Binary> = Vec::new();
    let mut work: Vec<(usize, Case)> = Vec::new();
    for file in files {
        let mut rejected_widths = std::collections::HashMap::new();
        for simd in SIMD_WIDTHS {
            let compiled = compiler.compile(p, file, simd, format);
            for (inst, why) in &compiled.rejected {
                report
                    .rejected
                    .push(format!("{} simd{simd}: {why}", inst.kernel()));
                *rejected_widths.entry(inst.kernel()).or_insert(0) += 1;
            }
            for (instances, bytes) in compiled.binaries {
                let prog = match umd::program::parse(&bytes) {
                    Ok(prog) => prog,
                    Err(e) => {
                        report.failed.push(format!("{} simd{simd}: {e}", file.name));
                        continue;
                    }
                };
                let index = binaries.len();
                for inst in &instances {
                    if prog.kernel(&inst.kernel()).is_none() {
                        if inst.fp64 && !p.has_fp64() {
                            report.absent += 1;
                        } else {
                            report.failed.push(format!(
                                "{} simd{simd}: not in ocloc's binary",
                                inst.kernel()
                            ));
                        }
                        continue;
                    }
                    match crate::cases::build(inst, simd) {
                        Ok(cases) => {
                            work.extend(cases.into_iter().filter(selected).map(|c| (index, c)))
                        }
                        Err(e) => report.failed.push(e),
                    }
                }
                let path = work_dir.join(format!("{}-{}-{simd}-{index}.bin", p.name(), file.name));
                if let Err(e) = std::fs::write(&path, &bytes) {
                    report.failed.push(format!("{}: {e}", path.display()));
                }
                let refs: Vec<&crate::corpus::Instance> = instances.iter().collect();
                binaries.push(Binary {
                    bytes,
                    path,
                    program: prog,
                    source: file.source(&refs),
                    options: crate::compile::options(simd),
                });
            }
        }
        for (k, n) in rejected_widths {
            if n == SIMD_WIDTHS.len() {
                report
                    .failed
                    .push(format!("{k}: ocloc rejects it at every SIMD width"));
            }
        }
    }
    let next = AtomicUsize::new(0);
    let results = Mutex::new((0usize, Vec::new()));
    std::thread::scope(|s| {
        for _ in 0..workers.max(1) {
            s.spawn(|| {
                let mut r = match runner() {
                    Ok(r) => r,
                    Err(e) => {
                        results.lock().unwrap().1.push(format!("runner: {e}"));
                        return;
                    }
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((b, case)) = work.get(i) else { break };
                    let outcome = r
                        .run(&binaries[*b], case)
                        .and_then(|outs| case.verify(&outs));
                    let mut res = results.lock().unwrap();
                    match outcome {
                        Ok(()) => res.0 += 1,
                        Err(e) => res.1.push(format!("{}: {e}", case.name)),
                    }
                }
            });
        }
    });
    let (passed, failed) = results.into_inner().unwrap();
    report.passed = passed;
    report.failed.extend(failed);
    report.failed.sort();
    report
}
