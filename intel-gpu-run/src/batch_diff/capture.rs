//! A captured run read back: the simulator's command log (`<n>-<engine>.bin`, every batch
//! command executed by request `n`) and its dispatch records (`<n>-<engine>.dispatch.jsonl`,
//! one JSON object per walker dispatched).

use std::collections::HashMap;
use std::path::Path;

use batchbuffer::{identify, PacketId};
use platform::Platform;
use serde_json::Value;

/// One executed command.
#[derive(Debug, Clone)]
pub struct Cmd {
    /// The request's log file, without extension (`0003-rcs0`).
    pub file: String,
    /// Byte offset in that file.
    pub offset: usize,
    /// `None` for a header the decoder does not know.
    pub packet: Option<PacketId>,
    pub dwords: Vec<u32>,
}

impl Cmd {
    pub fn at(&self) -> String {
        format!("{}@0x{:x}", self.file, self.offset)
    }
}

/// Every command of a capture, requests in order, and the walkers' dispatch records by
/// (file, offset).
#[derive(Debug, Default)]
pub struct Run {
    pub cmds: Vec<Cmd>,
    pub records: HashMap<(String, usize), Value>,
}

impl Run {
    /// The record of the walker `c`, if it was dispatched (a predicated-off walker has none).
    pub fn record(&self, c: &Cmd) -> Option<&Value> {
        self.records.get(&(c.file.clone(), c.offset))
    }
}

/// Splits a command log's bytes into commands.
pub fn commands(p: Platform, file: &str, bytes: &[u8]) -> Result<Vec<Cmd>, String> {
    if !bytes.len().is_multiple_of(4) {
        return Err(format!("{file}: {} bytes, not whole dwords", bytes.len()));
    }
    let dw: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < dw.len() {
        let (packet, len) = match identify(p, &dw[at..]) {
            Ok(id) => (Some(id.packet), id.len),
            Err(batchbuffer::IdentifyError::Truncated { packet, .. }) => {
                return Err(format!("{file}@0x{:x}: {packet} truncated", 4 * at));
            }
            // The simulator executed it, so it was a command of this platform: a log of
            // another platform, or a command this decoder lacks.
            Err(e) => return Err(format!("{file}@0x{:x}: {e} (is -p right?)", 4 * at)),
        };
        out.push(Cmd {
            file: file.to_string(),
            offset: 4 * at,
            packet,
            dwords: dw[at..at + len].to_vec(),
        });
        at += len;
    }
    Ok(out)
}

/// Reads every `<n>-<engine>.bin` of `dir` (in request order) and its dispatch records.
pub fn load(p: Platform, dir: &Path) -> Result<Run, String> {
    let err = |e: std::io::Error| format!("cannot read {}: {e}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(err)?
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".bin"))
        .collect();
    if names.is_empty() {
        return Err(format!(
            "{}: no command log (<n>-<engine>.bin) here",
            dir.display()
        ));
    }
    // `<n>-` is zero-padded, so name order is request order.
    names.sort();
    let mut run = Run::default();
    for name in names {
        let stem = name.trim_end_matches(".bin").to_string();
        let path = dir.join(&name);
        let bytes =
            std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        run.cmds.extend(commands(p, &stem, &bytes)?);
        let rec = dir.join(format!("{stem}.dispatch.jsonl"));
        let text = match std::fs::read_to_string(&rec) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("cannot read {}: {e}", rec.display())),
        };
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let v: Value = serde_json::from_str(line)
                .map_err(|e| format!("{}:{}: {e}", rec.display(), i + 1))?;
            let offset = v["offset"]
                .as_u64()
                .ok_or_else(|| format!("{}:{}: no \"offset\"", rec.display(), i + 1))?;
            run.records.insert((stem.clone(), offset as usize), v);
        }
    }
    Ok(run)
}
