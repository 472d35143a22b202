//! `-g` through this ICD: clBuildProgram hands its options to ocloc, whose `-g` patch-token
//! binary carries DWARF line tables, so a kernel sanitizer finding of a program built from
//! source names the line of the faulty access (the line the source marks `// faulty access`);
//! built without `-g`, its `file` and `line` are null.

use crate::support;

use oracles::{require, Oracle};
use serde_json::Value;

const SOURCE: &str = "\
kernel void bug(global const int *a, global int *b) {
    size_t i = get_global_id(0);
    int k = (int)i * 3;
    b[i] = a[i + 1] + k; // faulty access
}
";

#[test]
fn g_builds_from_source_name_the_line() {
    let gcc = require!(Oracle::OpenClC);
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "source_lines");
    let file = icd.dir.path().join("bug.cl");
    std::fs::write(&file, SOURCE).unwrap();
    let want = SOURCE
        .lines()
        .position(|l| l.contains("// faulty access"))
        .unwrap() as u64
        + 1;
    for device in ["sim:tgllp", "sim:dg2"] {
        for (options, line) in [("-g", Some(want)), ("", None)] {
            let log = icd.dir.path().join("findings.jsonl");
            let _ = std::fs::remove_file(&log);
            support::run(
                support::command(&exe, &icd, device)
                    .arg(&file)
                    .arg(options)
                    .env("INTEL_GPU_SANITIZE", "memcheck")
                    .env("INTEL_GPU_SANITIZE_LOG", &log),
            );
            let findings: Vec<Value> = std::fs::read_to_string(&log)
                .unwrap_or_default()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            assert!(!findings.is_empty(), "{device} {options:?}: no finding");
            for f in &findings {
                assert_eq!(f["check"], "memcheck", "{device} {options:?}: {f}");
                assert_eq!(
                    f.get("line"),
                    Some(&line.into()),
                    "{device} {options:?}: {f}"
                );
                assert_eq!(
                    f.get("file").is_some_and(Value::is_string),
                    line.is_some(),
                    "{device} {options:?}: {f}"
                );
            }
        }
    }
}
