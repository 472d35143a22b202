//! clinfo (through Debian's ocl-icd loader) on every simulated device: one platform, the
//! device, every query answered without an error, and the extension list matching what
//! Intel's compiler (the ocloc oracle) defines for that device.

use crate::support;

use oracles::{require, Oracle, Platform};

/// Whether ocloc defines the OpenCL C macro `name` when compiling for `p`.
fn ocloc_defines(ocloc: &std::path::Path, p: Platform, name: &str) -> bool {
    let src = format!("#ifndef {name}\n#error {name} is not defined\n#endif\nkernel void k(global int* p) {{ p[0] = 1; }}\n");
    oracles::ocloc::compile(
        ocloc,
        p,
        &src,
        "-cl-std=CL2.0",
        oracles::ocloc::Format::PatchTokens,
    )
    .is_ok()
}

/// The lines clinfo prints for a failed query.
fn error_lines(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| {
            let l = l.to_ascii_lowercase();
            l.contains("<error")
                || l.contains("error -")
                || l.contains("invalid")
                || l.contains("failed")
        })
        .collect()
}

fn field<'a>(out: &'a str, name: &str) -> Option<&'a str> {
    out.lines()
        .find_map(|l| l.trim_start().strip_prefix(name).map(str::trim))
}

/// The `n` lines clinfo prints under the heading `name` (e.g. the SVM, global and local
/// lines under "Preferred alignment for atomics"), spaces squeezed.
fn section(out: &str, name: &str, n: usize) -> Vec<String> {
    out.lines()
        .skip_while(|l| !l.trim_start().starts_with(name))
        .skip(1)
        .take(n)
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn clinfo_on_each_simulated_device() {
    let clinfo = require!(Oracle::Clinfo);
    let ocloc = require!(Oracle::Ocloc);
    let icd = support::icd();
    for dev in support::SIM_DEVICES {
        let p: Platform = dev.trim_start_matches("sim:").parse().unwrap();
        let out = support::run(&mut support::command(&clinfo, &icd, dev));
        assert_eq!(error_lines(&out), Vec::<&str>::new(), "{dev}:\n{out}");
        assert_eq!(
            field(&out, "Number of platforms"),
            Some("1"),
            "{dev}:\n{out}"
        );
        assert_eq!(field(&out, "Number of devices"), Some("1"), "{dev}:\n{out}");
        let name = field(&out, "Device Name").unwrap();
        assert!(
            name.contains("simulated") && name.contains(dev),
            "{dev}: {name}"
        );
        assert_eq!(
            field(&out, "Sub-group sizes (Intel)"),
            Some("8, 16, 32"),
            "{dev}"
        );
        assert_eq!(
            field(&out, "Device Version"),
            Some("OpenCL 3.0 intel-gpu-compute")
        );
        // clinfo builds a kernel to ask its preferred work-group multiple: a SIMD width.
        let multiple = field(&out, "Preferred work group size multiple (kernel)").unwrap();
        assert!(["8", "16", "32"].contains(&multiple), "{dev}: {multiple}");
        let exts: Vec<&str> = field(&out, "Device Extensions")
            .unwrap()
            .split_whitespace()
            .collect();
        // fp64 exactly where Intel's compiler has it.
        assert_eq!(
            exts.contains(&"cl_khr_fp64"),
            ocloc_defines(&ocloc, p, "cl_khr_fp64"),
            "{dev}: cl_khr_fp64 in {exts:?}"
        );
        // Every OpenCL C extension listed is one ocloc defines for the device. The API-only
        // extensions have no OpenCL C macro: ocloc defines none for them even when asked with
        // `-cl-ext=+cl_khr_image2d_from_buffer`. (It does define the API-only
        // cl_khr_device_uuid, cl_intel_device_attribute_query and
        // cl_khr_suggested_local_work_size, which are in NEO's fixed list it shares; NEO adds
        // cl_khr_pci_bus_info at run time, for a device whose PCI address it found.)
        const API_ONLY: [&str; 5] = [
            "cl_khr_il_program",
            "cl_intel_spirv_subgroups",
            "cl_khr_image2d_from_buffer",
            "cl_khr_pci_bus_info",
            "cl_intel_create_buffer_with_properties",
        ];
        // Extensions NEO names to its compiler per device at run time (`-cl-ext=+…` internal
        // options, as this runtime does for all): ocloc alone does not define them. That NEO
        // lists each on the same platform is checked by
        // `device_identity_and_attributes_match_neo_on_every_platform`.
        const RUNTIME_NAMED: [&str; 9] = [
            "cl_intel_media_block_io",
            "cl_intel_subgroup_local_block_io",
            "cl_intel_dot_accumulate",
            "cl_intel_bfloat16_conversions",
            "cl_intel_unified_shared_memory",
            "cl_khr_mipmap_image",
            "cl_khr_mipmap_image_writes",
            "cl_intel_subgroup_matrix_multiply_accumulate",
            "cl_intel_subgroup_split_matrix_multiply_accumulate",
        ];
        for e in exts
            .iter()
            .filter(|e| !API_ONLY.contains(e) && !RUNTIME_NAMED.contains(e))
        {
            assert!(
                ocloc_defines(&ocloc, p, e),
                "{dev}: {e} listed but ocloc does not define it"
            );
        }
    }
}

#[test]
fn clinfo_lists_every_device_of_the_variable_and_loads_through_a_vendors_directory() {
    let clinfo = require!(Oracle::Clinfo);
    let icd = support::icd();
    let list = "sim:skl,sim:tgllp@xe,sim:dg2@i915";
    let mut cmd = support::command(&clinfo, &icd, list);
    // OCL_ICD_VENDORS naming the directory instead of the file.
    cmd.env("OCL_ICD_VENDORS", icd.dir.path());
    let out = support::run(&mut cmd);
    assert_eq!(error_lines(&out), Vec::<&str>::new(), "{out}");
    assert_eq!(field(&out, "Number of devices"), Some("3"), "{out}");
    let names: Vec<&str> = out
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("Device Name").map(str::trim))
        .collect();
    for want in ["sim:skl, i915", "sim:tgllp, xe", "sim:dg2, i915"] {
        assert!(
            names.iter().any(|n| n.contains(want)),
            "{want} not in {names:?}"
        );
    }
}

#[test]
fn bad_device_entries_are_skipped_with_a_reason() {
    let clinfo = require!(Oracle::Clinfo);
    let icd = support::icd();
    // xe does not drive Gen9 (the simulator offers i915 only there), and `sim:nope` is no device.
    let mut cmd = support::command(&clinfo, &icd, "sim:skl@xe,sim:nope,sim:icllp");
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(field(&stdout, "Number of devices"), Some("1"), "{stdout}");
    assert!(
        stderr.contains("sim:skl@xe") && stderr.contains("sim:nope"),
        "{stderr}"
    );
}

/// The extensions whose queries say what the device is (cl_khr_device_uuid, cl_khr_pci_bus_info,
/// cl_intel_device_attribute_query) and cl_khr_suggested_local_work_size, against Intel's
/// runtime (NEO, Debian's intel-opencl-icd) on the same simulated GPU under the simulator shim,
/// both read by clinfo: every extension listed here is one NEO lists on the same platform; these
/// are listed on every platform where NEO lists them, and every value
/// that is a property of the device (PCI ids and address, IP version, topology, feature flags,
/// the UUID NEO builds from them, the maximum clock and L3 size, the work-group limits NEO
/// derives from the topology and stepping, the single-precision config and the preferred
/// atomic alignments) equals NEO's. The driver UUID legitimately differs (each
/// driver's own version text); the LUID is undefined on Linux (NEO's bytes are whatever its
/// stack held), so only its validity is compared.
#[test]
fn device_identity_and_attributes_match_neo_on_every_platform() {
    let dir = tempfile::tempdir().unwrap();
    let Some(neo) = support::neo_icd(dir.path(), "NEO device attributes") else {
        return;
    };
    let clinfo = require!(Oracle::Clinfo);
    let icd = support::icd();
    const SAME: [&str; 15] = [
        // What the kernel driver reports the device to be (sysfs, the hwconfig table, the
        // topology, the PCI revision), or each runtime's table of the part.
        "Max clock frequency",
        "Global Memory cache size",
        "Max work group size",
        "Preferred work group size multiple (device)",
        "Max sub-groups per work group",
        "Device UUID",
        "Valid Device LUID",
        "Device PCI bus info (KHR)",
        "Device IP (Intel)",
        "Device ID (Intel)",
        "Slices (Intel)",
        "Sub-slices per slice (Intel)",
        "EUs per sub-slice (Intel)",
        "Threads per EU (Intel)",
        "Feature capabilities (Intel)",
    ];
    const EXTENSIONS: [&str; 5] = [
        "cl_khr_device_uuid",
        "cl_khr_pci_bus_info",
        "cl_intel_device_attribute_query",
        "cl_khr_suggested_local_work_size",
        "cl_intel_accelerator",
    ];
    // What NEO lists on every platform and this runtime leaves out, each for a reason the
    // opencl README gives ("What the ICD provides"): a compiler without the functions' bodies,
    // no VA-API sharing, and a query extension whose functions exist only with a sharing
    // extension.
    const NEO_ONLY: [&str; 3] = [
        "cl_intel_split_work_group_barrier",
        "cl_intel_va_api_media_sharing",
        "cl_intel_sharing_format_query",
    ];
    // NEO lists these where its hardware table has VME (skl, icllp): built-in kernels on the
    // media sampler's motion-estimation engine, which neither umd nor the simulator has.
    const NEO_VME: [&str; 4] = [
        "cl_intel_motion_estimation",
        "cl_intel_advanced_motion_estimation",
        "cl_intel_device_side_avc_motion_estimation",
        "cl_intel_spirv_device_side_avc_motion_estimation",
    ];
    for p in [
        Platform::Skl,
        Platform::Icllp,
        Platform::Tgllp,
        Platform::Dg2,
    ] {
        let theirs = support::run(&mut support::neo_command(&clinfo, &neo, p));
        let mine = support::run(&mut support::command(
            &clinfo,
            &icd,
            &format!("sim:{}", p.name()),
        ));
        let exts = |out: &str| -> Vec<String> {
            field(out, "Device Extensions")
                .unwrap_or_default()
                .split_whitespace()
                .map(String::from)
                .collect()
        };
        let (my_exts, their_exts) = (exts(&mine), exts(&theirs));
        // Extension parity: nothing is listed here that Intel's runtime does not list on the
        // same platform, and everything it lists is listed here but for the reasons above.
        for e in &my_exts {
            assert!(
                their_exts.contains(e),
                "{p}: {e} is listed here but not by NEO ({their_exts:?})"
            );
        }
        let vme = matches!(p, Platform::Skl | Platform::Icllp);
        let missing: Vec<&String> = their_exts
            .iter()
            .filter(|e| {
                let reason = NEO_ONLY.contains(&e.as_str()) || vme && NEO_VME.contains(&e.as_str());
                !reason && !my_exts.contains(e)
            })
            .collect();
        assert!(
            missing.is_empty(),
            "{p}: NEO lists {missing:?}, this ICD does not"
        );
        for e in NEO_ONLY.iter().chain(NEO_VME.iter().filter(|_| vme)) {
            assert!(their_exts.iter().any(|x| x == e), "{p}: NEO lacks {e}");
            assert!(!my_exts.iter().any(|x| x == e), "{p}: {e} listed here");
        }
        for e in NEO_VME {
            assert_eq!(their_exts.iter().any(|x| x == e), vme, "{p}: NEO and {e}");
        }
        for e in EXTENSIONS {
            assert!(their_exts.iter().any(|x| x == e), "{p}: NEO lacks {e}");
            assert!(
                my_exts.iter().any(|x| x == e),
                "{p}: {e} not in {my_exts:?}"
            );
        }
        for label in SAME {
            let (m, t) = (field(&mine, label), field(&theirs, label));
            assert!(t.is_some(), "{p}: NEO's clinfo shows no {label}:\n{theirs}");
            assert_eq!(m, t, "{p}: {label}, ours (left) against NEO's (right)");
        }
        // The first seven lines: the eighth, correctly rounded divide and sqrt, NEO ties to
        // 64-bit math (`ftrSupports64BitMath`, not on icllp) while this runtime has it on
        // every platform (`umd --test integration ieee_div_sqrt_sim::`).
        assert_eq!(
            section(&mine, "Single-precision Floating-point support", 7),
            section(&theirs, "Single-precision Floating-point support", 7),
            "{p}: single-precision config, ours (left) against NEO's (right)"
        );
        assert_eq!(
            section(&mine, "Preferred alignment for atomics", 3),
            section(&theirs, "Preferred alignment for atomics", 3),
            "{p}: preferred atomic alignments, ours (left) against NEO's (right)"
        );
        // The driver UUID: this driver's version text, NUL-padded (NEO does the same with its
        // own version). clinfo prints the 16 bytes as 8-4-4-4-12 hex digits.
        let driver_uuid: String = field(&mine, "Driver UUID")
            .unwrap()
            .chars()
            .filter(|c| *c != '-')
            .collect();
        let mut want = env!("CARGO_PKG_VERSION").as_bytes().to_vec();
        want.resize(16, 0);
        let want: String = want.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(driver_uuid, want, "{p}: driver UUID");
    }
}

/// Two devices of the same PCI id (the same simulated GPU under i915 and xe) get different
/// UUIDs: the UUID carries the device's index in the platform, as NEO's carries its root
/// device index.
#[test]
fn device_uuids_differ_between_devices_of_one_pci_id() {
    let clinfo = require!(Oracle::Clinfo);
    let icd = support::icd();
    let out = support::run(&mut support::command(
        &clinfo,
        &icd,
        "sim:tgllp,sim:tgllp@xe",
    ));
    let uuids: Vec<&str> = out
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("Device UUID").map(str::trim))
        .collect();
    assert_eq!(uuids.len(), 2, "{out}");
    assert_ne!(uuids[0], uuids[1], "{out}");
    assert!(
        uuids.iter().all(|u| u.starts_with("86800000-499a-0000-")),
        "{uuids:?}"
    );
}
