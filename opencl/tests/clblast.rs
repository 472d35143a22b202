//! CLBlast (Debian's libclblast 1.5.3, the tuned OpenCL BLAS nobody here wrote) on every
//! simulated device: `tests/c/clblast.c` runs SGEMM in both layouts and all transposes at
//! untiled sizes with offsets and padded leading dimensions, a 256³ SGEMM, batched SGEMM,
//! HGEMM, and level-1/2 routines, each against a double-precision host computation. CLBlast
//! builds its kernels with its Intel defines on a GPU that lists cl_intel_subgroups
//! (`SUBGROUP_SHUFFLING_INTEL`).

mod support;

use std::process::Command;

use oracles::{require, Oracle};

/// `tests/c/clblast.c` built against Debian's CLBlast.
fn build(gcc: &std::path::Path, icd: &support::Icd) -> std::path::PathBuf {
    let exe = icd.dir.path().join("clblast");
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/clblast.c");
    support::run(
        Command::new(gcc)
            .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-o"])
            .arg(&exe)
            .arg(&src)
            .args(["-lclblast", "-lOpenCL", "-lm"]),
    );
    exe
}

#[test]
fn clblast_routines_match_the_host_on_every_simulated_device() {
    let gcc = require!(Oracle::ClBlast);
    let icd = support::icd();
    let exe = build(&gcc, &icd);
    for dev in support::c_client_devices() {
        let out = support::run(&mut support::command(&exe, &icd, dev));
        assert!(
            out.contains(" passed, 0 failed") && !out.contains("FAIL"),
            "{dev}:\n{out}"
        );
    }
}

/// The same routines with every sanitizer check on (`INTEL_GPU_SANITIZE=all`) on every
/// simulated platform: the same results, and no finding (CLBlast's kernels and calls are
/// correct programs; a finding would be a false positive).
#[test]
fn clblast_routines_give_no_sanitizer_finding() {
    let gcc = require!(Oracle::ClBlast);
    let icd = support::icd();
    let exe = build(&gcc, &icd);
    for dev in ["sim:skl", "sim:icllp", "sim:tgllp", "sim:dg2"] {
        let log = icd.dir.path().join(format!("findings-{dev}.jsonl"));
        let out = support::run(
            support::command(&exe, &icd, dev)
                .env("INTEL_GPU_SANITIZE", "all")
                .env("INTEL_GPU_SANITIZE_LOG", &log),
        );
        assert!(
            out.contains(" passed, 0 failed") && !out.contains("FAIL"),
            "{dev}:\n{out}"
        );
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        support::assert_judged_findings(&text, &[]);
    }
}
