//! Libraries and programs this workspace builds that tests load or run in other processes (the
//! OpenCL ICD, the render-node shim, `intel-gpu-run` for another package's tests): found where
//! cargo put them for the running test binary's profile.

use std::path::PathBuf;
use std::process::Command;

/// The cdylib `file` of workspace package `package`, as an absolute path (loaders and
/// `LD_PRELOAD` need one), in `target/<profile>/deps/` next to the test binary. It is always
/// brought up to date with `cargo build -p <package> --lib` first (a no-op when it is): `cargo
/// test` does not rebuild the library of a cdylib-only package, so a copy left by an earlier
/// build would otherwise be tested in place of the current sources.
///
/// Panics when it cannot be found or built: that is a broken test set-up, not a skip.
pub fn cdylib(package: &str, file: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let deps = exe.parent().expect("deps dir");
    let lib = deps.join(file);
    {
        let cargo = option_env!("CARGO").unwrap_or("cargo");
        let release = deps
            .parent()
            .and_then(|p| p.file_name())
            .is_some_and(|n| n == "release");
        let mut cmd = Command::new(cargo);
        cmd.args(["build", "-p", package, "--lib"]);
        if release {
            cmd.arg("--release");
        }
        let status = cmd.status().expect("run cargo build");
        assert!(status.success(), "cargo build -p {package} --lib failed");
    }
    assert!(lib.is_file(), "{} missing", lib.display());
    lib.canonicalize().expect("library path")
}

/// The binary `name` of a workspace package, as an absolute path, in `target/<profile>/`
/// (the parent of the running test binary's `deps/`), brought up to date with `cargo build
/// --workspace --bin <name>` first: a test of another package that runs it would otherwise run
/// whatever copy an earlier build left, or none. The whole workspace is named so that its
/// dependencies get the features the test build gave them (`-p <package>` alone resolves a
/// package's own: `intel-gpu-run` without the simulator's translator, rebuilding the simulator
/// and a handful of crates under it a second time, and replacing the test build's binary).
///
/// Panics when it cannot be built or found: a broken test set-up, not a skip.
pub fn binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile> dir");
    let cargo = option_env!("CARGO").unwrap_or("cargo");
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--workspace", "--bin", name]);
    if profile_dir.file_name().is_some_and(|n| n == "release") {
        cmd.arg("--release");
    }
    let status = cmd.status().expect("run cargo build");
    assert!(
        status.success(),
        "cargo build --workspace --bin {name} failed"
    );
    let bin = profile_dir.join(name);
    assert!(bin.is_file(), "{} missing", bin.display());
    bin
}
