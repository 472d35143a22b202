//! Assembles IGA-syntax text into kernel bytes, as `iga64 -a` does: instructions marked
//! `{Compacted}` are emitted in their 8-byte form (an error if they have none), all others
//! natively.

use platform::Platform;

use crate::error::AsmError;
use crate::native;
use crate::text::parse::{parse_program, resolve_labels};

/// Compacts a native instruction, if the platform's tables can express it.
fn compact(platform: Platform, native: &[u8; 16]) -> Result<[u8; 8], String> {
    let _ = (platform, native);
    Err("the compaction tables (crate::compact) are not in this build yet".into())
}

/// Assembles `text` for `platform`.
pub fn assemble(platform: Platform, text: &str) -> Result<Vec<u8>, AsmError> {
    let mut prog = parse_program(platform, text)?;
    resolve_labels(&mut prog)?;
    let mut out = Vec::with_capacity(prog.insts.len() * 16);
    for p in &prog.insts {
        let at = |message: String| AsmError {
            line: p.line,
            column: 1,
            message,
        };
        let bytes = native::encode(platform, &p.inst).map_err(|e| at(e.to_string()))?;
        if p.inst.is_compacted() {
            out.extend_from_slice(&compact(platform, &bytes).map_err(at)?);
        } else {
            out.extend_from_slice(&bytes);
        }
    }
    Ok(out)
}
