//! The sanitizer's `api` check (`INTEL_GPU_SANITIZE=api`): seeded OpenCL API misuse
//! (`tests/c/api_misuse.c`, one bug per case, each with a correct twin) through this ICD. The
//! program itself checks that the seeded call returns the code the OpenCL 3.0 API
//! specification gives (PoCL and Oclgrind 21.10 return the same codes for every case but
//! `release_twice`). Each bug must be reported once, as a JSON line in
//! `INTEL_GPU_SANITIZE_LOG` naming the function, the code, a cause and the number of calls, and
//! on stderr; each twin must give no finding at all.

mod support;

use std::path::Path;

use oracles::{require, Oracle};
use serde_json::Value;

/// (case, function, error, kernel the call names, calls made, words of the cause).
type Case = (
    &'static str,
    &'static str,
    &'static str,
    Option<&'static str>,
    u64,
    &'static str,
);

const CASES: &[Case] = &[
    (
        "unset_arg",
        "clEnqueueNDRangeKernel",
        "CL_INVALID_KERNEL_ARGS",
        Some("add"),
        3,
        "argument 1 is not set",
    ),
    (
        "read_past_end",
        "clEnqueueReadBuffer",
        "CL_INVALID_VALUE",
        None,
        1,
        "68 bytes at offset 192 ends past the buffer's 256 bytes",
    ),
    (
        "reqd_work_group_size",
        "clEnqueueNDRangeKernel",
        "CL_INVALID_WORK_GROUP_SIZE",
        Some("fixed"),
        1,
        "local size [8] differs from the kernel's reqd_work_group_size(16, 1, 1)",
    ),
    (
        "release_twice",
        "clReleaseProgram",
        "CL_INVALID_PROGRAM",
        None,
        1,
        "reference count is already zero",
    ),
    (
        "arg_size",
        "clSetKernelArg",
        "CL_INVALID_ARG_SIZE",
        Some("add"),
        1,
        "argument 1 is a 4-byte value; arg_size is 2",
    ),
    (
        "arg_index",
        "clSetKernelArg",
        "CL_INVALID_ARG_INDEX",
        Some("add"),
        1,
        "has 2 argument(s); there is no argument 2",
    ),
    (
        "info_size",
        "clGetDeviceInfo",
        "CL_INVALID_VALUE",
        None,
        1,
        "param_value_size 2 is smaller than",
    ),
    (
        "device_query",
        "clGetDeviceInfo",
        "CL_INVALID_VALUE",
        None,
        1,
        "param_name 0xfff is not a device query",
    ),
    (
        "arg_info",
        "clGetKernelArgInfo",
        "CL_KERNEL_ARG_INFO_NOT_AVAILABLE",
        Some("add"),
        1,
        "not built from source with -cl-kernel-arg-info",
    ),
    (
        "buffer_size",
        "clCreateBuffer",
        "CL_INVALID_BUFFER_SIZE",
        None,
        1,
        "size 0 is not 1 to",
    ),
    (
        "kernel_name",
        "clCreateKernel",
        "CL_INVALID_KERNEL_NAME",
        Some("addd"),
        1,
        "no kernel named \"addd\"",
    ),
    (
        "build_error",
        "clBuildProgram",
        "CL_BUILD_PROGRAM_FAILURE",
        None,
        1,
        "the build failed; the build log says:",
    ),
];

const DEVICE: &str = "sim:tgllp";

/// Runs `case` with `checks`; (stderr, the log's JSON lines).
fn run(exe: &Path, icd: &support::Icd, case: &str, checks: &str) -> (String, Vec<Value>) {
    let log = icd.dir.path().join(format!("{case}-{checks}.jsonl"));
    let _ = std::fs::remove_file(&log);
    let out = support::command(exe, icd, DEVICE)
        .arg(case)
        .env("INTEL_GPU_SANITIZE", checks)
        .env("INTEL_GPU_SANITIZE_LOG", &log)
        .output()
        .expect("run api_misuse");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "{case}: {}\n{stdout}\n{stderr}",
        out.status
    );
    let lines = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{case}: {e}: {l}")))
        .collect();
    (stderr, lines)
}

#[test]
fn seeded_api_misuse_is_reported_once_and_twins_are_clean() {
    let gcc = require!(Oracle::OpenClC);
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "api_misuse");
    for &(case, function, error, kernel, count, cause) in CASES {
        let (stderr, findings) = run(&exe, &icd, case, "api");
        assert_eq!(findings.len(), 1, "{case}: {findings:?}\n{stderr}");
        let f = &findings[0];
        assert_eq!(f["check"], "api", "{case}: {f}");
        assert_eq!(f["function"], function, "{case}: {f}");
        assert_eq!(f["error"], error, "{case}: {f}");
        assert_eq!(
            f["kernel"],
            kernel.map_or(Value::Null, Value::from),
            "{case}: {f}"
        );
        assert_eq!(f["count"], count, "{case}: {f}");
        assert!(
            f["offset"].is_null() && f["address"].is_null(),
            "{case}: {f}"
        );
        // Present and null, as in kernel findings without a source line.
        for field in ["file", "line"] {
            assert_eq!(f.get(field), Some(&Value::Null), "{case}: {f}");
        }
        let what = f["what"].as_str().unwrap_or_default();
        assert!(
            what.contains(cause),
            "{case}: cause {what:?} lacks {cause:?}"
        );
        assert!(
            !f["arguments"].as_str().unwrap_or_default().is_empty(),
            "{case}: {f}"
        );
        let head = format!("sanitizer api: {function} returned {error} (");
        assert_eq!(stderr.matches(&head).count(), 1, "{case}:\n{stderr}");
        assert!(
            stderr.contains(&format!("{count} time(s)")),
            "{case}:\n{stderr}"
        );

        let twin = format!("ok_{case}");
        let (stderr, findings) = run(&exe, &icd, &twin, "api");
        assert!(findings.is_empty(), "{twin}: {findings:?}");
        assert!(!stderr.contains("sanitizer"), "{twin}:\n{stderr}");
    }
}

#[test]
fn all_includes_api_and_other_checks_leave_it_off() {
    let gcc = require!(Oracle::OpenClC);
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "api_misuse");
    let (_, findings) = run(&exe, &icd, "arg_index", "all");
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0]["check"], "api");
    let (stderr, findings) = run(&exe, &icd, "arg_index", "memcheck");
    assert!(findings.is_empty(), "{findings:?}");
    assert!(!stderr.contains("sanitizer api"), "{stderr}");
}

/// The same program under Oclgrind's `--check-api` (its own OpenCL runtime, preloaded by the
/// `oclgrind` command): it reports the same function and code for every case but
/// `release_twice` (Oclgrind counts a kernel's hold on its program in the program's reference
/// count, so the second release succeeds) and `arg_info` (Oclgrind answers argument queries
/// for every program; OpenCL 3.0 makes the information available only with
/// `-cl-kernel-arg-info`), and nothing for the twins.
#[test]
fn oclgrind_check_api_reports_the_same_calls() {
    let gcc = require!(Oracle::OpenClC);
    let oclgrind = require!(Oracle::Oclgrind);
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "api_misuse");
    for &(case, function, error, ..) in CASES {
        for run in [case.to_string(), format!("ok_{case}")] {
            let out = std::process::Command::new(&oclgrind)
                .arg("--check-api")
                .arg(&exe)
                .arg(&run)
                .output()
                .expect("run oclgrind");
            let stderr = String::from_utf8_lossy(&out.stderr);
            let reported = stderr.contains("OpenCL runtime error detected");
            if run.starts_with("ok_") || ["release_twice", "arg_info"].contains(&case) {
                assert!(!reported, "oclgrind {run}:\n{stderr}");
                continue;
            }
            assert!(
                out.status.success(),
                "oclgrind {run}: {}\n{stderr}",
                out.status
            );
            assert!(
                stderr.contains(&format!("Function: {function}"))
                    && stderr.contains(&format!("Error:    {error}")),
                "oclgrind {run}:\n{stderr}"
            );
        }
    }
}
