//! The absolute value of a signed integer source keeps the source's width, and its negation
//! the instruction's execution width (the widest integer source, a byte counting as a word,
//! widened to an integer destination): the most negative value of that width is its
//! own absolute value or negation, while a narrower source negated in wider arithmetic widens
//! first. IGC's code depends on each
//! case below (an instruction of IGC's output for an OpenCL C expression whose value the
//! specification defines; PoCL and Oclgrind compute the same values):
//! - `(short)(a + b) == 0` becomes `cmp.eq a:w, -b:w`: with a = b = -32768 the sum is 0 in
//!   16 bits, so the comparison holds only if -(-32768:w) is -32768;
//! - `(long)as_char(abs(x))` becomes `mov :d (abs)x:b`: abs(-128) is the uchar 128, as a char
//!   -128; `abs_diff(as_char(abs_diff(0, y)), a)` compares `(abs)y:b` with a word the same way;
//! - `(ushort)y - (short)c` for a char c becomes `add :w -c:b, y:w`, and `short s = -c` becomes
//!   `mov :w -c:b`: -(-128:b) is 128 there;
//! - `abs((long)s)` for a short s becomes `sel :q -s:w, s:w`, and `int x = -s` becomes `mov :d
//!   -s:w`: -(-32768:w) is 32768 there;
//! - abs(0x80000000:d) is 0x80000000 (the PRM's own example of the rule);
//! - `rhadd(0 - (long)u, y)` for a ushort u becomes, on Gen9, `asr :q -u:uw, 1:w` for the half
//!   of -u: the negated source is a signed QWord, so -40000 halves to -20000;
//! - `(ulong)(0 - (long)u) >> 1` becomes `mov :q -u:uw` and a `shr` of that QWord: a `shr`
//!   reading `-u:uw` itself shifts the same 64-bit value (a logical shift of a negated source
//!   is not its 16-bit two's complement shifted).

use platform::Platform;
use sim_eu::{run, NoMemory, Program, Status, Thread};

const REG: usize = 32;

/// Runs `text` (SIMD8) with r20 and r30 holding `a` and `b` in every DWord lane; returns r10's
/// DWords and the flag register f0.0.
fn run_one(p: Platform, text: &str, a: u32, b: u32) -> ([u32; 8], u32) {
    let code = isa_encoder::assemble(p, &format!("{text}\nnop\n")).expect(text);
    let prog = Program::decode(p, &code);
    let mut t = Thread::new(0xff);
    for i in 0..8 {
        t.grf_mut()[20 * REG + 4 * i..][..4].copy_from_slice(&a.to_le_bytes());
        t.grf_mut()[30 * REG + 4 * i..][..4].copy_from_slice(&b.to_le_bytes());
    }
    assert_eq!(
        run(&mut t, &prog, &mut NoMemory, 1),
        Ok(Status::Budget),
        "{text}"
    );
    let d = std::array::from_fn(|i| {
        u32::from_le_bytes(t.grf()[10 * REG + 4 * i..][..4].try_into().unwrap())
    });
    (d, (t.flags() & 0xff) as u32)
}

const PLATFORMS: [Platform; 4] = [
    Platform::Skl,
    Platform::Icllp,
    Platform::Tgllp,
    Platform::Dg2,
];

#[test]
fn negated_most_negative_word_equals_itself() {
    for p in PLATFORMS {
        // Words at a 4-byte step: the low word of each DWord lane.
        let text = "cmp (8|M0) (eq)f0.0 null<1>:w r20.0<2;1,0>:w -r30.0<2;1,0>:w";
        let (_, flags) = run_one(p, text, 0x8000, 0x8000);
        assert_eq!(flags, 0xff, "{p} {text}");
        let (_, flags) = run_one(p, text, 0x7fff, 0x8001);
        assert_eq!(flags, 0xff, "{p} {text}: 32767 = -(-32767)");
        let (_, flags) = run_one(p, text, 0x7fff, 0x8000);
        assert_eq!(flags, 0, "{p} {text}: 32767 != -(-32768)");
    }
}

#[test]
fn absolute_most_negative_byte_widens_to_itself() {
    for p in PLATFORMS {
        let text = "mov (8|M0) r10.0<1>:d (abs)r20.0<4;1,0>:b";
        for (x, want) in [(0x80u32, -128i32), (0x81, 127), (0xff, 1), (0x7f, 127)] {
            let (d, _) = run_one(p, text, x, 0);
            assert_eq!(d, [want as u32; 8], "{p} {text}: x = {x:#x}");
        }
        // In word arithmetic too: |-128| as a byte is -128, not above 0.
        let text = "cmp (8|M0) (gt)f0.0 null<1>:w (abs)r20.0<4;1,0>:b r30.0<2;1,0>:w";
        assert_eq!(run_one(p, text, 0x80, 0).1, 0, "{p} {text}: -128");
        assert_eq!(run_one(p, text, 0x81, 0).1, 0xff, "{p} {text}: 127");
    }
}

#[test]
fn absolute_most_negative_dword_is_itself_and_its_negation_widens() {
    for p in PLATFORMS {
        for (text, want) in [
            // abs keeps the DWord: the sign-extended most negative DWord.
            (
                "mov (8|M0) r10.0<1>:q (abs)r20.0<1;1,0>:d",
                i64::from(i32::MIN),
            ),
            // Negation into a QWord executes in 64 bits.
            ("mov (8|M0) r10.0<1>:q -r20.0<1;1,0>:d", 1 << 31),
            // In DWord arithmetic it is itself.
            (
                "mov (8|M0) r10.0<1>:d -r20.0<1;1,0>:d",
                i64::from(i32::MIN) & 0xffff_ffff,
            ),
        ] {
            let (d, _) = run_one(p, text, 0x8000_0000, 0);
            for lane in 0..4 {
                let v = if text.contains(":q") {
                    (u64::from(d[2 * lane]) | u64::from(d[2 * lane + 1]) << 32) as i64
                } else {
                    i64::from(d[lane])
                };
                assert_eq!(v, want, "{p} {text}: lane {lane}");
            }
        }
    }
}

#[test]
fn negation_takes_the_execution_width() {
    // `mov` and `add` are instructions the interpreter's fast path and the translated code take:
    // both must agree with the general path on the most negative values. Word results are
    // compared in the low word of each DWord.
    for p in PLATFORMS {
        for (text, want) in [
            ("mov (8|M0) r10.0<2>:w -r20.0<2;1,0>:w", 0x8000u32),
            // An integer destination widens the execution type: the word widens first
            // (IGC's `int x = -s` for a short s).
            ("mov (8|M0) r10.0<1>:d -r20.0<2;1,0>:w", 32768),
            ("mov (8|M0) r10.0<1>:d -r20.0<4;1,0>:b", 128),
            // IGC's `short s = -c` for a char c: -(-128) is the short 128.
            ("mov (8|M0) r10.0<2>:w -r20.0<4;1,0>:b", 128),
            (
                "add (8|M0) r10.0<1>:d -r20.0<2;1,0>:w r30.0<1;1,0>:d",
                32769,
            ),
            // Bytes execute as words: 128 + 1.
            ("add (8|M0) r10.0<2>:w -r20.0<4;1,0>:b r30.0<2;1,0>:w", 129),
        ] {
            let x = if text.contains(":b") { 0x80 } else { 0x8000 };
            let (d, _) = run_one(p, text, x, 1);
            let d = if text.contains("<2>:w") {
                d.map(|v| v & 0xffff)
            } else {
                d
            };
            assert_eq!(d, [want; 8], "{p} {text}");
        }
    }
}

#[test]
fn absolute_value_of_an_unsigned_source_reads_its_bits_as_signed() {
    // IGC's signed 64-bit division of values that fit in 32 bits: `mov :ud (abs)x:ud` for |x|,
    // then an unsigned `math.iqot`, then the sign put back.
    for p in PLATFORMS {
        let text = "mov (8|M0) r10.0<1>:ud (abs)r20.0<1;1,0>:ud";
        for (x, want) in [
            (0xffff_ffffu32, 1u32),
            (0xf923_0f6f, 0x06dc_f091),
            (0x8000_0000, 0x8000_0000),
            (0x7fff_ffff, 0x7fff_ffff),
            (5, 5),
        ] {
            let (d, _) = run_one(p, text, x, 0);
            assert_eq!(d, [want; 8], "{p} {text}: x = {x:#x}");
        }
        let text = "mov (8|M0) r10.0<1>:ud (abs)r20.0<2;1,0>:uw";
        assert_eq!(run_one(p, text, 0xffff, 0).0, [1; 8], "{p} {text}");
    }
}

#[test]
fn integer_division_into_a_signed_destination_is_signed() {
    // IGC's `(char)(c % d)`: the char sign-extended and the divisor moved to `:ud`, then
    // `math.irem :d`; -128 % 3 is -2 (OpenCL C: the remainder has the dividend's sign).
    for p in PLATFORMS {
        let text = "math.irem (8|M0) r10.0<1>:d r20.0<1;1,0>:ud r30.0<1;1,0>:ud";
        assert_eq!(
            run_one(p, text, (-128i32) as u32, 3).0,
            [(-2i32) as u32; 8],
            "{p} {text}"
        );
        let text = "math.iqot (8|M0) r10.0<1>:d r20.0<1;1,0>:ud r30.0<1;1,0>:ud";
        assert_eq!(
            run_one(p, text, (-128i32) as u32, 3).0,
            [(-42i32) as u32; 8],
            "{p} {text}"
        );
        // Unsigned destination and dividend: unsigned.
        let text = "math.irem (8|M0) r10.0<1>:ud r20.0<1;1,0>:ud r30.0<1;1,0>:ud";
        assert_eq!(
            run_one(p, text, (-128i32) as u32, 3).0,
            [2; 8],
            "{p} {text}"
        );
    }
}

#[test]
fn arithmetic_shift_of_a_negated_unsigned_word_keeps_the_widened_sign() {
    // The unsigned word shifts as a signed value, of the width its negation took: a QWord.
    for p in PLATFORMS {
        let text = "asr (8|M0) r10.0<1>:q -r20.0<2;1,0>:uw 1:w";
        for (x, want) in [(40000u32, -20000i64), (3, -2), (0xffff, -32768), (0, 0)] {
            let (d, _) = run_one(p, text, x, 0);
            for lane in 0..4 {
                let v = (u64::from(d[2 * lane]) | u64::from(d[2 * lane + 1]) << 32) as i64;
                assert_eq!(v, want, "{p} {text}: x = {x}, lane {lane}");
            }
        }
    }
}

#[test]
fn logical_shift_of_a_negated_unsigned_word_shifts_the_widened_negation() {
    // The value of `(ulong)(0 - (long)u) >> n`, whether the negation is a `mov` first (IGC's
    // code) or folded into the shift's source.
    for p in PLATFORMS {
        for (n, text) in [
            (1, "shr (8|M0) r10.0<1>:uq -r20.0<2;1,0>:uw 1:w"),
            (33, "shr (8|M0) r10.0<1>:uq -r20.0<2;1,0>:uw 33:w"),
        ] {
            for x in [40000u32, 3, 0xffff, 0] {
                let want = ((0i64 - i64::from(x)) as u64) >> n;
                let (d, _) = run_one(p, text, x, 0);
                for lane in 0..4 {
                    let v = u64::from(d[2 * lane]) | u64::from(d[2 * lane + 1]) << 32;
                    assert_eq!(v, want, "{p} {text}: x = {x}, lane {lane}");
                }
            }
        }
    }
}
