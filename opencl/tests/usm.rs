//! cl_intel_unified_shared_memory from C (`tests/c/usm.c`): every entry point, kernels reading
//! and writing host, device and shared allocations (directly, through pointers inside them, and
//! through pointers loaded from memory under clSetKernelExecInfo's indirect-access settings),
//! checked against the kernels' formulas by the program itself; and its `= name value` answers
//! (capabilities, clGetMemAllocInfoINTEL, error codes, command types) compared with those of
//! Intel's runtime (NEO) running the same program on the same simulated GPU under the
//! simulator shim.

mod support;

use std::collections::BTreeMap;

use oracles::{require, Oracle, Platform};

/// The `= name value` lines of a run.
fn answers(out: &str) -> BTreeMap<String, String> {
    out.lines()
        .filter_map(|l| l.strip_prefix("= "))
        .filter_map(|l| l.split_once(' '))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Where this ICD answers otherwise than NEO 22.43, and why: (platform, name, ours, NEO's).
const DIFFERENCES: &[(Platform, &str, &str, &str)] = &[
    // A shared allocation lives on one device's VM here, so no other device reaches it;
    // NEO reports cross-device access on dg2.
    (Platform::Dg2, "caps.cross_device_shared", "0", "3"),
];

#[test]
fn usm_client_on_each_simulated_device() {
    let gcc = require!(Oracle::OpenClC);
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "usm");
    for dev in support::c_client_devices() {
        let out = support::run(&mut support::command(&exe, &icd, dev));
        assert!(out.contains(", 0 failed"), "{dev}:\n{out}");
        let a = answers(&out);
        assert_eq!(a["device_reports_extension"], "1", "{dev}");
    }
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
        let theirs = support::run(&mut support::neo_command(&exe, &neo, p));
        assert!(theirs.contains(", 0 failed"), "NEO on {p}:\n{theirs}");
        let mine = support::run(&mut support::command(
            &exe,
            &icd,
            &format!("sim:{}", p.name()),
        ));
        let (mut m, t) = (answers(&mine), answers(&theirs));
        assert!(!t.is_empty(), "{p}: NEO printed no answers:\n{theirs}");
        for (q, name, ours, neos) in DIFFERENCES {
            if *q == p {
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
        assert!(differ.is_empty(), "{p}: answers differing from NEO's:\n{}", differ.join("\n"));
        assert_eq!(m.len(), t.len(), "{p}: answer names");
    }
}
