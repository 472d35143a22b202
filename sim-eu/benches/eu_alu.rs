//! EU interpreter throughput in lane-ops/s: straight-line SIMD16 float `mad`/`add` and integer
//! `add`/`mul` sequences (assembled with isa-encoder's assembler), run to EOT per iteration.
//!
//! Criterion reports wall-clock throughput; on a shared machine that understates the
//! interpreter, so each case also prints lane-ops per second of this thread's CPU time.
//! `EU_ALU_FIXED=1` runs only that fixed loop (2000 runs per case) and skips criterion: a fixed
//! amount of work whose instruction count `valgrind --tool=callgrind` can compare between builds.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use platform::Platform;
use sim_eu::{run, NoMemory, Program, Status, Thread};

const BODY: usize = 512;

fn kernel(lines: [&str; 2]) -> Program {
    let mut text = String::new();
    for i in 0..BODY {
        text.push_str(lines[i % 2]);
        text.push('\n');
    }
    text.push_str("send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}\n");
    let bytes = isa_encoder::assemble(Platform::Tgllp, &text).expect("assembles");
    Program::decode(Platform::Tgllp, &bytes)
}

fn bench(c: &mut Criterion) {
    let cases = [
        (
            "f32_mad_add_simd16",
            [
                "mad (16|M0) r10.0<1>:f r10.0<1;0>:f r12.0<1;0>:f r14.0<1>:f",
                "add (16|M0) r16.0<1>:f r10.0<8;8,1>:f r12.0<8;8,1>:f",
            ],
        ),
        (
            "d_add_mul_simd16",
            [
                "add (16|M0) r10.0<1>:d r10.0<8;8,1>:d r12.0<8;8,1>:d",
                "mul (16|M0) r16.0<1>:d r10.0<8;8,1>:d r12.0<16;8,2>:w",
            ],
        ),
    ];
    let fixed_only = std::env::var_os("EU_ALU_FIXED").is_some();
    let mut g = c.benchmark_group("eu_alu");
    g.throughput(Throughput::Elements((BODY * 16) as u64));
    for (name, lines) in cases {
        let prog = kernel(lines);
        let mut t = Thread::new(0xffff);
        let cpu = || {
            nix::time::clock_gettime(nix::time::ClockId::CLOCK_THREAD_CPUTIME_ID)
                .map(|ts| ts.tv_sec() as f64 + ts.tv_nsec() as f64 * 1e-9)
                .unwrap_or(0.0)
        };
        let iters = 2000;
        let start = cpu();
        for _ in 0..iters {
            t.restart(0xffff);
            run(&mut t, &prog, &mut NoMemory, u64::MAX).expect("runs");
        }
        let secs = cpu() - start;
        println!(
            "eu_alu/{name}: {:.1} M lane-ops per CPU-second",
            (iters * BODY * 16) as f64 / secs / 1e6
        );
        if fixed_only {
            continue;
        }
        g.bench_function(name, |b| {
            b.iter(|| {
                t.restart(0xffff);
                let st = run(&mut t, &prog, &mut NoMemory, u64::MAX).expect("runs");
                assert_eq!(st, Status::Ended);
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
