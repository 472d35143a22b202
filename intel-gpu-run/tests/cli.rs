//! The CLI against the oracles: disasm equals `iga64 -d`, asm equals the bytes ocloc produced,
//! decode-batch names commands by their genxml headers, and bad input fails in one line.

use std::process::{Command, Output};

use oracles::{ocloc, require, Oracle, Platform};

const KERNEL: &str = r#"
__attribute__((intel_reqd_sub_group_size(16)))
kernel void k(global uint* in, global uint* out) {
    uint v = intel_sub_group_block_read(in + get_group_id(0) * 16);
    out[get_global_id(0)] = v * 3 + get_sub_group_local_id();
}
"#;

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_intel-gpu-run"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr_line(o: &Output) -> String {
    let s = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(
        s.trim_end().lines().count(),
        1,
        "error is not one line: {s:?}"
    );
    assert!(s.starts_with("intel-gpu-run: "), "{s}");
    s
}

/// Every platform: the codec covers all four.
fn codec_platforms() -> Vec<Platform> {
    Platform::ALL.to_vec()
}

#[test]
fn disasm_and_asm_match_iga64_on_an_ocloc_kernel() {
    let ocloc_bin = require!(Oracle::Ocloc);
    let iga = require!(Oracle::Iga64);
    let dir = tempfile::tempdir().unwrap();
    for p in codec_platforms() {
        let bin = ocloc::compile(&ocloc_bin, p, KERNEL, "", ocloc::Format::PatchTokens).unwrap();
        let heap = &ocloc::kernel_heaps(&ocloc_bin, &bin).unwrap()[0].bytes;
        let krn = dir.path().join(format!("{p}.krn"));
        std::fs::write(&krn, heap).unwrap();

        let ours = cli(&["disasm", "-p", p.name(), krn.to_str().unwrap()]);
        assert!(
            ours.status.success(),
            "{}",
            String::from_utf8_lossy(&ours.stderr)
        );
        let theirs = oracles::iga64::disasm(&iga, p, heap, &[]).unwrap();
        assert_eq!(
            String::from_utf8(ours.stdout.clone()).unwrap(),
            theirs,
            "{p}"
        );

        // Assemble iga64's text with both the iga64 name and the ocloc name of the platform.
        let asm = dir.path().join(format!("{p}.asm"));
        std::fs::write(&asm, &theirs).unwrap();
        let out = dir.path().join(format!("{p}.out"));
        let a = cli(&[
            "asm",
            "-p",
            p.iga_name(),
            asm.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
        // ocloc pads its heap with zeros that iga64 drops: the reference is iga64's own assembly.
        let code = oracles::iga64::asm(&iga, p, &theirs, &[]).unwrap();
        assert!(heap.starts_with(&code) && heap[code.len()..].iter().all(|&b| b == 0));
        assert_eq!(
            std::fs::read(&out).unwrap(),
            code,
            "{p}: asm of iga64's text"
        );
    }
}

#[test]
fn decode_batch_names_commands_by_header() {
    // Headers from genxml: MI_NOOP 0x00000000, PIPE_CONTROL 0x7a000004 (6 dwords),
    // MI_STORE_DATA_IMM 0x10000002 (qword address, one dword of data), MI_BATCH_BUFFER_END 0x05000000.
    let dwords: [u32; 12] = [
        0,
        0x7a00_0004,
        0,
        0,
        0,
        0,
        0,
        0x1000_0002,
        0x1000,
        0,
        7,
        0x0500_0000,
    ];
    let bytes: Vec<u8> = dwords.iter().flat_map(|d| d.to_le_bytes()).collect();
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("batch.bin");
    std::fs::write(&f, bytes).unwrap();
    for p in Platform::ALL {
        let o = cli(&["decode-batch", "-p", p.name(), f.to_str().unwrap()]);
        assert!(
            o.status.success(),
            "{p}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let text = String::from_utf8(o.stdout).unwrap();
        let names: Vec<(&str, &str)> = text
            .lines()
            .map(|l| {
                let mut parts = l.split(": ");
                (parts.next().unwrap(), parts.nth(1).unwrap_or_default())
            })
            .collect();
        assert_eq!(
            names,
            [
                ("0x00000000", "MI_NOOP"),
                ("0x00000004", "PIPE_CONTROL"),
                ("0x0000001c", "MI_STORE_DATA_IMM"),
                ("0x0000002c", "MI_BATCH_BUFFER_END")
            ],
            "{p}: {text}"
        );
    }
}

#[test]
fn decode_batch_reports_unknown_and_truncated() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.bin");
    // A PIPE_CONTROL header promising 6 dwords with only 2 present.
    std::fs::write(
        &f,
        [0x7a00_0004u32, 0]
            .iter()
            .flat_map(|d| d.to_le_bytes())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let o = cli(&["decode-batch", "-p", "tgllp", f.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr_line(&o).contains("truncated"));
}

#[test]
fn bad_input_fails_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.krn");
    let o = cli(&["disasm", "-p", "tgllp", missing.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr_line(&o).contains("cannot read"));

    let asm = dir.path().join("bad.asm");
    std::fs::write(
        &asm,
        "mov (8|M0) r1.0<1>:ud r2.0<1;1,0>:ud\nfrobnicate (8|M0) r1 r2\n",
    )
    .unwrap();
    let o = cli(&["asm", "-p", "tgllp", asm.to_str().unwrap()]);
    assert!(!o.status.success());
    let e = stderr_line(&o);
    assert!(e.contains("bad.asm:2:"), "error has no line:column: {e}");

    // Unknown platform: clap's own error, non-zero exit.
    let o = cli(&["disasm", "-p", "gen8", missing.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown platform"));
}

/// batch-diff's bad input: a directory without a command log, a log of another platform's
/// commands, a dispatch record that is not JSON; each one line naming the file.
#[test]
fn batch_diff_rejects_what_is_not_a_capture() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let run = |a: &std::path::Path, b: &std::path::Path| {
        cli(&[
            "batch-diff",
            "-p",
            "tgllp",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ])
    };
    let o = run(&a, &b);
    assert!(!o.status.success());
    assert!(stderr_line(&o).contains("no command log"), "{o:?}");
    // MI_BATCH_BUFFER_END alone: a capture without walkers, the same on both sides.
    std::fs::write(a.join("0000-rcs0.bin"), 0x0500_0000u32.to_le_bytes()).unwrap();
    std::fs::write(b.join("0000-rcs0.bin"), 0x0500_0000u32.to_le_bytes()).unwrap();
    let o = run(&a, &b);
    assert!(o.status.success(), "{o:?}");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.ends_with("0 walker(s) in A, 0 in B; no differences\n"),
        "{out}"
    );
    // COMPUTE_WALKER's header is no Gen12LP command.
    std::fs::write(b.join("0000-rcs0.bin"), 0x7208_0025u32.to_le_bytes()).unwrap();
    let o = run(&a, &b);
    assert!(stderr_line(&o).contains("0000-rcs0@0x0"), "{o:?}");
    std::fs::write(b.join("0000-rcs0.bin"), 0x0500_0000u32.to_le_bytes()).unwrap();
    std::fs::write(b.join("0000-rcs0.dispatch.jsonl"), "{not json\n").unwrap();
    let o = run(&a, &b);
    assert!(
        stderr_line(&o).contains("0000-rcs0.dispatch.jsonl:1"),
        "{o:?}"
    );
}
