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
    let dir = tempfile::tempdir().unwrap();
    let hashes = dir.path().join("hashes.txt");
    std::fs::write(&hashes, format!("{hash}\n")).unwrap();
    let mut cmd: Command = support::command(hashcat, icd, dev);
    // A session of its own: hashcat refuses to start while another instance runs one of the
    // same name (its pid file lives in the user's profile directory).
    let session = format!("intel-gpu-compute-test-{}", std::process::id());
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
    // MD5 and SHA-256 of "4711" (`printf 4711 | md5sum`, `| sha256sum`). SHA-256 only on Gen9:
    // on sim:tgllp and sim:dg2 hashcat's smallest SHA-256 autotune launch runs longer on the
    // simulator than hashcat allows a kernel (its "default TDR"), so it skips the device
    // (opencl/README.md, Applications).
    let md5 = ("0", "b52340b4de4566b804c9880aa0b4af5f");
    let sha256 = (
        "1400",
        "de650d61f5bd166a91f8ccec3158297db18b9d50eaedca238cd29dc3a214a916",
    );
    for (dev, cases) in [("sim:skl", vec![md5, sha256]), ("sim:tgllp", vec![md5])] {
        let info = support::run(support::command(&hashcat, &icd, dev).arg("-I"));
        assert!(
            info.contains("Vendor.ID......: 8\n"),
            "{dev}: not hashcat's Intel vendor id:\n{info}"
        );
        for (mode, hash) in cases {
            let out = crack(&hashcat, &icd, dev, mode, hash);
            assert!(
                out.contains(&format!("{hash}:4711")),
                "{dev} mode {mode}:\n{out}"
            );
        }
    }
}
