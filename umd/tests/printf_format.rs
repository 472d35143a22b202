//! The host's printf conversions against glibc's printf (a small C program built with the
//! system's C compiler, printf_support/cref.c): flags, widths, precisions and every C99
//! conversion OpenCL C keeps, on edge values.

use std::io::Write;
use std::process::{Command, Stdio};

use umd::printf::format::{parse, write, Value};

/// Builds the C reference; `None` (after a skip notice) without a C compiler.
fn reference() -> Option<(tempfile::TempDir, std::path::PathBuf)> {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("cref");
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/printf_support/cref.c");
    match Command::new("cc")
        .args([src, "-O1", "-o"])
        .arg(&exe)
        .status()
    {
        Ok(s) if s.success() => Some((dir, exe)),
        other => {
            if oracles::required() {
                panic!("printf_format: cannot build the C reference: {other:?}");
            }
            oracles::skip("printf_format", "no C compiler");
            None
        }
    }
}

/// One case: the OpenCL C spec, the C spec for the same argument, the C program's line
/// kind and value, and the value as the kernel would store it.
struct Case {
    ocl: String,
    c: String,
    kind: char,
    arg: String,
    value: Value<'static>,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let flags = ["", "-", "+", " ", "#", "0", "-+", "+0", " 0", "#0", "-#"];
    let fields = [
        "", "1", "8", "12", ".0", ".1", ".3", "5.2", "10.4", "20.12", ".17",
    ];
    let ints: [i64; 8] = [0, 1, -1, 42, -42, 255, i32::MAX as i64, i32::MIN as i64];
    let longs: [i64; 4] = [0, i64::MAX, i64::MIN, -1234567890123];
    let floats: [f64; 18] = [
        0.0,
        -0.0,
        1.0,
        -1.5,
        0.1,
        123.456,
        1e-5,
        1e-4,
        9.9999995,
        0.5,
        2.5,
        1e20,
        6.02214076e23,
        f64::MIN_POSITIVE / 4.0,
        f32::MAX as f64,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    for f in flags {
        for w in fields {
            for conv in ["d", "i", "u", "o", "x", "X"] {
                for v in ints {
                    out.push(Case {
                        ocl: format!("{f}{w}{conv}"),
                        c: format!("%{f}{w}{conv}"),
                        kind: 'i',
                        arg: v.to_string(),
                        value: Value::Int {
                            bits: 32,
                            value: v as u64,
                        },
                    });
                }
                for v in longs {
                    out.push(Case {
                        ocl: format!("{f}{w}l{conv}"),
                        c: format!("%{f}{w}ll{conv}"),
                        kind: 'l',
                        arg: v.to_string(),
                        value: Value::Int {
                            bits: 64,
                            value: v as u64,
                        },
                    });
                }
                // Length modifiers narrow the promoted int (C99 7.19.6.1p7).
                for (m, v) in [("hh", 300i64), ("hh", -129), ("h", 70000), ("h", -32769)] {
                    out.push(Case {
                        ocl: format!("{f}{w}{m}{conv}"),
                        c: format!("%{f}{w}{m}{conv}"),
                        kind: 'i',
                        arg: v.to_string(),
                        value: Value::Int {
                            bits: 32,
                            value: v as u64,
                        },
                    });
                }
            }
            for conv in ["f", "F", "e", "E", "g", "G", "a", "A"] {
                for v in floats {
                    out.push(Case {
                        ocl: format!("{f}{w}{conv}"),
                        c: format!("%{f}{w}{conv}"),
                        kind: 'd',
                        arg: format!("{:x}", v.to_bits()),
                        value: Value::Float(v),
                    });
                }
            }
            if !f.contains(['+', ' ', '#', '0']) {
                for v in ["hello", "", "a longer string!"] {
                    out.push(Case {
                        ocl: format!("{f}{w}s"),
                        c: format!("%{f}{w}s"),
                        kind: 's',
                        arg: v.to_string(),
                        value: Value::Str(v.as_bytes()),
                    });
                }
                if !w.contains('.') {
                    for v in [65i64, 122, 48] {
                        out.push(Case {
                            ocl: format!("{f}{w}c"),
                            c: format!("%{f}{w}c"),
                            kind: 'i',
                            arg: v.to_string(),
                            value: Value::Int {
                                bits: 32,
                                value: v as u64,
                            },
                        });
                    }
                    for v in [0u64, 0x1000, 0xffff_8000_dead_beef] {
                        out.push(Case {
                            ocl: format!("{f}{w}p"),
                            c: format!("%{f}{w}p"),
                            kind: 'p',
                            arg: v.to_string(),
                            value: Value::Pointer(v),
                        });
                    }
                }
            }
        }
    }
    out
}

#[test]
fn conversions_match_glibc_printf() {
    let Some((_dir, exe)) = reference() else {
        return;
    };
    let cases = cases();
    let mut child = Command::new(&exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = String::new();
    for c in &cases {
        input.push_str(&format!("{}\t{}\t{}\n", c.c, c.kind, c.arg));
    }
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "the C reference failed");
    let want: Vec<&[u8]> = out.stdout.split(|&b| b == 0).collect();
    assert_eq!(want.len(), cases.len() + 1);
    let mut bad = Vec::new();
    for (c, w) in cases.iter().zip(want) {
        let spec = parse(c.ocl.as_bytes()).unwrap_or_else(|| panic!("%{} did not parse", c.ocl));
        let mut got = Vec::new();
        write(&mut got, &spec, c.value);
        if got != w {
            bad.push(format!(
                "{} ({}): C `{}`, ours `{}`",
                c.c,
                c.arg,
                String::from_utf8_lossy(w),
                String::from_utf8_lossy(&got)
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} differ:\n{}",
        bad.len(),
        cases.len(),
        bad[..bad.len().min(40)].join("\n")
    );
}

#[test]
fn opencl_vector_and_length_rules() {
    // §6.15.14.2: a vector needs hh, h, hl or l; hl is for vectors only; no %vNs/%vNc/%vNp.
    for ok in ["v4hhd", "v2hd", "v3hlf", "v16lx", "-8.3v4hle", "v8hla"] {
        assert!(parse(ok.as_bytes()).is_some(), "{ok}");
    }
    for bad in [
        "v4d", "v5hhd", "v4hhs", "v2hlc", "hld", "v4hlp", "q", "5", "", "l",
    ] {
        assert!(parse(bad.as_bytes()).is_none(), "{bad}");
    }
}
