//! Assembles IGA-syntax text into kernel bytes, as `iga64 -a` does: instructions marked
//! `{Compacted}` are emitted in their 8-byte form (an error if they have none), all others
//! natively.
//!
//! One pass over the text: each instruction is encoded as soon as it is parsed, except
//! branches to labels, which are encoded once every label's address is known. Errors are the
//! ones a parse-everything-first assembler gives: the first text error, else the first
//! undefined label, else the first instruction that does not encode.

use std::cell::Cell;

use platform::Platform;

use crate::error::{AsmError, EncodeError};
use crate::kernel::encode_into;
use crate::model::FastMap;
use crate::text::parse::{inst_size, label_defined_twice, parse_lines, undefined_label, LineInst};
use crate::text::syntax;

fn encode_error(line: usize, e: EncodeError) -> AsmError {
    AsmError {
        line,
        column: 1,
        message: e.to_string(),
    }
}

/// Assembles `text` for `platform`.
pub fn assemble(platform: Platform, text: &str) -> Result<Vec<u8>, AsmError> {
    // iga64's text takes about seven bytes per byte of binary.
    let mut out = Vec::with_capacity(text.len() / 6);
    let pc = Cell::new(0u32);
    let mut labels: FastMap<&str, u32> = FastMap::default();
    // Branches to labels: their address (where their bytes go), and the parsed line.
    let mut pending: Vec<(u32, LineInst)> = Vec::new();
    // The first instruction (not pending) that did not encode; nothing is encoded after it.
    let mut failed: Option<AsmError> = None;
    parse_lines(
        platform,
        text,
        |name, line, col| match labels.insert(name, pc.get()) {
            Some(_) => Err(label_defined_twice(name, line, col)),
            None => Ok(()),
        },
        |p| {
            let here = pc.get();
            pc.set(here + inst_size(&p.inst));
            if p.jip.is_some() || p.uip.is_some() {
                // Until something fails to encode, `out` ends at `here`.
                if failed.is_none() {
                    out.resize(out.len() + inst_size(&p.inst) as usize, 0);
                }
                pending.push((here, p));
            } else if failed.is_none() {
                if let Err(e) = encode_into(platform, &p.inst, &mut out) {
                    failed = Some(encode_error(p.line, e));
                }
            }
            Ok(())
        },
    )?;
    let target = |(name, col): (&str, usize), line| {
        labels
            .get(name)
            .map(|&pc| i64::from(pc))
            .ok_or_else(|| undefined_label(name, line, col))
    };
    let mut resolved = Vec::with_capacity(pending.len());
    for (at, p) in &pending {
        let here = i64::from(*at);
        let mut inst = p.inst;
        let op = inst.opcode;
        if let Some(t) = p.jip {
            inst.branch.jip = Some(syntax::target_operand(op, here, target(t, p.line)?) as i32);
        }
        if let Some(t) = p.uip {
            inst.branch.uip = Some(syntax::target_operand(op, here, target(t, p.line)?) as i32);
        }
        resolved.push((*at, p.line, inst));
    }
    let mut bytes = Vec::with_capacity(16);
    for (at, line, inst) in resolved {
        if failed.as_ref().is_some_and(|f| f.line < line) {
            break;
        }
        bytes.clear();
        encode_into(platform, &inst, &mut bytes).map_err(|e| encode_error(line, e))?;
        let at = at as usize;
        if let Some(slot) = out.get_mut(at..at + bytes.len()) {
            slot.copy_from_slice(&bytes);
        }
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(out),
    }
}
