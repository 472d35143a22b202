//! The sanitizer on seeded bugs: OpenCL C kernels with one bug each and a correct twin
//! (`data/sanitizer_bugs.cl`), compiled by ocloc and run on every simulated platform with
//! `memcheck,alignment`. Each bug must give findings of its check only, naming the kernel, at
//! instructions iga64 shows making the faulty access (a send to the right buffer or SLM), with
//! the address the OpenCL C source computes; each twin none. Every kernel must compute the
//! same with the sanitizer as without (or fail the same way: a misaligned block read stops
//! the thread with a GPU error either way).

use std::path::Path;

use platform::Platform;
use serde_json::Value;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::memory::Buffer;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const SRC: &str = include_str!("data/sanitizer_bugs.cl");

struct Tools {
    ocloc: std::path::PathBuf,
    iga: std::path::PathBuf,
}

/// What one run left: the dispatch's result, the findings logged and `b`'s bytes.
struct Ran {
    result: Result<(), String>,
    findings: Vec<Value>,
    a: u64,
    b: u64,
    b_bytes: Vec<u8>,
}

fn findings(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Runs kernel `name` of `bin` on a fresh device (a GPU error bans its context) with the
/// sanitizer's `checks` ("": off) over `items` work-items in groups of `local`, with `a` and
/// `b` exactly `items` ints and the scalar `n`; `a` declared read-only when `read_only`.
#[allow(clippy::too_many_arguments)]
fn run(
    p: Platform,
    bin: &[u8],
    name: &str,
    checks: &str,
    items: u32,
    local: u32,
    n: i32,
    read_only: bool,
) -> Ran {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("findings.jsonl");
    let d = Device::open_sim_sanitized(p, None, checks, Some(log.clone())).unwrap();
    let kernel = Kernel::from_ocloc(bin, Some(name), Some(p)).unwrap();
    let bytes = u64::from(items) * 4;
    let (a, b): (Buffer, Buffer) = (
        d.create_buffer(bytes).unwrap(),
        d.create_buffer(bytes).unwrap(),
    );
    let init: Vec<u8> = (0..items)
        .flat_map(|i| (i as i32 * 3 + 1).to_le_bytes())
        .collect();
    a.write(0, &init).unwrap();
    b.write(0, &vec![0xee; bytes as usize]).unwrap();
    if read_only {
        a.declare_read_only();
    }
    let range = NdRange::new(&[items], Some(&[local]), kernel.simd, None).unwrap();
    let args = [
        ArgValue::Buffer(a.clone()),
        ArgValue::Buffer(b.clone()),
        ArgValue::Value(n.to_le_bytes().to_vec()),
    ];
    let result = d
        .dispatch(&kernel, &range, &args)
        .map(|_| ())
        .map_err(|e| e.to_string());
    Ran {
        result,
        findings: findings(&log),
        a: a.gpu_address(),
        b: b.gpu_address(),
        b_bytes: b.to_vec().unwrap(),
    }
}

/// The offsets and iga64 texts of kernel `name`'s sends.
fn sends(tools: &Tools, bin: &[u8], name: &str, p: Platform) -> Vec<(u32, String)> {
    let heaps = oracles::ocloc::kernel_heaps(&tools.ocloc, bin).unwrap();
    let heap = heaps.iter().find(|h| h.name == name).expect(name);
    oracles::iga64::listing(&tools.iga, p, &heap.bytes)
        .unwrap()
        .into_iter()
        .filter(|(_, t)| t.contains("send"))
        .collect()
}

/// What a send reaches, as iga64 prints it: SLM (LSC `.slm`, HDC binding-table index 0xFE),
/// argument 0 (`a`) or 1 (`b`) through binding-table index 0 or 1 (LSC `bti[n]`, HDC the
/// descriptor's low byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Slm,
    A,
    B,
}

fn target(t: &str) -> Option<Target> {
    if t.contains(".slm") {
        return Some(Target::Slm);
    }
    if t.contains("bti[0]") {
        return Some(Target::A);
    }
    if t.contains("bti[1]") {
        return Some(Target::B);
    }
    let desc = t
        .split_whitespace()
        .find(|w| w.len() == 10 && w.starts_with("0x"))?;
    match &desc[8..] {
        "FE" => Some(Target::Slm),
        "00" => Some(Target::A),
        "01" => Some(Target::B),
        _ => None,
    }
}

fn is_write(t: &str) -> bool {
    t.contains("write") || t.contains("store")
}

/// A block message: HDC OWord block, LSC transposed (`d32x16t`, `d64x8t`).
fn is_block(t: &str) -> bool {
    t.contains("block") || t.contains("t.a32") || t.contains("t.a64")
}

/// One seeded bug: its kernel pair, launch, the check that must catch it, the sends that make
/// the faulty access, and the address it must name.
struct Case {
    name: &'static str,
    items: u32,
    local: u32,
    n: i32,
    read_only: bool,
    check: &'static str,
    /// (target, write, block) of the faulty access.
    access: (Target, bool, bool),
    /// Where the address the finding names lies, from `a` and `b`'s addresses (an SLM
    /// offset for SLM).
    address: fn(u64, u64) -> std::ops::Range<u64>,
    /// Text the finding's allocation must contain, from `a` and `b`.
    allocation: fn(u64, u64) -> String,
}

const CASES: [Case; 6] = [
    Case {
        name: "global_overflow",
        items: 64,
        local: 64,
        n: 0,
        read_only: false,
        check: "memcheck",
        access: (Target::A, false, false),
        // a[i + 1] of the last work-item: one int past a's 256 bytes.
        address: |a, _| a + 256..a + 257,
        allocation: |a, _| format!("buffer of 256 bytes at {a:#x}"),
    },
    Case {
        name: "negative_index",
        items: 64,
        local: 64,
        n: 1,
        read_only: false,
        check: "memcheck",
        access: (Target::A, false, false),
        // a[i - 1] of work-item 0.
        address: |a, _| a - 4..a - 3,
        allocation: |a, _| format!("buffer of 256 bytes at {a:#x}"),
    },
    Case {
        name: "slm_overflow",
        items: 64,
        local: 64,
        n: 1,
        read_only: false,
        check: "memcheck",
        access: (Target::Slm, true, false),
        address: |_, _| 0..256,
        allocation: |_, _| "shared local memory of 256 bytes".into(),
    },
    Case {
        name: "read_only_write",
        items: 64,
        local: 64,
        n: 0,
        read_only: true,
        check: "memcheck",
        access: (Target::A, true, false),
        // Either SIMD16 half's store: somewhere in `a`.
        address: |a, _| a..a + 256,
        allocation: |a, _| format!("buffer of 256 bytes at {a:#x}..{:#x}, read-only", a + 256),
    },
    Case {
        name: "block_read",
        items: 16,
        local: 16,
        n: 0,
        read_only: false,
        check: "alignment",
        access: (Target::A, false, true),
        address: |a, _| a + 2..a + 3,
        allocation: |a, _| format!("buffer of 64 bytes at {a:#x}"),
    },
    Case {
        name: "block_write",
        items: 16,
        local: 16,
        n: 0,
        read_only: false,
        check: "alignment",
        access: (Target::B, true, true),
        address: |_, b| b + 4..b + 5,
        allocation: |_, b| format!("buffer of 64 bytes at {b:#x}"),
    },
];

fn compile(tools: &Tools, p: Platform) -> Vec<u8> {
    oracles::ocloc::compile(
        &tools.ocloc,
        p,
        SRC,
        "-cl-std=CL1.2",
        oracles::ocloc::Format::PatchTokens,
    )
    .unwrap()
}

#[test]
fn seeded_bugs_are_caught_and_twins_are_clean_on_every_platform() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let tools = Tools { ocloc, iga };
    for p in Platform::ALL {
        let bin = compile(&tools, p);
        for c in &CASES {
            let (bug, twin) = (format!("bug_{}", c.name), format!("ok_{}", c.name));
            let go =
                |k: &str, checks: &str| run(p, &bin, k, checks, c.items, c.local, c.n, c.read_only);
            // The twin: no finding, and the same result as without the sanitizer.
            let (ok, plain) = (go(&twin, "memcheck,alignment"), go(&twin, ""));
            assert!(ok.findings.is_empty(), "{p} {twin}: {:?}", ok.findings);
            assert_eq!(ok.result, Ok(()), "{p} {twin}");
            assert_eq!(
                ok.b_bytes, plain.b_bytes,
                "{p} {twin}: the sanitizer changed b"
            );

            let (got, plain) = (go(&bug, "memcheck,alignment"), go(&bug, ""));
            assert_eq!(
                got.result.is_ok(),
                plain.result.is_ok(),
                "{p} {bug}: the sanitizer changed the outcome: {:?} vs {:?}",
                got.result,
                plain.result
            );
            if got.result.is_ok() {
                assert_eq!(
                    got.b_bytes, plain.b_bytes,
                    "{p} {bug}: the sanitizer changed b"
                );
            }
            let faulty: Vec<u32> = sends(&tools, &bin, &bug, p)
                .into_iter()
                .filter(|(_, t)| {
                    target(t) == Some(c.access.0)
                        && is_write(t) == c.access.1
                        && is_block(t) == c.access.2
                })
                .map(|(o, _)| o)
                .collect();
            assert!(
                !faulty.is_empty(),
                "{p} {bug}: no send of the faulty access"
            );
            assert!(!got.findings.is_empty(), "{p} {bug}: not caught");
            for f in &got.findings {
                let what = format!("{p} {bug}: {f}");
                assert_eq!(f["check"], c.check, "{what}");
                assert_eq!(f["kernel"], bug.as_str(), "{what}");
                let offset = f["offset"].as_u64().unwrap() as u32;
                assert!(faulty.contains(&offset), "{what}: not one of {faulty:x?}");
                assert!(f["count"].as_u64().unwrap() >= 1, "{what}");
                let alloc = f["allocation"].as_str().unwrap_or("");
                assert!(alloc.contains(&(c.allocation)(got.a, got.b)), "{what}");
                let want = (c.address)(got.a, got.b);
                let at = f["address"].as_u64();
                assert!(
                    at.is_some_and(|a| want.contains(&a)),
                    "{what}: want {want:#x?}"
                );
                if c.check == "alignment" {
                    assert!(
                        f["what"].as_str().unwrap().contains("cl_intel_subgroups"),
                        "{what}: the rule is not named"
                    );
                }
                assert!(
                    f["disassembly"].as_str().unwrap().contains("send"),
                    "{what}"
                );
            }
        }
    }
}

#[test]
fn unknown_checks_are_refused_by_name_and_api_is_the_icds() {
    for (list, why) in [("memchek", "unknown"), ("memcheck,racechek", "racechek")] {
        let e = Device::open_sim_sanitized(Platform::Tgllp, None, list, None).unwrap_err();
        assert!(e.to_string().contains(why), "{list}: {e}");
    }
    // `api` checks OpenCL calls (the ICD's part); the simulated GPU opens with it.
    for list in ["api", "memcheck,api", "all"] {
        Device::open_sim_sanitized(Platform::Tgllp, None, list, None)
            .unwrap_or_else(|e| panic!("{list}: {e}"));
    }
}
