//! The instruction model shared by every codec, the printer and the parser.
//!
//! It describes instructions the way IGA's syntax does (element-unit subregisters, regions as
//! written, raw immediate bits), so that text <-> model <-> bits are all lossless. Platform
//! differences live in the tables next to each enum ([`opcode::OPCODES`], [`sfid`]) and in the
//! native codecs' field tables, never in this model's types.

pub mod bfn;
pub mod inst;
pub mod opcode;
pub mod operand;
pub mod reg;
pub mod sfid;
pub mod swsb;
pub mod types;

pub use inst::{
    BranchTargets, CondMod, ExecSize, InstOpts, Instruction, MathFn, PredCtrl, Predicate, SendDesc,
    SendInfo, Subfunction, SyncFn, DPAS_OPERAND_REGION, INST_OPT_NAMES,
};
pub use opcode::{Opcode, Shape, OPCODES};
pub use operand::{
    Addressing, Immediate, MacroOperand, MathMacroAcc, Operand, RegOperand, Region, SrcMod,
};
pub use reg::{FlagReg, Reg, RegFile, ARFS};
pub use swsb::{DistPipe, Swsb, TokenMode};
pub use types::DataType;

/// `a == b` for the short names of the model's tables, compared byte by byte in line: the
/// assembler looks names up for every operand, and `==` on `str` calls `memcmp` for each row of
/// equal length.
pub(crate) fn name_eq(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// A table name of at most 7 bytes packed with its length into one integer, so that a look-up
/// compares one word per row instead of strings. `None` for longer names, which no table holds.
pub(crate) fn name_key(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    if b.len() > 7 {
        return None;
    }
    // A loop, not a copy into a buffer: the copy's unknown length makes it a `memcpy` call.
    let len = (b.len() as u64) << 56;
    Some(
        b.iter()
            .enumerate()
            .fold(len, |k, (i, &c)| k | u64::from(c) << (8 * i)),
    )
}

/// [`name_key`] of a table's name, at compile time; a name too long for a key does not compile.
pub(crate) const fn table_key(s: &str) -> u64 {
    let b = s.as_bytes();
    assert!(b.len() <= 7, "table names have at most 7 bytes");
    let mut k = (b.len() as u64) << 56;
    let mut i = 0;
    while i < b.len() {
        k |= (b[i] as u64) << (8 * i);
        i += 1;
    }
    k
}

/// The keys of a table's names, in the table's order: `name_keys!(TABLE, |row| row.1)`.
macro_rules! name_keys {
    ($table:expr, |$row:ident| $name:expr) => {{
        let mut keys = [0u64; $table.len()];
        let mut i = 0;
        while i < keys.len() {
            let $row = &$table[i];
            keys[i] = $crate::model::table_key($name);
            i += 1;
        }
        keys
    }};
}
pub(crate) use name_keys;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_time_and_compile_time_keys_agree() {
        for name in ["", "b", "ud", "tf32", "illegal", "nomme"] {
            assert_eq!(name_key(name), Some(table_key(name)), "{name}");
        }
        assert_eq!(name_key("toolongname"), None);
        // The length is part of the key: a NUL byte does not make "b" into "b\0".
        assert_ne!(name_key("b"), name_key("b\0"));
    }
}
