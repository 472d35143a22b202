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

/// Each instruction of `bytes` as iga64 disassembles it: (byte offset, text). The offsets are
/// iga64's own (`-Xprint-pc`), independent of any decoder under test.
pub fn listing(
    iga64: &Path,
    platform: Platform,
    bytes: &[u8],
) -> Result<Vec<(u32, String)>, String> {
    let text = disasm(iga64, platform, bytes, &["-Xprint-pc"])?;
    Ok(text
        .lines()
        .filter_map(|l| {
            let (pc, text) = l.trim_start().strip_prefix("/* [")?.split_once(']')?;
            let text = text.trim_start().strip_prefix("*/")?.trim();
            Some((u32::from_str_radix(pc.trim(), 16).ok()?, text.to_string()))
        })
        .collect())
}

/// Byte offsets (iga64's own) of the instructions of `bytes` whose iga64 text satisfies `pick`.
pub fn offsets_of(
    iga64: &Path,
    platform: Platform,
    bytes: &[u8],
    pick: impl Fn(&str) -> bool,
) -> Result<Vec<u32>, String> {
    Ok(listing(iga64, platform, bytes)?
        .into_iter()
        .filter(|(_, t)| pick(t))
        .map(|(pc, _)| pc)
        .collect())
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
