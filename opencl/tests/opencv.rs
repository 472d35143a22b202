//! OpenCV (Debian's python3-opencv 4.6, nobody here wrote it) runs its OpenCL paths on the ICD
//! and gets what its CPU paths get: image filters, resizes, colour conversions, morphology,
//! warps, reductions, GEMM, DFT, and small networks on its DNN module with the OpenCL and
//! OpenCL-FP16 targets (ocl4dnn's convolutions, which on an Intel device are built on
//! cl_intel_subgroups block reads). `tests/apps/opencv_suite.py` holds the cases and their
//! tolerances; each case must also have launched OpenCL kernels (OpenCV falls back to its CPU
//! path silently when a kernel fails).
//!
//! Here on sim:skl, sim:icllp and sim:dg2 (GPGPU_WALKER on Gen9 and Gen11, COMPUTE_WALKER on
//! Xe-HPG; icllp also for its SIMD32 half-precision accumulator rule); every device:
//! `scripts/opencv-suite`.

mod support;

use std::path::Path;

use oracles::{require, Oracle};

#[test]
fn opencv_opencl_paths_match_its_cpu_paths() {
    let python = require!(Oracle::OpenCv);
    let icd = support::icd();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/apps/opencv_suite.py");
    for dev in ["sim:skl", "sim:icllp", "sim:dg2"] {
        let mut cmd = support::command(&python, &icd, dev);
        cmd.arg(&script)
            .env("INTEL_GPU_OPENCL_TRACE", icd.dir.path().join("trace.log"));
        let out = cmd
            .output()
            .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let failed: Vec<&str> = stdout.lines().filter(|l| l.starts_with("FAIL")).collect();
        assert!(
            out.status.success() && failed.is_empty() && stdout.contains(" passed, 0 failed"),
            "{dev}: OpenCV suite failed:\n{}\n\n{stdout}\n{stderr}",
            failed.join("\n")
        );
    }
}

/// The suite on sim:tgllp (a platform the test above leaves out) with every sanitizer check
/// on: the same results, and no finding (OpenCV's kernels and calls are correct programs).
#[test]
fn opencv_opencl_paths_give_no_sanitizer_finding() {
    let python = require!(Oracle::OpenCv);
    let icd = support::icd();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/apps/opencv_suite.py");
    let log = icd.dir.path().join("findings.jsonl");
    let mut cmd = support::command(&python, &icd, "sim:tgllp");
    cmd.arg(&script)
        .env("INTEL_GPU_SANITIZE", "all")
        .env("INTEL_GPU_SANITIZE_LOG", &log);
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains(" passed, 0 failed"),
        "OpenCV suite under the sanitizer failed:\n{stdout}\n{stderr}"
    );
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    support::assert_judged_findings(&text, &[]);
}
