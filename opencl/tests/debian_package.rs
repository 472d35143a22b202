//! The Debian package (`scripts/build-deb`) installs with apt, works for clients that find it
//! the way every installed ICD is found (the ocl-icd loader reading `/etc/OpenCL/vendors`, no
//! environment pointing at this build), and removes cleanly.
//!
//! It installs on this machine: the test runs as root (CI) and refuses to touch an
//! intel-gpu-compute package it did not install. Built from the dev profile's artifacts, which
//! the rest of the suite builds anyway; `scripts/build-deb` builds release by default.

use std::path::{Path, PathBuf};
use std::process::Command;

use oracles::{require, Oracle};

const PACKAGE: &str = "intel-gpu-compute";
const ICD_FILE: &str = "/etc/OpenCL/vendors/intel-gpu-compute.icd";

fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{text}",
        out.status
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn installed() -> bool {
    Command::new("dpkg-query")
        .args(["-W", "-f=${Status}", PACKAGE])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("ok installed"))
}

/// A command that sees only the installed system: no loader or device overrides from the test
/// environment, the simulated Gen12LP device.
fn clean(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut cmd = Command::new(program);
    for var in [
        "OCL_ICD_VENDORS",
        "OPENCL_VENDOR_PATH",
        "OCL_ICD_FILENAMES",
        "LD_PRELOAD",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("INTEL_GPU_DEVICES", "sim:tgllp");
    cmd
}

const PYOPENCL_PROGRAM: &str = r#"
import numpy as np, pyopencl as cl
platform = [p for p in cl.get_platforms() if "intel-gpu-compute" in p.name][0]
ctx = cl.Context(platform.get_devices())
q = cl.CommandQueue(ctx)
a = np.arange(4096, dtype=np.uint32)
mf = cl.mem_flags
src = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
dst = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
prg = cl.Program(ctx, """
__kernel void k(__global const uint *a, __global uint *b) {
  uint i = get_global_id(0);
  b[i] = a[i] * 3u + 1u;
}""").build()
prg.k(q, a.shape, (64,), src, dst)
out = np.empty_like(a)
cl.enqueue_copy(q, out, dst)
assert (out == a * 3 + 1).all(), "wrong results"
print("pyopencl ok", platform.name)
"#;

#[test]
fn package_installs_works_through_the_system_loader_and_removes_cleanly() {
    let apt = require!(Oracle::PackageInstall);
    let clinfo = require!(Oracle::Clinfo);
    let python = require!(Oracle::PyOpenCl);
    assert!(
        !installed(),
        "{PACKAGE} is already installed on this machine; this test installs and removes it \
         (remove it first: apt-get remove {PACKAGE})"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = tempfile::tempdir().unwrap();
    let deb = PathBuf::from(
        run(Command::new(root.join("scripts/build-deb"))
            .args(["--profile", "dev", "--out"])
            .arg(out.path()))
        .trim(),
    );
    assert!(deb.is_file(), "build-deb printed {deb:?}");

    // What the package holds.
    let contents = run(Command::new("dpkg-deb").arg("--contents").arg(&deb));
    for file in [
        "./etc/OpenCL/vendors/intel-gpu-compute.icd",
        "/intel-gpu-compute/libintel_gpu_opencl.so",
        "/intel-gpu-compute/libintel_gpu_sim_shim.so",
        "./usr/bin/intel-gpu-run",
    ] {
        assert!(
            contents.contains(file),
            "{file} not in the package:\n{contents}"
        );
    }

    run(Command::new(&apt)
        .args(["install", "-y", "--no-install-recommends"])
        .arg(&deb)
        .env("DEBIAN_FRONTEND", "noninteractive"));
    // From here on, remove the package whatever happens.
    struct Remove<'a>(&'a Path);
    impl Drop for Remove<'_> {
        fn drop(&mut self) {
            let _ = Command::new(self.0)
                .args(["purge", "-y", PACKAGE])
                .env("DEBIAN_FRONTEND", "noninteractive")
                .output();
        }
    }
    let guard = Remove(&apt);
    assert!(
        installed(),
        "apt-get installed {deb:?} but dpkg does not list {PACKAGE}"
    );
    let icd = std::fs::read_to_string(ICD_FILE).expect("the package's ICD file");
    assert!(Path::new(icd.trim()).is_file(), "{ICD_FILE} names {icd:?}");

    let platforms = run(clean(&clinfo).arg("-l"));
    assert!(
        platforms.contains("intel-gpu-compute") && platforms.contains("Intel(R) Graphics"),
        "clinfo -l through the system loader:\n{platforms}"
    );
    let py = run(clean(&python).arg("-c").arg(PYOPENCL_PROGRAM));
    assert!(py.contains("pyopencl ok"), "{py}");
    let devices = run(clean("/usr/bin/intel-gpu-run").arg("devices"));
    assert!(
        devices.contains("sim:tgllp"),
        "intel-gpu-run devices:\n{devices}"
    );

    drop(guard);
    assert!(!installed(), "{PACKAGE} still installed after purge");
    for gone in [ICD_FILE, "/usr/bin/intel-gpu-run", icd.trim()] {
        assert!(!Path::new(gone).exists(), "{gone} left behind by purge");
    }
}
