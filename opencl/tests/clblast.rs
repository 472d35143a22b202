//! CLBlast (Debian's libclblast 1.5.3, the tuned OpenCL BLAS nobody here wrote) on every
//! simulated device: `tests/c/clblast.c` runs SGEMM in both layouts and all transposes at
//! untiled sizes with offsets and padded leading dimensions, a 256³ SGEMM, batched SGEMM,
//! HGEMM, and level-1/2 routines, each against a double-precision host computation. CLBlast
//! builds its kernels with its Intel defines on a GPU that lists cl_intel_subgroups
//! (`SUBGROUP_SHUFFLING_INTEL`).

mod support;

use std::process::Command;

use oracles::{require, Oracle};

#[test]
fn clblast_routines_match_the_host_on_every_simulated_device() {
    let gcc = require!(Oracle::ClBlast);
    let icd = support::icd();
    let exe = icd.dir.path().join("clblast");
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/clblast.c");
    support::run(
        Command::new(&gcc)
            .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-o"])
            .arg(&exe)
            .arg(&src)
            .args(["-lclblast", "-lOpenCL", "-lm"]),
    );
    for dev in support::c_client_devices() {
        let out = support::run(&mut support::command(&exe, &icd, dev));
        assert!(
            out.contains(" passed, 0 failed") && !out.contains("FAIL"),
            "{dev}:\n{out}"
        );
    }
}
