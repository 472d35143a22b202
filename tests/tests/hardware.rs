//! Hardware-in-loop: the conformance corpus through umd's render-node path — discovery of
//! `/dev/dri`, sysfs PCI ids, real `open`/`ioctl`/`mmap` through kmd-iface — never through an
//! in-process `sim:` device.
//!
//! On a machine with an Intel GPU the test runs on its render node. Without one it runs itself
//! again under the simulator's preload shim (`sim-shim`, `LD_PRELOAD`) for skl and icllp (i915;
//! xe does not drive them), tgllp and dg2 (i915 and xe), each child seeing that GPU as `/dev/dri/renderD128`. By default a
//! slice runs (every [`EVERY`]th instance of each corpus file, at SIMD 8, 16 and 32);
//! `HIL_FULL=1` runs the whole corpus. `CONFORMANCE_FILTER` narrows cases as elsewhere.
//! Before the corpus, a hang and (on xe) a GPU page fault on the same path must be reported from
//! the kernel driver's error capture, with work after each still running ([`faults_and_hangs`]).

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
const UNDER_SHIM: [(&str, Platform, KmdChoice); 6] = [
    ("skl@i915", Platform::Skl, KmdChoice::I915),
    ("icllp@i915", Platform::Icllp, KmdChoice::I915),
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

/// The eot-only kernel of `p` (umd's test data).
fn eot_asm(p: Platform) -> &'static str {
    match p {
        Platform::Skl | Platform::Icllp => include_str!("../../umd/tests/data/eot_gen9.asm"),
        Platform::Tgllp => include_str!("../../umd/tests/data/eot_gen12lp.asm"),
        Platform::Dg2 => include_str!("../../umd/tests/data/eot_xehpg.asm"),
    }
}

/// A kernel that never ends and one that stores outside every mapping, through the render
/// node: umd reports each from the kernel driver's error capture (i915 error state, xe
/// devcoredump; the shim's simulated GPU writes them in those formats), and work after each
/// still runs. A kernel's capture names the faulting page; the simulator's also the byte, the
/// access and the instruction, which are then checked too (`exact`). The stray store faults
/// on xe only (umd's VMs have no scratch page): i915 points every unused PPGTT entry at a
/// scratch page (`gen8_init_scratch`), so there the store lands in it and the kernel completes.
fn faults_and_hangs(ocloc: &std::path::Path, p: Platform, kmd: KmdChoice, exact: bool) {
    use umd::device::{Device, DeviceSpec};
    use umd::error::FaultAccess;
    use umd::kernel::Kernel;
    use umd::ndrange::NdRange;
    use umd::payload::ArgValue;
    use umd::Error;
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let d = Device::open(&DeviceSpec::Auto, Some(kmd), None).expect("the render node opens");
    assert!(
        !d.info().simulated,
        "{}: not the render node",
        d.info().name
    );

    let looping = Kernel::from_asm(
        p,
        include_str!("../../umd/tests/data/endless_loop.asm"),
        8,
        "loop",
    )
    .unwrap();
    let jmpi = oracles::iga64::offsets_of(&iga, p, looping.isa(), |t| t.contains("jmpi")).unwrap();
    let range = NdRange::new(&[8], None, 8, None).unwrap();
    match d.dispatch(&looping, &range, &[]) {
        Err(Error::GpuHang { at, .. }) if !exact || at.map(|a| a.offset) == Some(jmpi[0]) => {}
        other => panic!("{p} {kmd:?} endless kernel: {other:?}"),
    }
    let eot = Kernel::from_asm(p, eot_asm(p), 8, "eot").unwrap();
    d.dispatch(&eot, &range, &[])
        .unwrap_or_else(|e| panic!("{p} {kmd:?} after a hang: {e}"));

    let src = "__attribute__((intel_reqd_sub_group_size(16)))
        kernel void oob(global uint *o) { o[get_global_id(0) + (1u << 26)] = 1; }";
    let bin = oracles::ocloc::compile(
        ocloc,
        p,
        src,
        "-cl-intel-greater-than-4GB-buffer-required",
        Format::PatchTokens,
    )
    .unwrap();
    let heap = &oracles::ocloc::kernel_heaps(ocloc, &bin).unwrap()[0].bytes;
    let stores = oracles::iga64::offsets_of(&iga, p, heap, |t| {
        t.contains("send") && (t.contains("write") || t.contains("store"))
    })
    .unwrap();
    let oob = Kernel::from_ocloc(&bin, None, Some(p)).unwrap();
    let buf = d.create_buffer(64).unwrap();
    let bad = buf.gpu_address() + 4 * (1 << 26);
    let range = NdRange::new(&[16], None, 16, None).unwrap();
    match d.dispatch(&oob, &range, &[ArgValue::Buffer(buf.clone())]) {
        Ok(_) if kmd == KmdChoice::I915 => {}
        Err(Error::GpuFault {
            address,
            access,
            by,
            ..
        }) if kmd == KmdChoice::Xe => {
            assert_eq!(
                address >> 12,
                bad >> 12,
                "{p} {kmd:?}: {address:#x} vs {bad:#x}"
            );
            if exact {
                assert!(
                    (bad..bad + 64).contains(&address),
                    "{address:#x} vs {bad:#x}"
                );
                assert_eq!(access, Some(FaultAccess::Write), "{p} {kmd:?}");
                assert_eq!(by.map(|b| b.offset), Some(stores[0]), "{p} {kmd:?}");
            }
        }
        other => panic!("{p} {kmd:?} out-of-bounds store: {other:?}"),
    }
    let fill = Kernel::from_ocloc(
        &oracles::ocloc::compile(
            ocloc,
            p,
            include_str!("../../intel-gpu-run/examples/fill.cl"),
            "",
            Format::PatchTokens,
        )
        .unwrap(),
        None,
        Some(p),
    )
    .unwrap();
    let args = [
        ArgValue::Buffer(buf.clone()),
        ArgValue::Value(2u32.to_le_bytes().to_vec()),
    ];
    d.dispatch(&fill, &range, &args)
        .unwrap_or_else(|e| panic!("{p} {kmd:?} after a fault: {e}"));
    let mut w = [0u8; 4];
    buf.read(60, &mut w).unwrap();
    assert_eq!(u32::from_le_bytes(w), 30, "{p} {kmd:?}");
    eprintln!(
        "{} {}: hang (and on xe page fault) reported from the capture",
        p.name(),
        kmd.name()
    );
}

fn run_on_node(ocloc: PathBuf, p: Platform, kmd: KmdChoice) {
    faults_and_hangs(&ocloc, p, kmd, std::env::var_os(CHILD).is_some());
    let compiler = Compiler::shared(ocloc);
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
