//! The sanitizer on seeded bugs: OpenCL C kernels with one bug each and a correct twin
//! (`data/sanitizer_bugs.cl`), compiled by ocloc and run on every simulated platform with
//! `memcheck,alignment`. Each bug must give findings of its check only, naming the kernel, at
//! instructions iga64 shows making the faulty access (a send to the right buffer, SLM or
//! memory reached through a pointer; for a uniform read past the end, which memcheck follows
//! to its use, the use, its sentence naming that send), with the address the OpenCL C source
//! computes; each twin, run with every check, none. Every kernel must compute the same with
//! the sanitizer as without (or fail the same way: a misaligned block read stops the thread with a GPU error
//! either way, and so does a read of a freed USM allocation: its addresses are unmapped).

use crate::sanitizer_support;

use platform::Platform;
use serde_json::Value;
use umd::device::{Device, KmdChoice};
use umd::kernel::Kernel;
use umd::memory::Buffer;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

use sanitizer_support::{findings, listing};

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
    /// [`Setup::Usm`]: the freed allocation's address.
    freed: u64,
    b_bytes: Vec<u8>,
}

/// What argument `a` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Setup {
    /// A buffer of exactly `items` ints.
    Plain,
    /// A sub-buffer of `items` ints at origin 64 of a buffer of `items` ints and 128 bytes.
    SubBuffer,
    /// The parent of [`Setup::SubBuffer`], given whole.
    Parent,
    /// Two pointers to device USM allocations of `items` ints holding what `a` holds
    /// otherwise: the first live, the second freed before the dispatch (after a first
    /// dispatch with both live).
    Usm,
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
    setup: Setup,
    kmd: Option<KmdChoice>,
) -> Ran {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("findings.jsonl");
    let d = Device::open_sim_sanitized(p, kmd, checks, Some(log.clone())).unwrap();
    let kernel = Kernel::from_ocloc(bin, Some(name), Some(p)).unwrap();
    let bytes = u64::from(items) * 4;
    let init: Vec<u8> = (0..items)
        .flat_map(|i| (i as i32 * 3 + 1).to_le_bytes())
        .collect();
    let b = d.create_buffer(bytes).unwrap();
    b.write(0, &vec![0xee; bytes as usize]).unwrap();
    let mut live = Vec::new();
    let mut freed = 0;
    let range = NdRange::new(&[items], Some(&[local]), kernel.simd, None).unwrap();
    let a: Buffer = match setup {
        Setup::Plain => d.create_buffer(bytes).unwrap(),
        Setup::SubBuffer | Setup::Parent => {
            let parent = d.create_buffer(bytes + 128).unwrap();
            parent.write(0, &vec![0x55; bytes as usize + 128]).unwrap();
            match setup {
                Setup::Parent => parent,
                _ => parent.sub_buffer(64, bytes, None).unwrap(),
            }
        }
        Setup::Usm => {
            let (x, y) = (
                d.alloc_device_usm(bytes, 0).unwrap(),
                d.alloc_device_usm(bytes, 0).unwrap(),
            );
            x.write(0, &init).unwrap();
            y.write(0, &init).unwrap();
            let ptrs = d.create_buffer(16).unwrap();
            let at: Vec<u8> = [x.gpu_address(), y.gpu_address()]
                .iter()
                .flat_map(|p| p.to_le_bytes())
                .collect();
            ptrs.write(0, &at).unwrap();
            // A first run with both allocations live makes the queue's own memory (its first
            // dispatch's), which would otherwise take the freed addresses again.
            let args = [
                ArgValue::Buffer(ptrs.clone()),
                ArgValue::Buffer(b.clone()),
                ArgValue::Value(n.to_le_bytes().to_vec()),
            ];
            let (e, _) = d
                .default_queue()
                .dispatch_resident(&kernel, &range, &args, &[x.clone(), y.clone()], &[])
                .unwrap();
            e.wait(None).unwrap();
            freed = y.gpu_address();
            drop(y);
            live.push(x);
            ptrs
        }
    };
    if setup != Setup::Usm {
        a.write(0, &init).unwrap();
    }
    if read_only {
        a.declare_read_only();
    }
    let args = [
        ArgValue::Buffer(a.clone()),
        ArgValue::Buffer(b.clone()),
        ArgValue::Value(n.to_le_bytes().to_vec()),
    ];
    let result = d
        .default_queue()
        .dispatch_resident(&kernel, &range, &args, &live, &[])
        .map_err(|e| e.to_string())
        .and_then(|(e, _)| e.wait(None).map(|_| ()).map_err(|e| e.to_string()));
    Ran {
        result,
        findings: findings(&log),
        a: a.gpu_address(),
        b: b.gpu_address(),
        freed,
        b_bytes: b.to_vec().unwrap(),
    }
}

/// The offsets and iga64 texts of kernel `name`'s sends.
fn sends(tools: &Tools, bin: &[u8], name: &str, p: Platform) -> Vec<(u32, String)> {
    listing(&tools.ocloc, &tools.iga, bin, name, p)
        .into_iter()
        .filter(|(_, t)| t.contains("send"))
        .collect()
}

/// What a send reaches, as iga64 prints it: SLM (LSC `.slm`, HDC binding-table index 0xFE),
/// argument 0 (`a`) or 1 (`b`) through binding-table index 0 or 1 (LSC `bti[n]`, HDC the
/// descriptor's low byte), or something else (stateless: a pointer the kernel loaded, private
/// memory, scratch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Slm,
    A,
    B,
    Other,
}

fn target(t: &str) -> Target {
    if t.contains(".slm") {
        return Target::Slm;
    }
    if t.contains("bti[0]") {
        return Target::A;
    }
    if t.contains("bti[1]") {
        return Target::B;
    }
    let desc = t
        .split_whitespace()
        .find(|w| w.len() == 10 && w.starts_with("0x"));
    match desc.map(|d| &d[8..]) {
        Some("FE") => Target::Slm,
        Some("00") => Target::A,
        Some("01") => Target::B,
        _ => Target::Other,
    }
}

fn is_write(t: &str) -> bool {
    t.contains("write") || t.contains("store")
}

/// A block message: HDC OWord block, LSC transposed (`d32x16t`, `d64x8t`; one element,
/// `d32x1t`, is IGC's uniform scalar load, not a block).
fn is_block(t: &str) -> bool {
    t.contains("block") || ((t.contains("t.a32") || t.contains("t.a64")) && !t.contains("x1t."))
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
    /// What `a` is.
    setup: Setup,
    /// Where the address the finding names lies, from the run (an SLM offset for SLM).
    address: fn(&Ran) -> std::ops::Range<u64>,
    /// Text the finding's allocation must contain, from the run.
    allocation: fn(&Ran) -> String,
    /// Text the finding's sentence must contain.
    what: &'static str,
    /// memcheck follows the read's bytes past the end to their use (a `(W)` read, which may
    /// be IGC's padding): the finding may be at the use, then naming the faulty send in its
    /// sentence.
    at_use: bool,
}

/// Any address: where the driver put the memory (private memory, scratch).
fn anywhere(_: &Ran) -> std::ops::Range<u64> {
    0..u64::MAX
}

const CASES: [Case; 10] = [
    Case {
        name: "global_overflow",
        items: 64,
        local: 64,
        n: 0,
        read_only: false,
        check: "memcheck",
        access: (Target::A, false, false),
        // a[i + 1] of the last work-item: one int past a's 256 bytes.
        setup: Setup::Plain,
        address: |r| r.a + 256..r.a + 257,
        allocation: |r| format!("buffer of 256 bytes at {:#x}", r.a),
        what: "",
        at_use: false,
    },
    // a[61 + 3] of every work-item: one int past a's 256 bytes, read once for the sub-group
    // and stored to b.
    Case {
        name: "uniform_tail",
        items: 64,
        local: 64,
        n: 61,
        read_only: false,
        check: "memcheck",
        access: (Target::A, false, false),
        setup: Setup::Plain,
        address: |r| r.a + 256..r.a + 257,
        allocation: |r| format!("buffer of 256 bytes at {:#x}", r.a),
        what: "",
        at_use: true,
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
        setup: Setup::Plain,
        address: |r| r.a - 4..r.a - 3,
        allocation: |r| format!("buffer of 256 bytes at {:#x}", r.a),
        what: "",
        at_use: false,
    },
    Case {
        name: "slm_overflow",
        items: 64,
        local: 64,
        n: 1,
        read_only: false,
        check: "memcheck",
        access: (Target::Slm, true, false),
        setup: Setup::Plain,
        address: |_| 0..256,
        allocation: |_| "shared local memory of 256 bytes".into(),
        what: "",
        at_use: false,
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
        setup: Setup::Plain,
        address: |r| r.a..r.a + 256,
        allocation: |r| {
            format!(
                "buffer of 256 bytes at {:#x}..{:#x}, read-only",
                r.a,
                r.a + 256
            )
        },
        what: "",
        at_use: false,
    },
    Case {
        name: "sub_buffer_overflow",
        items: 64,
        local: 64,
        n: 1,
        read_only: false,
        check: "memcheck",
        access: (Target::A, false, false),
        setup: Setup::SubBuffer,
        // a[i + 1] of the last work-item: one int past the sub-buffer, inside its parent.
        address: |r| r.a + 256..r.a + 257,
        allocation: |r| {
            format!(
                "sub-buffer at origin 64 of a 384-byte buffer, of 256 bytes at {:#x}",
                r.a
            )
        },
        what: "",
        at_use: false,
    },
    Case {
        name: "private_overflow",
        items: 64,
        local: 64,
        // Just past the array: with IGC's layouts (each lane's array whole, or the lanes'
        // elements interleaved) some lane's read leaves the thread's slot for the next one's.
        n: 256,
        read_only: false,
        check: "memcheck",
        access: (Target::Other, false, false),
        setup: Setup::Plain,
        address: anywhere,
        allocation: |_| " slot of ".into(),
        what: "outside this thread's slot",
        at_use: false,
    },
    Case {
        name: "use_after_free",
        items: 64,
        local: 64,
        n: 0,
        read_only: false,
        check: "memcheck",
        access: (Target::Other, false, false),
        setup: Setup::Usm,
        address: |r| r.freed..r.freed + 256,
        allocation: |r| {
            format!(
                "device USM allocation of 256 bytes at {:#x}..{:#x}, freed",
                r.freed,
                r.freed + 256
            )
        },
        what: "use after free",
        at_use: false,
    },
    Case {
        name: "block_read",
        items: 16,
        local: 16,
        n: 0,
        read_only: false,
        check: "alignment",
        access: (Target::A, false, true),
        setup: Setup::Plain,
        address: |r| r.a + 2..r.a + 3,
        allocation: |r| format!("buffer of 64 bytes at {:#x}", r.a),
        what: "",
        at_use: false,
    },
    Case {
        name: "block_write",
        items: 16,
        local: 16,
        n: 0,
        read_only: false,
        check: "alignment",
        access: (Target::B, true, true),
        setup: Setup::Plain,
        address: |r| r.b + 4..r.b + 5,
        allocation: |r| format!("buffer of 64 bytes at {:#x}", r.b),
        what: "",
        at_use: false,
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
            let go = |k: &str, checks: &str| {
                run(
                    p,
                    &bin,
                    k,
                    checks,
                    c.items,
                    c.local,
                    c.n,
                    c.read_only,
                    c.setup,
                    None,
                )
            };
            // The twin: no finding of any check, and the same result as without the sanitizer.
            let (ok, plain) = (go(&twin, "all"), go(&twin, ""));
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
                    target(t) == c.access.0
                        && is_write(t) == c.access.1
                        && is_block(t) == c.access.2
                })
                .map(|(o, _)| o)
                .collect();
            assert!(
                !faulty.is_empty(),
                "{p} {bug}: no send of the faulty access"
            );
            assert!(
                !got.findings.is_empty(),
                "{p} {bug}: not caught ({:?})",
                got.result
            );
            for f in &got.findings {
                let what = format!("{p} {bug}: {f}");
                assert_eq!(f["check"], c.check, "{what}");
                assert_eq!(f["kernel"], bug.as_str(), "{what}");
                let offset = f["offset"].as_u64().unwrap() as u32;
                let names_faulty = |s: &str| {
                    (faulty.iter()).any(|o| s.contains(&format!("send at offset {o:#x},")))
                };
                let at_use = c.at_use && names_faulty(f["what"].as_str().unwrap());
                assert!(
                    faulty.contains(&offset) || at_use,
                    "{what}: not one of {faulty:x?}"
                );
                assert!(f["count"].as_u64().unwrap() >= 1, "{what}");
                let alloc = f["allocation"].as_str().unwrap_or("");
                assert!(alloc.contains(&(c.allocation)(&got)), "{what}");
                assert!(f["what"].as_str().unwrap().contains(c.what), "{what}");
                let want = (c.address)(&got);
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

/// The sub-buffer rule is the dispatch's: the same bytes read through the parent buffer are no
/// finding, and a sub-buffer read inside its range is none either.
#[test]
fn the_parent_reading_the_sub_buffers_next_bytes_is_no_finding() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let tools = Tools { ocloc, iga };
    for p in Platform::ALL {
        let bin = compile(&tools, p);
        // a[i + 17] of the parent: its bytes 68..324, the sub-buffer's 4..260.
        let k = "bug_sub_buffer_overflow";
        let r = run(p, &bin, k, "all", 64, 64, 17, false, Setup::Parent, None);
        assert_eq!(r.result, Ok(()), "{p}");
        assert!(r.findings.is_empty(), "{p}: {:#?}", r.findings);
        let r = run(p, &bin, k, "all", 64, 64, 0, false, Setup::SubBuffer, None);
        assert!(r.findings.is_empty(), "{p}: {:#?}", r.findings);
    }
}

/// A freed allocation's addresses are unbound: what a read gives is the page tables' (i915's
/// scratch page above; under xe without a scratch page, as umd creates its VM, a GPU page
/// fault). The fault stays, and the use after free is reported all the same.
#[test]
fn use_after_free_is_reported_also_when_the_walker_ends_in_a_page_fault() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let tools = Tools { ocloc, iga };
    for p in [Platform::Tgllp, Platform::Dg2] {
        let bin = compile(&tools, p);
        let k = "bug_use_after_free";
        let xe = Some(KmdChoice::Xe);
        let got = run(p, &bin, k, "memcheck", 64, 64, 0, false, Setup::Usm, xe);
        let plain = run(p, &bin, k, "", 64, 64, 0, false, Setup::Usm, xe);
        for r in [&got, &plain] {
            let e = r.result.as_ref().unwrap_err();
            assert!(e.contains("fault"), "{p}: {e}");
        }
        assert!(!got.findings.is_empty(), "{p}: not caught");
        for f in &got.findings {
            assert!(
                f["what"].as_str().unwrap().contains("use after free"),
                "{p}: {f}"
            );
            let at = f["address"].as_u64().unwrap();
            assert!((got.freed..got.freed + 256).contains(&at), "{p}: {f}");
            let alloc = f["allocation"].as_str().unwrap();
            assert!(alloc.ends_with(", freed"), "{p}: {f}");
        }
    }
}
