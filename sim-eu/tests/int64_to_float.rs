//! `mov` from `:uq` and `:q` to `:f` and `:df`: the integer's value rounded once. IGC compiles
//! OpenCL C's `convert_float(ulong)` on Skylake to `mov :f :uq`, so a `:uq` of 2^63 or more is a
//! large positive number, and a 64-bit value past 2^53 must not be rounded to double precision
//! first (two roundings can land on the wrong side of a halfway point).
//! The oracle is Rust's integer-to-float conversion (IEEE round to nearest even), and for the
//! directed modes of cr0 the definition: the representable neighbour on the mode's side.

use platform::Platform;
use sim_eu::{run, NoMemory, Program, Status, Thread};

const REG: usize = 32;

/// Values around the edges: above i64::MAX as :uq, exact halfway points past 2^53 plus one.
const VALUES: [u64; 8] = [
    u64::MAX,
    1 << 63,
    (1 << 63) + (1 << 39) + 1,
    (1 << 60) + (1 << 36) + 1,
    (1 << 60) + (1 << 36),
    (1 << 53) + 1,
    0xC000_0000_0000_0001,
    12_345_678_901_234,
];

/// Runs `text` with VALUES (as 64-bit lanes) in r20..r21, the rounding mode `mode` (cr0 bits
/// 5:4) set first; returns the destination's bytes from r10.
fn run_one(p: Platform, mode: u32, text: &str, bytes: usize) -> Vec<u8> {
    let program = format!(
        "(W) or (1|M0) cr0.0<1>:ud cr0.0<0;1,0>:ud {:#x}:ud\n{text}\nnop\n",
        mode << 4
    );
    let code = isa_encoder::assemble(p, &program).expect(text);
    let prog = Program::decode(p, &code);
    let mut t = Thread::new(0xff);
    for (i, v) in VALUES.iter().enumerate() {
        t.grf_mut()[20 * REG + i * 8..][..8].copy_from_slice(&v.to_le_bytes());
    }
    assert_eq!(
        run(&mut t, &prog, &mut NoMemory, 2),
        Ok(Status::Budget),
        "{text}"
    );
    t.grf()[10 * REG..][..VALUES.len() * bytes].to_vec()
}

/// The float nearest `v` on the side `mode` picks (0 nearest even, 1 up, 2 down, 3 toward
/// zero), from the round-to-nearest neighbour and exact comparisons in 128 bits.
fn want_f32(v: i128, mode: u32) -> f32 {
    let near = if v < 0 {
        -(v.unsigned_abs() as f32)
    } else {
        v as u128 as f32
    };
    let exact = |f: f32| f as i128;
    let up = |f: f32| {
        if exact(f) >= v {
            f
        } else {
            f32::from_bits(step(f, true))
        }
    };
    let down = |f: f32| {
        if exact(f) <= v {
            f
        } else {
            f32::from_bits(step(f, false))
        }
    };
    match mode {
        0 => near,
        1 => up(near),
        2 => down(near),
        _ => {
            if v < 0 {
                up(near)
            } else {
                down(near)
            }
        }
    }
}

/// The bits of the next float above (`up`) or below `f`, for finite nonzero `f`.
fn step(f: f32, up: bool) -> u32 {
    let b = f.to_bits();
    if (f > 0.0) == up {
        b + 1
    } else {
        b - 1
    }
}

#[test]
fn uq_and_q_to_f_round_once_in_every_mode() {
    for p in [Platform::Skl, Platform::Icllp] {
        for (ty, signed) in [("uq", false), ("q", true)] {
            for mode in 0..4 {
                let text = format!("mov (8|M0) r10.0<1>:f r20.0<1;1,0>:{ty}");
                let got = run_one(p, mode, &text, 4);
                for (i, &v) in VALUES.iter().enumerate() {
                    let value = if signed {
                        i128::from(v as i64)
                    } else {
                        i128::from(v)
                    };
                    let g = f32::from_le_bytes(got[i * 4..][..4].try_into().unwrap());
                    let w = want_f32(value, mode);
                    assert_eq!(
                        g.to_bits(),
                        w.to_bits(),
                        "{p} {text} mode {mode}: lane {i} ({value}): got {g:e}, want {w:e}"
                    );
                }
            }
        }
    }
}

#[test]
fn uq_to_df_is_the_unsigned_value() {
    for p in [Platform::Skl, Platform::Icllp] {
        let text = "mov (8|M0) r10.0<1>:df r20.0<1;1,0>:uq";
        let got = run_one(p, 0, text, 8);
        for (i, &v) in VALUES.iter().enumerate() {
            let g = f64::from_le_bytes(got[i * 8..][..8].try_into().unwrap());
            assert_eq!(
                g.to_bits(),
                (v as f64).to_bits(),
                "{p} {text}: lane {i} ({v})"
            );
        }
    }
}

#[test]
fn saturating_uq_keeps_values_above_the_signed_range() {
    for p in [Platform::Skl, Platform::Icllp] {
        for (dst, max) in [
            ("uq", u64::MAX),
            ("q", i64::MAX as u64),
            ("ud", u64::from(u32::MAX)),
        ] {
            let text = format!("mov (8|M0) (sat)r10.0<1>:{dst} r20.0<1;1,0>:uq");
            let width = if dst == "ud" { 4 } else { 8 };
            let got = run_one(p, 0, &text, width);
            for (i, &v) in VALUES.iter().enumerate() {
                let mut b = [0u8; 8];
                b[..width].copy_from_slice(&got[i * width..][..width]);
                assert_eq!(
                    u64::from_le_bytes(b),
                    v.min(max),
                    "{p} {text}: lane {i} ({v})"
                );
            }
        }
    }
}
