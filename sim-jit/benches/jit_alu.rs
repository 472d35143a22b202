//! Translated-path throughput in lane-ops per CPU-second: `eu_alu`'s kernels (512 straight-line
//! SIMD16 f32 `mad`/`add` or i32 `add`/`mul` instructions, then an EOT send) and an f16
//! convolution's accumulation (`:hf` `mad`s with a broadcast weight, on registers holding
//! activations near 0.5 and weights near 0.01) and an f32 one (eight accumulators in turn, each
//! a row times a broadcast weight: the runs of `mad`s `sim_jit::mads` computes; the same at f16)
//! run to EOT, once
//! through the interpreter and once through `sim_jit::run`, alternately, on this thread's CPU
//! time (wall-clock time on a shared machine says little). `JIT_ALU_RUNS` sets the runs per
//! case and path (2000); `INTEL_GPU_SIM_JIT_DUMP` writes the kernels' translations out.

use platform::Platform;
use sim_eu::{NoMemory, Program, Status, Thread};
use sim_jit::Translated;

const BODY: usize = 512;

fn kernel(lines: &[&str]) -> (Program, Vec<u8>) {
    let mut text = String::new();
    for i in 0..BODY {
        text.push_str(lines[i % lines.len()]);
        text.push('\n');
    }
    text.push_str("send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}\n");
    let bytes = isa_encoder::assemble(Platform::Tgllp, &text).expect("assembles");
    (Program::decode(Platform::Tgllp, &bytes), bytes)
}

fn cpu() -> f64 {
    nix::time::clock_gettime(nix::time::ClockId::CLOCK_THREAD_CPUTIME_ID)
        .map(|ts| ts.tv_sec() as f64 + ts.tv_nsec() as f64 * 1e-9)
        .unwrap_or(0.0)
}

fn main() {
    let cases: [(&str, &[&str]); 5] = [
        (
            "f32_mad_add_simd16",
            &[
                "mad (16|M0) r10.0<1>:f r10.0<1;0>:f r12.0<1;0>:f r14.0<1>:f",
                "add (16|M0) r16.0<1>:f r10.0<8;8,1>:f r12.0<8;8,1>:f",
            ],
        ),
        (
            "d_add_mul_simd16",
            &[
                "add (16|M0) r10.0<1>:d r10.0<8;8,1>:d r12.0<8;8,1>:d",
                "mul (16|M0) r16.0<1>:d r10.0<8;8,1>:d r12.0<16;8,2>:w",
            ],
        ),
        (
            "hf_mad_simd16",
            &[
                "mad (16|M0) r10.0<1>:hf r10.0<8;1>:hf r12.0<8;1>:hf r14.0<0>:hf",
                "mad (16|M0) r11.0<1>:hf r11.0<8;1>:hf r12.0<8;1>:hf r14.1<0>:hf",
            ],
        ),
        // An f32 convolution's accumulation: eight accumulators in turn, a row times one
        // weight each (the runs of `mad`s translated code computes by a call).
        (
            "f32_conv_mads_simd16",
            &[
                "mad (16|M0) r20.0<1>:f r20.0<1;0>:f r12.0<1;0>:f r14.0<0>:f",
                "mad (16|M0) r22.0<1>:f r22.0<1;0>:f r12.0<1;0>:f r14.1<0>:f",
                "mad (16|M0) r24.0<1>:f r24.0<1;0>:f r12.0<1;0>:f r14.2<0>:f",
                "mad (16|M0) r26.0<1>:f r26.0<1;0>:f r12.0<1;0>:f r14.3<0>:f",
                "mad (16|M0) r28.0<1>:f r28.0<1;0>:f r12.0<1;0>:f r14.4<0>:f",
                "mad (16|M0) r30.0<1>:f r30.0<1;0>:f r12.0<1;0>:f r14.5<0>:f",
                "mad (16|M0) r32.0<1>:f r32.0<1;0>:f r12.0<1;0>:f r14.6<0>:f",
                "mad (16|M0) r34.0<1>:f r34.0<1;0>:f r12.0<1;0>:f r14.7<0>:f",
            ],
        ),
        // The same at f16 (IGC's f16 convolution: eight `:hf` accumulators, one register
        // each).
        (
            "hf_conv_mads_simd16",
            &[
                "mad (16|M0) r20.0<1>:hf r20.0<8;1>:hf r12.0<8;1>:hf r14.0<0>:hf",
                "mad (16|M0) r21.0<1>:hf r21.0<8;1>:hf r12.0<8;1>:hf r14.1<0>:hf",
                "mad (16|M0) r22.0<1>:hf r22.0<8;1>:hf r12.0<8;1>:hf r14.2<0>:hf",
                "mad (16|M0) r23.0<1>:hf r23.0<8;1>:hf r12.0<8;1>:hf r14.3<0>:hf",
                "mad (16|M0) r24.0<1>:hf r24.0<8;1>:hf r12.0<8;1>:hf r14.4<0>:hf",
                "mad (16|M0) r25.0<1>:hf r25.0<8;1>:hf r12.0<8;1>:hf r14.5<0>:hf",
                "mad (16|M0) r26.0<1>:hf r26.0<8;1>:hf r12.0<8;1>:hf r14.6<0>:hf",
                "mad (16|M0) r27.0<1>:hf r27.0<8;1>:hf r12.0<8;1>:hf r14.7<0>:hf",
            ],
        ),
    ];
    let runs: usize = std::env::var("JIT_ALU_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    for (name, lines) in cases {
        let (prog, bytes) = kernel(lines);
        let start = cpu();
        let tr = Translated::of_kernel(&prog, &bytes, true).expect("translates");
        let translate = cpu() - start;
        println!(
            "jit_alu/{name}: {} of {} instructions translated in {:.1} ms CPU",
            tr.translated(),
            tr.instructions(),
            translate * 1e3
        );
        let mut t = Thread::new(0xffff);
        if name.starts_with("hf") {
            // Activations 0.5 to 0.62 and weights near 0.01, as halves.
            for i in 0..16u16 {
                let put = |t: &mut Thread, at: usize, h: u16| {
                    t.grf_mut()[at..at + 2].copy_from_slice(&h.to_le_bytes())
                };
                put(&mut t, 12 * 32 + 2 * usize::from(i), 0x3800 + 16 * i);
                put(&mut t, 14 * 32 + 2 * usize::from(i), 0x211f + i);
            }
        }
        for jit in [false, true] {
            let start = cpu();
            for _ in 0..runs {
                t.restart(0xffff);
                let st = if jit {
                    sim_jit::run(&mut t, &prog, &tr, &mut NoMemory, u64::MAX)
                } else {
                    sim_eu::run(&mut t, &prog, &mut NoMemory, u64::MAX)
                };
                assert_eq!(st.expect("runs"), Status::Ended);
            }
            let secs = cpu() - start;
            println!(
                "jit_alu/{name}/{}: {:.1} M lane-ops per CPU-second",
                if jit { "translated" } else { "interpreter" },
                (runs * BODY * 16) as f64 / secs / 1e6
            );
        }
    }
}
