//! A C program built against the kernel's uAPI headers, run with the shim preloaded on each
//! simulated platform and kernel driver: `/dev/dri` and sysfs as a real machine shows them,
//! stat/open/ioctl/mmap/dup/poll/fork on the node, and a BO the CPU and the GPU both write.

use std::path::{Path, PathBuf};
use std::process::Command;

use oracles::Oracle;
use platform::Platform;

/// The shim library cargo built for this test profile.
fn library() -> PathBuf {
    oracles::workspace::cdylib("sim-shim", "libintel_gpu_sim_shim.so")
}

fn build_client(dir: &Path) -> Option<PathBuf> {
    let gcc = oracles::get(Oracle::OpenClC, "sim-shim preload (gcc)")?;
    let include = oracles::get(Oracle::UapiHeaders, "sim-shim preload (uAPI headers)")?;
    let exe = dir.join("node_client");
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/c/node_client.c");
    let out = Command::new(gcc)
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(include)
        .arg("-o")
        .arg(&exe)
        .arg(src)
        .output()
        .expect("run gcc");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(exe)
}

fn run(exe: &Path, sim: &str, kmd: &str) -> (bool, String) {
    let out = Command::new(exe)
        .arg(kmd)
        .env("LD_PRELOAD", library())
        .env("INTEL_GPU_SIM", sim)
        .output()
        .expect("run client");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn node_client_on_every_platform_and_kmd() {
    let dir = tempfile::tempdir().unwrap();
    let Some(exe) = build_client(dir.path()) else {
        return;
    };
    for (sim, platform, kmd) in [
        ("skl", Platform::Skl, "i915"),
        ("icllp@i915", Platform::Icllp, "i915"),
        ("tgllp@i915", Platform::Tgllp, "i915"),
        ("tgllp@xe", Platform::Tgllp, "xe"),
        ("dg2@i915", Platform::Dg2, "i915"),
        ("dg2@xe", Platform::Dg2, "xe"),
    ] {
        let (ok, text) = run(&exe, sim, kmd);
        assert!(ok && text.contains("all ok"), "{sim}:\n{text}");
        assert!(
            text.contains("ok bo cpu+gpu") || kmd == "xe",
            "{sim}:\n{text}"
        );
        // The PCI id sysfs gives is one the kernel's table assigns to the platform.
        let id = text
            .lines()
            .find_map(|l| l.strip_prefix("sysfs device 0x"))
            .and_then(|h| u16::from_str_radix(h.trim(), 16).ok())
            .unwrap_or_else(|| panic!("{sim}: no PCI id in\n{text}"));
        let pci = kmd_iface::pci::platform_for(id);
        assert_eq!(pci.map(|p| p.platform), Some(platform), "{sim}: {id:#x}");
    }
}

#[test]
fn a_bad_configuration_hides_the_gpu_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let Some(exe) = build_client(dir.path()) else {
        return;
    };
    for (sim, why) in [
        ("skl@xe", "does not support skl"),
        ("gen99", "unknown platform"),
        ("tgllp@amdgpu", "unknown kernel driver"),
    ] {
        let (ok, text) = run(&exe, sim, "i915");
        assert!(!ok, "{sim}: {text}");
        assert!(text.contains(why), "{sim}: {text}");
    }
}
