//! IGA syntax: the printer (equal to `iga64 -d` byte for byte) and the parser.

pub mod float;
pub mod parse;
pub mod print;
pub mod syntax;

use std::collections::BTreeSet;

use platform::Platform;

use crate::error::KernelDecodeError;
use crate::kernel::{decode_kernel, Decoded};

/// The PCs iga64 puts a label on: 0, every branch target, and the instruction after a branch
/// or an EOT send.
fn block_starts(insts: &[Decoded]) -> BTreeSet<i64> {
    let mut starts = BTreeSet::new();
    starts.insert(0);
    for (k, d) in insts.iter().enumerate() {
        let i = &d.inst;
        for off in [i.branch.jip, i.branch.uip].into_iter().flatten() {
            starts.insert(syntax::target_pc(i.opcode, d.pc as i64, off));
        }
        if syntax::ends_block(i.opcode) || print::is_eot(i) {
            // Also past the last instruction: iga64 then ends with an empty block's label.
            let next = insts
                .get(k + 1)
                .map_or(d.pc as i64 + size(i), |n| n.pc as i64);
            starts.insert(next);
        }
    }
    starts
}

fn size(i: &crate::model::Instruction) -> i64 {
    if i.is_compacted() {
        8
    } else {
        16
    }
}

/// Formats decoded instructions as iga64 does, with `L<pc>:` block labels.
pub fn format_kernel(platform: Platform, insts: &[Decoded]) -> String {
    let starts = block_starts(insts);
    let mut out = String::with_capacity(insts.len() * 100);
    for d in insts {
        if starts.contains(&(d.pc as i64)) {
            print::push_label(&mut out, d.pc as i64);
            out.push_str(":\n");
        }
        print::format_instruction(&mut out, platform, &d.inst, d.pc);
        out.push('\n');
    }
    if let Some(last) = insts.last() {
        let end = last.pc as i64 + size(&last.inst);
        if starts.contains(&end) {
            out.push_str(&print::label(end));
            out.push_str(":\n");
        }
    }
    out
}

/// Disassembles a kernel's bytes to the text `iga64 -d -p=<platform>` prints.
pub fn disassemble(platform: Platform, bytes: &[u8]) -> Result<String, KernelDecodeError> {
    Ok(format_kernel(platform, &decode_kernel(platform, bytes)?))
}
