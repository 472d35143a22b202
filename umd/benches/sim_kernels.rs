//! The simulated GPU on whole IGC kernels, and side by side with a CPU OpenCL (PoCL).
//!
//! OpenCL C written for this bench (`data/portable.cl`: SAXPY, a 64-step multiply-add loop, a
//! work-group tree reduction through local memory with barriers, divergent control flow;
//! `data/subgroups.cl`: sub-group block IO, shuffles and a sub-group reduction) is compiled by
//! ocloc for Gen12LP when the bench starts and dispatched through umd on sim:tgllp (i915), each
//! walker on one host thread and on one per host core. For each it prints the median wall time
//! per dispatch (synchronous: build, submit, run, wait) of 5, the process's CPU time per
//! dispatch (median; on a shared machine the figure that compares) and the simulator's
//! lane-ops/s: EU instructions executed times the SIMD width, per second of that wall time.
//!
//! Then the portable kernels run on PoCL (Debian `pocl-opencl-icd`, through PyOpenCL, only
//! the PoCL ICD visible) with the same sizes and inputs, timed the same way (enqueue and finish,
//! median of 5 after a warm-up run), and the bench prints simulator / PoCL and whether the two
//! outputs are bit-identical. A missing ocloc or PoCL prints why and skips that part.
//!
//! `cargo bench -p umd --bench sim_kernels`
//!
//! For instruction counts (`valgrind --tool=callgrind`, repeatable on a shared machine):
//! `SIM_KERNELS_CASES=saxpy,branchy` runs only those cases, `SIM_KERNELS_THREADS=1` (or `0`,
//! one per core) only that host-thread setting; with either set PoCL is not run.
//! `SIM_KERNELS_RUNS=200` times that many dispatches instead of 5 (for `perf record`).

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use oracles::ocloc::{compile, Format};
use platform::Platform;
use sim::dispatch::{EuBudget, EuExecutor};
use umd::device::{Device, KmdChoice};
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const PORTABLE: &str = include_str!("data/portable.cl");
const SUBGROUPS: &str = include_str!("data/subgroups.cl");
const ITEMS: u32 = 262_144;
const LOCAL: u32 = 256;
const RUNS: usize = 5;
const POCL_ICD: &str = "/etc/OpenCL/vendors/pocl.icd";

/// One benchmark case: kernel, which source, arguments (by kind) and output argument.
struct Case {
    name: &'static str,
    portable: bool,
    args: &'static [Arg],
}

#[derive(Clone, Copy)]
enum Arg {
    /// ITEMS floats or words of the input pattern.
    Input,
    /// ITEMS words, zero (the output).
    Output,
    /// One word per work-group, zero (the output).
    GroupOutput,
    /// A float by value.
    Float(f32),
    /// Local memory, one word per work item of a group.
    Local,
}

const CASES: &[Case] = &[
    Case {
        name: "saxpy",
        portable: true,
        args: &[Arg::Input, Arg::Output, Arg::Float(2.5)],
    },
    Case {
        name: "mad_loop",
        portable: true,
        args: &[Arg::Input, Arg::Output],
    },
    Case {
        name: "group_sum",
        portable: true,
        args: &[Arg::Input, Arg::GroupOutput, Arg::Local],
    },
    Case {
        name: "branchy",
        portable: true,
        args: &[Arg::Input, Arg::Output],
    },
    Case {
        name: "escape_time",
        portable: true,
        args: &[Arg::Input, Arg::Output],
    },
    Case {
        name: "block_shuffle",
        portable: false,
        args: &[Arg::Input, Arg::Output],
    },
];

/// The input words: small floats (exact quarters) for float kernels, mixed bits otherwise.
fn input(case: &str) -> Vec<u8> {
    (0..ITEMS)
        .flat_map(|i| {
            let x = (i + 1).wrapping_mul(0x9e37_79b9);
            let x = x ^ (x >> 15);
            let w = match case {
                "branchy" | "block_shuffle" => x,
                _ => ((x % 2001) as f32 * 0.25 - 250.0).to_bits(),
            };
            w.to_le_bytes()
        })
        .collect()
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// CPU time the process (all its threads) used so far.
fn cpu_time() -> Duration {
    use nix::time::{clock_gettime, ClockId};
    clock_gettime(ClockId::CLOCK_PROCESS_CPUTIME_ID).map_or(Duration::ZERO, Duration::from)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

struct SimResult {
    time: Duration,
    /// CPU time of the whole process per dispatch (median): on a loaded machine the figure
    /// that still compares (wall time then mostly waits for a core).
    cpu: Duration,
    lane_ops_per_s: f64,
    output: Vec<u8>,
}

fn run_sim(bin: &[u8], case: &Case, host_threads: usize) -> Result<SimResult, String> {
    let p = Platform::Tgllp;
    let exec = Arc::new(
        EuExecutor::new(EuBudget {
            instructions: u64::MAX,
            time: Duration::from_secs(600),
        })
        .with_host_threads(host_threads),
    );
    let cfg = sim::SimConfig {
        walker: exec.clone(),
        ..Default::default()
    };
    let dev = sim::open_device(p, sim::Kmd::I915, cfg).map_err(err)?;
    let d = Device::open_device_file(format!("sim:{}", p.name()), dev, Some(KmdChoice::I915))
        .map_err(err)?;
    let kernel = Kernel::from_ocloc(bin, Some(case.name), Some(p)).map_err(err)?;
    let range = NdRange::new(&[ITEMS], Some(&[LOCAL]), kernel.simd, None).map_err(err)?;
    let mut out = None;
    let mut args = Vec::new();
    for a in case.args {
        args.push(match *a {
            Arg::Input => {
                let b = d.create_buffer(u64::from(ITEMS) * 4).map_err(err)?;
                b.write(0, &input(case.name)).map_err(err)?;
                ArgValue::Buffer(b)
            }
            Arg::Output | Arg::GroupOutput => {
                let n = if matches!(a, Arg::Output) {
                    ITEMS
                } else {
                    ITEMS / LOCAL
                };
                let b = d.create_buffer(u64::from(n) * 4).map_err(err)?;
                out = Some(b.clone());
                ArgValue::Buffer(b)
            }
            Arg::Float(f) => ArgValue::Value(f.to_le_bytes().to_vec()),
            Arg::Local => ArgValue::Local(LOCAL * 4),
        });
    }
    let out = out.ok_or("no output argument")?;
    // Warm: kernel resident, arena pooled.
    d.dispatch(&kernel, &range, &args).map_err(err)?;
    // SAXPY updates its output in place: every run starts from the same zeroed output.
    let zero = vec![0u8; out.size() as usize];
    let (mut times, mut cpus, before) = (Vec::new(), Vec::new(), exec.instructions_executed());
    let runs = sim_runs();
    for _ in 0..runs {
        out.write(0, &zero).map_err(err)?;
        let (start, cpu) = (Instant::now(), cpu_time());
        d.dispatch(&kernel, &range, &args).map_err(err)?;
        times.push(start.elapsed());
        cpus.push(cpu_time().saturating_sub(cpu));
    }
    let insts = (exec.instructions_executed() - before) / runs as u64;
    let time = median(times);
    Ok(SimResult {
        time,
        cpu: median(cpus),
        lane_ops_per_s: (insts * u64::from(kernel.simd)) as f64 / time.as_secs_f64(),
        output: out.to_vec().map_err(err)?,
    })
}

/// Dispatches timed per case: `SIM_KERNELS_RUNS` (for profiles), else [`RUNS`].
fn sim_runs() -> usize {
    std::env::var("SIM_KERNELS_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(RUNS)
}

/// PyOpenCL on PoCL: prints one line per kernel: name, median seconds, output hex digest.
const POCL_SCRIPT: &str = r#"
import hashlib, sys, time
import numpy as np, pyopencl as cl
src, items, local, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
ctx = cl.Context(cl.get_platforms()[0].get_devices())
q = cl.CommandQueue(ctx)
prg = cl.Program(ctx, open(src).read()).build()
mf = cl.mem_flags
for line in sys.stdin:
    name, kind = line.split()
    i = np.arange(1, items + 1, dtype=np.uint64)
    h = (i * 0x9e3779b9) & 0xffffffff
    h = (h ^ (h >> 15)).astype(np.uint32)
    data = h if kind == "bits" else ((h % 2001).astype(np.float32) * 0.25 - 250.0).astype(np.float32)
    xin = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
    nout = items // local if name == "group_sum" else items
    out = cl.Buffer(ctx, mf.READ_WRITE, size=nout * 4)
    zero = np.zeros(nout, dtype=np.uint32)
    k = getattr(prg, name)
    args = {"saxpy": (xin, out, np.float32(2.5)), "mad_loop": (xin, out),
            "group_sum": (xin, out, cl.LocalMemory(local * 4)), "branchy": (xin, out),
            "escape_time": (xin, out)}[name]
    ts = []
    for r in range(runs + 1):
        cl.enqueue_copy(q, out, zero); q.finish()
        t = time.perf_counter()
        k(q, (items,), (local,), *args); q.finish()
        if r: ts.append(time.perf_counter() - t)
    res = np.empty(nout, dtype=np.uint32); cl.enqueue_copy(q, res, out); q.finish()
    ts.sort()
    print(name, ts[len(ts) // 2], hashlib.sha256(res.tobytes()).hexdigest(), flush=True)
"#;

/// Runs the portable kernels on PoCL: (name, seconds, sha256 of the output) per kernel.
fn run_pocl(src: &std::path::Path) -> Result<Vec<(String, f64, String)>, String> {
    if !std::path::Path::new(POCL_ICD).exists() {
        return Err(format!(
            "{POCL_ICD} missing (scripts/setup-oracles installs PoCL)"
        ));
    }
    let mut child = Command::new("/usr/bin/python3")
        .args(["-c", POCL_SCRIPT])
        .arg(src)
        .args([ITEMS.to_string(), LOCAL.to_string(), RUNS.to_string()])
        .env("OCL_ICD_VENDORS", POCL_ICD)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("python3: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    for c in CASES.iter().filter(|c| c.portable) {
        let kind = if c.name == "branchy" { "bits" } else { "float" };
        writeln!(stdin, "{} {kind}", c.name).map_err(|e| e.to_string())?;
    }
    drop(stdin);
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            match f[..] {
                [n, s, h] => Ok((n.into(), s.parse().map_err(|_| l.to_string())?, h.into())),
                _ => Err(format!("unexpected PoCL line {l:?}")),
            }
        })
        .collect()
}

fn sha256_hex(bytes: &[u8]) -> Result<String, String> {
    let mut child = Command::new("sha256sum")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("sha256sum: {e}"))?;
    child
        .stdin
        .take()
        .ok_or("no stdin")?
        .write_all(bytes)
        .map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    Ok(String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string())
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this too: keep it to
    // benches.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let Some(ocloc) = oracles::Oracle::Ocloc.locate() else {
        println!("SKIP sim_kernels: ocloc not found");
        return;
    };
    let p = Platform::Tgllp;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "sim:tgllp (i915), {ITEMS} work items, local {LOCAL}; host: {cores} cores, load average {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let dir = tempfile::tempdir().expect("temporary directory");
    let portable_path = dir.path().join("portable.cl");
    std::fs::write(&portable_path, PORTABLE).expect("write the kernel source");
    let only_cases = std::env::var("SIM_KERNELS_CASES").ok();
    let only_threads = std::env::var("SIM_KERNELS_THREADS").ok();
    let thread_settings: Vec<usize> = match only_threads.as_deref().map(str::parse) {
        Some(Ok(t)) => vec![t],
        Some(Err(_)) => {
            println!("SIM_KERNELS_THREADS must be a number (0: one per core)");
            return;
        }
        None => vec![1, 0],
    };
    let wanted = |name: &str| {
        only_cases
            .as_deref()
            .is_none_or(|l| l.split(',').any(|c| c == name))
    };
    let mut sim_all = Vec::new();
    for (src, opts, portable) in [
        (PORTABLE, "-cl-std=CL2.0", true),
        (SUBGROUPS, "-cl-std=CL2.0", false),
    ] {
        let bin = match compile(&ocloc, p, src, opts, Format::PatchTokens) {
            Ok(b) => b,
            Err(e) => {
                println!("ocloc: {e}");
                continue;
            }
        };
        for case in CASES
            .iter()
            .filter(|c| c.portable == portable && wanted(c.name))
        {
            let mut line = format!("{:<14}", case.name);
            for &threads in &thread_settings {
                match run_sim(&bin, case, threads) {
                    Ok(r) => {
                        line += &format!(
                            " | {} host thread{}: {:>8.2} ms/dispatch ({:>7.2} ms CPU) {:>7.1} M lane-ops/s",
                            if threads == 0 { cores } else { threads },
                            if threads == 1 { " " } else { "s" },
                            r.time.as_secs_f64() * 1e3,
                            r.cpu.as_secs_f64() * 1e3,
                            r.lane_ops_per_s / 1e6
                        );
                        if threads == 0 {
                            sim_all.push((case.name, r));
                        }
                    }
                    Err(e) => line += &format!(" | {e}"),
                }
            }
            println!("{line}");
        }
    }
    if only_cases.is_some() || only_threads.is_some() {
        return;
    }
    match run_pocl(&portable_path) {
        Err(e) => println!("SKIP PoCL side by side: {e}"),
        Ok(rows) => {
            for (name, secs, digest) in rows {
                let Some((_, r)) = sim_all.iter().find(|(n, _)| *n == name) else {
                    continue;
                };
                let same = sha256_hex(&r.output).map(|h| h == digest);
                println!(
                    "{name:<14} PoCL {:>8.2} ms, simulator ({cores} host threads) {:>8.2} ms: {:.1}x PoCL's time; outputs {}",
                    secs * 1e3,
                    r.time.as_secs_f64() * 1e3,
                    r.time.as_secs_f64() / secs,
                    match same {
                        Ok(true) => "bit-identical",
                        Ok(false) => "differ",
                        Err(_) => "not compared",
                    }
                );
            }
        }
    }
}
