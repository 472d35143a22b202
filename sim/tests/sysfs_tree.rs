//! The simulated device's sysfs tree read back as a user of a real node reads it: the PCI
//! attributes, the DRM minors, i915's error file and engine properties, xe's per-class
//! timeouts, and discovery through `class/drm`. Expected texts are the Linux 6.12 formats and
//! defaults (pci-sysfs.c, pci_uevent, drm_sysfs.c, i915_sysfs.c, sysfs_engines.c with
//! Kconfig.profile, xe_hw_engine_class_sysfs.c with xe_hw_engine.c and xe's Kconfig.profile).

use std::fs;
use std::path::Path;
use std::sync::Arc;

use kmd_iface::discovery::Driver;
use kmd_iface::gpu_error::{read_capture, CaptureError};
use kmd_iface::seam::DeviceFile;
use platform::Platform;
use sim::{open_device, Kmd, SimConfig};

fn read(p: &Path) -> String {
    fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn pci_device_and_drm_minors_read_like_the_kernels() {
    for (p, k) in [
        (Platform::Skl, Kmd::I915),
        (Platform::Tgllp, Kmd::Xe),
        (Platform::Dg2, Kmd::I915),
    ] {
        let dev = open_device(p, k, SimConfig::default()).unwrap();
        let node = dev.sysfs_dir().to_owned();
        assert_eq!(read(&node.join("dev")), "226:128\n");
        assert!(read(&node.join("uevent")).contains("DEVNAME=dri/renderD128\n"));
        let pci = node.join("device");
        assert_eq!(read(&pci.join("vendor")), "0x8086\n");
        let id = u16::from_str_radix(
            read(&pci.join("device")).trim().strip_prefix("0x").unwrap(),
            16,
        )
        .unwrap();
        // The id is one the kernel's id tables give this platform.
        assert_eq!(
            kmd_iface::pci::platform_for(id).map(|r| r.platform),
            Some(p),
            "{id:#x}"
        );
        assert_eq!(read(&pci.join("class")), "0x030000\n");
        assert_eq!(read(&pci.join("subsystem_vendor")), "0x8086\n");
        assert!(read(&pci.join("revision")).starts_with("0x"));
        let uevent = read(&pci.join("uevent"));
        let driver = if k == Kmd::I915 { "i915" } else { "xe" };
        for want in [
            format!("DRIVER={driver}\n"),
            format!("PCI_ID=8086:{id:04X}\n"),
            "PCI_SLOT_NAME=0000:00:02.0\n".into(),
            "PCI_CLASS=30000\n".into(),
            format!("MODALIAS=pci:v00008086d0000{id:04X}sv00008086sd0000{id:04X}bc03sc00i00\n"),
        ] {
            assert!(uevent.contains(&want), "{want:?} in {uevent}");
        }
        assert!(uevent.contains("PCI_SUBSYS_ID=8086:"));
        assert_eq!(read(&pci.join("drm/card0/dev")), "226:0\n");
        assert_eq!(read(&pci.join("drm/renderD128/dev")), "226:128\n");
        // The /sys/dev/char link and class/drm lead to the same node.
        let root = dev.sysfs().root().to_owned();
        assert_eq!(
            fs::canonicalize(root.join("dev/char/226:128")).unwrap(),
            fs::canonicalize(&node).unwrap()
        );
        // kmd-iface's discovery reads the PCI ids through class/drm.
        let dri = tempfile::tempdir().unwrap();
        fs::write(dri.path().join("renderD128"), "").unwrap();
        let file: Arc<dyn DeviceFile> = dev.clone();
        let found = kmd_iface::discovery::discover_in(dri.path(), &root.join("class/drm"), &|_| {
            Ok(file.clone())
        })
        .unwrap();
        assert_eq!(found.found.len(), 1, "{:?}", found.skipped);
        assert_eq!(found.found[0].device_id, Some(id));
        drop(found);
        drop(file);
        drop(dev);
        assert!(!root.exists(), "the tree outlives its device");
    }
}

#[test]
fn i915_error_file_and_engine_properties() {
    for (p, preempt) in [(Platform::Icllp, "640\n"), (Platform::Tgllp, "7500\n")] {
        let dev = open_device(p, Kmd::I915, SimConfig::default()).unwrap();
        let card = dev.sysfs_dir().join("device/drm/card0");
        assert_eq!(read(&card.join("error")), "No error state collected\n");
        assert!(matches!(
            read_capture(dev.sysfs_dir(), Driver::I915),
            Err(CaptureError::Empty { .. })
        ));
        let rcs = card.join("engine/rcs0");
        for (file, want) in [
            ("name", "rcs0\n"),
            ("class", "0\n"),
            ("instance", "0\n"),
            ("mmio_base", "0x2000\n"),
            ("heartbeat_interval_ms", "2500\n"),
            ("preempt_timeout_ms", preempt),
            ("stop_timeout_ms", "100\n"),
            ("timeslice_duration_ms", "1\n"),
            ("max_busywait_duration_ns", "8000\n"),
            (".defaults/heartbeat_interval_ms", "2500\n"),
            (".defaults/preempt_timeout_ms", preempt),
        ] {
            assert_eq!(read(&rcs.join(file)), want, "{p} {file}");
        }
    }
    // DG2's compute engine.
    let dev = open_device(Platform::Dg2, Kmd::I915, SimConfig::default()).unwrap();
    let ccs = dev.sysfs_dir().join("device/drm/card0/engine/ccs0");
    assert_eq!(read(&ccs.join("class")), "4\n");
    assert_eq!(read(&ccs.join("mmio_base")), "0x1a000\n");
    assert_eq!(read(&ccs.join("preempt_timeout_ms")), "7500\n");
}

#[test]
fn xe_engine_classes_and_no_devcoredump_before_an_error() {
    let dev = open_device(Platform::Dg2, Kmd::Xe, SimConfig::default()).unwrap();
    let pci = dev.sysfs_dir().join("device");
    assert!(!pci.join("devcoredump").exists());
    assert!(!pci.join("drm/card0/error").exists());
    assert!(matches!(
        read_capture(dev.sysfs_dir(), Driver::Xe),
        Err(CaptureError::NotFound(_))
    ));
    for class in ["rcs", "ccs"] {
        let dir = pci.join("tile0/gt0/engines").join(class);
        for (file, want) in [
            ("job_timeout_ms", "5000\n"),
            ("job_timeout_min", "1\n"),
            ("job_timeout_max", "10000\n"),
            ("timeslice_duration_us", "1000\n"),
            ("timeslice_duration_min", "1\n"),
            ("timeslice_duration_max", "10000000\n"),
            ("preempt_timeout_us", "640000\n"),
            ("preempt_timeout_min", "1\n"),
            ("preempt_timeout_max", "10000000\n"),
            (".defaults/job_timeout_ms", "5000\n"),
            (".defaults/preempt_timeout_us", "640000\n"),
        ] {
            assert_eq!(read(&dir.join(file)), want, "{class} {file}");
        }
    }
}
