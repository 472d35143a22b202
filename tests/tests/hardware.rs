//! Hardware-in-loop: the conformance corpus through umd's render-node path — discovery of
//! `/dev/dri`, sysfs PCI ids, real `open`/`ioctl`/`mmap` through kmd-iface — never through an
//! in-process `sim:` device.
//!
//! On a machine with an Intel GPU the test runs on its render node. Without one it runs itself
//! again under the simulator's preload shim (`sim-shim`, `LD_PRELOAD`) for skl (i915), tgllp
//! and dg2 (i915 and xe), each child seeing that GPU as `/dev/dri/renderD128`. By default a
//! slice runs (every [`EVERY`]th instance of each corpus file, at SIMD 8, 16 and 32);
//! `HIL_FULL=1` runs the whole corpus. `CONFORMANCE_FILTER` narrows cases as elsewhere.

use std::path::PathBuf;
use std::process::Command;

use conformance::compile::Compiler;
use conformance::runner::{Runner, Umd, Via};
use oracles::ocloc::Format;
use platform::Platform;
use umd::device::KmdChoice;

/// The child's marker: the `INTEL_GPU_SIM` value it runs under.
const CHILD: &str = "CONFORMANCE_HIL_CHILD";

/// Every how many instances of a file the default slice takes.
const EVERY: usize = 8;

/// What runs under the shim when there is no Intel GPU.
const UNDER_SHIM: [(&str, Platform, KmdChoice); 5] = [
    ("skl@i915", Platform::Skl, KmdChoice::I915),
    ("tgllp@i915", Platform::Tgllp, KmdChoice::I915),
    ("tgllp@xe", Platform::Tgllp, KmdChoice::Xe),
    ("dg2@i915", Platform::Dg2, KmdChoice::I915),
    ("dg2@xe", Platform::Dg2, KmdChoice::Xe),
];

fn files() -> Vec<conformance::corpus::File> {
    let mut files = conformance::corpus::files().expect("the corpus parses");
    if std::env::var_os("HIL_FULL").is_none() {
        for f in &mut files {
            f.instances = std::mem::take(&mut f.instances)
                .into_iter()
                .step_by(EVERY)
                .collect();
        }
    }
    files
}

fn run_on_node(ocloc: PathBuf, p: Platform, kmd: KmdChoice) {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let compiler = Compiler::new(ocloc, &tmp.join("conformance-cache"));
    let work = tempfile::tempdir().unwrap();
    let report = conformance::suite::run_files(
        p,
        &compiler,
        Format::PatchTokens,
        1,
        work.path(),
        &files(),
        &|| Umd::via(p, kmd, Via::Node).map(|u| Box::new(u) as Box<dyn Runner>),
    );
    report.finish(&format!(
        "{} {} via the render node{}",
        p.name(),
        kmd.name(),
        if std::env::var_os("HIL_FULL").is_some() {
            ""
        } else {
            " (slice)"
        }
    ));
}

/// The shim library cargo built for this test profile.
fn shim_library() -> PathBuf {
    oracles::workspace::cdylib("sim-shim", "libintel_gpu_sim_shim.so")
}

#[test]
fn render_node() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let nodes: Vec<umd::device::Listed> = umd::device::list()
        .into_iter()
        .filter(|l| !l.simulated)
        .collect();
    if let Ok(sim) = std::env::var(CHILD) {
        let (_, p, kmd) = UNDER_SHIM
            .iter()
            .find(|(s, ..)| *s == sim)
            .unwrap_or_else(|| panic!("{CHILD}={sim}: not one of the shim runs"));
        let node = nodes.first().expect("the shim's render node is listed");
        assert_eq!(
            (node.platform, node.kmds.as_slice()),
            (Some(*p), [*kmd].as_slice()),
            "{node:?}"
        );
        run_on_node(ocloc, *p, *kmd);
        return;
    }
    if let Some(node) = nodes.first() {
        let p = node
            .platform
            .unwrap_or_else(|| panic!("{}: not a supported platform", node.name));
        run_on_node(ocloc, p, node.kmds[0]);
        return;
    }
    let shim = shim_library();
    let exe = std::env::current_exe().expect("test binary path");
    let mut failed = Vec::new();
    for (sim, ..) in UNDER_SHIM {
        let out = Command::new(&exe)
            .args(["render_node", "--exact", "--nocapture", "--test-threads=1"])
            .env("LD_PRELOAD", &shim)
            .env("INTEL_GPU_SIM", sim)
            .env(CHILD, sim)
            .output()
            .expect("run the test under the shim");
        let stderr = String::from_utf8_lossy(&out.stderr);
        eprintln!("under INTEL_GPU_SIM={sim}:\n{stderr}");
        if !out.status.success() {
            failed.push(format!("{sim}: {}", out.status));
        }
    }
    assert!(failed.is_empty(), "failed under the shim: {failed:?}");
}
