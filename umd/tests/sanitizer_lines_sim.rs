//! Sanitizer findings name the source line in `-g` builds: seeded bugs of
//! `data/sanitizer_bugs.cl` compiled by ocloc with `-g` (patch tokens, whose container carries
//! the DWARF line tables) must be reported at the line the source marks `// faulty access`;
//! the same kernels without `-g`, or with their debug data damaged, still load and run and
//! their findings have no line.

use crate::sanitizer_support;

use std::path::Path;

use platform::Platform;
use serde_json::Value;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

use sanitizer_support::findings as findings_in;

const SRC: &str = include_str!("data/sanitizer_bugs.cl");
const MARKER: &str = "// faulty access";

/// The 1-based line of `kernel`'s body that the source marks as its faulty access.
fn marked_line(kernel: &str) -> u64 {
    let head = format!("void {kernel}(");
    let start = SRC.lines().position(|l| l.contains(&head)).expect(kernel);
    let at = SRC
        .lines()
        .enumerate()
        .skip(start)
        .find(|(_, l)| l.contains(MARKER))
        .expect(MARKER)
        .0;
    at as u64 + 1
}

/// A seeded memcheck bug: its kernel, the scalar `n` and whether `a` is read-only.
struct Bug {
    kernel: &'static str,
    n: i32,
    read_only: bool,
}

const BUGS: [Bug; 3] = [
    Bug {
        kernel: "bug_global_overflow",
        n: 0,
        read_only: false,
    },
    Bug {
        kernel: "bug_slm_overflow",
        n: 1,
        read_only: false,
    },
    Bug {
        kernel: "bug_read_only_write",
        n: 0,
        read_only: true,
    },
];

/// Runs `bug` of `bin` with memcheck over 64 work-items in one group; the findings logged.
fn findings(p: Platform, bin: &[u8], bug: &Bug) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("findings.jsonl");
    let d = Device::open_sim_sanitized(p, None, "memcheck", Some(log.clone())).unwrap();
    let kernel = Kernel::from_ocloc(bin, Some(bug.kernel), Some(p)).unwrap();
    let (a, b) = (d.create_buffer(256).unwrap(), d.create_buffer(256).unwrap());
    a.write(0, &[1; 256]).unwrap();
    if bug.read_only {
        a.declare_read_only();
    }
    let range = NdRange::new(&[64], Some(&[64]), kernel.simd, None).unwrap();
    let args = [
        ArgValue::Buffer(a),
        ArgValue::Buffer(b),
        ArgValue::Value(bug.n.to_le_bytes().to_vec()),
    ];
    let (e, _) = d
        .default_queue()
        .dispatch_resident(&kernel, &range, &args, &[], &[])
        .unwrap();
    e.wait(None).unwrap();
    findings_in(&log)
}

fn compile(ocloc: &Path, p: Platform, options: &str) -> Vec<u8> {
    oracles::ocloc::compile(ocloc, p, SRC, options, oracles::ocloc::Format::PatchTokens).unwrap()
}

#[test]
fn g_builds_name_the_marked_line_on_every_platform() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    for p in Platform::ALL {
        let bin = compile(&ocloc, p, "-cl-std=CL1.2 -g");
        for bug in &BUGS {
            let want = marked_line(bug.kernel);
            let found = findings(p, &bin, bug);
            assert!(!found.is_empty(), "{p} {}: no finding", bug.kernel);
            for f in &found {
                assert_eq!(f["check"], "memcheck", "{p} {}: {f}", bug.kernel);
                assert_eq!(f["line"], want, "{p} {}: {f}", bug.kernel);
                // ocloc names the file it compiled (`oracles::ocloc::compile`'s kernel.cl).
                let file = f["file"].as_str().unwrap_or_default();
                assert!(file.ends_with("kernel.cl"), "{p} {}: {f}", bug.kernel);
            }
        }
    }
}

#[test]
fn without_g_findings_have_a_null_line() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let p = Platform::Tgllp;
    let bin = compile(&ocloc, p, "-cl-std=CL1.2");
    let found = findings(p, &bin, &BUGS[0]);
    assert!(!found.is_empty());
    for f in &found {
        assert!(f["line"].is_null() && f["file"].is_null(), "{f}");
    }
}

/// The file offset and size fields of the section of type `sh_type` in ELF64 `file`: where
/// its bytes are and where its section header's `sh_size` is.
fn section(file: &[u8], sh_type: u32) -> (usize, usize, usize) {
    let u16_at = |o: usize| u16::from_le_bytes(file[o..o + 2].try_into().unwrap()) as usize;
    let u64_at = |o: usize| u64::from_le_bytes(file[o..o + 8].try_into().unwrap()) as usize;
    let (shoff, shentsize, shnum) = (u64_at(0x28), u16_at(0x3a), u16_at(0x3c));
    (0..shnum)
        .map(|i| shoff + i * shentsize)
        .find(|h| u32::from_le_bytes(file[h + 4..h + 8].try_into().unwrap()) == sh_type)
        .map(|h| (u64_at(h + 0x18), u64_at(h + 0x20), h + 0x20))
        .expect("the debug section")
}

#[test]
fn damaged_debug_data_loads_runs_and_names_no_line() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let p = Platform::Tgllp;
    let good = compile(&ocloc, p, "-cl-std=CL1.2 -g");
    let (at, size, size_field) = section(&good, umd::program::patchtokens::SHT_OPENCL_DEV_DEBUG);
    // The debug data must be there for the damage to mean anything.
    let lines = |bin: &[u8]| {
        let prog = umd::program::parse(bin).unwrap();
        prog.kernel(BUGS[0].kernel).unwrap().source_lines.clone()
    };
    assert!(!lines(&good).is_empty());
    // Garbage after the debug data's header; the section cut in the middle of a kernel's ELF;
    // every kernel ELF's contents overwritten (its file header and section table kept).
    let mut garbage = good.clone();
    garbage[at + 28..at + size].fill(0xa5);
    let mut truncated = good.clone();
    truncated[size_field..size_field + 8].copy_from_slice(&(size as u64 / 3).to_le_bytes());
    let mut dwarf = good.clone();
    let blob = &mut dwarf[at..at + size];
    let elfs: Vec<usize> = (0..blob.len() - 4)
        .filter(|&i| &blob[i..i + 4] == b"\x7fELF")
        .collect();
    for e in elfs {
        // Past the file header (64 bytes): the kernel's ISA copy, its DWARF, relocations
        // and symbols (ocloc puts the section table after them).
        let end = (e + 1000).min(blob.len());
        blob[e + 64..end].fill(0x5a);
    }
    for bin in [garbage, truncated, dwarf] {
        assert!(lines(&bin).is_empty());
        let found = findings(p, &bin, &BUGS[0]);
        assert!(!found.is_empty());
        for f in &found {
            assert!(f["line"].is_null() && f["file"].is_null(), "{f}");
        }
    }
}
