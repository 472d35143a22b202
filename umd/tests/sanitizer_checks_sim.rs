//! The sanitizer's initcheck, racecheck and synccheck on seeded bugs: OpenCL C kernels with
//! one bug each and a correct twin (`data/sanitizer_bugs_sync.cl`), compiled by ocloc and run
//! on every simulated platform. Each bug, run with its check, must give findings of that check
//! only, naming the kernel, the work-group, sub-group and lanes, at instructions iga64 shows
//! making the faulty access (an SLM or buffer send, the barrier's gateway send; for initcheck
//! the *use* of a never-written value: its store to a buffer, an address, a branch), with the
//! address the source computes; each twin, run with every check, none. Correct kernels that
//! read never-written bytes and discard them give no finding. Every kernel must compute the
//! same with the sanitizer as without.

use crate::sanitizer_support;

use platform::Platform;
use sanitizer_support::{findings, listing};
use serde_json::Value;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::memory::Buffer;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const SRC: &str = include_str!("data/sanitizer_bugs_sync.cl");
const ITEMS: u32 = 128;
const LOCAL: u32 = 64;

struct Tools {
    ocloc: std::path::PathBuf,
    iga: std::path::PathBuf,
}

/// What one run left: the findings logged, `b`'s address and bytes.
struct Ran {
    result: Result<(), String>,
    findings: Vec<Value>,
    b: u64,
    b_bytes: Vec<u8>,
}

/// Runs the kernels `names` one after the other on a fresh device with the sanitizer's
/// `checks` ("": off), over 128 work-items in groups of 64, on `a` (host-written) and `b`
/// (host-written when `b_host`) of 128 ints and the scalar `n`.
fn run(p: Platform, bin: &[u8], names: &[&str], checks: &str, n: i32, b_host: bool) -> Ran {
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
    if b_host {
        b.write(0, &vec![0x11; bytes as usize]).unwrap();
    }
    let mut result = Ok(());
    for name in names {
        let kernel = Kernel::from_ocloc(bin, Some(name), Some(p)).unwrap();
        let range = NdRange::new(&[ITEMS], Some(&[LOCAL]), kernel.simd, None).unwrap();
        let args = [
            ArgValue::Buffer(a.clone()),
            ArgValue::Buffer(b.clone()),
            ArgValue::Value(n.to_le_bytes().to_vec()),
        ];
        result = d
            .dispatch(&kernel, &range, &args)
            .map(|_| ())
            .map_err(|e| e.to_string());
    }
    Ran {
        result,
        findings: findings(&log),
        b: b.gpu_address(),
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

/// Whether iga64's text of an instruction is a predicated branch (whose direction its flag
/// decides) or a predicated send.
fn decides_by_flag(t: &str) -> bool {
    let t = t.trim_start();
    let op = t
        .split_whitespace()
        .find(|w| !w.starts_with('('))
        .unwrap_or("");
    let op = op.split('.').next().unwrap_or("");
    t.starts_with('(')
        && matches!(
            op,
            "if" | "else"
                | "while"
                | "break"
                | "cont"
                | "goto"
                | "jmpi"
                | "brc"
                | "brd"
                | "send"
                | "sends"
                | "sendc"
                | "sendsc"
        )
}

/// What a send reaches, as iga64 prints it: SLM (LSC `.slm`, HDC binding-table index 0xFE),
/// argument 1 (`b`: LSC `bti[1]`, HDC descriptor low byte 1), the gateway's barrier, or
/// something else (stateless private memory, argument `a`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Slm,
    B,
    Barrier,
    Other,
    /// Any of them (the case's address says which memory).
    Any,
}

fn target(t: &str) -> Target {
    if t.contains("barrier") {
        return Target::Barrier;
    }
    if t.contains(".slm") {
        return Target::Slm;
    }
    if t.contains("bti[1]") {
        return Target::B;
    }
    let desc = t
        .split_whitespace()
        .find(|w| w.len() == 10 && w.starts_with("0x"));
    match desc.map(|d| &d[8..]) {
        Some("FE") => Target::Slm,
        Some("01") => Target::B,
        _ => Target::Other,
    }
}

fn is_write(t: &str) -> bool {
    t.contains("write") || t.contains("store") || t.contains("atomic")
}

/// Where a finding's address must lie.
#[derive(Debug, Clone, Copy)]
enum Want {
    /// SLM byte offsets.
    Slm(u64, u64),
    /// Byte offsets into `b`.
    B(u64, u64),
    /// No address (barriers).
    None,
    /// A branch (no address) or a send to `b` (an address in it).
    BranchOrB,
}

struct Case {
    name: &'static str,
    check: &'static str,
    n: i32,
    b_host: bool,
    /// The sends the finding may name: (target, reads, writes).
    access: (Target, bool, bool),
    want: Want,
}

const CASES: [Case; 10] = [
    // initcheck: the values read from t[32..64] (the slots work-items 32..63 never wrote) are
    // stored to `b` by work-items 0..31 of each group.
    Case {
        name: "slm_uninit",
        check: "initcheck",
        n: 0,
        b_host: true,
        access: (Target::B, false, true),
        want: Want::B(0, 512),
    },
    Case {
        name: "private_uninit",
        check: "initcheck",
        n: 128,
        b_host: true,
        access: (Target::B, false, true),
        want: Want::B(0, 512),
    },
    Case {
        name: "global_uninit",
        check: "initcheck",
        n: 0,
        b_host: false,
        access: (Target::B, false, true),
        want: Want::B(0, 512),
    },
    // initcheck: the index read from t[32..64] addresses the atomic on `b` (stateless on
    // some platforms).
    Case {
        name: "uninit_address",
        check: "initcheck",
        n: 0,
        b_host: true,
        access: (Target::Any, false, true),
        want: Want::B(0, 512),
    },
    // initcheck: the trip count read from t[32..64] decides the loop's branch (or, where the
    // compiler predicates instead, what is stored to `b`).
    Case {
        name: "uninit_branch",
        check: "initcheck",
        n: 0,
        b_host: true,
        access: (Target::B, false, true),
        want: Want::BranchOrB,
    },
    // initcheck: the struct member read from t[5] (never set) is added and stored to `b` by
    // the first work-item of each group.
    Case {
        name: "struct_member",
        check: "initcheck",
        n: 0,
        b_host: true,
        access: (Target::B, false, true),
        want: Want::B(0, 8),
    },
    Case {
        name: "slm_race",
        check: "racecheck",
        n: 0,
        b_host: true,
        access: (Target::Slm, true, true),
        want: Want::Slm(0, 256),
    },
    Case {
        name: "global_race",
        check: "racecheck",
        n: 0,
        b_host: true,
        access: (Target::B, true, true),
        want: Want::B(0, 4),
    },
    Case {
        name: "barrier_divergent",
        check: "synccheck",
        n: 36,
        b_host: true,
        access: (Target::Barrier, true, true),
        want: Want::None,
    },
    Case {
        name: "wg_divergent",
        check: "synccheck",
        n: 36,
        b_host: true,
        access: (Target::Barrier, true, true),
        want: Want::None,
    },
];

fn compile(tools: &Tools, p: Platform) -> Vec<u8> {
    oracles::ocloc::compile(
        &tools.ocloc,
        p,
        SRC,
        "-cl-std=CL2.0",
        oracles::ocloc::Format::PatchTokens,
    )
    .unwrap()
}

/// The oracles, or the test returns (as `oracles::require!` decides).
macro_rules! tools {
    () => {
        Tools {
            ocloc: oracles::require!(oracles::Oracle::Ocloc),
            iga: oracles::require!(oracles::Oracle::Iga64),
        }
    };
}

#[test]
fn seeded_bugs_are_caught_and_twins_are_clean_on_every_platform() {
    let tools = tools!();
    for p in Platform::ALL {
        let bin = compile(&tools, p);
        for c in &CASES {
            let (bug, twin) = (format!("bug_{}", c.name), format!("ok_{}", c.name));
            let go = |k: &str, checks: &str| run(p, &bin, &[k], checks, c.n, c.b_host);
            // The twin: no finding of any check, the same result as without the sanitizer.
            let (ok, plain) = (go(&twin, "all"), go(&twin, ""));
            assert!(ok.findings.is_empty(), "{p} {twin}: {:#?}", ok.findings);
            assert_eq!(ok.result, Ok(()), "{p} {twin}");
            assert_eq!(
                ok.b_bytes, plain.b_bytes,
                "{p} {twin}: the sanitizer changed b"
            );

            let (got, plain) = (go(&bug, c.check), go(&bug, ""));
            assert_eq!(got.result, plain.result, "{p} {bug}");
            // A global race between work-groups has no one outcome: the groups run on several
            // host threads, whose interleaving the sanitizer does not fix.
            if c.name != "global_race" {
                assert_eq!(
                    got.b_bytes, plain.b_bytes,
                    "{p} {bug}: the sanitizer changed b"
                );
            }
            let mut faulty: Vec<u32> = sends(&tools, &bin, &bug, p)
                .into_iter()
                .filter(|(_, t)| {
                    (c.access.0 == Target::Any || target(t) == c.access.0)
                        && if is_write(t) { c.access.2 } else { c.access.1 }
                })
                .map(|(o, _)| o)
                .collect();
            let listed = listing(&tools.ocloc, &tools.iga, &bin, &bug, p);
            if matches!(c.want, Want::BranchOrB) {
                faulty.extend(
                    listed
                        .iter()
                        .filter(|(_, t)| decides_by_flag(t))
                        .map(|(o, _)| o),
                );
            }
            assert!(
                !faulty.is_empty(),
                "{p} {bug}: no send of the faulty access"
            );
            // The sends to the same memory (racecheck's earlier access is one of them).
            let same_memory: Vec<u32> = sends(&tools, &bin, &bug, p)
                .into_iter()
                .filter(|(_, t)| target(t) == c.access.0)
                .map(|(o, _)| o)
                .collect();
            assert!(!got.findings.is_empty(), "{p} {bug}: not caught");
            for f in &got.findings {
                let what = format!("{p} {bug}: {f}");
                assert_eq!(f["check"], c.check, "{what}");
                assert_eq!(f["kernel"], bug.as_str(), "{what}");
                let offset = f["offset"].as_u64().unwrap() as u32;
                assert!(faulty.contains(&offset), "{what}: not one of {faulty:x?}");
                let text = &listed.iter().find(|(o, _)| *o == offset).unwrap().1;
                let branch = matches!(c.want, Want::BranchOrB) && !text.contains("send");
                if !branch {
                    assert!(
                        f["disassembly"].as_str().unwrap().contains("send"),
                        "{what}"
                    );
                }
                assert!(f["count"].as_u64().unwrap() >= 1, "{what}");
                if c.check == "racecheck" {
                    // The earlier access the sentence names, at its offset in the binary too.
                    let sentence = f["what"].as_str().unwrap();
                    let earlier = sentence
                        .split(" at offset 0x")
                        .nth(1)
                        .and_then(|s| s.split(|ch: char| !ch.is_ascii_hexdigit()).next())
                        .and_then(|h| u32::from_str_radix(h, 16).ok());
                    assert!(
                        earlier.is_some_and(|o| same_memory.contains(&o)),
                        "{what}: the earlier access is not one of {same_memory:x?}"
                    );
                }
                // Named: one of the two work-groups, a sub-group of it, some lanes.
                assert!(f["group"][0].as_u64().unwrap() < 2, "{what}");
                assert!(f["sub_group"].as_u64().unwrap() < 8, "{what}");
                assert_ne!(f["lanes"].as_u64().unwrap(), 0, "{what}");
                let at = f["address"].as_u64();
                let alloc = f["allocation"].as_str().unwrap_or("");
                match c.want {
                    Want::Slm(lo, hi) => {
                        assert!(at.is_some_and(|a| (lo..hi).contains(&a)), "{what}");
                        assert!(alloc.contains("shared local memory"), "{what}");
                    }
                    Want::B(lo, hi) => {
                        let (lo, hi) = (got.b + lo, got.b + hi);
                        assert!(at.is_some_and(|a| (lo..hi).contains(&a)), "{what}");
                        assert!(alloc.contains(&format!("buffer of 512 bytes at {:#x}", got.b)));
                    }
                    Want::None => assert!(at.is_none(), "{what}"),
                    Want::BranchOrB if branch => assert!(at.is_none(), "{what}"),
                    Want::BranchOrB => {
                        let (lo, hi) = (got.b, got.b + 512);
                        assert!(at.is_none_or(|a| (lo..hi).contains(&a)), "{what}");
                    }
                }
            }
        }
    }
}

#[test]
fn bytes_a_kernel_or_the_host_wrote_are_initialized_for_the_next_kernel() {
    let tools = tools!();
    for p in [Platform::Skl, Platform::Dg2] {
        let bin = compile(&tools, p);
        // `b` never written by the host: a kernel writes it, the next reads it.
        let r = run(
            p,
            &bin,
            &["ok_global_uninit", "bug_global_uninit"],
            "initcheck",
            0,
            false,
        );
        assert_eq!(r.result, Ok(()), "{p}");
        assert!(r.findings.is_empty(), "{p}: {:#?}", r.findings);
        // Written by the host: reading it is fine.
        let r = run(p, &bin, &["bug_global_uninit"], "initcheck", 0, true);
        assert!(r.findings.is_empty(), "{p}: {:#?}", r.findings);
    }
}

#[test]
fn kernels_that_read_unwritten_bytes_and_discard_them_are_clean() {
    let tools = tools!();
    for p in Platform::ALL {
        let bin = compile(&tools, p);
        for name in [
            "ok_slm_read_unused",
            "ok_slm_overwritten",
            "ok_private_read_unused",
            "ok_global_read_unused",
        ] {
            // n = 36: t[36..64] is never written; `b` is never written by the host.
            let n = if name.contains("private") { 128 } else { 36 };
            let got = run(p, &bin, &[name], "all", n, false);
            let plain = run(p, &bin, &[name], "", n, false);
            assert_eq!(got.result, Ok(()), "{p} {name}");
            assert!(got.findings.is_empty(), "{p} {name}: {:#?}", got.findings);
            assert_eq!(got.b_bytes, plain.b_bytes, "{p} {name}");
        }
    }
}

/// IGC builds 64-bit atomics on local memory from a lock on Gen9-Gen12LP: its plain loads and
/// stores of the value, by different sub-groups, are ordered by the lock's atomics, so a
/// correct kernel gives no race (nor any other finding) and computes the same sum.
#[test]
fn a_lock_built_from_atomics_orders_the_accesses_it_guards() {
    let tools = tools!();
    for p in Platform::ALL {
        let bin = compile(&tools, p);
        let name = "ok_local_atomic64";
        let listed = listing(&tools.ocloc, &tools.iga, &bin, name, p);
        let locked = listed.iter().any(|(_, t)| t.contains("compare and swap"));
        assert_eq!(locked, p != Platform::Dg2, "{p}: {listed:#?}");
        let got = run(p, &bin, &[name], "all", 5, true);
        let plain = run(p, &bin, &[name], "", 5, true);
        assert_eq!(got.result, Ok(()), "{p}");
        assert!(got.findings.is_empty(), "{p}: {:#?}", got.findings);
        assert_eq!(got.b_bytes, plain.b_bytes, "{p}");
        // Each group's sum: n plus its 64 values of a (3i + 1).
        let first = i32::from_le_bytes(plain.b_bytes[..4].try_into().unwrap());
        assert_eq!(first, 5 + (0..64).map(|i| 3 * i + 1).sum::<i32>(), "{p}");
    }
}

/// A lock shared by work-groups (device-scope compare-exchange with acquire order, store with
/// release order: IGC's fences around the atomics) orders the plain accesses it guards across
/// the groups: no finding of any check, the same sum as without the sanitizer. The same
/// increment with no lock, under the lock built from relaxed atomics (no fence), or from
/// relaxed atomics and fences of local memory only, is a race between the two groups at the
/// counter, `b[1]`.
#[test]
fn a_lock_shared_by_work_groups_orders_the_accesses_it_guards() {
    let tools = tools!();
    // b[0] (the lock) is free while it holds what the host wrote: 0x11 bytes.
    let free = 0x1111_1111;
    for p in Platform::ALL {
        let bin = compile(&tools, p);
        let name = "ok_cross_group_lock";
        let got = run(p, &bin, &[name], "all", free, true);
        let plain = run(p, &bin, &[name], "", free, true);
        assert_eq!(got.result, Ok(()), "{p}");
        assert!(got.findings.is_empty(), "{p}: {:#?}", got.findings);
        assert_eq!(got.b_bytes, plain.b_bytes, "{p}");
        let word = |i: usize| i32::from_le_bytes(got.b_bytes[4 * i..4 * i + 4].try_into().unwrap());
        // Free again; the counter: its first value plus a[0] and a[64] (3i + 1).
        assert_eq!(word(0), free, "{p}");
        assert_eq!(word(1), free + 1 + (3 * 64 + 1), "{p}");

        for bug in [
            "bug_cross_group_no_lock",
            "bug_cross_group_relaxed_lock",
            "bug_cross_group_local_fence_lock",
        ] {
            let got = run(p, &bin, &[bug], "racecheck", free, true);
            assert_eq!(got.result, Ok(()), "{p} {bug}");
            assert!(!got.findings.is_empty(), "{p} {bug}: not caught");
            for f in &got.findings {
                let what = format!("{p} {bug}: {f}");
                assert_eq!(f["check"], "racecheck", "{what}");
                assert_eq!(f["kernel"], bug, "{what}");
                assert_eq!(f["address"].as_u64(), Some(got.b + 4), "{what}");
                let sentence = f["what"].as_str().unwrap();
                assert!(sentence.contains("of work-group number"), "{what}");
            }
        }
    }
}
