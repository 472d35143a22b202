//! Assembles IGA-syntax text into kernel bytes, as `iga64 -a` does: instructions marked
//! `{Compacted}` are emitted in their 8-byte form (an error if they have none), all others
//! natively.

use platform::Platform;

use crate::error::AsmError;
use crate::kernel::encode_into;
use crate::text::parse::{parse_program, resolve_labels};

/// Assembles `text` for `platform`.
pub fn assemble(platform: Platform, text: &str) -> Result<Vec<u8>, AsmError> {
    let mut prog = parse_program(platform, text)?;
    resolve_labels(&mut prog)?;
    let mut out = Vec::with_capacity(prog.insts.len() * 16);
    for p in &prog.insts {
        encode_into(platform, &p.inst, &mut out).map_err(|e| AsmError {
            line: p.line,
            column: 1,
            message: e.to_string(),
        })?;
    }
    Ok(out)
}
