//! The compiler cache across processes: a C client through the ocl-icd loader builds and runs
//! its kernels; run again with the same cache directory, every build that succeeded the first
//! time is read from the cache (no ocloc run) and the kernels still give the client's expected
//! results; with every entry damaged, the builds run ocloc again and still succeed; with
//! `INTEL_GPU_CACHE=0`, nothing is read or written. clCompileProgram with input headers is
//! known by the headers' names and texts.

use crate::support;

use std::path::Path;

use oracles::{require, Oracle};

/// Runs the client with the cache in `dir` and the trace on; returns (successful ocloc runs,
/// results read from the cache).
fn run(exe: &Path, icd: &support::Icd, dir: &Path, extra: &[(&str, &str)]) -> (usize, usize) {
    let out = support::command(exe, icd, "sim:tgllp")
        .env("INTEL_GPU_CACHE_DIR", dir)
        .env("INTEL_GPU_OPENCL_TRACE", "1")
        .env("EXPECT_PAGE_FAULTS", "0")
        .envs(extra.iter().copied())
        .output()
        .expect("run the client");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains(", 0 failed"),
        "{}:\n{stdout}",
        out.status
    );
    let compiled = stderr
        .lines()
        .filter(|l| l.contains("ocloc done") && l.contains("status=0"))
        .count();
    let cached = stderr
        .lines()
        .filter(|l| l.contains("ocloc result from the compiler cache"))
        .count();
    (compiled, cached)
}

fn entries(dir: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.expect("entry").path()).collect())
        .unwrap_or_default()
}

#[test]
fn a_second_process_reads_the_builds_of_the_first() {
    let gcc = require!(Oracle::OpenClC);
    let _ocloc = require!(Oracle::Ocloc);
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "client");
    let cache = tempfile::tempdir().expect("cache directory");

    let (compiled, cached) = run(&exe, &icd, cache.path(), &[]);
    assert!(compiled > 0, "the client built nothing");
    assert_eq!(cached, 0);
    let stored = entries(cache.path());
    assert!(!stored.is_empty(), "nothing was stored");

    let (again, from_cache) = run(&exe, &icd, cache.path(), &[]);
    assert_eq!(again, 0, "a build that succeeded before ran ocloc again");
    assert_eq!(from_cache, compiled, "every build read back");
    assert_eq!(stored.len(), compiled, "one entry per build");

    // Damaged entries (a byte changed at the end of each) are misses: ocloc runs again.
    for e in &stored {
        let mut bytes = std::fs::read(e).expect("read entry");
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(e, bytes).expect("damage entry");
    }
    let (rebuilt, cached) = run(&exe, &icd, cache.path(), &[]);
    assert_eq!((rebuilt, cached), (compiled, 0));
}

#[test]
fn the_cache_can_be_turned_off() {
    let gcc = require!(Oracle::OpenClC);
    let _ocloc = require!(Oracle::Ocloc);
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "client");
    let cache = tempfile::tempdir().expect("cache directory");
    let off = [("INTEL_GPU_CACHE", "0")];
    let (compiled, cached) = run(&exe, &icd, cache.path(), &off);
    assert!(compiled > 0);
    assert_eq!(cached, 0);
    assert!(entries(cache.path()).is_empty());
    let (again, cached) = run(&exe, &icd, cache.path(), &off);
    assert_eq!((again, cached), (compiled, 0));
}

/// clCompileProgram writes its input headers to a new private directory each time; the cache
/// knows such a compile by the headers' names and texts, not the directory: another process
/// compiling with the same header reads every build, a changed header text compiles again
/// (and the kernel gives the new header's value), and a compile without headers is read back
/// whatever headers the others had.
#[test]
fn compiles_with_input_headers_are_known_by_the_headers_text() {
    let gcc = require!(Oracle::OpenClC);
    let _ocloc = require!(Oracle::Ocloc);
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "header_cache");
    let cache = tempfile::tempdir().expect("cache directory");
    let seven = [("HEADER_VALUE", "7")];
    let (compiled, cached) = run(&exe, &icd, cache.path(), &seven);
    assert!(compiled > 0, "the client built nothing");
    assert_eq!(cached, 0);

    let (again, from_cache) = run(&exe, &icd, cache.path(), &seven);
    assert_eq!(
        (again, from_cache),
        (0, compiled),
        "the same header in another process"
    );

    // The client checks that its kernel gives 9; the compile without headers is read back.
    let (rebuilt, read) = run(&exe, &icd, cache.path(), &[("HEADER_VALUE", "9")]);
    assert!(rebuilt > 0, "a changed header was answered from the cache");
    assert!(read > 0, "the compile without headers was not read back");
    assert_eq!(rebuilt + read, compiled);
}
