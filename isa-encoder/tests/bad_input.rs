//! Malformed kernels and malformed text: specific errors with byte offsets or line:column,
//! and no panics on arbitrary input.

use isa_encoder::kernel::decode_kernel;
use isa_encoder::{assemble, AsmError, DecodeError};
use platform::Platform;
use proptest::prelude::*;

/// `(W) mov (8|M0) r2.0<1>:ud r0.0<1;1,0>:ud` on Gen12LP, as iga64 -a encodes it.
const MOV_12P1: [u8; 16] = [
    0x61, 0x00, 0x03, 0x80, 0x20, 0x02, 0x05, 0x02, 0x04, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00,
];

#[test]
fn unknown_opcode_reports_its_byte_offset() {
    let mut k = MOV_12P1.to_vec();
    let mut bad = MOV_12P1;
    bad[0] = 0x7F;
    k.extend_from_slice(&bad);
    let e = decode_kernel(Platform::Tgllp, &k).unwrap_err();
    assert_eq!(e.offset, 16);
    assert_eq!(e.error, DecodeError::UnknownOpcode(0x7F));
}

#[test]
fn illegal_exec_size_is_a_field_error() {
    let mut bad = MOV_12P1;
    bad[2] = (bad[2] & !0x07) | 0x07;
    let e = decode_kernel(Platform::Dg2, &bad).unwrap_err();
    assert_eq!(e.offset, 0);
    assert!(
        matches!(
            e.error,
            DecodeError::IllegalField {
                field: "ExecSize",
                value: 7
            }
        ),
        "{e}"
    );
}

#[test]
fn truncated_instruction_is_reported() {
    let e = decode_kernel(Platform::Tgllp, &MOV_12P1[..12]).unwrap_err();
    assert_eq!(e.offset, 0);
    assert_eq!(e.error, DecodeError::Truncated(12, 16));
}

#[test]
fn gen9_11_without_codec_says_so() {
    for p in [Platform::Skl, Platform::Icllp] {
        if isa_encoder::native::codec(p).is_none() {
            let e = decode_kernel(p, &MOV_12P1).unwrap_err();
            assert_eq!(e.error, DecodeError::NoCodec(p));
        }
    }
}

fn asm_err(p: Platform, text: &str) -> AsmError {
    assemble(p, text).expect_err(text)
}

#[test]
fn text_errors_have_line_and_column() {
    let p = Platform::Tgllp;
    let e = asm_err(p, "nop\n  frob (8|M0) r1.0<1>:d r2.0<8;8,1>:d\n");
    assert_eq!((e.line, e.column), (2, 3), "{e}");
    assert!(e.message.contains("unknown mnemonic 'frob'"), "{e}");

    let e = asm_err(p, "mov (7|M0) r1.0<1>:d r2.0<8;8,1>:d");
    assert_eq!((e.line, e.column), (1, 5), "{e}");

    let e = asm_err(p, "add (8|M0) r1.0<1>:d r2.0<8;8,1>:d r3.0<8;8,1>");
    assert_eq!((e.line, e.column), (1, 36), "{e}");
    assert!(e.message.contains("needs a type"), "{e}");

    let e = asm_err(p, "mov (8|M0) r1.0<1>:d");
    assert_eq!(e.line, 1);
    assert!(e.message.contains("expected source 0"), "{e}");

    let e = asm_err(p, "L0:\n(W) jmpi L99\n");
    assert_eq!((e.line, e.column), (2, 10), "{e}");
    assert!(e.message.contains("undefined label 'L99'"), "{e}");

    let e = asm_err(p, "mov (8|M0) r1.0<1>:d r2.0<8;8,1>:d {Bogus}");
    assert_eq!((e.line, e.column), (1, 36), "{e}");

    let e = asm_err(p, "mov (8|M0) r1.0<1>:w 70000:w");
    assert!(e.message.contains("not a :w value"), "{e}");

    let e = asm_err(p, "send.xyz (8|M0) r1 r2 null 0x0 0x0");
    assert!(e.message.contains("unknown SFID 'xyz'"), "{e}");
}

#[test]
fn no_swsb_before_gen12() {
    if isa_encoder::native::codec(Platform::Skl).is_none() {
        return;
    }
    let e = asm_err(Platform::Skl, "mov (8|M0) r1.0<1>:d r2.0<8;8,1>:d {@1}");
    assert!(e.message.contains("SWSB"), "{e}");
}

const VALID: &str =
    "(W&~f0.1.any16h) add (16|M0) (sat)r10.2<1>:f -(abs)r3.1<0;1,0>:f 0.5:f {@1,$2.dst}\n\
mad (8|M0) r1.0<1>:f r2.0<1;0>:f r3.0<4;1>:f r4.0<2>:f\n\
send.dc1 (16|M0) r6 r8 null 0x0 0x022D0BFF {$0}\n\
L48:\n(f0.0) if (16|M0) L48 L48\nsync.allwr ($1,$2)\n";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..96)) {
        for p in Platform::ALL {
            if let Ok(insts) = decode_kernel(p, &bytes) {
                let _ = isa_encoder::text::format_kernel(p, &insts);
            }
        }
    }

    #[test]
    fn mutated_text_never_panics(pos in 0usize..VALID.len(), c in any::<char>(), cut in any::<bool>()) {
        let mut s: String = VALID.to_string();
        let at = (0..=pos).rev().find(|k| s.is_char_boundary(*k)).unwrap_or(0);
        if cut {
            s.truncate(at);
        } else {
            s.insert(at, c);
        }
        for p in Platform::ALL {
            if let Err(e) = assemble(p, &s) {
                prop_assert!(e.line >= 1 && e.column >= 1);
            }
        }
    }

    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,80}") {
        for p in Platform::ALL {
            let _ = assemble(p, &s);
        }
    }
}

#[test]
fn the_valid_sample_assembles() {
    assemble(Platform::Tgllp, VALID).expect("sample");
}

/// A 64-bit immediate fills the upper 64 bits of an instruction, src1's fields with them:
/// iga64 encodes one in a `mov` and refuses one in an `add`, on every platform; so do we, and
/// the `mov` comes out as iga64's bytes.
#[test]
fn a_64_bit_immediate_only_in_a_one_source_instruction() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let mov = "mov (1|M0) r10.0<1>:q 0x123456789:q\n";
    let add = "add (1|M0) r10.0<1>:q r10.0<0;1,0>:q 0x123456789:q\n";
    for p in Platform::ALL {
        let theirs = oracles::iga64::asm(&iga, p, mov, &[]).expect("iga64 encodes the mov");
        assert_eq!(assemble(p, mov).expect("mov"), theirs, "{p}");
        assert!(
            oracles::iga64::asm(&iga, p, add, &[]).is_err(),
            "iga64 on {p}"
        );
        assert!(assemble(p, add).is_err(), "{p}");
    }
}
