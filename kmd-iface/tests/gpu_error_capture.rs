//! The GPU error capture parsers on texts laid out by the kernel's own format strings
//! (i915_gpu_error.c, xe_devcoredump.c / xe_hw_engine.c / xe_sched_job.c, xe_gt_pagefault.c,
//! Linux 6.12), on bad and cut-off texts, on random bytes; and finding the capture under a
//! fake sysfs tree.

use std::path::Path;

use kmd_iface::discovery::Driver;
use kmd_iface::gpu_error::{
    capture_path, i915, read_capture, xe, AddressSpace, CaptureError, CaptureSource,
};
use proptest::prelude::*;

/// An i915 error state for a Gen12 render-engine page fault at PPGTT 0x0000_1234_5678_9000.
/// Each line follows a format string of i915_gpu_error.c (values are ours).
fn i915_fault_text() -> String {
    let mut t = String::new();
    // error->error_msg, then "Kernel: %s %s\n", "Time: %lld s %ld us\n".
    t += "GPU HANG: ecode 12:1:85dffffb, in intel-gpu-run [4242]\n";
    t += "Kernel: 6.12.9-amd64 x86_64\n";
    t += "Time: 1732250000 s 12345 us\n";
    t += "PCI ID: 0x9a49\n";
    t += "EIR: 0x00000000\n";
    // "EU_GLOBAL_SIP: 0x%08x\n" is newer than 6.12; extra lines must not matter.
    t += "FORCEWAKE: 0x00000000\n";
    // "FAULT_TLB_DATA: 0x%08x 0x%08x\n" with data1, data0: VA[47:44] = 1, VA[43:12] = 0x23456789.
    t += "FAULT_TLB_DATA: 0x00000001 0x23456789\n";
    // error_print_engine: "%s command stream:\n" and its register lines.
    t += "bcs0 command stream:\n";
    t += "  CCID:  0x00000000\n";
    t += "  ACTHD: 0x00000000 00001000\n";
    t += "  FAULT_REG: 0x00000000\n";
    t += "  hung: 0\n";
    t += "rcs0 command stream:\n";
    t += "  CCID:  0x00800019\n";
    t += "  START: 0x00004000\n";
    t += "  HEAD:  0x00000c10 [0x00000bf8]\n";
    t += "  ACTHD: 0x00000000 00401040\n";
    t += "  IPEHR: 0x18800101\n";
    t += "  batch: [0x00000000_00400000, 0x00000000_00401000]\n";
    t += "  BBADDR: 0x00000000_00401041\n";
    t += "  FAULT_REG: 0x00000001\n";
    t += "  hung: 1\n";
    t += "  engine reset count: 1\n";
    // intel_gpu_error_print_vma: "%s --- %s = 0x%08x %08x\n", then ascii85 pages.
    t += "rcs0 --- batch = 0x00000000 00400000\n";
    t += ":z!!!!!z\n";
    t
}

#[test]
fn i915_fault_names_the_address_engine_batch_and_head() {
    let c = i915::parse(&i915_fault_text()).unwrap();
    assert_eq!(c.source, Some(CaptureSource::I915ErrorState));
    let f = c.fault.expect("fault");
    assert_eq!(f.address, 0x0000_1234_5678_9000);
    assert_eq!(f.space, Some(AddressSpace::Ppgtt));
    assert_eq!(c.engine.as_deref(), Some("rcs0"));
    assert_eq!(c.batch_address, Some(0x40_0000));
    assert_eq!(c.acthd, Some(0x40_1040));
    assert_eq!(
        c.summary.as_deref(),
        Some("GPU HANG: ecode 12:1:85dffffb, in intel-gpu-run [4242]")
    );
}

#[test]
fn i915_hang_without_a_latched_fault_has_no_fault() {
    let text = i915_fault_text().replace("  FAULT_REG: 0x00000001", "  FAULT_REG: 0x00000000");
    let c = i915::parse(&text).unwrap();
    assert_eq!(c.fault, None);
    assert_eq!(c.engine.as_deref(), Some("rcs0"));
}

#[test]
fn i915_ggtt_select_bit_and_object_line_batch() {
    let text = i915_fault_text()
        .replace("0x00000001 0x23456789", "0x00000010 0x00000abc")
        .replace("  batch: [0x00000000_00400000, 0x00000000_00401000]\n", "");
    let st = i915::parse_error_state(&text).unwrap();
    let f = st.fault().unwrap();
    assert_eq!((f.address, f.space), (0xabc000, Some(AddressSpace::Ggtt)));
    // Without the engine's batch range, the `--- batch =` object line gives it.
    assert_eq!(st.capture().batch_address, Some(0x40_0000));
}

#[test]
fn i915_guc_capture_engine_nodes_give_engine_and_head() {
    // intel_guc_capture.c: engine info then one `<REG>:  0x%08x` line per register half.
    let text = i915_fault_text().replace(
        "rcs0 command stream:\n  CCID:  0x00800019\n",
        "    i915-Eng-Name: rcs0 command stream\n    i915-Eng-Inst-Class: 0x00\n\
         \x20     ACTHD:  0x00401040\n      ACTHD_UDW:  0x00000002\n\
         \x20     BBADDR:  0x00401041\n      BBADDR_UDW:  0x00000002\n",
    );
    // Only the GuC node's lines for rcs0 (drop the execlists-style ones of the base text).
    let only_guc = text
        .lines()
        .filter(|l| !l.starts_with("  ACTHD: ") && !l.starts_with("  BBADDR: "))
        .collect::<Vec<_>>()
        .join("\n");
    let st = i915::parse_error_state(&only_guc).unwrap();
    let e = st.engines.iter().find(|e| e.name == "rcs0").unwrap();
    assert_eq!(e.acthd, Some(0x2_0040_1040));
    assert_eq!(e.bbaddr, Some(0x2_0040_1041));
    assert!(st.culprit().is_some_and(|c| c.name == "rcs0"));
}

#[test]
fn i915_bad_and_cut_texts_are_specific_errors() {
    assert!(matches!(i915::parse(""), Err(CaptureError::Empty { .. })));
    assert!(matches!(
        i915::parse("No error state collected\n"),
        Err(CaptureError::Empty { .. })
    ));
    assert!(matches!(
        i915::parse("hello\nworld\n"),
        Err(CaptureError::NotACapture { line: 1, .. })
    ));
    // Cut in the middle of the first ACTHD line (line 10 of the text).
    let text = i915_fault_text();
    let cut = &text[..text.find("  ACTHD: 0x00000000 0000").unwrap() + 24];
    assert!(matches!(
        i915::parse(cut),
        Err(CaptureError::Malformed { line: 10, .. })
    ));
    // Cut before any engine or fault register.
    assert!(matches!(
        i915::parse("GPU HANG: x\nKernel: 6.12\nTime: 1 s 2 us\n"),
        Err(CaptureError::Truncated { .. })
    ));
    let bad = text.replace(
        "FAULT_TLB_DATA: 0x00000001 0x23456789",
        "FAULT_TLB_DATA: 0x1",
    );
    assert!(matches!(
        i915::parse(&bad),
        Err(CaptureError::Malformed { line: 7, .. })
    ));
}

/// A 6.12 xe devcoredump of a hung render job (format strings of xe_devcoredump.c,
/// xe_sched_job.c and xe_hw_engine.c; values ours).
fn xe_dump_text() -> String {
    let mut t = String::new();
    t += "**** Xe Device Coredump ****\n";
    t += "kernel: 6.12.9-amd64\n";
    t += "module: xe\n";
    t += "Snapshot time: 1732250000.000012345\n";
    t += "Uptime: 5000.000000001\n";
    t += "Process: intel-gpu-run\n";
    t += "\n**** GT #0 ****\n";
    t += "\tTile: 0\n";
    t += "\n**** GuC CT ****\n";
    t += "\tCTB read: 0x00000000\n";
    t += "\n**** Job ****\n";
    t += "batch_addr[0]: 0x0000000000200000\n";
    t += "\n**** HW Engines ****\n";
    t += "rcs0 (physical), logical instance=0\n";
    t += "\tForcewake: domain 0x2, ref 1\n";
    t += "\tRING_START: 0x0000000000fee000\n";
    t += "\tACTHD: 0x0000000000200040\n";
    t += "\tBBADDR: 0x0000000000200041\n";
    t += "\tIPEHR: 0x7b000005\n";
    t += "\n**** VM state ****\n";
    t += "[200000].length: 0x1000\n";
    t
}

#[test]
fn xe_devcoredump_names_engine_batch_and_head() {
    let c = xe::parse(&xe_dump_text()).unwrap();
    assert_eq!(c.source, Some(CaptureSource::XeDevcoredump));
    assert_eq!(c.engine.as_deref(), Some("rcs0"));
    assert_eq!(c.batch_address, Some(0x20_0000));
    assert_eq!(c.acthd, Some(0x20_0040));
    assert_eq!(c.summary.as_deref(), Some("intel-gpu-run"));
    assert_eq!(c.fault, None);
}

#[test]
fn xe_guc_capture_register_halves_are_joined() {
    let text = xe_dump_text().replace(
        "\tACTHD: 0x0000000000200040\n",
        "\tCapture_source: GuC\n\tACTHD: 0x00200040\n\tACTHD_UDW: 0x00000001\n",
    );
    let d = xe::parse_devcoredump(&text).unwrap();
    assert_eq!(d.engines[0].acthd, Some(0x1_0020_0040));
}

#[test]
fn xe_bad_and_cut_texts_are_specific_errors() {
    assert!(matches!(xe::parse("\n\n"), Err(CaptureError::Empty { .. })));
    assert!(matches!(
        xe::parse("kernel: 6.12\n"),
        Err(CaptureError::NotACapture { .. })
    ));
    let text = xe_dump_text();
    let cut = &text[..text.find("Process:").unwrap()];
    assert!(matches!(
        xe::parse(cut),
        Err(CaptureError::Truncated { .. })
    ));
    let bad = text.replace(
        "batch_addr[0]: 0x0000000000200000",
        "batch_addr[0]: 0x00002",
    );
    assert!(matches!(
        xe::parse(&bad),
        Err(CaptureError::Malformed { line: 15, .. })
    ));
}

#[test]
fn xe_pagefault_report_from_the_kernel_log() {
    // print_pagefault (xe_gt_pagefault.c): one field per line, after the device prefix.
    let log = "[ 100.1] xe 0000:03:00.0: [drm] GT0: \n\
               \tASID: 126\n\
               \tVFID: 0\n\
               \tPDATA: 0x0450\n\
               \tFaulted Address: 0x0000800400213000\n\
               \tFaultType: 0\n\
               \tAccessType: 1\n\
               \tFaultLevel: 1\n\
               \tEngineClass: 0 rcs\n\
               \tEngineInstance: 0\n\
               [ 100.2] xe 0000:03:00.0: [drm] GT0: Engine reset: engine_class=rcs\n";
    let r = xe::parse_pagefault_log(log).unwrap().unwrap();
    assert_eq!(r.address, 0x0000_8004_0021_3000);
    assert_eq!(r.asid, Some(126));
    assert_eq!(r.write, Some(true));
    assert_eq!(r.engine.as_deref(), Some("rcs0"));
    assert_eq!(xe::parse_pagefault_log("nothing here\n").unwrap(), None);
    assert!(matches!(
        xe::parse_pagefault_log("\tFaulted Address: 0x0000800400\n"),
        Err(CaptureError::Malformed { line: 1, .. })
    ));
    // A dump that carries a report names the fault and its engine.
    let dump = format!(
        "{}\tASID: 3\n\tFaulted Address: 0x00000000dead0000\n",
        xe_dump_text()
    );
    let c = xe::parse(&dump).unwrap();
    assert_eq!(c.fault.unwrap().address, 0xdead_0000);
}

fn touch(p: &Path, text: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

#[test]
fn the_capture_is_found_under_the_render_nodes_sysfs_dir() {
    let root = tempfile::tempdir().unwrap();
    let node = root.path().join("class/drm/renderD128");
    assert!(matches!(
        read_capture(&node, Driver::I915),
        Err(CaptureError::NotFound(_))
    ));
    // i915: the primary node's `error`, reached through the PCI device's drm directory.
    touch(&node.join("device/drm/card1/error"), &i915_fault_text());
    touch(&node.join("device/drm/renderD128/uevent"), "");
    assert!(capture_path(&node, Driver::I915)
        .unwrap()
        .ends_with("card1/error"));
    let c = read_capture(&node, Driver::I915).unwrap();
    assert_eq!(c.fault.unwrap().address, 0x0000_1234_5678_9000);
    // xe: the devcoredump of the PCI device.
    assert!(capture_path(&node, Driver::Xe).is_none());
    touch(&node.join("device/devcoredump/data"), &xe_dump_text());
    assert_eq!(
        read_capture(&node, Driver::Xe).unwrap().batch_address,
        Some(0x20_0000)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn random_text_never_panics(s in "\\PC{0,400}") {
        let _ = i915::parse(&s);
        let _ = xe::parse(&s);
        let _ = xe::parse_pagefault_log(&s);
    }

    /// Real texts cut anywhere, or with one byte changed, give a capture or an error.
    #[test]
    fn cut_and_mutated_texts_never_panic(at in 0usize..2000, byte in any::<u8>()) {
        for text in [i915_fault_text(), xe_dump_text()] {
            let mut b = text.into_bytes();
            let at = at % b.len();
            let cut = String::from_utf8_lossy(&b[..at]).into_owned();
            let _ = i915::parse(&cut);
            let _ = xe::parse(&cut);
            b[at] = byte;
            let m = String::from_utf8_lossy(&b).into_owned();
            let _ = i915::parse(&m);
            let _ = xe::parse(&m);
            let _ = xe::parse_pagefault_log(&m);
        }
    }
}
