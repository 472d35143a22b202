//! Kernels calling functions their program declares but never defines are refused when loaded,
//! with an error naming the symbol, instead of running into a GPU fault at the unpatched call.
//! Binaries from ocloc in both formats on every platform; for zebin, the relocations found
//! unresolved are exactly those binutils' `readelf` lists against undefined (UND) symbols.

use std::process::Command;

use oracles::ocloc::{compile, Format};
use platform::Platform;
use umd::kernel::{Kernel, LoadError};
use umd::Error;

const SOURCE: &str = "int f(int x);\n\
kernel void a(global int *o) { o[get_global_id(0)] = f((int)get_global_id(0)); }\n\
kernel void c(global int *o) { o[0] = 1; }\n";

/// (offset, symbol) of the relocations of `.rel.text.<kernel>` against undefined symbols, as
/// `readelf -rsW` prints them.
fn readelf_undefined(file: &[u8], kernel: &str) -> Vec<(u64, String)> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.bin");
    std::fs::write(&path, file).unwrap();
    let out = Command::new("readelf")
        .arg("-rsW")
        .arg(&path)
        .output()
        .expect("run readelf");
    assert!(out.status.success(), "readelf failed");
    let text = String::from_utf8_lossy(&out.stdout);
    // Symbol table rows: "Num: Value Size Type Bind Vis Ndx Name".
    let undefined: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 8 && f[0].ends_with(':') && f[6] == "UND" && !f[7].is_empty()).then(|| f[7])
        })
        .collect();
    let header = format!("Relocation section '.rel.text.{kernel}'");
    let mut rows = Vec::new();
    let mut inside = false;
    for l in text.lines() {
        if l.starts_with("Relocation section") {
            inside = l.starts_with(&header);
            continue;
        }
        let f: Vec<&str> = l.split_whitespace().collect();
        if inside && f.len() >= 5 && u64::from_str_radix(f[0], 16).is_ok() {
            let name = *f.last().unwrap();
            if undefined.contains(&name) {
                rows.push((u64::from_str_radix(f[0], 16).unwrap(), name.to_string()));
            }
        }
    }
    rows.sort();
    rows
}

#[test]
fn undefined_calls_are_refused_at_load_naming_the_symbol() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    for p in [
        Platform::Skl,
        Platform::Icllp,
        Platform::Tgllp,
        Platform::Dg2,
    ] {
        for format in [Format::PatchTokens, Format::Zebin] {
            let file = compile(&ocloc, p, SOURCE, "", format).unwrap();
            let prog = umd::program::parse(&file).unwrap();
            let a = prog.kernel("a").expect("kernel a");
            let mut found: Vec<(u64, String)> = a
                .unresolved()
                .map(|r| (r.offset, r.symbol.clone()))
                .collect();
            found.sort();
            assert!(
                !found.is_empty() && found.iter().all(|(_, s)| s == "f"),
                "{p} {format:?}: {found:?}"
            );
            if format == Format::Zebin {
                assert_eq!(
                    found,
                    readelf_undefined(&file, "a"),
                    "{p}: ours (left) against readelf's"
                );
            }
            match Kernel::from_program(&prog, Some("a"), Some(p)) {
                Err(LoadError::Other(Error::BadKernel { kernel, problem })) => {
                    assert_eq!(kernel, "a");
                    assert!(
                        problem.contains("unresolved external symbol `f`"),
                        "{problem}"
                    );
                }
                other => panic!("{p} {format:?}: kernel a was not refused: {other:?}"),
            }
            // The kernel that calls nothing loads.
            assert_eq!(prog.kernel("c").unwrap().unresolved().count(), 0);
            Kernel::from_program(&prog, Some("c"), Some(p)).unwrap();
        }
    }
}
