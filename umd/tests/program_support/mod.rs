//! Shared by the program tests: the OpenCL C corpus compiled by ocloc, and readers for what
//! ocloc itself prints about its binaries (PTM.txt, the .ze_info text).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use oracles::ocloc::{self, Format};
use platform::Platform;

/// One corpus file compiled for one platform in both formats.
pub struct Compiled {
    pub file: String,
    pub source: String,
    pub platform: Platform,
    pub patch_tokens: Vec<u8>,
    pub zebin: Vec<u8>,
}

pub const OPTIONS: &str = "-cl-std=CL2.0";

fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels")
}

/// A `// key: value` line among a corpus file's leading comments.
fn header<'s>(source: &'s str, key: &str) -> Option<&'s str> {
    source
        .lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| l.strip_prefix("// ")?.strip_prefix(key)?.strip_prefix(':'))
}

/// The ocloc options for a corpus file: `OPTIONS` plus what it asks for with `// options: ...`.
pub fn options_of(source: &str) -> String {
    match header(source, "options") {
        Some(extra) => format!("{OPTIONS} {}", extra.trim()),
        None => OPTIONS.to_string(),
    }
}

/// Platforms a corpus file is for: all, unless it says `// platforms: a b`.
fn platforms_of(source: &str) -> Vec<Platform> {
    match header(source, "platforms") {
        Some(list) => list
            .split_whitespace()
            .map(|p| p.parse().expect("platform name in corpus header"))
            .collect(),
        None => Platform::ALL.to_vec(),
    }
}

/// The corpus, compiled once per test binary (ocloc is slow; tests share it).
pub fn corpus(ocloc: &Path) -> &'static [Compiled] {
    static CORPUS: OnceLock<Vec<Compiled>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut files: Vec<_> = std::fs::read_dir(kernels_dir())
            .expect("tests/kernels")
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "cl"))
            .collect();
        files.sort();
        let mut out = Vec::new();
        for path in files {
            let source = std::fs::read_to_string(&path).unwrap();
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            for platform in platforms_of(&source) {
                let build = |format| {
                    compile_cached(ocloc, platform, &source, format)
                        .unwrap_or_else(|e| panic!("{file} for {platform}: {e}"))
                };
                out.push(Compiled {
                    patch_tokens: build(Format::PatchTokens),
                    zebin: build(Format::Zebin),
                    file: file.clone(),
                    source: source.clone(),
                    platform,
                });
            }
        }
        out
    })
}

/// `ocloc::compile` with the file's options, remembered in the build's scratch directory across test
/// binaries and runs (keyed by the source, the target, the format and the ocloc binary).
pub fn compile_cached(
    ocloc: &Path,
    platform: Platform,
    source: &str,
    format: Format,
) -> Result<Vec<u8>, String> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let options = options_of(source);
    (source, platform, format == Format::Zebin, &options).hash(&mut h);
    if let Ok(m) = std::fs::metadata(ocloc) {
        (m.len(), m.modified().ok()).hash(&mut h);
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("umd-ocloc-corpus");
    let path = dir.join(format!("{:016x}.bin", h.finish()));
    if let Ok(bytes) = std::fs::read(&path) {
        return Ok(bytes);
    }
    let bytes = ocloc::compile(ocloc, platform, source, &options, format)?;
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let tmp = tempfile::NamedTempFile::new_in(&dir).map_err(|e| e.to_string())?;
    std::fs::write(tmp.path(), &bytes).map_err(|e| e.to_string())?;
    tmp.persist(&path).map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// What `intel_reqd_sub_group_size(N)` the source puts on kernel `name`, if any.
pub fn reqd_sub_group_size_in_source(source: &str, name: &str) -> Option<u32> {
    let at = source.find(&format!("kernel void {name}("))?;
    let before = &source[..at];
    let attr_start = before
        .rfind(';')
        .or_else(|| before.rfind('}'))
        .map_or(0, |i| i + 1);
    let attrs = &before[attr_start..];
    let v = attrs.split("intel_reqd_sub_group_size(").nth(1)?;
    v.split(')').next()?.trim().parse().ok()
}

// ---- PTM.txt, as `ocloc disasm -dump` writes it ----

/// One patch token as PTM.txt prints it: its number, size, and the bytes after the item header
/// (named fields re-encoded little-endian at their printed width, then the `Hex` bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PtmToken {
    pub id: u32,
    pub size: u32,
    pub bytes: Vec<u8>,
}

#[derive(Debug, Default)]
pub struct PtmKernel {
    pub header: Vec<(String, u64)>,
    pub name: String,
    pub tokens: Vec<PtmToken>,
}

#[derive(Debug, Default)]
pub struct Ptm {
    pub program_header: Vec<(String, u64)>,
    pub program_tokens: Vec<PtmToken>,
    pub kernels: Vec<PtmKernel>,
}

pub fn field(fields: &[(String, u64)], name: &str) -> u64 {
    fields
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("PTM.txt has no field {name}"))
        .1
}

pub fn parse_ptm(text: &str) -> Ptm {
    enum Block {
        ProgramHeader,
        KernelHeader,
        Token,
    }
    let mut ptm = Ptm::default();
    let mut block = Block::ProgramHeader;
    let mut tok: Option<PtmToken> = None;
    let mut in_kernel = false;
    let flush = |ptm: &mut Ptm, tok: &mut Option<PtmToken>, in_kernel: bool| {
        if let Some(t) = tok.take() {
            if in_kernel {
                ptm.kernels.last_mut().unwrap().tokens.push(t);
            } else {
                ptm.program_tokens.push(t);
            }
        }
    };
    for line in text.lines() {
        if let Some(body) = line.strip_prefix('\t') {
            let mut words = body.split_whitespace();
            let first = words.next().unwrap_or_default();
            match block {
                Block::ProgramHeader | Block::KernelHeader => {
                    let (name, value): (String, u64) = if first == "KernelName" {
                        ptm.kernels.last_mut().unwrap().name = words.collect::<Vec<_>>().join(" ");
                        continue;
                    } else {
                        (
                            words.next().unwrap().to_string(),
                            words.next().unwrap().parse().unwrap(),
                        )
                    };
                    match block {
                        Block::ProgramHeader => ptm.program_header.push((name, value)),
                        _ => ptm.kernels.last_mut().unwrap().header.push((name, value)),
                    }
                }
                Block::Token => {
                    let t = tok.as_mut().unwrap();
                    if first == "Hex" {
                        t.bytes
                            .extend(words.map(|h| u8::from_str_radix(h, 16).unwrap()));
                        continue;
                    }
                    let width: usize = first.parse().unwrap();
                    let name = words.next().unwrap();
                    let value: u64 = words.next().unwrap().parse().unwrap();
                    match name {
                        "Token" => t.id = value as u32,
                        "Size" => t.size = value as u32,
                        _ => t.bytes.extend_from_slice(&value.to_le_bytes()[..width]),
                    }
                }
            }
            continue;
        }
        flush(&mut ptm, &mut tok, in_kernel);
        if line.starts_with("Kernel #") {
            in_kernel = true;
            ptm.kernels.push(PtmKernel::default());
        } else if line == "ProgramBinaryHeader:" {
            block = Block::ProgramHeader;
        } else if line == "KernelBinaryHeader:" {
            block = Block::KernelHeader;
        } else if line.ends_with(':') {
            block = Block::Token;
            tok = Some(PtmToken {
                id: u32::MAX,
                size: 0,
                bytes: Vec::new(),
            });
        } else if !line.trim().is_empty() {
            panic!("unexpected PTM.txt line {line:?}");
        }
    }
    flush(&mut ptm, &mut tok, in_kernel);
    ptm
}

/// Runs `ocloc disasm -dump` on a patch-token binary; returns PTM.txt and the dump directory.
pub fn ocloc_dump(ocloc: &Path, binary: &[u8], device: Platform) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("in.bin");
    std::fs::write(&bin, binary).unwrap();
    let dump = dir.path().join("dump");
    let out = std::process::Command::new(ocloc)
        .arg("disasm")
        .arg("-file")
        .arg(&bin)
        .arg("-dump")
        .arg(&dump)
        .arg("-device")
        .arg(device.ocloc_device())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "ocloc disasm: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ptm = std::fs::read_to_string(dump.join("PTM.txt")).expect("PTM.txt");
    (ptm, dir)
}

// ---- the .ze_info text, read line by line (independently of the serde schema) ----

/// One kernel of the .ze_info text: its execution_env scalars and each payload argument as
/// key/value pairs, exactly as ocloc wrote them.
#[derive(Debug, Default)]
pub struct ZeText {
    pub name: String,
    pub env: Vec<(String, String)>,
    pub attributes: Vec<(String, String)>,
    pub payload: Vec<Vec<(String, String)>>,
    pub per_thread: Vec<Vec<(String, String)>>,
    pub btis: Vec<Vec<(String, String)>>,
    pub memory_buffers: Vec<Vec<(String, String)>>,
}

impl ZeText {
    pub fn env(&self, key: &str) -> Option<u64> {
        self.env
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| parse_value(v))
    }
}

pub fn parse_value(v: &str) -> u64 {
    match v {
        "true" => 1,
        "false" => 0,
        _ => v
            .trim_matches('\'')
            .parse()
            .unwrap_or_else(|_| panic!("number {v:?}")),
    }
}

/// Reads the `kernels:` list of a .ze_info text (the block layout ocloc writes).
pub fn parse_ze_text(text: &str) -> Vec<ZeText> {
    let mut kernels: Vec<ZeText> = Vec::new();
    let mut section = String::new();
    let mut in_kernels = false;
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let t = line.trim();
        if indent == 0 {
            in_kernels = t == "kernels:";
            continue;
        }
        if !in_kernels {
            continue;
        }
        if indent == 2 {
            if let Some(name) = t.strip_prefix("- name:") {
                kernels.push(ZeText {
                    name: name.trim().to_string(),
                    ..ZeText::default()
                });
            }
            continue;
        }
        let k = kernels.last_mut().unwrap();
        if indent == 4 {
            section = t.trim_end_matches(':').to_string();
            continue;
        }
        let (entry_start, kv) = match t.strip_prefix("- ") {
            Some(rest) => (true, rest),
            None => (false, t),
        };
        let (key, value) = kv.split_once(':').unwrap();
        let pair = (key.trim().to_string(), value.trim().to_string());
        let list = match section.as_str() {
            "execution_env" => {
                k.env.push(pair);
                continue;
            }
            "user_attributes" => {
                k.attributes.push(pair);
                continue;
            }
            "payload_arguments" => &mut k.payload,
            "per_thread_payload_arguments" => &mut k.per_thread,
            "binding_table_indices" => &mut k.btis,
            "per_thread_memory_buffers" => &mut k.memory_buffers,
            _ => continue,
        };
        if entry_start {
            list.push(Vec::new());
        }
        list.last_mut().unwrap().push(pair);
    }
    kernels
}

pub fn get<'a>(entry: &'a [(String, String)], key: &str) -> Option<&'a str> {
    entry
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// Runs `kernel` over `groups` work-groups of `local` items with one output buffer as its only
/// argument, and reads the buffer back as u32s.
pub fn dispatch_u32s(
    d: &umd::device::Device,
    kernel: &umd::kernel::Kernel,
    groups: u32,
    local: u32,
) -> Result<Vec<u32>, umd::Error> {
    let n = groups * local;
    let out = d.create_buffer(u64::from(n) * 4)?;
    let range = umd::ndrange::NdRange::new(&[n], Some(&[local]), kernel.simd, None)?;
    d.dispatch(
        kernel,
        &range,
        &[umd::payload::ArgValue::Buffer(out.clone())],
    )?;
    Ok(out
        .to_vec()?
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}
