//! What the simulator's sanitizer costs: whole IGC kernels of `data/portable.cl` (SAXPY, the
//! work-group tree reduction through local memory with barriers, divergent control flow),
//! compiled by ocloc for Gen12LP, dispatched through umd on sim:tgllp (i915) with the sanitizer
//! off and with each check on (`memcheck`, `initcheck`, `racecheck`, `synccheck`,
//! `alignment`), with all of them, and with the execution statistics (`stats`, which also
//! print their table on stderr per dispatch). The kernels are correct programs: no finding is
//! made, every access is checked.
//!
//! One host thread runs each walker, and the time measured is the process's CPU time per
//! dispatch (build, submit, run, wait), which on a shared machine compares where wall time
//! mostly waits for a core. `SANITIZER_COST_ITEMS` sets the work items (default 262,144, as
//! `sim_kernels`); the ratio sanitized / off is the figure the sanitizer's target (≤ 20×)
//! is about.
//!
//! `cargo bench -p umd --bench sanitizer_cost`

use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use oracles::ocloc::{compile, Format};
use platform::Platform;
use sim::dispatch::{EuBudget, EuExecutor};
use sim::sanitize::{Checks, Settings};
use umd::device::{Device, KmdChoice};
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const PORTABLE: &str = include_str!("data/portable.cl");
const LOCAL: u32 = 256;

/// The sanitizer settings measured, by name ("off": none).
const SETTINGS: &[&str] = &[
    "off",
    "memcheck",
    "initcheck",
    "racecheck",
    "synccheck",
    "alignment",
    "all",
    "stats",
];

fn items() -> u32 {
    std::env::var("SANITIZER_COST_ITEMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n: &u32| n >= LOCAL && n % LOCAL == 0)
        .unwrap_or(262_144)
}

/// CPU time the process (all its threads) used so far.
fn cpu_time() -> Duration {
    use nix::time::{clock_gettime, ClockId};
    clock_gettime(ClockId::CLOCK_PROCESS_CPUTIME_ID).map_or(Duration::ZERO, Duration::from)
}

/// A sim:tgllp device on one host thread, with the sanitizer running `checks` ("off": none).
fn device(checks: &str) -> Device {
    let exec = Arc::new(
        EuExecutor::new(EuBudget {
            instructions: u64::MAX,
            time: Duration::from_secs(600),
        })
        .with_host_threads(1),
    );
    let checks = if checks == "off" {
        Checks::NONE
    } else {
        Checks::parse(checks).expect("check names")
    };
    let config = sim::SimConfig {
        walker: exec,
        sanitize: Some(Settings { checks, log: None }),
        ..Default::default()
    };
    Device::open_sim_config(Platform::Tgllp, Some(KmdChoice::I915), config).expect("sim:tgllp")
}

/// The kernel's arguments on `d`: input words written by the host, output, and for
/// group_sum a local buffer of one word per work item.
fn args(d: &Device, case: &str, items: u32) -> Vec<ArgValue> {
    let input: Vec<u8> = (0..items)
        .flat_map(|i| {
            let x = (i + 1).wrapping_mul(0x9e37_79b9);
            let x = x ^ (x >> 15);
            match case {
                "branchy" => x,
                _ => ((x % 2001) as f32 * 0.25 - 250.0).to_bits(),
            }
            .to_le_bytes()
        })
        .collect();
    let a = d.create_buffer(u64::from(items) * 4).expect("buffer");
    a.write(0, &input).expect("write");
    let out_words = if case == "group_sum" {
        items / LOCAL
    } else {
        items
    };
    let out = d.create_buffer(u64::from(out_words) * 4).expect("buffer");
    out.write(0, &vec![0; out_words as usize * 4])
        .expect("write");
    let mut v = vec![ArgValue::Buffer(a), ArgValue::Buffer(out)];
    match case {
        "saxpy" => v.push(ArgValue::Value(2.5f32.to_le_bytes().to_vec())),
        "group_sum" => v.push(ArgValue::Local(LOCAL * 4)),
        _ => {}
    }
    v
}

fn bench(c: &mut Criterion) {
    let Some(ocloc) = oracles::Oracle::Ocloc.locate() else {
        println!("SKIP sanitizer_cost: ocloc not found");
        return;
    };
    let p = Platform::Tgllp;
    let bin = compile(&ocloc, p, PORTABLE, "-cl-std=CL2.0", Format::PatchTokens)
        .expect("ocloc compiles portable.cl");
    let items = items();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "sim:tgllp (i915), 1 host thread, {items} work items, local {LOCAL}; CPU time per \
         dispatch; load average {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    for case in ["saxpy", "group_sum", "branchy"] {
        let mut g = c.benchmark_group(format!("sanitizer_cost/{case}"));
        // Flat: every sample the same number of dispatches (a sanitized one takes up to a second).
        g.sample_size(10)
            .sampling_mode(criterion::SamplingMode::Flat)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3));
        for &setting in SETTINGS {
            let d = device(setting);
            let kernel = Kernel::from_ocloc(&bin, Some(case), Some(p)).expect("kernel");
            let range = NdRange::new(&[items], Some(&[LOCAL]), kernel.simd, None).expect("range");
            let a = args(&d, case, items);
            g.bench_function(setting, |b| {
                b.iter_custom(|n| {
                    let start = cpu_time();
                    for _ in 0..n {
                        d.dispatch(&kernel, &range, &a).expect("dispatch");
                    }
                    cpu_time().saturating_sub(start)
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
