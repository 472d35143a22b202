//! Test support for checking this project against tools nobody here wrote: finds iga64, ocloc, the
//! uAPI headers, NEO.
//! Start reading: `require!` and `Oracle` (the skip/require policy below).
//!
//! Policy: an oracle is looked up on `PATH` and at its Debian path. When it is missing:
//! - with `ORACLES=required` (set by `scripts/test` and CI) the test fails;
//! - otherwise the test is skipped, and the reason is written straight to the process's stderr
//!   (past libtest's output capture), so a skip is never silent.
//!
//! Use [`require!`] at the top of a test: it yields the oracle's path or returns from the test.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

pub mod cache;
pub mod iga64;
pub mod ocloc;
pub mod workspace;

pub use platform::Platform;

/// An external tool or file tests compare against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Oracle {
    /// Intel's EU assembler/disassembler (Debian `libigc-tools`).
    Iga64,
    /// Intel's offline OpenCL compiler (Debian `intel-opencl-icd`).
    Ocloc,
    /// The kernel's DRM uAPI headers `drm/i915_drm.h` and `drm/xe_drm.h` (Debian `linux-libc-dev`
    /// 6.12 from bookworm-backports). The path found is the include directory holding `drm/`.
    UapiHeaders,
    /// `clinfo`, which queries an OpenCL platform through the ocl-icd loader.
    Clinfo,
    /// Debian's `/usr/bin/python3` with PyOpenCL importable.
    PyOpenCl,
    /// The same python3 with pytest and pytest-timeout too, which run PyOpenCL's own test suite
    /// (vendored under `third_party/pyopencl-tests/`).
    PyOpenClPytest,
    /// gcc with the Khronos OpenCL headers and the ocl-icd loader to link against.
    OpenClC,
    /// cmake and g++, which build Khronos' OpenCL-CTS (vendored under `third_party/`), and the
    /// ocl-icd loader it links against. The path found is cmake's.
    CtsBuild,
    /// Debian's clang 15 and llvm-as 15 (packages clang-15, llvm-15): OpenCL C to LLVM IR for
    /// `ocloc -llvm_input`, to carry kernel metadata the OpenCL C front end has no attribute
    /// for. The path found is clang-15's; llvm-as-15 is beside it.
    ClangLlvm,
    /// spirv-as (SPIR-V assembler) with spirv-val, for SPIR-V modules written as text.
    SpirvAs,
    /// IGT's tools (Debian `intel-gpu-tools`): `intel_gem_info` and the benchmark binaries. The
    /// path found is the benchmarks' directory.
    Igt,
    /// hashcat (Debian `hashcat`), a real OpenCL application that takes Intel-specific paths
    /// by the platform's vendor string.
    Hashcat,
    /// Debian's `/usr/bin/python3` with OpenCV's Python module (`python3-opencv`), whose
    /// OpenCL paths (image processing, core arithmetic, DNN's ocl4dnn) run on the device.
    OpenCv,
    /// gcc with CLBlast's C API and library (Debian `libclblast-dev`), the tuned OpenCL BLAS.
    /// The path found is gcc's.
    ClBlast,
    /// CLBlast's own programs (Debian `clblast-tests` and `clblast-utils`): a correctness test
    /// per BLAS routine, `clblast_test_x<routine>`, and the kernel tuners, `clblast_tuner_<kernel>`,
    /// which check every configuration they time against a reference run. The path found is
    /// the directory holding them.
    ClBlastPrograms,
    /// The workspace's `.venv-apps/bin/python` (made by `scripts/setup-apps`, never by a test)
    /// with the pinned openvino, onnx and numpy of `tests/apps/requirements.txt` importable.
    OpenVino,
    /// apt-get and dpkg-deb, run as root: a test builds the Debian package, installs it on this
    /// machine and removes it again. The path found is apt-get's.
    PackageInstall,
    /// Oclgrind (Debian `oclgrind`), the OpenCL device simulator whose `--check-api` the
    /// sanitizer's `api` check is compared with.
    Oclgrind,
    /// PoCL's CPU device (Debian `pocl-opencl-icd`), a second OpenCL implementation to compare
    /// results with. The path found is its vendor file.
    Pocl,
}

impl Oracle {
    fn describe(self) -> &'static str {
        match self {
            Oracle::Iga64 => "iga64 (Debian package libigc-tools)",
            Oracle::Ocloc => "ocloc (Debian package intel-opencl-icd)",
            Oracle::UapiHeaders => {
                "drm/i915_drm.h and drm/xe_drm.h (linux-libc-dev 6.12 from bookworm-backports)"
            }
            Oracle::Clinfo => "clinfo (Debian packages clinfo, ocl-icd-libopencl1)",
            Oracle::PyOpenCl => "/usr/bin/python3 with pyopencl (Debian package python3-pyopencl)",
            Oracle::PyOpenClPytest => {
                "/usr/bin/python3 with pyopencl, pytest and pytest_timeout (Debian packages \
                 python3-pyopencl, python3-pytest, python3-pytest-timeout)"
            }
            Oracle::OpenClC => {
                "gcc, CL/cl.h and libOpenCL.so (Debian packages gcc, opencl-headers, ocl-icd-opencl-dev)"
            }
            Oracle::CtsBuild => {
                "cmake, g++, libOpenCL.so and spirv-as/spirv-val (Debian packages cmake, g++, \
                 ocl-icd-opencl-dev, spirv-tools)"
            }
            Oracle::ClangLlvm => "clang-15 and llvm-as-15 (Debian packages clang-15, llvm-15)",
            Oracle::SpirvAs => "spirv-as and spirv-val (Debian package spirv-tools)",
            Oracle::Igt => {
                "/usr/libexec/igt-gpu-tools/benchmarks and intel_gem_info (Debian package intel-gpu-tools)"
            }
            Oracle::Hashcat => "hashcat (Debian package hashcat)",
            Oracle::OpenCv => "/usr/bin/python3 with cv2 (Debian package python3-opencv)",
            Oracle::ClBlast => "gcc with clblast_c.h and libclblast.so (Debian package libclblast-dev)",
            Oracle::ClBlastPrograms => {
                "clblast_test_xgemm and clblast_tuner_xgemm (Debian packages clblast-tests, clblast-utils)"
            }
            Oracle::PackageInstall => "apt-get and dpkg-deb, as root (to install a built package)",
            Oracle::Oclgrind => "oclgrind (Debian package oclgrind)",
            Oracle::Pocl => "/etc/OpenCL/vendors/pocl.icd (Debian package pocl-opencl-icd)",
            Oracle::OpenVino => {
                ".venv-apps/bin/python with openvino, onnx and numpy (made by scripts/setup-apps)"
            }
        }
    }

    /// Where the oracle is on this machine, if anywhere.
    pub fn locate(self) -> Option<PathBuf> {
        match self {
            Oracle::Iga64 => find_program("iga64", &["/usr/bin/iga64"]),
            Oracle::Ocloc => find_program("ocloc", &["/usr/bin/ocloc"]),
            Oracle::UapiHeaders => {
                let dirs = std::env::var_os("UAPI_INCLUDE_DIR")
                    .map(PathBuf::from)
                    .into_iter()
                    .chain([PathBuf::from("/usr/include")]);
                dirs.into_iter().find(|d| {
                    d.join("drm/i915_drm.h").is_file() && d.join("drm/xe_drm.h").is_file()
                })
            }
            Oracle::Clinfo => find_program("clinfo", &["/usr/bin/clinfo"]),
            Oracle::Hashcat => find_program("hashcat", &["/usr/bin/hashcat"]),
            Oracle::Oclgrind => find_program("oclgrind", &["/usr/bin/oclgrind"]),
            Oracle::Pocl => {
                let icd = PathBuf::from("/etc/OpenCL/vendors/pocl.icd");
                icd.is_file().then_some(icd)
            }
            Oracle::OpenCv => python_with("import cv2"),
            Oracle::ClBlast => Oracle::OpenClC
                .locate()
                .filter(|_| Path::new("/usr/include/clblast_c.h").is_file()),
            Oracle::ClBlastPrograms => {
                let test = find_program("clblast_test_xgemm", &["/usr/bin/clblast_test_xgemm"])?;
                let tuner = test.with_file_name("clblast_tuner_xgemm");
                is_executable(&tuner).then(|| test.parent().map(Path::to_path_buf))?
            }
            Oracle::PackageInstall => find_program("apt-get", &["/usr/bin/apt-get"])
                .filter(|_| find_program("dpkg-deb", &["/usr/bin/dpkg-deb"]).is_some())
                .filter(|_| is_root()),
            Oracle::PyOpenCl => python_with("import pyopencl"),
            Oracle::PyOpenClPytest => python_with("import pyopencl, pytest, pytest_timeout"),
            Oracle::OpenClC => {
                let headers = Path::new("/usr/include/CL/cl.h").is_file();
                let loader = [
                    "/usr/lib/x86_64-linux-gnu/libOpenCL.so",
                    "/usr/lib/libOpenCL.so",
                ]
                .iter()
                .any(|p| Path::new(p).exists());
                find_program("gcc", &["/usr/bin/gcc"]).filter(|_| headers && loader)
            }
            Oracle::CtsBuild => {
                let gxx = find_program("g++", &["/usr/bin/g++"]).is_some();
                let loader = Path::new("/usr/lib/x86_64-linux-gnu/libOpenCL.so").exists();
                // test_compiler's build assembles and validates its SPIR-V with these.
                let spirv = ["spirv-as", "spirv-val"]
                    .iter()
                    .all(|t| find_program(t, &[&format!("/usr/bin/{t}")]).is_some());
                find_program("cmake", &["/usr/bin/cmake"]).filter(|_| gxx && loader && spirv)
            }
            Oracle::SpirvAs => {
                let val = find_program("spirv-val", &["/usr/bin/spirv-val"]).is_some();
                find_program("spirv-as", &["/usr/bin/spirv-as"]).filter(|_| val)
            }
            Oracle::ClangLlvm => {
                let clang = find_program("clang-15", &["/usr/bin/clang-15"])?;
                let as_ = clang.with_file_name("llvm-as-15");
                is_executable(&as_).then_some(clang)
            }
            Oracle::Igt => {
                let dir = PathBuf::from("/usr/libexec/igt-gpu-tools/benchmarks");
                let info = find_program("intel_gem_info", &["/usr/bin/intel_gem_info"]).is_some();
                (info && dir.is_dir()).then_some(dir)
            }
            Oracle::OpenVino => {
                let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?;
                let python = root.join(".venv-apps/bin/python");
                let ok = is_executable(&python)
                    && Command::new(&python)
                        .args(["-c", "import openvino, onnx, numpy"])
                        .output()
                        .is_ok_and(|o| o.status.success());
                ok.then_some(python)
            }
        }
    }
}

/// Debian's python3 when `imports` succeeds in it.
fn python_with(imports: &str) -> Option<PathBuf> {
    let python = PathBuf::from("/usr/bin/python3");
    let ok = Command::new(&python)
        .args(["-c", imports])
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then_some(python)
}

/// Whether this process runs as root (its effective uid, from `/proc/self/status`).
fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Uid:"))
                .and_then(|ids| ids.split_whitespace().nth(1).map(|e| e == "0"))
        })
        .unwrap_or(false)
}

fn find_program(name: &str, debian_paths: &[&str]) -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH")
        .map(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join(name))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain(debian_paths.iter().map(PathBuf::from))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// True when the environment demands every oracle (`ORACLES=required`).
pub fn required() -> bool {
    std::env::var("ORACLES")
        .map(|v| v == "required")
        .unwrap_or(false)
}

/// Applies the policy: the oracle's path, or `None` after printing why the caller should skip.
///
/// # Panics
/// When the oracle is missing and `ORACLES=required`: that is the test failing, on purpose.
pub fn get(oracle: Oracle, test: &str) -> Option<PathBuf> {
    if let Some(p) = oracle.locate() {
        return Some(p);
    }
    let why = format!("{} not found", oracle.describe());
    if required() {
        panic!("{test}: {why}, and ORACLES=required: run scripts/setup-oracles");
    }
    skip(test, &why);
    None
}

/// Prints a skip notice that libtest's capture does not swallow.
pub fn skip(test: &str, why: &str) {
    let _ = writeln!(
        std::io::stderr(),
        "SKIP {test}: {why} (set ORACLES=required to make this fail)"
    );
}

/// Yields the oracle's path, or returns from the enclosing test after printing a skip reason.
#[macro_export]
macro_rules! require {
    ($oracle:expr) => {
        match $crate::get(
            $oracle,
            concat!(module_path!(), " (", file!(), ":", line!(), ")"),
        ) {
            Some(path) => path,
            None => return,
        }
    };
}

/// Runs a command and returns its stdout, or a message with its stderr.
pub(crate) fn run(cmd: &mut Command) -> Result<Vec<u8>, String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{cmd:?} failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(out.stdout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_program_is_not_found() {
        assert_eq!(
            find_program("no-such-oracle-here", &["/nonexistent/x"]),
            None
        );
    }

    #[test]
    fn required_flag_reads_environment() {
        // Only observes; the variable is owned by the test runner.
        let expect = std::env::var("ORACLES").as_deref() == Ok("required");
        assert_eq!(required(), expect);
    }
}
