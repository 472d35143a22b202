//! Corpus A: the OpenCL C kernels in tests/corpus, compiled with ocloc at test time.

#![allow(dead_code)]

use std::path::Path;

use oracles::ocloc::{self, Format};
use platform::Platform;

/// One kernel heap of Corpus A.
pub struct Heap {
    /// `file.cl/kernel`.
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Compiles every corpus file for `platform` and returns all kernel heaps.
pub fn corpus_heaps(ocloc_bin: &Path, platform: Platform) -> Vec<Heap> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/corpus")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    let mut heaps = Vec::new();
    for f in files {
        let src = std::fs::read_to_string(&f).expect("read corpus file");
        let bin = ocloc::compile(ocloc_bin, platform, &src, "", Format::PatchTokens)
            .unwrap_or_else(|e| panic!("ocloc {} for {platform}: {e}", f.display()));
        for h in ocloc::kernel_heaps(ocloc_bin, &bin).expect("kernel heaps") {
            heaps.push(Heap {
                name: format!(
                    "{}/{}",
                    f.file_name().unwrap_or_default().to_string_lossy(),
                    h.name
                ),
                bytes: h.bytes,
            });
        }
    }
    heaps
}

/// First differing line of two texts, for assertion messages.
pub fn first_diff(a: &str, b: &str) -> Option<String> {
    let (la, lb): (Vec<_>, Vec<_>) = (a.lines().collect(), b.lines().collect());
    for k in 0..la.len().max(lb.len()) {
        let (x, y) = (la.get(k).copied(), lb.get(k).copied());
        if x != y {
            return Some(format!(
                "line {}:\n  ours: {:?}\n  iga : {:?}",
                k + 1,
                x.unwrap_or("<none>"),
                y.unwrap_or("<none>")
            ));
        }
    }
    None
}

/// Assembles `text` with iga64, then checks that our disassembly of those bytes equals
/// iga64's, line by line, and that our assembly of iga64's text gives the same bytes.
/// Returns the bytes.
pub fn check_text_against_iga64(iga: &Path, platform: Platform, text: &str) -> Vec<u8> {
    let bytes = oracles::iga64::asm(iga, platform, text, &[]).expect("iga64 -a of the sample");
    let want = oracles::iga64::disasm(iga, platform, &bytes, &[]).expect("iga64 -d");
    let ours = isa_encoder::disassemble(platform, &bytes).expect("our disassembler");
    let (w, o): (Vec<_>, Vec<_>) = (want.lines().collect(), ours.lines().collect());
    for k in 0..w.len().max(o.len()) {
        assert_eq!(o.get(k), w.get(k), "{platform} line {}", k + 1);
    }
    assert_eq!(
        isa_encoder::assemble(platform, &want).expect("our assembler"),
        bytes,
        "{platform}: our assembly of iga64's text"
    );
    bytes
}
