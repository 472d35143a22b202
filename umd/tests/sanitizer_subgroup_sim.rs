//! synccheck of sub-group functions in divergent control flow on seeded bugs
//! (`data/sanitizer_bugs_subgroup.cl`), compiled by ocloc and run on every simulated platform.
//! cl_khr_subgroups and cl_intel_subgroups require sub-group functions to be encountered by
//! all work-items of the sub-group; a shuffle may only read work-items that encounter it. Each bug (a shuffle, a block write executed by the lanes
//! below n = 4 only), run with synccheck, must give synccheck findings only, at instructions
//! iga64 shows as the collective's (a per-lane indirect register read `r[a0…]`, a block-write
//! send), naming the lanes the spec's source leaves out; each twin and each correct kernel
//! whose divergent code IGC compiles to the same instruction forms, run with every check, none.
//! Every kernel must compute the same with the sanitizer as without.

use crate::sanitizer_support;

use std::path::Path;

use platform::Platform;
use sanitizer_support::{findings, listing};
use serde_json::Value;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::memory::Buffer;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const SRC: &str = include_str!("data/sanitizer_bugs_subgroup.cl");
const ITEMS: u32 = 128;
const LOCAL: u32 = 64;
/// The work-items of each sub-group below this local id execute the bug's collective.
const N: i32 = 4;

/// The findings logged and `b`'s bytes after one run.
struct Ran {
    result: Result<(), String>,
    findings: Vec<Value>,
    b_bytes: Vec<u8>,
    /// The kernel's SIMD width (its sub-group size).
    simd: u32,
}

/// Runs kernel `name` on a fresh device with the sanitizer's `checks` ("": off) over 128
/// work-items in groups of 64, on host-written `a` and `b` of 128 ints and `n` = [`N`].
fn run(p: Platform, bin: &[u8], name: &str, checks: &str) -> Ran {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("findings.jsonl");
    let d = Device::open_sim_sanitized(p, None, checks, Some(log.clone())).unwrap();
    let bytes = u64::from(ITEMS) * 4;
    let (a, b): (Buffer, Buffer) = (
        d.create_buffer(bytes).unwrap(),
        d.create_buffer(bytes).unwrap(),
    );
    let init: Vec<u8> = (0..ITEMS)
        .flat_map(|i| (i as i32 * 3 + 1).to_le_bytes())
        .collect();
    a.write(0, &init).unwrap();
    b.write(0, &vec![0x11; bytes as usize]).unwrap();
    let kernel = Kernel::from_ocloc(bin, Some(name), Some(p)).unwrap();
    let range = NdRange::new(&[ITEMS], Some(&[LOCAL]), kernel.simd, None).unwrap();
    let args = [
        ArgValue::Buffer(a.clone()),
        ArgValue::Buffer(b.clone()),
        ArgValue::Value(N.to_le_bytes().to_vec()),
    ];
    let result = d
        .dispatch(&kernel, &range, &args)
        .map(|_| ())
        .map_err(|e| e.to_string());
    Ran {
        result,
        findings: findings(&log),
        b_bytes: b.to_vec().unwrap(),
        simd: kernel.simd,
    }
}

/// The offsets of kernel `name`'s instructions whose iga64 text satisfies `is`.
fn offsets(
    ocloc: &Path,
    iga: &Path,
    bin: &[u8],
    name: &str,
    p: Platform,
    is: fn(&str) -> bool,
) -> Vec<u32> {
    sanitizer_support::offsets(&listing(ocloc, iga, bin, name, p), is)
}

/// A read through per-lane address registers without `(W)`: the shuffle's form.
fn is_shuffle(t: &str) -> bool {
    t.contains("r[a0") && !t.trim_start().starts_with("(W)")
}

/// A block-write send (HDC OWord block write, LSC transposed store).
fn is_block_write(t: &str) -> bool {
    t.contains("send") && (t.contains("block write") || (t.contains("store") && t.contains("t.")))
}

struct Bug {
    name: &'static str,
    at: fn(&str) -> bool,
    /// What the spec's text makes the finding say (lanes 0..N execute it, lane N - 1 reads
    /// lane N for the shuffle).
    says: &'static str,
}

const BUGS: [Bug; 2] = [
    Bug {
        name: "shuffle",
        at: is_shuffle,
        says: "lane 3 reads the value of disabled lane 4",
    },
    Bug {
        name: "block_write",
        at: is_block_write,
        says: "sub-group block write in divergent control flow",
    },
];

const LEGIT: [&str; 6] = [
    "legit_uniform_loads",
    "legit_uniform_table",
    "legit_private_array",
    "legit_private_chars",
    "legit_vector_element",
    "legit_divergent_atomic",
];

#[test]
fn collectives_in_divergent_code_are_caught_and_correct_code_is_clean() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let iga = oracles::require!(oracles::Oracle::Iga64);
    for p in Platform::ALL {
        let bin = oracles::ocloc::compile(
            &ocloc,
            p,
            SRC,
            "-cl-std=CL2.0",
            oracles::ocloc::Format::PatchTokens,
        )
        .unwrap();
        let clean = |k: &str| {
            let (ok, plain) = (run(p, &bin, k, "all"), run(p, &bin, k, ""));
            assert!(ok.findings.is_empty(), "{p} {k}: {:#?}", ok.findings);
            assert_eq!(ok.result, Ok(()), "{p} {k}");
            assert_eq!(
                ok.b_bytes, plain.b_bytes,
                "{p} {k}: the sanitizer changed b"
            );
        };
        for k in LEGIT {
            clean(k);
        }
        for bug in &BUGS {
            clean(&format!("ok_{}", bug.name));
            let k = format!("bug_{}", bug.name);
            let (got, plain) = (run(p, &bin, &k, "synccheck"), run(p, &bin, &k, ""));
            assert_eq!(got.result, plain.result, "{p} {k}");
            assert_eq!(
                got.b_bytes, plain.b_bytes,
                "{p} {k}: the sanitizer changed b"
            );
            let at = offsets(&ocloc, &iga, &bin, &k, p, bug.at);
            assert!(!at.is_empty(), "{p} {k}: iga64 shows no such instruction");
            assert!(!got.findings.is_empty(), "{p} {k}: not caught");
            for f in &got.findings {
                let what = format!("{p} {k}: {f}");
                assert_eq!(f["check"], "synccheck", "{what}");
                assert_eq!(f["kernel"], k.as_str(), "{what}");
                let offset = f["offset"].as_u64().unwrap() as u32;
                assert!(at.contains(&offset), "{what}: not one of {at:x?}");
                let sentence = f["what"].as_str().unwrap();
                assert!(sentence.contains(bug.says), "{what}");
                // Lanes 0..N of the sub-group execute it, the rest of it do not.
                let off = (u64::MAX >> (64 - got.simd)) & !0xf;
                assert!(sentence.contains("lanes 0xf of sub-group"), "{what}");
                assert!(
                    sentence.contains(&format!("lanes {off:#x} do not")),
                    "{what}"
                );
                assert!(f["group"][0].as_u64().unwrap() < 2, "{what}");
                assert!(f["sub_group"].as_u64().unwrap() < 8, "{what}");
                assert!(f["address"].is_null(), "{what}");
            }
            // Every sub-group of both work-groups runs it.
            let count: u64 = got
                .findings
                .iter()
                .map(|f| f["count"].as_u64().unwrap())
                .sum();
            assert!(count >= 2 * 64 / 32, "{p} {k}: {count} occurrence(s)");
        }
    }
}
