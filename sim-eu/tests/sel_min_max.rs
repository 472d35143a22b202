//! `sel.l` / `sel.ge` on floats are min and max: when exactly one source is a NaN the other
//! source is the result (OpenCL C `fmin`/`fmax`: "If one argument is a NaN, fmin() returns
//! the other argument"), which IGC relies on: it compiles `fmax(x, 0.0f)` to `sel.ge x, 0`,
//! and for Gen9 under NEO to `sel.l x, NaN` then `sel.ge`, the first of which must give `x`.
//! Each lane's expectation below is the OpenCL definition, computed here; both the
//! interpreter runs the instruction at SIMD8 and 16 on every platform.

use platform::Platform;
use sim_eu::{run, NoMemory, Program, Status, Thread};

const REG: usize = 32;
const NAN: f32 = f32::NAN;

/// Lane values: (src0, src1).
const LANES: [(f32, f32); 16] = [
    (1.5, NAN),
    (NAN, 1.5),
    (-2.0, NAN),
    (NAN, -2.0),
    (NAN, NAN),
    (0.0, -0.0),
    (3.0, 4.0),
    (4.0, 3.0),
    (-1.0, 0.0),
    (0.25, 0.0),
    (f32::INFINITY, NAN),
    (NAN, f32::NEG_INFINITY),
    (7.0, 7.0),
    (-0.5, -0.25),
    (1e-40, NAN),
    (NAN, 0.0),
];

fn fmin(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b {
        a
    } else {
        b
    }
}

fn fmax(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a >= b {
        a
    } else {
        b
    }
}

fn run_one(p: Platform, text: &str, n: usize) -> Vec<f32> {
    let bytes = isa_encoder::assemble(p, &format!("{text}\nnop\n")).expect(text);
    let prog = Program::decode(p, &bytes);
    let mut t = Thread::new(if n == 16 { 0xffff } else { 0xff });
    for (i, (a, b)) in LANES.iter().enumerate() {
        t.grf_mut()[20 * REG + i * 4..][..4].copy_from_slice(&a.to_le_bytes());
        t.grf_mut()[30 * REG + i * 4..][..4].copy_from_slice(&b.to_le_bytes());
    }
    assert_eq!(
        run(&mut t, &prog, &mut NoMemory, 1),
        Ok(Status::Budget),
        "{text}"
    );
    (0..n)
        .map(|i| f32::from_le_bytes(t.grf()[10 * REG + i * 4..][..4].try_into().unwrap()))
        .collect()
}

#[test]
fn sel_l_and_ge_return_the_number_when_one_source_is_nan() {
    for p in [
        Platform::Skl,
        Platform::Icllp,
        Platform::Tgllp,
        Platform::Dg2,
    ] {
        for n in [8usize, 16] {
            for (cm, want) in [("lt", fmin as fn(f32, f32) -> f32), ("ge", fmax)] {
                let text =
                    format!("sel ({n}|M0) ({cm})f0.0 r10.0<1>:f r20.0<1;1,0>:f r30.0<1;1,0>:f");
                let got = run_one(p, &text, n);
                for (i, g) in got.iter().enumerate() {
                    let (a, b) = LANES[i];
                    let w = want(a, b);
                    assert!(
                        g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
                        "{p} {text}: lane {i} ({a}, {b}): got {g}, want {w}"
                    );
                }
            }
        }
    }
}
