//! Gen12LP and Xe-HPG native codec and printer against iga64, independent of compaction:
//! every Corpus A heap is re-assembled by iga64 with `-Xforce-no-compact`, then
//! - our disassembly of those native bytes equals `iga64 -d` of them, and
//! - decoding and re-encoding every instruction gives back the same 16 bytes,
//! - assembling iga64's text with our assembler gives back the same bytes, and
//! - iga64 -a of our text gives back the same bytes.

use crate::common;

use isa_encoder::kernel::decode_kernel;
use isa_encoder::native;
use oracles::{iga64, Oracle};
use platform::Platform;

fn check(platform: Platform) {
    let iga = oracles::require!(Oracle::Iga64);
    let ocloc = oracles::require!(Oracle::Ocloc);
    let mut failures = Vec::new();
    let heaps = common::corpus_heaps(&ocloc, platform);
    for h in &heaps {
        let text = iga64::disasm(&iga, platform, &h.bytes, &[]).expect("iga64 -d");
        let native_bytes =
            iga64::asm(&iga, platform, &text, &["-Xforce-no-compact"]).expect("iga64 -a");
        let want = iga64::disasm(&iga, platform, &native_bytes, &[]).expect("iga64 -d");
        match isa_encoder::disassemble(platform, &native_bytes) {
            Ok(ours) => {
                if let Some(d) = common::first_diff(&ours, &want) {
                    failures.push(format!("{}: disassembly differs at {d}", h.name));
                }
                match iga64::asm(&iga, platform, &ours, &[]) {
                    Ok(b) if b == native_bytes => {}
                    Ok(_) => failures.push(format!("{}: iga64 -a of our text differs", h.name)),
                    Err(e) => failures.push(format!("{}: iga64 -a of our text: {e}", h.name)),
                }
            }
            Err(e) => failures.push(format!("{}: {e}", h.name)),
        }
        match isa_encoder::assemble(platform, &want) {
            Ok(b) if b == native_bytes => {}
            Ok(b) => {
                let at = b.iter().zip(&native_bytes).position(|(x, y)| x != y);
                failures.push(format!(
                    "{}: our assembly differs (len {} vs {}, first byte {at:?})",
                    h.name,
                    b.len(),
                    native_bytes.len()
                ))
            }
            Err(e) => failures.push(format!("{}: our assembler: {e}", h.name)),
        }
        if let Ok(insts) = decode_kernel(platform, &native_bytes) {
            for d in insts {
                let at = d.pc as usize;
                let orig = &native_bytes[at..at + 16];
                match native::encode(platform, &d.inst) {
                    Ok(b) if b[..] == orig[..] => {}
                    Ok(b) => failures.push(format!(
                        "{} pc {at}: re-encoded {b:02x?} != {orig:02x?}",
                        h.name
                    )),
                    Err(e) => failures.push(format!("{} pc {at}: encode: {e}", h.name)),
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} heaps on {platform}:\n{}",
        failures.len(),
        heaps.len(),
        failures.join("\n")
    );
}

#[test]
fn tgllp_native_corpus_matches_iga64() {
    check(Platform::Tgllp);
}

#[test]
fn dg2_native_corpus_matches_iga64() {
    check(Platform::Dg2);
}
