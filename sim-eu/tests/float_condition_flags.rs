//! A condition modifier on a float result tests the value written to the destination, after
//! saturation and format conversion: Mesa's conditional-modifier propagation records it from
//! the PRM's post_zero bit ("the final result ... after all the clamping, normalizing, or
//! format conversion logic") and from tests on GPUs. IGC's `select(a, b,
//! convert_char16_sat_rtp(f))` sets its flag with `mov (lt)f0.0 (sat)null<4>:b f:f`: a
//! float of -108.0 must set it, although saturation of a float result alone would be to [0, 1].
//! The expected flags are the sign or zero-ness of each value converted as the PRM converts
//! float to integer (toward zero, saturated to the type's range) or to half.

use platform::Platform;
use sim_eu::regfile::REG_BYTES;
use sim_eu::{run, NoMemory, Program, Status, Thread};

const PLATFORMS: [Platform; 4] = [
    Platform::Skl,
    Platform::Icllp,
    Platform::Tgllp,
    Platform::Dg2,
];

const VALUES: [f32; 16] = [
    0.0, 1.0, -1.0, -108.0, 300.0, -300.0, 5.5, -0.5, 127.0, -128.0, 0.25, -0.75, 1e-9, -1e-9,
    65504.0, -4.0,
];

/// Runs `text` (SIMD16) with r50 holding [`VALUES`]; returns the 16 bits of f0.0.
fn flags(p: Platform, text: &str) -> u32 {
    let code = isa_encoder::assemble(p, &format!("{text}\nnop\n")).expect(text);
    let prog = Program::decode(p, &code);
    let mut t = Thread::new(0xffff);
    for (i, v) in VALUES.iter().enumerate() {
        t.grf_mut()[50 * REG_BYTES + 4 * i..][..4].copy_from_slice(&v.to_le_bytes());
    }
    assert_eq!(
        run(&mut t, &prog, &mut NoMemory, 1),
        Ok(Status::Budget),
        "{text}"
    );
    (t.flags() & 0xffff) as u32
}

fn lanes(f: impl Fn(f32) -> bool) -> u32 {
    VALUES
        .iter()
        .enumerate()
        .fold(0, |b, (i, &v)| b | u32::from(f(v)) << i)
}

#[test]
fn a_float_to_integer_move_flags_the_converted_value() {
    for p in PLATFORMS {
        for (text, want) in [
            // Saturated to a byte: the sign of the byte (-0.5 and -1e-9 become 0).
            (
                "mov (16|M0) (lt)f0.0 (sat)null<4>:b r50.0<8;8,1>:f",
                lanes(|v| (v as i8) < 0),
            ),
            (
                "mov (16|M0) (lt)f0.0 (sat)r10.0<4>:b r50.0<8;8,1>:f",
                lanes(|v| (v as i8) < 0),
            ),
            // Toward zero: 0.25, -0.75 and 1e-9 are 0 as integers.
            (
                "mov (16|M0) (eq)f0.0 r10.0<1>:d r50.0<8;8,1>:f",
                lanes(|v| v as i32 == 0),
            ),
            (
                "mov (16|M0) (gt)f0.0 r10.0<1>:d r50.0<8;8,1>:f",
                lanes(|v| v as i32 > 0),
            ),
            // An unsigned destination holds no negative value.
            ("mov (16|M0) (lt)f0.0 r10.0<1>:ud r50.0<8;8,1>:f", 0),
            (
                "mov (16|M0) (eq)f0.0 r10.0<1>:ud r50.0<8;8,1>:f",
                lanes(|v| v as u32 == 0),
            ),
        ] {
            assert_eq!(flags(p, text), want, "{p} {text}");
        }
    }
}

#[test]
fn a_float_result_is_flagged_after_its_saturation_and_narrowing() {
    for p in PLATFORMS {
        for (text, want) in [
            // A float saturates to [0, 1]: nothing is below 0 after it.
            ("mov (16|M0) (lt)f0.0 (sat)r10.0<1>:f r50.0<8;8,1>:f", 0),
            (
                "mov (16|M0) (eq)f0.0 (sat)r10.0<1>:f r50.0<8;8,1>:f",
                lanes(|v| v <= 0.0),
            ),
            // 1e-9 is 0 in half precision, 65504 its largest finite value.
            (
                "mov (16|M0) (eq)f0.0 r10.0<1>:hf r50.0<8;8,1>:f",
                lanes(|v| v.abs() < 1e-8),
            ),
            ("mov (16|M0) (ov)f0.0 r10.0<1>:hf r50.0<8;8,1>:f", 0),
        ] {
            assert_eq!(flags(p, text), want, "{p} {text}");
        }
    }
}
