//! `INTEL_GPU_OPENCL_TRACE`: a C client through the ocl-icd loader with the variable set
//! prints its calls, arguments and results (and the program build's options) on stderr;
//! without it, none of that.

use crate::support;

use std::process::Command;

use oracles::{require, Oracle};

/// The client's stdout and stderr, after checking it succeeded.
fn run(cmd: &mut Command) -> (String, String) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    assert!(stdout.contains("trace client done"), "{stdout}\n{stderr}");
    // The context released from an atexit handler, after the thread's TLS destructors ran:
    // released, and tracing did not abort the process.
    assert!(stdout.contains("late release: 0"), "{stdout}\n{stderr}");
    // Nor printed a panic (tracing's per-thread state is gone there; the ICD handles that).
    assert!(!stderr.contains("panicked"), "{stderr}");
    (stdout, stderr)
}

#[test]
fn the_trace_variable_prints_calls_with_arguments_and_results() {
    let gcc = require!(Oracle::OpenClC);
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "trace");
    for value in ["1", "calls"] {
        let (_, stderr) =
            run(support::command(&exe, &icd, "sim:tgllp").env("INTEL_GPU_OPENCL_TRACE", value));
        let line = stderr
            .lines()
            .find(|l| l.contains("clCreateBuffer{"))
            .unwrap_or_else(|| panic!("no clCreateBuffer call traced:\n{stderr}"));
        assert!(line.contains("size=4096"), "{line}");
        assert!(line.contains("result=CL_SUCCESS"), "{line}");
        assert!(stderr.contains("clBuildProgram{"), "{stderr}");
        assert!(
            stderr.contains("-cl-std=CL1.2"),
            "build options not traced:\n{stderr}"
        );
    }
}

#[test]
fn without_the_variable_nothing_is_traced() {
    let gcc = require!(Oracle::OpenClC);
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "trace");
    for value in [None, Some("0")] {
        let mut cmd = support::command(&exe, &icd, "sim:tgllp");
        match value {
            Some(v) => cmd.env("INTEL_GPU_OPENCL_TRACE", v),
            None => cmd.env_remove("INTEL_GPU_OPENCL_TRACE"),
        };
        let (_, stderr) = run(&mut cmd);
        assert!(!stderr.contains("clCreateBuffer"), "{stderr}");
        assert!(!stderr.contains("CL_SUCCESS"), "{stderr}");
    }
}
