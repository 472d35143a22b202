//! cl_intel_command_queue_families, cl_intel_create_buffer_with_properties,
//! cl_intel_mem_force_host_memory and cl_intel_driver_diagnostics from C (`tests/c/intel_ext.c`):
//! kernels on queues made from every family and index and on the new kinds of buffer, checked
//! against their formula by the program itself; its `= name value` answers (families, error
//! codes, how many hints of each level a buffer's creation delivers) compared with those of
//! Intel's runtime (NEO) running the same program on the same simulated GPU under the simulator
//! shim, and with the extension specifications' text.

use crate::support;

use oracles::{require, Oracle, Platform};

const INTEGRATED: [Platform; 3] = [Platform::Skl, Platform::Icllp, Platform::Tgllp];

/// Where this ICD answers otherwise than NEO 22.43, and why: (platforms, or empty for every
/// one; name; ours; NEO's).
const DIFFERENCES: &[(&[Platform], &str, &str, &str)] = &[
    // cl_intel_command_queue_families: "CL_INVALID_VALUE" (-30) for a family or index out of
    // range or one given without the other; NEO answers CL_INVALID_QUEUE_PROPERTIES (-35).
    (&[], "qf.err.family_out_of_range", "-30", "-35"),
    (&[], "qf.err.index_out_of_range", "-30", "-35"),
    (&[], "qf.err.family_without_index", "-30", "-35"),
    (&[], "qf.err.index_without_family", "-30", "-35"),
    // dg2: NEO lists a family per engine class it submits to (ccs, rcs, and bcs for copies
    // only); here every queue runs kernels on the render engine and copies on the blitter, so
    // there is one family, named after the engine its kernels run on.
    (&[Platform::Dg2], "qf.families", "1", "3"),
    (&[Platform::Dg2], "qf.0.name", "rcs", "ccs"),
    // cl_intel_create_buffer_with_properties: "CL_INVALID_VALUE if a property name in
    // properties is not a supported property name"; NEO answers CL_INVALID_PROPERTY (-64).
    (&[Platform::Dg2], "bwp.err.unknown_property", "-30", "-64"),
    // cl_intel_mem_force_host_memory with CL_MEM_USE_HOST_PTR: CL_INVALID_HOST_PTR (-37) for a
    // host_ptr and CL_INVALID_BUFFER_SIZE (-61) for a size not aligned to the cache line;
    // NEO makes both buffers.
    (&[], "fhm.err.misaligned_host_ptr", "-37", "0"),
    (&[], "fhm.err.size_not_multiple", "-61", "0"),
    // cl_intel_driver_diagnostics: "CL_INVALID_PROPERTY if property
    // CL_CONTEXT_SHOW_DIAGNOSTICS_INTEL is set to a nonzero value and pfn_notify is NULL";
    // NEO makes the context.
    (&[], "diag.err.no_callback", "-64", "0"),
    (&[], "diag.err.no_callback_from_type", "-64", "0"),
    // Hints: a CL_MEM_USE_HOST_PTR buffer here always uses the application's pages in place
    // (umd wraps the pages around any host_ptr), so a misaligned one gets the same good hint
    // as an aligned one and no bad hint of a copy; NEO on integrated parts copies a buffer
    // whose host_ptr or size is not page aligned and says so (one bad hint, and a good one for
    // the allocation).
    (&INTEGRATED, "diag.use_misaligned_ptr.bad", "0", "1"),
    (&INTEGRATED, "diag.use_misaligned_size.bad", "0", "1"),
    // NEO on dg2 allocates device memory for every CL_MEM_USE_HOST_PTR buffer (a good hint for
    // the allocation besides the one for the pointer); here the buffer is the host's pages.
    (&[Platform::Dg2], "diag.use_aligned.good", "1", "2"),
    (&[Platform::Dg2], "diag.use_misaligned_ptr.good", "1", "2"),
    (&[Platform::Dg2], "diag.use_misaligned_size.good", "1", "2"),
    (
        &[Platform::Dg2],
        "diag.use_aligned_good_only.good",
        "1",
        "2",
    ),
    (
        &[Platform::Dg2],
        "diag.use_misaligned_good_only.good",
        "1",
        "2",
    ),
    // A CL_MEM_COPY_HOST_PTR buffer: one hint for its allocation and copy here; NEO adds the
    // host pointer's alignment hint it gives CL_MEM_USE_HOST_PTR buffers.
    (&[], "diag.copy.good", "1", "2"),
];

/// Answers NEO gives that this ICD has no counterpart for: dg2's second and third families.
const NEO_ONLY: &[(Platform, &str)] = &[(Platform::Dg2, "qf.1."), (Platform::Dg2, "qf.2.")];

/// Answers the extension specifications fix, checked on every device.
const SPEC: &[(&str, &str)] = &[
    ("qf.listed", "1"),
    ("qf.small_size", "-30"),
    ("qf.has_default_family", "1"),
    ("qf.every_queue_created_and_named", "1"),
    ("qf.err.family_out_of_range", "-30"),
    ("qf.err.index_out_of_range", "-30"),
    ("qf.err.family_without_index", "-30"),
    ("qf.err.index_without_family", "-30"),
    ("qf.plain_queue_family_is_default", "1"),
    ("qf.plain_queue_index_in_range", "1"),
    ("fhm.listed", "1"),
    ("fhm.create", "0"),
    ("fhm.flags_keep_force", "1"),
    ("fhm.err.sub_buffer", "-30"),
    ("fhm.use_host_ptr", "0"),
    ("fhm.map_is_host_ptr", "1"),
    ("fhm.err.misaligned_host_ptr", "-37"),
    ("fhm.err.size_not_multiple", "-61"),
    ("diag.listed", "1"),
    ("diag.none_asked.good", "0"),
    ("diag.err.no_callback", "-64"),
    ("diag.err.no_callback_from_type", "-64"),
];

/// cl_intel_create_buffer_with_properties' errors, on dg2 where it is listed.
const SPEC_DG2: &[(&str, &str)] = &[
    ("bwp.listed", "1"),
    ("bwp.err.null_context", "-34"),
    ("bwp.err.unknown_property", "-30"),
    ("bwp.err.two_access_flags", "-30"),
    ("bwp.err.size_0", "-61"),
    ("bwp.err.copy_without_host_ptr", "-37"),
    ("bwp.err.host_ptr_without_flag", "-37"),
];

#[test]
fn intel_extensions_client_on_each_simulated_device() {
    let gcc = require!(Oracle::OpenClC);
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "intel_ext");
    for dev in support::c_client_devices() {
        let out = support::run(&mut support::command(&exe, &icd, dev));
        assert!(out.contains(", 0 failed"), "{dev}:\n{out}");
        let a = support::answers(&out);
        let dg2 = dev.starts_with("sim:dg2");
        let spec = SPEC.iter().chain(if dg2 { SPEC_DG2 } else { &[] });
        for (name, want) in spec {
            assert_eq!(
                a.get(*name).map(String::as_str),
                Some(*want),
                "{dev}: {name}\n{out}"
            );
        }
        assert_eq!(a["bwp.listed"], if dg2 { "1" } else { "0" }, "{dev}");
    }
}

#[test]
fn intel_extensions_answers_match_neo() {
    let gcc = require!(Oracle::OpenClC);
    let dir = tempfile::tempdir().unwrap();
    let Some(neo) = support::neo_icd(dir.path(), "NEO's Intel extensions") else {
        return;
    };
    let icd = support::icd();
    let exe = support::compile_c(&gcc, &icd, "intel_ext");
    for p in Platform::ALL {
        let theirs = support::run(&mut support::neo_command(&exe, &neo, p));
        assert!(theirs.contains(", 0 failed"), "NEO on {p}:\n{theirs}");
        let mine = support::run(&mut support::command(
            &exe,
            &icd,
            &format!("sim:{}", p.name()),
        ));
        let (mut m, t) = (support::answers(&mine), support::answers(&theirs));
        assert!(!t.is_empty(), "{p}: NEO printed no answers:\n{theirs}");
        for (on, name, ours, neos) in DIFFERENCES {
            if on.is_empty() || on.contains(&p) {
                assert_eq!(m.get(*name).map(String::as_str), Some(*ours), "{p}: {name}");
                assert_eq!(t.get(*name).map(String::as_str), Some(*neos), "{p}: {name}");
                m.insert(name.to_string(), neos.to_string());
            }
        }
        let neo_only = |k: &str| {
            NEO_ONLY
                .iter()
                .any(|(q, pre)| *q == p && k.starts_with(pre))
        };
        let differ: Vec<String> = t
            .iter()
            .filter(|(k, v)| m.get(*k) != Some(v) && !neo_only(k))
            .map(|(k, v)| format!("{k}: ours {:?}, NEO {v}", m.get(k)))
            .collect();
        assert!(
            differ.is_empty(),
            "{p}: answers differing from NEO's:\n{}",
            differ.join("\n")
        );
        let missing: Vec<&String> = m.keys().filter(|k| !t.contains_key(*k)).collect();
        assert!(
            missing.is_empty(),
            "{p}: NEO gave no answer for {missing:?}"
        );
    }
}
