//! cl_intel_unified_shared_memory from C (`tests/c/usm.c`): every entry point, kernels reading
//! and writing host, device and shared allocations (directly, through pointers inside them, and
//! through pointers loaded from memory under clSetKernelExecInfo's indirect-access settings),
//! checked against the kernels' formulas by the program itself; and its `= name value` answers
//! (capabilities, clGetMemAllocInfoINTEL, error codes, command types) compared with those of
//! Intel's runtime (NEO) running the same program on the same simulated GPU under the
//! simulator shim. NEO 22.43's USM fills and copies stop making progress on the simulator a
//! few commands in (at varying points from run to run), so its run (`usm.c --neo`) stops after
//! the kernels and the errors that need no command; the rest is checked against the
//! specification only (`SPEC`).

use crate::support;

use oracles::{require, Oracle, Platform};

/// Where this ICD answers otherwise than NEO 22.43, and why: (platform, or None for every one;
/// name; ours; NEO's). Ours follow the extension specification's error lists; NEO 22.43 accepts
/// these arguments (and returns an allocation or enqueues the command).
const DIFFERENCES: &[(Option<Platform>, &str, &str, &str)] = &[
    // A shared allocation lives on one device's VM here, so no other device reaches it;
    // NEO reports cross-device access on dg2.
    (Some(Platform::Dg2), "caps.cross_device_shared", "0", "3"),
    // CL_INVALID_BUFFER_SIZE (-61): "if size is zero".
    (None, "err.host_size_0", "-61", "0"),
    // CL_INVALID_VALUE (-30): "if alignment is not zero or a power of two", "greater than the
    // size of the largest data type" (128 bytes).
    (None, "err.host_align_3", "-30", "0"),
    (None, "err.device_align_3", "-30", "0"),
    (None, "err.host_align_256", "-30", "0"),
    (None, "err.device_align_256", "-30", "0"),
    (None, "err.shared_align_256", "-30", "0"),
    // CL_INVALID_PROPERTY (-64): an invalid value, a name given twice, a placement flag on a
    // host or device allocation, both placements on a shared one.
    (None, "err.host_bad_flag", "-64", "0"),
    (None, "err.host_property_twice", "-64", "0"),
    (None, "err.host_placement", "-64", "0"),
    (None, "err.device_placement", "-64", "0"),
    (None, "err.shared_both_placements", "-64", "0"),
    (None, "err.host_bad_property", "-64", "-30"),
    (None, "err.shared_bad_property", "-64", "-30"),
    // CL_INVALID_DEVICE (-33): "if device is not NULL and is not a valid device".
    (None, "err.shared_not_a_device", "-33", "0"),
    // CL_INVALID_VALUE: "if ptr is not a value returned by" an allocation function (NEO frees
    // the allocation a pointer inside it falls in).
    (None, "free.inside", "-30", "0"),
    // clSetKernelExecInfo (OpenCL 3.0): CL_INVALID_VALUE "if the size specified by
    // param_value_size is not valid" (a cl_bool is 4 bytes).
    (None, "exec.bool_size", "-30", "0"),
];

/// Answers the extension specification fixes, checked on every device (NEO's, where they agree,
/// are compared by `usm_answers_match_neo`): error codes by name in its error lists, the
/// allocation types (0x4196 unknown, 0x4197 host, 0x4198 device, 0x4199 shared), the command
/// types (0x4204 fill, 0x4205 memcpy, 0x4206 migrate, 0x4207 advise).
const SPEC: &[(&str, &str)] = &[
    ("err.host_null_context", "-34"),
    ("err.host_size_0", "-61"),
    ("err.host_size_huge", "-61"),
    ("err.host_align_3", "-30"),
    ("err.host_align_256", "-30"),
    ("err.host_placement", "-64"),
    ("err.host_bad_property", "-64"),
    ("err.host_bad_flag", "-64"),
    ("err.host_property_twice", "-64"),
    ("err.device_null_device", "-33"),
    ("err.device_null_context", "-34"),
    ("err.device_size_0", "-61"),
    ("err.device_align_3", "-30"),
    ("err.device_placement", "-64"),
    ("err.shared_size_0", "-61"),
    ("err.shared_bad_property", "-64"),
    ("err.shared_both_placements", "-64"),
    ("err.shared_not_a_device", "-33"),
    ("info.host.type", "16791"),
    ("info.host_inside.base_is_expected", "1"),
    ("info.host_last.size", "1024"),
    ("info.device.type", "16792"),
    ("alias.host_pages_at_device_pointer", "0"),
    ("info.device.device_is_expected", "1"),
    ("info.shared.type", "16793"),
    ("info.shared_no_device.device_is_expected", "1"),
    ("info.stack.type", "16790"),
    ("info.stack.size", "0"),
    ("info.freed.type", "16790"),
    ("info.bad_param", "-30"),
    ("info.small_value", "-30"),
    ("info.null_context", "-34"),
    ("info.flags", "1"),
    ("arg.bad_index", "-49"),
    ("arg.bad_kernel", "-48"),
    ("arg.null", "0"),
    ("exec.bad_kernel", "-48"),
    ("free.null", "0"),
    ("free.null_context", "-34"),
    ("free.twice", "-30"),
    ("free.inside", "-30"),
    ("fill.pattern_3", "-30"),
    ("fill.pattern_256", "-30"),
    ("fill.size_not_multiple", "-30"),
    ("fill.null_dst", "-30"),
    ("fill.null_pattern", "-30"),
    ("fill.misaligned_dst", "-30"),
    ("fill.bad_queue", "-36"),
    ("memcpy.overlap", "-8"),
    ("memcpy.null_dst", "-30"),
    ("memcpy.null_src", "-30"),
    ("memcpy.bad_wait_list", "-57"),
    ("migrate.bad_flags", "-30"),
    ("event.fill", "16900"),
    ("event.memset", "16900"),
    ("event.memcpy", "16901"),
    ("event.migrate", "16902"),
    ("event.advise", "16903"),
];

#[test]
fn usm_client_on_each_simulated_device() {
    let gcc = require!(Oracle::OpenClC);
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "usm");
    for dev in support::c_client_devices() {
        let out = support::run(&mut support::command(&exe, &icd, dev));
        assert!(out.contains(", 0 failed"), "{dev}:\n{out}");
        let a = support::answers(&out);
        assert_eq!(a["device_reports_extension"], "1", "{dev}");
        for (name, want) in SPEC {
            assert_eq!(
                a.get(*name).map(String::as_str),
                Some(*want),
                "{dev}: {name}"
            );
        }
    }
}

/// The same program under the kernel sanitizer: its kernels read host and shared allocations
/// the host wrote through their pointers and device allocations written by copies, all within
/// bounds, so no check but `api` (its deliberate bad arguments) has anything to say.
#[test]
fn usm_client_gives_no_sanitizer_finding() {
    let gcc = require!(Oracle::OpenClC);
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "usm");
    let log = icd.dir.path().join("findings.jsonl");
    let out = support::run(
        support::command(&exe, &icd, "sim:tgllp")
            .env(
                "INTEL_GPU_SANITIZE",
                "memcheck,initcheck,racecheck,synccheck,alignment",
            )
            .env("INTEL_GPU_SANITIZE_LOG", &log),
    );
    assert!(out.contains(", 0 failed"), "{out}");
    let findings = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(findings.is_empty(), "findings:\n{findings}");
}

#[test]
fn usm_answers_match_neo() {
    let gcc = require!(Oracle::OpenClC);
    let dir = tempfile::tempdir().unwrap();
    let Some(neo) = support::neo_icd(dir.path(), "NEO's unified shared memory") else {
        return;
    };
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "usm");
    for p in [Platform::Skl, Platform::Tgllp, Platform::Dg2] {
        let theirs = support::run(support::neo_command(&exe, &neo, p).arg("--neo"));
        assert!(theirs.contains(", 0 failed"), "NEO on {p}:\n{theirs}");
        let mine = support::run(&mut support::command(
            &exe,
            &icd,
            &format!("sim:{}", p.name()),
        ));
        let (mut m, t) = (support::answers(&mine), support::answers(&theirs));
        assert!(!t.is_empty(), "{p}: NEO printed no answers:\n{theirs}");
        for (q, name, ours, neos) in DIFFERENCES {
            if q.is_none_or(|q| q == p) {
                assert_eq!(m.get(*name).map(String::as_str), Some(*ours), "{p}: {name}");
                assert_eq!(t.get(*name).map(String::as_str), Some(*neos), "{p}: {name}");
                m.insert(name.to_string(), neos.to_string());
            }
        }
        let differ: Vec<String> = t
            .iter()
            .filter(|(k, v)| m.get(*k) != Some(v))
            .map(|(k, v)| format!("{k}: ours {:?}, NEO {v}", m.get(k)))
            .collect();
        assert!(
            differ.is_empty(),
            "{p}: answers differing from NEO's:\n{}",
            differ.join("\n")
        );
        // NEO's run stops after the kernels and the errors that need no command (`--neo`).
        let left_out = |k: &str| {
            let out = [
                "fill.",
                "memset.",
                "memcpy.",
                "migrate",
                "advise",
                "event.",
                "exec.null_value",
                "err.device_size_0",
                "err.shared_size_0",
            ];
            out.iter().any(|p| k.starts_with(p)) && k != "event.memcpy"
        };
        for k in m.keys().filter(|k| !t.contains_key(*k)) {
            assert!(left_out(k), "{p}: NEO gave no answer {k}");
        }
    }
}
