//! The sub-group facts this ICD reports against Intel's own runtime (NEO, Debian
//! `intel-opencl-icd`) on the same simulated GPU: NEO runs under the simulator shim
//! (`LD_PRELOAD` of `libintel_gpu_sim_shim.so`, `INTEL_GPU_SIM=<platform>@i915`), this ICD on
//! `sim:<platform>`, both queried by the same `clinfo`. Compared on skl (Gen9) and tgllp
//! (Gen12LP): whether cl_khr_subgroups is in the device's extension list, independent forward
//! progress, the sub-group sizes, and the largest work-group (NEO: 256 on skl, 512 on tgllp,
//! from the EUs and subslices the kernel driver reports). Skipped (by the oracle policy) only without NEO.

mod support;

use std::process::Command;

use oracles::{Oracle, Platform};

/// The sub-group facts of one device, from clinfo's human-readable output.
#[derive(Debug, PartialEq, Eq)]
struct Facts {
    khr_subgroups: bool,
    independent_forward_progress: String,
    sub_group_sizes: String,
    /// CL_DEVICE_MAX_WORK_GROUP_SIZE and CL_DEVICE_MAX_WORK_ITEM_SIZES (the topology's).
    max_work_group_size: String,
    max_work_item_sizes: String,
}

/// The value after `label` on its line of `text` (clinfo pads labels with spaces).
fn value<'a>(text: &'a str, label: &str) -> Option<&'a str> {
    text.lines()
        .find_map(|l| l.trim_start().strip_prefix(label).map(str::trim))
}

fn facts(text: &str) -> Facts {
    let field = |label: &str| {
        value(text, label)
            .unwrap_or_else(|| panic!("no `{label}` in clinfo's output:\n{text}"))
            .to_string()
    };
    Facts {
        khr_subgroups: field("Device Extensions")
            .split_whitespace()
            .any(|e| e == "cl_khr_subgroups"),
        independent_forward_progress: field("Sub-group independent forward progress"),
        sub_group_sizes: field("Sub-group sizes (Intel)"),
        max_work_group_size: field("Max work group size"),
        max_work_item_sizes: field("Max work item sizes"),
    }
}

fn clinfo(cmd: &mut Command) -> String {
    let out = cmd.output().expect("run clinfo");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{text}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn sub_group_facts_match_neo_on_skl_and_tgllp() {
    let dir = tempfile::tempdir().unwrap();
    let Some(neo) = support::neo_icd(dir.path(), "NEO sub-group facts") else {
        return;
    };
    let Some(clinfo_exe) = oracles::get(Oracle::Clinfo, "NEO sub-group facts") else {
        return;
    };
    let ours = support::icd();
    for p in [Platform::Skl, Platform::Tgllp] {
        let theirs = facts(&clinfo(&mut support::neo_command(&clinfo_exe, &neo, p)));
        let mine = facts(&clinfo(&mut support::command(
            &clinfo_exe,
            &ours,
            &format!("sim:{}", p.name()),
        )));
        assert_eq!(mine, theirs, "{p}: ours (left) against NEO's (right)");
        // The hardware fact itself: Gen9 gives it, fused-EU Gen12LP does not.
        assert_eq!(mine.khr_subgroups, p == Platform::Skl, "{p}: {mine:?}");
    }
}

/// How the device presents itself where applications look to choose their Intel paths (hashcat
/// and OpenCV by the vendor strings, CLBlast by vendor and name): the vendor strings and id are
/// NEO's, and the device name follows NEO's `… [0x<PCI device id>]` convention with the same id,
/// on every platform. Our platform name and versions say whose driver it is instead.
#[test]
fn vendor_identity_matches_neo_on_every_platform() {
    let dir = tempfile::tempdir().unwrap();
    let Some(neo) = support::neo_icd(dir.path(), "NEO vendor identity") else {
        return;
    };
    let Some(clinfo_exe) = oracles::get(Oracle::Clinfo, "NEO vendor identity") else {
        return;
    };
    let ours = support::icd();
    let pci_id = |name: &str| {
        let open = name
            .find("[0x")
            .unwrap_or_else(|| panic!("no [0x…] id in {name:?}"));
        name[open..open + 8].to_string()
    };
    for p in [
        Platform::Skl,
        Platform::Icllp,
        Platform::Tgllp,
        Platform::Dg2,
    ] {
        let theirs = clinfo(&mut support::neo_command(&clinfo_exe, &neo, p));
        let mine = clinfo(&mut support::command(
            &clinfo_exe,
            &ours,
            &format!("sim:{}", p.name()),
        ));
        for label in ["Platform Vendor", "Device Vendor ", "Device Vendor ID"] {
            assert_eq!(value(&mine, label), value(&theirs, label), "{p}: {label}");
            assert!(value(&mine, label).is_some(), "{p}: no {label}");
        }
        let (my_name, their_name) = (
            value(&mine, "Device Name").unwrap(),
            value(&theirs, "Device Name").unwrap(),
        );
        assert!(my_name.starts_with("Intel(R) "), "{p}: {my_name}");
        assert_eq!(
            pci_id(my_name),
            pci_id(their_name),
            "{p}: {my_name} / {their_name}"
        );
        let platform_name = value(&mine, "Platform Name").unwrap();
        assert!(
            platform_name.contains("intel-gpu-compute"),
            "{p}: {platform_name}"
        );
    }
}
