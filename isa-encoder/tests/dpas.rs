//! `dpas` / `dpasw` on Xe-HPG (12p71): every systolic depth and repeat count, every operand
//! precision pair iga64 accepts (u8/s8/u4/s4/u2/s2 integer, hf/bf float), accumulator types,
//! a null src0, src2 subregisters, masks and SWSB. iga64 assembles the sample; our
//! disassembly must equal iga64's, our assembly of that text must equal iga64's bytes, and
//! decoding then re-encoding every word must keep it.

use crate::common;

use oracles::Oracle;
use platform::Platform;

/// Integer precisions as iga64 prints them (`u8`/`s8` print as `ub`/`b`).
const INT_PRECISIONS: [&str; 6] = ["ub", "b", "u4", "s4", "u2", "s2"];

fn sample() -> String {
    let mut s = String::new();
    let mut line = |t: String| {
        s.push_str(&t);
        s.push('\n');
    };
    // Every depth x repeat, cycling through accumulator / source types.
    let float_types = [("f", "hf"), ("f", "bf"), ("hf", "hf"), ("bf", "bf")];
    let mut k = 0;
    for depth in [1, 2, 4, 8] {
        for repeat in 1..=8 {
            let (acc, src) = float_types[k % float_types.len()];
            line(format!(
                "dpas.{depth}x{repeat} (8|M0) r{}:{acc} r{}:{acc} r{}:{src} r{}.0:{src}",
                10 + k,
                40 + k,
                70 + k,
                100 + k
            ));
            k += 1;
        }
    }
    // Every integer precision pair, with :d and :ud accumulators.
    for (a, p1) in INT_PRECISIONS.iter().enumerate() {
        for (b, p2) in INT_PRECISIONS.iter().enumerate() {
            let acc = if (a + b) % 2 == 0 { "d" } else { "ud" };
            line(format!(
                "dpas.8x{} (8|M0) r{}:{acc} r{}:{acc} r{}:{p1} r{}.0:{p2}",
                1 + (a + b) % 8,
                a * 6 + b,
                50 + a,
                80 + b,
                110 + a
            ));
        }
    }
    // dpasw, a null src0, src2 subregisters, masks and SWSB. (No predicate: iga64 writes
    // `(f0.1)`'s flag register on a dpas but neither prints nor re-reads it.)
    for t in [
        "dpasw.8x8 (8|M0) r10:f r20:f r30:hf r40.0:hf",
        "dpasw.8x4 (8|M0) r10:d r20:d r30:ub r40.0:b",
        "dpasw.4x1 (8|M0) r10:f r20:f r30:bf r40.0:bf",
        "dpas.4x2 (8|M0) r10:ud null:ud r30:u4 r40.0:u2",
        "dpas.8x8 (8|M0) r10:f null:f r30:hf r40.0:hf",
        "dpas.8x8 (8|M0) r10:f r20:hf r30:hf r40.2:hf",
        "dpas.8x8 (8|M0) r10:f r20:f r30:bf r40.14:bf",
        "dpas.8x8 (8|M0) r10:d r20:d r30:ub r40.4:b {Atomic}",
        "dpas.8x8 (8|M0) r10:d r20:d r30:u2 r40.0:s2 {$3}",
        "dpas.8x8 (8|M0) r10:d r20:d r30:s2 r40.0:u4 {@1,$4}",
        "dpas.8x8 (8|M0) r10:f r20:f r30:hf r40.0:hf {$15.dst}",
        "dpas.8x8 (8|M0) r10:f r20:f r30:hf r40.0:hf {F@2}",
        "(W) dpas.8x8 (8|M0) r10:f r20:f r30:hf r40.0:hf",
        "dpas.8x8 (16|M0) r10:f r20:f r30:hf r40.0:hf",
        "dpas.8x8 (8|M0) r127:f r126:f r125:hf r124.0:hf",
    ] {
        line(t.to_string());
    }
    s
}

#[test]
fn xehpg_dpas_matches_iga64() {
    let iga = oracles::require!(Oracle::Iga64);
    let p = Platform::Dg2;
    let text = sample();
    let bytes = common::check_text_against_iga64(&iga, p, &text);
    assert_eq!(
        bytes.len(),
        text.lines().count() * 16,
        "one native word each"
    );
    for (k, word) in bytes.chunks_exact(16).enumerate() {
        let word: [u8; 16] = word.try_into().expect("16 bytes");
        let i = isa_encoder::native::decode(p, &word).expect("decode");
        assert_eq!(
            isa_encoder::native::encode(p, &i).expect("encode"),
            word,
            "word {k}"
        );
    }
}

/// dpas exists on Xe-HPG only.
#[test]
fn dpas_is_xehpg_only() {
    for p in [Platform::Skl, Platform::Icllp, Platform::Tgllp] {
        let r = isa_encoder::assemble(p, "dpas.8x8 (8|M0) r10:f r20:f r30:hf r40.0:hf\n");
        assert!(r.is_err(), "{p}");
    }
}
