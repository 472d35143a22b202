//! Test support: the ICD library built by this workspace and an `.icd` file naming it, so
//! the ocl-icd loader loads this driver alone.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The ICD cargo built with this test binary (`target/<profile>/deps/`).
pub fn library() -> PathBuf {
    oracles::workspace::cdylib("opencl", "libintel_gpu_opencl.so")
}

/// A directory holding `intel-gpu-opencl.icd`, which names the library by absolute path.
pub struct Icd {
    pub dir: tempfile::TempDir,
    pub file: PathBuf,
}

pub fn icd() -> Icd {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("intel-gpu-opencl.icd");
    std::fs::write(&file, format!("{}\n", library().display())).expect("write .icd");
    Icd { dir, file }
}

/// A command with the loader pointed at this ICD alone and the given devices.
pub fn command(program: &Path, icd: &Icd, devices: &str) -> Command {
    let mut cmd = Command::new(program);
    cmd.env("OCL_ICD_VENDORS", &icd.file)
        .env("INTEL_GPU_DEVICES", devices);
    cmd
}

/// Runs `cmd`, returning stdout; panics with everything it printed when it fails.
pub fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    stdout
}

/// Compiles `tests/c/<name>.c` with `gcc` (strict warnings, linked with the loader) into
/// `icd`'s directory; returns the executable.
pub fn compile_c(gcc: &Path, icd: &Icd, name: &str) -> PathBuf {
    let exe = icd.dir.path().join(name);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/c/{name}.c"));
    run(Command::new(gcc)
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pthread", "-o"])
        .arg(&exe)
        .arg(src)
        .arg("-lOpenCL"));
    exe
}

pub const SIM_DEVICES: [&str; 4] = ["sim:skl", "sim:icllp", "sim:tgllp", "sim:dg2"];

/// The devices the C clients run on: every platform under i915 and one under xe.
pub fn c_client_devices() -> impl Iterator<Item = &'static str> {
    SIM_DEVICES.into_iter().chain(["sim:dg2@xe"])
}

/// Whether a store to an unbound address faults on `dev` (the clients read it from
/// `EXPECT_PAGE_FAULTS`): under xe it does; i915's PPGTT sends it to its scratch page (Linux
/// `gen8_init_scratch`).
pub fn page_faults(dev: &str) -> bool {
    dev.ends_with("@xe")
}

/// Where Debian's intel-opencl-icd (the package that also ships ocloc) installs Intel's runtime
/// (NEO), the oracle the device queries are compared with.
pub const NEO: &str = "/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so";

/// An `.icd` file in `dir` naming NEO; None when the oracle policy skips (no Intel compiler
/// package installed), `why` naming the test.
pub fn neo_icd(dir: &Path, why: &str) -> Option<PathBuf> {
    oracles::get(oracles::Oracle::Ocloc, why)?;
    assert!(
        Path::new(NEO).is_file(),
        "{NEO} missing although intel-opencl-icd's ocloc is installed"
    );
    let icd = dir.join("neo.icd");
    std::fs::write(&icd, format!("{NEO}\n")).expect("write neo.icd");
    Some(icd)
}

/// `program` run with NEO (`neo_icd`) on the simulated `platform` under i915, through the
/// simulator shim (`LD_PRELOAD`): Intel's runtime on the same simulated GPU as ours.
pub fn neo_command(program: &Path, neo_icd: &Path, platform: oracles::Platform) -> Command {
    let shim = oracles::workspace::cdylib("sim-shim", "libintel_gpu_sim_shim.so");
    let mut cmd = Command::new(program);
    cmd.env("LD_PRELOAD", shim)
        .env("INTEL_GPU_SIM", format!("{}@i915", platform.name()))
        .env("OCL_ICD_VENDORS", neo_icd)
        .env_remove("NEOReadDebugKeys");
    cmd
}

/// A Python script's runs on simulated `platform`: through this ICD, and through NEO (`neo`,
/// when given) under the shim with PyOpenCL's binary cache off, so each runtime compiles for
/// itself. Each run with the name its failures print.
pub fn ours_and_neo(
    python: &Path,
    icd: &Icd,
    neo: Option<&Path>,
    platform: oracles::Platform,
) -> Vec<(String, Command)> {
    let dev = format!("sim:{}", platform.name());
    let mut runs = vec![(dev.clone(), command(python, icd, &dev))];
    if let Some(neo) = neo {
        let mut cmd = neo_command(python, neo, platform);
        cmd.env("PYOPENCL_NO_CACHE", "1");
        runs.push((format!("NEO on {dev}"), cmd));
    }
    runs
}

/// A C client's answers: its `= name value` lines (the clients in `tests/c` print each answer
/// so), by name.
pub fn answers(out: &str) -> std::collections::BTreeMap<String, String> {
    out.lines()
        .filter_map(|l| l.strip_prefix("= "))
        .filter_map(|l| l.split_once(' '))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// A finding judged against the program's source: the check, a prefix of the kernel's name
/// ("" for API findings) and words of the finding's sentence.
pub type Judged<'a> = (&'a str, &'a str, &'a str);

/// Asserts that every finding in the sanitizer's JSON-lines log `text` is one of `judged`
/// (no finding nobody judged) and that each judged finding is there (the checks still catch
/// it).
pub fn assert_judged_findings(text: &str, judged: &[Judged<'_>]) {
    let mut seen = vec![false; judged.len()];
    for line in text.lines() {
        let f: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let field = |k: &str| f[k].as_str().unwrap_or_default().to_string();
        let (check, kernel, what) = (field("check"), field("kernel"), field("what"));
        let i = judged
            .iter()
            .position(|(c, k, w)| *c == check && kernel.starts_with(k) && what.contains(w))
            .unwrap_or_else(|| panic!("a finding nobody judged:\n{line}"));
        seen[i] = true;
    }
    for (j, found) in judged.iter().zip(seen) {
        assert!(found, "not found: {j:?}\nfindings:\n{text}");
    }
}
