//! OpenVINO's GPU plugin (PyPI openvino, pinned in `tests/apps/requirements.txt`) run through the
//! ocl-icd loader on this ICD: the `ci` slice of `tests/apps/openvino_suite.py` — convolutions,
//! pooling, MatMul, softmax, element-wise ops, MVN, a small ResNet-like net and two ONNX backend
//! models — at f32 and f16 inference precision on every simulated device, compared with
//! OpenVINO's CPU plugin; and the same through Intel's runtime NEO on the simulator. The whole suite and its results: `tests/apps/README.md`.
//!
//! The virtual environment is made by `scripts/setup-apps` (scripts/test runs it); a test never
//! installs. Missing, it is an oracle missing: skipped, or a failure with `ORACLES=required`.

mod support;

use oracles::{require, Oracle};
use std::path::Path;

#[test]
fn openvino_gpu_plugin_ci_slice() {
    let python = require!(Oracle::OpenVino);
    let icd = support::icd();
    let cmd = support::command(&python, &icd, "sim:tgllp");
    // Every device and precision ran the whole slice: every model x 4 devices x 2 precisions.
    ci_slice(
        cmd,
        &icd,
        "sim:skl,sim:icllp,sim:tgllp,sim:dg2",
        CI_MODELS * 4 * 2,
    );
}

/// The same slice through Intel's runtime NEO on the simulated skl and tgllp (the suite's
/// `neo:` devices: NEO under the simulator's shim). NEO on the simulator gives the hardware's
/// answers where the simulator is right, so a failure here is the simulator's (Gen9's float
/// min/max with a NaN source was one).
#[test]
fn openvino_gpu_plugin_ci_slice_through_neo_on_the_simulator() {
    let python = require!(Oracle::OpenVino);
    let icd = support::icd();
    if support::neo_icd(icd.dir.path(), "OpenVINO through NEO").is_none() {
        return;
    }
    let mut cmd = support::command(&python, &icd, "sim:tgllp");
    cmd.env(
        "NEO_SUITE_SHIM",
        oracles::workspace::cdylib("sim-shim", "libintel_gpu_sim_shim.so"),
    );
    ci_slice(cmd, &icd, "neo:skl,neo:tgllp", CI_MODELS * 2 * 2);
}

/// The slice through NEO on the simulated dg2, where the GPU plugin also runs oneDNN's
/// generated kernels (XMX `dpasw`; at f16 `test_operator_mm` takes their path for a leading
/// dimension that is not a DWord multiple, D64 loads per lane at 2-byte-aligned addresses),
/// with the suite's OpenCL layer (`tests/apps/neo_arg_info_layer.c`: NEO 22.43 crashes
/// answering clGetKernelArgInfo for their programs, and corrupts its heap setting USM pointer
/// arguments the kernel never addresses statelessly, so the layer hides its USM extension).
#[test]
fn openvino_gpu_plugin_ci_slice_through_neo_on_the_simulated_dg2() {
    let python = require!(Oracle::OpenVino);
    let gcc = require!(Oracle::OpenClC);
    let icd = support::icd();
    if support::neo_icd(icd.dir.path(), "OpenVINO through NEO on dg2").is_none() {
        return;
    }
    let layer = icd.dir.path().join("libneo_arg_info_layer.so");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/apps/neo_arg_info_layer.c");
    support::run(
        std::process::Command::new(&gcc)
            .args(["-shared", "-fPIC", "-O2", "-o"])
            .arg(&layer)
            .arg(src),
    );
    let mut cmd = support::command(&python, &icd, "sim:dg2");
    cmd.env(
        "NEO_SUITE_SHIM",
        oracles::workspace::cdylib("sim-shim", "libintel_gpu_sim_shim.so"),
    )
    .env("NEO_SUITE_LAYER", &layer);
    ci_slice(cmd, &icd, "neo:dg2", CI_MODELS * 2);
}

/// The findings of every check on the slice's kernels, each judged against OpenVINO's source
/// (the kernel text in the GPU plugin's library): (check, kernel name prefix, words of the
/// finding, why it is the kernel's own undefined behaviour). Every finding must be one of
/// them (no false positive), and each must be found (the checks catch what is there). The
/// plugin's block reads past a bias or a weight tile (`convolution_gpu_bfyx_os_iyx_osv32_*`,
/// `fully_connected_gpu_bf_tiled_*`) are no finding: memcheck follows bytes read past an end to
/// their use, and those kernels discard them (firmware-notes/sanitizer.md).
const JUDGED: &[(&str, &str, &str, &str)] = &[
    (
        "synccheck",
        "fully_connected_gpu_bs_f_bsv16_b1_",
        "sub-group shuffle in divergent control flow",
        "SG_UNIT_SELECT expands to `(idx % 2) ? as_half2(_sub_group_shuffle(c, idx / 2)).s1 \
         : as_half2(_sub_group_shuffle(c, idx / 2)).s0`: odd lanes shuffle from even lanes \
         that evaluate the other operand, and IGC keeps the two branches",
    ),
    (
        "api",
        "",
        "parsing vISA inline assembly failed",
        "the plugin probes the compiler with a program of inline vISA that this IGC rejects; \
         clBuildProgram's error is what the api check reports",
    ),
];

/// What the plugin's oneDNN path on Xe-HPG adds to [`JUDGED`]'s API finding, judged the
/// same way (oneDNN's GEMM and convolution kernels read past small USM allocations into
/// tiles staged in SLM and discard the padding: no finding, firmware-notes/sanitizer.md).
const JUDGED_DG2: &[(&str, &str, &str, &str)] = &[
    (
        "api",
        "",
        "is not a device query of OpenCL 3.0 or of an extension",
        "the plugin asks for CL_DEVICE_{SINGLE,DOUBLE,HALF}_FP_ATOMIC_CAPABILITIES_EXT \
         (0x4231 to 0x4233), queries of cl_ext_float_atomics, which the device does not \
         list: CL_INVALID_VALUE is the specified answer, and the plugin goes on without them",
    ),
    (
        "api",
        "",
        "not built from source with -cl-kernel-arg-info",
        "oneDNN asks for the argument information of programs the plugin creates from \
         binaries, which carry none: CL_KERNEL_ARG_INFO_NOT_AVAILABLE, and oneDNN goes on",
    ),
];

/// The slice on sim:tgllp at f32 and f16 with every check on (`INTEL_GPU_SANITIZE=all`):
/// results as without, and the findings exactly the judged ones of [`JUDGED`].
#[test]
fn openvino_gpu_plugin_ci_slice_under_the_sanitizer() {
    let judged: Vec<_> = JUDGED.iter().collect();
    under_the_sanitizer("sim:tgllp", &judged);
}

/// The same on sim:dg2, where the plugin also runs oneDNN's kernels (XMX `dpas`, LSC):
/// the findings exactly [`JUDGED`]'s API one and [`JUDGED_DG2`]'s.
#[test]
fn openvino_gpu_plugin_ci_slice_under_the_sanitizer_on_dg2() {
    let judged: Vec<_> = JUDGED
        .iter()
        .filter(|j| j.0 == "api")
        .chain(JUDGED_DG2)
        .collect();
    under_the_sanitizer("sim:dg2", &judged);
}

fn under_the_sanitizer(device: &str, judged: &[&(&str, &str, &str, &str)]) {
    let python = require!(Oracle::OpenVino);
    let icd = support::icd();
    let log = icd.dir.path().join("findings.jsonl");
    let mut cmd = support::command(&python, &icd, device);
    cmd.env("INTEL_GPU_SANITIZE", "all")
        .env("INTEL_GPU_SANITIZE_LOG", &log);
    ci_slice(cmd, &icd, device, CI_MODELS * 2);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let judged: Vec<support::Judged> = judged.iter().map(|(c, k, w, _)| (*c, *k, *w)).collect();
    support::assert_judged_findings(&text, &judged);
}

/// Runs the suite's `ci` slice at f32 and f16 on `devices` with `cmd` (python and its
/// environment); every case must pass and `want` of them must have run.
/// The models of the `ci` slice (tests/apps/openvino_suite.py's CI_SYNTH and CI_ONNX).
const CI_MODELS: usize = 15;

fn ci_slice(mut cmd: std::process::Command, icd: &support::Icd, devices: &str, want: usize) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/apps/openvino_suite.py");
    let json = icd.dir.path().join("results.json");
    cmd.arg(&script)
        .args(["--slice", "ci", "--precisions", "f32,f16"])
        .args(["--devices", devices])
        .arg("--json")
        .arg(&json);
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let summary = stdout
        .lines()
        .rev()
        .find(|l| l.contains(" passed, "))
        .unwrap_or_else(|| panic!("no summary line:\n{stdout}\n{stderr}"));
    // The cases that did not pass first: a long log is cut short where CI shows it.
    let not_passed: Vec<&str> = stdout.lines().filter(|l| !l.starts_with("PASS ")).collect();
    assert!(
        out.status.success() && summary.contains(" 0 failed"),
        "OpenVINO suite on {devices}: {summary}\n{}\n{stderr}",
        not_passed.join("\n")
    );
    let passed: usize = summary
        .split(" passed")
        .next()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("summary {summary:?}"));
    assert_eq!(passed, want, "{summary}\n{stdout}");
}
