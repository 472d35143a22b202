//! Math macros (`madm`, `math.invm`, `math.rsqtm`) on all four platforms, with their `.mme0`..`.mme7` / `.nomme`
//! operands and the implicit `(eo)` condition modifier, as IGC emits them for fp64 division
//! and square root. Each sample is assembled by iga64; our disassembly must equal iga64's and
//! our assembly of iga64's text must equal iga64's bytes. Also: the encodings iga64 ignores
//! bits of are refused by our decoder, and macro operands outside macros do not encode.

use crate::common;

use isa_encoder::model::{MathMacroAcc, Opcode, Operand};
use oracles::{iga64, Oracle};
use platform::Platform;

/// Every index in every operand slot, both types, modifiers, saturation, predication,
/// channel offsets and flag registers.
const MATH: &str = "\
        math.rsqtm (4|M0) (eo)f1.0  r30.mme0:df  r58.nomme:df\n\
        math.rsqtm (8|M8) (eo)f0.1  r31.mme7:f  -r59.mme3:f\n\
(f0.1)  math.rsqtm (4|M4) (eo)f0.1  r127.mme6:df  (abs)r0.mme1:df\n\
        math.invm (4|M0) (eo)f1.0  r30.mme0:df  r58.nomme:df  r59.nomme:df\n\
        math.invm (8|M0) (eo)f0.0  r2.mme4:f  r3.mme5:f  -(abs)r4.mme2:f\n\
(W)     math.invm (2|M0) (eo)f1.1  r2.nomme:df  r3.mme6:df  r4.mme7:df\n\
";

/// `madm` (not on Gen12LP).
const MADM: &str = "\
        madm (4|M0)              r34.mme1:df   r122.nomme:df     r121.nomme:df     r30.mme0:df\n\
        madm (4|M12)             r38.mme3:df   r121.nomme:df     -r85.mme2:df      r34.mme1:df\n\
        madm (4|M0)              r30.nomme:df  r30.mme6:df       r34.mme1:df       r115.mme5:df\n\
        madm (8|M0)              (sat)r30.mme7:f  (abs)r30.mme4:f  r34.mme1:f  -r115.nomme:f\n\
(~f0.0) madm (4|M28)             r1.mme2:df    r2.mme3:df        r3.mme4:df        -(abs)r4.mme7:df\n\
";

fn check(platform: Platform) {
    let iga = oracles::require!(Oracle::Iga64);
    let madm = Opcode::Madm.number(platform).is_some();
    let sample = if madm {
        format!("{MATH}{MADM}")
    } else {
        MATH.to_string()
    };
    let bytes = common::check_text_against_iga64(&iga, platform, &sample);
    let text = iga64::disasm(&iga, platform, &bytes, &[]).expect("iga64 -d");
    assert!(text.contains("(eo)f1.0") && text.contains(".nomme:df"));
    assert_eq!(text.contains("madm"), madm);
}

#[test]
fn gen9_math_macros() {
    check(Platform::Skl);
}

#[test]
fn gen11_math_macros() {
    check(Platform::Icllp);
}

#[test]
fn gen12lp_math_macros() {
    check(Platform::Tgllp);
}

#[test]
fn xehpg_math_macros() {
    check(Platform::Dg2);
}

/// iga64 prints a madm whose unused subregister bits are set as if they were clear; our
/// decoder refuses such words, so decoding never drops a bit.
#[test]
fn gen9_madm_with_reserved_bits_is_refused() {
    let iga = oracles::require!(Oracle::Iga64);
    let text = "madm (4|M0) r34.mme1:df r122.nomme:df r121.nomme:df r30.mme0:df\n";
    let bytes = iga64::asm(&iga, Platform::Skl, text, &[]).expect("iga64 -a");
    let word: [u8; 16] = bytes[..16].try_into().expect("one native instruction");
    let i = isa_encoder::native::decode(Platform::Skl, &word).expect("canonical madm decodes");
    assert!(matches!(
        i.src[2],
        Some(Operand::Macro(m)) if m.acc == MathMacroAcc::Mme0 && m.grf == 30
    ));
    // Source 0's subregister (bits 73..75) is implied zero for macro operands.
    let mut bad = word;
    bad[9] |= 0x02;
    let again = iga64::disasm(&iga, Platform::Skl, &bad, &[]).expect("iga64 -d");
    assert!(
        again.contains("r122.nomme:df"),
        "iga64 ignores the bit: {again}"
    );
    assert!(isa_encoder::native::decode(Platform::Skl, &bad).is_err());
    // Index 9 does not exist.
    let mut bad = word;
    bad[6] = (bad[6] & !0x1E) | (9 << 1);
    assert!(isa_encoder::native::decode(Platform::Skl, &bad).is_err());
}

#[test]
fn macro_operands_only_in_macros() {
    for p in Platform::ALL {
        for bad in [
            "mov (4|M0) r30.mme7:df r30.mme4:df",
            "madm (4|M0) (eo)f0.0 r30.mme7:df r30.mme4:df r34.mme1:df r115.mme5:df",
            "add (8|M0) (eo)f0.0 r1.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f",
            "math.rsqtm (4|M0) (eo)f1.0 r30.0<1>:df r58.0<4;4,1>:df",
            "math.rsqtm (4|M0) (lt)f1.0 r30.mme0:df r58.nomme:df",
        ] {
            assert!(
                isa_encoder::assemble(p, bad).is_err(),
                "{p}: '{bad}' should not assemble"
            );
        }
    }
}
