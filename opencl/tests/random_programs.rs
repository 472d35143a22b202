//! Random OpenCL C programs (`scripts/random-programs`) on every simulated device, compared bit
//! for bit with PoCL and Oclgrind: integer built-ins over every integer type and vector width,
//! conversions with saturation and rounding modes, lane shuffles, divergent loops and branches,
//! kernels large enough that IGC spills registers, values exchanged through local memory and
//! atomics, private arrays, exact float built-ins, the sub-group functions of cl_intel_subgroups
//! (with `_char`, `_short` and `_long`) and of the cl_khr_subgroup_* extensions at required
//! sub-group sizes of 8, 16 and 32 against the same exchanges through local memory on the
//! references; the same programs compiled without optimization (IGC's stack calls,
//! emulated 64-bit local atomics, kernels past a mebibyte); their double variants on Gen9,
//! the one platform with IEEE double precision (correctly rounded `+`, `-`, `*`, `/`, `sqrt`
//! and `fma` over converted integers and raw 64-bit patterns: denormals, infinities, NaNs);
//! and their half-storage variants on every device (float values stored as half with each
//! rounding mode, `vstore_half`, and loaded back, `vload_half`).
//! Every expression is one whose value the OpenCL C specification defines for every input, so
//! where the two references agree the simulator must give the same bits, and where they split
//! (a reference's own bug) one of theirs. The constructs traced to IGC's own code are left out
//! (the script's `LEFT_OUT`), and single programs it compiles wrongly are counted apart
//! (`MISCOMPILE_CLASSES`).

mod support;

use std::process::Command;

use oracles::{require, Oracle};

/// Seeds run in the test; the script runs any range (`--first`, `--count`).
const SEEDS: u32 = 200;
/// Seeds run compiled with `-cl-opt-disable`, on the devices of [`UNOPTIMIZED_DEVICES`].
const UNOPTIMIZED_SEEDS: u32 = 100;
/// Gen9's and Xe-HPG's stacks differ (scratch through General State, LSC through the scratch
/// surface); Gen11 and Gen12LP take Gen9's messages.
const UNOPTIMIZED_DEVICES: [&str; 2] = ["sim:tgllp", "sim:dg2"];
/// Seeds run as their double variants (`--fp64`) on sim:skl.
const DOUBLE_SEEDS: u32 = 40;
/// Seeds run as their half-storage variants (`--half`) on every simulated device.
const HALF_SEEDS: u32 = 40;

/// Runs the script over `seeds` seeds on `devices` with build `options` (and the script's own
/// `flags`) and checks that every device judged most of them and none failed.
fn run_script(seeds: u32, devices: &[&str], options: &str, flags: &[&str]) {
    let python = require!(Oracle::PyOpenCl);
    require!(Oracle::Pocl);
    require!(Oracle::Oclgrind);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/random-programs");
    let mut cmd = Command::new(&python);
    cmd.arg(script)
        .args(["--first", "0", "--count", &seeds.to_string()])
        .arg(format!("--options={options}"))
        .args(flags)
        .arg("--icd")
        .arg(support::library());
    for dev in devices {
        cmd.args(["--device", dev]);
    }
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    // A failing seed's program is left in /tmp/random-programs (the script's --keep).
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    // Every device's summary, and most seeds judged (an empty run passes nothing).
    for dev in devices {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("random-programs: {seeds} seeds on {dev}:")))
            .unwrap_or_else(|| panic!("no summary for {dev}:\n{stdout}"));
        let agree: u32 = line
            .rsplit(": ")
            .next()
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!(agree >= seeds / 2, "{line}");
    }
}

#[test]
fn random_programs_match_pocl_and_oclgrind_on_every_simulated_device() {
    run_script(SEEDS, &support::SIM_DEVICES, "", &[]);
}

#[test]
fn random_programs_compiled_without_optimization_match_too() {
    run_script(
        UNOPTIMIZED_SEEDS,
        &UNOPTIMIZED_DEVICES,
        "-cl-opt-disable",
        &[],
    );
}

#[test]
fn random_double_programs_match_on_gen9() {
    run_script(DOUBLE_SEEDS, &["sim:skl"], "", &["--fp64"]);
}

#[test]
fn random_half_storage_programs_match_on_every_simulated_device() {
    run_script(HALF_SEEDS, &support::SIM_DEVICES, "", &["--half"]);
}
