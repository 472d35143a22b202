//! hashcat (Debian's, nobody here wrote it) cracks known hashes on the ICD's simulated devices,
//! through the ocl-icd loader, taking its Intel OpenCL path: it classifies the platform by its
//! vendor string ("Intel(R) Corporation" is its `VENDOR_ID_INTEL_SDK`, 8; anything unknown is
//! generic, 2147483648) and runs its own self-test of the hash mode before cracking.

mod support;

use std::process::Command;

use oracles::{require, Oracle};

/// A mask attack over four digits on one device: the answer is known from the hash itself
/// (MD5 of "4711"), so a wrong kernel result cannot crack it.
fn crack(
    hashcat: &std::path::Path,
    icd: &support::Icd,
    dev: &str,
    mode: &str,
    hash: &str,
) -> String {
    crack_with(support::command(hashcat, icd, dev), mode, hash)
}

/// [`crack`] with `cmd` (hashcat and its environment).
fn crack_with(mut cmd: Command, mode: &str, hash: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let hashes = dir.path().join("hashes.txt");
    std::fs::write(&hashes, format!("{hash}\n")).unwrap();
    // A session of its own: hashcat refuses to start while another instance runs one of the
    // same name (its pid file lives in the user's profile directory), and this binary's tests
    // run at once.
    static RUNS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let session = format!("intel-gpu-compute-test-{}-{run}", std::process::id());
    // `--force`: hashcat's autotune skips a device whose smallest launch takes longer than a
    // display GPU's watchdog allows (about 2 s of wall clock), which a simulator on a loaded
    // machine may; forced, it runs with its minimum launch sizes. The results are still checked:
    // its self-test of the mode runs, and the hash must crack.
    // `--backend-vector-width 1`: Debian's Intel compiler miscompiles the vectorized kernels'
    // rotates, so candidates of vector components 1 to 3 are missed (opencl/README.md,
    // Applications).
    cmd.args([
        "--quiet",
        "--force",
        "--backend-vector-width",
        "1",
        "--potfile-disable",
        "--backend-devices",
        "1",
        "-O",
    ])
    .args(["--session", &session, "-m", mode, "-a", "3"])
    .arg(&hashes)
    .arg("?d?d?d?d");
    support::run(&mut cmd)
}

#[test]
fn hashcat_takes_the_intel_path_and_cracks_known_hashes_on_simulated_devices() {
    let hashcat = require!(Oracle::Hashcat);
    let icd = support::icd();
    // MD5 and SHA-256 of "4711" (`printf 4711 | md5sum`, `| sha256sum`), on Gen9, Gen12LP and
    // Xe-HPG (sim:dg2's 512 EUs make hashcat's smallest autotune launch longer than its
    // display-GPU watchdog allows: `--force` runs it with its minimum launch sizes).
    let md5 = ("0", "b52340b4de4566b804c9880aa0b4af5f");
    let sha256 = (
        "1400",
        "de650d61f5bd166a91f8ccec3158297db18b9d50eaedca238cd29dc3a214a916",
    );
    for dev in ["sim:skl", "sim:tgllp", "sim:dg2"] {
        let info = support::run(support::command(&hashcat, &icd, dev).arg("-I"));
        assert!(
            info.contains("Vendor.ID......: 8\n"),
            "{dev}: not hashcat's Intel vendor id:\n{info}"
        );
        for (mode, hash) in [md5, sha256] {
            let out = crack(&hashcat, &icd, dev, mode, hash);
            assert!(
                out.contains(&format!("{hash}:4711")),
                "{dev} mode {mode}:\n{out}"
            );
        }
    }
}

/// hashcat's findings under every sanitizer check, each judged against its source (v6.2.6,
/// `src/backend.c` and `OpenCL/*.cl`): (check, kernel name prefix, words of the finding, why
/// it is hashcat's own).
const JUDGED: &[(&str, &str, &str, &str)] = &[
    (
        "memcheck",
        "gpu_bzero",
        "write to a read-only allocation",
        "backend.c creates its bitmap, digest, salt, bfs and markov buffers CL_MEM_READ_ONLY \
         and clears them with its gpu_bzero kernel (run_opencl_kernel_bzero); OpenCL 3.0: \
         writing a buffer created CL_MEM_READ_ONLY inside a kernel is undefined",
    ),
    (
        "memcheck",
        "r_markov",
        "write to a read-only allocation",
        "the markov kernel writes its candidates to d_bfs, created CL_MEM_READ_ONLY",
    ),
    (
        "api",
        "",
        "param_name 0x4038 is not a device query",
        "hashcat asks every device for CL_DEVICE_BOARD_NAME_AMD (cl_amd_device_attribute_query, \
         not listed): CL_INVALID_VALUE, and it goes on without",
    ),
];

/// The MD5 crack on sim:tgllp with every sanitizer check on: it still cracks, and the
/// findings are exactly the judged ones of [`JUDGED`].
#[test]
fn hashcat_under_the_sanitizer_finds_only_its_own_undefined_writes() {
    let hashcat = require!(Oracle::Hashcat);
    let icd = support::icd();
    let log = icd.dir.path().join("findings.jsonl");
    let mut cmd = support::command(&hashcat, &icd, "sim:tgllp");
    cmd.env("INTEL_GPU_SANITIZE", "all")
        .env("INTEL_GPU_SANITIZE_LOG", &log);
    let hash = "b52340b4de4566b804c9880aa0b4af5f";
    let out = crack_with(cmd, "0", hash);
    assert!(out.contains(&format!("{hash}:4711")), "{out}");
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let judged: Vec<support::Judged> = JUDGED.iter().map(|(c, k, w, _)| (*c, *k, *w)).collect();
    support::assert_judged_findings(&text, &judged);
}
