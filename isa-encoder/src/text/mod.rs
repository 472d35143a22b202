//! IGA syntax: the printer (equal to `iga64 -d` byte for byte) and the parser.

pub mod float;
mod grf_operand;
pub mod parse;
pub mod print;
mod scan;
pub mod syntax;

use platform::Platform;

use crate::error::KernelDecodeError;
use crate::kernel::{decode_kernel, frames, Decoded};
use crate::memo::Memo;
use crate::model::{Instruction, Shape};

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
///
/// Two passes over the bytes, keeping no instruction list: the first decodes only the
/// branches and sends (the instructions that start blocks), the second decodes and prints
/// every instruction.
pub fn disassemble(platform: Platform, bytes: &[u8]) -> Result<String, KernelDecodeError> {
    let mut marks = Vec::new();
    for f in frames(bytes) {
        let Ok(f) = f else {
            // Report the first error exactly as decoding the whole kernel does.
            return Ok(format_kernel(platform, &decode_kernel(platform, bytes)?));
        };
        let shape = f.opcode(platform).map(|op| op.shape());
        if matches!(shape, Some(Shape::Branch | Shape::Send)) {
            let Ok(inst) = f.decode(platform) else {
                return Ok(format_kernel(platform, &decode_kernel(platform, bytes)?));
            };
            marks.push((f.pc as i64, (f.pc + f.bytes.len()) as i64, inst));
        }
    }
    let starts = block_starts(marks.iter().map(|(pc, next, i)| (*pc, *next, i)));
    let mut p = Printer {
        platform,
        // iga64's text is about seven times the size of the binary.
        out: String::with_capacity(bytes.len() * 8),
        starts: &starts,
    };
    let mut end = 0;
    // Instruction words printed before (without branch targets, whose text depends on their
    // address), and where their text is in `seen`.
    let mut memo: Memo<u128, (usize, usize)> = Memo::new();
    let mut seen = String::new();
    for f in frames(bytes) {
        let f = f?;
        end = (f.pc + f.bytes.len()) as i64;
        let pc = f.pc as u32;
        p.label(pc);
        // A compacted word has CmptCtrl (bit 29) set, a native one clear: keys never collide.
        let key = match (<[u8; 16]>::try_from(f.bytes), <[u8; 8]>::try_from(f.bytes)) {
            (Ok(native), _) => Some(u128::from_le_bytes(native)),
            (_, Ok(compacted)) => Some(u128::from(u64::from_le_bytes(compacted))),
            _ => None,
        };
        let known = key.and_then(|k| memo.get(&k).copied());
        if let Some(text) = known.and_then(|(at, len)| seen.get(at..at + len)) {
            p.out.push_str(text);
            p.out.push('\n');
            continue;
        }
        let inst = f.decode(platform)?;
        let start = p.out.len();
        print::format_instruction(&mut p.out, platform, &inst, pc);
        let no_targets = inst.branch.jip.is_none() && inst.branch.uip.is_none();
        if let (Some(key), true) = (key, no_targets && memo.is_on()) {
            let text = p.out.get(start..).unwrap_or_default();
            memo.insert(key, (seen.len(), text.len()));
            seen.push_str(text);
        }
        p.out.push('\n');
    }
    Ok(if end == 0 { p.out } else { p.end(end) })
}
