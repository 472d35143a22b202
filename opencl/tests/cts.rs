//! Khronos' OpenCL conformance tests (OpenCL-CTS, vendored under `third_party/` at the commits
//! `third_party/README.md` names) run under this ICD on simulated devices.
//!
//! The CTS is built with cmake and g++ into the tests' cache (`opencl-cts/<hash>/` under
//! [`oracles::cache::dir`]'s root), the hash taken over the vendored sources, the build
//! settings and the toolchain's files; it configures from a copy of the sources it keeps, so a
//! second run, in this checkout or another anywhere, reuses the build. Each suite runs with
//! the loader pointed at this ICD alone; its per-test results come from the harness's JSON file
//! (`CL_CONFORMANCE_RESULTS_FILENAME`). A test passes only when every sub-test expected to pass
//! passes and every sub-test the CTS skips is in [`SKIPPED`] with the specification's reason.
//! Suites: `test_subgroups` and `test_computeinfo` on sim:skl, sim:icllp, sim:tgllp and sim:dg2,
//! the passing `test_api` sub-tests on sim:skl, sim:tgllp and sim:dg2; `test_compiler`, covering
//! sets of `test_buffers` and `test_basic`, three `test_c11_atomics` sub-tests and `test_spirv_new`
//! whole on sim:tgllp; spirv_new's specialization-constant sub-tests on sim:skl and sim:dg2;
//! `test_atomics` whole (int, uint and, through cl_khr_int64_{base,extended}_atomics, long and
//! ulong; under a minute each) on sim:skl, sim:tgllp and sim:dg2; the image suites' mip-map mode on
//! sim:tgllp; `test_events` and `test_printf` whole on sim:tgllp. OpenCL 3.0's versioned queries are test_computeinfo's `extended_versioning` sub-test
//! (the CTS has no separate suite for them). Under the kernel sanitizer on sim:tgllp, each
//! finding judged (`firmware-notes/sanitizer.md`): `test_subgroups` whole, `test_atomics`, and
//! the tgllp selections of `test_basic`, `test_api` and `test_buffers`, the image suites that
//! run kernels, test_spirv_new's rounding-mode decorations and test_c11_atomics' `atomic_init`.
//! Sub-tests that fail are listed in [`KNOWN_FAIL`] with the reason and asserted to fail. What is
//! left: `opencl/README.md`.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use oracles::{require, Oracle};

/// The CTS executables built, with their path inside the build directory.
const SUITES: [(&str, &str); 17] = [
    (
        "test_subgroups",
        "test_conformance/subgroups/test_subgroups",
    ),
    ("test_api", "test_conformance/api/test_api"),
    ("test_atomics", "test_conformance/atomics/test_atomics"),
    ("test_basic", "test_conformance/basic/test_basic"),
    ("test_buffers", "test_conformance/buffers/test_buffers"),
    (
        "test_c11_atomics",
        "test_conformance/c11_atomics/test_c11_atomics",
    ),
    (
        "test_computeinfo",
        "test_conformance/computeinfo/test_computeinfo",
    ),
    ("test_compiler", "test_conformance/compiler/test_compiler"),
    (
        "test_spirv_new",
        "test_conformance/spirv_new/test_spirv_new",
    ),
    (
        "test_cl_get_info",
        "test_conformance/images/clGetInfo/test_cl_get_info",
    ),
    (
        "test_cl_read_write_images",
        "test_conformance/images/clReadWriteImage/test_cl_read_write_images",
    ),
    (
        "test_cl_fill_images",
        "test_conformance/images/clFillImage/test_cl_fill_images",
    ),
    (
        "test_cl_copy_images",
        "test_conformance/images/clCopyImage/test_cl_copy_images",
    ),
    (
        "test_samplerless_reads",
        "test_conformance/images/samplerlessReads/test_samplerless_reads",
    ),
    (
        "test_kernel_image_methods",
        "test_conformance/images/kernel_image_methods/test_kernel_image_methods",
    ),
    ("test_events", "test_conformance/events/test_events"),
    ("test_printf", "test_conformance/printf/test_printf"),
];

/// Why cl_khr_subgroups is absent on Gen12LP and Xe-HPG (see `opencl/src/core/facts.rs`).
const NO_IFP: &str = "the OpenCL 3.0 API specification requires \
    CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS of cl_khr_subgroups devices; Gen12LP and \
    Xe-HPG run EU threads in fused pairs and do not give it (NEO reports neither there); OpenCL \
    3.0 core sub-groups remain";

/// Optional extensions this ICD does not implement, so the device does not report them.
const NOT_IMPLEMENTED: &str = "optional extension (OpenCL 3.0 / the Khronos extension \
    specification) this ICD does not implement and does not report";

/// Why the `spirv1{4,5,6}_*` sub-tests of test_spirv_new are skipped.
const NEWER_SPIRV: &str = "the module's SPIR-V version is above those the device reports \
    (CL_DEVICE_IL_VERSION SPIR-V 1.0 to 1.2; OpenCL 3.0 asks an IL device for SPIR-V 1.0, \
    later versions are optional)";

/// Why fp64 sub-tests are skipped on Gen12LP and Xe-HPG.
const NO_FP64: &str = "double precision is optional (cl_khr_fp64 / __opencl_c_fp64); Gen12LP \
    and Xe-HPG do not report it (as NEO)";

/// Why sub-tests registered for a later OpenCL version are skipped.
const NEWER_OPENCL: &str = "the sub-test is registered for OpenCL 3.1 and later; the device \
    reports OpenCL 3.0";

/// Sub-tests skipped by name prefix (suite, prefix, reason).
const SKIPPED_PREFIXES: &[(&str, &str, &str)] = &[
    ("test_spirv_new", "spirv14_", NEWER_SPIRV),
    ("test_spirv_new", "spirv15_", NEWER_SPIRV),
    ("test_spirv_new", "spirv16_", NEWER_SPIRV),
    (
        "test_spirv_new",
        "ext_cl_khr_spirv_no_integer_wrap_decoration_",
        NOT_IMPLEMENTED,
    ),
];

/// Sub-tests the CTS may report as skipped ("not supported"), each with why the specification
/// lets the device not support it. A skip not listed here fails the test; which listed skips
/// must still pass on which device is in the expected-pass lists.
const SKIPPED: &[(&str, &str, &str)] = &[
    ("test_subgroups", "ifp_core", NO_IFP),
    ("test_subgroups", "ifp_ext", NO_IFP),
    ("test_subgroups", "barrier_functions_ext", NO_IFP),
    ("test_subgroups", "sub_group_info_ext", NO_IFP),
    ("test_subgroups", "work_item_functions_ext", NO_IFP),
    ("test_subgroups", "subgroup_functions_ext", NO_IFP),
    (
        "test_subgroups",
        "subgroup_functions_rotate",
        NOT_IMPLEMENTED,
    ),
    (
        "test_compiler",
        "get_program_info_mult_devices",
        "needs a device partitioned into sub-devices (clCreateSubDevices); partitioning is \
         optional (CL_DEVICE_PARTITION_MAX_SUB_DEVICES 0) and not offered",
    ),
    // CL_MEM_IMMUTABLE_EXT needs cl_ext_immutable_memory_objects.
    (
        "test_buffers",
        "write_from_immutable_buffer_to_buffer",
        NOT_IMPLEMENTED,
    ),
    ("test_buffers", "immutable_buffer_map_char", NOT_IMPLEMENTED),
    ("test_basic", "immutable_arrayreadwrite", NOT_IMPLEMENTED),
    (
        "test_basic",
        "immutable_bufferreadwriterect",
        NOT_IMPLEMENTED,
    ),
    ("test_basic", "negative_imagearraycopy", NOT_IMPLEMENTED),
    ("test_basic", "negative_imagearraycopy3d", NOT_IMPLEMENTED),
    ("test_spirv_new", "op_expect", NOT_IMPLEMENTED),
    ("test_spirv_new", "op_assume", NOT_IMPLEMENTED),
    ("test_spirv_new", "linkage_linkonce_odr", NOT_IMPLEMENTED),
    ("test_spirv_new", "op_spec_constant_double_simple", NO_FP64),
    (
        "test_spirv_new",
        "extinst_printf_operands_scalar_fp64",
        NO_FP64,
    ),
    ("test_printf", "double", NO_FP64),
    ("test_printf", "double_limits", NO_FP64),
    ("test_printf", "size_t", NEWER_OPENCL),
    ("test_printf", "ptrdiff_t", NEWER_OPENCL),
];

/// Sub-tests that fail on a device, each with what the CTS found and why: the test asserts they
/// still fail, so a fix is noticed and the entry removed. (suite, device, sub-test, reason)
const KNOWN_FAIL: &[(&str, &str, &str, &str)] = &[(
    "test_basic",
    "sim:tgllp",
    "bufferreadwriterect",
    "the CTS's fault at the pinned commit (KhronosGroup/OpenCL-CTS issue 2765): its overlap \
     check ignores a zero slice pitch, so it expects success from clEnqueueCopyBufferRect \
     within one buffer, row pitch 438, slice pitch 0 (5 rows), origins (14,69,100) and \
     (176,181,171), region 224x5x226, whose regions share 41106 bytes; CL_MEM_COPY_OVERLAP \
     is the specification's answer",
)];

/// The vendored trees the build depends on (relative to the workspace root).
const SOURCES: [&str; 3] = [
    "third_party/opencl-cts",
    "third_party/opencl-headers",
    "third_party/spirv-headers",
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// FNV-1a, 64 bits: a stable content key (std's hasher may change between Rust releases).
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // Separates consecutive fields, so ("ab","c") and ("a","bc") differ.
        self.0 = self.0.rotate_left(7) ^ bytes.len() as u64;
    }
}

/// `f`'s path inside the checkout `root`.
fn relative<'a>(f: &'a Path, root: &Path) -> &'a Path {
    f.strip_prefix(root).expect("under the checkout")
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Read by cmake after the CTS' top-level `project()`: once every directory is read, the
/// host code that runs over every byte of large inputs is compiled at -O2. The harness
/// library: its random data (a Mersenne twister filling each input) and compares run over
/// buffers up to a quarter of the device's memory; at -O0 they were a sixth of the strided
/// copy tests' time. test_basic's `test_imagedim.cpp`: it fills each of its images, up to
/// 16,383 x 16,383 texels, through `std::generate`, whose iterator calls at -O0 made its host
/// code a fifth of `imagedim_non_pow2`'s samples while its large work-groups ran
/// (`imagedim_pow2`: 100 s at -O0, 72 s at -O2).
const OPTIMISE_HOST_LOOPS: &str = "cmake_language(DEFER CALL set_property TARGET harness APPEND \
PROPERTY COMPILE_OPTIONS -O2)\n\
cmake_language(DEFER CALL set_property \
SOURCE ${CMAKE_SOURCE_DIR}/test_conformance/basic/test_imagedim.cpp \
DIRECTORY ${CMAKE_SOURCE_DIR}/test_conformance/basic APPEND PROPERTY COMPILE_OPTIONS -O2)\n";
const OPTIMISE_HOST_LOOPS_FILE: &str = "optimise-host-loops.cmake";

fn cmake_args(root: &Path) -> Vec<String> {
    let tp = root.join("third_party");
    vec![
        "-DCMAKE_BUILD_TYPE=Release".into(),
        // -O0: the suites' host code is light beside the simulated kernels (their image
        // checks take tenths of a second either way), and they build in about half of -O1's
        // time (118 s against 217 s on two cores; -O1 took two thirds of -O3's). The harness
        // library and the image-filling loop of test_basic are the exceptions
        // (`OPTIMISE_HOST_LOOPS`).
        "-DCMAKE_C_FLAGS_RELEASE=-O0 -DNDEBUG".into(),
        "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG".into(),
        format!(
            "-DCMAKE_PROJECT_INCLUDE={}",
            root.join(OPTIMISE_HOST_LOOPS_FILE).display()
        ),
        format!("-DCL_INCLUDE_DIR={}", tp.join("opencl-headers").display()),
        "-DCL_LIB_DIR=/usr/lib/x86_64-linux-gnu".into(),
        "-DOPENCL_LIBRARIES=OpenCL".into(),
        format!("-DSPIRV_INCLUDE_DIR={}", tp.join("spirv-headers").display()),
    ]
}

fn run_logged(cmd: &mut Command, log: &Path) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let mut text = out.stdout.clone();
    text.extend_from_slice(&out.stderr);
    std::fs::write(log, &text).expect("write build log");
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}); log {}:\n{}",
        out.status,
        log.display(),
        String::from_utf8_lossy(&text[text.len().saturating_sub(8000)..])
    );
}

/// The build tools' and the loader's files: a new compiler or loader is a new build.
fn toolchain(cmake: &Path) -> String {
    let on_path = |name: &str| {
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .map(|d| d.join(name))
            .find(|p| p.is_file())
            .unwrap_or_else(|| PathBuf::from(name))
    };
    let mut files = vec![cmake.to_path_buf(), on_path("c++"), on_path("g++")];
    if let Ok(entries) = std::fs::read_dir("/usr/lib/x86_64-linux-gnu") {
        files.extend(entries.flatten().map(|e| e.path()).filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("libOpenCL.so"))
        }));
    }
    files.sort();
    oracles::cache::files_identity(&files)
}

/// Builds the CTS suites (once per content hash of the vendored sources, the build's options
/// and the toolchain) into the tests' cache, kept between runs and checkouts (the two most
/// recently used builds), and returns the build directory.
fn build(cmake: &Path) -> PathBuf {
    static LOCK: Mutex<()> = Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());

    let root = workspace();
    // The key names no path of this checkout: the build configures from its own copy of the
    // sources, so a clone anywhere else finds it.
    let mut key = Fnv::new();
    for a in cmake_args(Path::new("/sources")) {
        key.feed(a.as_bytes());
    }
    key.feed(OPTIMISE_HOST_LOOPS.as_bytes());
    key.feed(toolchain(cmake).as_bytes());
    let mut files = Vec::new();
    for src in SOURCES {
        files_under(&root.join(src), &mut files);
    }
    for f in &files {
        key.feed(relative(f, &root).as_os_str().as_encoded_bytes());
        key.feed(&std::fs::read(f).expect("read vendored file"));
    }
    let builds = oracles::cache::dir("opencl-cts");
    let dir = builds.join(format!("{:016x}", key.0));
    // Another checkout's test run may be building the same sources: one builds, the other
    // waits for it and uses its build.
    let lock = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(builds.join(format!("{:016x}.lock", key.0)))
        .expect("open the CTS build's lock file");
    lock.lock().expect("lock the CTS build");
    let stamp = dir.join("built");
    if stamp.is_file() && SUITES.iter().all(|(_, exe)| dir.join(exe).is_file()) {
        oracles::cache::touch(&dir);
        return dir;
    }
    // A build that did not finish (its process died) starts again from nothing.
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create CTS build directory");
    eprintln!("cts: building OpenCL-CTS into {} (minutes)", dir.display());
    let sources = dir.join("sources");
    for f in &files {
        let to = sources.join(relative(f, &root));
        std::fs::create_dir_all(to.parent().expect("a file's directory"))
            .expect("create a sources directory");
        std::fs::copy(f, &to).unwrap_or_else(|e| panic!("copy {}: {e}", f.display()));
    }
    std::fs::write(sources.join(OPTIMISE_HOST_LOOPS_FILE), OPTIMISE_HOST_LOOPS)
        .expect("write the host loops' build settings");
    run_logged(
        Command::new(cmake)
            .arg("-S")
            .arg(sources.join("third_party/opencl-cts"))
            .arg("-B")
            .arg(&dir)
            .args(cmake_args(&sources)),
        &dir.join("configure.log"),
    );
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
    run_logged(
        Command::new(cmake)
            .arg("--build")
            .arg(&dir)
            .arg("-j")
            .arg(jobs.to_string())
            .arg("--target")
            .args(SUITES.iter().map(|(t, _)| *t)),
        &dir.join("build.log"),
    );
    std::fs::write(&stamp, "").expect("write build stamp");
    oracles::cache::keep_newest(&builds, 2);
    dir
}

/// Per sub-test results of one suite run ("pass", "fail" or "skip"), from the harness's JSON.
fn results(json: &str) -> BTreeMap<String, String> {
    let body = json.split_once("\"results\"").map_or("", |(_, rest)| rest);
    body.lines()
        .filter_map(|l| {
            let mut parts = l
                .split('"')
                .filter(|s| !s.trim().is_empty() && s.trim() != ":");
            let name = parts.next()?;
            let result = parts.next()?;
            matches!(result, "pass" | "fail" | "skip")
                .then(|| (name.to_string(), result.to_string()))
        })
        .collect()
}

/// Runs `suite` with `args` on `device` and checks its results: every sub-test in `expect_pass`
/// passes and any other sub-test is a listed skip (skipped when cmake or ocloc is absent).
fn run_suite(suite: &str, args: &[&str], device: &str, expect_pass: &[&str]) {
    let cmake = require!(Oracle::CtsBuild);
    let _ocloc = require!(Oracle::Ocloc);
    run_checked(&cmake, suite, args, device, expect_pass, &[]);
}

/// [`run_suite`] once the oracles are found, with `env` added to the harness's environment;
/// returns what the harness printed.
fn run_checked(
    cmake: &Path,
    suite: &str,
    args: &[&str],
    device: &str,
    expect_pass: &[&str],
    env: &[(&str, &str)],
) -> String {
    let dir = build(cmake);
    let exe = dir.join(
        SUITES
            .iter()
            .find(|(t, _)| *t == suite)
            .expect("known suite")
            .1,
    );
    let icd = support::icd();
    let json = icd.dir.path().join(format!("{suite}.json"));
    let mut cmd = support::command(&exe, &icd, device);
    // The SPIR-V their builds assembled (spirv-as): test_compiler's `unload_*` sub-tests and
    // every test_spirv_new sub-test read it.
    if let Some(bins) = match suite {
        "test_compiler" => Some("test_conformance/compiler/spirv_bin"),
        "test_spirv_new" => Some("test_conformance/spirv_new/spirv_bin"),
        _ => None,
    } {
        cmd.arg("--spirv-binaries-path").arg(dir.join(bins));
    }
    cmd.args(args)
        .env("CL_CONFORMANCE_RESULTS_FILENAME", &json)
        .env("CL_WIMPY_MODE", "1")
        .envs(env.iter().copied())
        .current_dir(icd.dir.path());
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let tail = &log[log.len().saturating_sub(20000)..];
    let text = std::fs::read_to_string(&json).unwrap_or_else(|e| {
        panic!(
            "{suite} on {device} wrote no results ({e}): {}\n{tail}",
            out.status
        )
    });
    let got = results(&text);
    let known_fail = |name: &str| {
        KNOWN_FAIL
            .iter()
            .any(|(s, d, n, _)| *s == suite && *d == device && *n == name)
    };
    let mut wrong = Vec::new();
    for name in expect_pass.iter().filter(|n| !known_fail(n)) {
        match got.get(*name).map(String::as_str) {
            Some("pass") => {}
            other => wrong.push(format!("{name}: expected pass, got {other:?}")),
        }
    }
    // The known failures of the sub-tests this run selects (all of them when it names none).
    for (_, _, name, why) in KNOWN_FAIL
        .iter()
        .filter(|(s, d, n, _)| *s == suite && *d == device && (args.is_empty() || args.contains(n)))
    {
        match got.get(*name).map(String::as_str) {
            Some("fail") => {}
            other => wrong.push(format!(
                "{name}: listed as failing ({why}), got {other:?}: update KNOWN_FAIL"
            )),
        }
    }
    for (name, result) in &got {
        let listed_skip = SKIPPED.iter().any(|(s, n, _)| *s == suite && n == name)
            || SKIPPED_PREFIXES
                .iter()
                .any(|(s, p, _)| *s == suite && name.starts_with(p));
        match result.as_str() {
            "pass" => {}
            "skip" if listed_skip => {}
            "fail" if known_fail(name) => {}
            r => wrong.push(format!("{name}: {r}")),
        }
    }
    eprintln!(
        "cts: {suite} on {device}: {} sub-tests, {:?}",
        got.len(),
        out.status
    );
    // The harness exits non-zero exactly when a sub-test failed.
    let any_fail = got.values().any(|r| r == "fail");
    assert!(
        wrong.is_empty() && out.status.success() != any_fail,
        "{suite} on {device} ({}):\n{}\n--- log tail ---\n{tail}",
        out.status,
        wrong.join("\n")
    );
    log
}

/// The kernel sanitizer's checks the CTS suites run under: every memory and synchronization
/// check (`api` left out: the harnesses probe with bad arguments on purpose).
const SANITIZER_CHECKS: &str = "memcheck,initcheck,racecheck,synccheck,alignment";

/// Runs `suite` with `args` on sim:tgllp under [`SANITIZER_CHECKS`], checks its results as
/// [`run_checked`] does, and asserts that its findings are exactly `judged`
/// ([`support::assert_judged_findings`]).
fn under_the_sanitizer(
    cmake: &Path,
    suite: &str,
    args: &[&str],
    expect_pass: &[&str],
    judged: &[support::Judged<'_>],
) {
    under_the_sanitizer_on(cmake, "sim:tgllp", suite, args, expect_pass, judged);
}

/// [`under_the_sanitizer`] on `device`.
fn under_the_sanitizer_on(
    cmake: &Path,
    device: &str,
    suite: &str,
    args: &[&str],
    expect_pass: &[&str],
    judged: &[support::Judged<'_>],
) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let log = dir.path().join("findings.jsonl");
    let env = [
        ("INTEL_GPU_SANITIZE", SANITIZER_CHECKS),
        ("INTEL_GPU_SANITIZE_LOG", log.to_str().expect("utf-8 path")),
    ];
    run_checked(cmake, suite, args, device, expect_pass, &env);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    support::assert_judged_findings(&text, judged);
}

/// OpenCL 2.1 core sub-group tests: they pass on every device.
const SUBGROUPS_CORE: &[&str] = &[
    "barrier_functions_core",
    "sub_group_info_core",
    "work_item_functions_core",
    "subgroup_functions_core",
];

/// Gen9 reports cl_khr_subgroups and independent forward progress: the extension's tests and
/// the `ifp` tests (sub-groups spinning on each other's stores) run there too.
const SUBGROUPS_KHR: &[&str] = &[
    "barrier_functions_core",
    "sub_group_info_core",
    "work_item_functions_core",
    "subgroup_functions_core",
    "ifp_core",
    "barrier_functions_ext",
    "sub_group_info_ext",
    "work_item_functions_ext",
    "subgroup_functions_ext",
    "ifp_ext",
];

/// cl_khr_subgroup_* sub-tests cheap enough for every run (seconds to a minute each); the
/// others (ballot, non-uniform arithmetic, clustered reduce, extended types: minutes each)
/// passed by hand on all three devices (`opencl/README.md`), and `--test pyopencl
/// pyopencl_khr_subgroup_extensions` checks every extension at every sub-group size.
const SUBGROUPS_KHR_EXTENSIONS: &[&str] = &[
    "subgroup_functions_non_uniform_vote",
    "subgroup_functions_shuffle",
    "subgroup_functions_shuffle_relative",
];

/// The sub-tests run on `device`: the expected passes, and the listed skips that must be
/// reported as skipped (cl_khr_subgroups' `*_ext` where the device has no independent forward
/// progress; cl_khr_subgroup_rotate, not reported).
fn subgroups(device: &str, pass: &[&'static str], extensions: &[&'static str]) {
    let mut expect: Vec<&str> = pass.to_vec();
    expect.extend_from_slice(extensions);
    let mut run = expect.clone();
    run.extend(
        SKIPPED
            .iter()
            .filter(|(s, n, _)| *s == "test_subgroups" && !expect.contains(n))
            .map(|(_, n, _)| *n),
    );
    run_suite("test_subgroups", &run, device, &expect);
}

#[test]
fn subgroups_skl() {
    subgroups("sim:skl", SUBGROUPS_KHR, &[]);
}

/// Gen11 reports cl_khr_subgroups with independent forward progress, as Gen9 does.
#[test]
fn subgroups_icllp() {
    subgroups("sim:icllp", SUBGROUPS_KHR, &[]);
}

#[test]
fn subgroups_tgllp() {
    subgroups("sim:tgllp", SUBGROUPS_CORE, SUBGROUPS_KHR_EXTENSIONS);
}

#[test]
fn subgroups_dg2() {
    subgroups("sim:dg2", SUBGROUPS_CORE, &[]);
}

/// test_subgroups whole on sim:tgllp (every cl_khr_subgroup_* extension's sub-test, each
/// element type) under every memory and synchronization check of the kernel sanitizer
/// (`api` left out: the harness probes with bad arguments on purpose): the sub-tests pass as
/// without, and the one finding is true: before each test the harness runs the kernel on
/// zeroed inputs to learn the sub-group layout, and there the ballot test's
/// `sub_group_non_uniform_broadcast(x, xy[gid].w)` in the upper half of the sub-group names
/// lane 0, which took the other branch (SPIR-V's OpGroupNonUniformBroadcast: "The resulting
/// value is undefined if Id is an inactive invocation"); IGC reads it with a per-lane indirect
/// `mov`, which synccheck reports as a shuffle from a disabled lane.
#[test]
fn subgroups_tgllp_under_the_sanitizer() {
    let cmake = require!(Oracle::CtsBuild);
    let _ocloc = require!(Oracle::Ocloc);
    let mut expect: Vec<&str> = SUBGROUPS_CORE.to_vec();
    expect.extend_from_slice(&[
        "subgroup_functions_extended_types",
        "subgroup_functions_non_uniform_vote",
        "subgroup_functions_non_uniform_arithmetic",
        "subgroup_functions_ballot",
        "subgroup_functions_clustered_reduce",
        "subgroup_functions_shuffle",
        "subgroup_functions_shuffle_relative",
    ]);
    under_the_sanitizer(
        &cmake,
        "test_subgroups",
        &[],
        &expect,
        &[(
            "synccheck",
            "test_sub_group_non_uniform_broadcast",
            "reads the value of disabled lane 0",
        )],
    );
}

/// The core sub-group tests on sim:dg2 (LSC messages, SIMD16 and SIMD32 kernels) under every
/// memory and synchronization check: they pass as without, with no finding.
#[test]
fn subgroups_dg2_under_the_sanitizer() {
    let cmake = require!(Oracle::CtsBuild);
    let _ocloc = require!(Oracle::Ocloc);
    under_the_sanitizer_on(
        &cmake,
        "sim:dg2",
        "test_subgroups",
        SUBGROUPS_CORE,
        SUBGROUPS_CORE,
        &[],
    );
}

/// test_computeinfo: every device query, with OpenCL 3.0's versioned queries and the
/// conformance-version string.
const COMPUTEINFO: &[&str] = &[
    "computeinfo",
    "conformance_version",
    "extended_versioning",
    "device_uuid",
    "pci_bus_info",
];

#[test]
fn computeinfo_skl() {
    run_suite("test_computeinfo", &[], "sim:skl", COMPUTEINFO);
}

#[test]
fn computeinfo_icllp() {
    run_suite("test_computeinfo", &[], "sim:icllp", COMPUTEINFO);
}

#[test]
fn computeinfo_tgllp() {
    run_suite("test_computeinfo", &[], "sim:tgllp", COMPUTEINFO);
}

#[test]
fn computeinfo_dg2() {
    run_suite("test_computeinfo", &[], "sim:dg2", COMPUTEINFO);
}

/// test_atomics: OpenCL 1.0's `atom_*` and 1.1's `atomic_*` built-ins (add, sub, xchg, min,
/// max, inc, dec, cmpxchg, and, or, xor) on __global and __local int and uint, and `atom_*` on
/// long and ulong (cl_khr_int64_base_atomics, cl_khr_int64_extended_atomics); atomic_xchg on
/// float; `atomic_add_index{,_bin}` hand out slots with atomic_add. The whole suite takes under
/// a minute per device.
const ATOMICS: &[&str] = &[
    "atomic_add",
    "atomic_sub",
    "atomic_xchg",
    "atomic_min",
    "atomic_max",
    "atomic_inc",
    "atomic_dec",
    "atomic_cmpxchg",
    "atomic_and",
    "atomic_or",
    "atomic_xor",
    "atomic_add_index",
    "atomic_add_index_bin",
];

/// Runs test_atomics whole on `device` and checks that the 64-bit variants ran: the harness
/// passes a type the device does not support without running it ("Global int64 not
/// supported"), so a lost int64 extension would otherwise go unnoticed.
fn atomics(device: &str) {
    let cmake = require!(Oracle::CtsBuild);
    let _ocloc = require!(Oracle::Ocloc);
    let log = run_checked(&cmake, "test_atomics", &[], device, ATOMICS, &[]);
    // Every sub-test but the two index ones runs atom_* on each 64-bit type in each space.
    let with_int64 = ATOMICS.len() - 2;
    for variant in [
        "global int64",
        "global uint64",
        "local int64",
        "local uint64",
    ] {
        let ran = log.lines().filter(|l| l.contains(variant)).count();
        assert_eq!(
            ran, with_int64,
            "test_atomics on {device}: {variant} ran in {ran} sub-tests, not {with_int64}:\n{log}"
        );
    }
    assert!(
        !log.contains("not supported"),
        "test_atomics on {device} skipped a type:\n{log}"
    );
}

#[test]
fn atomics_skl() {
    atomics("sim:skl");
}

#[test]
fn atomics_tgllp() {
    atomics("sim:tgllp");
}

#[test]
fn atomics_dg2() {
    atomics("sim:dg2");
}

/// test_atomics under every memory and synchronization check of the kernel sanitizer
/// (`api` left out: the harness probes with bad arguments on purpose), on sim:tgllp, where IGC
/// builds the 64-bit local atomics from a lock. Every sub-test passes as without, and the
/// only findings are races Oclgrind reports as well (`oclgrind --data-races test_atomics
/// atomic_cmpxchg`): atomic_cmpxchg's kernel reads `origValue = destMemory[0]` with a plain
/// load while other work-items' `atom_cmpxchg` write it. The kernels' other conflicts are
/// every work-item storing one value to the same place (not races, as in Oclgrind) and the
/// lock's guarded accesses (ordered by its atomics).
#[test]
fn atomics_tgllp_under_the_sanitizer() {
    let cmake = require!(Oracle::CtsBuild);
    let _ocloc = require!(Oracle::Ocloc);
    let others: Vec<&str> = ATOMICS
        .iter()
        .copied()
        .filter(|n| *n != "atomic_cmpxchg")
        .collect();
    under_the_sanitizer(&cmake, "test_atomics", &others, &others, &[]);
    under_the_sanitizer(
        &cmake,
        "test_atomics",
        &["atomic_cmpxchg"],
        &["atomic_cmpxchg"],
        CMPXCHG_RACES,
    );
}

/// atomic_cmpxchg's races under the sanitizer, as Oclgrind reports them too: its kernel reads
/// `origValue = destMemory[0]` with a plain load while other work-items' `atom_cmpxchg` write
/// it, in global and in local memory.
const CMPXCHG_RACES: &[support::Judged<'static>] = &[
    (
        "racecheck",
        "test_atomic_fn",
        "read of global memory races with an atomic write",
    ),
    (
        "racecheck",
        "test_atomic_fn",
        "read of shared local memory races with",
    ),
];

/// test_atomics on sim:dg2 (LSC atomics, 64-bit ones native) under every memory and
/// synchronization check: as on tgllp, every sub-test passes and the only findings are
/// atomic_cmpxchg's plain reads (global and local) racing with the other work-items' atomics.
#[test]
fn atomics_dg2_under_the_sanitizer() {
    let cmake = require!(Oracle::CtsBuild);
    let _ocloc = require!(Oracle::Ocloc);
    under_the_sanitizer_on(
        &cmake,
        "sim:dg2",
        "test_atomics",
        ATOMICS,
        ATOMICS,
        CMPXCHG_RACES,
    );
}

/// test_api sub-tests that pass on sim:skl, sim:tgllp and sim:dg2 (the rest, with why, in
/// `opencl/README.md`).
const API: &[&str] = &[
    "binary_create",
    "binary_get",
    "bool_type",
    "buffer_properties_queries",
    "clone_kernel_with_buf_image_kernels",
    "clone_kernel_with_different_args",
    "clone_kernel_with_no_args",
    "consistency_2d_image_from_buffer",
    "consistency_3d_image_writes",
    "consistency_depth_images",
    "consistency_device_and_host_timer",
    "consistency_device_enqueue",
    "consistency_il_programs",
    "consistency_memory_model",
    "consistency_non_uniform_work_group",
    "consistency_pipes",
    "consistency_prog_ctor_dtor",
    "consistency_progvar",
    "consistency_read_write_images",
    "consistency_requirements_fp16",
    "consistency_requirements_fp64",
    "consistency_subgroups",
    "consistency_svm",
    "context_destructor_callback",
    "create_context_from_type",
    "create_context_from_type_device_type_all",
    "create_context_from_type_device_type_default",
    "create_kernels_in_program",
    "enqueue_task",
    "execute_kernel_local_sizes",
    "get_buffer_info",
    "get_command_queue_info",
    "get_command_queue_info_compatibility",
    "get_context_info",
    "get_device_info",
    "get_device_info_comparability",
    "get_image1d_array_info",
    "get_image1d_info",
    "get_image2d_array_info",
    "get_image2d_info",
    "get_image3d_info",
    "get_kernel_arg_info",
    "get_kernel_info",
    "get_platform_ids",
    "get_platform_info",
    "get_program_info_kernel_names",
    "get_sampler_info",
    "get_sampler_info_compatibility",
    "image_properties_queries",
    "kernel_arg_changes",
    "kernel_global_constant",
    "kernel_local_memory_size",
    "kernel_private_memory_size",
    "kernel_required_group_size",
    "load_single_kernel",
    "load_two_kernels",
    "load_two_kernels_in_one",
    "load_two_kernels_manually",
    "local_arg_size_zero",
    "mem_object_destructor_callback",
    "min_data_type_align_size_alignment",
    "min_image_formats",
    "min_max_address_bits",
    "min_max_compute_units",
    "min_max_constant_args",
    "min_max_constant_buffer_size",
    "min_max_device_version",
    "min_max_double_fp_config",
    "min_max_execution_capabilities",
    "min_max_image_2d_height",
    "min_max_image_2d_width",
    "min_max_image_3d_depth",
    "min_max_image_3d_height",
    "min_max_image_3d_width",
    "min_max_image_array_size",
    "min_max_image_buffer_size",
    "min_max_kernel_preferred_work_group_size_multiple",
    "min_max_language_version",
    "min_max_local_mem_size",
    "min_max_mem_alloc_size",
    "min_max_parameter_size",
    "min_max_queue_properties",
    "min_max_read_image_args",
    "min_max_samplers",
    "min_max_single_fp_config",
    "min_max_thread_dimensions",
    "min_max_work_group_size",
    "min_max_work_items_sizes",
    "min_max_write_image_args",
    "multi_queue_flush_on_release",
    "native_kernel",
    "negative_create_command_queue",
    "negative_create_command_queue_with_properties",
    "negative_create_command_queue_with_properties_khr",
    "negative_create_context",
    "negative_create_context_from_type",
    "negative_enqueue_marker_with_wait_list",
    "negative_get_command_queue_info",
    "negative_get_context_info",
    "negative_get_device_and_host_timer",
    "negative_get_device_ids",
    "negative_get_device_info",
    "negative_get_host_timer",
    "negative_get_platform_ids",
    "negative_get_platform_info",
    "negative_invalid_arg_index",
    "negative_invalid_arg_mem_obj",
    "negative_invalid_arg_sampler",
    "negative_invalid_arg_sampler_size",
    "negative_invalid_arg_size",
    "negative_invalid_kernel",
    "negative_release_command_queue",
    "negative_release_context",
    "negative_release_device",
    "negative_retain_command_queue",
    "negative_retain_context",
    "negative_retain_device",
    "negative_set_context_destructor_callback",
    "negative_set_default_device_command_queue",
    "negative_set_kernel_arg_invalid_image",
    "negative_set_read_write_image_arg",
    "null_buffer_arg",
    "null_required_work_group_size",
    "platform_extensions",
    "queue_flush_on_release",
    "queue_hint",
    "queue_properties",
    "queue_properties_queries",
    "release_during_execute",
    "release_kernel_order",
    "repeated_setup_cleanup",
    "retain_mem_object_multiple",
    "retain_mem_object_set_kernel_arg",
    "retain_mem_object_single",
    "retain_queue_multiple",
    "retain_queue_single",
    "set_kernel_arg_by_index",
    "set_kernel_arg_constant",
    "set_kernel_arg_struct_array",
    "sub_group_dispatch",
    "work_group_suggested_local_size_1D",
    "work_group_suggested_local_size_2D",
    "work_group_suggested_local_size_3D",
    "zero_sized_enqueue",
];

#[test]
fn api_tgllp() {
    run_suite("test_api", API, "sim:tgllp", API);
}

#[test]
fn api_skl() {
    run_suite("test_api", API, "sim:skl", API);
}

#[test]
fn api_dg2() {
    run_suite("test_api", API, "sim:dg2", API);
}

/// test_api sub-tests that run a kernel on a buffer created without contents
/// (`clCreateBuffer` with no host pointer, never written), which the kernel copies to its
/// output: OpenCL leaves such a buffer's contents undefined, so initcheck's finding is true in
/// each. `kernel_required_group_size` (test_queries.cpp): `dst[tid] = src[tid]` from `in`;
/// `min_max_constant_args` (test_api_min_max.cpp): `dst[tid] = src1[tid] + …` from the
/// `__constant` arguments' buffers; `release_during_execute` (test_retain_program.cpp):
/// `dst[tid] = (int)src[tid]`. None of them checks the values.
const API_UNDEFINED_INPUT: [&str; 3] = [
    "kernel_required_group_size",
    "min_max_constant_args",
    "release_during_execute",
];

/// test_api's checks of CL_KERNEL_SUGGESTED_LOCAL_WORK_SIZE_KHR: a query's answers, over
/// many small kernels of prime sizes (2 minutes together under the sanitizer, 30 s without),
/// left out of the sanitized run.
const API_SUGGESTED_LOCAL_SIZE: [&str; 3] = [
    "work_group_suggested_local_size_1D",
    "work_group_suggested_local_size_2D",
    "work_group_suggested_local_size_3D",
];

/// [`API`] on sim:tgllp under the kernel sanitizer (but for [`API_SUGGESTED_LOCAL_SIZE`]):
/// every sub-test passes as without; the only findings are initcheck's in
/// [`API_UNDEFINED_INPUT`], each run on its own so that each is asserted. About 40 s.
#[test]
fn api_tgllp_under_the_sanitizer() {
    let cmake = require!(Oracle::CtsBuild);
    let _ocloc = require!(Oracle::Ocloc);
    let others: Vec<&str> = API
        .iter()
        .copied()
        .filter(|n| !API_UNDEFINED_INPUT.contains(n) && !API_SUGGESTED_LOCAL_SIZE.contains(n))
        .collect();
    under_the_sanitizer(&cmake, "test_api", &others, &others, &[]);
    for name in API_UNDEFINED_INPUT {
        under_the_sanitizer(
            &cmake,
            "test_api",
            &[name],
            &[name],
            &[(
                "initcheck",
                "sample_test",
                "write to global memory of a value derived from memory never written",
            )],
        );
    }
}

/// test_compiler sub-tests run on sim:tgllp: every one that passes, and the known failures
/// (`KNOWN_FAIL`). Left out as compile-bound (each builds hundreds of small programs through
/// ocloc's clang front end, about 5 minutes together on the shared 2-core machine; they passed
/// when run): `multi_file_libraries`, `multiple_files`, `multiple_libraries`,
/// `multiple_files_multiple_libraries`.
const COMPILER: &[&str] = &[
    "load_program_source",
    "load_multistring_source",
    "load_two_kernel_source",
    "load_null_terminated_source",
    "load_null_terminated_multi_line_source",
    "load_discreet_length_source",
    "load_null_terminated_partial_multi_line_source",
    "get_program_info",
    "get_program_info_kernel_names",
    "get_linked_program_info_kernel_names",
    "get_program_source",
    "get_program_build_info",
    "kernel_name_size",
    "large_compile",
    "multiple_embedded_headers",
    "simple_compile_only",
    "simple_static_compile_only",
    "simple_extern_compile_only",
    "simple_compile_with_callback",
    "simple_embedded_header_compile",
    "simple_link_only",
    "link_error_returns_program",
    "two_file_regular_variable_access",
    "two_file_regular_struct_access",
    "two_file_regular_function_access",
    "simple_embedded_header_link",
    "simple_link_with_callback",
    "execute_after_simple_compile_and_link",
    "execute_after_simple_compile_and_link_no_device_info",
    "execute_after_simple_compile_and_link_with_defines",
    "execute_after_serialize_reload_object",
    "execute_after_serialize_reload_library",
    "execute_after_simple_compile_and_link_with_callbacks",
    "simple_library_only",
    "simple_library_with_callback",
    "simple_library_with_link",
    "execute_after_simple_library_with_link",
    "program_binary_type",
    "two_file_link",
    "execute_after_two_file_link",
    "execute_after_embedded_header_link",
    "execute_after_included_header_link",
    "compile_and_link_status_options_log",
    "multiple_build_program",
    "async_build",
    "options_build_optimizations",
    "options_build_macro",
    "options_build_macro_existence",
    "options_include_directory",
    "options_denorm_cache",
    "options_uniform_work_group_size",
    "preprocessor_define_udef",
    "preprocessor_include",
    "preprocessor_line_error",
    "preprocessor_pragma",
    "opencl_c_versions",
    "image_macro",
    "compiler_defines_for_extensions",
    "pragma_unroll",
    "unload_valid",
    "unload_repeated",
    "unload_compile_unload_link",
    "unload_build_unload_create_kernel",
    "unload_link_different",
    "unload_build_threaded",
    "unload_build_info",
    "unload_program_binaries",
    "features_macro",
    "features_macro_coupling",
];

/// What test_compiler runs: the passing sub-tests, the known failures and the listed skip.
fn compiler_run() -> Vec<&'static str> {
    let mut run = COMPILER.to_vec();
    run.extend(
        KNOWN_FAIL
            .iter()
            .filter(|(s, ..)| *s == "test_compiler")
            .map(|(_, _, n, _)| *n),
    );
    run.push("get_program_info_mult_devices");
    run
}

#[test]
fn compiler_tgllp() {
    run_suite("test_compiler", &compiler_run(), "sim:tgllp", COMPILER);
}

/// The image suites on sim:tgllp, small images of one format (RGBA, UNSIGNED_INT8), as far as
/// they were checked (what else was run: `opencl/README.md`).
fn image_suite(suite: &str, tests: &[&str], expect_pass: &[&str]) {
    let mut args = tests.to_vec();
    args.extend_from_slice(&["small_images", "CL_RGBA", "CL_UNSIGNED_INT8"]);
    run_suite(suite, &args, "sim:tgllp", expect_pass);
}

#[test]
fn image_read_write_tgllp() {
    image_suite("test_cl_read_write_images", &["2D"], &["2D"]);
}

#[test]
fn image_fill_tgllp() {
    image_suite("test_cl_fill_images", &["2D"], &["2D"]);
}

#[test]
fn image_copy_tgllp() {
    image_suite("test_cl_copy_images", &["2D"], &["2D"]);
}

/// cl_khr_mipmap_image through the image suites' `test_mipmaps` mode: mip-mapped images of
/// every type that takes levels, read and written (test_cl_read_write_images) and copied
/// (test_cl_copy_images) at random levels, with the suites' default sizes. (With `small_images`
/// the suites ask for longer chains than a full one, which the extension refuses: NEO 22.43's
/// departure, named in `tests/python/mipmaps.py`.)
#[test]
fn image_mipmaps_tgllp() {
    let types = ["1D", "1Darray", "2D", "2Darray", "3D"];
    for suite in ["test_cl_read_write_images", "test_cl_copy_images"] {
        let mut args = vec!["test_mipmaps"];
        args.extend(types);
        args.extend(["CL_RGBA", "CL_UNSIGNED_INT8"]);
        run_suite(suite, &args, "sim:tgllp", &types);
    }
}

/// Every image type the image suites name.
const IMAGE_TYPES: [&str; 6] = ["1D", "1Darray", "2D", "2Darray", "3D", "1Dbuffer"];

#[test]
fn image_read_write_every_type_tgllp() {
    image_suite("test_cl_read_write_images", &IMAGE_TYPES, &IMAGE_TYPES);
}

/// read_image{f,i,ui} without a sampler (OpenCL 1.2), every image type, one format.
#[test]
fn samplerless_reads_every_type_tgllp() {
    image_suite("test_samplerless_reads", &IMAGE_TYPES, &IMAGE_TYPES);
}

/// get_image_width/height/depth/array_size/channel_data_type/channel_order in kernels on 2D
/// images and 1D image buffers (a row pitch given) of every reported format (no format named;
/// about a minute on a loaded machine).
#[test]
fn kernel_image_methods_every_format_tgllp() {
    run_suite(
        "test_kernel_image_methods",
        &["2D", "1Dbuffer", "small_images"],
        "sim:tgllp",
        &["2D", "1Dbuffer"],
    );
}

/// cl_khr_depth_images in the image suites: 2D images and 2D arrays of the CL_DEPTH formats
/// (UNORM_INT16 and FLOAT) read without a sampler through image2d_depth_t and
/// image2d_array_depth_t, queried in kernels, filled, copied, and read and written from the
/// host. Seconds, all five.
#[test]
fn depth_images_tgllp() {
    let args = ["2D", "2Darray", "small_images", "CL_DEPTH"];
    for suite in [
        "test_samplerless_reads",
        "test_kernel_image_methods",
        "test_cl_fill_images",
        "test_cl_copy_images",
        "test_cl_read_write_images",
    ] {
        run_suite(suite, &args, "sim:tgllp", &["2D", "2Darray"]);
    }
}

/// The image suites' kernels on sim:tgllp under the kernel sanitizer, as
/// [`samplerless_reads_every_type_tgllp`], [`kernel_image_methods_every_format_tgllp`] and
/// [`depth_images_tgllp`] run them: every sub-test passes as without, with no finding. (The
/// other image suites, test_cl_fill_images, test_cl_copy_images, test_cl_read_write_images and
/// test_cl_get_info, run no kernel: this ICD performs their commands on the host.) About 30 s.
#[test]
fn images_tgllp_under_the_sanitizer() {
    let cmake = require!(Oracle::CtsBuild);
    let _ocloc = require!(Oracle::Ocloc);
    let mut every_type = IMAGE_TYPES.to_vec();
    every_type.extend_from_slice(&["small_images", "CL_RGBA", "CL_UNSIGNED_INT8"]);
    let depth = ["2D", "2Darray", "small_images", "CL_DEPTH"];
    for (suite, args, expect) in [
        ("test_samplerless_reads", &every_type[..], &IMAGE_TYPES[..]),
        (
            "test_kernel_image_methods",
            &["2D", "small_images"],
            &["2D"],
        ),
        ("test_samplerless_reads", &depth, &["2D", "2Darray"]),
        ("test_kernel_image_methods", &depth, &["2D", "2Darray"]),
    ] {
        under_the_sanitizer(&cmake, suite, args, expect, &[]);
    }
}

/// `test_cl_get_info` over every image type, each created with every host-pointer flag
/// (CL_MEM_USE_HOST_PTR included) and queried; small images of the CL_UNSIGNED_INT8 formats
/// (its harness takes a channel type, not an order). A second or two.
#[test]
fn image_get_info_tgllp() {
    let mut args = IMAGE_TYPES.to_vec();
    args.extend_from_slice(&["small_images", "CL_UNSIGNED_INT8"]);
    run_suite("test_cl_get_info", &args, "sim:tgllp", &IMAGE_TYPES);
}

/// test_buffers on sim:tgllp: copy, partial copy, fill, map for read and write, read and write
/// (blocking, async, with barriers, random sizes), migrate, the creation flags and sub-buffers,
/// each on one or two element types (every type passed when run: `opencl/README.md`). The
/// suite has no rect tests at the pinned commit (those are in test_basic).
const BUFFERS: &[&str] = &[
    "array_info_size",
    "buffer_copy",
    "buffer_partial_copy",
    "buffer_fill_struct",
    "buffer_fill_uchar",
    "buffer_map_read_struct",
    "buffer_map_read_char",
    "buffer_map_write_struct",
    "buffer_map_write_uchar",
    "buffer_read_char",
    "buffer_read_half",
    "buffer_read_struct",
    "buffer_read_random_size",
    "buffer_read_async_uchar",
    "buffer_read_array_barrier_char",
    "buffer_write_struct",
    "buffer_write_char",
    "buffer_write_async_char",
    "buffer_migrate",
    "image_migrate",
    "mem_read_write_flags",
    "mem_write_only_flags",
    "mem_read_only_flags",
    "mem_copy_host_flags",
    "mem_alloc_ref_flags",
    "sub_buffers_read_write",
    "sub_buffers_overlapping",
];

/// Wall time on the shared 2-core machine: about a minute and a half, the two sub-buffer tests
/// (20 s each) the largest part.
#[test]
fn buffers_tgllp() {
    run_suite("test_buffers", &buffers_run(), "sim:tgllp", BUFFERS);
}

/// What test_buffers runs: [`BUFFERS`] and the listed skips.
fn buffers_run() -> Vec<&'static str> {
    let mut run = BUFFERS.to_vec();
    run.extend(skipped_in("test_buffers"));
    run
}

/// The sub-tests of `suite` listed in [`SKIPPED`].
fn skipped_in(suite: &str) -> impl Iterator<Item = &'static str> + '_ {
    SKIPPED
        .iter()
        .filter(move |(s, ..)| *s == suite)
        .map(|(_, n, _)| *n)
}

/// [`buffers_tgllp`]'s sub-tests under the kernel sanitizer: they pass as without, with no
/// finding (sub-buffers included, each bounding its dispatch). About 100 s.
#[test]
fn buffers_tgllp_under_the_sanitizer() {
    let cmake = require!(Oracle::CtsBuild);
    let _ocloc = require!(Oracle::Ocloc);
    under_the_sanitizer(&cmake, "test_buffers", &buffers_run(), BUFFERS, &[]);
}

/// test_c11_atomics on sim:tgllp, with the harness's own options cutting threads and loop
/// counts (the rest, run by hand: `opencl/README.md`). Each sub-test builds one kernel per type
/// x order x scope x address space (global, local). `atomic_flag`: test_and_set/clear as locks
/// of one critical section per work-item, with acquire/release fences; `atomic_init`;
/// `atomic_fetch_min`: signed and unsigned min. About 110 s together on the loaded machine.
const C11_ATOMICS: &[&str] = &["atomic_flag", "atomic_init", "atomic_fetch_min"];

#[test]
fn c11_atomics_tgllp() {
    let mut args = C11_ATOMICS.to_vec();
    args.extend(["-maxDeviceThreads", "64", "-internalIterations", "100"]);
    run_suite("test_c11_atomics", &args, "sim:tgllp", C11_ATOMICS);
}

/// test_c11_atomics' `atomic_init` and `atomic_flag` under the kernel sanitizer, with
/// [`c11_atomics_tgllp`]'s options: they pass as without, with no finding (about 25 s and
/// 75 s). atomic_flag's critical sections, locks shared by work-groups, are ordered by its
/// fences and the flag's atomics (racecheck, `firmware-notes/sanitizer.md`).
/// `atomic_fetch_min` passes with no finding too, at minutes' cost.
#[test]
fn c11_atomics_tgllp_under_the_sanitizer() {
    let cmake = require!(Oracle::CtsBuild);
    let _ocloc = require!(Oracle::Ocloc);
    let args = [
        "atomic_init",
        "atomic_flag",
        "-maxDeviceThreads",
        "64",
        "-internalIterations",
        "100",
    ];
    under_the_sanitizer(
        &cmake,
        "test_c11_atomics",
        &args,
        &["atomic_init", "atomic_flag"],
        &[],
    );
}

/// test_basic sub-tests on sim:tgllp that take seconds each: work-item functions and offsets,
/// kernel arguments of every type, constant memory, barriers, host pointers, maps, integer
/// math and conversions, image copies and reads, a kernel-scope __local array read back in a
/// loop (SLM OWord block reads), and the listed skips and known failure (every sub-test's
/// status and time: `opencl/README.md`).
const BASIC: &[&str] = &[
    "arraycopy",
    "arrayimagecopy",
    "arrayreadwrite",
    "barrier",
    "wg_barrier",
    "parameter_types",
    "constant",
    "constant_source",
    "createkernelsinprogram",
    "enqueue_map_buffer",
    "enqueue_map_image",
    "get_linear_ids",
    "global_linear_id",
    "global_work_offsets",
    "get_global_offset",
    "hostptr",
    "if",
    "image_param",
    "image_r8",
    "image_multipass_integer_coord",
    "imagearraycopy",
    "imagecopy",
    "imagecopy3d",
    "imagenpot",
    "imagerandomcopy",
    "imagereadwrite",
    "imagereadwrite3d",
    "int2fp",
    "fp2int",
    "intmath_int",
    "intmath_long",
    "kernel_call_kernel_function",
    "kernel_memory_alignment_global",
    "local_arg_def",
    "local_kernel_def",
    "local_kernel_scope",
    "local_linear_id",
    "loop",
    "mri_one",
    "mri_multiple",
    "host_numeric_constants",
    "kernel_numeric_constants",
    "kernel_limit_constants",
    "pointer_cast",
    "progvar_prog_scope_misc",
    "progvar_prog_scope_uninit",
    "progvar_prog_scope_init",
    "progvar_func_scope",
    "kernel_preprocessor_macros",
    "readimage",
    "readimage_fp32",
    "readimage3d",
    "rw_image_access_qualifier",
    "work_item_functions",
    "vector_creation",
    "vload_global",
    "vstore_global",
    "writeimage",
];

/// test_basic's sub-tests [`basic_tgllp`] runs: [`BASIC`], the known failures and the skips.
fn basic_run() -> Vec<&'static str> {
    let mut run = BASIC.to_vec();
    run.extend(
        KNOWN_FAIL
            .iter()
            .filter(|(s, ..)| *s == "test_basic")
            .map(|(_, _, n, _)| *n),
    );
    run.extend(skipped_in("test_basic"));
    run
}

#[test]
fn basic_tgllp() {
    run_suite("test_basic", &basic_run(), "sim:tgllp", BASIC);
}

/// test_basic's work-group async copies on sim:tgllp (`async_work_group_copy` and
/// `async_work_group_strided_copy`, global to local and back, every element type and vector
/// size, then `wait_group_events`): each took 5 to 7 minutes interpreted, under two with
/// translated code.
const BASIC_ASYNC: &[&str] = &[
    "async_copy_global_to_local",
    "async_copy_local_to_global",
    "async_strided_copy_global_to_local",
    "async_strided_copy_local_to_global",
];

#[test]
fn basic_async_copies_tgllp() {
    run_suite("test_basic", BASIC_ASYNC, "sim:tgllp", BASIC_ASYNC);
}

/// test_basic's `imagedim_pow2` on sim:tgllp: a kernel copying a 2D image through a sampler
/// for every power-of-two width × height up to the largest the device's memory allows
/// (16384 × 16384 here: a quarter of the reported 4 GB), the work-group size left to the
/// runtime. About 70 s with translated code (interpreted, it did not finish in 15 minutes).
/// Its sibling is [`basic_imagedim_non_pow2_tgllp`].
#[test]
fn basic_imagedim_pow2_tgllp() {
    run_suite(
        "test_basic",
        &["imagedim_pow2"],
        "sim:tgllp",
        &["imagedim_pow2"],
    );
}

/// test_basic's `imagedim_non_pow2` on sim:tgllp: the same copy for every image one less
/// than a power of two in width, height or both, up to 16383 × 16383; the images odd in both
/// dimensions go with 1 × 1 work-groups, about a billion one-item work-groups in all. Longer
/// than the test command's budget allows (about 7 minutes with the tests' build of this ICD,
/// both cores busy), so it runs after it: `scripts/test-long` (CI runs it), or
/// `cargo test -p opencl --test cts -- --ignored basic_imagedim_non_pow2_tgllp`.
#[test]
#[ignore = "minutes of one-item work-groups: scripts/test-long runs it, after the test command"]
fn basic_imagedim_non_pow2_tgllp() {
    run_suite(
        "test_basic",
        &["imagedim_non_pow2"],
        "sim:tgllp",
        &["imagedim_non_pow2"],
    );
}

/// test_basic's sub-tests [`basic_tgllp`] runs, on sim:tgllp under every memory and
/// synchronization check of the kernel sanitizer (`api` left out: the harness probes with bad
/// arguments on purpose): they pass (and fail) as without. vector_creation loads whole small
/// buffers as vectors at constant offsets, which IGC reads as OWord blocks rounded past the
/// buffer's end and (64-bit `vload3`) a padding element read on its own past the end; the
/// kernels discard those bytes, so memcheck, which reports bytes such reads load past the end
/// only where they are used, has nothing to report there. The one finding is true:
/// work_item_functions' `sample_kernel` stores `get_global_id(i)`, `get_local_id(i)` and
/// `get_group_id(i)` for every dimension to `outData[get_global_id(0)]`, so in its 2- and
/// 3-dimensional dispatches the work-items of one column (same id 0, different id 1) write
/// different values to the same words with nothing ordering them: a data race (the harness
/// checks only what it can of the result).
#[test]
fn basic_tgllp_under_the_sanitizer() {
    let cmake = require!(Oracle::CtsBuild);
    let _ocloc = require!(Oracle::Ocloc);
    under_the_sanitizer(
        &cmake,
        "test_basic",
        &basic_run(),
        BASIC,
        &[(
            "racecheck",
            "sample_kernel",
            "4-byte write of global memory races with a write by sub-group",
        )],
    );
}

/// SPIR-V specialization constants (clSetProgramSpecializationConstant) of every type the
/// suite has, and the IL versions the device reports (`basic_versions` builds a module of
/// each).
const SPIRV_SPEC: &[&str] = &[
    "basic_versions",
    "op_spec_constant_uchar_simple",
    "op_spec_constant_ushort_simple",
    "op_spec_constant_uint_simple",
    "op_spec_constant_ulong_simple",
    "op_spec_constant_float_simple",
    "op_spec_constant_half_simple",
    "op_spec_constant_true_simple",
    "op_spec_constant_false_simple",
];

/// test_spirv_new whole on sim:tgllp (242 sub-tests, SPIR-V 1.0 modules assembled by
/// spirv-as: every instruction class, decorations, linkage, printf, spec constants); any
/// sub-test not passing must be a listed skip.
#[test]
fn spirv_new_tgllp() {
    run_suite("test_spirv_new", &[], "sim:tgllp", SPIRV_SPEC);
}

/// test_spirv_new's `decorate_fp_rounding_mode_*` sub-tests under the kernel sanitizer (the
/// suite whole takes about 4 minutes there: `firmware-notes/sanitizer.md`). They pass as
/// without, and memcheck's findings are true: `test_fp_rounding` (test_decorate.cpp) creates
/// its output buffer `CL_MEM_READ_ONLY`, which the kernel `decorate_rounding_<mode>_<in>_<out>`
/// then writes (OpenCL 3.0, clCreateBuffer: writing a read-only buffer inside a kernel is
/// undefined). The `double_long` variants pass without running (no fp64 on Gen12LP).
#[test]
fn spirv_new_tgllp_under_the_sanitizer() {
    let cmake = require!(Oracle::CtsBuild);
    let _ocloc = require!(Oracle::Ocloc);
    let modes = ["rte", "rtz", "rtp", "rtn"];
    let run: Vec<String> = ["half_short", "float_int", "double_long"]
        .iter()
        .flat_map(|t| modes.map(|m| format!("decorate_fp_rounding_mode_{m}_{t}")))
        .collect();
    let run: Vec<&str> = run.iter().map(String::as_str).collect();
    let kernels: Vec<String> = ["half_short", "float_int"]
        .iter()
        .flat_map(|t| modes.map(|m| format!("decorate_rounding_{m}_{t}")))
        .collect();
    let judged: Vec<support::Judged<'_>> = kernels
        .iter()
        .map(|k| ("memcheck", k.as_str(), "write to a read-only allocation"))
        .collect();
    under_the_sanitizer(&cmake, "test_spirv_new", &run, &run, &judged);
}

/// Specialization constants on Gen9, whose fp64 runs the double one too.
#[test]
fn spirv_new_spec_constants_skl() {
    let mut run = SPIRV_SPEC.to_vec();
    run.push("op_spec_constant_double_simple");
    run_suite("test_spirv_new", &run, "sim:skl", &run);
}

#[test]
fn spirv_new_spec_constants_dg2() {
    let mut run = SPIRV_SPEC.to_vec();
    run.push("op_spec_constant_double_simple");
    run_suite("test_spirv_new", &run, "sim:dg2", SPIRV_SPEC);
}

/// test_events whole on sim:tgllp: event status and info, waits and finishes, markers and
/// barriers with and without wait lists, out-of-order wait lists on one and several queues,
/// user events (also set from other threads), callbacks (also on an error status). The
/// `multi_device` sub-tests pass with the one device there is.
const EVENTS: &[&str] = &[
    "callbacks",
    "callbacks_simultaneous",
    "callback_on_error_simple",
    "callback_on_error_enqueue_command",
    "out_of_order_event_waitlist_single_queue",
    "out_of_order_event_waitlist_multi_queue",
    "out_of_order_event_waitlist_multi_queue_multi_device",
    "out_of_order_event_enqueue_wait_for_events_single_queue",
    "out_of_order_event_enqueue_wait_for_events_multi_queue",
    "out_of_order_event_enqueue_barrier_single_queue",
    "out_of_order_event_enqueue_marker_single_queue",
    "out_of_order_event_enqueue_marker_multi_queue",
    "out_of_order_event_enqueue_marker_multi_queue_multi_device",
    "waitlists",
    "userevents",
    "userevents_multithreaded",
    "event_get_execute_status",
    "event_get_info",
    "event_get_write_array_status",
    "event_get_read_array_status",
    "event_wait_for_execute",
    "event_wait_for_array",
    "event_flush",
    "event_finish_execute",
    "event_finish_array",
    "event_release_before_done",
    "event_enqueue_marker",
    "event_enqueue_marker_with_event_list",
    "event_enqueue_barrier_with_event_list",
];

#[test]
fn events_tgllp() {
    run_suite("test_events", &[], "sim:tgllp", EVENTS);
}

/// test_printf whole on sim:tgllp: every conversion of OpenCL C's printf (integers of each
/// length modifier, half and float with their limits, octal, hexadecimal, characters, strings,
/// vectors, address spaces), format strings, random mixed formats, the buffer's size and
/// printf's return value; the output each kernel prints is compared with the host's printf.
/// fp64 and the OpenCL 3.1 sub-tests are listed skips.
const PRINTF: &[&str] = &[
    "int",
    "long",
    "half",
    "half_limits",
    "float",
    "float_limits",
    "octal",
    "unsigned",
    "hexadecimal",
    "char",
    "string",
    "format_string",
    "vector",
    "address_space",
    "mixed_format_random",
    "length_specifier",
    "buffer_size",
    "return_value",
];

#[test]
fn printf_tgllp() {
    run_suite("test_printf", &[], "sim:tgllp", PRINTF);
}
