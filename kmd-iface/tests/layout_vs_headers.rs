//! Must-show 1: every struct, field offset, ioctl number and constant the crate defines is
//! compared with what gcc computes from the installed kernel headers.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::process::Command;

/// A C program printing, for every Rust-side definition, the header's answer.
fn c_program() -> String {
    let mut c = String::from(
        "#include <fcntl.h>\n#include <stddef.h>\n#include <stdio.h>\n#include <drm/drm.h>\n\
         #include <drm/i915_drm.h>\n#include <drm/xe_drm.h>\nint main(void) {\n",
    );
    for s in kmd_iface::all_structs() {
        let n = s.name;
        writeln!(c, "printf(\"S {n} %zu\\n\", sizeof(struct {n}));").unwrap();
        for f in s.fields.iter().filter(|f| !s.rust_only.contains(&f.name)) {
            let fname = f.c_name();
            writeln!(
                c,
                "printf(\"O {n}.{fname} %zu\\n\", offsetof(struct {n}, {fname}));"
            )
            .unwrap();
            // A flexible array member has no size in C (and 0 in Rust).
            if f.size != 0 {
                writeln!(
                    c,
                    "printf(\"Z {n}.{fname} %zu\\n\", sizeof(((struct {n} *)0)->{fname}));"
                )
                .unwrap();
            }
        }
    }
    let consts = kmd_iface::all_consts().map(|k| k.name);
    let ioctls = kmd_iface::all_ioctls().map(|i| i.name);
    for name in consts.chain(ioctls) {
        writeln!(c, "printf(\"C {name} %lld\\n\", (long long)({name}));").unwrap();
    }
    c.push_str("return 0;\n}\n");
    c
}

fn header_answers(include: &std::path::Path) -> HashMap<String, i64> {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("layout.c");
    let exe = dir.path().join("layout");
    std::fs::write(&src, c_program()).unwrap();
    let cc = Command::new("gcc")
        .arg("-Wall")
        .arg("-Werror")
        .arg("-I")
        .arg(include)
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .output()
        .expect("gcc must be installed to check layouts");
    assert!(
        cc.status.success(),
        "gcc failed:\n{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let out = Command::new(&exe).output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let mut w = l.split(' ');
            let (kind, key, value) = (w.next().unwrap(), w.next().unwrap(), w.next().unwrap());
            (format!("{kind} {key}"), value.parse().unwrap())
        })
        .collect()
}

#[test]
fn rust_layouts_and_values_equal_the_kernel_headers() {
    let include = oracles::require!(oracles::Oracle::UapiHeaders);
    let c = header_answers(&include);
    let mut mismatches = Vec::new();
    let mut check = |key: String, rust: i64| match c.get(&key) {
        Some(&v) if v == rust => {}
        other => mismatches.push(format!("{key}: rust {rust}, header {other:?}")),
    };
    let (mut structs, mut fields, mut values) = (0, 0, 0);
    for s in kmd_iface::all_structs() {
        structs += 1;
        check(format!("S {}", s.name), s.size as i64);
        for f in s.fields.iter().filter(|f| !s.rust_only.contains(&f.name)) {
            fields += 1;
            let key = format!("{}.{}", s.name, f.c_name());
            check(format!("O {key}"), f.offset as i64);
            if f.size != 0 {
                check(format!("Z {key}"), f.size as i64);
            }
        }
    }
    for k in kmd_iface::all_consts() {
        values += 1;
        check(format!("C {}", k.name), k.value);
    }
    for i in kmd_iface::all_ioctls() {
        values += 1;
        check(format!("C {}", i.name), i.request as i64);
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    eprintln!(
        "layout check: {structs} structs, {fields} fields, {values} constants and ioctl numbers"
    );
}

/// Rust-only padding must fill exactly the gaps C leaves: every byte of each struct is covered by
/// exactly one field, so no C field can be missing from the Rust side.
#[test]
fn fields_tile_each_struct_without_gaps() {
    for s in kmd_iface::all_structs() {
        let mut end = 0;
        for f in s.fields {
            assert_eq!(
                f.offset, end,
                "{}.{} leaves a gap or overlaps",
                s.name, f.name
            );
            end = f.offset + f.size;
        }
        assert_eq!(end, s.size, "{} has trailing bytes no field covers", s.name);
    }
}
