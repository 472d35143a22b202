//! The CLI on a render node: under the simulator's preload shim (sim-shim), `devices` lists
//! `/dev/dri/renderD128` with the simulated PCI id, and `run` executes the README's fill kernel
//! on it through real `open`/`ioctl`/`mmap` (no `sim:` device).

use std::path::PathBuf;
use std::process::Command;

/// The shim library cargo built for this test profile.
fn shim_library() -> PathBuf {
    oracles::workspace::cdylib("sim-shim", "libintel_gpu_sim_shim.so")
}

/// The CLI with `args` under the shim showing `sim`.
fn under_shim(sim: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_intel-gpu-run"));
    cmd.args(args)
        .env("LD_PRELOAD", shim_library())
        .env("INTEL_GPU_SIM", sim);
    cmd
}

fn cli(sim: &str, args: &[&str]) -> String {
    let out = under_shim(sim, args).output().expect("run intel-gpu-run");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{args:?} under {sim}: {}\n{stdout}{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn devices_lists_the_simulated_node_with_its_pci_id() {
    // Ids from the kernel's PCI id table (kmd-iface::pci) for the simulated parts.
    for (sim, platform, kmd) in [
        ("skl", "skl", "i915"),
        ("icllp@i915", "icllp", "i915"),
        ("tgllp@xe", "tgllp", "xe"),
        ("dg2@i915", "dg2", "i915"),
    ] {
        let out = cli(sim, &["devices"]);
        let line = out
            .lines()
            .find(|l| l.starts_with("/dev/dri/renderD128"))
            .unwrap_or_else(|| panic!("{sim}: no render node in\n{out}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(&words[1..3], &[platform, kmd], "{line}");
        let id = u16::from_str_radix(words[3].trim_start_matches("0x"), 16).expect("PCI id");
        let pci = kmd_iface::pci::platform_for(id).expect("a known PCI id");
        assert_eq!(pci.platform.name(), platform, "{line}");
    }
}

#[test]
fn run_executes_the_fill_kernel_on_the_node() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.bin");
    let bin = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/fill.tgllp.bin");
    let spec = format!("0={}", out.display());
    let text = cli(
        "tgllp@i915",
        &[
            "run", bin, "--global", "64", "--arg", "buf:256", "--arg", "u32:3", "--out", &spec,
        ],
    );
    assert!(
        text.contains("on /dev/dri/renderD128 (i915, tgllp") && !text.contains("simulated"),
        "{text}"
    );
    let bytes = std::fs::read(&out).unwrap();
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // fill.cl: out[i] = k * i with k = 3.
    assert_eq!(words, (0..64).map(|i| 3 * i).collect::<Vec<u32>>());
}

/// A render node the user may not open (outside group `render`: the shim's
/// `INTEL_GPU_SIM_NODE_ACCESS=denied` answers `EACCES` as the kernel's `crw-rw----` node does)
/// is an error naming the node and the errno; `auto` does not fall back to the simulator.
#[test]
fn auto_on_a_node_that_cannot_be_opened_names_it_and_the_errno() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.bin");
    let bin = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/fill.tgllp.bin");
    let spec = format!("0={}", out.display());
    let o = under_shim(
        "tgllp@i915",
        &[
            "run", bin, "--device", "auto", "--global", "64", "--arg", "buf:256", "--arg", "u32:3",
            "--out", &spec,
        ],
    )
    .env("INTEL_GPU_SIM_NODE_ACCESS", "denied")
    .output()
    .expect("run intel-gpu-run");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!o.status.success(), "{text}");
    assert!(
        text.contains("/dev/dri/renderD128") && text.contains("EACCES"),
        "{text}"
    );
    assert!(!out.exists(), "{text}");
}
