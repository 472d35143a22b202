//! Assembles IGA-syntax text into kernel bytes, as `iga64 -a` does: instructions marked
//! `{Compacted}` are emitted in their 8-byte form (an error if they have none), all others
//! natively.
//!
//! One pass over the text: each instruction is encoded as soon as it is parsed, except
//! branches to labels, which are encoded once every label's address is known. Errors are the
//! ones a parse-everything-first assembler gives: the first text error, else the first
//! undefined label, else the first instruction that does not encode.

use std::cell::{Cell, RefCell};

use platform::Platform;

use crate::error::{AsmError, EncodeError};
use crate::kernel::encode_into;
use crate::memo::Memo;
use crate::model::FastMap;
use crate::text::parse::{
    inst_size, label_defined_twice, parse_lines, undefined_label, Known, LineInst,
};
use crate::text::syntax;

fn encode_error(line: usize, e: EncodeError) -> AsmError {
    AsmError {
        line,
        column: 1,
        message: e.to_string(),
    }
}

/// An instruction's bytes, as a line of text assembled: 8 (compacted) or 16.
#[derive(Clone, Copy)]
struct Assembled {
    bytes: [u8; 16],
    len: u8,
}

/// Which of the assembler's memos are used. Neither changes the result, only the time: off,
/// every line (token) is parsed in full, which is how to measure the per-line work alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Memos {
    /// Whole lines seen before, and their bytes (this table also switches itself off when it
    /// finds too few repeats).
    pub lines: bool,
    /// Parses of single tokens (operands, mnemonics, options...), by their bytes.
    pub tokens: bool,
}

impl Memos {
    /// Both memos: what [`assemble`] uses.
    pub const ALL: Memos = Memos {
        lines: true,
        tokens: true,
    };
    /// Neither.
    pub const NONE: Memos = Memos {
        lines: false,
        tokens: false,
    };
}

/// Assembles `text` for `platform`.
pub fn assemble(platform: Platform, text: &str) -> Result<Vec<u8>, AsmError> {
    assemble_with(platform, text, Memos::ALL)
}

/// [`assemble`] with the chosen memos (the same bytes or error whichever are used).
pub fn assemble_with(platform: Platform, text: &str, memos: Memos) -> Result<Vec<u8>, AsmError> {
    // iga64's text takes about seven bytes per byte of binary.
    let out = RefCell::new(Vec::with_capacity(text.len() / 6));
    let pc = Cell::new(0u32);
    let mut labels: FastMap<&str, u32> = FastMap::default();
    // Branches to labels: their address (where their bytes go), and the parsed line.
    let mut pending: Vec<(u32, LineInst)> = Vec::new();
    // The first instruction (not pending) that did not encode; nothing is encoded after it.
    let failed: RefCell<Option<AsmError>> = RefCell::new(None);
    // Lines seen before (without labels or branch targets), and their bytes.
    // iga64's lines are about 90 bytes long.
    let memo: RefCell<Memo<&str, Assembled>> = RefCell::new(Memo::with_capacity(if memos.lines {
        text.len() / 90
    } else {
        0
    }));
    parse_lines(
        platform,
        text,
        memos.tokens,
        |name, line, col| match labels.insert(name, pc.get()) {
            Some(_) => Err(label_defined_twice(name, line, col)),
            None => Ok(()),
        },
        |p, key| {
            let here = pc.get();
            pc.set(here + inst_size(&p.inst));
            let mut out = out.borrow_mut();
            let mut failed = failed.borrow_mut();
            if p.jip.is_some() || p.uip.is_some() {
                // Until something fails to encode, `out` ends at `here`.
                if failed.is_none() {
                    let len = out.len() + inst_size(&p.inst) as usize;
                    out.resize(len, 0);
                }
                pending.push((here, p.clone()));
            } else if failed.is_none() {
                let start = out.len();
                match encode_into(platform, &p.inst, &mut out) {
                    Ok(()) => {
                        if let (Some(key), Some(done)) = (key, out.get(start..)) {
                            let mut a = Assembled {
                                bytes: [0; 16],
                                len: done.len() as u8,
                            };
                            if let Some(slot) = a.bytes.get_mut(..done.len()) {
                                slot.copy_from_slice(done);
                                memo.borrow_mut().insert(key, a);
                            }
                        }
                    }
                    Err(e) => *failed = Some(encode_error(p.line, e)),
                }
            }
            Ok(())
        },
        |key, _line| {
            let mut memo = memo.borrow_mut();
            if !memos.lines || !memo.is_on() {
                return Known::StopAsking;
            }
            // After a failure the full path runs (it still parses, reporting text errors).
            if failed.borrow().is_some() {
                return Known::Parse;
            }
            let Some(a) = memo.get(&key) else {
                return Known::Parse;
            };
            let bytes = a.bytes.get(..usize::from(a.len)).unwrap_or_default();
            pc.set(pc.get() + u32::from(a.len));
            out.borrow_mut().extend_from_slice(bytes);
            Known::Done
        },
    )?;
    let mut out = out.into_inner();
    let failed = failed.into_inner();
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
