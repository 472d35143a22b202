//! `intel-gpu-run run` and `devices` on the simulator: the contract's output, the shipped
//! example, and one specific one-line error per kind of bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

use oracles::{ocloc, require, Oracle, Platform};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_intel-gpu-run"))
        .args(args)
        .output()
        .unwrap()
}

fn example(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
        .display()
        .to_string()
}

/// A failed run: non-zero exit and exactly one line on stderr, which is returned.
fn fails(o: &Output) -> String {
    assert!(
        !o.status.success(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let s = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(s.trim_end().lines().count(), 1, "not one line: {s:?}");
    assert!(s.starts_with("intel-gpu-run: "), "{s}");
    s
}

#[test]
fn devices_lists_every_simulated_platform_with_its_kmds() {
    let o = cli(&["devices"]);
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    for (name, kmds) in [
        ("sim:skl", "i915"),
        ("sim:icllp", "i915"),
        ("sim:tgllp", "i915,xe"),
        ("sim:dg2", "i915,xe"),
    ] {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} missing: {out}"));
        assert_eq!(line.split_whitespace().nth(2), Some(kmds), "{line}");
    }
}

/// The shipped binary is what Debian's ocloc makes of the shipped source.
#[test]
fn shipped_example_is_ocloc_output_of_its_source() {
    let ocloc = require!(Oracle::Ocloc);
    let src = std::fs::read_to_string(example("fill.cl")).unwrap();
    let fresh = ocloc::compile(
        &ocloc,
        Platform::Tgllp,
        &src,
        "",
        ocloc::Format::PatchTokens,
    )
    .unwrap();
    let shipped = std::fs::read(example("fill.tgllp.bin")).unwrap();
    let k = |b: &[u8]| {
        let p = umd::program::parse(b).unwrap();
        let k = p.kernel("fill").unwrap().clone();
        (p.platform, k.isa, k.simd_size, k.args)
    };
    assert_eq!(k(&shipped), k(&fresh));
}

/// The README's main command. Its output is checked against the kernel's definition
/// (`out[i] = i * scale`) once the simulator executes walkers.
#[test]
fn main_command_runs_the_example_on_the_default_device() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.bin");
    let batch = dir.path().join("batch.bin");
    let o = cli(&[
        "run",
        &example("fill.tgllp.bin"),
        "--global",
        "64",
        "--arg",
        "buf:256",
        "--arg",
        "u32:3",
        "--out",
        &format!("0={}", out.display()),
        "--dump-batch",
        batch.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.starts_with("ran fill (ocloc patch-token binary, SIMD16) on "),
        "{text}"
    );
    assert!(
        text.contains("[0x0, 0x3, 0x6, 0x9, 0xc, 0xf, 0x12, 0x15] ..."),
        "{text}"
    );
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes.len(), 256);
    for (i, w) in bytes.chunks(4).enumerate() {
        assert_eq!(u32::from_le_bytes(w.try_into().unwrap()), 3 * i as u32);
    }
    // The dumped batch is the primary batch: it decodes as a complete compute batch.
    let addr = text
        .lines()
        .find_map(|l| l.strip_prefix("batch at "))
        .and_then(|l| l.split(':').next())
        .unwrap();
    assert!(addr.starts_with("0x"), "{text}");
    let d = cli(&["decode-batch", "-p", "tgllp", batch.to_str().unwrap()]);
    assert!(d.status.success(), "{}", String::from_utf8_lossy(&d.stderr));
    let listing = String::from_utf8_lossy(&d.stdout);
    assert!(listing.contains("GPGPU_WALKER") && listing.contains("MI_BATCH_BUFFER_END"));
}

/// `--json` carries the same facts for machines.
#[test]
fn json_output_describes_the_run() {
    for (dev, kmd, walker_platform) in
        [("sim:tgllp", "xe", "tgllp"), ("sim:tgllp", "i915", "tgllp")]
    {
        let o = cli(&[
            "run",
            &example("fill.tgllp.bin"),
            "--device",
            dev,
            "--kmd",
            kmd,
            "--global",
            "100",
            "--local",
            "16",
            "--arg",
            "buf:400",
            "--arg",
            "u32:5",
            "--json",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["kernel"], "fill");
        assert_eq!(v["device"], dev);
        assert_eq!(v["kmd"], kmd);
        assert_eq!(v["platform"], walker_platform);
        assert_eq!(v["simd"], 16);
        assert_eq!(v["global"], serde_json::json!([100]));
        assert_eq!(v["local"], serde_json::json!([16]));
        assert_eq!(v["groups"], serde_json::json!([7]));
        // 6 full groups and a partial one of 4 work-items: two walkers.
        assert_eq!(v["walkers"], 2);
        assert_eq!(
            v["outputs"][0]["preview_u32"],
            serde_json::json!([0, 5, 10, 15, 20, 25, 30, 35])
        );
    }
}

#[test]
fn unknown_kernel_is_a_one_line_error() {
    let e = fails(&cli(&[
        "run",
        &example("fill.tgllp.bin"),
        "--kernel",
        "nope",
        "--global",
        "8",
        "--arg",
        "buf:32",
        "--arg",
        "u32:1",
    ]));
    assert!(
        e.contains("no kernel `nope`") && e.contains("it has: fill"),
        "{e}"
    );
}

#[test]
fn wrong_argument_count_is_a_one_line_error() {
    let e = fails(&cli(&[
        "run",
        &example("fill.tgllp.bin"),
        "--global",
        "8",
        "--arg",
        "buf:32",
    ]));
    assert!(e.contains("kernel fill takes 2 arguments"), "{e}");
    assert!(e.contains("1 given"), "{e}");
}

#[test]
fn wrong_argument_kind_is_a_one_line_error() {
    let run = |a0: &str, a1: &str| {
        cli(&[
            "run",
            &example("fill.tgllp.bin"),
            "--global",
            "8",
            "--arg",
            a0,
            "--arg",
            a1,
        ])
    };
    let e = fails(&run("u32:1", "u32:1"));
    assert!(
        e.contains("argument 0 of kernel fill is a buffer, given a value of 4 bytes"),
        "{e}"
    );
    let e = fails(&run("buf:32", "u64:1"));
    assert!(
        e.contains("argument 1 of kernel fill is a value of 4 bytes, given a value of 8 bytes"),
        "{e}"
    );
    let e = fails(&run("buf:32", "img2d:4x4:r8ui"));
    assert!(
        e.contains("argument 1") && e.contains("given an image"),
        "{e}"
    );
    // A spec that is not one of the contract's kinds.
    let o = run("buf:32", "u33:1");
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown kind `u33`"));
}

#[test]
fn unreadable_file_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.bin");
    let e = fails(&cli(&["run", missing.to_str().unwrap(), "--global", "8"]));
    assert!(
        e.contains("cannot read") && e.contains("missing.bin"),
        "{e}"
    );
    let e = fails(&cli(&[
        "run",
        &example("fill.tgllp.bin"),
        "--global",
        "8",
        "--arg",
        &format!("buf:@{}", missing.display()),
        "--arg",
        "u32:1",
    ]));
    assert!(e.contains("cannot read"), "{e}");
}

#[test]
fn malformed_binary_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.bin");
    std::fs::write(&junk, b"this is not a kernel").unwrap();
    let e = fails(&cli(&["run", junk.to_str().unwrap(), "--global", "8"]));
    assert!(e.contains("malformed binary"), "{e}");
    // A real binary cut short.
    let good = std::fs::read(example("fill.tgllp.bin")).unwrap();
    let cut = dir.path().join("cut.bin");
    std::fs::write(&cut, &good[..good.len() / 2]).unwrap();
    let e = fails(&cli(&["run", cut.to_str().unwrap(), "--global", "8"]));
    assert!(e.contains("malformed binary"), "{e}");
}

#[test]
fn raw_kernels_need_platform_and_simd() {
    let dir = tempfile::tempdir().unwrap();
    let krn = dir.path().join("k.krn");
    std::fs::write(&krn, [0u8; 32]).unwrap();
    let e = fails(&cli(&["run", krn.to_str().unwrap(), "--global", "8"]));
    assert!(e.contains("needs --platform"), "{e}");
    let e = fails(&cli(&[
        "run",
        krn.to_str().unwrap(),
        "--platform",
        "tgllp",
        "--global",
        "8",
    ]));
    assert!(e.contains("needs --simd"), "{e}");
    let e = fails(&cli(&[
        "run",
        &example("fill.tgllp.bin"),
        "--device",
        "sim:gen7",
        "--global",
        "8",
    ]));
    assert!(e.contains("unknown device `sim:gen7`"), "{e}");
    // A kernel for one platform on a device of another.
    let e = fails(&cli(&[
        "run",
        &example("fill.tgllp.bin"),
        "--device",
        "sim:skl",
        "--global",
        "8",
        "--arg",
        "buf:32",
        "--arg",
        "u32:1",
    ]));
    assert!(
        e.contains("kernel fill is for tgllp, the device is skl"),
        "{e}"
    );
    // xe is not offered on Gen9.
    let e = fails(&cli(&[
        "run",
        &example("fill.tgllp.bin"),
        "--device",
        "sim:skl",
        "--kmd",
        "xe",
        "--global",
        "8",
        "--arg",
        "buf:32",
        "--arg",
        "u32:1",
    ]));
    assert!(e.contains("xe"), "{e}");
}

#[test]
fn gpu_fault_is_a_one_line_error_naming_the_address_and_the_instruction() {
    let ocloc = require!(Oracle::Ocloc);
    let iga = require!(Oracle::Iga64);
    let p = Platform::Tgllp;
    // A stateless store 256 MiB past its 64-byte buffer. Through xe, whose VM here has no
    // scratch page: under i915 the store would land in the PPGTT's scratch page, no error.
    let src = "__attribute__((intel_reqd_sub_group_size(16)))
        kernel void oob(global uint *o) { o[get_global_id(0) + (1u << 26)] = 1; }";
    let bin = ocloc::compile(
        &ocloc,
        p,
        src,
        "-cl-intel-greater-than-4GB-buffer-required",
        ocloc::Format::PatchTokens,
    )
    .unwrap();
    let heap = &ocloc::kernel_heaps(&ocloc, &bin).unwrap()[0].bytes;
    let stores =
        oracles::iga64::offsets_of(&iga, p, heap, |t| t.contains("send") && t.contains("write"))
            .unwrap();
    assert_eq!(stores.len(), 1);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("oob.bin");
    std::fs::write(&file, &bin).unwrap();
    let e = fails(&cli(&[
        "run",
        file.to_str().unwrap(),
        "--device",
        "sim:tgllp",
        "--kmd",
        "xe",
        "--global",
        "16",
        "--arg",
        "buf:64",
    ]));
    assert!(
        e.contains("GPU page fault at 0x") && e.contains("(write)"),
        "{e}"
    );
    assert!(
        e.contains(&format!("by instruction at kernel offset {:#x}", stores[0])),
        "{e}"
    );
}

#[test]
fn gpu_hang_is_a_one_line_error_naming_the_instruction() {
    let iga = require!(Oracle::Iga64);
    let p = Platform::Tgllp;
    // Assembled by iga64 and run as raw ISA: the loop's offset is iga64's.
    let text = "(W) mov (8|M0) r10.0<1>:ud 0x0:ud\n\
                (W) mov (8|M0) r11.0<1>:ud 0x1:ud\n\
                L_loop:\n\
                (W) jmpi (1|M0) L_loop\n";
    let krn = oracles::iga64::asm(&iga, p, text, &[]).unwrap();
    let jmpi = oracles::iga64::offsets_of(&iga, p, &krn, |t| t.contains("jmpi")).unwrap();
    assert_eq!(jmpi.len(), 1);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("loop.krn");
    std::fs::write(&file, &krn).unwrap();
    let e = fails(&cli(&[
        "run",
        file.to_str().unwrap(),
        "--platform",
        "tgllp",
        "--simd",
        "8",
        "--device",
        "sim:tgllp",
        "--global",
        "8",
    ]));
    assert!(e.contains("GPU hang") && e.contains("heartbeat"), "{e}");
    assert!(
        e.contains(&format!("at kernel offset {:#x}", jmpi[0])),
        "{e}"
    );
}

/// `api` (the OpenCL ICD's check of calls) is accepted, alone and in `all`, and said to apply
/// to OpenCL programs; the kernel runs as without it.
#[test]
fn sanitize_accepts_api_and_says_it_applies_to_opencl_programs() {
    for checks in ["api", "all"] {
        let o = cli(&[
            "run",
            &example("fill.tgllp.bin"),
            "--device",
            "sim:tgllp",
            "--global",
            "64",
            "--arg",
            "buf:256",
            "--arg",
            "u32:3",
            "--sanitize",
            checks,
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{checks}: {err}");
        assert!(
            err.contains("the `api` check applies to OpenCL programs"),
            "{checks}: {err}"
        );
        assert!(!err.contains("sanitizer memcheck"), "{checks}: {err}");
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("[0x0, 0x3, 0x6, 0x9"), "{checks}: {text}");
    }
}

/// `--sanitize stats`: the fill kernel (straight-line, SIMD16) over 64 work-items runs 4
/// hardware threads, so every instruction iga64 lists from the walker's start to the
/// end-of-thread send executes 4 times on all 16 lanes, and its store writes 64 × 4 bytes and
/// reads none. The statistics go to stderr and, as one JSON line, to the log.
#[test]
fn sanitize_stats_counts_what_the_binary_executes() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.jsonl");
    let o = Command::new(env!("CARGO_BIN_EXE_intel-gpu-run"))
        .args([
            "run",
            &example("fill.tgllp.bin"),
            "--device",
            "sim:tgllp",
            "--global",
            "64",
            "--arg",
            "buf:256",
            "--arg",
            "u32:3",
            "--sanitize",
            "stats",
        ])
        .env("INTEL_GPU_SANITIZE_LOG", &log)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("sanitizer stats: kernel fill"), "{err}");
    assert!(err.contains("instruction mix"), "{err}");
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{text}");
    let s = &lines[0];
    assert_eq!(s["check"], "stats");
    assert_eq!(s["kernel"], "fill");

    let bin = std::fs::read(example("fill.tgllp.bin")).unwrap();
    let heaps = oracles::ocloc::kernel_heaps(&ocloc, &bin).unwrap();
    let heap = heaps.iter().find(|h| h.name == "fill").unwrap();
    let list = oracles::iga64::listing(&iga, Platform::Tgllp, &heap.bytes).unwrap();
    let insts = s["instructions"].as_array().unwrap();
    let first = insts[0]["offset"].as_u64().unwrap() as u32;
    let eot = list.iter().position(|(_, t)| t.contains("EOT")).unwrap();
    let want: Vec<u64> = list[..=eot]
        .iter()
        .filter(|(o, _)| *o >= first)
        .map(|(o, _)| u64::from(*o))
        .collect();
    let got: Vec<u64> = insts
        .iter()
        .map(|i| i["offset"].as_u64().unwrap())
        .collect();
    assert_eq!(got, want, "{text}");
    for i in insts {
        assert_eq!(i["executed"], 4, "{i}");
        let n = i["exec_size"].as_u64().unwrap();
        assert_eq!(i["lanes"].as_u64(), Some(4 * n), "{i}");
    }
    assert_eq!(s["executed"].as_u64(), Some(4 * want.len() as u64));
    let sends = s["sends"].as_array().unwrap();
    let sum = |k: &str| -> u64 { sends.iter().map(|x| x[k].as_u64().unwrap()).sum() };
    assert_eq!((sum("read"), sum("written")), (0, 256), "{text}");
}

/// `--sanitize memcheck` on an ocloc `-g` binary: the finding names the source line the
/// source marks `// faulty access`, on stderr and in the JSON log.
#[test]
fn sanitize_names_the_source_line_of_a_g_binary() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let src = "__kernel void bug(__global const int *a, __global int *b) {\n\
               int i = get_global_id(0);\n\
               int k = i * 3;\n\
               b[i] = a[i + 1] + k; // faulty access\n\
               }\n";
    let want = src
        .lines()
        .position(|l| l.contains("// faulty access"))
        .unwrap()
        + 1;
    let dir = tempfile::tempdir().unwrap();
    let (bin, log) = (dir.path().join("bug.bin"), dir.path().join("log.jsonl"));
    let bytes = ocloc::compile(
        &ocloc,
        Platform::Tgllp,
        src,
        "-g",
        ocloc::Format::PatchTokens,
    )
    .unwrap();
    std::fs::write(&bin, bytes).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_intel-gpu-run"))
        .arg("run")
        .arg(&bin)
        .args(["--device", "sim:tgllp", "--global", "64", "--local", "64"])
        .args([
            "--arg",
            "buf:256",
            "--arg",
            "buf:256",
            "--sanitize",
            "memcheck",
        ])
        .env("INTEL_GPU_SANITIZE_LOG", &log)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // `ocloc::compile` names the source kernel.cl.
    assert!(err.contains(&format!("(kernel.cl:{want})")), "{err}");
    let text = std::fs::read_to_string(&log).unwrap();
    let findings: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!findings.is_empty());
    for f in &findings {
        assert_eq!(f["line"], want, "{f}");
        assert_eq!(f["file"], "kernel.cl", "{f}");
    }
}
