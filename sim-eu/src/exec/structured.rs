//! The structured branches (`if`, `else`, `endif`, `join`, `while`, `break`, `cont`, `halt`):
//! which of a branch's channels go to its target and where that is. The run loop's `branch`
//! and a translator that turns uniform branches into host jumps read the rule from here.

use isa_encoder::model::Opcode;

use crate::program::{Inst, Target};

/// Which of a branch's acting channels (enabled and executing: `a`) jump to its target, `p`
/// being the predicated ones among them; the others go on to the next instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Jumps {
    /// `if`: the channels whose predicate is not set.
    Unpredicated,
    /// `else`: every acting channel.
    All,
    /// `endif`, `join`: none (the instruction only lets waiting channels rejoin).
    Nothing,
    /// `while`, `break`, `cont`, `halt`: the predicated channels.
    Predicated,
}

impl Jumps {
    /// The jumping channels of `a` (acting) with `p` (predicated among them).
    #[inline(always)]
    pub fn of(self, a: u32, p: u32) -> u32 {
        match self {
            Jumps::Unpredicated => a & !p,
            Jumps::All => a,
            Jumps::Nothing => 0,
            Jumps::Predicated => p,
        }
    }
}

/// A structured branch: its rule, its target (`None` for [`Jumps::Nothing`], which has none;
/// else the JIP, or for `break`, `cont` and `halt` the UIP when it has one) and the name of
/// the field the target comes from.
pub fn structured(inst: &Inst) -> Option<(Jumps, Option<Target>, &'static str)> {
    Some(match inst.opcode {
        Opcode::If => (Jumps::Unpredicated, inst.jip, "JIP"),
        Opcode::Else => (Jumps::All, inst.jip, "JIP"),
        Opcode::Endif | Opcode::Join => (Jumps::Nothing, None, ""),
        Opcode::While => (Jumps::Predicated, inst.jip, "JIP"),
        Opcode::Break | Opcode::Cont | Opcode::Halt => {
            (Jumps::Predicated, inst.uip.or(inst.jip), "UIP")
        }
        _ => return None,
    })
}
