//! intel-gpu-run asm/disasm (formerly isa-encoder's stand-in `isa` binary): `disasm` prints what `iga64 -d` prints, `asm` writes what `iga64 -a`
//! writes; platform names in every vocabulary.

use std::process::Command;

use oracles::{iga64, Oracle};
use platform::Platform;

const TEXT: &str = "(W)     mov (8|M0)               r2.0<1>:ud    r0.0<1;1,0>:ud\n\
(W)     send.dc1 (16|M0)         r6       r8      null    0x0            0x022D0BFF           {@1,$0}\n\
L32:\n\
(f0.0)  while (16|M0)                        L32\n";

#[test]
fn asm_then_disasm_match_iga64() {
    let iga = oracles::require!(Oracle::Iga64);
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("k.asm");
    let out = dir.path().join("k.krn");
    std::fs::write(&src, TEXT).expect("write");
    let st = Command::new(env!("CARGO_BIN_EXE_intel-gpu-run"))
        .args(["asm", "-p", "tgllp"])
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .status()
        .expect("intel-gpu-run runs");
    assert!(st.success());
    let ours = std::fs::read(&out).expect("output");
    assert_eq!(
        ours,
        iga64::asm(&iga, Platform::Tgllp, TEXT, &[]).expect("iga64 -a")
    );

    for name in ["12p1", "tgllp"] {
        let o = Command::new(env!("CARGO_BIN_EXE_intel-gpu-run"))
            .args(["disasm", "-p", name])
            .arg(&out)
            .output()
            .expect("intel-gpu-run runs");
        assert!(o.status.success());
        let want = iga64::disasm(&iga, Platform::Tgllp, &ours, &[]).expect("iga64 -d");
        assert_eq!(String::from_utf8_lossy(&o.stdout), want);
    }
}

#[test]
fn errors_name_file_and_position() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("bad.asm");
    std::fs::write(&src, "nop\nmov (3|M0) r1.0<1>:d r2.0<8;8,1>:d\n").expect("write");
    let o = Command::new(env!("CARGO_BIN_EXE_intel-gpu-run"))
        .args(["asm", "-p", "acm-g10"])
        .arg(&src)
        .output()
        .expect("intel-gpu-run runs");
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.asm:2:5:"), "{err}");

    let o = Command::new(env!("CARGO_BIN_EXE_intel-gpu-run"))
        .args(["disasm", "-p", "gen8"])
        .arg(&src)
        .output()
        .expect("intel-gpu-run runs");
    assert!(!o.status.success());
}
