//! Runs Intel's `iga64` on bytes or text.

use std::path::Path;
use std::process::Command;

use crate::{run, Platform};

/// `iga64 -d -p=P` of raw kernel bytes: IGA-syntax text, exactly as iga64 prints it.
/// `extra` is passed through (e.g. `-n` for numeric labels, `-Xprint-pc`).
pub fn disasm(
    iga64: &Path,
    platform: Platform,
    bytes: &[u8],
    extra: &[&str],
) -> Result<String, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let input = dir.path().join("in.krn");
    std::fs::write(&input, bytes).map_err(|e| e.to_string())?;
    let out = run(Command::new(iga64)
        .arg("-d")
        .arg(format!("-p={}", platform.iga_name()))
        .args(extra)
        .arg(&input))?;
    String::from_utf8(out).map_err(|e| format!("iga64 printed non-UTF-8: {e}"))
}

/// `iga64 -a -p=P` of IGA-syntax text: the encoded kernel bytes.
pub fn asm(
    iga64: &Path,
    platform: Platform,
    text: &str,
    extra: &[&str],
) -> Result<Vec<u8>, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let input = dir.path().join("in.asm");
    let output = dir.path().join("out.krn");
    std::fs::write(&input, text).map_err(|e| e.to_string())?;
    run(Command::new(iga64)
        .arg("-a")
        .arg(format!("-p={}", platform.iga_name()))
        .args(extra)
        .arg(&input)
        .arg("-o")
        .arg(&output))?;
    std::fs::read(&output).map_err(|e| format!("iga64 wrote no output: {e}"))
}
