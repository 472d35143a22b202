//! Runs Intel's `ocloc` to compile OpenCL C into real device binaries.

use std::path::Path;
use std::process::Command;

use crate::{run, Platform};

/// The two container formats ocloc can produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// ocloc's default in Debian's version: patch tokens inside an ocloc ELF.
    PatchTokens,
    /// zebin ELF with `.ze_info` (`--format zebin`).
    Zebin,
}

/// Compiles OpenCL C `source` for `platform`; `options` go to `-options` (e.g. `-cl-std=CL2.0`).
/// Returns the device binary's bytes.
pub fn compile(
    ocloc: &Path,
    platform: Platform,
    source: &str,
    options: &str,
    format: Format,
) -> Result<Vec<u8>, String> {
    let zebin: &[&str] = match format {
        Format::Zebin => &["--format", "zebin"],
        Format::PatchTokens => &[],
    };
    build(
        ocloc,
        platform,
        ("kernel.cl", source.as_bytes()),
        options,
        zebin,
        "out",
    )
}

/// One ocloc run in a fresh directory: `input` (a file name and its bytes) is compiled for
/// `platform` with `options` (`-options`) and `args` (e.g. `-spv_only`, `-spirv_input`), asking
/// for output `out`; returns the bytes of the file `output` ocloc wrote there. An error carries
/// ocloc's exit status and output.
pub fn build(
    ocloc: &Path,
    platform: Platform,
    (name, bytes): (&str, &[u8]),
    options: &str,
    args: &[&str],
    output: &str,
) -> Result<Vec<u8>, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let file = dir.path().join(name);
    std::fs::write(&file, bytes).map_err(|e| e.to_string())?;
    let mut cmd = Command::new(ocloc);
    cmd.arg("-q")
        .arg("-file")
        .arg(&file)
        .arg("-device")
        .arg(platform.ocloc_device())
        .arg("-out_dir")
        .arg(dir.path())
        .arg("-output")
        .arg("out")
        .arg("-output_no_suffix")
        .args(args);
    if !options.is_empty() {
        cmd.arg("-options").arg(options);
    }
    run(&mut cmd)?;
    std::fs::read(dir.path().join(output)).map_err(|e| format!("ocloc wrote no {output}: {e}"))
}

/// One kernel's ISA as `ocloc disasm -dump` extracts it from a patch-token binary.
#[derive(Debug, Clone)]
pub struct KernelHeap {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Extracts every kernel heap (`*_KernelHeap.dat`) from a patch-token binary with `ocloc disasm`.
pub fn kernel_heaps(ocloc: &Path, binary: &[u8]) -> Result<Vec<KernelHeap>, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let bin = dir.path().join("in.bin");
    let dump = dir.path().join("dump");
    std::fs::write(&bin, binary).map_err(|e| e.to_string())?;
    run(Command::new(ocloc)
        .arg("disasm")
        .arg("-file")
        .arg(&bin)
        .arg("-dump")
        .arg(&dump))?;
    let mut heaps = Vec::new();
    for entry in
        std::fs::read_dir(&dump).map_err(|e| format!("ocloc disasm dumped nothing: {e}"))?
    {
        let path = entry.map_err(|e| e.to_string())?.path();
        let file = path
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or_default()
            .to_string();
        if let Some(name) = file.strip_suffix("_KernelHeap.dat") {
            let bytes = std::fs::read(&path).map_err(|e| e.to_string())?;
            heaps.push(KernelHeap {
                name: name.to_string(),
                bytes,
            });
        }
    }
    heaps.sort_by(|a, b| a.name.cmp(&b.name));
    if heaps.is_empty() {
        return Err("ocloc disasm found no kernel heap".into());
    }
    Ok(heaps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{require, Oracle};

    const KERNEL: &str = "kernel void add1(global uint* p) { p[get_global_id(0)] += 1; }";

    #[test]
    fn compiles_and_dumps_a_heap_on_every_platform() {
        let ocloc = require!(Oracle::Ocloc);
        for p in Platform::ALL {
            let bin = compile(&ocloc, p, KERNEL, "", Format::PatchTokens).unwrap();
            let heaps = kernel_heaps(&ocloc, &bin).unwrap();
            assert_eq!(heaps.len(), 1, "{p}");
            assert_eq!(heaps[0].name, "add1");
            // EU instructions are 16 bytes native or 8 compacted.
            assert!(!heaps[0].bytes.is_empty() && heaps[0].bytes.len().is_multiple_of(8));
        }
    }

    #[test]
    fn zebin_is_an_elf() {
        let ocloc = require!(Oracle::Ocloc);
        let bin = compile(&ocloc, Platform::Tgllp, KERNEL, "", Format::Zebin).unwrap();
        assert_eq!(&bin[..4], b"\x7fELF");
    }

    #[test]
    fn iga64_round_trips_an_ocloc_heap() {
        let ocloc = require!(Oracle::Ocloc);
        let iga = require!(Oracle::Iga64);
        let bin = compile(&ocloc, Platform::Tgllp, KERNEL, "", Format::PatchTokens).unwrap();
        let heap = &kernel_heaps(&ocloc, &bin).unwrap()[0];
        let text = crate::iga64::disasm(&iga, Platform::Tgllp, &heap.bytes, &[]).unwrap();
        assert!(text.contains("send"), "{text}");
    }
}
