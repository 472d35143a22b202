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

/// FNV-1a, for the assembler's label table: label names are a few bytes long. Not resistant
/// to chosen collisions, which SipHash (std's default) is, at several times the cost.
pub(crate) struct FastHasher(u64);

impl Default for FastHasher {
    fn default() -> FastHasher {
        FastHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with [`FastHasher`].
pub(crate) type FastMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<FastHasher>>;

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

/// A perfect hash of a table's name keys, built at compile time: each key has its own slot
/// among `SLOTS` (a power of two), so a look-up is one multiply, one load and one compare.
pub(crate) struct KeyIndex<const SLOTS: usize> {
    multiplier: u64,
    /// Row + 1 per slot; 0 for an empty slot.
    rows: [u8; SLOTS],
}

impl<const SLOTS: usize> KeyIndex<SLOTS> {
    const SHIFT: u32 = 64 - SLOTS.trailing_zeros();

    const fn slot(multiplier: u64, key: u64) -> usize {
        (key.wrapping_mul(multiplier) >> Self::SHIFT) as usize
    }

    /// Tries odd multipliers until no two keys share a slot. With at most a quarter of the
    /// slots used, a few tries do; a table with repeated keys does not compile.
    pub const fn new(keys: &[u64]) -> Self {
        assert!(SLOTS.is_power_of_two() && keys.len() < 255 && keys.len() * 4 <= SLOTS);
        let mut multiplier = 0x9e37_79b9_7f4a_7c15u64;
        let mut tries = 0;
        loop {
            let mut rows = [0u8; SLOTS];
            let mut i = 0;
            while i < keys.len() {
                let s = Self::slot(multiplier, keys[i]);
                if rows[s] != 0 {
                    break;
                }
                rows[s] = i as u8 + 1;
                i += 1;
            }
            if i == keys.len() {
                return KeyIndex { multiplier, rows };
            }
            tries += 1;
            assert!(tries < 10_000, "no perfect hash: repeated keys?");
            multiplier = multiplier.wrapping_add(0x6a09_e667_f3bc_c908) | 1;
        }
    }

    /// The row whose key is `key`, given the keys in row order.
    pub fn row(&self, keys: &[u64], key: u64) -> Option<usize> {
        let row = usize::from(self.rows[Self::slot(self.multiplier, key)]).checked_sub(1)?;
        (keys.get(row) == Some(&key)).then_some(row)
    }
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
