//! memcheck on reads past a buffer's end (`data/sanitizer_past_end.cl`), compiled by ocloc
//! and run on sim:tgllp, whose binding-table surfaces read zeros past the end. A block read
//! overhanging the end whose bytes past it the kernel discards is no finding, also when it
//! stages them in local memory first. A kernel that uses bytes read past the end (stores them,
//! also after a trip through local memory, computes an address or decides a branch with them)
//! is reported where it uses them, naming the read (its send, iga64's `(W)` or block read of
//! `a`), the first byte past the end and `a`'s allocation; also with memcheck alone.
//! Every kernel computes the same with the sanitizer as without.

use crate::sanitizer_support;

use platform::Platform;
use sanitizer_support::{findings, listing, offsets};
use serde_json::Value;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const SRC: &str = include_str!("data/sanitizer_past_end.cl");
const P: Platform = Platform::Tgllp;
/// Work-items: one SIMD16 sub-group (bug_block_overhang's block is one sub-group's).
const ITEMS: u32 = 16;

/// What one run left.
struct Ran {
    findings: Vec<Value>,
    a: u64,
    b_bytes: Vec<u8>,
}

/// Runs kernel `name` with the sanitizer's `checks` ("": off) over 16 work-items on `a`
/// (`bytes`, host-written), `b` (2 KiB) and the scalar `n`.
fn run(bin: &[u8], name: &str, checks: &str, bytes: u64, n: i32) -> Ran {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("findings.jsonl");
    let d = Device::open_sim_sanitized(P, None, checks, Some(log.clone())).unwrap();
    let kernel = Kernel::from_ocloc(bin, Some(name), Some(P)).unwrap();
    let a = d.create_buffer(bytes).unwrap();
    let init: Vec<u8> = (0..bytes).map(|i| (i * 7 + 3) as u8).collect();
    a.write(0, &init).unwrap();
    let b = d.create_buffer(2048).unwrap();
    b.write(0, &[0x11; 2048]).unwrap();
    let range = NdRange::new(&[ITEMS], Some(&[ITEMS]), kernel.simd, None).unwrap();
    let args = [
        ArgValue::Buffer(a.clone()),
        ArgValue::Buffer(b.clone()),
        ArgValue::Value(n.to_le_bytes().to_vec()),
    ];
    d.dispatch(&kernel, &range, &args)
        .unwrap_or_else(|e| panic!("{name} ({checks:?}): {e}"));
    Ran {
        findings: findings(&log),
        a: a.gpu_address(),
        b_bytes: b.to_vec().unwrap(),
    }
}

fn compile(ocloc: &std::path::Path) -> Vec<u8> {
    oracles::ocloc::compile(
        ocloc,
        P,
        SRC,
        "-cl-std=CL1.2",
        oracles::ocloc::Format::PatchTokens,
    )
    .unwrap()
}

/// A send reading `a` (binding-table index 0, the descriptor's low byte).
fn reads_a(t: &str) -> bool {
    t.contains("send")
        && !t.contains("write")
        && t.split_whitespace()
            .any(|w| w.len() == 10 && w.starts_with("0x") && w.ends_with("00"))
}

#[test]
fn a_block_read_past_the_end_whose_bytes_are_discarded_is_no_finding() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let bin = compile(&ocloc);
    // Lanes 12 to 15 of the block lie past the end; the kernel stores 7 there instead
    // (`ok_past_end_through_slm`: after staging the block in SLM and reading it back).
    for (name, n) in [("ok_block_overhang", 4), ("ok_past_end_through_slm", 4)] {
        let text = listing(&ocloc, &iga, &bin, name, P);
        assert!(
            text.iter()
                .any(|(_, t)| t.contains("oword aligned block read x4")),
            "{name}: {text:#?}"
        );
        let (got, plain) = (run(&bin, name, "all", 64, n), run(&bin, name, "", 64, n));
        assert!(got.findings.is_empty(), "{name}: {:#?}", got.findings);
        assert_eq!(
            got.b_bytes, plain.b_bytes,
            "{name}: the sanitizer changed b"
        );
    }
}

/// A seeded use: the kernel, its `n`, how the finding's sentence starts, and which of iga64's
/// instructions make the use.
type Case = (&'static str, i32, &'static str, fn(&str) -> bool);

#[test]
fn bytes_read_past_the_end_are_reported_where_they_are_used() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let bin = compile(&ocloc);
    // (kernel, n, what the use is, the instructions that make it).
    let cases: [Case; 4] = [
        ("bug_block_overhang", 4, "a store to memory at ", |t| {
            t.contains("send") && t.contains("write")
        }),
        // Through SLM the bytes keep their read: the use is the store to `b`, not to SLM.
        (
            "bug_past_end_through_slm",
            4,
            "a store to memory at ",
            |t| t.contains("send") && t.contains("write"),
        ),
        (
            "bug_past_end_address",
            16,
            "the address of this access",
            |t| reads_a(t) && !t.contains("(W)"),
        ),
        ("bug_past_end_branch", 16, "control flow (if)", |t| {
            t.split_whitespace().any(|w| w == "if")
        }),
    ];
    for (name, n, how, is_use) in cases {
        let text = listing(&ocloc, &iga, &bin, name, P);
        let uses = offsets(&text, is_use);
        // The read: a `(W)` message or a block read of `a`.
        let reads = offsets(&text, |t| {
            reads_a(t) && (t.contains("(W)") || t.contains("block read"))
        });
        assert!(!uses.is_empty() && !reads.is_empty(), "{name}: {text:#?}");
        for checks in [
            "memcheck",
            "memcheck,initcheck,racecheck,synccheck,alignment",
        ] {
            let (got, plain) = (run(&bin, name, checks, 64, n), run(&bin, name, "", 64, n));
            assert_eq!(
                got.b_bytes, plain.b_bytes,
                "{name}: the sanitizer changed b"
            );
            assert!(!got.findings.is_empty(), "{name} ({checks}): not caught");
            for f in &got.findings {
                let what = format!("{name} ({checks}): {f}");
                assert_eq!(f["check"], "memcheck", "{what}");
                assert_eq!(f["kernel"], name, "{what}");
                let offset = f["offset"].as_u64().unwrap() as u32;
                assert!(uses.contains(&offset), "{what}: not one of {uses:x?}");
                let sentence = f["what"].as_str().unwrap();
                assert!(sentence.starts_with(how), "{what}");
                assert!(
                    reads
                        .iter()
                        .any(|r| sentence.contains(&format!("send at offset {r:#x},"))),
                    "{what}: names none of the reads {reads:x?}"
                );
                // The first byte past `a`'s 64 bytes.
                assert_eq!(f["address"].as_u64(), Some(got.a + 64), "{what}");
                let alloc = f["allocation"].as_str().unwrap();
                assert!(
                    alloc.contains(&format!("buffer of 64 bytes at {:#x}", got.a)),
                    "{what}"
                );
            }
        }
    }
}

/// IGC's own reads past the end for a correct program (OWord blocks rounded up, the padding
/// element of a 64-bit `vload3` read on its own), whose bytes there it discards: no finding.
#[test]
fn igcs_padding_past_the_end_is_no_finding() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let bin = compile(&ocloc);
    let name = "ok_vector_creation";
    let text = listing(&ocloc, &iga, &bin, name, P);
    for message in [
        "oword aligned block read x2",
        "untyped surface read with xy",
    ] {
        assert!(
            text.iter()
                .any(|(_, t)| t.contains("(W)") && t.trim_end().ends_with(message)),
            "{name}: no {message}: {text:#?}"
        );
    }
    let (got, plain) = (run(&bin, name, "all", 128, 0), run(&bin, name, "", 128, 0));
    assert!(got.findings.is_empty(), "{name}: {:#?}", got.findings);
    assert_eq!(
        got.b_bytes, plain.b_bytes,
        "{name}: the sanitizer changed b"
    );
    // memcheck alone follows the bytes too.
    let memcheck = run(&bin, name, "memcheck", 128, 0);
    assert!(
        memcheck.findings.is_empty(),
        "{name}: {:#?}",
        memcheck.findings
    );
}
