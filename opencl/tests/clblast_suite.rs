//! CLBlast's own correctness tests on the simulated devices: Debian's `clblast-tests` 1.5.3
//! (nobody here wrote them) has one program per BLAS routine, `clblast_test_x<routine>`, that
//! runs the routine in each precision the device reports (half, single, double, complex single,
//! complex double) over CLBlast's own choice of sizes, strides, offsets, layouts, transposes and
//! triangles, and compares every result, and a canary region past it, with the reference CPU
//! BLAS it was built against.
//!
//! What must hold, routine by routine: every case that runs agrees with the reference (no `X`
//! or `/`), no kernel fails to compile (`\`), a precision is reported unsupported only where
//! the device lacks it, and each supported precision passes cases. Three routines are judged
//! by their reference side alone, because the 1.5.3 harness computes that side wrongly in half
//! precision (the same on Intel's runtime on these devices, and independent of the device:
//! the reference runs on the host): see [`harness_defect`].
//!
//! CLBlast's kernel tuners (Debian's `clblast-utils`) are judged too: each runs its kernel in
//! every configuration of its search space (hundreds for GEMM: tile sizes, vector widths,
//! local memory on or off) and compares each result with a reference run.
//!
//! `cargo test` runs the CI slice: every routine but the convolution-as-GEMM one (16,384 cases
//! per precision, about 15 minutes on the simulator) and the five cheapest tuners, each on one
//! of the four simulated devices in turn. `CLBLAST_SUITE=all` runs every routine and tuner on
//! every simulated device and on sim:dg2 under xe: `scripts/clblast-suite` (which also takes
//! devices and programs).

mod support;

use std::path::{Path, PathBuf};

use oracles::{require, Oracle};

/// The simulated devices that report cl_khr_fp64 (Gen9 has double-precision FPUs; Gen11,
/// Gen12LP and Xe-HPG client parts have none), so where CLBlast's D and Z routines must run.
const FP64: &[&str] = &["sim:skl"];

/// Routines left out of the CI slice for their length alone (they run in the whole suite).
const CI_LEAVES_OUT: &[&str] = &["xconvgemm"];

/// One routine in one precision, as a test program reported it.
#[derive(Debug, Default)]
struct Routine {
    /// CLBlast's name for it: `SGEMM`, `iHAMAX`, `ZHER2K`.
    name: String,
    unsupported: bool,
    /// Whether its closing counts were printed (a program that stopped early has none).
    completed: bool,
    passed: u64,
    failed: u64,
    /// Cases that did not run because a kernel did not compile.
    not_compiled: u64,
    /// Per failing case: its `Testing:` line and the error lines under it.
    failures: Vec<(String, Vec<String>)>,
}

impl Routine {
    /// The precision letter: `S`, `D`, `C`, `Z` or `H` (`iSAMAX` → `S`).
    fn precision(&self) -> char {
        let name = self.name.strip_prefix('i').unwrap_or(&self.name);
        name.chars().next().unwrap_or('?')
    }
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A case's outcome mark as the `-verbose` output ends it: the last character after `-> ` on
/// its `Testing:` line, or a line holding the mark alone after its error lines.
fn mark(line: &str) -> Option<char> {
    let t = line.trim();
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if ":./X\\o-".contains(c) => Some(c),
        _ => None,
    }
}

/// Parses a test program's `-verbose` output into its routines.
fn parse(out: &str) -> Vec<Routine> {
    let mut routines: Vec<Routine> = Vec::new();
    let mut case: Option<(String, Vec<String>)> = None;
    for line in strip_ansi(out).lines() {
        if let Some(rest) = line.strip_prefix("* Starting tests for the '") {
            let name = rest.split('\'').next().unwrap_or_default().to_string();
            routines.push(Routine {
                name,
                ..Routine::default()
            });
            case = None;
            continue;
        }
        let Some(r) = routines.last_mut() else {
            continue;
        };
        let t = line.trim();
        if t.starts_with("* All tests skipped: Unsupported precision") {
            r.unsupported = true;
        } else if let Some(n) = t.strip_suffix(" test(s) passed") {
            r.passed = n.parse().unwrap_or(0);
        } else if let Some(n) = t.strip_suffix(" test(s) failed") {
            r.failed = n.parse().unwrap_or(0);
            r.completed = true;
        } else if t.starts_with("Testing: ") {
            let ended = t.rsplit_once("-> ").and_then(|(_, m)| mark(m));
            match ended {
                Some(m) => record(r, m, (t.to_string(), Vec::new())),
                None => case = Some((t.to_string(), Vec::new())),
            }
        } else if let Some(m) = mark(t) {
            if let Some(c) = case.take() {
                record(r, m, c);
            }
        } else if let Some((_, errors)) = case.as_mut() {
            if t.starts_with("Error at") || t.starts_with("Buffer overflow") {
                errors.push(t.to_string());
            }
        }
    }
    routines
}

fn record(r: &mut Routine, mark: char, case: (String, Vec<String>)) {
    match mark {
        'X' | '/' => r.failures.push(case),
        '\\' => r.not_compiled += 1,
        _ => {}
    }
}

/// Where CLBlast 1.5.3's harness computes the reference wrongly, the shape every error line of
/// such a routine's failing cases must have: the device's side is then not what differs.
/// - `iHAMAX`: the half-precision reference stores `cblas_isamax`'s int into a float slot and
///   converts that float (a denormal) to half: always 0, and the slot after it is left alone;
///   CLBlast writes its 32-bit index over two half slots. So only slot 0 (the reference's 0
///   against the index's low half) and slot 1 (the index's high half, 0 below 65,536) differ.
/// - `HAXPYBATCHED`, `HGEMMBATCHED`: the harness makes each batch's alpha (and beta) by adding
///   half bit patterns as integers (`alpha + Constant<T>(batch + 1)` with CLBlast's `half` an
///   integer type); the host reference turns those into NaN: every differing value is a NaN
///   on the reference's side.
fn harness_defect(routine: &str) -> Option<fn(&str) -> bool> {
    match routine {
        "iHAMAX" => Some(|l: &str| {
            (l.starts_with("Error at index 0:") || l.starts_with("Buffer overflow index 0:"))
                && l.contains(" 0.000000 (reference)")
                || l.starts_with("Buffer overflow index 1:") && l.ends_with(" 0.000000 (CLBlast)")
        }),
        "HAXPYBATCHED" | "HGEMMBATCHED" => Some(|l: &str| l.contains(" nan (reference)")),
        _ => None,
    }
}

/// Every problem with one program's routines on `dev`, as lines (empty: all good).
fn judge(program: &str, dev: &str, routines: &[Routine]) -> Vec<String> {
    let mut problems = Vec::new();
    if routines.is_empty() {
        problems.push(format!("{program} on {dev}: no routine reported"));
    }
    let fp64 = FP64.iter().any(|d| dev.starts_with(d));
    for r in routines {
        let what = format!("{program} on {dev}: {}", r.name);
        let supported = match r.precision() {
            'D' | 'Z' => fp64,
            _ => true,
        };
        if r.unsupported {
            if supported {
                problems.push(format!("{what}: reported unsupported, the device has it"));
            }
            continue;
        }
        if !supported {
            problems.push(format!("{what}: ran although the device has no fp64"));
        }
        if !r.completed {
            problems.push(format!("{what}: stopped before its results"));
        }
        let defect = harness_defect(&r.name);
        // Every case of iHAMAX meets its defect; elsewhere some case must pass.
        if r.passed == 0 && defect.is_none() {
            problems.push(format!("{what}: no case passed"));
        }
        if r.not_compiled > 0 {
            problems.push(format!(
                "{what}: {} cases whose kernel did not compile",
                r.not_compiled
            ));
        }
        if r.failures.len() as u64 != r.failed {
            problems.push(format!(
                "{what}: {} failed by its count, {} failing cases found in its output",
                r.failed,
                r.failures.len()
            ));
        }
        for (case, errors) in &r.failures {
            let explained =
                defect.is_some_and(|d| !errors.is_empty() && errors.iter().all(|e| d(e)));
            if !explained {
                let shown: Vec<&str> = errors.iter().take(8).map(String::as_str).collect();
                problems.push(format!("{what}: {case}\n      {}", shown.join("\n      ")));
            }
        }
    }
    problems
}

/// `clblast_test_x*` in `dir`, sorted by name.
fn programs(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read the CLBlast programs' directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("clblast_test_x"))
        })
        .collect();
    found.sort();
    found
}

/// A comma-separated list from the environment, if set.
fn env_list(name: &str) -> Option<Vec<String>> {
    let v = std::env::var(name).ok()?;
    Some(
        v.split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
    )
}

/// One run of a CLBlast program on one device.
struct Run {
    /// The name the suite knows it by: `xgemm` (a test program) or `tuner xgemm`.
    name: String,
    program: PathBuf,
    args: Vec<String>,
    dev: String,
}

/// The runs asked for, from `(name, program, args, in the CI slice)`: with `CLBLAST_SUITE=all`
/// each on every device, narrowed by `CLBLAST_SUITE_DEVICES` (`sim:dg2,sim:icllp`) and
/// `CLBLAST_SUITE_PROGRAMS` (`xgemm,xtrsm,tuner xgemm`); otherwise the CI slice, each on one
/// of the simulated devices in turn.
fn runs(programs: Vec<(String, PathBuf, Vec<String>, bool)>) -> Vec<Run> {
    let all = std::env::var("CLBLAST_SUITE").is_ok_and(|v| v == "all");
    if all {
        let devices = env_list("CLBLAST_SUITE_DEVICES")
            .unwrap_or_else(|| support::c_client_devices().map(str::to_string).collect());
        let only = env_list("CLBLAST_SUITE_PROGRAMS");
        return programs
            .into_iter()
            .filter(|(name, ..)| only.as_ref().is_none_or(|o| o.contains(name)))
            .flat_map(|(name, program, args, _)| {
                devices.iter().map(move |dev| Run {
                    name: name.clone(),
                    program: program.clone(),
                    args: args.clone(),
                    dev: dev.clone(),
                })
            })
            .collect();
    }
    let devices = support::SIM_DEVICES;
    programs
        .into_iter()
        .filter(|(.., in_ci)| *in_ci)
        .enumerate()
        .map(|(i, (name, program, args, _))| Run {
            name,
            program,
            args,
            dev: devices[i % devices.len()].to_string(),
        })
        .collect()
}

/// Runs `runs`, each in its own directory (tuners write their results there); `judge` turns a
/// run's stdout into its problems. All problems found. The whole suite runs as many at a time
/// as there are cores; the CI slice one at a time, as a test binary beside the others
/// (`scripts/run-test-binaries` already keeps every core busy).
fn run_all(runs: &[Run], judge: impl Fn(&Run, &str) -> Vec<String> + Sync) -> Vec<String> {
    let icd = support::icd();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let whole = std::env::var("CLBLAST_SUITE").is_ok_and(|v| v == "all");
    let workers = if whole {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        1
    };
    let problems = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(run) = runs.get(i) else {
                    break;
                };
                let (name, dev) = (&run.name, &run.dev);
                let dir = tempfile::tempdir().expect("tempdir");
                let start = std::time::Instant::now();
                let out = support::command(&run.program, &icd, dev)
                    .args(&run.args)
                    .current_dir(dir.path())
                    .output()
                    .unwrap_or_else(|e| panic!("cannot run {}: {e}", run.program.display()));
                let mut found = judge(run, &String::from_utf8_lossy(&out.stdout));
                // The exit status says whether a case failed (judged above from the output);
                // a crash is a problem whatever was printed before it.
                if out.status.code().is_none() {
                    found.push(format!(
                        "{name} on {dev}: ended by {}\n{}",
                        out.status,
                        String::from_utf8_lossy(&out.stderr)
                    ));
                }
                let secs = start.elapsed().as_secs();
                eprintln!("{name} on {dev}: {} problems ({secs} s)", found.len());
                problems.lock().unwrap().extend(found);
            });
        }
    });
    problems.into_inner().unwrap()
}

#[test]
fn clblast_correctness_tests_pass_on_the_simulated_devices() {
    let dir = require!(Oracle::ClBlastPrograms);
    let programs = programs(&dir);
    // Debian's 1.5.3 package has 50 of them; fewer means the package changed under the test.
    assert!(
        programs.len() >= 50,
        "{} CLBlast test programs in {}",
        programs.len(),
        dir.display()
    );
    let programs = programs
        .into_iter()
        .map(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let name = n.trim_start_matches("clblast_test_").to_string();
            let in_ci = !CI_LEAVES_OUT.contains(&name.as_str());
            (name, p, vec!["-verbose".to_string()], in_ci)
        })
        .collect();
    let problems = run_all(&runs(programs), |run, out| {
        judge(&run.name, &run.dev, &parse(out))
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// CLBlast's kernel tuners that check every configuration they time against a reference run
/// (`clblast_tuner_routine_*` time whole routines and check nothing, so they are not here),
/// with problem sizes every configuration tiles exactly (smaller ones make some configurations
/// wrong by design), and whether the CI slice runs them: the GEMM and convolution tuners
/// compile a kernel per configuration, hundreds of seconds on two cores.
const TUNERS: &[(&str, &[&str], bool)] = &[
    ("xaxpy", &["-n", "32768"], true),
    ("xdot", &["-n", "32768"], true),
    ("invert", &[], true),
    ("transpose_pad", &["-m", "256", "-n", "256"], true),
    ("copy_pad", &["-m", "256", "-n", "256"], true),
    ("transpose_fast", &["-m", "256", "-n", "256"], false),
    ("copy_fast", &["-m", "256", "-n", "256"], false),
    ("xger", &["-m", "256", "-n", "256"], false),
    ("xgemv", &["-m", "1024", "-n", "1024"], false),
    ("xgemm_direct", &["-m", "64", "-n", "64", "-k", "64"], false),
    ("xgemm", &["-m", "128", "-n", "128", "-k", "128"], false),
    (
        "xconvgemm",
        &[
            "-channels",
            "8",
            "-height",
            "18",
            "-width",
            "18",
            "-num_kernels",
            "16",
            "-batch_num",
            "2",
        ],
        false,
    ),
];

/// Whether CLBlast's GEMM kernel takes its sub-group shuffle path in this configuration of
/// `clblast_tuner_xgemm` (`GEMMK=1`, `NWG / NDIMC == 8`, `MDIMC >= 8`; xgemm_part1.opencl
/// sets `USE_SUBGROUP_SHUFFLING` on a GPU with cl_intel_subgroups). That path assumes a
/// sub-group of 8 work-items ("Assumes subgroup size is always 8 on Intel GPUs") but the
/// kernel does not ask for one with `intel_reqd_sub_group_size`, so the compiler may choose
/// another SIMD width: IGC compiles e.g. `MWG=16 NWG=32 MDIMC=8 NDIMC=4` at SIMD16 (`ocloc
/// compile -device tgllp`, the execution environment's largest compiled SIMD size), and its
/// shuffles then read the wrong work-items, on hardware as here. Such a configuration may
/// fail; every other must match.
fn assumes_sub_group_of_8(tuner: &str, params: &std::collections::HashMap<&str, u64>) -> bool {
    let p = |k: &str| params.get(k).copied();
    tuner == "tuner xgemm"
        && p("GEMMK") == Some(1)
        && matches!((p("NWG"), p("NDIMC")), (Some(n), Some(d)) if d > 0 && n / d == 8)
        && p("MDIMC").is_some_and(|m| m >= 8)
}

/// A tuner's problems: its reference run must work and every configuration it tried must
/// match it (a row ending `<-- skipping` is a configuration that did not compile, did not run
/// or gave other results), but for [`assumes_sub_group_of_8`].
fn judge_tuner(name: &str, dev: &str, out: &str) -> Vec<String> {
    let what = format!("{name} on {dev}");
    let text = strip_ansi(out);
    let mut problems = Vec::new();
    let mut configs = 0;
    let mut names: Vec<&str> = Vec::new();
    for line in text.lines() {
        if let Some(list) = line.strip_prefix("* Parameters explored:") {
            names = list.split_whitespace().collect();
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(id) = cells.get(1) else { continue };
        if *id == "ref" {
            if !line.contains("reference OK") {
                problems.push(format!("{what}: reference run: {line}"));
            }
        } else if id.parse::<u64>().is_ok() && cells.len() > 3 {
            configs += 1;
            let values = cells[3]
                .split_whitespace()
                .map(|v| v.parse::<u64>().unwrap_or(u64::MAX));
            let params = names.iter().copied().zip(values).collect();
            if !line.contains("results match") && !assumes_sub_group_of_8(name, &params) {
                problems.push(format!("{what}: {line}"));
            }
        }
    }
    if configs == 0 || !text.contains("* Completed tuning process") {
        problems.push(format!(
            "{what}: no configuration tried, or stopped early:\n{text}"
        ));
    }
    problems
}

#[test]
fn clblast_tuners_find_every_configuration_right() {
    let dir = require!(Oracle::ClBlastPrograms);
    let tuners = TUNERS
        .iter()
        .map(|(tuner, args, in_ci)| {
            let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            // One timed run per configuration: the check, not the timing, is the point here.
            args.extend(["-runs".to_string(), "1".to_string()]);
            let program = dir.join(format!("clblast_tuner_{tuner}"));
            (format!("tuner {tuner}"), program, args, *in_ci)
        })
        .collect();
    let problems = run_all(&runs(tuners), |run, out| {
        judge_tuner(&run.name, &run.dev, out)
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_judge_finds_failures_in_clblast_output() {
    // The verbose output's shapes, as CLBlast 1.5.3 prints them (colour codes included).
    let out = "* Starting tests for the '\x1b[1mSAXPY\x1b[0m' routine. Legend:\n\
               \x20  Testing: n=7 [CLBlast] [CPU BLAS] -> \x1b[32m:\x1b[0m\n\
               \x20  Testing: n=93 [CLBlast] [CPU BLAS] -> \n\
               \x20  Error at index 3:  1.0 (reference) versus  2.0 (CLBlast)\n\
               \x20  Combined average L2 error: 1.0e+00\n\
               \x20  \x1b[31mX\x1b[0m\n\
               \x20  Testing: n=7 lda=3 [CLBlast] -> -1016 -> -\n\
               \x20  1 test(s) passed\n\
               \x20  0 test(s) skipped\n\
               \x20  1 test(s) failed\n\
               * Starting tests for the 'DAXPY' routine.\n\
               * All tests skipped: Unsupported precision\n\
               * Starting tests for the 'HAXPYBATCHED' routine. Legend:\n\
               \x20  Testing: n=7 batch_num=1 [CLBlast] [CPU BLAS] -> \n\
               \x20  Error at index 0:  nan (reference) versus  -0.508301 (CLBlast)\n\
               \x20  X\n\
               \x20  Testing: n=7 batch_num=3 [CLBlast] [CPU BLAS] -> \n\
               \x20  Error at index 2:  0.5 (reference) versus  -0.508301 (CLBlast)\n\
               \x20  X\n\
               \x20  0 test(s) passed\n\
               \x20  2 test(s) failed\n";
    let routines = parse(out);
    let names: Vec<&str> = routines.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["SAXPY", "DAXPY", "HAXPYBATCHED"]);
    assert!(routines[1].unsupported);
    let problems = judge("clblast_test_xaxpy", "sim:tgllp", &routines);
    // SAXPY's wrong element and HAXPYBATCHED's second case (a number on the reference side);
    // its first case is the harness's NaN, and DAXPY unsupported is right without fp64.
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(problems[0].contains("SAXPY") && problems[0].contains("n=93"));
    assert!(problems
        .iter()
        .any(|p| p.contains("HAXPYBATCHED") && p.contains("batch_num=3")));
    // On a device with fp64, DAXPY's "unsupported" is wrong.
    let on_skl = judge("clblast_test_xaxpy", "sim:skl", &routines);
    assert!(on_skl
        .iter()
        .any(|p| p.contains("DAXPY") && p.contains("device has it")));
}

#[test]
fn the_tuner_judge_finds_wrong_configurations() {
    // Rows as clblast_tuner_xgemv 1.5.3 prints them.
    let out = "|  ref |     - |              - |      64       1 |     256       1 |             OK |      0.23 ms |      - |      reference OK |\n\
               |   ID | total |   param |  local |  global |  compiles |  time |   GB/s |  status |\n\
               |   21 |    30 |  128    2    2 |     128       1 |     128       1 |   OK    383 ms |      3.46 ms |    0.1 |     \x1b[32mresults match\x1b[0m |\n\
               |   22 |    30 |  128    4    1 |     128       1 |     128       1 |   OK    433 ms |      5.79 ms |      - | L2 error 5.28e+03 | <-- skipping\n\
               * Completed tuning process\n";
    let problems = judge_tuner("tuner xgemv", "sim:tgllp", out);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0].contains("|   22 |"));
    // xgemm's shuffle-path configurations may fail (CLBlast assumes a sub-group of 8); the
    // same configuration with MDIMC = 4 takes the plain path and must match.
    let gemm = "* Parameters explored: GEMMK MWG NWG KWG MDIMC NDIMC MDIMA NDIMB KWI VWM VWN STRM STRN SA SB KREG \n\
                |   54 |   407 |    1   16   32    1    8    4    8    4    1    1    1    0    0    0    0    1 |       8       4 |      64      16 |   OK    269 ms |     33.26 ms |      - | L2 error 7.97e+03 | <-- skipping\n\
                |   55 |   407 |    1   16   32    1    4    4    4    4    1    1    1    0    0    0    0    1 |       4       4 |      64      16 |   OK    265 ms |     33.20 ms |      - | L2 error 7.97e+03 | <-- skipping\n\
                * Completed tuning process\n";
    let problems = judge_tuner("tuner xgemm", "sim:tgllp", gemm);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0].contains("|   55 |"));
    // The rule is xgemm's alone.
    assert_eq!(
        judge_tuner("tuner xgemm_direct", "sim:tgllp", gemm).len(),
        2
    );
    // A tuner that stopped before its table's end is a problem even with no wrong row.
    let cut = out.replace("* Completed tuning process", "");
    assert!(judge_tuner("tuner xgemv", "sim:tgllp", &cut)
        .iter()
        .any(|p| p.contains("stopped early")));
}
