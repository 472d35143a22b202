//! Syntax facts the printer and the parser share: which opcodes omit parts, column widths.

use platform::Platform;

use crate::model::{Opcode, Shape};

/// iga64's preferred column widths (its formatter pads each column to these and lets later
/// columns absorb earlier overflow).
pub mod cols {
    pub const PREDICATION: usize = 7;
    pub const OPCODE_EXEC: usize = 13;
    pub const FLAG_MOD: usize = 9;
    pub const DST: usize = 12;
    pub const SRC: usize = 16;
    pub const SEND_DST: usize = 7;
    pub const SEND_SRC: usize = 6;
    pub const SEND_DESC: usize = 10;
}

/// Opcodes whose execution size and offset are implicit, so `(1|M0)` is not written.
const IMPLICIT_EXEC: [Opcode; 5] = [
    Opcode::Illegal,
    Opcode::Nop,
    Opcode::Sync,
    Opcode::Jmpi,
    Opcode::Wait,
];

/// Logic opcodes: a negate source modifier means bitwise not, written `~`.
const LOGIC: [Opcode; 4] = [Opcode::And, Opcode::Or, Opcode::Xor, Opcode::Not];

/// Per platform ([`Platform::ALL`] order): branches carry no operand types or regions in the
/// syntax ("simplified branches", Gen12+).
const SIMPLIFIED_BRANCHES: [bool; 4] = [false, false, true, true];

/// Send destinations whose type iga64 leaves out when it is `:ud` (split sends always print it).
const SEND_DST_IMPLICIT_UD: [Opcode; 2] = [Opcode::Send, Opcode::Sendc];

/// The destination type iga64 omits on a send, if any.
pub fn send_dst_implicit_type(op: Opcode) -> Option<crate::model::DataType> {
    SEND_DST_IMPLICIT_UD
        .contains(&op)
        .then_some(crate::model::DataType::Ud)
}

/// True if `(N|Mk)` is not printed for `op`.
pub fn implicit_exec(op: Opcode) -> bool {
    IMPLICIT_EXEC.contains(&op)
}

/// True if `op`'s negate modifier prints as `~`.
pub fn is_logic(op: Opcode) -> bool {
    LOGIC.contains(&op)
}

/// True if branches on `platform` print labels and registers without types/regions.
pub fn simplified_branches(platform: Platform) -> bool {
    SIMPLIFIED_BRANCHES[platform as usize]
}

/// True if the instruction ends a basic block: iga64 starts a new label after it.
pub fn ends_block(op: Opcode) -> bool {
    op.shape() == Shape::Branch
}

/// Branches whose JIP is an absolute address rather than an offset from the instruction.
const ABSOLUTE_TARGET: [Opcode; 1] = [Opcode::Calla];

/// The byte address a branch operand `off` of instruction `op` at `pc` refers to.
pub fn target_pc(op: Opcode, pc: i64, off: i32) -> i64 {
    if ABSOLUTE_TARGET.contains(&op) {
        off as i64
    } else {
        pc + off as i64
    }
}

/// The branch operand that makes instruction `op` at `pc` refer to address `target`.
pub fn target_operand(op: Opcode, pc: i64, target: i64) -> i64 {
    if ABSOLUTE_TARGET.contains(&op) {
        target
    } else {
        target - pc
    }
}

/// Branches whose BranchCtrl bit iga64 shows (as `.b`); on the others the bit (which shares its
/// position with AccWrEn) is not printed at all.
const BRANCH_CTRL: [Opcode; 3] = [Opcode::If, Opcode::Else, Opcode::Goto];

/// True if `op.b` is how iga64 writes `op` with BranchCtrl set.
pub fn shows_branch_ctrl(op: Opcode) -> bool {
    BRANCH_CTRL.contains(&op)
}
