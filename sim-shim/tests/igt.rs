//! IGT 1.27's tools (Debian `intel-gpu-tools`) under the shim: `intel_gem_info` and the
//! benchmarks that apply to a compute-capable render node, each with short parameters. Those
//! that run must exit 0 and print their results; those that stop are run too, and the test
//! asserts their exact current stop, so that a change is noticed (then update the fidelity
//! list in `firmware-notes/simulator.md` and this test).
//!
//! IGT 1.27's device discovery wants `/dev/dri/card0` (a primary node), `/sys/module/i915`,
//! and debugfs's `dri/0` (it writes `i915_gem_drop_caches` after every open); the shim gives
//! all three. Every benchmark here asks for an i915 device, so they run on `<platform>@i915`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use oracles::Oracle;

/// The shim library cargo built for this test profile.
fn library() -> PathBuf {
    oracles::workspace::cdylib("sim-shim", "libintel_gpu_sim_shim.so")
}

/// `intel_gem_info` or a benchmark, with the shim on the given simulated GPU.
#[derive(Clone, Copy)]
struct Run {
    sim: &'static str,
    tool: &'static str,
    args: &'static [&'static str],
}

impl Run {
    fn start(&self, benchmarks: &Path) -> Child {
        let exe = if self.tool == "intel_gem_info" {
            PathBuf::from(self.tool)
        } else {
            benchmarks.join(self.tool)
        };
        Command::new(exe)
            .args(self.args)
            .env("LD_PRELOAD", library())
            .env("INTEL_GPU_SIM", self.sim)
            .env_remove("IGT_DEVICE")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("start {}: {e}", self.tool))
    }

    fn name(&self) -> String {
        format!("{} {} on {}", self.tool, self.args.join(" "), self.sim)
    }
}

/// Runs every entry at once (the benchmarks are timed loops of a few seconds each, mostly
/// asleep or in the simulator's waits) and returns their outputs in order.
fn run_all(runs: &[Run], benchmarks: &Path) -> Vec<(Output, String, String)> {
    let children: Vec<Child> = runs.iter().map(|r| r.start(benchmarks)).collect();
    children
        .into_iter()
        .map(|c| {
            let o = c.wait_with_output().expect("wait for the tool");
            let out = String::from_utf8_lossy(&o.stdout).into_owned();
            let err = String::from_utf8_lossy(&o.stderr).into_owned();
            (o, out, err)
        })
        .collect()
}

/// Lines of stdout that are one number each (how the timed benchmarks report).
fn numbers(out: &str) -> Vec<f64> {
    out.lines().filter_map(|l| l.trim().parse().ok()).collect()
}

#[test]
fn igt_tools_that_apply_run_to_completion() {
    let Some(benchmarks) = oracles::get(Oracle::Igt, "igt tools under the shim") else {
        return;
    };
    let runs = [
        // GEM_SW_FINISH on handle 0: ENOENT means GEM works (exit 0, prints nothing).
        Run {
            sim: "tgllp@i915",
            tool: "intel_gem_info",
            args: &[],
        },
        Run {
            sim: "skl@i915",
            tool: "intel_gem_info",
            args: &[],
        },
        Run {
            sim: "dg2@i915",
            tool: "intel_gem_info",
            args: &[],
        },
        // GEM_PREAD / GEM_PWRITE of 1 B .. 8 MiB: one line per size (24).
        Run {
            sim: "tgllp@i915",
            tool: "gem_prw",
            args: &["-r", "1", "-D", "read"],
        },
        Run {
            sim: "tgllp@i915",
            tool: "gem_prw",
            args: &["-r", "1", "-D", "write"],
        },
        // DG2 refuses PREAD/PWRITE (EOPNOTSUPP); IGT then copies through an mmap.
        Run {
            sim: "dg2@i915",
            tool: "gem_prw",
            args: &["-r", "1", "-D", "write"],
        },
        // SET_CACHING(NONE), then CPU/GTT set-domain flips for 2 s: one rate.
        Run {
            sim: "tgllp@i915",
            tool: "gem_set_domain",
            args: &["-r", "1"],
        },
        // create + set-domain + close for 2 s per size, 4 KiB .. 8 MiB: 12 lines.
        Run {
            sim: "tgllp@i915",
            tool: "gem_create",
            args: &["-r", "1"],
        },
        // Busy batches from a thread per CPU while measuring wake-up latency for 1 s.
        Run {
            sim: "tgllp@i915",
            tool: "gem_syslatency",
            args: &["-t", "1"],
        },
        // Userptr create/destroy rates (3 s each).
        Run {
            sim: "tgllp@i915",
            tool: "gem_userptr_benchmark",
            args: &["--run-subtest", "userptr-sync"],
        },
        // igt_fork children use the parent's fd (forwarded to the parent's GPU): nops per
        // second, create rate, and busy queries on a relocated self-referencing spinner.
        Run {
            sim: "tgllp@i915",
            tool: "gem_exec_nop",
            args: &["-r", "1"],
        },
        Run {
            sim: "tgllp@i915",
            tool: "gem_create",
            args: &["-s", "4096", "-r", "1"],
        },
        Run {
            sim: "tgllp@i915",
            tool: "gem_busy",
            args: &["-r", "1"],
        },
        // Empty batches on a GEM_FLINKed object that every file (each its own `open` of
        // card0) GEM_OPENs: µs per batch, with a context per batch ("create"), and from
        // forked children ("-f": a child's files forward to the parent's GPU).
        Run {
            sim: "tgllp@i915",
            tool: "gem_exec_ctx",
            args: &["-r", "1", "-b", "default"],
        },
        Run {
            sim: "tgllp@i915",
            tool: "gem_exec_ctx",
            args: &["-r", "1", "-s", "-b", "create"],
        },
        Run {
            sim: "skl@i915",
            tool: "gem_exec_ctx",
            args: &["-r", "1", "-f", "-b", "switch"],
        },
        // Relocated batches, its default parameters: one time per line.
        Run {
            sim: "tgllp@i915",
            tool: "gem_exec_reloc",
            args: &[],
        },
        // XY_SRC_COPY_BLT copies on I915_EXEC_BLT of a buffer uploaded by small pwrites
        // (1060 of 128 KiB), by large pwrites, through a GTT (here WC) mapping, or through
        // the legacy GEM_MMAP (220 of 1 MiB each): iterations, seconds and MB/s.
        Run {
            sim: "tgllp@i915",
            tool: "intel_upload_blit_small",
            args: &[],
        },
        Run {
            sim: "tgllp@i915",
            tool: "intel_upload_blit_large",
            args: &[],
        },
        Run {
            sim: "tgllp@i915",
            tool: "intel_upload_blit_large_gtt",
            args: &[],
        },
        Run {
            sim: "tgllp@i915",
            tool: "intel_upload_blit_large_map",
            args: &[],
        },
        // 1 MiB XY_SRC_COPY_BLT copies from a forked child, its batch written through the
        // legacy GEM_MMAP: one rate (MiB/s).
        Run {
            sim: "tgllp@i915",
            tool: "gem_blt",
            args: &["-r", "1", "-t", "1"],
        },
    ];
    let results = run_all(&runs, &benchmarks);
    for (r, (o, out, err)) in runs.iter().zip(&results) {
        let name = r.name();
        assert!(o.status.success(), "{name}: {}\n{out}\n{err}", o.status);
        match r.tool {
            "intel_gem_info" => {}
            "gem_prw" => assert_eq!(numbers(out).len(), 24, "{name}:\n{out}\n{err}"),
            "gem_set_domain" => {
                assert!(err.contains("size=1048576, cpu=0, gtt=0"), "{name}: {err}");
                let n = numbers(out);
                assert!(n.len() == 1 && n[0] > 0.0, "{name}:\n{out}");
            }
            "gem_create" if r.args[0] == "-s" => {
                let n = numbers(out);
                assert!(n.len() == 1 && n[0] > 0.0, "{name}:\n{out}\n{err}");
            }
            "gem_create" => assert_eq!(numbers(out).len(), 12, "{name}:\n{out}\n{err}"),
            "gem_exec_reloc" => {
                let n = numbers(out);
                assert!(
                    !n.is_empty() && n.iter().all(|t| *t > 0.0),
                    "{name}:\n{out}\n{err}"
                );
            }
            t if t.starts_with("intel_upload_blit_") => {
                let n = if t.ends_with("small") { 1000 } else { 200 };
                let rate = out
                    .strip_prefix(&format!("{n} iterations in "))
                    .and_then(|l| l.split(": ").nth(1))
                    .and_then(|r| r.trim().strip_suffix(" MB/sec"))
                    .and_then(|r| r.parse::<f64>().ok());
                assert!(rate.is_some_and(|r| r > 0.0), "{name}:\n{out}\n{err}");
            }
            "gem_exec_nop" | "gem_busy" | "gem_exec_ctx" | "gem_blt" => {
                let n = numbers(out);
                assert!(n.len() == 1 && n[0] > 0.0, "{name}:\n{out}\n{err}");
            }
            "gem_syslatency" => assert!(
                out.contains("gem_syslatency: cycles=") && out.contains("latency mean="),
                "{name}:\n{out}\n{err}"
            ),
            "gem_userptr_benchmark" => {
                assert!(
                    out.contains("Subtest userptr-sync: SUCCESS"),
                    "{name}:\n{out}\n{err}"
                );
                for what in [
                    "create-destroy ",
                    "multi-create-destroy ",
                    "multi-create-destroy-random ",
                ] {
                    let rate = out
                        .lines()
                        .find(|l| l.starts_with(what))
                        .and_then(|l| l.split('=').nth(1))
                        .and_then(|v| v.trim().strip_suffix("iter/s"))
                        .and_then(|v| v.trim().parse::<u64>().ok());
                    assert!(rate.is_some_and(|r| r > 0), "{name}: {what}\n{out}");
                }
            }
            other => unreachable!("{other}"),
        }
    }
}

/// IGT's exit code for a failed test (`IGT_EXIT_FAILURE`) and a skipped one.
const IGT_FAIL: i32 = 98;
const IGT_SKIP: i32 = 77;

#[test]
fn igt_benchmarks_that_stop_stop_where_the_fidelity_list_says() {
    let Some(benchmarks) = oracles::get(Oracle::Igt, "igt stops under the shim") else {
        return;
    };
    // (run, exit code, what the output must contain)
    let stops: [(Run, i32, &[&str]); 2] = [
        // DG2: i915 refuses the legacy GEM_MMAP (EOPNOTSUPP), IGT maps another way, and
        // then the batch's relocations are refused (EINVAL: none from Gen12.50 on).
        (
            Run {
                sim: "dg2@i915",
                tool: "gem_blt",
                args: &["-r", "1", "-t", "1"],
            },
            IGT_FAIL,
            &["function gem_execbuf", "error: -22 != 0"],
        ),
        // It reads the timestamp register through the PCI BAR; it stops before, finding no
        // `subsystem` link in the PCI device's sysfs directory.
        (
            Run {
                sim: "tgllp@i915",
                tool: "gem_latency",
                args: &["-t", "1"],
            },
            IGT_SKIP,
            &["Unable to find device PCI address"],
        ),
    ];
    let runs: Vec<Run> = stops.iter().map(|(r, ..)| *r).collect();
    let results = run_all(&runs, &benchmarks);
    for ((r, code, want), (o, out, err)) in stops.iter().zip(&results) {
        let name = r.name();
        let text = format!("{out}{err}");
        assert_eq!(
            o.status.code(),
            Some(*code),
            "{name} no longer stops as listed: update firmware-notes/simulator.md and this test\n{text}"
        );
        for w in *want {
            assert!(text.contains(w), "{name}: expected {w:?} in\n{text}");
        }
    }
}
