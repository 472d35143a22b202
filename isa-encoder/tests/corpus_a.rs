//! Corpus A: every kernel heap of tests/corpus/*.cl, compiled by ocloc for each platform.
//! For each heap:
//! - our disassembly equals `iga64 -d`,
//! - our assembly of that text equals the original bytes, and
//! - `iga64 -a` of our text equals the original bytes.
//!
//! Where iga64 itself cannot reproduce a heap from its text (padding, unprinted bits), the text
//! checks compare with iga64's re-assembly and a note is printed; decoding and re-encoding
//! without text must still reproduce the heap exactly.

use crate::common;

use isa_encoder::native;
use oracles::{iga64, Oracle};
use platform::Platform;
use std::io::Write;

/// Heaps whose instructions the model cannot express yet, with the reason (none now).
const NOT_YET: &[(Platform, &str, &str)] = &[];

fn check(platform: Platform) {
    assert!(
        native::codec(platform).is_some(),
        "no native codec for {platform}"
    );
    let iga = oracles::require!(Oracle::Iga64);
    let ocloc = oracles::require!(Oracle::Ocloc);
    let heaps = common::corpus_heaps(&ocloc, platform);
    let mut failures = Vec::new();
    let mut notes = Vec::new();
    for h in &heaps {
        if let Some((_, _, why)) = NOT_YET
            .iter()
            .find(|(p, name, _)| *p == platform && *name == h.name)
        {
            // Past libtest's capture: a gap is said, never silent.
            let _ = writeln!(
                std::io::stderr(),
                "NOT CHECKED {platform} {}: {why}",
                h.name
            );
            continue;
        }
        let want = iga64::disasm(&iga, platform, &h.bytes, &[]).expect("iga64 -d");
        // ocloc pads heaps (iga64 drops a short zero tail), and a few bits iga64 does not print
        // (e.g. BranchCtrl on a Gen9 `while`) do not survive text. The bytes text can reach
        // are what iga64 re-assembles from its own disassembly.
        let code = iga64::asm(&iga, platform, &want, &[]).expect("iga64 -a");
        if !(h.bytes.starts_with(&code) && h.bytes[code.len()..].iter().all(|&b| b == 0)) {
            notes.push(format!(
                "{}: iga64 -a of iga64 -d differs from the heap; text checks use iga64's bytes",
                h.name
            ));
        }
        // Without text in between, decoding and re-encoding keeps every byte.
        match isa_encoder::kernel::decode_kernel(platform, &h.bytes) {
            Ok(insts) => match isa_encoder::kernel::encode_kernel(platform, &insts) {
                Ok(b) if h.bytes.starts_with(&b) && h.bytes[b.len()..].iter().all(|&x| x == 0) => {}
                Ok(_) => failures.push(format!("{}: decode+encode changes the bytes", h.name)),
                Err((pc, e)) => failures.push(format!("{}: re-encode at {pc:#x}: {e}", h.name)),
            },
            Err(e) => failures.push(format!("{}: our decoder: {e}", h.name)),
        }
        match isa_encoder::disassemble(platform, &h.bytes) {
            Ok(ours) => {
                if let Some(d) = common::first_diff(&ours, &want) {
                    failures.push(format!("{}: disassembly differs at {d}", h.name));
                }
                match iga64::asm(&iga, platform, &ours, &[]) {
                    Ok(b) if b == code => {}
                    Ok(_) => failures.push(format!("{}: iga64 -a of our text differs", h.name)),
                    Err(e) => failures.push(format!("{}: iga64 -a of our text: {e}", h.name)),
                }
            }
            Err(e) => failures.push(format!("{}: our disassembler: {e}", h.name)),
        }
        match isa_encoder::assemble(platform, &want) {
            Ok(b) if b == code => {}
            Ok(b) => {
                let at = b.iter().zip(&code).position(|(x, y)| x != y);
                failures.push(format!(
                    "{}: our assembly differs (len {} vs {}, first differing byte {at:?})",
                    h.name,
                    b.len(),
                    code.len()
                ));
            }
            Err(e) => failures.push(format!("{}: our assembler: {e}", h.name)),
        }
    }
    for n in &notes {
        eprintln!("NOTE {platform}: {n}");
    }
    assert!(
        failures.is_empty(),
        "{} problems in {} heaps on {platform}:\n{}",
        failures.len(),
        heaps.len(),
        failures.join("\n")
    );
}

#[test]
fn skl_corpus_a() {
    check(Platform::Skl);
}

#[test]
fn icllp_corpus_a() {
    check(Platform::Icllp);
}

#[test]
fn tgllp_corpus_a() {
    check(Platform::Tgllp);
}

#[test]
fn dg2_corpus_a() {
    check(Platform::Dg2);
}
