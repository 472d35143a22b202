//! Intel's own OpenCL runtime (NEO 22.43, Debian `intel-opencl-icd`, i915 only) on the
//! simulator through the shim: `clinfo` lists the simulated device, and a PyOpenCL program
//! builds and runs a kernel with correct results. The ocl-icd loader is pointed at NEO alone
//! with `OCL_ICD_VENDORS` naming a `.icd` file; no NEO debug key is set.
//!
//! On dg2 NEO orders its commands by timestamp packets: each MI_SEMAPHORE_WAIT waits for the
//! context-end dword a COMPUTE_WALKER's timestamp post-sync writes (the fidelity list in
//! `firmware-notes/simulator.md` has the history).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use oracles::Oracle;
use platform::Platform;

/// Where Debian's intel-opencl-icd (the package that also ships ocloc) installs NEO.
const NEO: &str = "/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so";

/// The shim library cargo built for this test profile.
fn library() -> PathBuf {
    oracles::workspace::cdylib("sim-shim", "libintel_gpu_sim_shim.so")
}

/// A `.icd` file naming NEO, or None (skipped per the oracle policy) without intel-opencl-icd.
fn neo_icd(dir: &Path, test: &str) -> Option<PathBuf> {
    oracles::get(Oracle::Ocloc, test)?;
    assert!(
        Path::new(NEO).is_file(),
        "{NEO} missing although intel-opencl-icd's ocloc is installed"
    );
    let icd = dir.join("neo.icd");
    std::fs::write(&icd, format!("{NEO}\n")).unwrap();
    Some(icd)
}

fn under_shim(cmd: &mut Command, icd: &Path, p: Platform) -> Output {
    cmd.env("LD_PRELOAD", library())
        .env("INTEL_GPU_SIM", format!("{}@i915", p.name()))
        .env("OCL_ICD_VENDORS", icd)
        .env_remove("NEOReadDebugKeys")
        .output()
        .expect("run under the shim")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn pci_tag(p: Platform) -> String {
    format!("[{:#06x}]", sim::device_info::DeviceInfo::get(p).pci_id)
}

#[test]
fn clinfo_lists_the_simulated_device_through_neo() {
    let dir = tempfile::tempdir().unwrap();
    let Some(icd) = neo_icd(dir.path(), "neo clinfo") else {
        return;
    };
    let Some(clinfo) = oracles::get(Oracle::Clinfo, "neo clinfo") else {
        return;
    };
    for p in [
        Platform::Skl,
        Platform::Icllp,
        Platform::Tgllp,
        Platform::Dg2,
    ] {
        let o = under_shim(Command::new(&clinfo).arg("-l"), &icd, p);
        let t = text(&o);
        assert!(o.status.success(), "{p}: {t}");
        // NEO names the device by the PCI id it read through GETPARAM CHIPSET_ID.
        assert!(
            t.contains("Intel(R) OpenCL") && t.contains(&pci_tag(p)),
            "{p}: {t}"
        );
    }
}

/// The line `name` clinfo prints, its value trimmed.
fn field<'a>(out: &'a str, name: &str) -> Option<&'a str> {
    out.lines()
        .find_map(|l| l.trim_start().strip_prefix(name).map(str::trim))
}

/// What NEO reads from the kernel driver to size the device, reported back as the simulated
/// device's own: the maximum clock from sysfs (`gt_max_freq_mhz`, the device's RP0), the L3 on
/// dg2 from the GuC hardware-configuration table (bank size × Xe-cores; the other platforms'
/// come from NEO's own device tables), and on dg2, whose PCI revision is a retail stepping,
/// work-groups of 1024 (16 EUs × 8 threads × SIMD8: NEO limits A0 steppings to 64 threads).
#[test]
fn neo_sizes_the_device_from_what_the_simulator_reports() {
    let dir = tempfile::tempdir().unwrap();
    let Some(icd) = neo_icd(dir.path(), "neo device sizes") else {
        return;
    };
    let Some(clinfo) = oracles::get(Oracle::Clinfo, "neo device sizes") else {
        return;
    };
    for p in Platform::ALL {
        let info = sim::device_info::DeviceInfo::get(p);
        let o = under_shim(&mut Command::new(&clinfo), &icd, p);
        let t = text(&o);
        assert!(o.status.success(), "{p}: {t}");
        let mhz = format!("{}MHz", info.max_freq_mhz);
        assert_eq!(field(&t, "Max clock frequency"), Some(&mhz[..]), "{p}");
        let cache: u64 = field(&t, "Global Memory cache size")
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or_else(|| panic!("{p}: no cache size in {t}"));
        assert_ne!(cache, 0, "{p}");
        if p == Platform::Dg2 {
            let attrs = kmd_iface::hwconfig::parse_hwconfig(&info.hwconfig_blob()).unwrap();
            assert_eq!(Some(cache), kmd_iface::hwconfig::l3_bytes(&attrs), "{p}");
            assert_eq!(field(&t, "Max work group size"), Some("1024"), "{p}");
        }
    }
}

#[test]
fn pyopencl_kernel_runs_correctly_through_neo() {
    let dir = tempfile::tempdir().unwrap();
    let Some(icd) = neo_icd(dir.path(), "neo pyopencl") else {
        return;
    };
    let Some(python) = oracles::get(Oracle::PyOpenCl, "neo pyopencl") else {
        return;
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/py/neo_kernel.py");
    for p in Platform::ALL {
        let o = under_shim(Command::new(&python).arg(script), &icd, p);
        let t = text(&o);
        assert!(o.status.success(), "{p}: {t}");
        assert!(t.contains("ok ") && t.contains(&pci_tag(p)), "{p}: {t}");
    }
}

/// Images through NEO (`py/neo_image.py`): a 150 × 70 RGBA8 image's transfers (created from
/// host memory, clEnqueueWriteImage, read back), sampler reads (`read_imageui`, `read_imagef`
/// of UNORM_INT8) and typed writes (`write_imageui`), each checked against numpy, on skl,
/// icllp, tgllp and dg2. Run twice: as NEO lays images out by default (tiled: GmmLib picks Tile-Y
/// before Xe-HPG, Tile-64 on dg2, where NEO copies with XY_BLOCK_COPY_BLT) and with its debug key
/// `ForceLinearImages=1` (read because `NEOReadDebugKeys=1`).
#[test]
fn images_through_neo_are_exact_tiled_and_linear() {
    let dir = tempfile::tempdir().unwrap();
    let Some(icd) = neo_icd(dir.path(), "neo images") else {
        return;
    };
    let Some(python) = oracles::get(Oracle::PyOpenCl, "neo images") else {
        return;
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/py/neo_image.py");
    let checks = [
        "copy_host_ptr",
        "write_image",
        "read_imageui",
        "read_imagef",
        "write_imageui",
    ];
    for p in Platform::ALL {
        for linear in [false, true] {
            let mut cmd = Command::new(&python);
            cmd.arg(script);
            if linear {
                cmd.env("NEOReadDebugKeys", "1")
                    .env("ForceLinearImages", "1");
            } else {
                cmd.env_remove("NEOReadDebugKeys");
            }
            let o = cmd
                .env("LD_PRELOAD", library())
                .env("INTEL_GPU_SIM", format!("{}@i915", p.name()))
                .env("OCL_ICD_VENDORS", &icd)
                .output()
                .expect("run under the shim");
            let t = text(&o);
            assert!(o.status.success(), "{p} linear={linear}: {t}");
            for c in checks {
                assert!(
                    t.contains(&format!("ok   {c}\n")),
                    "{p} linear={linear}: {c}: {t}"
                );
            }
        }
    }
}

/// 2D-array and 3D images through NEO (`py/neo_image_slices.py`): 45 × 37 × 6 images of 1-,
/// 4-, 8- and 16-byte pixels written whole, read back whole and as a region at an offset,
/// written as a region at an offset, and copied image to image between offsets, each checked
/// against numpy per OpenCL 3.0 §5.3.3–5.3.4; then kernels on the slices: `read_imageui` of
/// each kind and `write_imageui` of a 2D array, so transfers and the data port must agree on
/// where each slice lies. On dg2 NEO lays both out in Tile-64, 3D images in its volume tiles
/// (slices in slabs a tile deep, QPitch rows apart), and moves slices of both with
/// XY_BLOCK_COPY_BLT by Array Index and QPitch.
#[test]
fn array_and_3d_image_transfers_through_neo_are_exact() {
    let dir = tempfile::tempdir().unwrap();
    let Some(icd) = neo_icd(dir.path(), "neo image slices") else {
        return;
    };
    let Some(python) = oracles::get(Oracle::PyOpenCl, "neo image slices") else {
        return;
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/py/neo_image_slices.py");
    let formats = ["r8ui", "rgba8ui", "rgba16ui", "rgba32ui"];
    let checks = ["write_read", "read_region", "write_region", "copy_image"];
    let kinds = ["array", "3d"];
    for p in Platform::ALL {
        let o = under_shim(Command::new(&python).arg(script).args(kinds), &icd, p);
        let t = text(&o);
        assert!(o.status.success(), "{p}: {t}");
        for kind in kinds {
            let kernels = if kind == "array" {
                &["read_imageui", "write_imageui"][..]
            } else {
                &["read_imageui"][..]
            };
            let lines = formats
                .iter()
                .flat_map(|f| checks.iter().map(move |c| format!("{kind} {f} {c}")))
                .chain(kernels.iter().map(|c| format!("{kind} rgba8ui {c}")));
            for line in lines {
                assert!(t.contains(&format!("ok   {line}\n")), "{p}: {line}: {t}");
            }
        }
    }
}

/// A kernel that never ends, through NEO (`py/neo_hang.py`): the simulator's hang detection
/// ends it, bans the context and, as i915 does, answers NEO's GEM_WAIT with 0; NEO finds the
/// hang in the context's reset stats (`GET_RESET_STATS`, batch_active) and clFinish returns
/// CL_OUT_OF_RESOURCES, as on hardware, instead of NEO aborting on a failed wait.
#[test]
fn a_hang_reaches_neo_as_out_of_resources() {
    let dir = tempfile::tempdir().unwrap();
    let Some(icd) = neo_icd(dir.path(), "neo hang") else {
        return;
    };
    let Some(python) = oracles::get(Oracle::PyOpenCl, "neo hang") else {
        return;
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/py/neo_hang.py");
    for p in Platform::ALL {
        let o = under_shim(
            Command::new(&python).arg(script).current_dir(dir.path()),
            &icd,
            p,
        );
        let t = text(&o);
        assert!(o.status.success(), "{p}: {t}");
        assert!(
            t.contains("hang reported:") && t.contains("OUT_OF_RESOURCES"),
            "{p}: {t}"
        );
    }
}
