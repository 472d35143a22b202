//! A program whose kernels call functions it declares but never defines cannot run: this ICD
//! refuses it at clBuildProgram (CL_BUILD_PROGRAM_FAILURE, the build log naming each
//! unresolved symbol, the kernel and the ISA offset of the relocation), as Intel's runtime
//! (NEO, Debian `intel-opencl-icd`) refuses it when it links the program. Compared with NEO on
//! the same simulated GPU, on every platform: the same (kernel, symbol, offset) triples, and the
//! same program with the functions defined builds under both. NEO reports the failure as
//! CL_INVALID_BINARY; the specification's code for a build that fails is
//! CL_BUILD_PROGRAM_FAILURE, which this ICD returns.

use crate::support;

use std::collections::BTreeSet;

use oracles::{ocloc, Oracle, Platform};

const DECLARED: &str = "int f(int x);\nfloat g(float x);\n";
const KERNELS: &str =
    "kernel void a(global int *o) { o[get_global_id(0)] = f((int)get_global_id(0)); }\n\
kernel void b(global float *o) { o[0] = g(o[1]) + f(2); }\n\
kernel void c(global int *o) { o[0] = 1; }\n";
const DEFINED: &str = "int f(int x) { return x + 41; }\nfloat g(float x) { return 2.0f * x; }\n";

/// (kernel, symbol, ISA offset) of every unresolved relocation a build log names, in either
/// runtime's words.
fn unresolved(log: &str) -> BTreeSet<(String, String, u64)> {
    log.lines()
        .filter_map(|l| {
            let rest = l.split("unresolved external symbol ").nth(1)?;
            if let Some(rest) = rest.strip_prefix('`') {
                // Ours: "`f` at ISA offset 0x154 in kernel `k`".
                let (sym, rest) = rest.split_once("` at ISA offset 0x")?;
                let (off, rest) = rest.split_once(" in kernel `")?;
                let kernel = rest.strip_suffix('`')?;
                Some((
                    kernel.into(),
                    sym.into(),
                    u64::from_str_radix(off, 16).ok()?,
                ))
            } else {
                // NEO's: "f at offset 340 in instructions segment #0 (aka kernel : k)".
                let (sym, rest) = rest.split_once(" at offset ")?;
                let (off, rest) = rest.split_once(' ')?;
                let kernel = rest.split("(aka kernel : ").nth(1)?.strip_suffix(')')?;
                Some((kernel.into(), sym.into(), off.parse().ok()?))
            }
        })
        .collect()
}

/// clBuildProgram's result and the build log, from `build_log`'s output.
fn verdict(out: &str) -> (i32, &str) {
    let (first, log) = out.split_once('\n').unwrap_or((out, ""));
    let status = first
        .strip_prefix("status ")
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| panic!("no status line in:\n{out}"));
    (status, log)
}

#[test]
fn unresolved_external_calls_fail_the_build_as_under_neo() {
    const BUILD_PROGRAM_FAILURE: i32 = -11;
    let why = "unresolved externals vs NEO";
    let dir = tempfile::tempdir().unwrap();
    let Some(neo) = support::neo_icd(dir.path(), why) else {
        return;
    };
    let (Some(gcc), Some(ocloc)) = (
        oracles::get(Oracle::OpenClC, why),
        oracles::get(Oracle::Ocloc, why),
    ) else {
        return;
    };
    let ours = support::icd();
    let exe = support::compile_c(&gcc, &ours, "build_log");
    let file = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let broken_src = format!("{DECLARED}{KERNELS}");
    let broken = file("broken.cl", broken_src.as_bytes());
    let whole = file(
        "whole.cl",
        format!("{DECLARED}{DEFINED}{KERNELS}").as_bytes(),
    );
    for p in [
        Platform::Skl,
        Platform::Icllp,
        Platform::Tgllp,
        Platform::Dg2,
    ] {
        let dev = format!("sim:{}", p.name());
        let both = |mode: &str, input: &std::path::Path| {
            let mine =
                support::run(support::command(&exe, &ours, &dev).args([mode.as_ref(), input]));
            let theirs =
                support::run(support::neo_command(&exe, &neo, p).args([mode.as_ref(), input]));
            (mine, theirs)
        };

        // From source: each runtime compiles with its own options, so the ISA (and the
        // relocations' offsets) may differ; the calls that cannot be resolved may not.
        let (mine, theirs) = both("source", &broken);
        let ((my_status, my_log), (their_status, their_log)) = (verdict(&mine), verdict(&theirs));
        assert_eq!(my_status, BUILD_PROGRAM_FAILURE, "{p}: ours\n{mine}");
        assert_ne!(their_status, 0, "{p}: NEO built it\n{theirs}");
        let calls = |log: &str| -> BTreeSet<(String, String)> {
            unresolved(log)
                .into_iter()
                .map(|(k, s, _)| (k, s))
                .collect()
        };
        let expected: BTreeSet<(String, String)> = [("a", "f"), ("b", "f"), ("b", "g")]
            .map(|(k, s)| (k.to_string(), s.to_string()))
            .into();
        assert_eq!(calls(their_log), expected, "{p}: NEO's log\n{their_log}");
        assert_eq!(calls(my_log), expected, "{p}: our log\n{my_log}");

        // From one ocloc binary: the same relocations at the same offsets.
        let bin = ocloc::compile(&ocloc, p, &broken_src, "", ocloc::Format::PatchTokens).unwrap();
        let bin = file(&format!("broken-{}.bin", p.name()), &bin);
        let (mine, theirs) = both("binary", &bin);
        let ((my_status, my_log), (their_status, their_log)) = (verdict(&mine), verdict(&theirs));
        assert_eq!(my_status, BUILD_PROGRAM_FAILURE, "{p}: ours\n{mine}");
        assert_ne!(their_status, 0, "{p}: NEO built it\n{theirs}");
        assert_eq!(
            unresolved(my_log),
            unresolved(their_log),
            "{p}: ours (left) against NEO's (right)"
        );

        let (mine, theirs) = both("source", &whole);
        assert_eq!(
            verdict(&mine).0,
            0,
            "{p}: ours did not build the defined twin\n{mine}"
        );
        assert_eq!(
            verdict(&theirs).0,
            0,
            "{p}: NEO did not build the defined twin\n{theirs}"
        );
    }
}
