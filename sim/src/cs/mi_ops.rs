//! The arithmetic of MI_ATOMIC and MI_PREDICATE, apart from the command streamer's loop.
//!
//! MI_ATOMIC (PRM Vol. 2a, "MI_ATOMIC"): the operation reads the memory value, combines it with
//! Operand1 (`src0`) and, for CMP_WR, Operand2 (`src1`), and writes the result back. 4-byte
//! operations use Operand1/2 Data Dword 0; 8-byte ones Dword 0 (low) and Dword 1 (high).
//!
//! MI_PREDICATE (PRM Vol. 2a, "MI_PREDICATE"): the compare result is loaded (or its inverse, or
//! nothing) and combined with the current predicate by the Combine Operation.

use batchbuffer::{
    AtomicDataSize, AtomicOpcode, MiAtomic, PredicateCombine, PredicateCompare, PredicateLoad,
};

/// MI_PREDICATE_SRC0/SRC1 (64 bits each) and MI_PREDICATE_RESULT: the render engine's
/// registers as Mesa's `mi_builder` and NEO name them.
pub const MI_PREDICATE_SRC0: u32 = 0x2400;
pub const MI_PREDICATE_SRC1: u32 = 0x2408;
pub const MI_PREDICATE_RESULT: u32 = 0x2418;

/// What an MI_ATOMIC the simulator cannot execute lacks, or why it is malformed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AtomicProblem {
    /// Malformed: the Data Size disagrees with the opcode, or the address is not aligned.
    Bad(String),
    /// Legal but not simulated.
    Unsupported(String),
}

/// One MI_ATOMIC's operation on a value of `bytes` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AtomicOp {
    pub op: AtomicOpcode,
    pub bytes: u64,
    pub src0: u64,
    pub src1: u64,
}

impl AtomicOp {
    /// Checks an unpacked MI_ATOMIC and reads its operands.
    pub fn of(a: &MiAtomic) -> Result<AtomicOp, AtomicProblem> {
        use AtomicOpcode::*;
        let code = a.atomic_opcode as u32;
        let (bytes, size) = match code {
            0x01..=0x0f => (4, AtomicDataSize::Dword),
            0x21..=0x2f => (8, AtomicDataSize::Qword),
            _ => (16, AtomicDataSize::Octword),
        };
        if a.data_size != size {
            return Err(AtomicProblem::Bad(format!(
                "MI_ATOMIC {:?} with Data Size {:?}",
                a.atomic_opcode, a.data_size
            )));
        }
        if !a.memory_address.is_multiple_of(bytes) {
            return Err(AtomicProblem::Bad(format!(
                "MI_ATOMIC of {bytes} bytes at {:#x}",
                a.memory_address
            )));
        }
        let unsupported = |what: &str| Err(AtomicProblem::Unsupported(format!("MI_ATOMIC {what}")));
        if bytes == 16 {
            return unsupported("of 16 bytes (CMP_WR16B)");
        }
        if matches!(a.atomic_opcode, Predec | Predec8b) {
            return unsupported("PREDEC");
        }
        if a.return_data_control {
            return unsupported("with Return Data Control");
        }
        if a.post_sync_operation {
            return unsupported("with Post-Sync Operation");
        }
        let needs_operands = !matches!(a.atomic_opcode, Inc | Dec | Inc8b | Dec8b);
        if needs_operands && !a.inline_data {
            return unsupported("with operands from the GPRs (Inline Data clear)");
        }
        let wide = |lo: u32, hi: u32| {
            if bytes == 8 {
                u64::from(lo) | u64::from(hi) << 32
            } else {
                u64::from(lo)
            }
        };
        Ok(AtomicOp {
            op: a.atomic_opcode,
            bytes,
            src0: wide(a.operand1_data_dword_0, a.operand1_data_dword_1),
            src1: wide(a.operand2_data_dword_0, a.operand2_data_dword_1),
        })
    }

    /// The value written back over `old`.
    pub fn apply(&self, old: u64) -> u64 {
        use AtomicOpcode::*;
        let bits = self.bytes * 8;
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1 << bits) - 1
        };
        let signed = |v: u64| ((v << (64 - bits)) as i64) >> (64 - bits);
        let (m, s0) = (old & mask, self.src0 & mask);
        let r = match self.op {
            And | And8b => m & s0,
            Or | Or8b => m | s0,
            Xor | Xor8b => m ^ s0,
            Move | Move8b => s0,
            Inc | Inc8b => m.wrapping_add(1),
            Dec | Dec8b => m.wrapping_sub(1),
            Add | Add8b => m.wrapping_add(s0),
            Sub | Sub8b => m.wrapping_sub(s0),
            Rsub | Rsub8b => s0.wrapping_sub(m),
            Imax | Imax8b => {
                if signed(m) >= signed(s0) {
                    m
                } else {
                    s0
                }
            }
            Imin | Imin8b => {
                if signed(m) <= signed(s0) {
                    m
                } else {
                    s0
                }
            }
            Umax | Umax8b => m.max(s0),
            Umin | Umin8b => m.min(s0),
            CmpWr | CmpWr8b => {
                if m == s0 {
                    self.src1
                } else {
                    m
                }
            }
            // Refused by `of`.
            Predec | Predec8b | CmpWr16b => m,
        };
        r & mask
    }
}

/// The predicate after an MI_PREDICATE, given the current one and SRC0/SRC1; `None` for
/// DELTAS_EQUAL, which compares against values the simulator does not track.
pub fn predicate(
    current: bool,
    compare: PredicateCompare,
    load: PredicateLoad,
    combine: PredicateCombine,
    src0: u64,
    src1: u64,
) -> Option<bool> {
    let result = match compare {
        PredicateCompare::True => true,
        PredicateCompare::False => false,
        PredicateCompare::SrcsEqual => src0 == src1,
        PredicateCompare::DeltasEqual => return None,
    };
    let loaded = match load {
        PredicateLoad::Keep => current,
        PredicateLoad::Load => result,
        PredicateLoad::Loadinv => !result,
    };
    Some(match combine {
        PredicateCombine::Set => loaded,
        PredicateCombine::And => current && loaded,
        PredicateCombine::Or => current || loaded,
        PredicateCombine::Xor => current ^ loaded,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(op: AtomicOpcode, bytes: u64, src0: u64, src1: u64) -> AtomicOp {
        AtomicOp {
            op,
            bytes,
            src0,
            src1,
        }
    }

    #[test]
    fn four_byte_operations_wrap_and_compare_in_32_bits() {
        use AtomicOpcode::*;
        assert_eq!(op(Inc, 4, 0, 0).apply(0xffff_ffff), 0);
        assert_eq!(op(Dec, 4, 0, 0).apply(0), 0xffff_ffff);
        assert_eq!(op(Rsub, 4, 10, 0).apply(3), 7);
        assert_eq!(op(Imax, 4, 5, 0).apply(0xffff_fffe), 5);
        assert_eq!(op(Umax, 4, 5, 0).apply(0xffff_fffe), 0xffff_fffe);
        assert_eq!(op(CmpWr, 4, 7, 9).apply(7), 9);
        assert_eq!(op(CmpWr, 4, 7, 9).apply(8), 8);
    }

    #[test]
    fn eight_byte_operations_use_64_bits() {
        use AtomicOpcode::*;
        assert_eq!(op(Inc8b, 8, 0, 0).apply(0xffff_ffff), 0x1_0000_0000);
        assert_eq!(op(Imin8b, 8, 1, 0).apply(u64::MAX), u64::MAX);
        assert_eq!(
            op(Move8b, 8, 0x1234_5678_9abc, 0).apply(1),
            0x1234_5678_9abc
        );
    }

    #[test]
    fn predicate_load_and_combine() {
        use PredicateCombine as C;
        use PredicateCompare as P;
        use PredicateLoad as L;
        assert_eq!(
            predicate(false, P::SrcsEqual, L::Load, C::Set, 3, 3),
            Some(true)
        );
        assert_eq!(
            predicate(false, P::SrcsEqual, L::Loadinv, C::Set, 3, 3),
            Some(false)
        );
        assert_eq!(predicate(true, P::False, L::Load, C::Or, 0, 0), Some(true));
        assert_eq!(predicate(true, P::True, L::Load, C::Xor, 0, 0), Some(false));
        assert_eq!(predicate(true, P::True, L::Keep, C::And, 0, 0), Some(true));
        assert_eq!(predicate(true, P::DeltasEqual, L::Load, C::Set, 0, 0), None);
    }
}
