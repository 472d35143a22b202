//! Compaction against iga64, on every platform:
//! - every compacted instruction of real ocloc kernels expands to the bits iga64 encodes for it
//!   natively, and compacts back to the same 8 bytes;
//! - on the same kernels re-assembled with `-Xautocompact`, we compact exactly the instructions
//!   iga64 compacts, to the same bytes, and leave the others native;
//! - the same two checks on random table indices (proptest), in batches.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use isa_encoder::compact::{compact, expand, is_compacted};
use oracles::{ocloc, Oracle, Platform};
use proptest::prelude::*;

/// Kernels compiled at test time; together they cover arithmetic on every type, control flow,
/// subgroups, block IO on buffers and images, and SIMD8/16/32.
const SOURCES: [(&str, &str); 4] = [
    ("arith", include_str!("compact_corpus/arith.cl")),
    ("control", include_str!("compact_corpus/control.cl")),
    ("subgroup", include_str!("compact_corpus/subgroup.cl")),
    ("fp64", include_str!("compact_corpus/fp64.cl")),
];

/// fp64 only exists on Gen9 among our platforms.
fn sources_for(p: Platform) -> impl Iterator<Item = &'static str> {
    SOURCES
        .iter()
        .filter(move |(name, _)| *name != "fp64" || p == Platform::Skl)
        .map(|(_, src)| *src)
}

/// Kernel heaps per platform, compiled once per test binary.
fn heaps(ocloc_path: &Path, p: Platform) -> &'static [Vec<u8>] {
    static CACHE: [OnceLock<Vec<Vec<u8>>>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    CACHE[p as usize].get_or_init(|| {
        let mut out = Vec::new();
        for src in sources_for(p) {
            let bin = ocloc::compile(
                ocloc_path,
                p,
                src,
                "-cl-std=CL2.0",
                ocloc::Format::PatchTokens,
            )
            .unwrap_or_else(|e| panic!("{p}: {e}"));
            for h in ocloc::kernel_heaps(ocloc_path, &bin).unwrap() {
                out.push(h.bytes);
            }
        }
        out
    })
}

/// Splits a heap into instructions (8 or 16 bytes each); trailing padding is dropped.
fn split(heap: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 8 <= heap.len() {
        let len = if is_compacted(heap[at..at + 4].try_into().unwrap()) {
            8
        } else {
            16
        };
        if at + len > heap.len() {
            break;
        }
        out.push(&heap[at..at + len]);
        at += len;
    }
    out
}

/// Runs iga64 on a file; returns (success, stdout, stderr). Errors are data here: random
/// encodings are often illegal, and iga64 reports them per line.
fn iga64(iga: &Path, args: &[&str], input: &[u8], ext: &str) -> (bool, Vec<u8>, String) {
    static SEQ: AtomicUsize = AtomicUsize::new(0);
    let n = SEQ.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir();
    let stem = format!("isa-compaction-{}-{n}", std::process::id());
    let inp: PathBuf = dir.join(format!("{stem}.{ext}"));
    let out: PathBuf = dir.join(format!("{stem}.out"));
    std::fs::write(&inp, input).unwrap();
    let res = Command::new(iga)
        .args(args)
        .arg(&inp)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("run iga64");
    let stdout = std::fs::read(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&inp);
    let _ = std::fs::remove_file(&out);
    (
        res.status.success(),
        stdout,
        String::from_utf8_lossy(&res.stderr).into_owned(),
    )
}

/// Disassembles with numeric (relative) labels, one line per instruction, even past errors.
fn disasm_lines(iga: &Path, p: Platform, bytes: &[u8]) -> Vec<String> {
    let pf = format!("-p={}", p.iga_name());
    let (_, out, _) = iga64(iga, &["-d", &pf, "-n", "--output-on-fail"], bytes, "krn");
    String::from_utf8(out)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

fn assemble(iga: &Path, p: Platform, text: &str, extra: &str) -> Result<Vec<u8>, String> {
    let pf = format!("-p={}", p.iga_name());
    let (ok, out, err) = iga64(iga, &["-a", &pf, extra], text.as_bytes(), "asm");
    if ok {
        Ok(out)
    } else {
        Err(err)
    }
}

/// Text without the compaction marker and with whitespace collapsed.
fn normalize(line: &str) -> String {
    line.replace("{Compacted}", "")
        .replace("Compacted,", "")
        .replace(",Compacted", "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn words8(words: &[[u8; 8]]) -> Vec<u8> {
    words.iter().flatten().copied().collect()
}

fn is_branch(word: &[u8]) -> bool {
    (0x20..=0x2f).contains(&(word[0] & 0x7f))
}

/// Checks every compacted word two ways: the expansion disassembles to the same text as the
/// compacted word, and (for non-branches, whose numeric labels cannot be re-assembled alone)
/// iga64's native encoding of that text equals our expansion bit for bit. Returns how many
/// words iga64 could decode.
/// With `canonical`, the words are as iga64 or ocloc write them and must compact back to
/// themselves; random words may set bits iga64 ignores, so then only the native form must
/// survive a round trip.
fn check_expansion(iga: &Path, p: Platform, words: &[[u8; 8]], canonical: bool) -> usize {
    let compact_text = disasm_lines(iga, p, &words8(words));
    assert_eq!(compact_text.len(), words.len(), "{p}: one line per word");
    let decodable: Vec<(usize, &[u8; 8])> = words
        .iter()
        .enumerate()
        .filter(|(i, _)| !compact_text[*i].trim_start().starts_with("illegal"))
        .collect();
    let natives: Vec<[u8; 16]> = decodable
        .iter()
        .map(|(_, w)| expand(p, w).unwrap_or_else(|e| panic!("{p}: {w:02x?}: {e}")))
        .collect();
    let native_text = disasm_lines(iga, p, &natives.concat());
    assert_eq!(native_text.len(), natives.len(), "{p}");
    for (k, (i, w)) in decodable.iter().enumerate() {
        assert_eq!(
            normalize(&native_text[k]),
            normalize(&compact_text[*i]),
            "{p}: compacted {w:02x?} expanded to {:02x?}",
            natives[k]
        );
        let again = compact(p, &natives[k]);
        if canonical {
            assert_eq!(again.as_ref(), Some(*w), "{p}: {}", compact_text[*i]);
        } else {
            let again =
                again.unwrap_or_else(|| panic!("{p}: {} does not compact", compact_text[*i]));
            assert_eq!(
                expand(p, &again).as_ref(),
                Ok(&natives[k]),
                "{p}: {}",
                compact_text[*i]
            );
        }
    }
    if !canonical {
        // Random bits iga64 ignores do not survive its text; `check_decisions` covers the
        // bit-exact comparison on iga64's canonical encodings of these words instead.
        return decodable.len();
    }
    // Bit-exact: iga64's own native encoding of the same instructions.
    let mut lines = Vec::new();
    let mut expected = Vec::new();
    for (k, (i, w)) in decodable.iter().enumerate() {
        if !is_branch(&w[..]) {
            lines.push(normalize(&compact_text[*i]));
            expected.push(natives[k]);
        }
    }
    let (lines, expected) = keep_assemblable(iga, p, lines, expected);
    let text = lines.join("\n") + "\n";
    let forced = assemble(iga, p, &text, "-Xforce-no-compact").unwrap();
    assert_eq!(forced.len(), expected.len() * 16, "{p}");
    for (k, want) in expected.iter().enumerate() {
        assert_eq!(
            &forced[k * 16..k * 16 + 16],
            &want[..],
            "{p}: {} — ours vs iga64's native",
            lines[k]
        );
    }
    decodable.len()
}

/// Drops the lines iga64 refuses to assemble (random encodings may name registers that do not
/// exist), keeping `extra` aligned.
fn keep_assemblable<T>(
    iga: &Path,
    p: Platform,
    mut lines: Vec<String>,
    mut extra: Vec<T>,
) -> (Vec<String>, Vec<T>) {
    for _ in 0..64 {
        let text = lines.join("\n") + "\n";
        let err = match assemble(iga, p, &text, "-Xforce-no-compact") {
            Ok(_) => return (lines, extra),
            Err(e) => e,
        };
        let bad: std::collections::BTreeSet<usize> = err
            .split("line ")
            .skip(1)
            .filter_map(|s| s.split('.').next()?.parse::<usize>().ok())
            .map(|l| l - 1)
            .collect();
        assert!(!bad.is_empty(), "{p}: iga64 failed without a line: {err}");
        let mut k = 0;
        extra.retain(|_| {
            k += 1;
            !bad.contains(&(k - 1))
        });
        let mut k = 0;
        lines.retain(|_| {
            k += 1;
            !bad.contains(&(k - 1))
        });
    }
    panic!("{p}: iga64 kept rejecting lines");
}

/// Assembles `text` with and without auto-compaction and checks each instruction: where iga64
/// compacted, our compaction of its native form gives its bytes and our expansion gives its
/// native form; where it did not, ours does not either. Returns (instructions, compacted).
fn check_decisions(iga: &Path, p: Platform, text: &str) -> (usize, usize) {
    let auto = assemble(iga, p, text, "-Xautocompact").unwrap();
    let forced = assemble(iga, p, text, "-Xforce-no-compact").unwrap();
    let auto = split(&auto);
    assert_eq!(auto.len() * 16, forced.len(), "{p}");
    let mut compacted = 0;
    for (k, ins) in auto.iter().enumerate() {
        let native: [u8; 16] = forced[k * 16..k * 16 + 16].try_into().unwrap();
        if let Ok(word) = <[u8; 8]>::try_from(*ins) {
            compacted += 1;
            assert_eq!(
                compact(p, &expand(p, &word).unwrap()),
                Some(word),
                "{p}: #{k}"
            );
            if !is_branch(&word) {
                assert_eq!(compact(p, &native), Some(word), "{p}: #{k} {native:02x?}");
            }
        } else {
            let ins: [u8; 16] = (*ins).try_into().unwrap();
            assert_eq!(
                compact(p, &ins),
                None,
                "{p}: iga64 left #{k} {ins:02x?} native"
            );
        }
    }
    (auto.len(), compacted)
}

#[test]
fn corpus_compacted_instructions_expand_like_iga64() {
    let iga = oracles::require!(Oracle::Iga64);
    let ocloc_path = oracles::require!(Oracle::Ocloc);
    for p in Platform::ALL {
        let mut words: Vec<[u8; 8]> = heaps(&ocloc_path, p)
            .iter()
            .flat_map(|h| split(h))
            .filter_map(|i| <[u8; 8]>::try_from(i).ok())
            .collect();
        words.sort_unstable();
        words.dedup();
        assert!(
            words.len() > 100,
            "{p}: corpus has too few compacted instructions"
        );
        let decoded = check_expansion(&iga, p, &words, true);
        assert_eq!(
            decoded,
            words.len(),
            "{p}: iga64 decodes every word ocloc wrote"
        );
    }
}

#[test]
fn corpus_compaction_decisions_match_iga64_autocompact() {
    let iga = oracles::require!(Oracle::Iga64);
    let ocloc_path = oracles::require!(Oracle::Ocloc);
    for p in Platform::ALL {
        let (mut total, mut compacted) = (0, 0);
        for heap in heaps(&ocloc_path, p) {
            let pf = format!("-p={}", p.iga_name());
            let (ok, text, err) = iga64(&iga, &["-d", &pf], heap, "krn");
            assert!(ok || err.contains("padding"), "{p}: {err}");
            let (t, c) = check_decisions(&iga, p, &String::from_utf8(text).unwrap());
            total += t;
            compacted += c;
        }
        // Both outcomes occur, so neither "always" nor "never" would pass.
        assert!(
            compacted > 50 && total - compacted > 50,
            "{p}: {compacted}/{total}"
        );
    }
}

/// Random compacted words: opcode from the platform's compactable ones, every other bit random
/// (index fields included), register numbers kept in the GRF range.
fn random_words(p: Platform, raw: &[(u64, u8)]) -> Vec<[u8; 8]> {
    // Compactable opcodes per platform (iga64's opcode lists, minus forms with no compacted
    // encoding; `wait`/`sync` need operands random bits rarely make valid).
    const GEN9: &[u8] = &[
        0x40, 0x4e, 0x05, 0x0c, 0x42, 0x18, 0x19, 0x1a, 0x17, 0x4d, 0x10, 0x11, 0x12, 0x57, 0x56,
        0x54, 0x55, 0x4b, 0x4c, 0x43, 0x5c, 0x4a, 0x48, 0x49, 0x5b, 0x5d, 0x38, 0x01, 0x03, 0x41,
        0x04, 0x06, 0x5a, 0x45, 0x46, 0x44, 0x47, 0x50, 0x51, 0x02, 0x09, 0x08, 0x0a, 0x4f, 0x07,
        0x59,
    ];
    const GEN11: &[u8] = &[
        0x40, 0x4e, 0x05, 0x0c, 0x42, 0x19, 0x17, 0x4d, 0x10, 0x11, 0x4b, 0x4c, 0x43, 0x4a, 0x48,
        0x49, 0x38, 0x01, 0x03, 0x41, 0x04, 0x06, 0x45, 0x46, 0x44, 0x47, 0x02, 0x09, 0x08, 0x0a,
        0x4f, 0x07, 0x0e, 0x0f,
    ];
    const GEN12: &[u8] = &[
        0x40, 0x4e, 0x65, 0x6c, 0x42, 0x78, 0x79, 0x7a, 0x77, 0x4d, 0x70, 0x71, 0x72, 0x58, 0x4b,
        0x4c, 0x43, 0x4a, 0x48, 0x49, 0x5b, 0x61, 0x63, 0x41, 0x64, 0x66, 0x45, 0x46, 0x44, 0x47,
        0x62, 0x69, 0x68, 0x4f, 0x67, 0x6e, 0x6f,
    ];
    const XEHPG_EXTRA: &[u8] = &[0x52, 0x6b, 0x59, 0x5a];
    let ops: Vec<u8> = match p {
        Platform::Skl => GEN9.to_vec(),
        Platform::Icllp => GEN11.to_vec(),
        Platform::Tgllp => GEN12.to_vec(),
        Platform::Dg2 => [GEN12, XEHPG_EXTRA].concat(),
    };
    raw.iter()
        .map(|&(bits, op)| {
            let mut w = (bits & !0x7f) | (1 << 29);
            w &= !(1 << 7); // DebugCtrl off: iga64 prints it as a breakpoint option only
            w |= u64::from(ops[op as usize % ops.len()]);
            // Register numbers below 120 (GRF r0..r119), where the random bits put them.
            let reg_fields: &[(u32, u32)] = if p >= Platform::Tgllp {
                &[(16, 8), (40, 8), (48, 8), (56, 8)]
            } else {
                &[(40, 8), (48, 8), (56, 8)]
            };
            for &(lo, width) in reg_fields {
                let mask = ((1u64 << width) - 1) << lo;
                let v = ((w & mask) >> lo) % 120;
                w = (w & !mask) | (v << lo);
            }
            if p >= Platform::Tgllp {
                // SWSB: none, a distance @1..@7, or a token $0..$15 with .dst/.src.
                let sel = (bits >> 8) as u8;
                let swsb = match sel % 4 {
                    0 => 0,
                    1 => 1 + (sel >> 2) % 7,
                    2 => 0x20 | ((sel >> 2) % 16),
                    _ => 0x30 | ((sel >> 2) % 16),
                };
                w = (w & !(0xff << 8)) | (u64::from(swsb) << 8);
            }
            w.to_le_bytes()
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_table_indices_match_iga64(raw in prop::collection::vec((any::<u64>(), any::<u8>()), 300)) {
        let Some(iga) = Oracle::Iga64.locate() else {
            oracles::get(Oracle::Iga64, "random_table_indices_match_iga64");
            return Ok(());
        };
        for p in Platform::ALL {
            let words = random_words(p, &raw);
            let decoded = check_expansion(&iga, p, &words, false);
            prop_assert!(decoded > 30, "{}: only {} of {} random words decode", p, decoded, words.len());
            // Decisions: iga64's canonical text of the decodable words, re-assembled.
            let text: Vec<String> = disasm_lines(&iga, p, &words8(&words))
                .into_iter()
                .map(|l| normalize(&l))
                .filter(|l| !l.starts_with("illegal"))
                .collect();
            let n = text.len();
            let (text, _) = keep_assemblable(&iga, p, text, vec![(); n]);
            let (total, compacted) = check_decisions(&iga, p, &(text.join("\n") + "\n"));
            prop_assert!(total > 30 && compacted > 10, "{}: {}/{}", p, compacted, total);
        }
    }
}

/// Hand-picked forms the corpus may miss: every immediate type, branches, wait/sync, math,
/// math macros (Gen9/Gen11) and dpas (Xe-HPG; iga64 rejects it on Gen12LP, so it is dropped).
#[test]
fn special_forms_match_iga64_autocompact() {
    let iga = oracles::require!(Oracle::Iga64);
    let common = "\
(W) mov (8|M0) r1.0<1>:ud 0x5:ud
(W) mov (8|M0) r1.0<1>:ud 0x12345:ud
(W) mov (8|M0) r1.0<1>:d -3:d
(W) mov (8|M0) r1.0<1>:d -70000:d
(W) mov (8|M0) r1.0<1>:w -3:w
(W) mov (8|M0) r1.0<1>:uw 0x7FF:uw
(W) mov (8|M0) r1.0<1>:uw 0xFFFF:uw
(W) mov (8|M0) r1.0<1>:f 0.0:f
(W) mov (8|M0) r1.0<1>:f 1.0:f
(W) mov (8|M0) r1.0<1>:f 1.5:f
(W) mov (8|M0) r1.0<1>:f 0x3F800001:f
(W) mov (8|M0) r1.0<1>:hf 1.0:hf
(W) mov (8|M0) r1.0<1>:f 0x3F800000:vf
(W) mov (8|M0) r1.0<1>:uw 0x12345678:uv
(W) mov (8|M0) r1.0<1>:w 0x7:v
(W) mov (8|M0) r1.0<1>:uq 0x5:uq
(W) add (8|M0) r1.0<1>:d r2.0<8;8,1>:d 100:d
(W) add (8|M0) r1.0<1>:d r2.0<8;8,1>:d -100:w
(W) sel (8|M0) (lt)f0.0 r1.0<1>:f r2.0<8;8,1>:f 0.0:f
(W) mov (1|M0) r1.3<1>:ud 0x1F:ud
(W) not (8|M0) r1.0<1>:ud r2.0<8;8,1>:ud
(W) math.inv (8|M0) r1.0<1>:f r2.0<8;8,1>:f
(W) math.pow (8|M0) r1.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f
(W) jmpi (1|M0) L0
(W) brd (1|M0) L0
(W) brc (1|M0) L0 L0
(W) calla (1|M0) r3.0 0x40
(W) ret (1|M0) r3.0
L0:
";
    let extra = |p: Platform| {
        match p {
        Platform::Skl | Platform::Icllp => {
            "(W) wait n0.0<0;1,0>:ud\n(W) mov (8|M0) r1.0<1>:df 0x0:df\n(W) mad (8|M0) r1.0<1>:f r2.0<4;1>:f r3.0<4;1>:f r4.0<4;1>:f\n \
             (W) math.rsqtm (4|M0) (eo)f1.0 r30.mme0:df r58.nomme:df\n\
             (W) madm (4|M0) r34.mme1:df r122.nomme:df r121.nomme:df r30.mme0:df\n"
        }
        Platform::Tgllp | Platform::Dg2 => {
            "(W) sync.nop null\n(W) sync.allrd\n(W) sync.nop null {@1}\n(W) mad (8|M0) r1.0<1>:f r2.0<1;0>:f r3.0<1;0>:f r4.0<1>:f\n \
             (W) math.invm (8|M0) (eo)f0.0 r2.mme4:f r3.mme5:f r4.mme2:f\n\
             dpas.8x8 (8|M0) r10:f r20:f r30:hf r40.0:hf\n\
             dpas.8x1 (8|M0) r10:d r20:d r30:b r40.0:s4\n"
        }
    }
    };
    for p in Platform::ALL {
        let text = format!("{common}{}", extra(p));
        let (lines, _) = keep_assemblable(
            &iga,
            p,
            text.lines().map(str::to_string).collect(),
            vec![(); text.lines().count()],
        );
        let (total, compacted) = check_decisions(&iga, p, &(lines.join("\n") + "\n"));
        assert!(total > 24 && compacted > 5, "{p}: {compacted}/{total}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Arbitrary words never panic either way, and whatever compacts re-expands to its input.
    #[test]
    fn arbitrary_words_never_panic(word in any::<u64>(), native in any::<u128>(), p in 0usize..4) {
        let p = Platform::ALL[p];
        if let Ok(n) = expand(p, &word.to_le_bytes()) {
            prop_assert_eq!(n[3] & 0x20, 0, "expansion has CmptCtrl clear");
            if let Some(c) = compact(p, &n) {
                prop_assert_eq!(expand(p, &c), Ok(n));
            }
        }
        let bytes = native.to_le_bytes();
        if let Some(c) = compact(p, &bytes) {
            prop_assert_eq!(expand(p, &c), Ok(bytes));
        }
    }
}
