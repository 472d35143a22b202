//! The sanitizer's execution statistics (`stats`) against facts known without them: kernels of
//! `data/sanitizer_stats.cl` compiled by ocloc, their instructions as iga64 lists them, and
//! what the OpenCL C source says each work-item does. On skl, icllp, tgllp and dg2:
//!
//! - `copy` is straight-line code (checked in iga64's listing: no branch), so every instruction
//!   from the walker's start to the end-of-thread send runs exactly once per hardware thread,
//!   on every lane, and its sends to `a` and `b` (as iga64 shows their binding-table index)
//!   read and write 4 bytes per work-item;
//! - `guarded` acts on 5 of every 8 consecutive work-items, so the sends that read `a` and
//!   write `b` act on 5/8 of their lanes, moving 4 bytes per acting work-item each way.

use crate::sanitizer_support;

use platform::Platform;
use sanitizer_support::listing;
use serde_json::Value;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const SRC: &str = include_str!("data/sanitizer_stats.cl");
const ITEMS: u32 = 256;
const LOCAL: u32 = 64;

/// Runs kernel `name` over `ITEMS` work-items with the sanitizer's `checks`; returns the log's
/// lines, `b`'s bytes and the kernel's SIMD width.
fn run(p: Platform, bin: &[u8], name: &str, checks: &str) -> (Vec<Value>, Vec<u8>, u32) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.jsonl");
    let d = Device::open_sim_sanitized(p, None, checks, Some(log.clone())).unwrap();
    let kernel = Kernel::from_ocloc(bin, Some(name), Some(p)).unwrap();
    let bytes = u64::from(ITEMS) * 4;
    let a = d.create_buffer(bytes).unwrap();
    let b = d.create_buffer(bytes).unwrap();
    let init: Vec<u8> = (0..ITEMS).flat_map(|i| (i as i32).to_le_bytes()).collect();
    a.write(0, &init).unwrap();
    b.write(0, &vec![0; bytes as usize]).unwrap();
    let range = NdRange::new(&[ITEMS], Some(&[LOCAL]), kernel.simd, None).unwrap();
    let mut args = vec![ArgValue::Buffer(a), ArgValue::Buffer(b.clone())];
    if name == "guarded" {
        args.push(ArgValue::Value(7i32.to_le_bytes().to_vec()));
    }
    d.dispatch(&kernel, &range, &args).unwrap();
    let lines = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (lines, b.to_vec().unwrap(), kernel.simd)
}

/// The one `stats` object of a dispatch of `name`.
fn stats<'a>(lines: &'a [Value], name: &str) -> &'a Value {
    let s: Vec<&Value> = lines.iter().filter(|l| l["check"] == "stats").collect();
    assert_eq!(
        s.len(),
        1,
        "{name}: one stats object per dispatch: {lines:?}"
    );
    assert_eq!(s[0]["kernel"], name);
    s[0]
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// The offsets of the sends iga64 shows reaching argument `arg` (0: `a`, 1: `b`) through its
/// binding-table index: LSC `bti[n]`, HDC the descriptor's low byte.
fn sends_to(list: &[(u32, String)], arg: u8) -> Vec<u32> {
    list.iter()
        .filter(|(_, t)| t.contains("send"))
        // `a` is read, `b` written (a fence's descriptor can end in 00 too).
        .filter(|(_, t)| match arg {
            0 => t.contains("read") || t.contains("load"),
            _ => t.contains("write") || t.contains("store"),
        })
        .filter(|(_, t)| {
            t.contains(&format!("bti[{arg}]"))
                || t.split_whitespace()
                    .find(|w| w.len() == 10 && w.starts_with("0x"))
                    .is_some_and(|d| d[8..] == format!("{arg:02X}"))
        })
        .map(|(o, _)| *o)
        .collect()
}

/// Bytes read by the sends at `from` and written by those at `to`, as the statistics give them.
fn moved(s: &Value, from: &[u32], to: &[u32]) -> (u64, u64) {
    let (mut read, mut written) = (0, 0);
    for i in s["instructions"].as_array().unwrap() {
        let o = u(&i["offset"]) as u32;
        if from.contains(&o) {
            read += u(&i["read"]);
        }
        if to.contains(&o) {
            written += u(&i["written"]);
        }
    }
    (read, written)
}

const BRANCHES: [&str; 12] = [
    "jmpi", "if ", "else", "endif", "while", "break", "cont", "goto", "join", "call", "ret", "brc",
];

#[test]
fn counts_lanes_and_bytes_match_the_binary_and_the_source() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let iga = oracles::require!(oracles::Oracle::Iga64);
    for p in Platform::ALL {
        let bin = oracles::ocloc::compile(
            &ocloc,
            p,
            SRC,
            "-cl-std=CL1.2",
            oracles::ocloc::Format::PatchTokens,
        )
        .unwrap();

        // copy: straight-line, every instruction once per thread, on every lane.
        let (lines, b, simd) = run(p, &bin, "copy", "stats");
        // The floats are copied as bits: `a`'s ints arrive unchanged.
        let ints: Vec<u8> = (0..ITEMS).flat_map(|i| (i as i32).to_le_bytes()).collect();
        assert!(b == ints, "{p}: copy went wrong");
        let s = stats(&lines, "copy");
        let threads = u64::from(ITEMS / simd);
        let insts = s["instructions"].as_array().unwrap();
        let first = u(&insts[0]["offset"]) as u32;
        let list = listing(&ocloc, &iga, &bin, "copy", p);
        let eot = list
            .iter()
            .position(|(_, t)| t.contains("EOT"))
            .expect("an end-of-thread send");
        let straight: Vec<&(u32, String)> =
            list[..=eot].iter().filter(|(o, _)| *o >= first).collect();
        for (o, t) in &straight {
            assert!(
                !BRANCHES
                    .iter()
                    .any(|b| t.starts_with(b) || t.contains(&format!(") {b}"))),
                "{p}: copy is not straight-line at {o:#x}: {t}"
            );
        }
        let offsets: Vec<u32> = insts.iter().map(|i| u(&i["offset"]) as u32).collect();
        let expect: Vec<u32> = straight.iter().map(|(o, _)| *o).collect();
        assert_eq!(
            offsets, expect,
            "{p}: executed instructions are not iga64's from {first:#x} to the EOT"
        );
        for i in insts {
            assert_eq!(u(&i["executed"]), threads, "{p}: {i}");
            assert_eq!(u(&i["lanes"]), threads * u(&i["exec_size"]), "{p}: {i}");
        }
        assert_eq!(u(&s["executed"]), threads * straight.len() as u64, "{p}");
        let mix: u64 = s["mix"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| u(&m["count"]))
            .sum();
        assert_eq!(
            mix,
            u(&s["executed"]),
            "{p}: the mix counts every instruction"
        );
        let (from, to) = (sends_to(&list, 0), sends_to(&list, 1));
        assert!(
            !from.is_empty() && !to.is_empty(),
            "{p}: copy's sends to a and b"
        );
        let all = 4 * u64::from(ITEMS);
        assert_eq!(moved(s, &from, &to), (all, all), "{p}: {}", s["sends"]);
        // The bytes per send type add up the instructions' (and count nothing twice).
        let sends = s["sends"].as_array().unwrap();
        let total: u64 = sends.iter().map(|x| u(&x["read"]) + u(&x["written"])).sum();
        let per_inst: u64 = insts
            .iter()
            .filter(|i| i["read"].is_u64())
            .map(|i| u(&i["read"]) + u(&i["written"]) + u(&i["slm_read"]) + u(&i["slm_written"]))
            .sum();
        assert_eq!(total, per_inst, "{p}");

        // guarded: the sends of the guarded load and store act on 5 lanes of 8.
        let (lines, b, _) = run(p, &bin, "guarded", "memcheck,stats");
        for i in 0..ITEMS as usize {
            let got = i32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap());
            let want = if i & 7 < 5 { i as i32 + 7 } else { 0 };
            assert_eq!(got, want, "{p}: guarded b[{i}]");
        }
        assert!(
            lines.iter().all(|l| l["check"] == "stats"),
            "{p}: {lines:?}"
        );
        let s = stats(&lines, "guarded");
        let list = listing(&ocloc, &iga, &bin, "guarded", p);
        let (from, to) = (sends_to(&list, 0), sends_to(&list, 1));
        assert!(
            !from.is_empty() && !to.is_empty(),
            "{p}: guarded's sends to a and b"
        );
        let acting = u64::from(ITEMS) * 5 / 8;
        let mut seen = 0;
        for i in s["instructions"].as_array().unwrap() {
            let o = u(&i["offset"]) as u32;
            if from.contains(&o) || to.contains(&o) {
                seen += 1;
                // 5 of 8 lanes of every execution.
                assert_eq!(
                    8 * u(&i["lanes"]),
                    5 * u(&i["executed"]) * u(&i["exec_size"]),
                    "{p}: {i}"
                );
            }
        }
        assert!(seen >= 2, "{p}: the guarded sends did not run");
        assert_eq!(moved(s, &from, &to), (4 * acting, 4 * acting), "{p}");
    }
}
