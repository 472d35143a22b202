//! IGA syntax: the printer (equal to `iga64 -d` byte for byte) and the parser.

pub mod float;
mod grf_operand;
pub mod parse;
pub mod print;
mod scan;
pub mod syntax;
mod token_cache;

use platform::Platform;

use crate::error::KernelDecodeError;
use crate::kernel::{frames, Decoded};
use crate::memo::Memo;
use crate::model::Instruction;

/// The PCs iga64 puts a label on, sorted: 0, every branch target, and the instruction after a
/// branch or an EOT send. `insts` gives each instruction with its PC and the PC after it.
fn block_starts<'i>(insts: impl Iterator<Item = (i64, i64, &'i Instruction)>) -> Vec<i64> {
    let mut starts = vec![0];
    for (pc, next, i) in insts {
        for off in [i.branch.jip, i.branch.uip].into_iter().flatten() {
            starts.push(syntax::target_pc(i.opcode, pc, off));
        }
        if syntax::ends_block(i.opcode) || print::is_eot(i) {
            // Also past the last instruction: iga64 then ends with an empty block's label.
            starts.push(next);
        }
    }
    starts.sort_unstable();
    starts.dedup();
    starts
}

fn size(i: &Instruction) -> i64 {
    if i.is_compacted() {
        8
    } else {
        16
    }
}

/// Prints instructions in PC order with their block labels.
struct Printer<'s> {
    platform: Platform,
    out: String,
    starts: &'s [i64],
}

impl Printer<'_> {
    fn inst(&mut self, pc: u32, inst: &Instruction) {
        self.label(pc);
        print::format_instruction(&mut self.out, self.platform, inst, pc);
        self.out.push('\n');
    }

    /// The block label at `pc`, if a block starts there.
    fn label(&mut self, pc: u32) {
        let pc64 = i64::from(pc);
        if self.starts.binary_search(&pc64).is_ok() {
            print::push_label(&mut self.out, pc64);
            self.out.push_str(":\n");
        }
    }

    /// The label after the last instruction, if a block starts there.
    fn end(mut self, end: i64) -> String {
        if self.starts.binary_search(&end).is_ok() {
            print::push_label(&mut self.out, end);
            self.out.push_str(":\n");
        }
        self.out
    }
}

/// Formats decoded instructions as iga64 does, with `L<pc>:` block labels.
pub fn format_kernel(platform: Platform, insts: &[Decoded]) -> String {
    let starts = block_starts(insts.iter().enumerate().map(|(k, d)| {
        let pc = i64::from(d.pc);
        let next = insts
            .get(k + 1)
            .map_or(pc + size(&d.inst), |n| i64::from(n.pc));
        (pc, next, &d.inst)
    }));
    let mut p = Printer {
        platform,
        out: String::with_capacity(insts.len() * 100),
        starts: &starts,
    };
    for d in insts {
        p.inst(d.pc, &d.inst);
    }
    match insts.last() {
        Some(last) => p.end(i64::from(last.pc) + size(&last.inst)),
        None => p.out,
    }
}

/// Disassembles a kernel's bytes to the text `iga64 -d -p=<platform>` prints.
pub fn disassemble(platform: Platform, bytes: &[u8]) -> Result<String, KernelDecodeError> {
    // iga64's text is about seven times the size of the binary.
    let mut out = String::with_capacity(bytes.len() * 8);
    disassemble_with(platform, bytes, |t| {
        out.push_str(t);
        Ok::<(), std::convert::Infallible>(())
    })
    .map_err(|e| match e {
        Emitted::Decode(e) => e,
        Emitted::Sink(never) => match never {},
    })?;
    Ok(out)
}

/// Why [`disassemble_to`] stopped.
#[derive(Debug, thiserror::Error)]
pub enum DisassembleToError {
    /// The bytes do not decode; nothing was written.
    #[error(transparent)]
    Decode(#[from] KernelDecodeError),
    /// Writing the text failed.
    #[error("writing the text: {0}")]
    Write(#[from] std::io::Error),
}

/// [`disassemble`], writing the text to `w` in pieces of at most 256 KiB instead of building it
/// in memory. Every instruction is decoded before anything is written, so text is written only
/// for a kernel that decodes.
pub fn disassemble_to(
    platform: Platform,
    bytes: &[u8],
    w: &mut impl std::io::Write,
) -> Result<(), DisassembleToError> {
    const PIECE: usize = 256 * 1024;
    let mut buf = String::with_capacity(PIECE + 4096);
    disassemble_with(platform, bytes, |t| {
        buf.push_str(t);
        if buf.len() >= PIECE {
            w.write_all(buf.as_bytes())?;
            buf.clear();
        }
        Ok::<(), std::io::Error>(())
    })
    .map_err(|e| match e {
        Emitted::Decode(e) => DisassembleToError::Decode(e),
        Emitted::Sink(e) => DisassembleToError::Write(e),
    })?;
    w.write_all(buf.as_bytes())?;
    w.flush()?;
    Ok(())
}

/// A decode error (before any text is emitted) or the sink's.
enum Emitted<E> {
    Decode(KernelDecodeError),
    Sink(E),
}

/// One printed instruction: its address and where its text is in the text arena.
struct Printed {
    pc: u32,
    at: usize,
    len: usize,
}

/// Disassembles `bytes`, handing the text to `emit` in order, in pieces.
///
/// The first pass decodes and prints every instruction into an arena, each distinct
/// instruction word once (a repeated word without branch targets reuses the text of its first
/// occurrence: IGC's kernels repeat most of theirs), and collects the block starts; a decode
/// error ends it before anything is emitted. The second pass emits the block labels and the
/// instructions' texts.
fn disassemble_with<E>(
    platform: Platform,
    bytes: &[u8],
    mut emit: impl FnMut(&str) -> Result<(), E>,
) -> Result<(), Emitted<E>> {
    let mut arena = String::new();
    let mut printed: Vec<Printed> = Vec::with_capacity(bytes.len() / 12);
    let mut starts = vec![0i64];
    // Instruction words printed before (no branch targets): their text in the arena and
    // whether a block starts after them (EOT).
    let mut memo: Memo<u128, (usize, usize, bool)> = Memo::with_capacity(bytes.len() / 16);
    let mut end = 0;
    for f in frames(bytes) {
        let f = f.map_err(Emitted::Decode)?;
        let pc = f.pc as u32;
        end = (f.pc + f.bytes.len()) as i64;
        // A compacted word has CmptCtrl (bit 29) set, a native one clear: keys never collide.
        let key = match (<[u8; 16]>::try_from(f.bytes), <[u8; 8]>::try_from(f.bytes)) {
            (Ok(native), _) => Some(u128::from_le_bytes(native)),
            (_, Ok(compacted)) => Some(u128::from(u64::from_le_bytes(compacted))),
            _ => None,
        };
        if let Some((at, len, ends)) = key.and_then(|k| memo.get(&k).copied()) {
            printed.push(Printed { pc, at, len });
            if ends {
                starts.push(end);
            }
            continue;
        }
        let inst = f.decode(platform).map_err(Emitted::Decode)?;
        let ends_here = syntax::ends_block(inst.opcode) || print::is_eot(&inst);
        for off in [inst.branch.jip, inst.branch.uip].into_iter().flatten() {
            starts.push(syntax::target_pc(inst.opcode, i64::from(pc), off));
        }
        if ends_here {
            // Also past the last instruction: iga64 then ends with an empty block's label.
            starts.push(end);
        }
        let at = arena.len();
        print::format_instruction(&mut arena, platform, &inst, pc);
        let len = arena.len() - at;
        printed.push(Printed { pc, at, len });
        let no_targets = inst.branch.jip.is_none() && inst.branch.uip.is_none();
        if let (Some(key), true) = (key, no_targets) {
            memo.insert(key, (at, len, ends_here));
        }
    }
    starts.sort_unstable();
    starts.dedup();
    let sink = Emitted::Sink;
    let mut label = String::new();
    let mut emit_label = |pc: i64, emit: &mut dyn FnMut(&str) -> Result<(), E>| {
        if starts.binary_search(&pc).is_ok() {
            label.clear();
            print::push_label(&mut label, pc);
            label.push_str(":\n");
            emit(&label)?;
        }
        Ok(())
    };
    for p in &printed {
        emit_label(i64::from(p.pc), &mut emit).map_err(sink)?;
        let text = arena.get(p.at..p.at + p.len).unwrap_or_default();
        emit(text).map_err(sink)?;
        emit("\n").map_err(sink)?;
    }
    if end != 0 {
        emit_label(end, &mut emit).map_err(sink)?;
    }
    Ok(())
}
