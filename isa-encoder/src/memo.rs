//! Memo tables for the assembler and disassembler: IGC's kernels repeat most of their
//! instructions (the same code at SIMD8, 16 and 32, the same prologues and sends), so each
//! distinct line of text (or instruction word) is parsed and encoded (decoded and printed)
//! once per run, and a repeat costs a hash look-up.
//!
//! Only what is a function of the key alone is kept: instructions without branch targets
//! (whose text and bytes depend on their address) and without label definitions, and only
//! successes (an error is always reported by the full path, with its line and column).
//! The hash is seeded per table from std's random keys, so text chosen to collide cannot be
//! prepared in advance; a table that stops paying (few repeats) turns itself off.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

/// A word-at-a-time multiply-fold hash with a random seed.
pub(crate) struct SeededHasher {
    h: u64,
    seed: u64,
}

const K: u64 = 0x9E37_79B9_7F4A_7C15;

fn fold(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

impl Hasher for SeededHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(c.try_into().unwrap_or_default());
            self.h = fold(self.h ^ w, self.seed ^ K);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.h = fold(self.h ^ u64::from_le_bytes(last), self.seed ^ K);
        }
        self.h = self.h.wrapping_add(bytes.len() as u64);
    }
    fn write_u64(&mut self, v: u64) {
        self.h = fold(self.h ^ v, self.seed ^ K);
    }
    fn write_u128(&mut self, v: u128) {
        self.write_u64(v as u64);
        self.write_u64((v >> 64) as u64);
    }
    fn finish(&self) -> u64 {
        fold(self.h, self.seed.rotate_left(32) ^ K)
    }
}

/// Builds [`SeededHasher`]s with one random seed.
#[derive(Clone)]
pub(crate) struct Seed(u64);

impl Default for Seed {
    fn default() -> Seed {
        // std's per-process random keys, through its own hasher once.
        let seed = std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64);
        Seed(seed | 1)
    }
}

impl BuildHasher for Seed {
    type Hasher = SeededHasher;
    fn build_hasher(&self) -> SeededHasher {
        SeededHasher {
            h: self.0,
            seed: self.0,
        }
    }
}

/// Look-ups after which a table checks that it pays, and the share of hits it needs then.
const PROBATION: u32 = 1024;
const MIN_HIT_SHARE: u32 = 8;

/// A memo table: key -> value, with hit counting and switching off.
pub(crate) struct Memo<K, V> {
    map: HashMap<K, V, Seed>,
    lookups: u32,
    hits: u32,
    on: bool,
}

impl<K: std::hash::Hash + Eq, V> Memo<K, V> {
    /// A table with room for `n` entries, at most as many as its probation can insert: growing
    /// it by rehashing costs more than the look-ups on text with few repeats.
    pub fn with_capacity(n: usize) -> Self {
        let n = n.min(PROBATION as usize);
        Memo {
            map: HashMap::with_capacity_and_hasher(n, Seed::default()),
            lookups: 0,
            hits: 0,
            on: true,
        }
    }

    /// The value for `key`, if the table is on and has it.
    pub fn get(&mut self, key: &K) -> Option<&V> {
        if !self.on {
            return None;
        }
        self.lookups += 1;
        if self.lookups == PROBATION && self.hits < PROBATION / MIN_HIT_SHARE {
            // Mostly distinct input: hashing would cost more than it saves.
            self.on = false;
            self.map = HashMap::with_hasher(Seed::default());
            return None;
        }
        let v = self.map.get(key);
        self.hits += u32::from(v.is_some());
        v
    }

    pub fn insert(&mut self, key: K, value: V) {
        if self.on {
            self.map.insert(key, value);
        }
    }

    /// Whether the table is still in use.
    pub fn is_on(&self) -> bool {
        self.on
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_hash_equal_and_lengths_differ() {
        let s = Seed::default();
        assert_eq!(
            s.hash_one("mov (8|M0) r1.0<1>:f"),
            s.hash_one("mov (8|M0) r1.0<1>:f")
        );
        assert_ne!(s.hash_one("r1"), s.hash_one("r1\0"));
        assert_ne!(s.hash_one(1u128), s.hash_one(1u128 << 64));
    }

    #[test]
    fn a_table_of_distinct_keys_switches_off_and_keeps_answering_none() {
        let mut m: Memo<u32, u32> = Memo::with_capacity(0);
        for k in 0..PROBATION * 2 {
            assert_eq!(m.get(&k), None);
            m.insert(k, k);
        }
        assert!(!m.is_on());
        let mut m: Memo<u32, u32> = Memo::with_capacity(0);
        m.insert(7, 70);
        for _ in 0..PROBATION * 2 {
            assert_eq!(m.get(&7), Some(&70));
        }
        assert!(m.is_on());
    }
}
